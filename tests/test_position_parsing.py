"""Reading position text stays linear in time and small in memory, whatever the input.

The reader is checked against a straightforward reference (the text split into lines, blank
lines dropped at both ends) on random texts of a small alphabet rich in line breaks and
spaces: same position or same error, same line and column. Its cost is checked by the
ratio of the work on n and on 8n blank lines (never by an absolute time), and its memory
by tracemalloc's peak against the text's length.
"""

from __future__ import annotations

import contextlib
import random
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minesolver.position as position_module
from minesolver.position import (
    _CHAR_VALUE,
    MAX_SIDE,
    MAX_TEXT,
    Position,
    PositionFormatError,
    _check_size,
    parse_dimensions,
)


def reference_from_text(text: str) -> Position:
    """The plain reading: ``splitlines``, blank lines dropped at both ends, rows checked
    one by one (quadratic on leading blank lines, a string per line: fine for small texts)."""
    numbered = [(n + 1, line.strip()) for n, line in enumerate(text.splitlines())]
    while numbered and not numbered[-1][1]:
        numbered.pop()
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    if not numbered:
        raise PositionFormatError("line 1: empty position text")
    header = parse_dimensions(numbered[0][1], f"line {numbered[0][0]}")
    if header is not None:
        numbered = numbered[1:]
    elif "x" in numbered[0][1].lower() and numbered[0][1][0].isdigit():
        raise PositionFormatError(
            f"line {numbered[0][0]}: malformed header {numbered[0][1]!r} "
            "(expected WIDTHxHEIGHTxMINES)"
        )
    if not numbered:
        raise PositionFormatError("line 2: header but no rows")
    width = len(numbered[0][1])
    if len(numbered) > MAX_SIDE or width > MAX_SIDE:
        _check_size(width, len(numbered), f"line {numbered[0][0]}")
    cells: list[int] = []
    for line_no, row in numbered:
        if not row:
            raise PositionFormatError(f"line {line_no}: empty row inside the board")
        if len(row) != width:
            raise PositionFormatError(
                f"line {line_no}, column {min(len(row), width) + 1}: row has "
                f"{len(row)} cells, the first row has {width}"
            )
        for col, ch in enumerate(row):
            if ch not in _CHAR_VALUE:
                why = (
                    "digit 9 is more than the 8 neighbours a cell has"
                    if ch == "9"
                    else f"unknown character {ch!r} (expected H, F, 0-8, '.' or '?')"
                )
                raise PositionFormatError(f"line {line_no}, column {col + 1}: {why}")
        cells.extend(_CHAR_VALUE[ch] for ch in row)
    _check_size(width, len(numbered), f"line {numbered[0][0]}")
    mines = None
    if header is not None:
        hw, hh, mines = header
        if (hw, hh) != (width, len(numbered)):
            raise PositionFormatError(
                f"line {numbered[0][0] - 1}: header says {hw}x{hh} but the rows "
                f"make a {width}x{len(numbered)} board"
            )
    return Position(width, len(numbered), tuple(cells), mines)


def outcome(read: Callable[[str], Position], text: str) -> Position | str:
    try:
        return read(text)
    except PositionFormatError as exc:
        return f"error: {exc}"


BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028"]
PIECES = st.sampled_from(
    [*BREAKS, " ", "\t", "\x1f", "H", "F", "1", "0", "9", "x", "2x2x1", "3x1x0", "HH", "H1H", "*"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=24).map("".join))
def test_reader_agrees_with_the_reference(text: str) -> None:
    assert outcome(Position.from_text, text) == outcome(reference_from_text, text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from([*BREAKS, " "]), max_size=12).map("".join),
    st.lists(st.sampled_from([*BREAKS, " "]), max_size=12).map("".join),
)
def test_blank_lines_around_a_board_are_counted_in_line_numbers(before: str, after: str) -> None:
    text = before + "3x2x1\nH1H\nHZH" + after
    assert outcome(Position.from_text, text) == outcome(reference_from_text, text)
    assert "column 2" in str(outcome(Position.from_text, text))


def parse_seconds(text: str, repeats: int = 3) -> float:
    """The least CPU time of a few parses (the least is the least disturbed by others)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        Position.from_text(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("blank", ["\n", "\r\n", " \n", "\u2028"])
def test_parse_time_is_linear_in_blank_lines(blank: str) -> None:
    """8 times the blank lines cost about 8 times the time: a quadratic reader (a list
    popped at its front) costs 64 times; the bound of 24 leaves room for noise."""
    n = 40_000
    small = parse_seconds(blank * n + "1x1x0\n0\n" + blank * n)
    large = parse_seconds(blank * (8 * n) + "1x1x0\n0\n" + blank * (8 * n))
    assert large < 24 * max(small, 1e-3), (small, large)


def peak_bytes(text: str) -> int:
    tracemalloc.start()
    try:
        with contextlib.suppress(PositionFormatError):
            Position.from_text(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_blank_lines_cost_no_string_each() -> None:
    """A million blank lines: memory of the order of one copy of the text (a string per
    line, as ``splitlines`` makes, would be about 50 bytes per line)."""
    text = "\n" * 500_000 + "2x1x1\nH1\n" + "\n" * 500_000
    assert Position.from_text(text) == Position.from_text("2x1x1\nH1\n")
    assert peak_bytes(text) < 3 * len(text)


def test_a_text_over_the_limit_is_refused_before_any_work() -> None:
    text = "\n" * MAX_TEXT + "1x1x0\n0\n"
    with pytest.raises(PositionFormatError, match=r"^character \d+: .* exceeds the limit"):
        Position.from_text(text)
    assert peak_bytes(text) < 64 * 1024  # neither split nor copied
    assert Position.from_text("\n" * (MAX_TEXT - 8) + "1x1x0\n0\n").width == 1


def test_blank_lines_inside_the_board_are_counted_not_split() -> None:
    text = "2x2x1\nHH\n" + "\n" * 300_000 + "HH\n"
    with pytest.raises(PositionFormatError, match=r"^line 2: board 2x300002 exceeds the limit"):
        Position.from_text(text)
    assert peak_bytes(text) < 3 * len(text)
    with pytest.raises(PositionFormatError, match=r"^line 3: empty row inside the board"):
        Position.from_text("2x2x1\nHH\n" + "\n" * 900 + "HH\n")


def test_the_command_line_reads_no_more_than_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """50 MB of newlines: one line ``error: …`` and status 2, the file never read whole."""
    from minesolver.ui.cli import main

    big = tmp_path / "big.txt"
    with big.open("w", encoding="utf-8") as out:
        for _ in range(50):
            out.write("\n" * 2**20)
        out.write("1x1x0\n0\n")
    tracemalloc.start()
    try:
        assert main(["solve", str(big)]) == 2
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    err = capsys.readouterr().err
    assert err.startswith("error: character ") and "exceeds the limit" in err
    assert err.count("\n") == 1
    assert peak < 4 * MAX_TEXT  # the limit's worth of text, not 50 MB (nor GBs of lines)
    bom = tmp_path / "bom.txt"
    bom.write_text("\ufeff" + "\n" * (MAX_TEXT + 1), encoding="utf-8")
    assert main(["solve", str(bom)]) == 2  # a byte-order mark does not let a long text pass
    assert "exceeds the limit" in capsys.readouterr().err


def _near_plain_text(rng: random.Random) -> str:
    """A text as ``to_text`` writes it (header or not), sometimes with a character put in
    or taken out: what the fast reader takes or hands to the general one."""
    width, height = rng.randint(1, 6), rng.randint(1, 6)
    cells = "".join(rng.choice("HF012345678.?") for _ in range(width * height))
    lines = [cells[i * width : (i + 1) * width] for i in range(height)]
    if rng.random() < 0.6:
        x = rng.choice("xX")
        lines.insert(0, f"{width + rng.choice([0, 0, 1])}{x}{height}{x}{rng.randint(0, 40)}")
    chars = list(rng.choice(["", "\n"]) + "\n".join(lines) + rng.choice(["", "\n", "\n\n"]))
    for _ in range(rng.choice([0, 0, 1, 2])):
        k = rng.randrange(len(chars) + 1)
        if rng.random() < 0.5:
            chars.insert(k, rng.choice("HF0.?9x X\n\r\t*\u00e9"))
        else:
            chars.pop(min(k, len(chars) - 1))
    return "".join(chars)


def test_the_fast_reader_agrees_with_the_general_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain texts go through a reader of a few C calls; every text must read (or fail,
    with the same line and column) as the general reader reads it."""
    rng = random.Random(11)
    texts = [_near_plain_text(rng) for _ in range(3000)]

    def read(text: str) -> tuple[object, ...]:
        try:
            p = Position.from_text(text)
        except PositionFormatError as e:
            return ("error", str(e), e.line, e.column)
        return (p.width, p.height, p.cells, p.mines, p.raw())

    fast = [read(t) for t in texts]
    monkeypatch.setattr(position_module, "_plain_text", lambda text: None)
    general = [read(t) for t in texts]
    assert sum(r[0] != "error" for r in fast) > 500  # most read: the fast path is exercised
    for text, a, b in zip(texts, fast, general, strict=True):
        assert a == b, text
