"""Typed stubs of the native core (built from the Rust crate in ``native/``).

Layer 0: a leaf that knows no Python module. Only the typed wrappers of layers 4, 7 and 8
call it (:mod:`minesolver.engines.native`).
"""

from collections.abc import Sequence

class Inconsistent(ValueError):
    """No mine layout explains the position."""

class DeadlineExceeded(RuntimeError):
    """The native work passed its deadline."""

class TooLarge(RuntimeError):
    """The count would hold more polynomial terms than the core allows (memory)."""

class NativePanic(RuntimeError):
    """A bug in the native core (a Rust panic, caught)."""

class ExactResult:
    """The exact analysis of a position: cell ``i`` has level ``cell_levels()[i]`` (a
    little-endian ``u32``; ``0xFFFFFFFF`` for a revealed cell or trusted flag): level 0
    is probability 0, level 1 probability 1, ``interior_level`` is
    ``interior_weight / (total * interior)``, any other level ``weight(level) / total``.
    The layout count is ``total * C(interior, k_lo) // d``."""

    @property
    def total(self) -> int: ...
    @property
    def k_lo(self) -> int: ...
    @property
    def d(self) -> int: ...
    @property
    def interior(self) -> int: ...
    @property
    def interior_weight(self) -> int: ...
    @property
    def interior_level(self) -> int | None: ...
    @property
    def level_count(self) -> int: ...
    def weight(self, level: int) -> int: ...
    def cell_levels(self) -> bytes: ...
    @property
    def safe(self) -> list[int]: ...
    @property
    def mines(self) -> list[int]: ...
    @property
    def layouts(self) -> int:
        """``total * C(interior, k_lo) // d``, computed natively."""
    def lowest(self) -> tuple[int, int] | None:
        """The lowest probability below 1 as ``(numerator, denominator)``, not reduced
        (``(0, 1)`` when a cell is certainly safe); ``None`` when every unknown cell is a
        certain mine."""

def analyze(
    raw: bytes,
    width: int,
    height: int,
    mines: int,
    trust_flags: bool = True,
    deadline_seconds: float | None = None,
) -> ExactResult:
    """Analyse a raw position (a byte per cell: digit 0-8, 254 flag, 255 hidden)."""

def what_ifs(
    raw: bytes,
    width: int,
    height: int,
    mines: int,
    cells: Sequence[int],
    trust_flags: bool = True,
    deadline_seconds: float | None = None,
) -> tuple[ExactResult, list[list[tuple[int, ExactResult]]]]:
    """The analysis of a raw position and, for each of ``cells`` (hidden cells by index),
    ``(digit, analysis)`` for every digit it can show (none for a certain mine)."""

def count(
    sizes: Sequence[int],
    constraints: Sequence[tuple[Sequence[int], int]],
    deadline_seconds: float | None = None,
) -> tuple[list[int], list[list[int]]]:
    """One component's layouts by mine number and per-box mine counts."""

def _panic_for_test() -> None: ...

# -- the game, the players and the simulator ---------------------------------------------

class Stuck(RuntimeError):
    """A round of a native player's moves changed nothing."""

class MersenneTwister:
    """Python's ``random.Random`` natively: ``MersenneTwister(abs(seed))`` draws as
    ``random.Random(seed)`` does."""

    def __init__(self, seed: int) -> None: ...
    @staticmethod
    def from_state(state: Sequence[int]) -> MersenneTwister: ...
    def state(self) -> list[int]: ...
    def getrandbits(self, k: int) -> int: ...
    def randbelow(self, n: int) -> int: ...
    def random(self) -> float: ...
    def sample(self, n: int, k: int) -> list[int]: ...

def random_layout(
    width: int, height: int, mines: int, start: int, first_click: str, seed: int
) -> list[int]:
    """The sorted mine indices ``random_layout`` draws from ``random.Random(seed)``."""

_Reason = tuple[int, int, int, int, int, int, int, int, float, int, int]
_Best = tuple[
    bool,
    bool,
    bool,
    bool,
    tuple[int, int],
    int,
    tuple[int, int],
    bool,
    tuple[int, int],
    int,
    tuple[bool, int, int],
]

class NativePlayer:
    """A native ``greedy`` or ``pseq`` with its generator in a ``Random``'s state."""

    def __init__(
        self,
        name: str,
        compensated_sum: bool = False,
        best: _Best | None = None,
    ) -> None: ...
    def reset(self) -> None: ...
    def set_state(self, state: Sequence[int]) -> None: ...
    def state(self) -> list[int]: ...
    def next_moves(
        self,
        raw: bytes,
        width: int,
        height: int,
        mines: int,
        deadline_seconds: float | None = None,
    ) -> list[tuple[str, int, bool, _Reason | None]]: ...

def play_batch(
    player: str,
    width: int,
    height: int,
    mines: int,
    start: int,
    first_click: str,
    player_seeds: Sequence[int],
    layout_seeds: Sequence[int] | None = None,
    layouts: Sequence[Sequence[int]] | None = None,
    trace: bool = False,
    compensated_sum: bool = False,
    deadline_seconds: float | None = None,
    best: _Best | None = None,
) -> list[tuple[bool, int, float, list[tuple[str, int, bool]]]]:
    """A batch of games natively: per game ``(won, guesses, seconds, moves)``."""
