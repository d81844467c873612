"""Rich renderings of positions and analyses for the terminal: the heat map, the plain
board, their legends, the summary, (a player's reasons in words are in :mod:`minesolver.ui.words`).

Every grid carries its coordinates (``x`` across the top, ``y`` down the side, as the
``(x, y)`` the rest of the tool prints) and is followed by a legend that names only what
the board shows. A grid is a rich renderable (:class:`Board`) laid out when it is printed:

- **Colour** (a terminal): each cell three characters wide, a probability as a percentage
  on a fill that darkens from pale yellow to dark red as the risk grows, in the colours of
  the terminal's colour system (16, 256 or truecolor; :func:`risk_style`); the safest cell
  underlined.
- **No colour** (``NO_COLOR``, a pipe, ``Console(no_color=True)``): cells separated by
  spaces, a digit ``1``..``8``, a probability ``NN%``, ``S`` certainly safe, ``M`` a
  certain mine, and ``>`` just before the safest cell; the colours only ever add to what
  the characters already say.
- **Narrow** (a terminal too narrow for the above, e.g. expert at 80 columns): one
  character and a space per cell, a probability as a shade ``░▒▓█`` (under 25%, 50%, 75%,
  higher); if even that does not fit, a line says how many columns the board needs.

The legend wraps at the terminal's width instead of being cut. Laying out costs
O(cells) per print.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rich.color import Color
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.style import Style
from rich.text import Text

from minesolver.analysis import Analysis, fraction_text, int_to_decimal
from minesolver.position import FLAG, HIDDEN, Cell, Position
from minesolver.ui.words import percent

__all__ = [
    "DIGIT_STYLE",
    "Board",
    "board_text",
    "heat_colour",
    "heat_map",
    "layouts_text",
    "risk_style",
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
_MINE_STYLE = {"standard": "bold bright_white on magenta", "windows": "bold white on magenta"}
_MINE_DEFAULT = "bold white on rgb(80,0,80)"
_HIDDEN_STYLE = "on grey30"
_FLAG_STYLE = "bold red on grey30"

# The truecolor scale: stops from pale yellow to dark red, each darker than the last.
_STOPS = [(255, 247, 200), (255, 214, 110), (250, 150, 50), (225, 60, 30), (140, 0, 20)]
# The 256-colour scale: xterm colours in order of falling luminance (yellow, orange, red).
_XTERM_RAMP = [230, 229, 228, 222, 221, 215, 214, 209, 208, 203, 202, 196, 160, 124, 88]
# The 16-colour scale: only three fills that every palette orders by lightness (plain
# "yellow" is not used: many palettes make it as light as bright yellow).
_STANDARD_RAMP = ["bright_yellow", "bright_red", "red"]


def heat_colour(p: float) -> str:
    """Truecolor fill of a mine probability strictly between 0 and 1: pale yellow for a
    low risk through orange to dark red, each step darker than the last, so that a modest
    risk never looks like the blue of a certainly safe cell and a high one is darkest.

    >>> heat_colour(0.0), heat_colour(1.0)
    ('rgb(255,247,200)', 'rgb(140,0,20)')
    """
    p = min(1.0, max(0.0, p)) * (len(_STOPS) - 1)
    i = min(int(p), len(_STOPS) - 2)
    t = p - i
    low, high = _STOPS[i], _STOPS[i + 1]
    r, g, b = (round(a + (c - a) * t) for a, c in zip(low, high, strict=True))
    return f"rgb({r},{g},{b})"


def risk_style(p: Fraction, system: str | None = "truecolor") -> Style:
    """Text and fill of a cell whose mine probability ``p`` is strictly between 0 and 1,
    in the colours of the terminal's colour ``system`` (rich's ``Console.color_system``:
    ``"standard"``, ``"windows"``, ``"256"``, ``"truecolor"``; None is read as truecolor):
    the fill darkens as ``p`` grows on every system, the text is black on a light fill and
    white on a dark one. O(1).

    >>> str(risk_style(Fraction(1, 10), "standard")), str(risk_style(Fraction(9, 10), "256"))
    ('black on bright_yellow', 'color(231) on color(124)')
    """
    if system in ("standard", "windows"):
        i = min(len(_STANDARD_RAMP) - 1, int(p * len(_STANDARD_RAMP)))
        return Style.parse(f"{'bright_white' if i == 2 else 'black'} on {_STANDARD_RAMP[i]}")
    if system == "256":
        i = min(len(_XTERM_RAMP) - 1, int(p * len(_XTERM_RAMP)))
        ink = "color(231)" if i >= 13 else "color(16)"
        return Style.parse(f"{ink} on color({_XTERM_RAMP[i]})")
    fill = heat_colour(float(p))
    ink = "rgb(0,0,0)" if _luminance(fill) > 0.18 else "rgb(255,255,255)"
    return Style.parse(f"{ink} on {fill}")


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG) of a colour rich can parse: the text is black above 0.18,
    white below, whichever contrasts more. O(1)."""
    channels = [c / 255 for c in Color.parse(colour).get_truecolor()]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


_SHADES = "░▒▓█"


def _shade(p: Fraction) -> str:
    """One character for a probability strictly between 0 and 1, denser as it grows."""
    return _SHADES[min(3, int(p * 4))]


@dataclass(frozen=True)
class _Cell:
    """One cell as a :class:`Board` draws it: its three-character and one-character forms,
    its kind (for the style and the legend), its risk when uncertain, whether it is the
    safest cell."""

    wide: str
    narrow: str
    kind: str
    risk: Fraction | None = None
    best: bool = False
    style: str = ""


@dataclass(frozen=True)
class _Entry:
    """A legend entry: the symbol of ``kind`` in the wide and the narrow layout, what it
    means and its style (the risk and the safest cell are drawn by :func:`_legend`)."""

    kind: str
    wide: str
    narrow: str
    meaning: str
    style: str = ""


@dataclass(frozen=True)
class _Layout:
    """``sep`` spaces (0 to 2) before each cell of ``size`` characters (3 or 1); the
    safest cell's ``>`` takes the last of them where its symbol fills the cell."""

    sep: int
    size: int


_WIDE = _Layout(0, 3)
_SPACED = _Layout(2, 3)  # two spaces: '40% >20%', never '40%>20%'
_NARROW = _Layout(1, 1)


class Board:
    """A grid with its coordinates and legend, laid out when rich prints it (colour or
    not, as wide as the terminal allows; see the module docstring). :meth:`text` gives
    one layout as a :class:`~rich.text.Text`, :attr:`plain` the colourless one a pipe
    shows."""

    def __init__(
        self,
        pos: Position,
        cells: Sequence[_Cell],
        legend: Sequence[_Entry],
        layouts: tuple[_Layout, ...],
    ) -> None:
        self.position = pos
        self.cells = list(cells)
        self.legend = list(legend)
        self.layouts = layouts

    def _margin(self, layout: _Layout) -> int:
        return len(str(self.position.height - 1)) + (0 if layout.sep else 1)

    def columns(self, layout: _Layout) -> int:
        """Characters per row in ``layout``."""
        return self._margin(layout) + self.position.width * (layout.sep + layout.size)

    def _choose(self, colour: bool, width: int | None) -> tuple[_Layout, bool]:
        """The layout to draw and whether it fits ``width`` (None: no limit)."""
        unused = _SPACED if colour else _WIDE  # colour needs no spaces, no colour does
        candidates = [lay for lay in self.layouts if lay != unused]
        for lay in candidates:
            if width is None or self.columns(lay) <= width:
                return lay, True
        return candidates[-1], False

    def text(
        self, *, colour: bool = False, system: str | None = None, width: int | None = None
    ) -> Text:
        """The board (and its legend) in the layout that fits ``width`` characters (None:
        the widest), in colour for ``system`` or without colour."""
        return Text("\n").join(self._parts(colour, system, width))

    @property
    def plain(self) -> str:
        """The board as a pipe shows it: no colour, every cell spaced."""
        return self.text().plain + "\n"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        system = console.color_system
        colour = system is not None and not console.no_color
        width = options.max_width if console.is_terminal else None
        yield from self._parts(colour, system, width)

    def _parts(self, colour: bool, system: str | None, width: int | None) -> Iterator[Text]:
        layout, fits = self._choose(colour, width)
        if not fits:
            yield Text(
                f"board wider than the terminal ({self.columns(layout)} columns needed)",
                style="yellow",
                no_wrap=False,
                overflow="fold",
            )
        rows = [_header(self.position, self._margin(layout), layout)]
        used: set[str] = set()
        label = len(str(self.position.height - 1))
        for y in range(self.position.height):
            row = Text()
            row.append(f"{y:>{label}}" + " " * (1 - layout.sep), style="dim")
            for x in range(self.position.width):
                cell = self.cells[y * self.position.width + x]
                used.add(cell.kind)
                used.update(["best"] if cell.best else [])
                _draw(row, cell, layout, colour, system)
            if not colour:
                row.rstrip()
            rows.append(row)
        grid = Text("\n", no_wrap=True, overflow="ignore").join(rows)  # cells never split
        yield grid
        if self.legend:
            shown = [e for e in self.legend if e.kind in used]
            yield _legend(shown, layout, colour, system, width)


def _cell_style(cell: _Cell, system: str | None, size: int = 3) -> Style | str:
    """The colours of ``cell`` on the terminal's colour ``system`` in cells of ``size``
    characters: a risk as its fill behind the percentage, or as the colour of its shade
    character (``█`` in dark red, ``░`` in pale yellow) where a cell is one character."""
    if cell.risk is not None:
        return _risk_in(cell.risk, system, size)
    if cell.kind == "mine" and not cell.style:
        return _MINE_STYLE.get(system or "", _MINE_DEFAULT)
    return cell.style


def _risk_in(p: Fraction, system: str | None, size: int) -> Style:
    """:func:`risk_style` for a percentage, its fill as the ink of a shade character."""
    style = risk_style(p, system)
    return style if size == 3 else Style(color=style.bgcolor)


def _draw(grid: Text, cell: _Cell, layout: _Layout, colour: bool, system: str | None) -> None:
    """Append ``cell`` to ``grid`` in ``layout``: its separator, then its symbol, styled
    when in ``colour``; the safest cell is underlined in colour and, where cells are
    spaced, has a ``>`` just before its symbol (``>S``, ``>21%``)."""
    symbol = cell.wide if layout.size == 3 else cell.narrow
    gap = " " * layout.sep
    if cell.best and layout.sep:
        full = gap + symbol
        first = len(full) - len(full.lstrip())
        gap, symbol = full[: first - 1], ">" + full[first:]
    grid.append(gap)
    if not colour:
        grid.append(symbol)
        return
    style = _cell_style(cell, system, layout.size)
    if cell.best:
        style = Style.parse(str(style)) + Style(underline=True, bold=True)
    grid.append(symbol, style=style)


def _header(pos: Position, margin: int, layout: _Layout) -> Text:
    """The x coordinates after ``margin`` characters of row labels: centred over
    three-character cells, else the last digit under a row of tens when the board is
    wider than ten."""
    gap = " " * layout.sep
    if layout.size == 3:
        rows = ["".join(f"{gap}{x:^3}" for x in range(pos.width)).rstrip()]
    else:
        rows = ["".join(f"{gap}{x % 10}" for x in range(pos.width))]
        if pos.width > 10:
            tens = "".join(f"{gap}{x // 10 if x >= 10 else ' '}" for x in range(pos.width))
            rows.insert(0, tens.rstrip())
    return Text("\n").join(Text(" " * margin + row, style="dim") for row in rows)


def _legend(
    entries: Sequence[_Entry], layout: _Layout, colour: bool, system: str | None, width: int | None
) -> Text:
    """``legend: SYMBOL meaning · ...``, each symbol drawn as on the board, each meaning
    true of what is shown; the entries packed into lines of ``width`` characters (None:
    one line), an entry longer than a line wrapped at the terminal, never cut."""
    parts = [_legend_entry(entry, layout, colour, system) for entry in entries]
    text = Text() if width is None else Text(no_wrap=False, overflow="fold")
    text.append("legend: ", style="dim")
    column = len(text)
    for i, part in enumerate(parts):
        if i and width is not None and column + 3 + len(part) > width:
            text.append("\n        ")
            column = 8
        elif i:
            text.append(" · ", style="dim")
            column += 3
        text.append_text(part)
        column += len(part)
    return text


def _legend_entry(entry: _Entry, layout: _Layout, colour: bool, system: str | None) -> Text:
    """One legend entry: its symbol as the board draws it, then its meaning."""
    text = Text()
    if entry.kind == "best":
        mark = ">" if layout.sep else "underlined:"
        text.append(mark, style="bold underline" if colour and not layout.sep else "bold")
    elif entry.kind == "risk":
        _risk_sample(text, layout, colour, system)
    else:
        symbol = (entry.wide if layout.size == 3 else entry.narrow).strip()
        cell = _Cell(symbol, symbol, entry.kind, style=entry.style)
        text.append(symbol, style=_cell_style(cell, system) if colour else "")
    text.append(f" {_meaning(entry, layout, colour)}")
    return text


def _meaning(entry: _Entry, layout: _Layout, colour: bool) -> str:
    """What ``entry`` means in ``layout``, naming colours only when they are shown."""
    if entry.kind == "risk":
        scale = "in percent" if layout.size == 3 else "under 25%, 50%, 75%, higher"
        return f"mine probability {scale}" + (" (darker: riskier)" if colour else "")
    if entry.kind == "best":
        return "the safest cell" if colour and not layout.sep else "marks the safest cell"
    return entry.meaning


def _risk_sample(text: Text, layout: _Layout, colour: bool, system: str | None) -> None:
    """The legend's sample of probabilities, on their fills when in colour."""
    if layout.size == 1:
        samples = [(Fraction(2 * i + 1, 8), _SHADES[i]) for i in range(4)]
    elif colour:
        samples = [(Fraction(p, 10), f"{10 * p}%") for p in (1, 5, 9)]
    else:
        samples = [(Fraction(1, 2), "50%")]
    for i, (p, symbol) in enumerate(samples):
        if i and layout.size == 3:
            text.append(" ")
        text.append(symbol, style=_risk_in(p, system, layout.size) if colour else "")


def heat_map(analysis: Analysis, *, legend: bool = True) -> Board:
    r"""The board with its coordinates, each unknown cell showing its mine probability (a
    percentage, or a shade where the terminal is narrow) on a fill that darkens with the
    risk, digits 1-8 (an open 0 blank); ``S`` certainly safe, ``M`` certainly a mine (each
    in its own colour); the safest cell marked; then a legend of what the board shows.
    O(cells).

    >>> from minesolver.analysis import analyze
    >>> print(heat_map(analyze(Position.from_text("3x2x1\n1H1\n111\n"))).plain, end="")
        0    1    2
    0   1    M    1
    1   1    1    1
    legend: 1 digit (blank: 0) · M certain mine
    """
    pos = analysis.position
    probs = analysis.probabilities
    best = analysis.safest()
    cells = []
    for y in range(pos.height):
        for x in range(pos.width):
            cell = _heat_cell(pos, probs.get((x, y)), x, y)
            if (x, y) == best and cell.kind != "mine":
                cell = _Cell(cell.wide, cell.narrow, cell.kind, cell.risk, True, cell.style)
            cells.append(cell)
    return Board(pos, cells, _HEAT_LEGEND if legend else [], (_WIDE, _SPACED, _NARROW))


def _heat_cell(pos: Position, p: Fraction | None, x: int, y: int) -> _Cell:
    """One heat-map cell: its symbols, kind and style."""
    if p is not None:
        if p == 0:
            return _Cell(" S ", "S", "safe", style=_SAFE_STYLE)
        if p == 1:
            return _Cell(" M ", "M", "mine")
        return _Cell(percent(p, 0, bare=True).rjust(3), _shade(p), "risk", risk=p)
    v = pos.cells[y * pos.width + x]
    if v == FLAG:
        return _Cell(" F ", "F", "flag", style=_FLAG_STYLE)
    if v == HIDDEN:
        return _Cell(" H ", "H", "hidden", style=_HIDDEN_STYLE)
    return _Cell(f" {v} " if v else "   ", str(v) if v else " ", "digit", style=DIGIT_STYLE[v])


_HEAT_LEGEND = [
    _Entry("digit", " 1 ", "1", "digit (blank: 0)", DIGIT_STYLE[1]),
    _Entry("risk", "", "", ""),
    _Entry("safe", " S ", "S", "certainly safe", _SAFE_STYLE),
    _Entry("mine", " M ", "M", "certain mine"),
    _Entry("flag", " F ", "F", "flag", _FLAG_STYLE),
    _Entry("hidden", " H ", "H", "hidden, not analysed", _HIDDEN_STYLE),
    _Entry("best", "", "", ""),
]


def board_text(
    view: Position, mines: Sequence[Cell] = (), exploded: Cell | None = None, *, won: bool = False
) -> Board:
    r"""The board with its coordinates and a legend: hidden ``.``, flags ``F``, digits
    1-8, an open 0 blank. After a game (``mines`` given): when ``won``, every mine a flag;
    else the mines ``*``, the one that was hit ``X`` and a flag on a safe cell ``x``.
    O(cells).

    >>> print(board_text(Position.from_text("3x2x1\n1H1\n111\n")).plain, end="")
      0 1 2
    0 1 . 1
    1 1 1 1
    legend: 1 digit (blank: 0) · . hidden
    """
    mine_set = set(mines)
    cells = [
        _board_cell(view, mine_set, exploded, won, x, y)
        for y in range(view.height)
        for x in range(view.width)
    ]
    return Board(view, cells, _BOARD_LEGEND, (_NARROW,))


def _board_cell(
    view: Position, mines: set[Cell], exploded: Cell | None, won: bool, x: int, y: int
) -> _Cell:
    """One cell of the plain board: its symbol, kind and style."""
    v = view.cells[y * view.width + x]

    def cell(symbol: str, kind: str, style: str) -> _Cell:
        return _Cell(f" {symbol} ", symbol, kind, style=style)

    if (x, y) == exploded:
        return cell("X", "exploded", "bold white on red")
    if v == FLAG and mines and (x, y) not in mines:
        return cell("x", "wrong", "red")
    if v == FLAG or (won and (x, y) in mines):
        return cell("F", "flag", "bold red")
    if (x, y) in mines:
        return cell("*", "mine", "bold red")
    if v == HIDDEN:
        return cell(".", "hidden", "grey50")
    return cell(str(v) if v else " ", "digit", DIGIT_STYLE[v])


_BOARD_LEGEND = [
    _Entry("digit", "1", "1", "digit (blank: 0)", DIGIT_STYLE[1]),
    _Entry("hidden", ".", ".", "hidden", "grey50"),
    _Entry("flag", "F", "F", "flag", "bold red"),
    _Entry("wrong", "x", "x", "flag on a safe cell", "red"),
    _Entry("mine", "*", "*", "mine", "bold red"),
    _Entry("exploded", "X", "X", "the mine that went off", "bold white on red"),
]


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
    mines = sorted(analysis.certain_mines, key=lambda c: (c[1], c[0]))

    def cells(cs: list[tuple[int, int]]) -> str:
        shown = " ".join(f"({x},{y})" for x, y in cs[:20])
        return f"  {shown}" * bool(cs) + (f" … (+{len(cs) - 20})" if len(cs) > 20 else "")

    lines.append(Text(f"certainly safe: {len(safe)}{cells(safe)}", style="green"))
    lines.append(Text(f"certain mines: {len(mines)}{cells(mines)}", style="red"))
    best = analysis.safest()
    if best is not None:
        lines.append(Text(f"safest: ({best[0]},{best[1]}), {_risk_words(analysis, best)}"))
        lines[-1].stylize("bold")
    return Group(*lines)


def _risk_words(analysis: Analysis, cell: Cell) -> str:
    """A cell's mine risk for people: the percentage, the exact value, and why it is the
    safest (certainly safe, or the lowest risk on the board and how many share it)."""
    p = analysis.probabilities[cell]
    if p == 0:
        return "certainly safe (p = 0)"
    exact = fraction_text(p)
    shown = f"p = {exact}" if len(exact) <= 40 else f"p ≈ {float(p):.6f}"
    tied = sum(q == p for q in analysis.probabilities.values()) - 1
    shared = f", shared with {tied} other cell{'s' * (tied > 1)}" if tied else ""
    return f"{percent(p)} risk of a mine ({shown}): the lowest on the board{shared}"
