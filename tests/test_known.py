"""Known answers: positions with exact probabilities worked out by hand.

Each ``tests/data/known/*.txt`` file holds, in order: ``#`` comment lines (the hand
derivation), the position in the JSMinesweeper text format, a blank line, then

- ``layouts N``: the number of consistent layouts;
- optionally ``density P`` (a fraction; the position then has no header) and
  ``flags untrusted`` (flags are hidden cells, not mines);
- one line ``X Y P`` per unknown cell, ``P`` an exact fraction (``0``, ``1``, ``7/12``).

Every unknown cell must be listed. The answers were derived by hand (the comments show
how) and checked once against the brute-force oracle, which is also run here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from minesolver import FLAG, HIDDEN, Position, analyze

KNOWN = Path(__file__).parent / "data" / "known"


@dataclass(frozen=True)
class Known:
    """One known-answer file, parsed."""

    position: Position
    layouts: int
    probabilities: dict[tuple[int, int], Fraction]
    density: Fraction | None
    trust_flags: bool


def parse_known(text: str) -> Known:
    """Parse the format above; a malformed file fails loudly with its line."""
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    blank = lines.index("")
    position = Position.from_text("\n".join(lines[:blank]))
    layouts: int | None = None
    density: Fraction | None = None
    trust_flags = True
    probabilities: dict[tuple[int, int], Fraction] = {}
    for line in lines[blank + 1 :]:
        words = line.split()
        if not words:
            continue
        if words[0] == "layouts":
            layouts = int(words[1])
        elif words[0] == "density":
            density = Fraction(words[1])
        elif words == ["flags", "untrusted"]:
            trust_flags = False
        else:
            x, y, p = words
            cell = (int(x), int(y))
            assert cell not in probabilities, f"{cell} listed twice"
            probabilities[cell] = Fraction(p)
    assert layouts is not None, "no 'layouts' line"
    return Known(position, layouts, probabilities, density, trust_flags)


FILES = sorted(KNOWN.glob("*.txt"))


def test_there_are_known_answers() -> None:
    assert len(FILES) >= 10
    assert (KNOWN / "design-5x5.txt").exists()


@pytest.fixture(params=FILES, ids=[f.stem for f in FILES])
def known(request: pytest.FixtureRequest) -> Known:
    path: Path = request.param
    return parse_known(path.read_text(encoding="utf-8"))


def test_file_lists_every_unknown_cell(known: Known) -> None:
    p = known.position
    unknown = {c for c in p if p[c] == HIDDEN or (p[c] == FLAG and not known.trust_flags)}
    assert set(known.probabilities) == unknown
    assert all(0 <= v <= 1 for v in known.probabilities.values())


@pytest.mark.parametrize("engine", ["exact", "exact-py", "brute"])
def test_known_answer(known: Known, engine: str) -> None:
    got = analyze(
        known.position, engine=engine, density=known.density, trust_flags=known.trust_flags
    )
    assert got.layouts == known.layouts
    assert dict(got.probabilities) == known.probabilities
    assert got.safe == {c for c, v in known.probabilities.items() if v == 0}
    assert got.certain_mines == {c for c, v in known.probabilities.items() if v == 1}


def test_design_example_in_detail() -> None:
    """The DESIGN.md position, with the facts its text states."""
    k = parse_known((KNOWN / "design-5x5.txt").read_text(encoding="utf-8"))
    got = analyze(k.position)
    assert got.layouts == 72
    assert got.probabilities[(1, 1)] == Fraction(5, 6)
    assert got.probabilities[(3, 1)] == got.probabilities[(3, 2)] == Fraction(7, 12)
    others = {(3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4)}
    assert {got.probabilities[c] for c in others} == {Fraction(11, 36)}
    assert got.safe == {(2, 1), (2, 3), (3, 3), (3, 4)}
    assert got.certain_mines == frozenset()
    assert got.safest() == (2, 1)  # the safe cells, first in reading order


def test_examples_directory_matches_design() -> None:
    """The shipped example is the DESIGN.md position."""
    example = Path(__file__).parents[1] / "examples" / "known-5x5.txt"
    k = parse_known((KNOWN / "design-5x5.txt").read_text(encoding="utf-8"))
    assert Position.from_text(example.read_text(encoding="utf-8")) == k.position


def test_package_docstring_example() -> None:
    """The example at the top of the package runs and says what the library answers."""
    import doctest

    import minesolver

    result = doctest.testmod(minesolver)
    assert result.attempted >= 3
    assert result.failed == 0


EDGE_CASES = [
    # (text, options, layouts, the one probability every unknown cell has, or None if none)
    pytest.param("2x1x0\n00\n", {}, 1, None, id="nothing-left"),
    pytest.param("1x1x0\n0\n", {}, 1, None, id="one-open-cell"),
    pytest.param("3x2x0\nHHH\nHHH\n", {}, 1, Fraction(0), id="no-mines"),
    pytest.param("2x1x2\nHH\n", {}, 1, Fraction(1), id="all-mines"),
    pytest.param("1x1x1\nH\n", {}, 1, Fraction(1), id="one-hidden-mine"),
    pytest.param("3x2x2\nHHH\nHHH\n", {}, 15, Fraction(1, 3), id="no-digits-C(6,2)"),
    pytest.param("HHH\nHHH\n", {"density": "1/3"}, 64, Fraction(1, 3), id="no-digits-density"),
    pytest.param("2x1x1\nF1\n", {}, 1, None, id="flag-is-the-only-mine"),
    pytest.param("2x1x1\nF1\n", {"trust_flags": False}, 1, Fraction(1), id="flag-untrusted"),
    pytest.param("3x1x1\nFHH\n", {}, 1, Fraction(0), id="flag-uses-the-total"),
    pytest.param(
        "3x1x1\nFHH\n", {"trust_flags": False}, 3, Fraction(1, 3), id="flag-untrusted-no-digits"
    ),
]


@pytest.mark.parametrize(("text", "options", "layouts", "p"), EDGE_CASES)
@pytest.mark.parametrize("engine", ["exact", "exact-py", "brute"])
def test_edge_cases(
    text: str, options: dict[str, object], layouts: int, p: Fraction | None, engine: str
) -> None:
    got = analyze(Position.from_text(text), engine=engine, **options)  # type: ignore[arg-type]
    assert got.layouts == layouts
    assert set(got.probabilities.values()) == (set() if p is None else {p})
    if p is None or p == 1:
        assert got.safest() is None  # nothing left to click
    else:
        assert got.safest() == min(got.probabilities, key=lambda c: (c[1], c[0]))  # reading order
