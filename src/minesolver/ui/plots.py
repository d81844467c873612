"""Images: a position's probability heat map, win rates with their intervals, and a
graded replay.

Needs the ``plot`` extra (matplotlib). Figures are built with :class:`matplotlib.figure.Figure`
directly (no ``pyplot`` global state), so plotting is safe in servers and threads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from minesolver.analysis import Analysis
from minesolver.errors import plural
from minesolver.position import FLAG, HIDDEN
from minesolver.registry import install_command
from minesolver.replay.grade import ReplayAnalysis
from minesolver.ui.replay_report import software_name

__all__ = ["plot_heat_map", "plot_replay", "plot_win_rates", "win_rate_rows"]

_DIGIT_COLOURS = {
    1: "#1f4fd6", 2: "#138a2f", 3: "#d3242c", 4: "#2b1a8f",
    5: "#8a1a1a", 6: "#0f8a8a", 7: "#111111", 8: "#666666",
}  # fmt: skip


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"plots need the 'plot' extra: {install_command('plot')}") from exc
    return Figure(figsize=(width, height), dpi=100)


def plot_heat_map(analysis: Analysis, path: str | Path) -> None:
    """Write the board as a PNG: each unknown cell coloured by its mine probability (green
    safe to red mine, with the percentage when the board is small enough to read), digits
    and flags as on the board, the safest cell outlined in blue.

    O(cells) drawing calls.
    """
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    pos = analysis.position
    cmap = colormaps["RdYlGn_r"]
    scale = max(0.28, min(0.6, 14 / max(pos.width, pos.height)))
    fig = _figure(pos.width * scale + 1.6, pos.height * scale + 0.9)
    ax = fig.add_axes((0.02, 0.02, 0.8, 0.9))
    cax = fig.add_axes((0.85, 0.1, 0.03, 0.75))
    ax.set_xlim(0, pos.width)
    ax.set_ylim(pos.height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    labels = pos.width <= 40
    font = 9 * scale / 0.5
    probs = analysis.probabilities
    for y in range(pos.height):
        for x in range(pos.width):
            value = pos.cells[y * pos.width + x]
            p = probs.get((x, y))
            text, colour = "", "black"
            if p is not None:
                face = cmap(float(p))
                if labels:
                    text = "S" if p == 0 else "M" if p == 1 else f"{round(float(p) * 100)}"
            elif value == FLAG:
                face, text, colour = (0.55, 0.58, 0.63, 1.0), "F", "#d3242c"
            elif value == HIDDEN:
                face = (0.72, 0.75, 0.8, 1.0)
            else:
                face = (0.93, 0.94, 0.95, 1.0)
                text, colour = (str(value) if value else ""), _DIGIT_COLOURS.get(value, "black")
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, edgecolor="#8a93a3", lw=0.4))
            if text:
                ax.text(x + 0.5, y + 0.53, text, ha="center", va="center",
                        fontsize=font, color=colour, fontweight="bold")  # fmt: skip
    best = analysis.safest()
    if best is not None:
        ax.add_patch(Rectangle(best, 1, 1, fill=False, edgecolor="#1f5fd6", lw=2.5))
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    fig.colorbar(ScalarMappable(norm=Normalize(0, 1), cmap=cmap), cax=cax,
                 label="mine probability")  # fmt: skip
    title = f"{pos.width}x{pos.height}" + (
        f", {plural(pos.mines, 'mine')}" if pos.mines is not None else ""
    )
    ax.set_title(title + ("" if analysis.exact else " (approximate)"), fontsize=10)
    fig.savefig(path, format="png", bbox_inches="tight")


def win_rate_rows(results: Any) -> list[dict[str, Any]]:
    """The per-player objects of ``bench --json`` output, whatever its shape.

    Accepts one player's object, ``{"results": {name: object}}``, or an iterable of either.
    Each row has ``level``, ``player``, ``win_rate`` and ``ci95``.
    """
    if isinstance(results, Mapping):
        if "results" in results:
            return [dict(r) for r in results["results"].values()]
        return [dict(results)]
    rows: list[dict[str, Any]] = []
    for item in results:
        rows.extend(win_rate_rows(item))
    return rows


def plot_win_rates(
    results: Mapping[str, Any] | Iterable[Mapping[str, Any]], path: str | Path
) -> None:
    """Write a bar chart of win rates per level and player, with 95% intervals, as PNG.

    ``results`` is ``bench --json`` output (see :func:`win_rate_rows`).
    """
    rows = win_rate_rows(results)
    if not rows:
        raise ValueError("no results to plot")
    levels = list(dict.fromkeys(str(r["level"]) for r in rows))
    players = list(dict.fromkeys(str(r["player"]) for r in rows))
    fig = _figure(max(5.0, 1.6 * len(levels) * max(1, len(players)) ** 0.5 + 2), 4.2)
    ax = fig.add_subplot()
    width = 0.8 / len(players)
    for k, player in enumerate(players):
        xs, ys, lo, hi = [], [], [], []
        for i, level in enumerate(levels):
            for r in rows:
                if r["player"] == player and str(r["level"]) == level:
                    rate = float(r["win_rate"])
                    a, b = (float(v) for v in r["ci95"])
                    xs.append(i - 0.4 + width * (k + 0.5))
                    ys.append(rate * 100)
                    lo.append((rate - a) * 100)
                    hi.append((b - rate) * 100)
        bars = ax.bar(xs, ys, width * 0.92, yerr=[lo, hi], capsize=3, label=player)
        ax.bar_label(bars, labels=[f"{y:.1f}%" for y in ys], fontsize=7, padding=2)
    ax.set_xticks(range(len(levels)), levels)
    ax.set_ylabel("win rate (%), 95% Wilson interval")
    ax.set_ylim(0, 105)
    games = sorted({int(r.get("games", 0)) for r in rows})
    ax.set_title("games per bar: " + ", ".join(map(str, games)), fontsize=9)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")


def _risk_colour(cmap: Any, p: float | Fraction) -> Any:
    """Green for a sure cell to red for a risk of one half or more."""
    return cmap(min(1.0, 2 * float(p)))


def plot_replay(a: ReplayAnalysis, path: str | Path) -> None:
    """Write a graded replay as a PNG: the final board with every guess marked by its
    risk (in %), and the risk of each graded action over the game with the safest risk
    available. O(cells + actions) drawing calls."""
    from matplotlib import colormaps

    r = a.replay
    scale = max(0.22, min(0.5, 12 / max(r.width, r.height)))
    fig = _figure(max(r.width * scale, 6) + 0.6, r.height * scale + 3.4)
    board = fig.add_axes((0.05, 0.36, 0.9, 0.58))
    chart = fig.add_axes((0.1, 0.07, 0.85, 0.2))
    cmap = colormaps["RdYlGn_r"]
    _draw_replay_board(board, a, cmap)
    _draw_risk_chart(chart, a, cmap)
    fig.savefig(path, format="png", bbox_inches="tight")


def _draw_replay_board(ax: Any, a: ReplayAnalysis, cmap: Any) -> None:
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
        ax.add_patch(
            Circle((x + 0.5, y + 0.5), 0.42, facecolor=_risk_colour(cmap, m.p), alpha=0.85)
        )
        ax.text(x + 0.5, y + 0.55, f"{round(100 * float(m.p))}", ha="center", va="center",
                fontsize=6, fontweight="bold")  # fmt: skip
    result = "won" if a.won else a.playback.status
    ax.set_title(
        f"{r.player or 'player'}, {software_name(r.software)}: {r.width}x{r.height}/{r.mines}, "
        f"{result} in {r.time:.2f} s; {len(a.guesses)} guesses (risk in %)",
        fontsize=9,
    )


def _draw_risk_chart(ax: Any, a: ReplayAnalysis, cmap: Any) -> None:
    graded = [m for m in a.moves if m.graded and m.p is not None]
    times = [m.action.time for m in graded]
    risks = [float(m.p) for m in graded if m.p is not None]
    safest = [float(m.safest) for m in graded if m.safest is not None]
    ax.step(times, safest, where="post", color="#1f5fd6", lw=1, label="safest cell")
    ax.scatter(
        times, risks, c=[_risk_colour(cmap, p) for p in risks], s=14, zorder=3, label="action"
    )
    ax.set_xlabel("time (s)", fontsize=8)
    ax.set_ylabel("mine risk", fontsize=8)
    ax.set_ylim(-0.03, max([0.55, *risks]) + 0.03)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="upper right")
