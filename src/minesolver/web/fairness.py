"""Fair shares of the analysis workers: a cost estimate, two lanes, per-client limits.

A few clients posting hard positions must not starve everyone else. Three things see to it:

1. **An estimate before queueing** (:func:`estimate_cost`): the position is reduced to its
   components (:func:`minesolver.constraints.build`, linear in the board) and the request
   is *cheap* when its largest component and its whole frontier are small
   (:meth:`Cost.cheap`). This is an upper bound on the work of the exact count, good
   enough to sort requests; it is the one place to swap for a finer estimate.
2. **Two lanes**: cheap requests run in their own small pool of workers with a short
   budget, so they never wait behind expensive ones; a request misjudged as cheap is
   stopped there and moved to the expensive lane.
3. **Per-client shares** (:class:`FairGate`, one per lane): a client (an address) has at
   most ``per_client`` jobs running and ``queued`` more waiting in a lane; beyond that it
   alone gets :class:`TooManyRequests` (HTTP 429); once its share of the expensive lane
   is full, it is refused before its next request is even estimated, so that a flood of
   refused requests costs the server next to nothing. Waiting clients are served in turn
   (round robin), so a client with one request waits for at most one job of each other
   client, however many that client sends.

Costs: :func:`estimate_cost` O(cells + equation sizes); entering and leaving a gate
O(clients waiting in that lane).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from minesolver.constraints import build
from minesolver.position import InconsistentPosition, Position
from minesolver.web.compute import ServerBusy

__all__ = ["Cost", "FairGate", "TooManyRequests", "estimate_cost"]


class TooManyRequests(Exception):
    """The client already has its share of jobs running and waiting (HTTP 429)."""


@dataclass(frozen=True, slots=True)
class Cost:
    """What a request's analysis will cost, roughly: the boxes of its largest component
    (the exact count is exponential in a component's width, never in the board) and the
    cells of its whole frontier (what the hint player weighs, cell by cell)."""

    largest_boxes: int
    frontier_cells: int

    def cheap(self, max_boxes: int, max_frontier: int) -> bool:
        """Whether the request belongs to the fast lane under these bounds."""
        return self.largest_boxes <= max_boxes and self.frontier_cells <= max_frontier


def estimate_cost(position: Position, *, trust_flags: bool = True) -> Cost:
    """The :class:`Cost` of analysing ``position``, from its components.

    The total does not change the components, so it is left out (no total check here).
    A position whose digits contradict each other costs nothing: the worker refuses it at
    once, with the reason. O(cells + equation sizes).

    >>> estimate_cost(Position.from_text("5x5x5\\nH2HHH\\nHHHHH\\n112HH\\n00HHH\\n000HH"))
    Cost(largest_boxes=5, frontier_cells=7)
    """
    try:
        problem = build(position.with_mines(None), trust_flags=trust_flags)
    except InconsistentPosition:
        return Cost(0, 0)
    components = problem.components
    largest = max((len(c.boxes) for c in components), default=0)
    return Cost(largest, sum(c.size for c in components))


def _refusal(running: int, waiting: int) -> TooManyRequests:
    return TooManyRequests(
        f"this client already has {running} analyses running and {waiting} waiting, "
        "its share on this server; retry when one ends"
    )


@dataclass
class _Share:
    """One client's jobs in one lane: how many run, and the waiters in arrival order."""

    running: int = 0
    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)


class FairGate:
    """At most ``slots`` jobs at once, ``per_client`` of them from one client, which may
    have ``queued`` more waiting (each at most ``wait`` seconds, else :class:`ServerBusy`).

    Waiting clients are served round robin. The gate runs on one event loop; it admits,
    the caller runs the job, the gate is left (``async with gate.admit(client)``).
    """

    def __init__(self, slots: int, per_client: int, queued: int, wait: float) -> None:
        if min(slots, per_client) < 1 or queued < 0:
            raise ValueError(
                f"gate limits slots={slots}, per_client={per_client}, queued={queued}: "
                "slots and per_client must be at least 1, queued at least 0"
            )
        self.slots = slots
        self.per_client = per_client
        self.queued = queued
        self.wait = wait
        self._running = 0
        self._shares: dict[str, _Share] = {}
        self._turns: OrderedDict[str, None] = OrderedDict()  # clients waiting, next first

    def load(self, client: str) -> tuple[int, int]:
        """``(running, waiting)`` jobs of ``client`` (for tests and logs)."""
        share = self._shares.get(client)
        return (0, 0) if share is None else (share.running, len(share.waiting))

    def refuse_if_full(self, client: str) -> None:
        """:class:`TooManyRequests` when ``client`` has its whole share running and
        waiting, so that one more job of its would be refused anyway (a check to make
        before any work is spent on the request)."""
        running, waiting = self.load(client)
        if running >= self.per_client and waiting >= self.queued:
            raise _refusal(running, waiting)

    @asynccontextmanager
    async def admit(self, client: str) -> AsyncIterator[None]:
        """Hold a slot for ``client`` while the body runs."""
        await self._enter(client)
        try:
            yield
        finally:
            self._leave(client)

    async def _enter(self, client: str) -> None:
        share = self._shares.setdefault(client, _Share())
        if self._running < self.slots and share.running < self.per_client:
            self._start(share)  # a free slot: nobody eligible waits (see _dispatch)
            return
        if len(share.waiting) >= self.queued:
            self._drop_if_idle(client)
            raise _refusal(share.running, len(share.waiting))
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        share.waiting.append(ticket)
        self._turns[client] = None
        try:
            await asyncio.wait_for(asyncio.shield(ticket), self.wait)
        except (TimeoutError, asyncio.CancelledError) as exc:
            if ticket.done():  # admitted at the last moment: the slot is ours
                if isinstance(exc, TimeoutError):
                    return
                self._leave(client)
                raise
            share.waiting.remove(ticket)
            if not share.waiting:
                self._turns.pop(client, None)
            self._drop_if_idle(client)
            if isinstance(exc, TimeoutError):
                raise ServerBusy(f"every analysis worker stayed busy for {self.wait:g} s") from None
            raise

    def _start(self, share: _Share) -> None:
        self._running += 1
        share.running += 1

    def _leave(self, client: str) -> None:
        share = self._shares[client]
        self._running -= 1
        share.running -= 1
        self._drop_if_idle(client)
        self._dispatch()

    def _drop_if_idle(self, client: str) -> None:
        share = self._shares.get(client)
        if share is not None and not share.running and not share.waiting:
            del self._shares[client]

    def _dispatch(self) -> None:
        """Give free slots to waiting clients in turn, each within its share."""
        while self._running < self.slots:
            for client in self._turns:
                share = self._shares[client]
                if share.running < self.per_client:
                    break
            else:
                return
            ticket = share.waiting.popleft()
            del self._turns[client]
            if share.waiting:
                self._turns[client] = None  # to the back of the line
            self._start(share)
            ticket.set_result(None)
