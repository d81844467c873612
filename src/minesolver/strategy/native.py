"""The native players: ``greedy`` and ``pseq`` decided in Rust (:mod:`minesolver._native`).

They make the very moves of the Python players (:mod:`.greedy`, :mod:`.pseq`, kept as the
readable reference under the names ``greedy-py`` and ``pseq-py``): the same analysis
(exact, native), the same comparisons (exact, by cross-multiplied integers), the same
order of candidates, and the same draws from the same generator: a native Mersenne
Twister in the state of the ``random.Random`` the game gives the player
(:meth:`NativePlayer.reset` copies its state in; after a guess the state is copied back,
so the ``Random`` is where the Python player would have left it). The moves carry the
same typed reasons, with the same exact numbers.

>>> from minesolver import Position
>>> player = NativePlayer("greedy")
>>> player.next_moves(Position.from_text("3x1x1\\n1HH"))
[Move(kind='open', cell=(2, 0), guess=False, risk=0.0, reason=Certain(mine=False)), \
Move(kind='flag', cell=(1, 0), guess=False, risk=0.0, reason=Certain(mine=True))]

Cost per call: that of the Python player's analyses, natively (one exact analysis per
round of certain moves; ``pseq`` adds one per candidate and digit on a guess), plus
O(cells) to pass the position in and the moves out.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import minesolver._native as _native
from minesolver.analysis import analyze
from minesolver.engines.exact import inconsistent_position, native_errors
from minesolver.position import Position
from minesolver.strategy.base import Move
from minesolver.strategy.best import BestPlayer, Options, variant_options, with_settings
from minesolver.strategy.book import native_book
from minesolver.strategy.errors import PlayerError
from minesolver.strategy.reasons import (
    Certain,
    Endgame,
    FiftyFifty,
    Lowest,
    Pseq,
    Reason,
    Rollout,
    Safety,
    SecondMove,
)

__all__ = [
    "NATIVE_PLAYERS",
    "NativeBest",
    "NativeGreedy",
    "NativePlayer",
    "NativePseq",
    "NativeSearch",
    "best_variant",
    "make_best",
    "rng_state",
    "set_rng_state",
]

NATIVE_PLAYERS: tuple[str, ...] = ("greedy", "pseq", "best", "search")
"""The players that have a native implementation (``best`` but its latent 2x2 blocks:
:class:`NativeBest`; ``search`` only natively: :class:`NativeSearch`)."""


COMPENSATED_SUM = sys.version_info >= (3, 12)
"""Whether Python's ``sum`` of floats is compensated (3.12 on): ``pseq``'s entropy is
summed as this Python sums it, so a tie on it breaks the same way."""


def rng_state(rng: random.Random) -> list[int]:
    """The Mersenne Twister state of ``rng``: 624 words, then the position."""
    return list(rng.getstate()[1])


def set_rng_state(rng: random.Random, state: list[int]) -> None:
    """Put ``rng`` in the Mersenne Twister state ``state`` (as :func:`rng_state`)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(state), gauss))


def _reason(move: _native.Move, width: int) -> tuple[Reason, float]:
    """The typed reason of a native move, and its risk (the guessed cell's mine
    probability; 0 for a certain move), read from the core's named fields."""
    why = move.reason
    if why is None:
        return Certain(mine=move.kind == "flag"), 0.0
    kind = why.kind
    if kind == "lowest":
        return Lowest(why.probability, why.tied), float(why.probability)
    if kind == "pseq":
        low = why.probability
        return Pseq(low, why.tied, why.progress, why.expected, why.entropy), float(low)
    if kind == "fifty-fifty":
        return FiftyFifty((why.other % width, why.other // width)), 0.5
    if kind == "endgame":
        return Endgame(why.wins, why.layouts), float(why.probability)
    if kind == "rollout":
        low = why.probability
        rollout = Rollout(why.wins, why.rollouts, why.best_wins, why.best_rollouts, low)
        return rollout, float(low)
    kind_of = SecondMove if why.second else Safety
    low = why.probability
    return kind_of(why.score, why.progress, low, why.weighed, why.latent_weight), float(low)


class NativePlayer:
    """A player whose decisions are made natively: ``greedy``, ``pseq`` or ``best``.

    ``deadline`` is a safety limit in seconds on each call of :meth:`next_moves` (none by
    default), checked inside the native loops: past it the call raises
    :class:`~minesolver.engines.EngineLimitExceeded` and makes no move. The players'
    own budgets (the endgame search's nodes) are counted in work, so a move never
    depends on the machine.
    """

    def __init__(
        self,
        name: str,
        best: _native.BestSettings | None = None,
        *,
        deadline: float | None = None,
        book: _native.Book | None = None,
    ) -> None:
        if name.partition(":")[0] not in NATIVE_PLAYERS:
            raise ValueError(f"no native player {name!r}: {', '.join(NATIVE_PLAYERS)}")
        self.name = name
        self.best_settings = best
        self.deadline = deadline
        self.book = book
        self._player = _native.NativePlayer(name, COMPENSATED_SUM, best, book)
        self._rng = random.Random(0)
        self._player.set_state(rng_state(self._rng))

    def reset(self, rng: random.Random) -> None:
        """Start a new game; ties are drawn as ``rng`` would draw them."""
        self._rng = rng
        self._player.reset()
        self._player.set_state(rng_state(rng))

    def next_moves(self, view: Position) -> list[Move]:
        """Every certain move, or those and one guess, as the Python player names them."""
        mines = view.mines
        if mines is None:
            analyze(view)  # raises MineCountUnknown, as the Python player does
            raise AssertionError("unreachable: the total is unknown")
        try:
            with native_errors(f"{self.name} player", self.deadline, advice=""):
                found = self._player.next_moves(
                    view.raw(), view.width, view.height, mines, self.deadline
                )
        except _native.Inconsistent as exc:  # the core names the reason's cells
            raise inconsistent_position(view, exc) from None
        width = view.width
        moves = []
        for move in found:
            reason, risk = _reason(move, width)
            index = move.cell
            moves.append(Move(move.kind, (index % width, index // width), move.guess, risk, reason))
        if moves and moves[-1].guess:
            set_rng_state(self._rng, self._player.state())
        return moves


class NativeGreedy(NativePlayer):
    """``greedy``, natively (the moves of :class:`~minesolver.strategy.greedy.GreedyPlayer`)."""

    def __init__(self) -> None:
        super().__init__("greedy")


class NativePseq(NativePlayer):
    """``pseq``, natively (the moves of :class:`~minesolver.strategy.pseq.PseqPlayer`)."""

    def __init__(self) -> None:
        super().__init__("pseq")


class NativeBest(NativePlayer):
    """``best``, natively: the moves of the Python ``best`` with the same
    :class:`~minesolver.strategy.best.Options` (proven equal in the tests, the recorded
    move hashes included); every ingredient and setting is honoured but
    ``latent_blocks``, which stays Python only."""

    def __init__(self, options: Options | None = None) -> None:
        opts = options if options is not None else Options()
        if opts.latent_blocks:
            raise ValueError("the native best does not count latent 2x2 blocks yet")
        settings = _native.BestSettings(
            fifty=opts.fifty,
            dead=opts.dead,
            dominance=opts.dominance,
            second=opts.second,
            margin=Fraction(opts.margin),
            max_candidates=opts.max_candidates,
            progress_weight=Fraction(opts.progress_weight),
            latent=opts.latent,
            latent_weight=Fraction(opts.latent_weight),
            latent_missing=opts.latent_missing,
            endgame=opts.endgame,
            endgame_layouts=opts.endgame_layouts,
            endgame_budget=opts.endgame_budget,
        )
        super().__init__("best", settings)
        self.options = opts


class NativeSearch(NativePlayer):
    """``search`` (:mod:`minesolver._native`'s ``players::search``): ``best``, with its
    close guesses valued by games played out on layouts drawn exactly uniformly from the
    position (common random numbers; half the rollouts choose a leader, the other half
    set it against ``best``'s guess on fresh layouts; every layout once where they are
    few); it leaves ``best``'s guess only for a leader that won more beyond the noise.
    The budget is counted in rollouts per guess, never in seconds: the same game and
    seed give the same moves on every machine.

    ``settings`` are the core's: ``rollouts`` (per valued guess, 64), ``candidates``
    (4), ``margin`` (0.05: the candidates' mine probability above the lowest),
    ``exact_layouts`` (24), ``alpha`` (0.05: the one-sided sign test's level at which a
    candidate's wins over ``best``'s guess on fresh layouts replace it),
    ``rollout`` (the player that plays the games out: ``greedy``, the default, ``pseq`` or
    ``best``), ``book`` (``on``, the default: in a position of the opening book,
    :mod:`.book`, where ``best`` would guess by its heuristic, the book's move; ``off``).
    A wrong one raises :class:`~minesolver.strategy.PlayerError`.

    Cost per valued guess: at most ``rollouts`` games played out by the rollout player.

    >>> NativeSearch(rollouts=8).name
    'search:rollouts=8'
    """

    def __init__(self, name: str = "search", **settings: Any) -> None:
        spec = ";".join(f"{key}={value}" for key, value in settings.items())
        full = f"{name}:{spec}" if spec else name
        try:
            super().__init__(full, book=native_book())
        except ValueError as exc:
            raise PlayerError(f"player {full!r}: {exc}") from None
        self.spec = full


def search_variant(name: str) -> Callable[..., NativeSearch]:
    """A factory of the ``search`` variant ``name`` (``search:rollouts=48;rollout=best``),
    checked at once; the factory takes further settings as keyword arguments.

    >>> search_variant("search:rollouts=8")().name
    'search:rollouts=8'
    """
    NativeSearch(name)  # a wrong setting fails here

    def make(**settings: Any) -> NativeSearch:
        return NativeSearch(name, **settings)

    return make


def _best(name: str, options: Options) -> NativeBest | BestPlayer:
    """``best`` with ``options``, called ``name``: native, but with ``latent_blocks``
    (counted in Python only), where it is the Python player."""
    player: NativeBest | BestPlayer
    player = BestPlayer(options) if options.latent_blocks else NativeBest(options)
    player.name = name
    return player


def make_best(**settings: Any) -> NativeBest | BestPlayer:
    """``best`` with the :class:`~minesolver.strategy.best.Options` fields ``settings``
    (``get_player("best", margin=Fraction(1, 10))``), native (the Python reference is
    ``best-py``); :class:`~minesolver.strategy.PlayerError` names a setting that does
    not exist or a value of the wrong type.

    >>> make_best(margin=0).options.margin
    Fraction(0, 1)
    """
    return _best("best", with_settings("best", Options(), settings))


def best_variant(name: str) -> Callable[..., NativeBest | BestPlayer]:
    """A factory of the ``best`` variant called ``name`` (``best-no-X``,
    ``best:field=value;...``: :func:`~minesolver.strategy.best.variant_options`, which
    raises for a wrong name), native as :func:`make_best` is; the factory takes further
    settings as keyword arguments.

    >>> best_variant("best-no-endgame")().options.endgame
    False
    """
    options = variant_options(name)

    def make(**settings: Any) -> NativeBest | BestPlayer:
        return _best(name, with_settings(name, options, settings))

    return make
