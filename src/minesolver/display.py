"""Rich renderings of positions and analyses for the terminal: the heat map, the plain
board, their legends, the summary, and a player's reasons in words.

Every grid carries its coordinates (``x`` across the top, ``y`` down the side, as the
``(x, y)`` the rest of the tool prints) and is followed by a legend. The cells stay
readable without colour (``NO_COLOR``, a pipe, ``Console(no_color=True)``): a digit is
``1``..``8``, a probability is a percentage with ``%``, a certainly safe cell ``S`` and a
certain mine ``M``; the colours only add to what the characters already say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from rich.console import Group, RenderableType
from rich.text import Text

from minesolver.analysis import Analysis, fraction_text, int_to_decimal
from minesolver.game import Move
from minesolver.position import FLAG, HIDDEN, Cell, Position

__all__ = [
    "DIGIT_STYLE",
    "board_text",
    "heat_colour",
    "heat_map",
    "layouts_text",
    "plain_reason",
    "summary",
]

DIGIT_STYLE = {
    0: "grey50",
    1: "bold blue",
    2: "bold green",
    3: "bold red",
    4: "bold magenta",
    5: "bold rgb(200,80,40)",
    6: "bold cyan",
    7: "bold white",
    8: "bold grey70",
}
"""The classic digit colours (1 blue, 2 green, 3 red, ...), for the terminal."""

_SAFE_STYLE = "bold white on blue"
_MINE_STYLE = "bold white on rgb(90,0,40)"


def heat_colour(p: float) -> str:
    """Background colour of a mine probability strictly between 0 and 1: pale yellow for a
    low risk through orange to red, ordered by lightness, so that a modest risk never
    looks like the blue of a certainly safe cell."""
    p = min(1.0, max(0.0, p))
    if p < 0.5:
        t = 2 * p
        r, g, b = 255, int(235 - 95 * t), int(150 - 150 * t)
    else:
        t = 2 * p - 2 * 0.5
        r, g, b = int(255 - 75 * t), int(140 - 140 * t), 0
    return f"rgb({r},{g},{b})"


def _risk_style(p: Fraction) -> str:
    """Text and background of an uncertain cell: dark text while the fill is light."""
    ink = "black" if p < Fraction(7, 10) else "white"
    return f"{ink} on {heat_colour(float(p))}"


def _cell_text(p: Fraction) -> str:
    """Three characters: ``S`` safe, ``M`` mine, else the percentage (1%..99%, so that an
    uncertain cell never reads as certain)."""
    if p == 0:
        return " S "
    if p == 1:
        return " M "
    pct = min(99, max(1, round(float(p) * 100)))
    return f"{pct:>2}%"


def _header(width: int, margin: int, cell: int) -> Text:
    """The x coordinates over ``width`` columns after ``margin`` characters of row labels:
    centred over three-character cells, else (one character and a space) the last digit
    under a row of tens when the board is wider than ten."""
    if cell == 3:
        rows = ["".join(f"{x:^3}" for x in range(width)).rstrip()]
    else:
        rows = [" ".join(str(x % 10) for x in range(width))]
        if width > 10:
            tens = " ".join(str(x // 10) if x >= 10 else " " for x in range(width))
            rows.insert(0, tens.rstrip())
    text = Text()
    for row in rows:
        text.append(" " * margin + row, style="dim")
        text.append("\n")
    return text


def _legend(entries: Sequence[tuple[str, str, str]]) -> Text:
    """One line ``legend: SYMBOL meaning · ...``, each symbol in its board style."""
    text = Text()
    text.append("legend: ", style="dim")
    for i, (symbol, style, meaning) in enumerate(entries):
        if i:
            text.append(" · ", style="dim")
        text.append(symbol.strip(), style=style)
        text.append(f" {meaning}")
    text.append("\n")
    return text


def heat_map(analysis: Analysis, *, legend: bool = True) -> Text:
    r"""The board with its coordinates, each unknown cell showing its mine probability as a
    percentage on a fill from pale yellow (low) to red (high), digits 1-8 (an open 0
    blank); ``S`` certainly safe, ``M`` certainly a mine (each in its own colour); the
    safest cell underlined; then a legend of the symbols on the board. O(cells).

    >>> from minesolver.analysis import analyze
    >>> print(heat_map(analyze(Position.from_text("3x2x1\n1H1\n111\n"))).plain, end="")
       0  1  2
    0  1  M  1
    1  1  1  1
    legend: 1 digit (blank: 0) · M certain mine
    """
    pos = analysis.position
    probs = analysis.probabilities
    best = analysis.safest()

    def cell(x: int, y: int) -> tuple[str, str, str]:
        symbol, style, kind = _heat_cell(pos, probs.get((x, y)), x, y)
        if (x, y) == best and kind != "mine":
            return symbol, style + " underline bold", "best " + kind
        return symbol, style, kind

    return _grid(pos, cell, 3, _HEAT_LEGEND if legend else [])


def _grid(
    pos: Position,
    cell: Callable[[int, int], tuple[str, str, str]],
    size: int,
    legend: Sequence[tuple[str, tuple[str, str, str]]],
) -> Text:
    """The grid of ``pos`` with its coordinates, each cell ``(symbol, style, kinds)`` from
    ``cell`` (``size`` characters; one-character cells are spaced), then the ``legend``
    entries whose kind is on the board (none when empty)."""
    margin = len(str(pos.height - 1)) + 1
    text = _header(pos.width, margin, size)
    used: set[str] = set()
    for y in range(pos.height):
        text.append_text(_row_label(y, margin))
        for x in range(pos.width):
            symbol, style, kinds = cell(x, y)
            used.update(kinds.split())
            text.append(symbol, style=style)
            if size == 1 and x < pos.width - 1:
                text.append(" ")
        text.append("\n")
    if legend:
        text.append_text(_legend([e for k, e in legend if k in used]))
    return text


def _heat_cell(pos: Position, p: Fraction | None, x: int, y: int) -> tuple[str, str, str]:
    """The three characters, style and kind (for the legend) of one heat-map cell."""
    if p is not None:
        if p == 0:
            return " S ", _SAFE_STYLE, "safe"
        if p == 1:
            return " M ", _MINE_STYLE, "mine"
        return _cell_text(p), _risk_style(p), "risk"
    v = pos.cells[y * pos.width + x]
    if v == FLAG:
        return " F ", "bold red on grey30", "flag"
    if v == HIDDEN:
        return " H ", "on grey30", "hidden"
    return (f" {v} " if v else "   "), DIGIT_STYLE[v], "digit"


_HEAT_LEGEND: list[tuple[str, tuple[str, str, str]]] = [
    ("digit", (" 1 ", DIGIT_STYLE[1], "digit (blank: 0)")),
    ("risk", ("21%", _risk_style(Fraction(21, 100)), "mine probability (yellow low, red high)")),
    ("safe", (" S ", _SAFE_STYLE, "certainly safe")),
    ("mine", (" M ", _MINE_STYLE, "certain mine")),
    ("flag", (" F ", "bold red on grey30", "flag")),
    ("hidden", (" H ", "on grey30", "hidden, not analysed")),
    ("best", ("underlined:", "underline bold", "the safest cell")),
]


def board_text(view: Position, mines: Sequence[Cell] = (), exploded: Cell | None = None) -> Text:
    r"""The board with its coordinates and a legend; ``mines`` shown as ``*`` (after the
    game), the mine that was hit as ``X``; hidden ``.``, flags ``F`` (struck through when
    wrong), digits 1-8, an open 0 blank. O(cells).

    >>> print(board_text(Position.from_text("3x2x1\n1H1\n111\n")).plain, end="")
      0 1 2
    0 1 . 1
    1 1 1 1
    legend: 1 digit (blank: 0) · . hidden
    """
    mine_set = set(mines)
    return _grid(view, lambda x, y: _board_cell(view, mine_set, exploded, x, y), 1, _BOARD_LEGEND)


def _board_cell(
    view: Position, mines: set[Cell], exploded: Cell | None, x: int, y: int
) -> tuple[str, str, str]:
    """The character, style and kind (for the legend) of one cell of the plain board."""
    v = view.cells[y * view.width + x]
    if (x, y) == exploded:
        return "X", "bold white on red", "exploded"
    if v == FLAG:
        if mines and (x, y) not in mines:
            return "F", "red strike", "wrong"
        return "F", "bold red", "flag"
    if (x, y) in mines:
        return "*", "bold red", "mine"
    if v == HIDDEN:
        return ".", "grey50", "hidden"
    return (str(v) if v else " "), DIGIT_STYLE[v], "digit"


_BOARD_LEGEND: list[tuple[str, tuple[str, str, str]]] = [
    ("digit", ("1", DIGIT_STYLE[1], "digit (blank: 0)")),
    ("hidden", (".", "grey50", "hidden")),
    ("flag", ("F", "bold red", "flag")),
    ("wrong", ("F", "red strike", "wrong flag")),
    ("mine", ("*", "bold red", "mine")),
    ("exploded", ("X", "bold white on red", "the mine that went off")),
]


def _row_label(y: int, margin: int) -> Text:
    return Text(f"{y:>{margin - 1}} ", style="dim")


def layouts_text(n: int) -> str:
    """A layout count for people: exact when short, else its size and leading digits."""
    digits = int_to_decimal(n)
    if len(digits) <= 30:
        return f"{int(digits):,}"
    return f"{digits[0]}.{digits[1:7]}e{len(digits) - 1} ({len(digits)} digits)"


def summary(analysis: Analysis) -> RenderableType:
    """Layout count, certain cells and the safest cell."""
    shown = "not counted" if analysis.layouts is None else layouts_text(analysis.layouts)
    lines = [Text(f"layouts: {shown}")]
    if not analysis.exact:
        lines.append(Text(f"approximate ({analysis.engine})", style="yellow"))
    safe = sorted(analysis.safe, key=lambda c: (c[1], c[0]))
    mines = sorted(analysis.mines, key=lambda c: (c[1], c[0]))

    def cells(cs: list[tuple[int, int]]) -> str:
        shown = " ".join(f"({x},{y})" for x, y in cs[:20])
        return shown + (f" … (+{len(cs) - 20})" if len(cs) > 20 else "")

    lines.append(Text(f"certainly safe: {len(safe)}  {cells(safe)}", style="green"))
    lines.append(Text(f"certainly mines: {len(mines)}  {cells(mines)}", style="red"))
    best = analysis.safest()
    if best is not None:
        p = analysis.probabilities[best]
        exact = fraction_text(p)
        shown = f"{exact} ≈ {float(p):.4f}" if len(exact) <= 40 else f"≈ {float(p):.6f}"
        lines.append(Text(f"safest: ({best[0]},{best[1]})  p = {shown}", style="bold"))
    return Group(*lines)


def _pct(value: str | float) -> str:
    """A probability as a percentage for people: one decimal, never a bare 0."""
    p = float(value)
    if 0 < p < 0.001:
        return "under 0.1%"
    return f"{100 * p:.1f}%"


def _greedy(m: re.Match[str]) -> str:
    tied = f", picked at random among {m[2]} cells as low" if m[2] else ""
    return f"the lowest risk on the board{tied}"


def _pseq(m: re.Match[str]) -> str:
    return (
        f"the lowest risk on the board, shared with {int(m[2]) - 1} other cells; of those, "
        f"the likeliest to reveal a new safe cell ({_pct(m[3])}), about "
        f"{float(m[4]):.1f} safe cells expected"
    )


def _best(m: re.Match[str]) -> str:
    count = int(m[6])
    among = f"of the {count} cells weighed" if count > 1 else "no other cell could beat it"
    risk = f"{_pct(m[4])} risk of a mine"
    if m[1] == "second-move safety":
        why = (
            f"the best chance of surviving this click and the next one ({among}): {risk}, "
            f"and {_pct(m[3])} chance that its number proves another cell safe"
        )
    else:
        why = (
            f"the safest ({among}): {risk}; ties go to the one likelier to prove another cell safe"
        )
    latent = "; if safe, it may also settle a 50/50 that would otherwise wait for the end"
    return why + (latent if m[5] else "")


def _endgame(m: re.Match[str]) -> str:
    return (
        f"only {m[2]} layouts are left: trying every line of play, this click wins in "
        f"{m[1]} of them ({_pct(m[3])}), no other click more"
    )


def _fifty(m: re.Match[str]) -> str:
    return (
        f"a 50/50 with ({m[1]},{m[2]}) that no later click can settle: "
        "taken now, before any other risk"
    )


_NUM = r"(\d+(?:\.\d+)?)"
_REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"lowest mine probability {_NUM}(?:, one of (\d+) tied)?"), _greedy),
    (
        re.compile(
            rf"lowest mine probability {_NUM} \((\d+) tied\); P\(new safe cell\) {_NUM}, "
            rf"E\[safe cells\] {_NUM}, digit entropy {_NUM} bits"
        ),
        _pseq,
    ),
    (
        re.compile(
            rf"(second-move safety|safety) score {_NUM}, P\(progress\) {_NUM}, "
            rf"mine probability {_NUM}(?:, latent 50/50 weight {_NUM})? "
            rf"\((\d+) candidates weighed in full\)"
        ),
        _best,
    ),
    (re.compile(rf"endgame search: wins (\d+) of (\d+) layouts \({_NUM}\)"), _endgame),
    (re.compile(r"unavoidable 50/50 with \((\d+), (\d+)\): guessed now"), _fifty),
]


def plain_reason(move: Move) -> str:
    """Why a player made ``move``, in words a player understands: the internal scores of
    the players' reasons (``greedy``, ``pseq``, ``best``) become chances in percent and
    what they mean; a reason of another form is returned as it is. O(length of the reason).

    >>> print(plain_reason(Move("open", (3, 4), guess=True, risk=0.25,
    ...     reason="endgame search: wins 3 of 4 layouts (0.750)")))
    only 4 layouts are left: trying every line of play, this click wins in 3 of them ...
    """
    for pattern, words in _REASONS:
        found = pattern.fullmatch(move.reason)
        if found is not None:
            return words(found)
    return move.reason
