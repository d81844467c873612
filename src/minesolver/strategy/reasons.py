"""Why the players chose their moves: one frozen value per kind of reason.

Each reason holds the numbers the choice rests on, exactly where they are exact (mine
probabilities and scores as ``Fraction``), and its ``str()`` is the technical text the
players have always given (``lowest mine probability 0.204, one of 3 tied``), for logs,
``play --human`` and the web API's ``reason`` field. People read the faces' words for a
reason (:func:`minesolver.ui.words.plain_reason`), chosen by its type: nobody parses the
text.

The base class, :class:`~minesolver.game.Reason`, lives beside
:class:`~minesolver.game.Move` in the game layer, because ``Move.reason`` is typed there;
these subclasses are the players' own and live with them, a layer above, so no import
points up (see :mod:`minesolver.game.move`).

========================  ===================================================  ==========
reason                    when                                                 player
========================  ===================================================  ==========
:class:`Certain`          a cell certainly safe, or certainly a mine           all
:class:`Lowest`           the lowest mine probability (a tie drawn at random)  ``greedy``
:class:`Pseq`             the lowest probability, ties broken by progress      ``pseq``
:class:`Endgame`          the exact search over the few layouts left           ``best``
:class:`FiftyFifty`       a 50/50 no later click can settle, taken now         ``best``
:class:`Safety`           the best safety score among the candidates           ``best``
:class:`SecondMove`       the best second-move safety score                    ``best``
========================  ===================================================  ==========

>>> from fractions import Fraction
>>> reason = Lowest(Fraction(1, 5), tied=3)
>>> reason
Lowest(probability=Fraction(1, 5), tied=3)
>>> str(reason)
'lowest mine probability 0.200, one of 3 tied'
>>> str(Endgame(wins=11, layouts=15))
'endgame search: wins 11 of 15 layouts (0.733)'

Reasons are frozen dataclasses: hashable, comparable and picklable (a move made in a
worker process comes back whole). Each ``str()`` is O(1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from minesolver.game.move import Reason
from minesolver.position import Cell

__all__ = [
    "Certain",
    "Endgame",
    "FiftyFifty",
    "Lowest",
    "Pseq",
    "Reason",
    "Rollout",
    "Safety",
    "SecondMove",
]


@dataclass(frozen=True, slots=True)
class Certain(Reason):
    """The cell is certainly safe (``mine`` false: it is opened) or certainly a mine
    (``mine`` true: it is flagged), in every layout the digits allow."""

    mine: bool = False

    def __str__(self) -> str:
        return "certainly a mine" if self.mine else "certainly safe"


@dataclass(frozen=True, slots=True)
class Lowest(Reason):
    """No cell is certainly safe; this one has the lowest mine ``probability``, shared
    with ``tied - 1`` others (the choice among them at random)."""

    probability: Fraction
    tied: int = 1

    def __str__(self) -> str:
        tie = f", one of {self.tied} tied" if self.tied > 1 else ""
        return f"lowest mine probability {float(self.probability):.3f}{tie}"


@dataclass(frozen=True, slots=True)
class Pseq(Reason):
    """``pseq``'s tie-break: the lowest mine ``probability``, shared by ``tied`` cells;
    of those, the highest ``progress`` (the probability that the click proves a new cell
    safe), then the most safe cells ``expected``, then the highest ``entropy`` (in bits)
    of the digit shown (:func:`minesolver.strategy.pseq.pseq_key`)."""

    probability: Fraction
    tied: int
    progress: Fraction
    expected: Fraction
    entropy: float

    def __str__(self) -> str:
        return (
            f"lowest mine probability {float(self.probability):.3f} ({self.tied} tied); "
            f"P(new safe cell) {float(self.progress):.3f}, "
            f"E[safe cells] {float(self.expected):.2f}, "
            f"digit entropy {self.entropy:.2f} bits"
        )


@dataclass(frozen=True, slots=True)
class Safety(Reason):
    """``best``'s heuristic, without second-move safety: the highest ``score`` (the
    safety ``1 - probability`` times ``latent_weight``) of the ``weighed`` candidates
    scored in full, ties going to the higher ``progress`` (the probability that the
    click proves another cell safe). ``latent_weight`` above 1: the cell, if safe, may
    defuse a 50/50 that would otherwise wait for the end (:mod:`.latent`)."""

    score: Fraction
    progress: Fraction
    probability: Fraction
    weighed: int
    latent_weight: Fraction = Fraction(1)

    _label = "safety"

    def __str__(self) -> str:
        latent = self.latent_weight
        return (
            f"{self._label} score {float(self.score):.4f}, "
            f"P(progress) {float(self.progress):.3f}, "
            f"mine probability {float(self.probability):.3f}"
            + (f", latent 50/50 weight {float(latent):.3f}" if latent > 1 else "")
            + f" ({self.weighed} candidates weighed in full)"
        )


@dataclass(frozen=True, slots=True)
class SecondMove(Safety):
    """``best``'s heuristic: the highest second-move safety ``score`` (the probability of
    surviving this click and the next, with a small bonus for ``progress``, times
    ``latent_weight``) of the ``weighed`` candidates scored in full."""

    _label = "second-move safety"


@dataclass(frozen=True, slots=True)
class Endgame(Reason):
    """Few layouts are left: the exact game-tree search found that this click, followed
    by perfect play, wins in ``wins`` of the ``layouts``, and no other click in more."""

    wins: int
    layouts: int

    def __str__(self) -> str:
        return (
            f"endgame search: wins {self.wins} of {self.layouts} layouts "
            f"({self.wins / self.layouts:.3f})"
        )


@dataclass(frozen=True, slots=True)
class Rollout(Reason):
    """``search``: the games played out after this click (on layouts drawn uniformly
    from the position, a fast player playing on) won ``wins`` of ``rollouts``, where
    ``best``'s own guess won ``best_wins`` of ``best_rollouts`` on the same layouts: a
    difference the rollouts measured beyond their noise."""

    wins: int
    rollouts: int
    best_wins: int
    best_rollouts: int
    probability: Fraction

    def __str__(self) -> str:
        return (
            f"rollouts: won {self.wins} of {self.rollouts} games played out, "
            f"best's guess {self.best_wins} of {self.best_rollouts} on the same layouts; "
            f"mine probability {float(self.probability):.3f}"
        )


@dataclass(frozen=True, slots=True)
class FiftyFifty(Reason):
    """The cell and ``partner`` hold exactly one mine between them and no click can
    ever tell which: a coin flip the game cannot avoid, taken now, before any other
    risk."""

    partner: Cell

    def __str__(self) -> str:
        return f"unavoidable 50/50 with {self.partner}: guessed now"
