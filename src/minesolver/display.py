"""Rich renderings of positions and analyses for the terminal (heat map, summary)."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Group, RenderableType
from rich.text import Text

from minesolver.analysis import Analysis, fraction_text, int_to_decimal
from minesolver.position import FLAG, HIDDEN

__all__ = ["heat_colour", "heat_map", "layouts_text", "summary"]

_DIGIT_STYLE = {
    0: "grey50",
    1: "bold blue",
    2: "bold green",
    3: "bold red",
    4: "bold magenta",
    5: "bold dark_red",
    6: "bold cyan",
    7: "bold white",
    8: "bold grey70",
}


def heat_colour(p: float) -> str:
    """Background colour from green (safe) through yellow to red (mine)."""
    p = min(1.0, max(0.0, p))
    if p < 0.5:
        r, g = int(510 * p), 200
    else:
        r, g = 255, int(200 * (1 - p) * 2)
    return f"rgb({r},{g},60)"


def _cell_text(p: Fraction) -> str:
    if p == 0:
        return " S "
    if p == 1:
        return " M "
    pct = min(99, max(1, round(float(p) * 100)))
    return f"{pct:>3}"


def heat_map(analysis: Analysis) -> Text:
    """The board, each unknown cell showing its mine probability in percent on a colour
    from green to red; ``S`` certainly safe, ``M`` certainly a mine; the best cell
    underlined."""
    pos = analysis.position
    probs = analysis.probabilities
    best = analysis.safest()
    text = Text()
    for y in range(pos.height):
        for x in range(pos.width):
            v = pos.cells[y * pos.width + x]
            p = probs.get((x, y))
            if p is not None:
                style = f"black on {heat_colour(float(p))}"
                if (x, y) == best:
                    style += " underline bold"
                text.append(_cell_text(p), style=style)
            elif v == FLAG:
                text.append(" F ", style="bold red on grey30")
            elif v == HIDDEN:
                text.append(" H ", style="on grey30")
            else:
                text.append(f" {v} ", style=_DIGIT_STYLE[v])
        text.append("\n")
    return text


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
        lines.append(Text(f"best: ({best[0]},{best[1]})  p = {shown}", style="bold"))
    return Group(*lines)
