"""The figures of ``benchmarks/bench_search_overrides.py``, on outcomes made up so that
the answer is known: the analysis behind the strength page's account of ``search``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from minesolver.position import Position

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:
    from benchmarks import bench_search_overrides as bench
finally:
    sys.path.remove(str(ROOT))


def _position(outcomes: list[str]) -> dict[str, Any]:
    """A stored position whose candidates won ``outcomes`` for both rollout players."""
    figures = {"outcomes": outcomes, "leader": 0}
    return {
        "game": 0,
        "candidates": len(outcomes),
        "cells": list(range(len(outcomes))),
        "greedy": figures,
        "best": figures,
    }


def test_a_candidate_better_on_every_layout_is_found_and_worth_its_difference() -> None:
    n = 512
    out = {"positions": [_position(["0" * n, "1" * n, "0" * n])]}
    race = bench.race_on_paper(out, 64, repeats=20)
    assert race["left_best_guess"] == 1.0
    assert race["mean_gain_per_valued_guess"] == pytest.approx(1.0)
    for figures in bench.held_out(out).values():
        if isinstance(figures, dict):
            assert figures["mean_gain_of_leader"] == pytest.approx(1.0)


def test_equal_candidates_never_replace_best_s_guess() -> None:
    n = 512
    same = "01" * (n // 2)
    out = {"positions": [_position([same, same, same])]}
    race = bench.race_on_paper(out, 256, repeats=20)
    assert race["left_best_guess"] == 0.0
    assert race["mean_gain_per_valued_guess"] == 0.0
    assert bench.held_out(out)["best->best"]["mean_gain_of_leader"] == 0.0


def test_the_summary_checks_the_run_against_the_stored_one() -> None:
    games = [
        {
            "index": 0,
            "won": True,
            "best_won": True,
            "stored_search_won": True,
            "heuristic_kept": 2,
            "overrides": 0,
            "first_override": None,
            "positions": [],
        },
        {
            "index": 1,
            "won": True,
            "best_won": False,
            "stored_search_won": True,
            "heuristic_kept": 1,
            "overrides": 1,
            "first_override": 1,
            "positions": [],
        },
        {
            "index": 2,
            "won": False,
            "best_won": True,
            "stored_search_won": True,
            "heuristic_kept": 0,
            "overrides": 0,
            "first_override": None,
            "positions": [],
        },
    ]
    figures = bench.summary({"games": games, "cpu_seconds": 1.0})
    assert figures["heuristic_guesses"] == 4
    assert figures["games_with_override"] == 1
    assert figures["in_games_with_override"]["search_only"] == 1
    # game 2: search never left best's guess, yet the outcomes differ; and it lost where
    # the stored run won: both checks must say so
    assert figures["untouched_games_equal_to_best"] is False
    assert figures["search_outcomes_equal_to_stored_run"] is False
    assert figures["mismatched"] == [2]


def test_candidates_are_search_s_best_guess_first_then_one_deep_cell_per_class() -> None:
    """As ``Search::candidates``: lowest probability first (ties by index), a deep cell
    (no neighbour a digit or next to one) only where its class (closed and flagged
    neighbours) is new, ``best``'s guess never twice, at most ``most``."""
    position = Position.from_text("6x6x6\n1HHHHH\nHHHHHH\nHHHHHH\nHHHHHH\nHHHHHH\nHHHHHH")
    guess = position.index((5, 5))
    cells = bench._candidates(position, guess, 1.0, 10)
    # the far cells (5/32) before the frontier (1/3); (3,0) a deep edge, (5,0) a deep
    # corner, (3,1) deep inside: the later cells of their classes are left out
    expected = [(5, 5), (2, 0), (3, 0), (5, 0), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (1, 0)]
    assert [position.coords(c) for c in cells] == expected
    assert bench._candidates(position, guess, 0.0, 10)[:2] == [guess, position.index((2, 0))]
