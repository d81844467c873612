"""Numbers and reasons in words, for people: the one place the faces word them.

:func:`percent` is the percentage every face prints; :func:`plain_reason` says why a player
made a move. The command line, the terminal and the web app all take their words from
here, so a figure reads the same wherever it is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from minesolver.game import Move

__all__ = ["percent", "plain_reason"]


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


def _greedy(m: re.Match[str]) -> str:
    tied = f", picked at random among {m[2]} cells as low" if m[2] else ""
    return f"the lowest risk on the board{tied}"


def _pseq(m: re.Match[str]) -> str:
    return (
        f"the lowest risk on the board, shared with {int(m[2]) - 1} other cells; of those, "
        f"the likeliest to reveal a new safe cell ({percent(m[3])}), about "
        f"{float(m[4]):.1f} safe cells expected"
    )


def _best(m: re.Match[str]) -> str:
    count = int(m[6])
    among = f"of the {count} cells weighed" if count > 1 else "no other cell could beat it"
    risk = f"{percent(m[4])} risk of a mine"
    if m[1] == "second-move safety":
        why = (
            f"the best chance of surviving this click and the next one ({among}): {risk}, "
            f"and {percent(m[3])} chance that its number proves another cell safe"
        )
    else:
        why = (
            f"the safest ({among}): {risk}; ties go to the one likelier to prove another cell safe"
        )
    latent = "; if safe, it may also settle a 50/50 that would otherwise wait for the end"
    return why + (latent if m[5] else "")


def _endgame(m: re.Match[str]) -> str:
    return (
        f"only {m[2]} layouts are left: trying every line of play, this click wins in "
        f"{m[1]} of them ({percent(m[3])}), no other click more"
    )


def _fifty(m: re.Match[str]) -> str:
    return (
        f"a 50/50 with ({m[1]},{m[2]}) that no later click can settle: "
        "taken now, before any other risk"
    )


_NUM = r"(\d+(?:\.\d+)?)"
_REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"lowest mine probability {_NUM}(?:, one of (\d+) tied)?"), _greedy),
    (
        re.compile(
            rf"lowest mine probability {_NUM} \((\d+) tied\); P\(new safe cell\) {_NUM}, "
            rf"E\[safe cells\] {_NUM}, digit entropy {_NUM} bits"
        ),
        _pseq,
    ),
    (
        re.compile(
            rf"(second-move safety|safety) score {_NUM}, P\(progress\) {_NUM}, "
            rf"mine probability {_NUM}(?:, latent 50/50 weight {_NUM})? "
            rf"\((\d+) candidates weighed in full\)"
        ),
        _best,
    ),
    (re.compile(rf"endgame search: wins (\d+) of (\d+) layouts \({_NUM}\)"), _endgame),
    (re.compile(r"unavoidable 50/50 with \((\d+), (\d+)\): guessed now"), _fifty),
]


def plain_reason(move: Move) -> str:
    """Why a player made ``move``, in words a player understands: the internal scores of
    the players' reasons (``greedy``, ``pseq``, ``best``) become chances in percent and
    what they mean; a reason of another form is returned as it is. O(length of the reason).

    >>> print(plain_reason(Move("open", (3, 4), guess=True, risk=0.25,
    ...     reason="endgame search: wins 3 of 4 layouts (0.750)")))
    only 4 layouts are left: trying every line of play, this click wins in 3 of them ...
    """
    for pattern, words in _REASONS:
        found = pattern.fullmatch(move.reason)
        if found is not None:
            return words(found)
    return move.reason
