"""``search``'s opening book: early positions and the guess many rollouts found best.

The book is data shipped with the package (``book.json`` beside this module), built once
by ``minesolver book build`` (:mod:`minesolver.book`) with the command, seed and figures
that rebuild it written in the file. Each entry is a position where ``best`` must guess
(for now, the first guess after the first click has shown its digit or its opening), the
candidate guesses with their rollouts (open the cell on layouts drawn exactly uniformly
from the position, or on every layout where they are few, then let ``best`` play the game
out; every candidate on the same layouts), and the move: the candidate with the most wins
where every layout was played, else the leader of the rollouts only where it beat
``best``'s guess on fresh layouts by a one-sided sign test, and ``best``'s own guess
where the rollouts could not tell.

``search`` plays the book's move wherever ``best`` would guess by its heuristic in a book
position (:func:`native_book` hands the book to the native core); ``search:book=off``
ignores it.

Cost: loading parses the JSON once per process (:func:`load_book` is cached); a lookup in
the core hashes the position, O(cells).

>>> book = load_book()
>>> book.format
1
>>> all(e.move in {c.cell for c in e.candidates} for e in book.entries)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import minesolver._native as _native
from minesolver.errors import MinesolverError
from minesolver.position import Cell, Position

__all__ = [
    "BOOK_FILE",
    "BookCandidate",
    "BookEntry",
    "BookError",
    "OpeningBook",
    "layout_seed",
    "load_book",
    "native_book",
    "rollout_results",
]

BOOK_FILE = Path(__file__).with_name("book.json")
"""The book shipped with the package."""

FORMAT = 1
"""The version of the book's JSON shape."""


class BookError(MinesolverError, ValueError):
    """A book file that cannot be read: says which file and what is wrong."""


@dataclass(frozen=True, slots=True)
class BookCandidate:
    """One candidate guess of a book position: ``wins`` of its ``rollouts``, and its
    exact mine ``probability`` in the position."""

    cell: Cell
    probability: Fraction
    wins: int
    rollouts: int

    @property
    def win_rate(self) -> float:
        """The share of its rollouts won (0 for none)."""
        return self.wins / self.rollouts if self.rollouts else 0.0


@dataclass(frozen=True, slots=True)
class BookEntry:
    """A book position and its move.

    ``level`` (``WxHxM``), ``rule`` and ``start`` are the game's; ``share`` the part of
    the games, while the book was built, that reached this position at their first
    guess. ``exact`` tells that every layout of the position was played once
    (``layouts`` of them), so the values are exact for the rollout player's one draw per
    layout. ``move`` is the book's guess, ``best_move`` the guess ``best`` makes there;
    ``confirmation`` (drawn values only) the leader against ``best``'s guess on fresh
    layouts: ``rollouts`` each, the games won by ``leader_wins`` and ``best_wins``,
    ``ahead`` and ``behind`` (won by the leader only, by ``best``'s guess only) and the
    sign test's ``p``.
    """

    level: str
    rule: str
    start: Cell
    position: Position
    share: float
    exact: bool
    layouts: int | None
    move: Cell
    best_move: Cell
    candidates: tuple[BookCandidate, ...]
    confirmation: dict[str, Any] | None = field(default=None)

    def candidate(self, cell: Cell) -> BookCandidate:
        """The candidate ``cell`` (``KeyError`` if it was not valued)."""
        for c in self.candidates:
            if c.cell == cell:
                return c
        raise KeyError(cell)

    def move_figures(self) -> tuple[int, int, int, int]:
        """The move's wins and rollouts, and ``best``'s guess's, on the same layouts:
        the exact table's, or the confirmation's where the move is its leader."""
        conf = self.confirmation
        if not self.exact and conf is not None and tuple(conf["leader"]) == self.move:
            n = int(conf["rollouts"])
            return int(conf["leader_wins"]), n, int(conf["best_wins"]), n
        ours, theirs = self.candidate(self.move), self.candidate(self.best_move)
        return ours.wins, ours.rollouts, theirs.wins, theirs.rollouts


@dataclass(frozen=True, slots=True)
class OpeningBook:
    """The book: its entries and how it was built (``meta``: the command, seed,
    rollout player, settings and the work it took)."""

    format: int
    meta: dict[str, Any]
    entries: tuple[BookEntry, ...]

    def find(self, position: Position) -> BookEntry | None:
        """The entry of ``position``, if the book holds it."""
        for e in self.entries:
            if e.position == position:
                return e
        return None

    def to_json(self) -> dict[str, Any]:
        """The book as JSON-ready values (what :meth:`from_json` reads)."""
        return {
            "format": self.format,
            "meta": self.meta,
            "entries": [_entry_json(e) for e in self.entries],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "book") -> OpeningBook:
        """A book from :meth:`to_json`'s values; :class:`BookError` names what is
        wrong and where."""
        try:
            if data["format"] != FORMAT:
                raise BookError(f"{where}: format {data['format']!r}, expected {FORMAT}")
            entries = tuple(_entry(e) for e in data["entries"])
            return cls(FORMAT, dict(data["meta"]), entries)
        except BookError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise BookError(f"{where}: not a book ({type(exc).__name__}: {exc})") from None


def _cell(value: Any) -> Cell:
    x, y = value
    return int(x), int(y)


def _entry(e: dict[str, Any]) -> BookEntry:
    position = Position.from_text(e["position"])
    entry = BookEntry(
        level=str(e["level"]),
        rule=str(e["rule"]),
        start=_cell(e["start"]),
        position=position,
        share=float(e["share"]),
        exact=bool(e["exact"]),
        layouts=None if e.get("layouts") is None else int(e["layouts"]),
        move=_cell(e["move"]),
        best_move=_cell(e["best_move"]),
        candidates=tuple(
            BookCandidate(_cell(c["cell"]), Fraction(c["probability"]), c["wins"], c["rollouts"])
            for c in e["candidates"]
        ),
        confirmation=e.get("confirmation"),
    )
    cells = {c.cell for c in entry.candidates}
    if entry.move not in cells or entry.best_move not in cells:
        raise ValueError(f"the move of {e['position']!r} is not among its candidates")
    return entry


def _entry_json(e: BookEntry) -> dict[str, Any]:
    return {
        "level": e.level,
        "rule": e.rule,
        "start": list(e.start),
        "position": e.position.to_text(),
        "share": e.share,
        "exact": e.exact,
        "layouts": e.layouts,
        "move": list(e.move),
        "best_move": list(e.best_move),
        "candidates": [
            {
                "cell": list(c.cell),
                "probability": str(c.probability),
                "wins": c.wins,
                "rollouts": c.rollouts,
            }
            for c in e.candidates
        ],
        "confirmation": e.confirmation,
    }


def read_book(path: Path) -> OpeningBook:
    """The book in the JSON file ``path`` (:class:`BookError` if it is not one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BookError(f"{path}: cannot read a book: {exc}") from None
    return OpeningBook.from_json(data, str(path))


@cache
def load_book() -> OpeningBook:
    """The book shipped with the package (read once per process)."""
    return read_book(BOOK_FILE)


@cache
def native_book() -> _native.Book:
    """The shipped book as the native core takes it (built once per process)."""
    entries = []
    for e in load_book().entries:
        p = e.position
        wins, rollouts, best_wins, best_rollouts = e.move_figures()
        entries.append(
            _native.BookEntry(
                width=p.width,
                height=p.height,
                mines=p.mines if p.mines is not None else 0,
                raw=list(p.raw()),
                cell=p.index(e.move),
                wins=wins,
                rollouts=rollouts,
                best_wins=best_wins,
                best_rollouts=best_rollouts,
            )
        )
    return _native.Book(entries)


def layout_seed(seed: int, mines: list[int]) -> int:
    """The seed of the rollout player's generator on the layout of sorted ``mines``
    (cell indices) in a book built from ``seed``: the same layout gets the same seed in
    whatever range it is played."""
    return _native.book_layout_seed(seed, mines)


def rollout_results(
    position: Position,
    cells: list[Cell],
    *,
    player: str,
    seed: int,
    first: int,
    count: int,
    every: bool = False,
    limit: int = 100_000,
    compensated_sum: bool = False,
) -> list[list[bool]]:
    """Each of ``cells`` opened in ``position`` and played out by ``player`` on the
    layouts ``first .. first + count`` (drawn exactly uniformly, draw ``j`` from
    ``(seed, j)`` alone; or with ``every`` the layouts of the listing of every layout,
    at most ``limit``): per cell, won or lost on each layout. The same range gives the
    same results however the ranges are cut, on any machine. ``compensated_sum``: see
    :data:`minesolver.strategy.native.COMPENSATED_SUM` (``pseq``'s entropy)."""
    if position.mines is None:
        raise BookError("a book position needs its total of mines")
    return _native.book_rollouts(
        list(position.raw()),
        position.width,
        position.height,
        position.mines,
        [position.index(c) for c in cells],
        player,
        seed,
        first,
        count,
        every,
        limit,
        compensated_sum,
    )


def every_layout_count(position: Position, limit: int) -> int | None:
    """The number of layouts of ``position`` when at most ``limit``, else ``None``."""
    if position.mines is None:
        raise BookError("a book position needs its total of mines")
    raw = list(position.raw())
    return _native.book_layout_count(raw, position.width, position.height, position.mines, limit)
