"""The opening book: built on a real Dask ``LocalCluster`` on small boards, resumed after
a stop, the same from the same seed, its values equal to an exact count, and played by
``search``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from minesolver import Position
from minesolver.book import (
    BookBuildError,
    BuildSettings,
    _position_seed,
    build_book,
    candidates,
    find_positions,
    sign_test,
    standard_targets,
)
from minesolver.game import Game, Move
from minesolver.optimal import all_layouts
from minesolver.simulate import apply_moves
from minesolver.strategy import get_player
from minesolver.strategy.book import (
    BookError,
    OpeningBook,
    layout_seed,
    load_book,
    read_book,
    rollout_results,
)

distributed = pytest.importorskip("distributed")

TINY = BuildSettings(seed=3, rollouts=48, games=120, max_positions=2, chunk=8, exact_limit=0)
"""Drawn rollouts only (no position is played on every layout), a few per position."""


@pytest.fixture(scope="module")
def cluster() -> object:
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as c:
        yield c


def _entries(book: OpeningBook) -> list[dict[str, object]]:
    return book.to_json()["entries"]  # type: ignore[no-any-return]


def test_a_tiny_book_on_a_local_cluster_resumes_and_repeats(
    tmp_path: Path, cluster: object
) -> None:
    targets = standard_targets(["5x5x4"], ["safe"])
    address = cluster.scheduler_address  # type: ignore[attr-defined]
    whole = build_book(targets, TINY, tmp_path / "a.jsonl", scheduler=address)
    assert len(whole.entries) == 2
    for e in whole.entries:
        assert not e.exact and e.position.to_text().startswith("5x5x4\n")
        assert e.best_move == e.candidates[0].cell and e.move in {c.cell for c in e.candidates}
        assert all(0 <= c.wins <= c.rollouts for c in e.candidates)
        assert sum(c.rollouts for c in e.candidates) > 0
    # the same seed gives the same book, however it is run (a fresh state file)
    again = build_book(targets, TINY, tmp_path / "b.jsonl", scheduler=address)
    assert _entries(again) == _entries(whole)
    # a stop after a few tasks: the rerun plays only what is missing, and agrees
    state = tmp_path / "c.jsonl"
    seen = []

    def stop(n: int) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_book(targets, TINY, state, scheduler=address, on_progress=stop)
    kept = len(state.read_text().splitlines()) - 1
    assert 1 <= kept < len((tmp_path / "a.jsonl").read_text().splitlines()) - 1
    resumed = build_book(targets, TINY, state, scheduler=address)
    assert _entries(resumed) == _entries(whole)
    # the tasks done before the stop were read back, not played again
    assert len(state.read_text().splitlines()) == len(
        (tmp_path / "a.jsonl").read_text().splitlines()
    )
    # another seed is another build: its state file is refused
    with pytest.raises(BookBuildError, match="another build"):
        build_book(targets, BuildSettings(seed=4, rollouts=48, games=120), state, scheduler=address)


def test_the_default_cluster_builds_exact_entries(tmp_path: Path) -> None:
    # every layout played (the position has at most exact_limit), on the builder's own
    # LocalCluster of worker processes
    settings = BuildSettings(seed=5, games=60, max_positions=1, chunk=64, exact_limit=2000)
    book = build_book(
        standard_targets(["4x4x3"], ["safe"]), settings, tmp_path / "s.jsonl", workers=1
    )
    (entry,) = book.entries
    assert entry.exact and entry.layouts is not None
    assert all(c.rollouts == entry.layouts for c in entry.candidates)
    top = max(c.wins for c in entry.candidates)
    assert entry.candidate(entry.move).wins == top
    # the values are exact: every layout of the level that shows this position, each
    # played out by best in Python with the seed the book gives that layout
    _check_exact(entry.position, entry.start, settings.seed, entry.candidates[:3], entry.layouts)


def _check_exact(
    position: Position, start: tuple[int, int], seed: int, cands: object, layouts: int
) -> None:
    level = position.width, position.height, position.mines
    from minesolver.game import Level

    shown = [
        lay
        for lay in all_layouts(Level(*level), start, "safe")  # type: ignore[arg-type]
        if _first_view(lay, start) == position
    ]
    assert len(shown) == layouts
    pseed = _position_seed(seed, position)
    for cand in cands:  # type: ignore[attr-defined]
        wins = 0
        for lay in shown:
            player = get_player("best")
            player.reset(random.Random(layout_seed(pseed, list(lay.mine_indices))))
            game = Game.from_layout(lay)
            game.push(Move("open", start))
            game.push(Move("open", cand.cell))
            while not game.over:
                apply_moves(game, player.next_moves(game.view()))
            wins += game.outcome.won
        assert wins == cand.wins, cand


def _first_view(layout: object, start: tuple[int, int]) -> Position:
    game = Game.from_layout(layout)  # type: ignore[arg-type]
    game.push(Move("open", start))
    return game.view()


def test_drawn_rollouts_agree_with_every_layout() -> None:
    # the same candidates on drawn layouts and on every layout: means within 4.5 standard
    # errors (the draws are exactly uniform; the seed fixes them)
    position = Position.from_text("5x5x4\n1HHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHH\n")
    cells = [(4, 4), (2, 2)]
    exact = rollout_results(
        position, cells, player="greedy", seed=1, first=0, count=3990, every=True
    )
    drawn = rollout_results(position, cells, player="greedy", seed=1, first=0, count=2000)
    for e, d in zip(exact, drawn, strict=True):
        assert len(e) == 3990
        p, q = sum(e) / len(e), sum(d) / len(d)
        assert abs(p - q) <= 4.5 * (p * (1 - p) / len(d)) ** 0.5, (p, q)


def test_positions_and_candidates_of_a_safe_corner() -> None:
    (target,) = standard_targets(["5x5x4"], ["safe"])
    found = find_positions(target, BuildSettings(games=200, max_positions=3))
    texts = [f.position.to_text().splitlines()[1] for f in found]
    assert texts[0] == "1HHHH"  # the commonest first guess: after the corner shows a 1
    assert found[0].share > found[1].share
    from fractions import Fraction

    cells = candidates(found[0].position, found[0].best_move, Fraction(1, 20), 100)
    # the square board's diagonal maps the position onto itself: one of each pair
    assert (4, 4) in cells and len(cells) == len(set(cells))
    for x, y in cells:
        assert (y, x) == (x, y) or (y, x) not in cells


def test_sign_test_is_exact() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 0) == 1 / 32
    assert sign_test(2, 2) == 11 / 16


def test_search_plays_the_book_and_best_without_it() -> None:
    book = load_book()
    assert book.entries, "the shipped book has entries"
    for e in book.entries:
        search = get_player("search")
        search.reset(random.Random(0))
        moves = search.next_moves(e.position)
        assert moves[-1].cell == e.move
        plain = get_player("search:rollouts=0;book=off")
        plain.reset(random.Random(0))
        best = get_player("best")
        best.reset(random.Random(0))
        assert plain.next_moves(e.position) == best.next_moves(e.position)


def test_a_book_move_other_than_best_is_played_with_its_figures() -> None:
    import minesolver._native as native

    position = Position.from_text("5x5x4\n1HHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHH\n")
    entry = native.BookEntry(
        width=5,
        height=5,
        mines=4,
        raw=list(position.raw()),
        cell=position.index((2, 2)),
        wins=7,
        rollouts=10,
        best_wins=3,
        best_rollouts=10,
    )
    with_book = native.NativePlayer("search", False, None, native.Book([entry]))
    (move,) = with_book.next_moves(position.raw(), 5, 5, 4)
    assert move.cell == position.index((2, 2)) and move.reason.wins == 7
    off = native.NativePlayer("search:book=off;rollouts=0", False, None, native.Book([entry]))
    (plain,) = off.next_moves(position.raw(), 5, 5, 4)
    assert plain.cell != position.index((2, 2))


def test_a_broken_book_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"format": 1, "meta": {}, "entries": [{"level": 1}]}))
    with pytest.raises(BookError, match=r"book\.json"):
        read_book(path)
    path.write_text("{")
    with pytest.raises(BookError, match="cannot read"):
        read_book(path)


def test_the_command_writes_a_book_it_can_read(tmp_path: Path, cluster: object) -> None:
    from minesolver.ui.cli import main

    out = tmp_path / "book.json"
    address = cluster.scheduler_address  # type: ignore[attr-defined]
    args = ["book", "build", "--levels", "4x4x3:safe", "--games", "40", "--rollouts", "16"]
    args += ["--max-positions", "1", "--exact-limit", "0", "--chunk", "8", "--seed", "2"]
    assert main([*args, "--scheduler", address, "--out", str(out)]) == 0
    book = read_book(out)
    assert len(book.entries) == 1 and book.meta["seed"] == 2
    assert book.meta["command"].startswith("minesolver book build")
    assert (tmp_path / "book.json.state.jsonl").exists()
    wrong = ["book", "build", "--levels", "4x4x3", "--rules", "sideways", "--out", str(out)]
    assert main(wrong) == 2
