"""Terminal renderings: coordinates, legends, no-colour readability, plain-word reasons."""

from __future__ import annotations

import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from minesolver.analysis import analyze
from minesolver.display import board_text, heat_map, plain_reason
from minesolver.game import Move
from minesolver.position import Position

EXAMPLE = "5x5x5\nHHHHH\nHHHHH\n112HH\n00HHH\n000HH\n"


def _no_colour(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=200, no_color=True, record=True)
    console.print(renderable, end="")
    return console.export_text()


def test_heat_map_has_coordinates_and_a_legend_and_tells_digits_from_probabilities() -> None:
    analysis = analyze(Position.from_text(EXAMPLE))
    lines = _no_colour(heat_map(analysis)).splitlines()
    assert lines[0].split() == ["0", "1", "2", "3", "4"]
    assert [line.split()[0] for line in lines[1:6]] == ["0", "1", "2", "3", "4"]
    assert lines[-1].startswith("legend:") and "mine probability" in lines[-1]
    probs = analysis.probabilities
    for y in range(5):
        row = lines[1 + y][2:]
        cells = [row[3 * x : 3 * x + 3] for x in range(5)]
        for x, cell in enumerate(cells):
            p = probs.get((x, y))
            if p is None:
                assert re.fullmatch(r" [1-8] |   ", cell), cell
            elif p == 0:
                assert cell == " S "
            elif p == 1:
                assert cell == " M "
            else:
                assert re.fullmatch(r"[ \d]\d%", cell), cell
                assert int(cell[:2]) == min(99, max(1, round(100 * float(p))))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_no_colour_cells_are_one_kind_each(seed: int) -> None:
    """On random small positions, every heat-map cell reads as exactly one kind."""
    import random

    rng = random.Random(seed)
    w, h = rng.randint(2, 6), rng.randint(2, 5)
    mines = rng.sample(range(w * h), rng.randint(1, w * h // 3 + 1))
    opened = set(rng.sample(range(w * h), w * h // 2)) - set(mines)
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            i = y * w + x
            if i in opened:
                row += str(
                    sum(
                        (x + dx, y + dy) in {(m % w, m // w) for m in mines}
                        for dx in (-1, 0, 1)
                        for dy in (-1, 0, 1)
                        if (dx, dy) != (0, 0)
                    )
                )
            else:
                row += "H"
        rows.append(row)
    position = Position.from_text(f"{w}x{h}x{len(mines)}\n" + "\n".join(rows) + "\n")
    analysis = analyze(position)
    lines = _no_colour(heat_map(analysis, legend=False)).splitlines()
    margin = len(str(h - 1)) + 1
    for y in range(h):
        row = lines[1 + y][margin:].ljust(3 * w)
        for x in range(w):
            cell = row[3 * x : 3 * x + 3]
            digit = position.cells[y * w + x]
            if (x, y) in analysis.probabilities:
                assert cell in (" S ", " M ") or cell.endswith("%")
            else:
                assert cell == (f" {digit} " if digit else "   ")


def test_board_text_marks_coordinates_tens_and_the_end_of_a_game() -> None:
    view = Position.from_text("12x2x2\n" + "H" * 12 + "\n" + "1" + "H" * 11 + "\n")
    text = board_text(view, mines=[(0, 0), (5, 0)], exploded=(5, 0)).plain.splitlines()
    assert text[0].split() == ["1", "1"]  # tens over x = 10 and 11
    assert text[1].split() == [str(x % 10) for x in range(12)]
    assert text[2].split()[0] == "0" and text[2].split()[1] == "*" and "X" in text[2]
    assert text[-1].startswith("legend:") and "the mine that went off" in text[-1]


def _guess(reason: str) -> Move:
    return Move("open", (1, 2), guess=True, risk=0.2, reason=reason)


def test_reasons_in_plain_words() -> None:
    best = plain_reason(
        _guess(
            "second-move safety score 0.7123, P(progress) 0.401, mine probability 0.204, "
            "latent 50/50 weight 1.250 (5 candidates weighed in full)"
        )
    )
    assert "score" not in best and "P(" not in best
    assert "surviving this click and the next" in best and "40.1%" in best
    assert "of the 5 cells weighed" in best and "50/50" in best
    assert "20.4% risk of a mine" in best and "proves another cell safe" in best
    assert plain_reason(_guess("lowest mine probability 0.204, one of 3 tied")) == (
        "the lowest risk on the board, picked at random among 3 cells as low"
    )
    pseq = plain_reason(
        _guess(
            "lowest mine probability 0.079 (5 tied); P(new safe cell) 0.331, "
            "E[safe cells] 1.62, digit entropy 1.20 bits"
        )
    )
    assert "shared with 4 other cells" in pseq and "33.1%" in pseq and "1.6 safe" in pseq
    fifty = plain_reason(_guess("unavoidable 50/50 with (4, 7): guessed now"))
    assert "(4,7)" in fifty and "no later click" in fifty
    assert plain_reason(_guess("something else")) == "something else"
