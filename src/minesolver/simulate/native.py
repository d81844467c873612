"""Batches of games played in the native core: one call per batch, the GIL released.

For a player that decides natively (:class:`~minesolver.strategy.native.NativePlayer`:
``greedy``, ``pseq``, ``best`` and its variants),
:func:`play_native` plays a batch's games in Rust
(:func:`minesolver._native.play_batch`): each layout drawn from the game's seed exactly as
:func:`~minesolver.game.random_layout` draws it (or given: a layouts file, no-guess
boards), the first click at the run's start, then the player's moves until the end. The
wins and guesses are those of :func:`~minesolver.simulate.playing.play_game` with the
same player on the same seeds (same layouts, same moves, same draws); each game's seconds
are timed inside the core.

Cost: the player's, natively, plus two SHA-256 seeds per game and O(cells) per layout.
"""

from __future__ import annotations

from collections.abc import Sequence

import minesolver._native as _native
from minesolver.engines import EngineLimitExceeded
from minesolver.engines.exact import native_errors
from minesolver.game import Layout
from minesolver.simulate.config import Setup, SimulationError
from minesolver.simulate.seeds import derive_seed
from minesolver.strategy.native import COMPENSATED_SUM, NativePlayer

__all__ = ["NativeGame", "native_twin", "play_native"]

NativeGame = _native.PlayedGame
"""One game: ``won``, ``guesses``, the player's ``seconds``, and (traced) every move it
named (``moves``: each a ``kind``, a ``cell`` index and ``guess``)."""


def native_twin(player: object) -> NativePlayer | None:
    """The native player that makes ``player``'s moves, or ``None``: ``player`` itself
    when it decides natively. The Python references (``greedy-py``, ``pseq-py``,
    ``best-py``) have none: they play in Python, game by game, so that a run can set them
    against the native players on the same layouts."""
    if isinstance(player, NativePlayer):
        return player
    return None


def play_native(
    setup: Setup,
    player: NativePlayer,
    indices: Sequence[int],
    layouts: Sequence[Layout] | None = None,
    *,
    trace: bool = False,
    deadline: float | None = None,
) -> list[NativeGame]:
    """Games ``indices`` of the run ``setup`` played by ``player`` in the native core.

    ``layouts`` (one per game) replaces the layouts drawn from the seed. ``deadline`` is
    a safety limit in seconds on the whole batch (none by default), checked inside the
    native loops. Raises :class:`SimulationError` when the player stops making progress,
    the deadline passes or the core fails (the core's error, converted by
    :func:`~minesolver.engines.exact.native_errors`, as its cause).
    """
    level, (x, y) = setup.level, setup.start
    player_seeds = [derive_seed(setup.seed, i, "player") for i in indices]
    layout_seeds = None
    given = None
    if layouts is None:
        layout_seeds = [derive_seed(setup.seed, i, "layout") for i in indices]
    else:
        given = [list(layout.mine_indices) for layout in layouts]
    try:
        with native_errors(f"{player.name} player", deadline, advice=""):
            return _native.play_batch(
                "best" if player.best_settings is not None else player.name,
                level.width,
                level.height,
                level.mines,
                y * level.width + x,
                setup.rule,
                player_seeds,
                layout_seeds,
                given,
                trace,
                COMPENSATED_SUM,
                deadline,
                player.best_settings,
                player.book,
            )
    except EngineLimitExceeded as exc:
        raise SimulationError(
            f"player {player.name!r}: the batch passed its time limit of {deadline} s"
        ) from exc
    except _native.Stuck as exc:
        raise SimulationError(f"player {player.name!r} made no progress: {exc}") from exc
    except ValueError as exc:  # the library's errors, the position inconsistent, bad input
        raise SimulationError(f"player {player.name!r} failed in the native core: {exc}") from exc
