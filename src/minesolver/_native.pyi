"""Typed stubs of the native core (built from the Rust crate in ``native/``).

Layer 0: a leaf that knows no Python module. Only the typed wrappers of layers 4, 7 and 8
call it (:mod:`minesolver.engines.exact`, :mod:`minesolver.strategy.native`,
:mod:`minesolver.simulate.native`, the screenshot reader's kernels in
:mod:`minesolver.vision.templates` and :mod:`minesolver.vision.cells`).
``mypy.stubtest minesolver._native`` checks this file against the built module.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal, final

__all__ = [
    "MAX_BOX",
    "BestSettings",
    "Book",
    "BookEntry",
    "ComponentCount",
    "DeadlineExceeded",
    "ExactResult",
    "Inconsistent",
    "MersenneTwister",
    "Move",
    "NativePanic",
    "NativePlayer",
    "PlayedGame",
    "Reason",
    "Stuck",
    "TooLarge",
    "WhatIf",
    "WhatIfs",
    "_panic_for_test",
    "analyze",
    "book_layout_count",
    "book_layout_seed",
    "book_rollouts",
    "box_means",
    "count",
    "edges",
    "integral",
    "nearest",
    "play_batch",
    "random_layout",
    "structure",
    "what_ifs",
]

MAX_BOX: int
"""The largest box (cells sharing their equations) :func:`count` accepts."""

class Inconsistent(ValueError):
    """No mine layout explains the position; ``kind``, ``cells`` (indices) and
    ``numbers`` say why, as the reference's first failing check (``kind`` ``None`` when
    not known): see ``native/src/explain.rs`` for each kind's cells and numbers."""

    kind: str | None
    cells: list[int]
    numbers: list[int]

class DeadlineExceeded(RuntimeError):
    """The native work passed its deadline."""

class TooLarge(RuntimeError):
    """The count would hold more polynomial terms than the core allows (memory)."""

class NativePanic(RuntimeError):
    """A bug in the native core (a Rust panic, caught; an overflow no big-integer path
    absorbed)."""

class Stuck(RuntimeError):
    """A round of a native player's moves changed nothing."""

@final
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
    def lowest(self) -> Fraction | None:
        """The lowest probability below 1 (0 when a cell is certainly safe); ``None``
        when every unknown cell is a certain mine."""

@final
class WhatIf:
    """One digit a cell can show and the analysis after it shows it."""

    @property
    def digit(self) -> int: ...
    @property
    def analysis(self) -> ExactResult: ...

@final
class WhatIfs:
    """The analysis of a position (``parent``) and, for each cell asked, the digits it
    can show by increasing digit (``outcomes``; none for a certain mine)."""

    @property
    def parent(self) -> ExactResult: ...
    @property
    def outcomes(self) -> list[list[WhatIf]]: ...

@final
class ComponentCount:
    """One component's count: ``layouts[k]`` layouts with ``k`` mines, and
    ``box_mines[b][k]`` the mines of box ``b`` summed over them."""

    @property
    def layouts(self) -> list[int]: ...
    @property
    def box_mines(self) -> list[list[int]]: ...

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
) -> WhatIfs:
    """The analysis of a raw position and, for each of ``cells`` (hidden cells by index),
    every digit it can show with the analysis after it (none for a certain mine)."""

def count(
    sizes: Sequence[int],
    constraints: Sequence[tuple[Sequence[int], int]],
    deadline_seconds: float | None = None,
) -> ComponentCount:
    """One component's layouts by mine number and per-box mine counts."""

def _panic_for_test() -> None: ...

# -- the game, the players and the simulator ---------------------------------------------

@final
class MersenneTwister:
    """Python's ``random.Random`` natively: ``MersenneTwister(abs(seed))`` draws as
    ``random.Random(seed)`` does."""

    def __new__(cls, seed: int) -> MersenneTwister: ...
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

@final
class BestSettings:
    """``best``'s settings by name (those of ``minesolver.strategy.best.Options`` but
    ``latent_blocks``); the fractions are anything with ``numerator`` and
    ``denominator`` (a ``Fraction``, an ``int``)."""

    def __new__(
        cls,
        *,
        fifty: bool,
        dead: bool,
        dominance: bool,
        second: bool,
        margin: Fraction | int,
        max_candidates: int,
        progress_weight: Fraction | int,
        latent: bool,
        latent_weight: Fraction | int,
        latent_missing: int,
        endgame: bool,
        endgame_layouts: int,
        endgame_budget: int,
    ) -> BestSettings: ...
    @property
    def fifty(self) -> bool: ...
    @property
    def dead(self) -> bool: ...
    @property
    def dominance(self) -> bool: ...
    @property
    def second(self) -> bool: ...
    @property
    def margin(self) -> Fraction: ...
    @property
    def max_candidates(self) -> int: ...
    @property
    def progress_weight(self) -> Fraction: ...
    @property
    def latent(self) -> bool: ...
    @property
    def latent_weight(self) -> Fraction: ...
    @property
    def latent_missing(self) -> int: ...
    @property
    def endgame(self) -> bool: ...
    @property
    def endgame_layouts(self) -> int: ...
    @property
    def endgame_budget(self) -> int: ...

@final
class Reason:
    """Why a native player guessed: each ``kind`` has its fields (another kind's field
    raises ``AttributeError``): ``lowest`` (probability, tied), ``pseq`` (probability,
    tied, progress, expected, entropy), ``endgame`` (probability, wins, layouts),
    ``fifty-fifty`` (probability 1/2, other: the other cell's index), ``safety``
    (probability, score, progress, second, weighed, latent_weight) and ``rollout``
    (probability, wins, rollouts, best_wins, best_rollouts)."""

    @property
    def kind(
        self,
    ) -> Literal["lowest", "pseq", "endgame", "fifty-fifty", "safety", "rollout"]: ...
    @property
    def probability(self) -> Fraction: ...
    @property
    def tied(self) -> int: ...
    @property
    def progress(self) -> Fraction: ...
    @property
    def expected(self) -> Fraction: ...
    @property
    def entropy(self) -> float: ...
    @property
    def wins(self) -> int: ...
    @property
    def rollouts(self) -> int: ...
    @property
    def best_wins(self) -> int: ...
    @property
    def best_rollouts(self) -> int: ...
    @property
    def layouts(self) -> int: ...
    @property
    def other(self) -> int: ...
    @property
    def score(self) -> Fraction: ...
    @property
    def second(self) -> bool: ...
    @property
    def weighed(self) -> int: ...
    @property
    def latent_weight(self) -> Fraction: ...

@final
class Move:
    """A move a native player names: its kind, the cell by index, whether it is a
    guess, and why (``None`` for a certain move, and in a batch's trace)."""

    @property
    def kind(self) -> Literal["open", "flag", "unflag", "chord"]: ...
    @property
    def cell(self) -> int: ...
    @property
    def guess(self) -> bool: ...
    @property
    def reason(self) -> Reason | None: ...

@final
class PlayedGame:
    """One game of :func:`play_batch`: won, the guesses, the player's seconds (timed in
    the core) and, traced, its moves."""

    @property
    def won(self) -> bool: ...
    @property
    def guesses(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def moves(self) -> list[Move]: ...

@final
class NativePlayer:
    """A native ``greedy``, ``pseq``, ``best`` or ``search`` (``search:field=value;...``)
    with its generator in a ``Random``'s state."""

    def __new__(
        cls,
        name: str,
        compensated_sum: bool = False,
        best: BestSettings | None = None,
        book: Book | None = None,
    ) -> NativePlayer: ...
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
    ) -> list[Move]: ...

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
    best: BestSettings | None = None,
    book: Book | None = None,
) -> list[PlayedGame]:
    """A batch of games natively, the GIL released."""

@final
class BookEntry:
    """One position of ``search``'s opening book (its cells as raw bytes) and its move
    (a cell index), with the rollouts that chose it."""

    def __new__(
        cls,
        *,
        width: int,
        height: int,
        mines: int,
        raw: Sequence[int],
        cell: int,
        wins: int,
        rollouts: int,
        best_wins: int,
        best_rollouts: int,
    ) -> BookEntry: ...
    @property
    def cell(self) -> int: ...

@final
class Book:
    """``search``'s opening book, as the native players take it."""

    def __new__(cls, entries: Sequence[BookEntry]) -> Book: ...
    def __len__(self) -> int: ...

def book_rollouts(
    raw: Sequence[int],
    width: int,
    height: int,
    mines: int,
    cells: Sequence[int],
    player: str,
    seed: int,
    first: int,
    count: int,
    every: bool = False,
    limit: int = 100_000,
    compensated_sum: bool = False,
    deadline_seconds: float | None = None,
) -> list[list[bool]]:
    """Each cell opened from the position and played out by ``player`` on a range of
    layouts (drawn, or of every layout): per cell, won or lost on each."""

def book_layout_count(
    raw: Sequence[int], width: int, height: int, mines: int, limit: int
) -> int | None:
    """The number of layouts of the position when at most ``limit``."""

def book_layout_seed(seed: int, mines: Sequence[int]) -> int:
    """The rollout player's seed on a layout of a book built from ``seed``."""

def box_means(
    table: Any, width: int, ay: Any, by: Any, ax: Any, bx: Any, ok: Any, out: Any
) -> None:
    """Boxes of an image scaled to 16 x 16 from its running sums (``table``: C-contiguous
    uint32, ``width`` sums of 3 a row), written into ``out`` (float32, boxes x 768):
    Pillow's box filter in its fixed point, to the bit. ``ay``, ``by``, ``ax``, ``bx``:
    int64, boxes x 16; ``ok``: uint8 a box, 0 for a box read as black."""

def nearest(
    cells: Any,
    templates: Any,
    templates_medium: Any,
    templates_coarse: Any,
    cap: float,
    slack: float,
    stop: float,
    out: Any,
) -> None:
    """Each cell's root-mean-square distance to its nearest template, capped at ``cap``,
    written into ``out`` (float32 a cell): the least over all templates, each summed in
    double precision in a fixed order; the medium and coarse vectors (2 x 2 and 4 x 4
    blocks averaged: rows of 192 and 48 values; the cells' are made by the kernel) bound
    it from below (within ``slack``). Once the distances written sum to more than
    ``stop`` (in the cells' order), the cells left get ``cap`` unmeasured. Arrays
    C-contiguous float32, rows of 768 values."""

def edges(pixels: Any, width: int, threshold: int, run: int, cap: int, vx: Any, vy: Any) -> None:
    """The edge maps of an RGB image (``pixels``: C-contiguous uint8, rows of ``width``
    pixels of 3 values) written into ``vx`` (float32, ``height`` x ``width - 1``: each
    pixel's step to the next along its row) and ``vy`` (float32, ``height - 1`` x
    ``width``: to the next down its column), each step the largest of the colours',
    kept where it is over ``threshold`` all along a run of ``run`` or more such steps
    (down the columns for ``vx``, along the rows for ``vy``), at most ``cap``; 0
    elsewhere."""

def integral(pixels: Any, width: int, out: Any) -> None:
    """The running sums of an RGB image (``pixels``: C-contiguous uint8, rows of ``width``
    pixels of 3 values) written into ``out`` (C-contiguous uint32, one more row and column
    than the image, 3 values each, the first row and column zero): each entry the sum of
    the pixels above and left of it per colour, modulo 2**32."""

def structure(cells: Any, out: Any) -> None:
    """How far each cell (C-contiguous float32, rows of 768 values) is from a flat patch
    of its own mean colour, written into ``out`` (float32 a cell): the root-mean-square of
    its values less their colour's mean, summed in double precision in a fixed order."""
