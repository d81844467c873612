"""The native players: ``greedy`` and ``pseq`` decided in Rust (:mod:`minesolver._native`).

They make the very moves of the Python players (:mod:`.greedy`, :mod:`.pseq`, kept as the
readable reference under the names ``greedy-py`` and ``pseq-py``): the same analysis
(exact, native), the same comparisons (exact, by cross-multiplied integers), the same
order of candidates, and the same draws from the same generator: a native Mersenne
Twister in the state of the ``random.Random`` the game gives the player
(:meth:`NativeStrategy.reset` copies its state in; after a guess the state is copied back,
so the ``Random`` is where the Python player would have left it). The moves carry the
same typed reasons, with the same exact numbers.

>>> from minesolver import Position
>>> player = NativeStrategy("greedy")
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
from typing import TYPE_CHECKING, Any

import minesolver._native as _native
from minesolver.analysis import analyze
from minesolver.engines import EngineError, EngineLimitExceeded
from minesolver.position import Position
from minesolver.strategy.base import Move
from minesolver.strategy.best import BestStrategy, Options, variant_options, with_settings
from minesolver.strategy.reasons import (
    Certain,
    Endgame,
    FiftyFifty,
    Lowest,
    Pseq,
    Reason,
    Safety,
    SecondMove,
)

if TYPE_CHECKING:  # the settings' shape, as the stub of the native core declares it
    from minesolver._native import _Best as BestSettings

__all__ = [
    "NATIVE_PLAYERS",
    "NativeBest",
    "NativeGreedy",
    "NativePseq",
    "NativeStrategy",
    "best_variant",
    "make_best",
    "rng_state",
    "set_rng_state",
]

NATIVE_PLAYERS: tuple[str, ...] = ("greedy", "pseq", "best")
"""The players that have a native implementation (``best`` but its latent 2x2 blocks:
:class:`NativeBest`)."""


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


def _reason(
    kind: str,
    why: tuple[int, int, int, int, int, int, int, int, float, int, int] | None,
    width: int,
) -> Reason:
    if why is None:
        return Certain(mine=kind == "flag")
    code, low_num, low_den, tied, p_num, p_den, e_num, e_den, entropy, w_num, w_den = why
    low = Fraction(low_num, low_den)
    if code == 0:
        return Lowest(low, tied)
    if code == 1:
        return Pseq(low, tied, Fraction(p_num, p_den), Fraction(e_num, e_den), entropy)
    if code == 2:
        return FiftyFifty((tied % width, tied // width))
    if code == 4:
        return Endgame(low_num, low_den)
    kind_of = SecondMove if entropy else Safety
    weight = Fraction(w_num, w_den)
    return kind_of(Fraction(p_num, p_den), Fraction(e_num, e_den), low, tied, weight)


def _risk(
    reason: Reason, why: tuple[int, int, int, int, int, int, int, int, float, int, int] | None
) -> float:
    if isinstance(reason, Lowest | Pseq | Safety):
        return float(reason.probability)
    if isinstance(reason, FiftyFifty):
        return 0.5
    if isinstance(reason, Endgame) and why is not None:
        return float(Fraction(why[4], why[5]))
    return 0.0


class NativeStrategy:
    """A player whose decisions are made natively: ``greedy``, ``pseq`` or ``best``.

    ``deadline`` is a safety limit in seconds on each call of :meth:`next_moves` (none by
    default), checked inside the native loops: past it the call raises
    :class:`~minesolver.engines.EngineLimitExceeded` and makes no move. The players'
    own budgets (the endgame search's nodes) are counted in work, so a move never
    depends on the machine.
    """

    def __init__(
        self, name: str, best: BestSettings | None = None, *, deadline: float | None = None
    ) -> None:
        if name not in NATIVE_PLAYERS:
            raise ValueError(f"no native player {name!r}: {', '.join(NATIVE_PLAYERS)}")
        self.name = name
        self.best_settings = best
        self.deadline = deadline
        self._player = _native.NativePlayer(name, COMPENSATED_SUM, best)
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
            found = self._player.next_moves(
                view.raw(), view.width, view.height, mines, self.deadline
            )
        except _native.DeadlineExceeded as exc:
            raise EngineLimitExceeded(
                f"the native {self.name} player passed its time limit of {self.deadline} s"
            ) from exc
        except _native.Inconsistent:
            analyze(view)  # raises InconsistentPosition naming the reason
            raise
        except _native.NativePanic as exc:
            raise EngineError(f"the native {self.name} player failed: {exc}") from exc
        width = view.width
        moves = []
        for kind, index, guess, why in found:
            reason = _reason(kind, why, width)
            cell = (index % width, index // width)
            moves.append(Move(kind, cell, guess, _risk(reason, why), reason))  # type: ignore[arg-type]
        if moves and moves[-1].guess:
            set_rng_state(self._rng, self._player.state())
        return moves


class NativeGreedy(NativeStrategy):
    """``greedy``, natively (the moves of :class:`~minesolver.strategy.greedy.GreedyStrategy`)."""

    def __init__(self) -> None:
        super().__init__("greedy")


class NativePseq(NativeStrategy):
    """``pseq``, natively (the moves of :class:`~minesolver.strategy.pseq.PseqStrategy`)."""

    def __init__(self) -> None:
        super().__init__("pseq")


class NativeBest(NativeStrategy):
    """``best``, natively: the moves of the Python ``best`` with the same
    :class:`~minesolver.strategy.best.Options` (proven equal in the tests, the recorded
    move hashes included); every ingredient and setting is honoured but
    ``latent_blocks``, which stays Python only."""

    def __init__(self, options: Options | None = None) -> None:
        opts = options if options is not None else Options()
        if opts.latent_blocks:
            raise ValueError("the native best does not count latent 2x2 blocks yet")
        margin, weight = Fraction(opts.margin), Fraction(opts.progress_weight)
        latent = Fraction(opts.latent_weight)
        settings: BestSettings = (
            opts.fifty,
            opts.dead,
            opts.dominance,
            opts.second,
            (margin.numerator, margin.denominator),
            opts.max_candidates,
            (weight.numerator, weight.denominator),
            opts.latent,
            (latent.numerator, latent.denominator),
            opts.latent_missing,
            (opts.endgame, opts.endgame_layouts, opts.endgame_budget),
        )
        super().__init__("best", settings)
        self.options = opts


def _best(name: str, options: Options) -> NativeBest | BestStrategy:
    """``best`` with ``options``, called ``name``: native, but with ``latent_blocks``
    (counted in Python only), where it is the Python player."""
    player: NativeBest | BestStrategy
    player = BestStrategy(options) if options.latent_blocks else NativeBest(options)
    player.name = name
    return player


def make_best(**settings: Any) -> NativeBest | BestStrategy:
    """``best`` with the :class:`~minesolver.strategy.best.Options` fields ``settings``
    (``get_player("best", margin=Fraction(1, 10))``), native (the Python reference is
    ``best-py``); :class:`~minesolver.strategy.StrategyError` names a setting that does
    not exist or a value of the wrong type.

    >>> make_best(margin=0).options.margin
    Fraction(0, 1)
    """
    return _best("best", with_settings("best", Options(), settings))


def best_variant(name: str) -> Callable[..., NativeBest | BestStrategy]:
    """A factory of the ``best`` variant called ``name`` (``best-no-X``,
    ``best:field=value;...``: :func:`~minesolver.strategy.best.variant_options`, which
    raises for a wrong name), native as :func:`make_best` is; the factory takes further
    settings as keyword arguments.

    >>> best_variant("best-no-endgame")().options.endgame
    False
    """
    options = variant_options(name)

    def make(**settings: Any) -> NativeBest | BestStrategy:
        return _best(name, with_settings(name, options, settings))

    return make
