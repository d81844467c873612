"""A graded replay as text: what ``minesolver replay`` prints.

:func:`summary_lines`, :func:`guess_rows` and :func:`wasted_rows` are the text summary, the
table of guesses and the table of wasted clicks (the JSON object is
:func:`minesolver.ui.json_shapes.replay_json`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from minesolver.errors import plural
from minesolver.ui.words import percent

if TYPE_CHECKING:  # types only: importing this module must not load the replay grader
    from minesolver.game import MinClicks
    from minesolver.replay.efficiency import ReplayEfficiency, WasteKind
    from minesolver.replay.grade import ReplayAnalysis

__all__ = [
    "FIRST_CLICK_WORDS",
    "GUESS_COLUMNS",
    "WASTE_COLUMNS",
    "WASTE_WORDS",
    "efficiency_lines",
    "fewest_words",
    "guess_rows",
    "software_name",
    "summary_lines",
    "wasted_rows",
]

GUESS_COLUMNS = ("move", "time", "cell", "risk", "safest", "best", "win", "best win", "verdict")
WASTE_COLUMNS = ("click", "time", "button", "cell", "wasted")

WASTE_WORDS: dict[WasteKind, tuple[str, str]] = {
    "nothing": ("click that did nothing", "clicks that did nothing"),
    "unused_flag": ("flag no chord used", "flags no chord used"),
    "unflag": ("click that took a flag away", "clicks that took a flag away"),
    "one_cell_chord": ("chord that opened one cell", "chords that opened one cell"),
}
"""Each kind of wasted click in words: for one click, and for several."""


FIRST_CLICK_WORDS: dict[str | None, str] = {
    "safe": "click protected (never a mine)",
    "opening": "click protected (always an opening)",
    "none": "click unprotected (may hit a mine)",
    None: "click's rule unknown (not graded)",
}
"""The first-click rule the replay states (its game mode), in words."""


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
        f"first     {FIRST_CLICK_WORDS[r.first_click]}",
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


def _clicks(n: int) -> str:
    return plural(n, "click")


def fewest_words(m: MinClicks) -> str:
    """The fewest clicks in words: ``"N clicks (proved)"``, or found with the proved
    bound and what stopped the search (its work budget, the same on every machine, or
    the safety deadline, which makes the figures depend on the machine).

    >>> from minesolver.game import MinClicks, Move
    >>> two = (Move("open", (0, 0)), Move("open", (4, 0)))
    >>> fewest_words(MinClicks(two, 1, work=10000, cut="work"))
    '2 clicks found, at least 1 (not proved within 10000 steps of search)'
    >>> fewest_words(MinClicks(two, 2))
    '2 clicks (proved)'
    """
    if m.optimal:
        return f"{_clicks(m.count)} (proved)"
    if m.cut == "deadline":
        why = "the search was cut by its safety deadline: another run may find more"
    else:
        why = f"not proved within {m.work} steps of search"
    return f"{_clicks(m.count)} found, at least {m.lower_bound} ({why})"


def efficiency_lines(e: ReplayEfficiency) -> list[str]:
    """The efficiency part of the summary: the speed figures, the board's ZiNi and fewest
    clicks beside the player's, the efficiency lost and the wasted clicks by kind."""
    m = e.min_clicks
    fewest = fewest_words(m)
    if m.optimal:
        best = _num(e.best_efficiency)
    else:
        best = f"{_num(e.best_efficiency)} to {_num(e.best_efficiency_bound)}"
    lost = _num(e.efficiency_lost)
    lines = [
        f"speed     RQP {_num(e.rqp)}   IOS {_num(e.ios)}   STNB {_num(e.stnb)}",
        f"ZiNi      {e.zini}   HZiNi {e.hzini}   ZiNi/s {_num(e.zini_per_second)}   "
        f"ZNE {_num(e.zne)}   ZNT {_num(e.znt)}",
        f"fewest    {fewest}; you used {e.clicks}"
        + ("" if e.extra_clicks is None else f", {e.extra_clicks} more"),
        f"effic.    yours {_num(e.efficiency)}, best {best}: "
        + (f"{lost} lost" if m.optimal else f"at least {lost} lost")
        + f"   ZiNi's {_num(e.zini_efficiency)}",
    ]
    counts = e.wasted_by_kind()
    parts = [f"{n} {WASTE_WORDS[kind][0 if n == 1 else 1]}" for kind, n in counts.items() if n]
    lines.append(f"wasted    {len(e.wasted)}" + (f": {', '.join(parts)}" if parts else ""))
    return lines


def wasted_rows(e: ReplayEfficiency) -> list[tuple[str, ...]]:
    """One row per wasted click: its number, time, button, cell and why."""
    rows: list[tuple[str, ...]] = []
    for w in e.wasted:
        c = w.click
        cell = "off the board" if c.cell is None else str(c.cell)
        rows.append((str(c.number), f"{c.time:.2f}", c.button, cell, WASTE_WORDS[w.why][0]))
    return rows


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
