"""The jobs the web app's worker processes run: JSON-like values in, JSON-like values out.

Each job rebuilds its :class:`~minesolver.position.Position` from text, so a worker never
holds a game (and never a mine layout): it sees exactly what the player sees.
"""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from typing import Any

from minesolver.analysis import analyze, fraction_text, int_to_decimal
from minesolver.engines import EngineLimitExceeded
from minesolver.position import HIDDEN, Position
from minesolver.replay import grade_replay
from minesolver.replay import load as load_replay
from minesolver.replay.efficiency import MIN_CLICKS_SECONDS, REPORT_WORK
from minesolver.strategy import Move, PlayerError, get_player
from minesolver.strategy.native import NativePlayer
from minesolver.strategy.outcomes import TileOutcomes, tile_outcomes
from minesolver.strategy.reasons import Lowest
from minesolver.ui.json_shapes import analysis_json, positions_json, replay_json
from minesolver.ui.words import plain_reason

__all__ = [
    "NO_MOVE",
    "PLAYER_PREFERENCE",
    "analyse",
    "choose_move",
    "choose_move_noted",
    "hint",
    "move_json",
    "no_move_left",
    "read",
    "reading_json",
    "replay",
    "sleep",
    "tile",
    "tile_json",
]

PLAYER_PREFERENCE = ("best", "greedy")
"""The player whose move is shown as the hint: the first of these that is registered."""

NO_MOVE = "no move left: every hidden cell is a mine"
"""Why an analysis has no move: the position is solved (its safe cells are all open)."""


def no_move_left(view: Position) -> bool:
    """Whether the hidden cells are exactly the mines not flagged: nothing left to open.

    O(cells), before any analysis: the players expect a cell to open and are not asked.

    >>> no_move_left(Position.from_text("1x1x0\\n0"))
    True
    >>> no_move_left(Position.from_text("2x1x1\\nH1"))
    True
    >>> no_move_left(Position.from_text("3x1x1\\nH1H"))
    False
    """
    if view.mines is None:
        return False
    return view.cells.count(HIDDEN) == view.mines - view.flags


def search_fallback(seconds: float) -> str:
    """What a hint says when ``search`` did not answer within ``seconds``."""
    return f"search did not answer within {seconds:g} s here: this is best's move"


def choose_move(
    view: Position, seed: int = 0, player: str | None = None, search_seconds: float | None = None
) -> tuple[str, Move | None]:
    """The move the strongest registered player (or ``player``, when named and
    registered: ``efficient`` for the fewest clicks, ``search`` for rollouts over
    ``best``'s close guesses) makes on ``view``, and that player's name.

    ``search`` gets ``search_seconds`` as a safety deadline: past it, the move is
    ``best``'s and the name ``best`` (:func:`choose_move_noted` says why). Falls back to
    the lowest-probability cell of the exact analysis (``"lowest"``) while no player is
    registered. ``None`` when the position has no move left (:func:`no_move_left`).
    """
    name, move, _ = choose_move_noted(view, seed, player, search_seconds)
    return name, move


def choose_move_noted(
    view: Position, seed: int = 0, player: str | None = None, search_seconds: float | None = None
) -> tuple[str, Move | None, str]:
    """:func:`choose_move`, and a note: why the move is not the named player's (empty
    when it is)."""
    if no_move_left(view):
        return "", None, ""
    note = ""
    for name in (player, *PLAYER_PREFERENCE) if player else PLAYER_PREFERENCE:
        try:
            chosen = get_player(name)
        except PlayerError:  # that player's module is not there
            continue
        if name == "search" and isinstance(chosen, NativePlayer):
            chosen.deadline = search_seconds
        chosen.reset(random.Random(seed))
        try:
            moves = chosen.next_moves(view)
        except EngineLimitExceeded:
            if name != "search":
                raise
            note = search_fallback(search_seconds or 0.0)
            continue
        return name, (moves[0] if moves else None), note
    analysis = analyze(view)
    best = analysis.safest()
    if best is None:
        return "lowest", None, note
    p = analysis.probabilities[best]
    return "lowest", Move("open", best, guess=p > 0, risk=float(p), reason=Lowest(p)), note


def move_json(player: str, move: Move | None, note: str = "") -> dict[str, Any] | None:
    """A move as JSON: ``{"kind", "x", "y", "guess", "risk", "reason", "why", "player"}``:
    ``reason`` is the technical text of the player's reason (``str()`` of its
    :mod:`~minesolver.strategy.reasons` value: its internal scores, for machines; empty
    when it gives none), ``why`` the same in plain words
    (:func:`minesolver.ui.words.plain_reason`), for people; ``note``, when given, says
    why the move is not the named player's."""
    if move is None:
        return None
    x, y = move.cell
    extra = {"note": note} if note else {}
    return {
        "kind": move.kind,
        "x": x,
        "y": y,
        "guess": move.guess,
        "risk": move.risk,
        "reason": "" if move.reason is None else str(move.reason),
        "why": plain_reason(move),
        "player": player,
        **extra,
    }


def _position(text: str, mines: int | None) -> Position:
    position = Position.from_text(text)
    if mines is not None:
        position = position.with_mines(mines)
    return position


def analyse(
    text: str,
    mines: int | None = None,
    density: str | None = None,
    trust_flags: bool = True,
    engine: str = "exact",
    with_move: bool = True,
    player: str | None = None,
    search_seconds: float | None = None,
) -> dict[str, Any]:
    """The analysis of a position (``analysis_json``) and, if asked, the hint player's move
    (``player``'s, when named; ``search``'s within ``search_seconds``, else ``best``'s
    with a note saying so)."""
    position = _position(text, mines)
    analysis = analyze(position, engine=engine, density=density, trust_flags=trust_flags)
    result = analysis_json(analysis)
    result["move"] = None
    if with_move:
        has_total = position.mines is not None and density is None and trust_flags
        if has_total:
            name, move, note = choose_move_noted(position, 0, player, search_seconds)
            result["move"] = move_json(name, move, note)
            if move is None:
                result["no_move"] = NO_MOVE
    return result


def tile(
    text: str,
    x: int,
    y: int,
    mines: int | None = None,
    density: str | None = None,
    trust_flags: bool = True,
) -> dict[str, Any]:
    """The tile information of cell ``(x, y)`` (:func:`tile_json`), always from the exact
    engine: the digit chances need an exact count. Flags not trusted are unknown cells,
    as hidden ones are. A bad cell raises :class:`~minesolver.strategy.outcomes.TileError`;
    a density, :class:`~minesolver.result.MineCountUnknown`."""
    position = _position(text, mines)
    if not trust_flags:
        position = position.without_flags()
    analysis = analyze(position, density=density)
    return tile_json(tile_outcomes(analysis, (x, y)), analysis.layout_count())


def tile_json(tile: TileOutcomes, layouts: int) -> dict[str, Any]:
    """Tile information as JSON: exact fractions as strings (``"0"``, ``"1"`` or
    ``"n/d"``) in ``p``, ``safe``, ``digits`` (digit -> P(safe and shows it), the possible
    digits only), ``opening`` and ``progress``; ``layouts`` in decimal; the same chances
    as floats, for display, in ``floats``."""
    x, y = tile.cell
    chances = {
        "p": tile.mine,
        "safe": tile.safe,
        "opening": tile.opening,
        "progress": tile.progress,
    }
    return {
        "x": x,
        "y": y,
        "layouts": int_to_decimal(layouts),
        **{k: fraction_text(v) for k, v in chances.items()},
        "digits": {str(d): fraction_text(p) for d, p in tile.digits.items()},
        "floats": {
            **{k: float(v) for k, v in chances.items()},
            "digits": {str(d): float(p) for d, p in tile.digits.items()},
        },
    }


def hint(
    text: str, seed: int = 0, player: str | None = None, search_seconds: float | None = None
) -> dict[str, Any] | None:
    """Only the hint player's move on a position (for the AI button and autoplay);
    ``player``'s, when named (``search``: see :func:`choose_move`)."""
    name, move, note = choose_move_noted(Position.from_text(text), seed, player, search_seconds)
    return move_json(name, move, note)


def replay(
    data: str,
    best: bool = True,
    clicks_work: int = REPORT_WORK,
    clicks_seconds: float = MIN_CLICKS_SECONDS,
) -> dict[str, Any]:
    """A replay file (``data``: its bytes in base64) read and graded: the object of
    ``minesolver replay --json`` plus ``positions``, each graded action with the position
    the player saw and that position's analysis (what the page's replay view steps
    through), the game's efficiency (the board's fewest clicks searched with
    ``clicks_work`` steps of search, as ``minesolver replay`` does, so the page shows the
    same figures; ``clicks_seconds`` a safety deadline) and its wasted clicks. A bad file
    raises :class:`~minesolver.replay.ReplayFormatError`."""
    graded = grade_replay(
        load_replay(base64.b64decode(data)),
        best=best,
        clicks_work=clicks_work,
        clicks_seconds=clicks_seconds,
    )
    out: dict[str, Any] = replay_json(graded)
    out["positions"] = positions_json(graded)
    return out


def read(
    data: str, mines: int | None = None, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """A screenshot (``data``: its bytes in base64) read as a board
    (:func:`minesolver.vision.read_screenshot`): :func:`reading_json`. An image that holds
    no board raises :class:`~minesolver.vision.VisionError`. ``progress`` is told each
    stage the read comes to (the reader's ``progress``). A few seconds of CPU for a
    full-HD screenshot (median 2.5 s over the labelled samples, up to ~35 s)."""
    from minesolver.vision import read_screenshot

    reading = read_screenshot(base64.b64decode(data), mines=mines, progress=progress)
    return reading_json(reading)


def reading_json(reading: Any) -> dict[str, Any]:
    """A :class:`~minesolver.vision.BoardReading` as JSON: ``rows`` of the labels read
    (``H``, ``F``, ``0``-``8``, ``?`` a question mark, ``*`` a mine, ``!`` the exploded
    one, ``x`` a crossed-out flag: the nearest label even where unsure), ``unsure`` (each
    unsure cell with its candidates, nearest first), ``problem`` (why the reading is not
    a position to analyse, or null) and ``position`` (its text when it is one, else null),
    with the skin, size, mines (``counter``: the mine counter read, mines less flags, or
    null) and where the board lies in the image. O(cells)."""
    width = reading.width
    labels = [c.label for c in reading.cells]
    rows = ["".join(labels[i : i + width]) for i in range(0, len(labels), width)]
    unsure = [
        {
            "x": x,
            "y": y,
            "candidates": [[lab, round(d, 4)] for lab, d in reading.cell(x, y).candidates],
        }
        for x, y in reading.unsure
    ]
    problem = reading.problem
    return {
        "skin": reading.skin,
        "width": width,
        "height": reading.height,
        "mines": reading.mines,
        "mines_from": reading.mines_from,
        "counter": None if reading.counter is None else reading.counter.value,
        "box": [round(v, 2) for v in reading.box],
        "cell_size": [round(v, 3) for v in reading.cell_size],
        "rows": rows,
        "unsure": unsure,
        "lost": reading.lost,
        "problem": problem,
        "position": None if problem is not None else reading.position().to_text(),
    }


def sleep(seconds: float) -> float:
    """Wait ``seconds`` (a job that takes a known time, for the budget's tests)."""
    time.sleep(seconds)
    return seconds
