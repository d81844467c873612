"""Perfect play on small boards, against a naive game-tree search written from the rules."""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from math import comb

import pytest

from minesolver.game import FirstClick, Level, excluded_cells
from minesolver.optimal import (
    TooLargeForPerfectPlay,
    TooManyLayoutsToList,
    all_layouts,
    perfect_play,
    play_every_layout,
)
from minesolver.simulate import make_setup
from minesolver.ui.cli import main

Seen = tuple[tuple[int, int], ...]  # the open cells and their digits
Member = tuple[frozenset[int], frozenset[int]]  # a layout's mines and its open cells


def naive_perfect_wins(level: Level, start: tuple[int, int], rule: FirstClick) -> int:
    """Layouts won by perfect play, from the rules alone: a click opens the cell (and,
    on a 0, its neighbours, flood fill); the player sees which cells are open and their
    digits; it wins when every safe cell is open. Every click is tried in every state
    (no shortcut of the solver's: opening certain cells first, pruning, bitsets)."""
    w, h, n = level.width, level.height, level.cells
    nbrs = [
        [
            (y + dy) * w + x + dx
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h
        ]
        for y in range(h)
        for x in range(w)
    ]
    free = excluded_cells(w, h, start, rule)
    layouts = [
        frozenset(c) for c in combinations([i for i in range(n) if i not in free], level.mines)
    ]

    def open_cell(mines: frozenset[int], opened: frozenset[int], c: int) -> frozenset[int]:
        out, todo = set(opened), [c]
        while todo:
            i = todo.pop()
            if i in out:
                continue
            out.add(i)
            if not any(j in mines for j in nbrs[i]):
                todo.extend(nbrs[i])
        return frozenset(out)

    def seen(mines: frozenset[int], opened: frozenset[int]) -> Seen:
        return tuple(sorted((i, sum(j in mines for j in nbrs[i])) for i in opened))

    @cache
    def wins(state: frozenset[Member]) -> int:
        (_, opened), *_ = state  # every member has the same cells open
        if len(opened) == n - level.mines:
            return len(state)
        best = 0
        for c in range(n):
            if c in opened:
                continue
            parts: dict[Seen, set[Member]] = {}
            for m, o in state:
                if c not in m:
                    now = open_cell(m, o, c)
                    parts.setdefault(seen(m, now), set()).add((m, now))
            best = max(best, sum(wins(frozenset(p)) for p in parts.values()))
        return best

    s = level.width * start[1] + start[0]
    total = 0
    first: dict[Seen, set[Member]] = {}
    for m in layouts:
        if s not in m:
            now = open_cell(m, frozenset(), s)
            first.setdefault(seen(m, now), set()).add((m, now))
    for part in first.values():
        total += wins(frozenset(part))
    return total


@pytest.mark.parametrize(
    ("level", "start", "rule"),
    [
        (Level(3, 3, 2), (0, 0), "safe"),
        (Level(3, 3, 2), (1, 1), "none"),
        (Level(4, 3, 3), (0, 0), "safe"),
        (Level(4, 3, 2), (1, 1), "opening"),
        (Level(4, 3, 3), (3, 2), "none"),
        (Level(4, 4, 2), (0, 0), "safe"),
    ],
)
def test_perfect_play_matches_a_naive_search(
    level: Level, start: tuple[int, int], rule: FirstClick
) -> None:
    result = perfect_play(level, start, rule)
    assert result.wins == naive_perfect_wins(level, start, rule)
    assert result.layouts == len(all_layouts(level, start, rule))


def test_all_layouts_are_those_the_rule_allows() -> None:
    level = Level(5, 4, 3)
    around = {y * 5 + x for x in (1, 2, 3) for y in (0, 1, 2)}  # (2, 1) and its neighbours
    kept_free: dict[FirstClick, set[int]] = {"none": set(), "safe": {7}, "opening": around}
    for rule, free in kept_free.items():
        layouts = all_layouts(level, (2, 1), rule)
        assert len(layouts) == comb(20 - len(free), 3) == len(set(layouts))
        assert all(not set(lay.mine_indices) & free for lay in layouts)


def test_too_large_boards_are_clear_errors() -> None:
    with pytest.raises(
        TooManyLayoutsToList,
        match=r"30x16x99 .* about 10\^104 layouts, more "
        r"than the limit 1000",
    ):
        all_layouts(Level(30, 16, 99), (0, 0), "safe", limit=1000)
    with pytest.raises(TooLargeForPerfectPlay, match=r"5x5x4 .* exceeded 100 nodes"):
        perfect_play(Level(5, 5, 4), (0, 0), budget=100)
    with pytest.raises(TooLargeForPerfectPlay, match=r"10000 cells, more than 5000000 layout"):
        perfect_play(Level(100, 100, 1), (0, 0))


def test_cli_perfect(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["perfect", "--level", "4x3x3", "--players", "greedy,best", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert (data["layouts"], data["perfect"]["wins"]) == (165, 124)  # the naive search's
    assert set(data["players"]) == {"greedy", "best"}
    assert data["players"]["best"]["wins"] <= 124
    code = main(["perfect", "--level", "6x6x6"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err == (
        "error: 6x6x6 with the first click 'safe' at (0, 0) has 1623160 layouts, "
        "more than the limit 20000\n"
    )


def test_no_player_beats_perfect_play_and_best_comes_close() -> None:
    # every layout of 4x4/3 played by each player: exact win counts (one tie-break draw)
    perfect = perfect_play(Level(4, 4, 3), (0, 0))
    setup, _ = make_setup(
        level="4x4x3", first_click="safe", start="0,0", players=["greedy", "best"], seed=1
    )
    run = play_every_layout(setup)
    assert run.results["best"].games == perfect.layouts == 455
    greedy, best = run.results["greedy"].wins, run.results["best"].wins
    assert greedy <= best <= perfect.wins
    # best's endgame search covers every position with at most 1,000 layouts: all of them
    assert best == perfect.wins
