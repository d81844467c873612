"""Numbers and reasons in words, for people: the one place the faces word them.

:func:`percent` is the percentage every face prints; :func:`plain_reason` says why a player
made a move, by the type of its reason (:mod:`minesolver.strategy.reasons`), never by
reading the reason's text. The command line, the terminal and the web app all take their
words from here, so a figure reads the same wherever it is shown.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the reasons are imported where they are worded: percent() needs none
    from minesolver.game import Move, Reason
    from minesolver.strategy.reasons import Safety

__all__ = ["percent", "plain_reason", "reason_words"]


def percent(value: str | float | Fraction | None, decimals: int = 1, *, bare: bool = False) -> str:
    """A probability as a percentage for people, never a misleading certainty: a value
    strictly between 0 and 1 never reads as 0% or 100%. ``None`` (not known) reads ``-``.

    With ``bare`` the text is the number and ``%`` only, clamped to the nearest step
    inside (0, 100) (a fixed width for the heat map's cells); else a value too close to
    0 or 1 reads "under 0.1%" or "over 99.9%". O(1).

    >>> percent(Fraction(1, 3)), percent(0.0004), percent(0.9999), percent(None)
    ('33.3%', 'under 0.1%', 'over 99.9%', '-')
    >>> percent(Fraction(1, 300), 0, bare=True), percent(1, 0, bare=True)
    ('1%', '100%')
    """
    if value is None:
        return "-"
    p = float(value)
    step = 10.0**-decimals
    shown = round(100 * p, decimals)
    if 0 < p < 1:
        if shown < step:
            return f"{step:.{decimals}f}%" if bare else f"under {step:.{decimals}f}%"
        if shown > 100 - step:
            return f"{100 - step:.{decimals}f}%" if bare else f"over {100 - step:.{decimals}f}%"
    return f"{shown:.{decimals}f}%"


def plain_reason(move: Move) -> str:
    """Why a player made ``move``, in words a player understands, chosen by the type of
    its reason (:mod:`minesolver.strategy.reasons`): the players' internal scores become
    chances in percent and what they mean. A reason of a type not known here reads as
    its ``str()``; a move without one reads as the empty text. O(1).

    >>> from fractions import Fraction
    >>> from minesolver.game import Move
    >>> from minesolver.strategy.reasons import Endgame, Lowest
    >>> print(plain_reason(Move("open", (3, 4), guess=True, risk=0.25,
    ...     reason=Endgame(wins=3, layouts=4))))
    only 4 layouts are left: trying every line of play, this click wins in 3 of them ...
    >>> plain_reason(Move("open", (0, 0), guess=True, reason=Lowest(Fraction(1, 5), 3)))
    'the lowest risk on the board, picked at random among 3 cells as low'
    """
    return reason_words(move.reason)


def reason_words(reason: Reason | None) -> str:
    """A reason in plain words (:func:`plain_reason`), by its type."""
    from minesolver.strategy.reasons import (
        Endgame,
        FiftyFifty,
        Lowest,
        Pseq,
        Rollout,
        Safety,
    )

    match reason:
        case None:
            return ""
        case Lowest(tied=tied):
            among = f", picked at random among {tied} cells as low" if tied > 1 else ""
            return f"the lowest risk on the board{among}"
        case Pseq(tied=tied, progress=progress, expected=expected):
            others = f"{tied - 1} other cell" + "s" * (tied > 2)
            return (
                f"the lowest risk on the board, shared with {others}; of those, the "
                f"likeliest to reveal a new safe cell ({percent(progress)}), about "
                f"{float(expected):.1f} safe cells expected"
            )
        case Safety():
            return _safety_words(reason)
        case Endgame(wins=wins, layouts=layouts):
            return (
                f"only {layouts} layouts are left: trying every line of play, this click "
                f"wins in {wins} of them ({percent(Fraction(wins, layouts))}), no other "
                "click more"
            )
        case Rollout(wins=wins, rollouts=n, best_wins=bw, best_rollouts=bn):
            return (
                f"{percent(reason.probability)} risk of a mine; played out on {n} "
                f"layouts drawn from the position, this click won {wins} games, the "
                f"heuristic's choice {bw} of {bn} on the same layouts"
            )
        case FiftyFifty(partner=(x, y)):
            return (
                f"a 50/50 with ({x},{y}) that no later click can settle: "
                "taken now, before any other risk"
            )
        case _:
            return str(reason)


def _safety_words(reason: Safety) -> str:
    """``best``'s heuristic choice (:class:`~minesolver.strategy.reasons.Safety` and
    :class:`~minesolver.strategy.reasons.SecondMove`) in words."""
    from minesolver.strategy.reasons import SecondMove

    count = reason.weighed
    among = f"of the {count} cells weighed" if count > 1 else "no other cell could beat it"
    risk = f"{percent(reason.probability)} risk of a mine"
    if isinstance(reason, SecondMove):
        why = (
            f"the best chance of surviving this click and the next one ({among}): {risk}, "
            f"and {percent(reason.progress)} chance that its number proves another cell safe"
        )
    else:
        why = (
            f"the safest ({among}): {risk}; ties go to the one likelier to prove another cell safe"
        )
    latent = "; if safe, it may also settle a 50/50 that would otherwise wait for the end"
    return why + (latent if reason.latent_weight > 1 else "")
