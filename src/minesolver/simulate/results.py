"""Results and statistics of a run: per player, paired between players, as JSON.

Each game's :class:`GameRecord` holds every player's win, guesses and seconds;
:func:`summarise` turns the records into a :class:`BenchResult`: win rates with their 95%
Wilson interval, and for each pair of players the games only one of them won with
McNemar's exact p-value (:mod:`minesolver.simulate.stats`). O(games x players^2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minesolver.simulate.config import Setup
from minesolver.simulate.stats import mcnemar_exact, wilson_interval

__all__ = ["BenchResult", "GameRecord", "PairedResult", "StrategyResult", "summarise"]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game played by every player: wins, guesses and seconds, per player in order.

    ``draws`` is the number of layouts drawn to find this one (no-guess boards), else 1.
    """

    index: int
    wins: tuple[bool, ...]
    guesses: tuple[int, ...]
    seconds: tuple[float, ...]
    draws: int = 1


@dataclass(frozen=True, slots=True)
class StrategyResult:
    """One player's totals over a run."""

    name: str
    games: int
    wins: int
    guesses: int
    seconds: float
    games_per_second: float
    lost_on_start: int = 0
    """Games whose layout (a given one) has a mine under the first click: lost on it,
    before the player made a move; the speed figures leave them out."""

    @property
    def played(self) -> int:
        """The games in which the player moved: all but those lost on the first click."""
        return self.games - self.lost_on_start

    @property
    def win_rate(self) -> float:
        """Wins per game (0 for no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def guesses_per_game(self) -> float:
        """Mean number of guesses per game."""
        return self.guesses / self.games if self.games else 0.0

    @property
    def games_per_second_per_core(self) -> float:
        """Games per second of the player's own time, i.e. on one core, over the games it
        played (0 when it played none)."""
        return self.played / self.seconds if self.seconds > 0 and self.played else 0.0


@dataclass(frozen=True, slots=True)
class PairedResult:
    """Two players on the same layouts: games only ``a`` won, only ``b`` won, McNemar p."""

    a: str
    b: str
    a_only: int
    b_only: int
    p_value: float


@dataclass(frozen=True, slots=True)
class BenchResult:
    """A run's results: per player, paired differences, and how it ran."""

    setup: Setup
    level_name: str
    games: int
    results: dict[str, StrategyResult]
    paired: list[PairedResult]
    records: list[GameRecord] = field(repr=False)
    wall_seconds: float
    workers: int
    draws: int
    given_layouts: bool = False
    """Whether the games were played on given layouts (a file's) rather than drawn under
    the first-click rule, which then does not apply."""
    lost_on_start: int = 0
    """Given layouts with a mine under the first click: games lost on it."""

    @property
    def rejection_rate(self) -> float:
        """Share of drawn layouts rejected by the no-guess generator (0 otherwise)."""
        return 1 - self.games / self.draws if self.draws else 0.0

    def player_json(self, name: str) -> dict[str, object]:
        """The JSON object of one player (the ``--json`` output of a single-player run)."""
        r = self.results[name]
        lo, hi = r.ci95
        out: dict[str, object] = {
            "level": self.level_name,
            "player": name,
            "games": r.games,
            "wins": r.wins,
            "win_rate": r.win_rate,
            "ci95": [lo, hi],
            "guesses_per_game": r.guesses_per_game,
            # no speed when the player made no move (every game lost on the first click)
            "games_per_second": r.games_per_second if r.played else None,
            "games_per_second_per_core": r.games_per_second_per_core if r.played else None,
            # given layouts: no first-click rule moved a mine; they are played as given
            "first_click": "given" if self.given_layouts else self.setup.rule,
            "start": list(self.setup.start),
            "seed": self.setup.seed,
            "workers": self.workers,
            "lost_on_first_click": self.lost_on_start,
        }
        if self.setup.no_guess:
            out["no_guess_rejection_rate"] = self.rejection_rate
        return out

    def to_json(self) -> dict[str, object]:
        """One player: its object; several: ``{"results": {...}, "paired": [...]}``."""
        names = list(self.results)
        if len(names) == 1:
            return self.player_json(names[0])
        return {
            "results": {name: self.player_json(name) for name in names},
            "paired": [
                {"a": p.a, "b": p.b, "a_only": p.a_only, "b_only": p.b_only, "p_value": p.p_value}
                for p in self.paired
            ],
        }


def summarise(
    setup: Setup,
    level_name: str,
    records: list[GameRecord],
    wall_seconds: float,
    workers: int,
    *,
    given_layouts: bool = False,
    lost_on_start: int = 0,
) -> BenchResult:
    """Totals, intervals and paired tests from the games' records (sorted by index).

    ``given_layouts``: the games were played on given layouts, ``lost_on_start`` of them
    with a mine under the first click (lost before any move: the speed figures count the
    other games only)."""
    records = sorted(records, key=lambda r: r.index)
    games = len(records)
    cpu = [sum(r.seconds[s] for r in records) for s in range(len(setup.players))]
    total_cpu = sum(cpu) or 1.0
    results = {}
    for s, name in enumerate(setup.players):
        share = wall_seconds * cpu[s] / total_cpu
        results[name] = StrategyResult(
            name=name,
            games=games,
            wins=sum(r.wins[s] for r in records),
            guesses=sum(r.guesses[s] for r in records),
            seconds=cpu[s],
            games_per_second=(games - lost_on_start) / share if share > 0 else 0.0,
            lost_on_start=lost_on_start,
        )
    paired = _paired(setup.players, records)
    return BenchResult(
        setup=setup,
        level_name=level_name,
        games=games,
        results=results,
        paired=paired,
        records=records,
        wall_seconds=wall_seconds,
        workers=workers,
        draws=sum(r.draws for r in records),
        given_layouts=given_layouts,
        lost_on_start=lost_on_start,
    )


def _paired(names: tuple[str, ...], records: list[GameRecord]) -> list[PairedResult]:
    """Each pair of players: the games only one of them won, McNemar's exact p-value."""
    paired = []
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            a_only = sum(r.wins[i] and not r.wins[j] for r in records)
            b_only = sum(r.wins[j] and not r.wins[i] for r in records)
            paired.append(PairedResult(a, names[j], a_only, b_only, mcnemar_exact(a_only, b_only)))
    return paired
