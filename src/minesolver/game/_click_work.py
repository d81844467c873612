"""The budget of the fewest clicks' search, in work: RC2's SAT oracle and the rounds
around it, metered.

:func:`minesolver.game.clicks.min_clicks` counts its search in steps, never in seconds,
so the same board and budget give the same answer on any machine and under any load. A
step is one SAT conflict, or a share of the other work that takes time (an oracle call,
a round of the search); :class:`Meter` stands between RC2 and its oracle and stops the
search, with what it proved, when the budget or the safety deadline runs out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from minesolver.errors import MinesolverError

__all__ = ["Cut", "Meter", "OutOfWork", "call_work", "round_work"]

Cut = Literal["work", "deadline"]
"""Why a search stopped before its proof: its work budget, or the safety deadline."""


class OutOfWork(MinesolverError, RuntimeError):
    """Raised inside RC2 when the work budget or the deadline runs out; caught by the
    search, which answers with what it proved (a search past its budget, as the library's
    other budget errors: a ``RuntimeError``)."""

    def __init__(self, why: Cut) -> None:
        super().__init__(why)
        self.why: Cut = why


class Meter:
    """Puts RC2's SAT oracle, and the rounds around it, on a budget of work (and a
    safety deadline).

    A unit of work is one SAT conflict, or a share of the other steps that take time: each
    oracle call (a slice of a ``solve_limited`` or one ``propagate``, as RC2's detection of
    at-most-one relations makes one per soft clause) costs :func:`call_work` units (it
    grows with the formula, as the call's cost does), and each round of the search its
    share (:func:`round_work`). So every unit takes a bounded time, whatever the board
    and the rounds, and the same formula and budget stop at the same point on any
    machine: conflicts, calls and rounds are counted, never timed.

    RC2 calls its oracle through ``solve_limited`` (and sets a budget of its own, 1000
    conflicts, to shrink its cores): each call is given at most the conflicts left, and a
    call stopped by that budget, or by the deadline, raises :class:`OutOfWork` instead
    of returning ``None``. RC2's own heuristics read a stopped call as "unsatisfiable"
    and would then raise its cost past what is proved; raising keeps the cost at what the
    calls before it proved. A step the rest of the budget cannot pay for is not taken:
    the search stops there, and the rest counts as spent.

    The oracle (CaDiCaL) cannot be interrupted, so a call runs in slices of
    :data:`SLICE` conflicts and the deadline is checked between them; the slices are
    the same under any load (only the deadline's check depends on the clock).

    ``on_work``, when given, is told the work spent so far before each step (a progress
    bar's feed: it changes nothing in the search)."""

    def __init__(
        self,
        rc2: Any,
        budget: int,
        deadline: float | None,
        on_work: Callable[[int], None] | None = None,
    ) -> None:
        self.oracle = rc2.oracle
        self.budget = budget
        self.deadline = deadline
        self.on_work = on_work
        self.inner: int | None = None  # RC2's own budget for the call, when it sets one
        self.base = self._conflicts()
        self.charged = 0  # the units of the calls and rounds so far
        rc2.oracle = self

    def _conflicts(self) -> int:
        return int(self.oracle.accum_stats().get("conflicts", 0))

    def used(self) -> int:
        """The work spent so far: conflicts, calls and rounds."""
        return self._conflicts() - self.base + self.charged

    def spend(self, units: int) -> None:
        """Pays for a step of ``units`` before it is taken, or stops the search (with
        the rest of the budget spent) when the budget cannot pay for it; checks the
        deadline."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfWork("deadline")
        if self.used() + units > self.budget:
            self.charged = self.budget - (self._conflicts() - self.base)
            raise OutOfWork("work")
        self.charged += units
        if self.on_work is not None:
            self.on_work(self.used())

    def close(self) -> None:
        """Ends the search's metering: ``on_work`` is told the work spent in all (the
        whole budget when the search was cut by it)."""
        if self.on_work is not None:
            self.on_work(self.used())

    def conf_budget(self, budget: int = -1) -> None:
        self.inner = budget if budget > 0 else None

    def propagate(self, assumptions: Sequence[int] = (), phase_saving: int = 0) -> Any:
        self.spend(call_work(self.oracle))
        return self.oracle.propagate(assumptions=list(assumptions), phase_saving=phase_saving)

    def solve_limited(self, assumptions: Sequence[int] = (), expect_interrupt: bool = False) -> Any:
        start = self._conflicts()
        while True:
            self.spend(call_work(self.oracle))
            spent = self._conflicts() - start
            left = self.budget - self.used()
            limit = left if self.inner is None else min(self.inner - spent, left)
            self.oracle.conf_budget(max(min(limit, SLICE), 1))
            result = self.oracle.solve_limited(assumptions=list(assumptions))
            self.oracle.conf_budget(-1)
            if result is not None:
                return result
            now = self._conflicts() - start
            if now == spent or self.used() >= self.budget:
                break  # the budget is spent (or the solver made no progress)
            if self.inner is not None and now >= self.inner:
                return None  # RC2's own budget for the call is spent
        if self.inner is None or self.used() >= self.budget:
            raise OutOfWork("work")
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.oracle, name)


def call_work(oracle: Any) -> int:
    """The units one oracle call costs besides its conflicts: its setting up (the
    assumptions, a propagation from them) grows with the formula, one unit per
    :data:`CALL_SIZE` variables and clauses (a few units on a fresh expert formula, tens
    once the cores' totalizers and the cuts have grown it)."""
    return 1 + int(oracle.nof_vars() + oracle.nof_clauses()) // CALL_SIZE


def round_work(cells: int, literals: int = 0) -> int:
    """The units of one round's own work: its plan played as a sequence and its
    unreached groups, O(cells) each (one unit per two cells), and the cuts it adds (one unit
    per :data:`CUT_LITERALS` literals, which RC2 maps one by one)."""
    return cells // 2 + literals // CUT_LITERALS


CALL_SIZE = 2048
"""Variables and clauses of the formula per unit of an oracle call's cost."""

CUT_LITERALS = 32
"""Literals of the added cuts per unit of a round's cost."""


SLICE = 100_000
"""Conflicts of one slice of a SAT call: the safety deadline is checked between slices
(10 to 30 seconds on expert) and before each call (RC2 makes many short ones). Each
slice restarts the solver's search (its learnt clauses kept), so slices are large: a
call is sliced only when it runs past 100,000 conflicts (RC2's calls are mostly far
shorter)."""
