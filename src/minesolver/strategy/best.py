"""``best``: the strongest player here; each ingredient can be switched off to measure it.

This module is its readable reference, the player ``best-py``; ``get_player("best")``
is the native player that makes the same moves (:class:`~.native.NativeBest`).

In order, for a position:

1. **certain cells**: one analysis; every certainly-safe cell is opened (certain mines
   flagged), as ``greedy`` does.
2. **endgame search** (``endgame``): when at most ``endgame_layouts`` layouts remain,
   they are listed and the optimal move found by exact game-tree search
   (:mod:`.endgame`), with a transposition cache kept for the game. Beyond its node
   budget the search gives up and the heuristics below decide.
3. **unavoidable 50/50** (``fifty``): two cells of probability 1/2 holding exactly one
   mine, each *dead* (its digit, if safe, is already determined) and seen alike by every
   other hidden cell (the same uncertain neighbours apart from each other). No click
   can ever tell them apart, so the guess is made now, before risking other guesses.
4. **candidates**: the cells within ``margin`` of the lowest probability (deep interior
   cells once per class, at most ``max_candidates``), each expanded into its outcomes
   (:func:`~.outcomes.cell_outcomes`: every digit with its probability and the analysis
   that follows).
5. **dead cells** (``dead``): a cell that can show one digit only tells nothing; it is
   not chosen while a live candidate exists.
6. **dominance** (``dominance``): a candidate ``B`` is dropped when another candidate
   ``A`` is certainly safe in every outcome of ``B`` (``A`` is safe whenever ``B`` is)
   and strictly less likely to be a mine.
7. **second-move safety** (``second``): each candidate is scored by the probability of
   surviving this click and the next, ``sum_d P(d) * s(d)`` with ``s(d)`` 1 when the
   outcome leaves a certainly-safe cell and else the next click's best safety; a small
   bonus for *progress* (the probability of a new safe cell) breaks near-ties.
   Without it, the safety ``1 - p`` decides (times the latent weight), ties by progress.
8. **latent 50/50s** (``latent``): each candidate's score is weighed up by
   ``1 + latent_weight * share`` (weight 1/2: a coin flip saved), ``share`` the expected
   number, capped at 1, of pairs no digit can ever split in which the cell sits, given
   that it is safe (:mod:`.latent`; 2x2 blocks too with ``latent_blocks``, which cost
   more and measured no better): clicking it then defuses a coin flip the game would
   otherwise end with.

Each ingredient can be switched off by name, for measuring what it adds:
``get_player("best-no-endgame")`` (or ``-fifty``, ``-dead``, ``-dominance``,
``-second``, ``-latent``), and the settings changed: ``best:margin=1/10;max_candidates=20``
(:func:`variant_options`); ``best-py-no-endgame`` and ``best-py:...`` are the same
variants of this Python player (:func:`variant_factory`).

Cost: certain moves cost one analysis; a guess costs at most one analysis per (candidate,
possible digit), all cached by position for the game. Most are skipped: candidates come
in increasing probability, and both the second-move safety and the progress of a cell
are at most ``1 - p`` and the latent weight at most ``1 + latent_weight``, so once that
bound (or, digit by digit, the bound of a candidate half-weighed) is below the best score
found, the rest cannot win and is not analysed. The latent weight costs one analysis per
inclusion-exclusion term of a pattern worth counting (:mod:`.latent`), only for the
candidates that are kept. Ordering the cells is O(u log u) for ``u`` unknown cells (the
neighbour counts that break float ties only for the runs reached). The 50/50 test is
O(h^2) cheap structural comparisons for ``h`` cells of probability 1/2, plus at most two
analyses per cell of a pair that passes them. The endgame search is bounded by
``endgame_layouts`` and ``endgame_budget`` (:mod:`.endgame`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby, islice
from operator import itemgetter
from typing import Any

from minesolver.analysis import Analysis, CellProbabilities
from minesolver.position import HIDDEN, Cell, Position
from minesolver.strategy.base import Move
from minesolver.strategy.endgame import (
    EndgameSolver,
    SearchBudgetExceeded,
    TooManyLayouts,
    enumerate_layouts,
)
from minesolver.strategy.errors import PlayerError
from minesolver.strategy.latent import latent_share, patterns
from minesolver.strategy.outcomes import (
    Outcome,
    OutcomeCache,
    iter_outcomes,
    iter_representatives,
    lowest_probability,
    moves_for,
)
from minesolver.strategy.reasons import Endgame, FiftyFifty, Reason, Safety, SecondMove

__all__ = [
    "BestPlayer",
    "Options",
    "find_fifty_fifty",
    "make_player",
    "second_safety",
    "variant_factory",
    "variant_options",
    "with_settings",
]


@dataclass(frozen=True, slots=True)
class Options:
    """Which ingredients ``best`` uses, and how hard it looks (see the module doc)."""

    endgame: bool = True
    fifty: bool = True
    dead: bool = True
    dominance: bool = True
    second: bool = True
    latent: bool = True
    endgame_layouts: int = 1000
    endgame_budget: int = 20_000
    margin: Fraction = Fraction(1, 20)
    max_candidates: int = 12
    progress_weight: Fraction = Fraction(1, 10)
    latent_weight: Fraction = Fraction(1, 2)
    latent_missing: int = 2
    latent_blocks: bool = False

    def __post_init__(self) -> None:
        # the candidate bounds of BestPlayer._heuristic assume weights >= 0
        least = {
            "progress_weight": 0,
            "latent_weight": 0,
            "margin": 0,
            "max_candidates": 1,
            "endgame_layouts": 0,
            "endgame_budget": 0,
            "latent_missing": 0,
        }
        wrong = [
            f"{name} {getattr(self, name)} must be at least {low}"
            for name, low in least.items()
            if getattr(self, name) < low
        ]
        if wrong:
            raise ValueError("; ".join(wrong))


_INGREDIENTS = ("endgame", "fifty", "dead", "dominance", "second", "latent")


def make_player(**settings: Any) -> BestPlayer:
    """The Python ``best`` (the readable reference, named ``best-py``) with the
    :class:`Options` fields ``settings`` (``get_player("best-py", margin=Fraction(1,
    10))``); :class:`~minesolver.strategy.PlayerError` names a setting that does not
    exist or a value of the wrong type. ``get_player("best")`` is the native player that
    makes the same moves (:mod:`.native`)."""
    player = BestPlayer(with_settings("best-py", Options(), settings))
    player.name = "best-py"
    return player


def variant_options(name: str) -> Options:
    """The :class:`Options` a variant name of ``best`` or ``best-py`` stands for.

    ``FAMILY-no-X`` is the family without ingredient ``X`` (one of endgame, fifty, dead,
    dominance, second, latent); ``FAMILY:field=value;...`` sets :class:`Options` fields
    (integers, or fractions such as ``1/10``). Raises
    :class:`~minesolver.strategy.PlayerError` naming what is wrong.

    >>> variant_options("best:margin=1/10;dead=0").margin
    Fraction(1, 10)
    """
    family = name.partition(":")[0].partition("-no-")[0]
    if family not in ("best", "best-py"):
        raise PlayerError(f"{name!r} is not a variant of best")
    if name.startswith(f"{family}-no-"):
        fields = _ablation(name, family)
    elif name.startswith(f"{family}:"):
        fields = _parse_settings(name, family)
    else:
        raise PlayerError(f"{name!r} is not a variant of best")
    return with_settings(name, Options(), fields)


def variant_factory(name: str) -> Callable[..., BestPlayer]:
    """A factory of the Python ``best`` variant called ``name`` (``best-py-no-X``,
    ``best-py:field=value;...``: see :func:`variant_options`, which raises for a wrong
    name). The player's ``name`` is ``name``; the factory takes further settings as
    keyword arguments, as :func:`make_player` does.

    >>> variant_factory("best-py:margin=1/10;dead=0")().options.margin
    Fraction(1, 10)
    """
    options = variant_options(name)

    def make(**settings: Any) -> BestPlayer:
        player = BestPlayer(with_settings(name, options, settings))
        player.name = name
        return player

    return make


def _ablation(name: str, family: str = "best") -> dict[str, Any]:
    """The fields of ``best-no-X``: ingredient ``X`` switched off."""
    what = name.removeprefix(f"{family}-no-")
    if what not in _INGREDIENTS:
        raise PlayerError(
            f"unknown player {name!r}: best has no ingredient {what!r} "
            f"(expected one of {', '.join(_INGREDIENTS)})"
        )
    return {what: False}


def _parse_settings(name: str, family: str = "best") -> dict[str, Any]:
    """The fields of ``best:field=value;...``, each value read by its field's type
    (``1``/``0``/``true``/``false`` for switches, fractions such as ``1/10``, integers)."""
    defaults = Options()
    fields: dict[str, Any] = {}
    for item in name.removeprefix(f"{family}:").split(";"):
        key, _, text = item.partition("=")
        if key not in Options.__dataclass_fields__ or not text:
            raise PlayerError(f"player {name!r}: {item!r} is not an option=value")
        default = getattr(defaults, key)
        try:
            if isinstance(default, bool):
                value: object = {"1": True, "0": False, "true": True, "false": False}[text]
            elif isinstance(default, Fraction):
                value = Fraction(text)
            else:
                value = int(text)
        except (KeyError, ValueError, ZeroDivisionError):
            raise PlayerError(f"player {name!r}: {text!r} is not a value for {key}") from None
        fields[key] = value
    return fields


_EXPECTED = {bool: "True or False", Fraction: "an int or a Fraction", int: "an int"}


def with_settings(name: str, base: Options, settings: Mapping[str, Any]) -> Options:
    """``base`` with ``settings`` (a factory's keyword arguments) set, each checked
    against its field's type (an ``int`` is a fine fraction; a ``bool`` is no number) and
    the bounds of :class:`Options`; :class:`~minesolver.strategy.PlayerError` names
    player ``name`` and the fault."""
    fields: dict[str, Any] = {}
    for key, value in settings.items():
        if key not in Options.__dataclass_fields__:
            known = ", ".join(Options.__dataclass_fields__)
            raise PlayerError(f"player {name!r}: no setting {key!r} (settings: {known})")
        default = getattr(base, key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        else:
            kinds = (int, Fraction) if isinstance(default, Fraction) else (int,)
            ok = isinstance(value, kinds) and not isinstance(value, bool)
        if not ok:
            expected = _EXPECTED[type(default)]
            raise PlayerError(f"player {name!r}: {key} must be {expected}, not {value!r}")
        fields[key] = Fraction(value) if isinstance(default, Fraction) else value
    try:
        return replace(base, **fields)
    except ValueError as exc:
        raise PlayerError(f"player {name!r}: {exc}") from None


def next_safety(analysis: Analysis) -> Fraction:
    """The best chance of surviving the next click from this position.

    1 when a cell is certainly safe or every hidden cell is a certain mine (won).
    """
    if analysis.safe:
        return Fraction(1)
    low = lowest_probability(analysis)  # from the native levels: no Fraction per level
    return Fraction(1) if low is None else 1 - low


def _distinct(probabilities: Mapping[Cell, Fraction]) -> list[Fraction]:
    """The probability values, each object once (cheap: by identity, not by value)."""
    if isinstance(probabilities, CellProbabilities):
        return probabilities.distinct()
    return list({id(v): v for v in probabilities.values()}.values())


def second_safety(outcomes: list[Outcome]) -> Fraction:
    """P(this click is safe and so is the best next one): ``sum_d P(d) * s(d)``."""
    return sum((o.probability * next_safety(o.analysis) for o in outcomes), Fraction(0))


def _uncertain_neighbours(analysis: Analysis, cell: Cell) -> set[Cell]:
    position = analysis.position
    probs = analysis.probabilities
    return {
        nb
        for nb in position.neighbours(cell)
        if position[nb] == HIDDEN and 0 < probs.get(nb, Fraction(0)) < 1
    }


def _uncertain_cells(analysis: Analysis) -> bytearray:
    """Per cell index, 1 for an unknown cell that is not certain. O(cells)."""
    position = analysis.position
    mask = bytearray(len(position.cells))
    for x, y in analysis.probabilities:
        mask[y * position.width + x] = 1
    for x, y in analysis.safe | analysis.certain_mines:
        mask[y * position.width + x] = 0
    return mask


def _by_decisiveness(analysis: Analysis, order: list[tuple[float, int, int]]) -> Iterator[Cell]:
    """The cells of ``order`` (sorted by float probability, then reading order), each
    run of equal float re-sorted by exact probability (two Fractions may round to one
    float; comparing a shared Fraction object with itself is free), then by its cells'
    numbers of uncertain neighbours (fewer make a decisive digit, a 0 say, likelier),
    lazily: the counts are made only for the runs the caller reaches. The result is in
    exact increasing probability, which the candidate bounds rely on."""
    width = analysis.position.width
    nbrs = analysis.position.neighbour_indices()
    probs = analysis.probabilities
    uncertain: bytearray | None = None
    for _, run in groupby(order, key=itemgetter(0)):
        cells = [(x, y) for _, y, x in run]
        if len(cells) > 1:
            if uncertain is None:
                uncertain = _uncertain_cells(analysis)
            mask = uncertain
            cells.sort(  # stable: reading order among equals
                key=lambda c: (probs[c], sum(map(mask.__getitem__, nbrs[c[1] * width + c[0]])))
            )
        yield from cells


def find_fifty_fifty(
    analysis: Analysis, cache: OutcomeCache | None = None
) -> tuple[Cell, Cell] | None:
    """An unavoidable 50/50: two cells that no click can ever tell apart.

    ``a`` and ``b`` have probability 1/2, exactly one of them is a mine (``b`` is a
    certain mine whenever ``a`` is safe), both are dead (one possible digit each), and
    their other uncertain neighbours are the same cells, so every other cell sees both
    or neither, and every revealed digit next to only one of them has no other uncertain
    cell (else learning those cells would decide it: :func:`_digits_blind`). Returns the
    pair in reading order, or ``None``.
    """
    half = Fraction(1, 2)
    if all(p != half for p in _distinct(analysis.probabilities)):
        return None
    cells = sorted(
        (c for c, p in analysis.probabilities.items() if p == half),
        key=lambda c: (c[1], c[0]),
    )
    store = cache if cache is not None else OutcomeCache()
    dead: dict[Cell, Outcome | None] = {}

    def only_outcome(cell: Cell) -> Outcome | None:
        """The cell's single outcome, or ``None`` when it can show two digits or more
        (found lazily: the third digit is never analysed)."""
        if cell not in dead:
            outs = list(islice(iter_outcomes(analysis, cell, store), 2))
            dead[cell] = outs[0] if len(outs) == 1 else None
        return dead[cell]

    around = {c: _uncertain_neighbours(analysis, c) for c in cells}
    # the cheap structural test first; the outcomes only for pairs that pass it
    for k, a in enumerate(cells):
        for b in cells[k + 1 :]:
            if around[a] - {b} != around[b] - {a}:
                continue
            if not _digits_blind(analysis, a, b):
                continue
            out_a = only_outcome(a)
            if out_a is None:
                break
            if out_a.analysis.probabilities.get(b) != 1:
                continue
            if only_outcome(b) is not None:
                return a, b
    return None


def _digits_blind(analysis: Analysis, a: Cell, b: Cell) -> bool:
    """True when no revealed digit can ever tell ``a`` from ``b``.

    A digit next to both sees ``a + b``, which is 1 in every layout; a digit next to
    only one of them, say ``a``, says ``a + X = k`` for its other hidden cells ``X``,
    so once ``X`` becomes known (by clicks elsewhere) it decides ``a``, unless every
    cell of ``X`` is already certain.
    """
    position = analysis.position
    one_side = set(position.neighbours(a)) ^ set(position.neighbours(b))
    return not any(
        _uncertain_neighbours(analysis, d) - {a, b} for d in one_side if position[d] >= 0
    )


class BestPlayer:
    """The strongest player: see the module docstring for its ingredients."""

    name = "best"

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self._rng = random.Random(0)
        self._cache = OutcomeCache()
        self._endgame = EndgameSolver(self.options.endgame_budget)

    @property
    def endgame(self) -> EndgameSolver:
        """The endgame search this player uses (its cache lives for one game)."""
        return self._endgame

    def reset(self, rng: random.Random) -> None:
        """Start a new game: forget caches; remaining ties are broken with ``rng``."""
        self._rng = rng
        self._cache.clear()
        self._endgame.clear()

    def next_moves(self, view: Position) -> list[Move]:
        """Every certain move, or one guess chosen as the module docstring says."""
        return moves_for(view, self._cache, self.choose)

    def choose(self, analysis: Analysis) -> tuple[Cell, Reason]:
        """The guess for a position with no certainly-safe cell, and why."""
        opts = self.options
        if opts.endgame and analysis.layout_count() <= opts.endgame_layouts:
            found = self._search(analysis)
            if found is not None:
                return found
        if opts.fifty:
            pair = find_fifty_fifty(analysis, self._cache)
            if pair is not None:
                return pair[0], FiftyFifty(pair[1])
        return self._heuristic(analysis)

    def _search(self, analysis: Analysis) -> tuple[Cell, Reason] | None:
        position = analysis.position
        try:
            layouts = enumerate_layouts(position, self.options.endgame_layouts)
            cell, wins, total = self._endgame.best_move(position, layouts)
        except (SearchBudgetExceeded, TooManyLayouts):
            return None
        return cell, Endgame(wins, total)

    def _order(self, analysis: Analysis) -> Iterator[Cell]:
        """Cells that are not certain mines, by increasing probability, then by fewer
        uncertain neighbours, then reading order; deep cells once per class."""
        probs = analysis.probabilities
        as_float = {id(p): float(p) for p in _distinct(probs)}
        order = sorted(
            (as_float[id(p)], c[1], c[0])
            for c, p in probs.items()
            if c not in analysis.certain_mines
        )
        return iter_representatives(analysis.position, _by_decisiveness(analysis, order))

    def _score(
        self,
        probability: Fraction,
        outcomes: Iterable[Outcome],
        beat: Fraction | None = None,
        most: Fraction = Fraction(1),
    ) -> tuple[list[Outcome], tuple[Fraction, Fraction] | None]:
        """The outcomes taken and the candidate's ``(score, progress)`` (module docstring,
        step 7), outcome by outcome: ``outcomes`` may be lazy (:func:`iter_outcomes`).

        The score is without the latent weight (the caller multiplies it in); ``most``
        bounds that weight. With second-move safety and a score to ``beat``, the outcomes
        not yet seen can add at most their probability mass to both the safety and the
        progress; once even that, times ``most``, cannot reach ``beat`` (and two outcomes
        are known, so the cell is known to be live), the rest are not taken and the key
        is ``None``.
        """
        second = self.options.second
        weight = self.options.progress_weight
        rest = 1 - probability
        safety = progress = Fraction(0)
        outs: list[Outcome] = []
        for o in outcomes:
            outs.append(o)
            if o.analysis.safe:
                progress += o.probability
            if not second:
                continue
            rest -= o.probability
            safety += o.probability * next_safety(o.analysis)
            if (
                beat is not None
                and len(outs) >= 2
                and (safety + rest) * (1 + weight * (progress + rest)) * most < beat
            ):
                return outs, None
        if not second:
            return outs, (1 - probability, progress)
        return outs, (safety * (1 + weight * progress), progress)

    def _most(self, analysis: Analysis, cell: Cell) -> Fraction:
        """An upper bound on :meth:`_factor` without counting: 1 when no latent pattern
        around the cell is worth counting."""
        opts = self.options
        if opts.latent and next(
            patterns(analysis, cell, opts.latent_missing, opts.latent_blocks), None
        ):
            return 1 + opts.latent_weight
        return Fraction(1)

    def _factor(self, analysis: Analysis, cell: Cell) -> Fraction:
        """``1 + latent_weight * share``: the weight of a cell that, when safe, may
        defuse a latent 50/50 (:func:`~.latent.latent_share`); 1 without ``latent``."""
        opts = self.options
        if not opts.latent:
            return Fraction(1)
        share = latent_share(analysis, cell, self._cache, opts.latent_missing, opts.latent_blocks)
        return 1 + opts.latent_weight * share

    def _bound(self, probability: Fraction) -> Fraction:
        """An upper bound on the score of a cell with this mine probability: both the
        second-move safety and the progress are at most ``1 - p``, the latent weight at
        most ``1 + latent_weight`` (its share is capped at 1). Decreasing in ``p``."""
        opts = self.options
        safe = 1 - probability
        most = 1 + opts.latent_weight if opts.latent else 1
        if opts.second:
            return safe * (1 + opts.progress_weight * safe) * most
        return safe * most

    def _heuristic(self, analysis: Analysis) -> tuple[Cell, Reason]:
        """Steps 4-8 of the module docstring, in one pass over :meth:`_order`.

        Candidates are cells within ``margin`` of the lowest live probability, at most
        ``max_candidates`` live ones; dead cells are set aside and used only when no live
        cell exists. A candidate is dominated only by one of lower probability, which
        comes earlier, so dominance is decided as each arrives. Once a cell's
        :meth:`_bound` falls below the best score of a non-dominated candidate, no later
        cell can win, so their outcomes are never computed; and a candidate's remaining
        digits are not analysed once they cannot lift it to that score
        (:meth:`_score`). The choice is the same as scoring the whole window
        (checked in the tests against a plain implementation).
        """
        window = self._collect(analysis)
        if not window.live:  # only dead cells: weigh them all alike
            self._weigh_dead(analysis, window)
        cell = self._pick(window)
        return cell, self._reason(analysis, window, cell)

    def _collect(self, analysis: Analysis) -> _Window:
        """The candidates, weighed one by one (:meth:`_weigh`) in the order of
        :meth:`_order` until the window is full (:meth:`_window_closed`) or no later cell
        can reach the best score found (:meth:`_bound`; only when :func:`_prunable`)."""
        window = _Window()
        probs = analysis.probabilities
        prune = _prunable(analysis)
        for cell in self._order(analysis):
            p = probs[cell]
            if self._window_closed(window, p):
                break
            beat = window.top[0] if prune and window.top is not None else None
            if beat is not None and self._bound(p) < beat:
                break
            self._weigh(analysis, window, cell, beat)
        return window

    def _window_closed(self, window: _Window, probability: Fraction) -> bool:
        """True once a cell of ``probability`` is beyond ``margin`` of the lowest live
        probability, or ``max_candidates`` live cells are in."""
        opts = self.options
        low = window.low
        return low is not None and (
            probability > low + opts.margin or len(window.live) >= opts.max_candidates
        )

    def _weigh(
        self, analysis: Analysis, window: _Window, cell: Cell, beat: Fraction | None
    ) -> None:
        """Score ``cell`` and record it in ``window``: a dead cell is set aside; a live
        one joins the window, and unless it is dominated or cut short against ``beat``
        (:meth:`_score`) its score, times its latent weight, is a contender."""
        opts = self.options
        probs = analysis.probabilities
        p = probs[cell]
        # the latent weight is at most ``most``: counted only for a cell kept below
        most = self._most(analysis, cell)
        outs, key = self._score(p, iter_outcomes(analysis, cell, self._cache), beat, most)
        window.outcomes[cell] = outs
        if opts.dead and len(outs) <= 1:
            if len(window.dead) < opts.max_candidates:
                window.dead.append(cell)
            return
        if window.low is None:
            window.low = p
        dominated = (
            key is not None
            and opts.dominance
            and _dominated(cell, window.live, window.outcomes, probs)
        )
        window.live.append(cell)
        if key is None or dominated:
            return
        if most > 1:
            weight = window.weights[cell] = self._factor(analysis, cell)
            key = (key[0] * weight, key[1])
        window.scored.append((*key, cell))
        if window.top is None or key > window.top:
            window.top = key

    def _weigh_dead(self, analysis: Analysis, window: _Window) -> None:
        """With no live candidate: every dead one that no other dominates (all of them
        if each is) is scored in full, latent weight included."""
        opts = self.options
        probs = analysis.probabilities
        dead = window.dead
        kept = [
            b for b in dead if not (opts.dominance and _dominated(b, dead, window.outcomes, probs))
        ] or dead
        window.scored = []
        for c in kept:
            _, key = self._score(probs[c], window.outcomes[c])
            assert key is not None  # nothing to beat: never cut short
            weight = window.weights[c] = self._factor(analysis, c)
            window.scored.append((key[0] * weight, key[1], c))
        window.top = max((s, g) for s, g, _ in window.scored)

    def _pick(self, window: _Window) -> Cell:
        """The candidate of the best ``(score, progress)``; a tie broken with the rng."""
        top = window.top
        assert top is not None
        best = [c for s, g, c in window.scored if (s, g) == top]
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def _reason(self, analysis: Analysis, window: _Window, cell: Cell) -> Safety:
        """Why ``cell`` was chosen: its score and what went into it."""
        top = window.top
        assert top is not None
        kind = SecondMove if self.options.second else Safety
        weight = Fraction(window.weights.get(cell, 1))
        probability = analysis.probabilities[cell]
        return kind(top[0], top[1], probability, len(window.scored), weight)


@dataclass(slots=True)
class _Window:
    """The candidates of one guess, as :meth:`BestPlayer._heuristic` meets them.

    ``live`` and ``dead``: the candidates that can show two digits or more, and those
    that cannot; ``outcomes``: what each can show, as far as it was expanded;
    ``scored``: ``(score, progress, cell)`` of the contenders, their latent weights
    (those counted in ``weights``) included; ``top``: the best ``(score, progress)``;
    ``low``: the lowest live probability, which the ``margin`` is measured from.
    """

    live: list[Cell] = field(default_factory=list)
    dead: list[Cell] = field(default_factory=list)
    outcomes: dict[Cell, list[Outcome]] = field(default_factory=dict)
    scored: list[tuple[Fraction, Fraction, Cell]] = field(default_factory=list)
    weights: dict[Cell, Fraction] = field(default_factory=dict)
    top: tuple[Fraction, Fraction] | None = None
    low: Fraction | None = None


def _prunable(analysis: Analysis) -> bool:
    """True when the outcomes of a cell add up to ``1 - p`` (an exact count under a
    known total), which the bounds that stop the candidates early rely on."""
    problem = analysis.problem
    return analysis.exact and problem is not None and problem.density is None


def _dominated(
    b: Cell,
    others: list[Cell],
    outcomes: dict[Cell, list[Outcome]],
    probs: Mapping[Cell, Fraction],
) -> bool:
    """True when some cell of ``others``, strictly less likely a mine than ``b``, is
    certainly safe in every outcome of ``b`` (safe whenever ``b`` is)."""
    pb = probs[b]
    return any(
        a != b and probs[a] < pb and all(o.analysis.probabilities.get(a) == 0 for o in outcomes[b])
        for a in others
    )
