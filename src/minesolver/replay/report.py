"""A graded replay as JSON and as text: what ``minesolver replay`` prints.

:func:`to_json` is the JSON object (probabilities as exact ``"num/den"`` strings);
:func:`summary_lines` and :func:`guess_rows` the text summary and the table of guesses.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from minesolver.analysis import fraction_text
from minesolver.analysis import to_json as analysis_json
from minesolver.replay.grade import MoveGrade, ReplayAnalysis

__all__ = [
    "GUESS_COLUMNS",
    "guess_rows",
    "move_json",
    "positions_json",
    "software_name",
    "summary_lines",
    "to_json",
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


def _frac(p: Fraction | None) -> str | None:
    return None if p is None else fraction_text(p)


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def move_json(m: MoveGrade) -> dict[str, Any]:
    """One action: index, time (s), action, cell, and for a graded one its risk."""
    a = m.action
    out: dict[str, Any] = {
        "index": a.index,
        "time": a.time,
        "action": a.kind,
        "x": a.cell[0],
        "y": a.cell[1],
        "graded": m.graded,
        "p": _frac(m.p),
        "safest": _frac(m.safest),
        "guess": m.guess,
        "needless": m.needless,
    }
    if m.best is not None:
        out["best"] = {"action": m.best.kind, "x": m.best.cell[0], "y": m.best.cell[1]}
    if m.win is not None and m.best_win is not None:
        out["win"], out["best_win"] = fraction_text(m.win), fraction_text(m.best_win)
    return out


def to_json(a: ReplayAnalysis) -> dict[str, Any]:
    """The JSON object of ``minesolver replay --json``."""
    r, p = a.replay, a.playback
    c = p.clicks
    return {
        "format": r.format,
        "version": r.version,
        "software": software_name(r.software),
        "player": r.player,
        "width": r.width,
        "height": r.height,
        "mines": r.mines,
        "cell_size": r.cell_size,
        "mine_cells": [list(cell) for cell in r.mine_cells],
        "won": a.won,
        "status": p.status,
        "exploded": None if p.exploded is None else list(p.exploded),
        "time": r.time,
        "bbbv": a.bbbv,
        "bbbv_solved": c.bbbv_solved,
        "bbbv_per_second": _finite(a.bbbv_per_second),
        "openings": p.stats.openings,
        "islands": p.stats.islands,
        "clicks": {
            "left": c.left,
            "right": c.right,
            "double": c.double,
            "total": c.total,
            "effective": c.effective,
        },
        "ioe": a.ioe,
        "correctness": a.correctness,
        "throughput": a.throughput,
        "pluck": _finite(a.pluck),
        "safe_probability": fraction_text(a.safe_product),
        "guesses": len(a.guesses),
        "needless_guesses": len(a.needless_guesses),
        "warnings": list(a.warnings),
        "moves": [move_json(m) for m in a.moves],
    }


def positions_json(a: ReplayAnalysis) -> list[dict[str, Any]]:
    """Each graded action with the position before it and that position's full analysis
    (the object of ``minesolver solve --json``): what a replay viewer shows move by move."""
    return [
        {
            **move_json(m),
            "position": m.analysis.position.to_text(),
            "analysis": analysis_json(m.analysis),
        }
        for m in a.moves
        if m.analysis is not None
    ]


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _percent(p: Fraction | None) -> str:
    return "-" if p is None else f"{100 * float(p):.1f}%"


def summary_lines(a: ReplayAnalysis) -> list[str]:
    """The summary: who, what, the result and the figures."""
    r, p = a.replay, a.playback
    c = p.clicks
    result = "won" if a.won else f"lost at {p.exploded}" if p.status == "lost" else "unfinished"
    pluck = "infinite (lost)" if math.isinf(a.pluck) else f"{a.pluck:.4f}"
    lines = [
        f"player    {r.player or '-'}",
        f"software  {software_name(r.software)} ({r.format.upper()} {r.version})",
        f"board     {r.width}x{r.height}, {r.mines} mines",
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
                _percent(m.p),
                _percent(m.safest),
                best,
                _percent(m.win),
                _percent(m.best_win),
                m.verdict,
            )
        )
    return rows
