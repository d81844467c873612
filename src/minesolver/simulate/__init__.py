"""The simulator: many games, one or several players, in processes or on a Dask cluster.

One module per thing it owns:

- :mod:`~minesolver.simulate.config`: a run's :class:`Setup` and :func:`make_setup`;
- :mod:`~minesolver.simulate.seeds`: :func:`derive_seed` and the layouts of a run (every
  game depends only on the run's seed and its index, so runs are reproducible whatever
  the workers and several players meet the same layouts: a paired comparison);
- :mod:`~minesolver.simulate.playing`: one game (:func:`play_game`, :func:`apply_moves`,
  :func:`start_game`), every move through :meth:`Game.push <minesolver.game.Game.push>`;
- :mod:`~minesolver.simulate.running`: batches, local processes, Dask (:func:`simulate`);
- :mod:`~minesolver.simulate.results`: :class:`StrategyResult`, :class:`PairedResult`,
  :class:`BenchResult`, :func:`summarise`;
- :mod:`~minesolver.simulate.stats`: the Wilson interval and McNemar's exact test.

Every public name is importable from here (``from minesolver.simulate import simulate``).
"""

from __future__ import annotations

from minesolver.simulate.config import Setup, SimulationError, make_setup
from minesolver.simulate.playing import apply_moves, play_game, start_game
from minesolver.simulate.results import (
    BenchResult,
    GameRecord,
    PairedResult,
    StrategyResult,
    summarise,
)
from minesolver.simulate.running import Batch, make_batches, run_batch, simulate
from minesolver.simulate.seeds import derive_seed, game_layout, played_layouts
from minesolver.simulate.stats import mcnemar_exact, wilson_interval

__all__ = [
    "Batch",
    "BenchResult",
    "GameRecord",
    "PairedResult",
    "Setup",
    "SimulationError",
    "StrategyResult",
    "apply_moves",
    "derive_seed",
    "game_layout",
    "make_batches",
    "make_setup",
    "mcnemar_exact",
    "play_game",
    "played_layouts",
    "run_batch",
    "simulate",
    "start_game",
    "summarise",
    "wilson_interval",
]
