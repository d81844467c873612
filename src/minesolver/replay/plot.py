"""A graded replay as a PNG: the final board with every guess marked by its risk, and
the risk of each graded action over the game.

Needs the ``plot`` extra (matplotlib), imported here only; figures are built with
:class:`matplotlib.figure.Figure` directly (no ``pyplot`` global state).
Cost: O(cells + actions) drawing calls.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from minesolver.position import FLAG, HIDDEN
from minesolver.replay.grade import ReplayAnalysis
from minesolver.replay.report import software_name

__all__ = ["plot_replay"]


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("images need the 'plot' extra: pip install 'minesolver[plot]'") from exc
    return Figure(figsize=(width, height), dpi=100)


def _colour(cmap: Any, p: float | Fraction) -> Any:
    """Green for a sure cell to red for a risk of one half or more."""
    return cmap(min(1.0, 2 * float(p)))


def plot_replay(a: ReplayAnalysis, path: str | Path) -> None:
    """Write the board and the risk chart of ``a`` to ``path`` as a PNG."""
    from matplotlib import colormaps

    r = a.replay
    scale = max(0.22, min(0.5, 12 / max(r.width, r.height)))
    fig = _figure(max(r.width * scale, 6) + 0.6, r.height * scale + 3.4)
    board = fig.add_axes((0.05, 0.36, 0.9, 0.58))
    chart = fig.add_axes((0.1, 0.07, 0.85, 0.2))
    cmap = colormaps["RdYlGn_r"]
    _draw_board(board, a, cmap)
    _draw_chart(chart, a, cmap)
    fig.savefig(path, format="png", bbox_inches="tight")


def _draw_board(ax: Any, a: ReplayAnalysis, cmap: Any) -> None:
    from matplotlib.patches import Circle, Rectangle

    r, final = a.replay, a.playback.final
    mines = set(r.mine_cells)
    guessed = {m.action.cell for m in a.guesses}
    ax.set_xlim(0, r.width)
    ax.set_ylim(r.height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for y in range(r.height):
        for x in range(r.width):
            value = final[(x, y)]
            face = (0.93, 0.94, 0.95) if value >= 0 else (0.72, 0.75, 0.8)
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, edgecolor="#8a93a3", lw=0.3))
            text = "F" if value == FLAG else "*" if value == HIDDEN and (x, y) in mines else ""
            if value > 0:
                text = str(value)
            if text and (x, y) not in guessed:
                ax.text(x + 0.5, y + 0.55, text, ha="center", va="center", fontsize=6)
    for m in a.guesses:
        assert m.p is not None
        x, y = m.action.cell
        ax.add_patch(Circle((x + 0.5, y + 0.5), 0.42, facecolor=_colour(cmap, m.p), alpha=0.85))
        ax.text(x + 0.5, y + 0.55, f"{round(100 * float(m.p))}", ha="center", va="center",
                fontsize=6, fontweight="bold")  # fmt: skip
    result = "won" if a.won else a.playback.status
    ax.set_title(
        f"{r.player or 'player'}, {software_name(r.software)}: {r.width}x{r.height}/{r.mines}, "
        f"{result} in {r.time:.2f} s; {len(a.guesses)} guesses (risk in %)",
        fontsize=9,
    )


def _draw_chart(ax: Any, a: ReplayAnalysis, cmap: Any) -> None:
    graded = [m for m in a.moves if m.graded and m.p is not None]
    times = [m.action.time for m in graded]
    risks = [float(m.p) for m in graded if m.p is not None]
    safest = [float(m.safest) for m in graded if m.safest is not None]
    ax.step(times, safest, where="post", color="#1f5fd6", lw=1, label="safest cell")
    ax.scatter(times, risks, c=[_colour(cmap, p) for p in risks], s=14, zorder=3, label="action")
    ax.set_xlabel("time (s)", fontsize=8)
    ax.set_ylabel("mine risk", fontsize=8)
    ax.set_ylim(-0.03, max([0.55, *risks]) + 0.03)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="upper right")
