"""A graded replay as text: what ``minesolver replay`` prints.

:func:`summary_lines` and :func:`guess_rows` are the text summary and the table of
guesses (the JSON object is :func:`minesolver.ui.json_shapes.replay_json`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from minesolver.errors import plural
from minesolver.ui.words import percent

if TYPE_CHECKING:  # types only: importing this module must not load the replay grader
    from minesolver.replay.grade import ReplayAnalysis

__all__ = [
    "GUESS_COLUMNS",
    "guess_rows",
    "software_name",
    "summary_lines",
]

GUESS_COLUMNS = ("move", "time", "cell", "risk", "safest", "best", "win", "best win", "verdict")


def software_name(software: str) -> str:
    """The software's name for people (Metasweeper writes its Chinese name, 元).

    >>> software_name("元3.2.1"), software_name("Arbiter")
    ('Metasweeper 3.2.1', 'Arbiter')
    """
    if software.startswith("元"):
        return "Metasweeper " + software[1:].strip()
    return software


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def summary_lines(a: ReplayAnalysis) -> list[str]:
    """The summary: who, what, the result and the figures."""
    r, p = a.replay, a.playback
    c = p.clicks
    result = "won" if a.won else f"lost at {p.exploded}" if p.status == "lost" else "unfinished"
    pluck = "infinite (lost)" if math.isinf(a.pluck) else f"{a.pluck:.4f}"
    lines = [
        f"player    {r.player or '-'}",
        f"software  {software_name(r.software)} ({r.format.upper()} {r.version})",
        f"board     {r.width}x{r.height}, {plural(r.mines, 'mine')}",
        f"result    {result}",
        f"time      {r.time:.3f} s",
        f"3BV       {a.bbbv} ({c.bbbv_solved} solved), {_num(a.bbbv_per_second)} 3BV/s",
        f"clicks    {c.left} left, {c.right} right, {c.double} double: "
        f"{c.total} in all, {c.effective} effective",
        f"IOE       {_num(a.ioe)}   correctness {_num(a.correctness)}   "
        f"throughput {_num(a.throughput)}",
        f"pluck     {pluck}",
        f"guesses   {len(a.guesses)}, needless {len(a.needless_guesses)}",
    ]
    lines += [f"warning   {w}" for w in a.warnings]
    return lines


def guess_rows(a: ReplayAnalysis) -> list[tuple[str, ...]]:
    """One row per guess: move, time, cell, risk, the safest risk, best's move, the win
    chances of the click and of the best click (where searched), verdict."""
    rows: list[tuple[str, ...]] = []
    for m in a.guesses:
        act = m.action
        best = "-" if m.best is None else f"{m.best.kind} {m.best.cell}"
        rows.append(
            (
                str(act.index),
                f"{act.time:.2f}",
                f"{act.kind} {act.cell}",
                percent(m.p),
                percent(m.safest),
                best,
                percent(m.win),
                percent(m.best_win),
                m.verdict,
            )
        )
    return rows
