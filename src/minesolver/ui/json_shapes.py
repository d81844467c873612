"""The JSON shapes of the command line and the web API, in one place.

:func:`analysis_json` is the object of ``minesolver solve --json`` (and of the web API's
analysis); :func:`replay_json` the object of ``minesolver replay --json``, with
:func:`replay_move_json` per action and :func:`positions_json` for a replay viewer.
Exact numbers travel as strings (``"num/den"`` fractions, decimal layout counts: they may
have thousands of digits); floats are for display. Each costs O(cells) or O(actions).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from minesolver.result import Analysis, fraction_text, int_to_decimal

if TYPE_CHECKING:  # types only: solve --json need not load the replay grader
    from minesolver.game import Move
    from minesolver.replay.efficiency import ReplayEfficiency, WastedClick
    from minesolver.replay.grade import MoveGrade, ReplayAnalysis

__all__ = [
    "analysis_json",
    "efficiency_json",
    "positions_json",
    "recommended_json",
    "replay_json",
    "replay_move_json",
    "wasted_actions",
    "wasted_click_json",
]


def analysis_json(analysis: Analysis) -> dict[str, object]:
    """The JSON object of ``minesolver solve --json`` (and of the web API).

    ``layouts`` is a decimal string (it may have thousands of digits); each cell gives its
    exact probability as a string and a float for display.
    """
    pos = analysis.position
    errors = analysis.errors
    cells: list[dict[str, object]] = []
    for (x, y), p in sorted(analysis.probabilities.items(), key=lambda t: (t[0][1], t[0][0])):
        cell: dict[str, object] = {"x": x, "y": y, "p": fraction_text(p), "prob": float(p)}
        if errors is not None:
            cell["error"] = errors.get((x, y), 0.0)
        cells.append(cell)
    best = analysis.safest()
    out: dict[str, object] = {
        "width": pos.width,
        "height": pos.height,
        "mines": pos.mines,
        # approximate engines do not count layouts: null rather than a misleading "0".
        "layouts": None if analysis.layouts is None else int_to_decimal(analysis.layouts),
        "exact": analysis.exact,
        "engine": analysis.engine,
        "cells": cells,
        "safe": sorted(([x, y] for x, y in analysis.safe), key=lambda c: (c[1], c[0])),
        "mines_found": sorted(
            ([x, y] for x, y in analysis.certain_mines), key=lambda c: (c[1], c[0])
        ),
        "safest": list(best) if best is not None else None,
        # the former name of "safest", kept for one release (see the changelog)
        "best": list(best) if best is not None else None,
    }
    return out


def recommended_json(move: Move, analysis: Analysis, player: str = "best") -> dict[str, object]:
    """The move to make on the analysed position (the ``best`` player's first move), as
    ``solve --json`` adds it under ``"recommended"``: ``kind`` (``"open"``, ``"flag"``),
    ``cell`` ``[x, y]``, ``guess``, the cell's exact mine probability ``p`` (and ``prob``
    as a float), ``why`` in plain words, ``reason`` the reason's technical text, and the
    ``player``. O(1)."""
    from minesolver.ui.words import plain_reason

    p = analysis.probabilities.get(move.cell)
    return {
        "kind": move.kind,
        "cell": list(move.cell),
        "guess": move.guess,
        "p": None if p is None else fraction_text(p),
        "prob": None if p is None else float(p),
        "why": plain_reason(move),
        "reason": "" if move.reason is None else str(move.reason),
        "player": player,
    }


def _frac(p: Fraction | None) -> str | None:
    return None if p is None else fraction_text(p)


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def replay_move_json(m: MoveGrade, wasted: str | None = None) -> dict[str, Any]:
    """One action: index, time (s), action, cell, for a graded one its risk, and
    ``wasted``: why the click that made it was wasted, or ``None``."""
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
        "wasted": wasted,
    }
    if m.best is not None:
        out["best"] = {"action": m.best.kind, "x": m.best.cell[0], "y": m.best.cell[1]}
    if m.win is not None and m.best_win is not None:
        out["win"], out["best_win"] = fraction_text(m.win), fraction_text(m.best_win)
    return out


def wasted_click_json(w: WastedClick) -> dict[str, Any]:
    """A wasted click: its number among the clicks, time (s), button, cell (``x`` and ``y``
    ``None`` off the board), the action it made (its index, or ``None``) and ``why``."""
    c = w.click
    x, y = (None, None) if c.cell is None else c.cell
    return {
        "number": c.number,
        "time": c.time,
        "button": c.button,
        "x": x,
        "y": y,
        "action": c.action,
        "why": w.why,
    }


def efficiency_json(e: ReplayEfficiency) -> dict[str, Any]:
    """The game's efficiency: the board's ZiNi, HZiNi and fewest clicks (found within the
    work budget, its proved lower bound and whether they meet, the clicks themselves, the
    work spent and what cut the search: ``"work"``, the same on every machine, or
    ``"deadline"``, the safety deadline, when the figures depend on the machine), the
    player's clicks and efficiency against the best, and the wasted clicks by kind."""
    m = e.min_clicks
    return {
        "zini": e.zini,
        "hzini": e.hzini,
        "min_clicks": m.count,
        "lower_bound": m.lower_bound,
        "optimal": m.optimal,
        "work": m.work,
        "cut": m.cut,
        "min_sequence": m.notation(),
        "player_clicks": e.clicks,
        "extra_clicks": e.extra_clicks,
        "efficiency": e.efficiency,
        "best_efficiency": e.best_efficiency,
        "best_efficiency_bound": e.best_efficiency_bound,
        "efficiency_lost": e.efficiency_lost,
        "zini_efficiency": e.zini_efficiency,
        "wasted": len(e.wasted),
        "wasted_by_kind": e.wasted_by_kind(),
    }


def replay_json(a: ReplayAnalysis, efficiency: ReplayEfficiency | None = None) -> dict[str, Any]:
    """The JSON object of ``minesolver replay --json``: ``a`` shaped, with its efficiency
    (``a.efficiency``, graded with it, unless ``efficiency`` is given); nothing is
    computed here."""
    # the replay's words (and the players' reasons behind them), loaded here: ``solve``
    # never needs them
    from minesolver.ui.replay_report import software_name

    r, p = a.replay, a.playback
    c = p.clicks
    e = a.efficiency if efficiency is None else efficiency
    marks = wasted_actions(e.wasted)
    return {
        "format": r.format,
        "version": r.version,
        "software": software_name(r.software),
        "player": r.player,
        "mode": r.mode,
        "first_click": r.first_click,
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
        "rqp": e.rqp,
        "ios": e.ios,
        "stnb": e.stnb,
        "zini_per_second": e.zini_per_second,
        "zne": e.zne,
        "znt": e.znt,
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
        "efficiency": efficiency_json(e),
        "wasted_clicks": [wasted_click_json(w) for w in e.wasted],
        "moves": [replay_move_json(m, marks.get(m.action.index)) for m in a.moves],
    }


def positions_json(
    a: ReplayAnalysis, wasted: Sequence[WastedClick] | None = None
) -> list[dict[str, Any]]:
    """Each graded action with the position before it and that position's full analysis
    (the object of ``minesolver solve --json``): what a replay viewer shows move by move,
    each saying whether its click was wasted (``wasted``: the game's wasted clicks, those
    graded with it unless given)."""
    marks = wasted_actions(a.efficiency.wasted if wasted is None else wasted)
    return [
        {
            **replay_move_json(m, marks.get(m.action.index)),
            "position": m.analysis.position.to_text(),
            "analysis": analysis_json(m.analysis),
        }
        for m in a.moves
        if m.analysis is not None
    ]


def wasted_actions(wasted: Iterable[WastedClick]) -> dict[int, str]:
    """The actions made by wasted clicks (an unused flag, a one-cell chord): index -> why."""
    return {w.click.action: w.why for w in wasted if w.click.action is not None}
