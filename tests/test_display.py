"""Terminal renderings: coordinates, legends, no-colour readability, plain-word reasons."""

from __future__ import annotations

import io
import itertools
import pickle
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich._palettes import STANDARD_PALETTE, WINDOWS_PALETTE
from rich.color import Color
from rich.console import Console
from rich.terminal_theme import (
    DEFAULT_TERMINAL_THEME,
    DIMMED_MONOKAI,
    MONOKAI,
    NIGHT_OWLISH,
    SVG_EXPORT_THEME,
)

from minesolver.analysis import analyze
from minesolver.game import Move, Reason
from minesolver.position import Position
from minesolver.strategy.reasons import (
    Certain,
    Endgame,
    FiftyFifty,
    Lowest,
    Pseq,
    Safety,
    SecondMove,
)
from minesolver.ui.display import board_text, heat_map, risk_style
from minesolver.ui.words import plain_reason

THEMES = [DEFAULT_TERMINAL_THEME, DIMMED_MONOKAI, MONOKAI, NIGHT_OWLISH, SVG_EXPORT_THEME]
ROOT = Path(__file__).parents[1]
KNOWN = (ROOT / "examples" / "known-5x5.txt").read_text(encoding="utf-8")
EXPERT = (ROOT / "examples" / "expert-midgame.txt").read_text(encoding="utf-8")
EXAMPLE = "5x5x5\nHHHHH\nHHHHH\n112HH\n00HHH\n000HH\n"


def _no_colour(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=200, no_color=True, record=True)
    console.print(renderable, end="")
    return console.export_text()


def _cells(line: str, width: int, margin: int) -> list[str]:
    """The five-character slots (two spaces, then three characters) of a no-colour row."""
    row = line[margin:].ljust(5 * width)
    return [row[5 * x : 5 * x + 5] for x in range(width)]


def _unmark(slot: str) -> str:
    """A slot's three characters, with the safest cell's ``>`` taken off."""
    return slot.replace(">", " ")[2:]


def test_heat_map_has_coordinates_and_a_legend_and_tells_digits_from_probabilities() -> None:
    analysis = analyze(Position.from_text(EXAMPLE))
    lines = _no_colour(heat_map(analysis)).splitlines()
    assert lines[0].split() == ["0", "1", "2", "3", "4"]
    assert [line.split()[0] for line in lines[1:6]] == ["0", "1", "2", "3", "4"]
    legend = " ".join(lines[6:])
    assert legend.startswith("legend:") and "mine probability" in legend
    assert "yellow" not in legend and "red" not in legend and "underlined" not in legend
    assert "> marks the safest cell" in legend
    probs = analysis.probabilities
    for y in range(5):
        for x, slot in enumerate(_cells(lines[1 + y], 5, 1)):
            cell = _unmark(slot)
            assert (">" in slot) == ((x, y) == analysis.safest() == (2, 1))
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


def _random_position(seed: int) -> Position:
    """A random small position: a layout, half its safe cells open."""
    import random

    rng = random.Random(seed)
    w, h = rng.randint(2, 6), rng.randint(2, 5)
    mines = rng.sample(range(w * h), rng.randint(1, w * h // 3 + 1))
    opened = set(rng.sample(range(w * h), w * h // 2)) - set(mines)
    mine_cells = {(m % w, m // w) for m in mines}
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            if y * w + x in opened:
                around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
                row += str(sum(c in mine_cells for c in around if c != (x, y)))
            else:
                row += "H"
        rows.append(row)
    return Position.from_text(f"{w}x{h}x{len(mines)}\n" + "\n".join(rows) + "\n")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_no_colour_cells_are_one_kind_each(seed: int) -> None:
    """On random small positions, every heat-map cell reads as exactly one kind, the
    safest cell is marked by a character, and adjacent cells never run together."""
    position = _random_position(seed)
    w, h = position.width, position.height
    analysis = analyze(position)
    lines = _no_colour(heat_map(analysis, legend=False)).splitlines()
    margin = len(str(h - 1))
    best = analysis.safest()
    marked = []
    for y in range(h):
        slots = _cells(lines[1 + y], w, margin)
        for x, slot in enumerate(slots):
            cell = _unmark(slot)
            digit = position.cells[y * w + x]
            assert slot[0] == " "  # a space before every cell (and its mark)
            if ">" in slot:
                marked.append((x, y))
            if (x, y) in analysis.probabilities:
                assert cell in (" S ", " M ") or re.fullmatch(r"[ \d]\d%", cell), cell
            else:
                assert cell == (f" {digit} " if digit else "   ")
        # one word per non-blank cell: no two cells run together
        assert lines[1 + y][margin:].split() == [s.strip() for s in slots if s.strip()]
    assert marked == ([best] if best is not None and analysis.probabilities[best] < 1 else [])


def _luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG) of an sRGB colour."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _palettes(system: str) -> list[Callable[[Color], tuple[int, int, int]]]:
    """Ways a terminal of ``system`` may show a colour: for 16 colours, rich's palettes and
    the terminal themes it ships (whose yellow and red differ); else the exact values."""
    if system == "standard":
        tables = [STANDARD_PALETTE, WINDOWS_PALETTE]
        tables += [theme.ansi_colors for theme in THEMES]
        return [
            lambda c, t=table: tuple(t[c.number])
            for table in tables  # type: ignore[misc]
        ]
    return [lambda c: tuple(c.get_truecolor())]  # type: ignore[return-value]


@pytest.mark.parametrize("system", ["standard", "256", "truecolor"])
def test_the_fill_darkens_as_the_risk_grows(system: str) -> None:
    """On every colour system and palette, a riskier cell's fill is never lighter: the
    scale is monotone in p (the old scale showed 83% in yellow, 50% in bright red)."""
    grid = [Fraction(k, 200) for k in range(1, 200)]
    fills = [risk_style(p, system).bgcolor for p in grid]
    assert all(
        (c is not None and c.system.name != "TRUECOLOR") or system == "truecolor" for c in fills
    )
    for show in _palettes(system):
        lum = [_luminance(show(c)) for c in fills if c is not None]
        assert len(lum) == len(grid)
        assert all(a >= b for a, b in itertools.pairwise(lum)), lum
        assert lum[0] > lum[-1]  # light at the bottom of the scale, dark at the top
    show = _palettes(system)[0]  # rich's own palette: the themes may dim every colour
    for p in grid:  # readable text on every fill (WCAG contrast, large text: 3)
        style = risk_style(p, system)
        assert style.color is not None and style.bgcolor is not None
        ink, fill = _luminance(show(style.color)), _luminance(show(style.bgcolor))
        assert (max(ink, fill) + 0.05) / (min(ink, fill) + 0.05) >= 3, (p, style)


@pytest.mark.parametrize("system", ["standard", "256", "truecolor"])
def test_a_printed_heat_map_uses_the_scale(system: str) -> None:
    """The known 5x5 printed on a terminal: 83% at (1,1) darker than 50% at (0,0)."""
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system=system)
    fills = {
        seg.text: seg.style.bgcolor
        for seg in console.render(heat_map(analyze(Position.from_text(KNOWN))))
        if seg.style is not None and seg.text.endswith("%")
    }
    assert fills["83%"] == risk_style(Fraction(5, 6), system).bgcolor
    assert fills["50%"] == risk_style(Fraction(1, 2), system).bgcolor
    for show in _palettes(system):  # some themes give red and bright red one value
        assert _luminance(show(fills["83%"])) <= _luminance(show(fills["50%"]))
    show = _palettes(system)[0]
    assert _luminance(show(fills["83%"])) < _luminance(show(fills["50%"]))


def test_board_text_marks_coordinates_tens_and_the_end_of_a_game() -> None:
    view = Position.from_text("12x2x2\n" + "H" * 12 + "\n" + "1" + "H" * 11 + "\n")
    text = board_text(view, mines=[(0, 0), (5, 0)], exploded=(5, 0)).plain.splitlines()
    assert text[0].split() == ["1", "1"]  # tens over x = 10 and 11
    assert text[1].split() == [str(x % 10) for x in range(12)]
    assert text[2].split()[0] == "0" and text[2].split()[1] == "*" and "X" in text[2]
    assert text[-1].startswith("legend:") and "the mine that went off" in text[-1]


def _guess(reason: Reason) -> Move:
    return Move("open", (1, 2), guess=True, risk=0.2, reason=reason)


class _Own(Reason):
    """A reason of a player of one's own: shown as its text."""

    __slots__ = ()

    def __str__(self) -> str:
        return "something else"


def test_reasons_in_plain_words() -> None:
    p = Fraction(204, 1000)
    second = SecondMove(Fraction(7123, 10000), Fraction(401, 1000), p, 5, Fraction(5, 4))
    best = plain_reason(_guess(second))
    assert "score" not in best and "P(" not in best
    assert "surviving this click and the next" in best and "40.1%" in best
    assert "of the 5 cells weighed" in best and "50/50" in best
    assert "20.4% risk of a mine" in best and "proves another cell safe" in best
    safety = plain_reason(_guess(Safety(1 - p, Fraction(401, 1000), p, 1)))
    assert safety.startswith("the safest (no other cell could beat it): 20.4% risk")
    assert "50/50" not in safety
    assert plain_reason(_guess(Lowest(p, 3))) == (
        "the lowest risk on the board, picked at random among 3 cells as low"
    )
    assert plain_reason(_guess(Lowest(p))) == "the lowest risk on the board"
    pseq = plain_reason(
        _guess(Pseq(Fraction(79, 1000), 5, Fraction(331, 1000), Fraction(162, 100), 1.2))
    )
    assert "shared with 4 other cells" in pseq and "33.1%" in pseq and "1.6 safe" in pseq
    # a negative zero entropy (a sum of float terms) is a reason like any other
    pair = plain_reason(_guess(Pseq(Fraction(1, 2), 2, Fraction(0), Fraction(0), -0.0)))
    assert "shared with 1 other cell;" in pair and "(0.0%)" in pair
    fifty = plain_reason(_guess(FiftyFifty((4, 7))))
    assert "(4,7)" in fifty and "no later click" in fifty
    endgame = plain_reason(_guess(Endgame(wins=3, layouts=4)))
    assert "only 4 layouts" in endgame and "3 of them (75.0%)" in endgame
    assert plain_reason(Move("open", (0, 0), reason=Certain())) == "certainly safe"
    assert plain_reason(_guess(_Own())) == "something else"
    assert plain_reason(Move("open", (0, 0))) == ""


def test_a_reasons_text_is_the_players_technical_text() -> None:
    """``str()`` of each reason: the text the players have always given (the web API's
    ``reason`` field, ``play``'s log), from the numbers the reason holds."""
    p = Fraction(204, 1000)
    texts = {
        Certain(): "certainly safe",
        Certain(mine=True): "certainly a mine",
        Lowest(p): "lowest mine probability 0.204",
        Lowest(p, 3): "lowest mine probability 0.204, one of 3 tied",
        Pseq(Fraction(79, 1000), 5, Fraction(331, 1000), Fraction(162, 100), 1.2): (
            "lowest mine probability 0.079 (5 tied); P(new safe cell) 0.331, "
            "E[safe cells] 1.62, digit entropy 1.20 bits"
        ),
        SecondMove(Fraction(7123, 10000), Fraction(401, 1000), p, 5, Fraction(5, 4)): (
            "second-move safety score 0.7123, P(progress) 0.401, mine probability 0.204, "
            "latent 50/50 weight 1.250 (5 candidates weighed in full)"
        ),
        Safety(1 - p, Fraction(1, 2), p, 2): (
            "safety score 0.7960, P(progress) 0.500, mine probability 0.204 "
            "(2 candidates weighed in full)"
        ),
        Endgame(11, 15): "endgame search: wins 11 of 15 layouts (0.733)",
        FiftyFifty((4, 7)): "unavoidable 50/50 with (4, 7): guessed now",
    }
    for reason, text in texts.items():
        assert str(reason) == text
        assert pickle.loads(pickle.dumps(reason)) == reason
    assert SecondMove(p, p, p, 1) != Safety(p, p, p, 1)  # the type is part of the value


def _printed(renderable: object, width: int, **kwargs: object) -> list[str]:
    """The lines a terminal of ``width`` columns shows (recorded by rich)."""
    console = Console(
        file=io.StringIO(),
        width=width,
        force_terminal=True,
        record=True,
        soft_wrap=True,  # as the command line prints
        **kwargs,  # type: ignore[arg-type]
    )
    console.print(renderable)
    return console.export_text().splitlines()


LEGEND_WORDS = ["digit (blank: 0)", "mine probability", "certainly safe", "certain mine", "flag"]


@pytest.mark.parametrize(
    ("width", "colour", "layout"),
    [(120, True, "percent"), (80, True, "shade"), (60, True, "too wide"), (80, False, "shade"),
     (160, False, "percent")],
)  # fmt: skip
def test_the_expert_heat_map_fits_the_terminal(width: int, colour: bool, layout: str) -> None:
    """Expert (30 columns): three characters a cell where they fit, else one and a space,
    else a line saying how many columns it needs; the legend wraps, never cut."""
    analysis = analyze(Position.from_text(EXPERT))
    lines = _printed(heat_map(analysis), width, color_system="truecolor", no_color=not colour)
    wider = [line for line in lines if line.startswith("board wider than the terminal")]
    assert wider == (["board wider than the terminal (62 columns needed)"] * (layout == "too wide"))
    grid = lines[len(wider) :]
    units = grid[1].split() if layout != "percent" else grid[0].split()
    assert units == [str(x % 10 if layout != "percent" else x) for x in range(30)]
    rows = grid[2 if layout != "percent" else 1 :][:16]
    assert [row.split()[0] for row in rows] == [str(y) for y in range(16)]
    body = "\n".join(rows)
    assert ("%" in body) == (layout == "percent") and ("░" in body) == (layout != "percent")
    legend = " ".join(grid[18 if layout != "percent" else 17 :])
    assert legend.startswith("legend:")
    assert all(word in " ".join(legend.split()) for word in LEGEND_WORDS), legend
    assert ("darker: riskier" in legend) == colour
    if layout != "too wide":
        assert max(len(line) for line in lines) <= width
    else:
        assert max(len(line) for line in lines[:1] + grid[18:]) <= width
