"""Running a run: workers, batches, parts, given layouts, Dask, bad settings."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from minesolver.game import Level, dump_layouts, load_layouts, random_layout
from minesolver.simulate import (
    GameRecord,
    Setup,
    SimulationError,
    derive_seed,
    simulate,
)


def outcomes(records: list[GameRecord]) -> list[tuple[int, tuple[bool, ...], tuple[int, ...]]]:
    """What a run decided, without its timings."""
    return [(r.index, r.wins, r.guesses) for r in records]


def test_same_results_whatever_the_workers_and_batches(beginner: Setup) -> None:
    one = simulate(beginner, 24, workers=1, batch_size=24)
    two = simulate(beginner, 24, workers=2, batch_size=5)
    assert outcomes(one.records) == outcomes(two.records)
    assert one.to_json()["wins"] == two.to_json()["wins"]
    other = simulate(replace(beginner, seed=12), 24, batch_size=24)
    assert outcomes(other.records) != outcomes(one.records)
    parts = simulate(beginner, 10).records + simulate(beginner, 14, first_game=10).records
    assert outcomes(parts) == outcomes(one.records)  # a run made in parts is the same run


def test_given_layouts_replay_the_drawn_games(tmp_path: Path, beginner: Setup) -> None:
    drawn = [
        random_layout(
            beginner.level, random.Random(derive_seed(beginner.seed, i, "layout")), (0, 0)
        )
        for i in range(12)
    ]
    for name in ("boards.mbf", "boards.txt"):
        dump_layouts(drawn, tmp_path / name)
        given = simulate(beginner, 12, layouts=load_layouts(tmp_path / name))
        assert outcomes(given.records) == outcomes(simulate(beginner, 12).records)
    with pytest.raises(SimulationError, match="only 12 layouts"):
        simulate(beginner, 13, layouts=drawn)
    with pytest.raises(SimulationError, match="layout 1 is"):
        simulate(replace(beginner, level=Level(9, 9, 11)), 2, layouts=drawn)


def test_bad_settings(beginner: Setup) -> None:
    with pytest.raises(SimulationError, match="at least 1"):
        simulate(beginner, 0)
    with pytest.raises(ValueError, match="unknown player"):
        simulate(replace(beginner, players=("nope",)), 3)


def test_dask_local_cluster_gives_the_local_result(beginner: Setup) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        remote = simulate(beginner, 16, dask=cluster.scheduler_address, batch_size=4)
    local = simulate(beginner, 16)
    assert outcomes(remote.records) == outcomes(local.records)
    assert remote.to_json()["wins"] == local.to_json()["wins"]
    assert remote.to_json()["workers"] == 2  # the cluster's threads, not the local default
