"""The Minesweeper position: an immutable value object, and its text format.

A :class:`Position` is what a player sees: the board's size, the total number of mines
(or ``None`` when unknown), and each cell hidden, flagged or a revealed digit 0-8.
It knows nothing of engines or games: analysis stands on it, never the reverse.

Coordinates are ``(x, y)``: x the column from the left, y the row from the top, 0-based.

The text format is the JSMinesweeper one::

    30x16x99            optional header: columns x rows x total mines
    HHHH1F2HHH...       one line per row: H hidden, F flag, 0-8 revealed digit

``.`` and ``?`` are read as hidden; blank lines before and after are ignored.
Reading is linear in the text's length (at most :data:`MAX_TEXT` characters).
Malformed text raises :class:`PositionFormatError` naming line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from struct import Struct

from minesolver.errors import MinesolverError

__all__ = [
    "FLAG",
    "HIDDEN",
    "MAX_CELLS",
    "MAX_SIDE",
    "MAX_TEXT",
    "Cell",
    "InconsistentPosition",
    "Position",
    "PositionFormatError",
    "parse_dimensions",
]

Cell = tuple[int, int]
"""A cell's coordinates ``(x, y)``."""

HIDDEN = -1
"""Cell value of a hidden (unopened, unflagged) cell."""
FLAG = -2
"""Cell value of a flagged cell."""

MAX_SIDE = 1000
"""Largest accepted width or height."""
MAX_CELLS = 250_000
"""Largest accepted number of cells (a 500x500 board)."""
MAX_TEXT = 4_000_000
"""Largest accepted position text in characters: sixteen times the largest board's text
(rows, line breaks and a header), room for spaces and blank lines around it."""

_CHAR_VALUE = {"H": HIDDEN, ".": HIDDEN, "?": HIDDEN, "F": FLAG}
_CHAR_VALUE.update({str(d): d for d in range(9)})
_CHAR_VALUE.update({"h": HIDDEN, "f": FLAG})
_VALUE_CHAR = {HIDDEN: "H", FLAG: "F"}
_VALUE_CHAR.update({d: str(d) for d in range(9)})
_VALID_VALUES = frozenset(_VALUE_CHAR)
_LOW_BYTE = (255).__and__  # a digit stays itself; FLAG -> 254, HIDDEN -> 255
_TEXT_RAW = bytes(
    {ord(c): v & 255 for c, v in _CHAR_VALUE.items()}.get(i, 253) for i in range(256)
)  # position text (already validated) -> the bytes of Position.raw()
_DIGIT_BYTES = tuple(bytes((d,)) for d in range(9))
_HEADER = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*x\s*(\d+)\s*$", re.IGNORECASE)
_MAX_DIGITS = 9  # longer numbers are refused before int() (which has a digit limit)
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""The line boundaries of :meth:`str.splitlines`."""
_RARE_BREAK = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""The line boundaries other than ``\n`` and ``\r``: their presence sends a text to the
general (regex) splitting."""


@lru_cache(maxsize=16)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each row-major cell index of a ``width`` x ``height`` board, its neighbours."""
    table: list[tuple[int, ...]] = []
    for y in range(height):
        ys = range(max(0, y - 1), min(height, y + 2))
        for x in range(width):
            xs = range(max(0, x - 1), min(width, x + 2))
            table.append(tuple(yy * width + xx for yy in ys for xx in xs if yy != y or xx != x))
    return tuple(table)


@lru_cache(maxsize=16)
def _cell_values(cells: int) -> Callable[[bytes], tuple[int, ...]]:
    """Raw bytes of ``cells`` cells -> the cell values (the bytes read as signed: 254 ->
    FLAG, 255 -> HIDDEN), one C call making the tuple."""
    return Struct(f"{cells}b").unpack


@lru_cache(maxsize=16)
def coordinate_table(width: int, height: int) -> tuple[Cell, ...]:
    """For each row-major cell index of a ``width`` x ``height`` board, its ``(x, y)``."""
    return tuple((x, y) for y in range(height) for x in range(width))


class PositionFormatError(MinesolverError, ValueError):
    """Text that is not a position; the message names line and column.

    :attr:`line` and :attr:`column` (1-based) give the place as numbers, for a face that
    marks it beside the text; either is ``None`` when the error names no line (a cell or a
    setting) or no column. They are set where the error is raised, never read back from
    the message.

    >>> try:
    ...     Position.from_text("2x2x1\\nHH\\nH9")
    ... except PositionFormatError as e:
    ...     print(e.line, e.column, e)
    3 2 line 3, column 2: digit 9 is more than the 8 neighbours a cell has
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        """The line of the text the error is on, if it names one."""
        self.column = column
        """The column on that line, if the error names one."""


class InconsistentPosition(MinesolverError, ValueError):
    """A position that no mine layout explains; the message names the first cell that fails."""


def _at(line: int, column: int | None, why: str) -> PositionFormatError:
    """The error ``line L[, column C]: why``, with its ``line`` and ``column`` set.

    >>> e = _at(3, 2, "bad cell")
    >>> str(e), e.line, e.column
    ('line 3, column 2: bad cell', 3, 2)
    """
    where = f"line {line}" if column is None else f"line {line}, column {column}"
    return PositionFormatError(f"{where}: {why}", line=line, column=column)


def _check_size(width: int, height: int, where: str, line: int | None = None) -> None:
    """:class:`PositionFormatError` for a size outside the limits, naming ``where`` (the
    error's :attr:`~PositionFormatError.line` is ``line``, when ``where`` is one)."""
    if width < 1 or height < 1:
        raise PositionFormatError(
            f"{where}: board must be at least 1x1, got {width}x{height}", line=line
        )
    if width > MAX_SIDE or height > MAX_SIDE:
        raise PositionFormatError(
            f"{where}: board {width}x{height} exceeds the limit of {MAX_SIDE} per side",
            line=line,
        )
    if width * height > MAX_CELLS:
        raise PositionFormatError(
            f"{where}: board {width}x{height} has {width * height} cells, "
            f"more than the limit of {MAX_CELLS}",
            line=line,
        )


def parse_dimensions(text: str, where: str = "size") -> tuple[int, int, int] | None:
    """``WIDTHxHEIGHTxMINES`` as three ints, or ``None`` when ``text`` has another shape.

    The one grammar of a board's size, for position headers and game levels alike: the
    letter ``x`` in either case, spaces around the numbers allowed. A size outside the
    limits (:data:`MAX_SIDE` a side, :data:`MAX_CELLS` cells, more mines than cells, a
    number of more than 9 digits) raises :class:`PositionFormatError` naming ``where``.

    >>> parse_dimensions("30x16x99")
    (30, 16, 99)
    >>> parse_dimensions("expert") is None
    True
    """
    return _dimensions(text, where)


def _dimensions(text: str, where: str, line: int | None = None) -> tuple[int, int, int] | None:
    """:func:`parse_dimensions`, its errors on ``line`` when ``where`` names one."""
    match = _HEADER.match(text)
    if match is None:
        return None
    groups = match.groups()
    for number in groups:
        if len(number.lstrip("0")) > _MAX_DIGITS:
            raise PositionFormatError(
                f"{where}: number {number[:12]}... has {len(number)} digits: the board "
                f"would exceed the limit of {MAX_SIDE} per side",
                line=line,
            )
    width, height, mines = map(int, groups)
    _check_size(width, height, where, line)
    if mines > width * height:
        raise PositionFormatError(
            f"{where}: {mines} mines do not fit a {width}x{height} board", line=line
        )
    return width, height, mines


class _Lines:
    """The lines of a position text from its first to its last non-blank one, stripped.

    ``first`` is the first of them as ``(line number, text)``, ``rest`` an iterator over
    the others, ``count`` how many there are in all. O(length of the text), lazily: a
    million blank lines cost a scan, not a million strings.
    """

    def __init__(self, text: str) -> None:
        content = text.lstrip()
        if not content:
            raise _at(1, None, "empty position text")
        skipped = len(text) - len(content)
        first_no = 1 + sum(1 for _ in _BREAK.finditer(text, 0, skipped))
        body = content.rstrip()
        lines = self._few_lines(body)
        if lines is not None:  # the usual text: split by the C method, no regex
            self.count = len(lines)
            self.rest: Iterator[tuple[int, str]] = (
                (first_no + k, line.strip()) for k, line in enumerate(lines)
            )
        else:
            self.count = 1 + sum(1 for _ in _BREAK.finditer(body))
            self.rest = self._split(body, first_no)
        self.first = next(self.rest)

    @staticmethod
    def _few_lines(body: str) -> list[str] | None:
        """``body.splitlines()`` when it has only ``\n``/``\r`` breaks and at most one
        line more than a board can have rows (so the list stays small), else ``None``.
        O(length): three counts and one search, all in C."""
        breaks = body.count("\n") + body.count("\r") - body.count("\r\n")
        if breaks > MAX_SIDE + 1 or _RARE_BREAK.search(body) is not None:
            return None
        return body.splitlines()

    @staticmethod
    def _split(body: str, line_no: int) -> Iterator[tuple[int, str]]:
        start = 0
        for match in _BREAK.finditer(body):
            yield line_no, body[start : match.start()].strip()
            start = match.end()
            line_no += 1
        yield line_no, body[start:].strip()


def _check_rows(rows: list[str], numbers: list[int], width: int) -> None:
    """Raise the first row's error, in reading order (the error path only)."""
    for line_no, row in zip(numbers, rows, strict=True):
        _row_values(line_no, row, width)


def _row_values(line_no: int, row: str, width: int) -> list[int]:
    """The cell values of one row of the text; :class:`PositionFormatError` naming the
    line and column of a row of the wrong length or of an unknown character."""
    if not row:
        raise _at(line_no, None, "empty row inside the board")
    if len(row) != width:
        raise _at(
            line_no,
            min(len(row), width) + 1,
            f"row has {len(row)} cells, the first row has {width}",
        )
    values = list(map(_CHAR_VALUE.get, row))
    if None in values:
        col = values.index(None)
        ch = row[col]
        if ch == "9":
            why = "digit 9 is more than the 8 neighbours a cell has"
        else:
            why = f"unknown character {ch!r} (expected H, F, 0-8, '.' or '?')"
        raise _at(line_no, col + 1, why)
    return values  # type: ignore[return-value]


def _plain_text(text: str) -> tuple[int, int, int | None, bytes] | None:
    """``(width, height, mines, raw)`` of a *plain* text, one :meth:`Position.to_text`
    writes (ASCII rows and an optional header, ``\n`` breaks, no spaces, blank lines only
    at the ends) and that is a valid position; ``None`` for any other text, which the
    general reader then reads (and names the error of). Any other byte fails a check:
    the header's numbers must be digits, and a row's bytes other than the cells' map to
    253. Every check is a C call over the text: O(length), a few passes.
    """
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    body = data.strip(b"\n")
    if body.count(b"\n") > MAX_SIDE:  # more lines than a board has: no list of them
        return None
    lines = body.split(b"\n")
    first = lines[0]
    mines = None
    rows = lines
    if b"x" in first or b"X" in first:
        numbers = first.lower().split(b"x")
        if len(numbers) != 3 or not all(n.isdigit() and len(n) <= _MAX_DIGITS for n in numbers):
            return None
        hw, hh, mines = map(int, numbers)
        rows = lines[1:]
        if not rows:
            return None
    width = len(rows[0])
    height = len(rows)
    if not (0 < width <= MAX_SIDE and height <= MAX_SIDE and width * height <= MAX_CELLS):
        return None
    if mines is not None and ((hw, hh) != (width, height) or mines > width * height):
        return None
    joined = b"".join(rows)
    if len(joined) != width * height or max(map(len, rows)) != width:
        return None  # rows of different lengths (no row is longer, so all are as long)
    raw = joined.translate(_TEXT_RAW)
    if 253 in raw:  # a 9, or an x in a row
        return None
    return width, height, mines, raw


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable Minesweeper position.

    ``cells`` holds ``width * height`` values in row-major order: :data:`HIDDEN`,
    :data:`FLAG` or a digit 0-8. ``mines`` is the total number of mines on the board
    (flagged ones included), or ``None`` when unknown.
    """

    width: int
    height: int
    cells: tuple[int, ...]
    mines: int | None = None
    _raw: bytes | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        mines = self.mines
        if (
            type(self.width) is not int
            or type(self.height) is not int
            or (mines is not None and type(mines) is not int)
        ):
            for name in ("width", "height", "mines"):
                value = getattr(self, name)
                if value is not None and type(value) is not int:
                    raise TypeError(f"Position.{name} must be an int, got {value!r}")
        _check_size(self.width, self.height, "position")
        if len(self.cells) != self.width * self.height:
            raise PositionFormatError(
                f"position: {len(self.cells)} cells given for a "
                f"{self.width}x{self.height} board ({self.width * self.height} expected)"
            )
        if not _VALID_VALUES.issuperset(self.cells):
            for i, value in enumerate(self.cells):
                if value not in _VALID_VALUES:
                    x, y = i % self.width, i // self.width
                    raise PositionFormatError(f"cell ({x}, {y}): invalid value {value!r}")
        if self.mines is not None and not 0 <= self.mines <= self.width * self.height:
            raise PositionFormatError(
                f"position: {self.mines} mines do not fit a {self.width}x{self.height} board"
            )

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read the JSMinesweeper text format (see the module docstring).

        Raises :class:`PositionFormatError` naming the line (1-based) and column (1-based)
        of the first problem. A leading byte-order mark (files saved by some Windows
        editors) is skipped. A text of more than :data:`MAX_TEXT` characters is refused
        before any other work. Cost: O(length of the text) time; beyond the text itself,
        memory for one copy of it and the cells, never a string per blank line.
        """
        if not isinstance(text, str):
            raise TypeError(f"Position.from_text() takes a str, got {type(text).__name__}")
        if cls is Position and len(text) <= MAX_TEXT:  # the usual text, in a few C calls
            plain = _plain_text(text)
            if plain is not None:
                width, height, mines, raw = plain
                return Position._trusted(
                    width, height, _cell_values(width * height)(raw), mines, raw
                )
        text = text.removeprefix("\ufeff")
        if len(text) > MAX_TEXT:
            raise PositionFormatError(
                f"character {MAX_TEXT + 1}: position text of {len(text)} characters exceeds "
                f"the limit of {MAX_TEXT}"
            )
        lines = _Lines(text)
        first_no, first = lines.first
        header = _dimensions(first, f"line {first_no}", first_no)
        row_count = lines.count
        if header is not None:
            after = next(lines.rest, None)
            if after is None:
                raise _at(2, None, "header but no rows")
            first_no, first = after
            row_count -= 1
        elif "x" in first.lower() and first[0].isdigit():
            raise _at(first_no, None, f"malformed header {first!r} (expected WIDTHxHEIGHTxMINES)")
        width = len(first)
        if row_count > MAX_SIDE or width > MAX_SIDE:
            _check_size(width, row_count, f"line {first_no}", first_no)
        rows, numbers = [first], [first_no]
        for line_no, row in lines.rest:
            rows.append(row)
            numbers.append(line_no)
            if len(row) != width:  # the first error in reading order, then this one
                _check_rows(rows, numbers, width)
        joined = "".join(rows)
        try:  # every cell in one pass, in C: a byte per cell, 253 for a wrong character
            raw = joined.encode("ascii").translate(_TEXT_RAW)
        except UnicodeEncodeError:
            raw = b"\xfd"
        if 253 in raw:
            _check_rows(rows, numbers, width)
        height = len(rows)
        _check_size(width, height, f"line {first_no}", first_no)
        mines = None
        if header is not None:
            hw, hh, mines = header
            if (hw, hh) != (width, height):
                raise _at(
                    first_no - 1,
                    None,
                    f"header says {hw}x{hh} but the rows make a {width}x{height} board",
                )
        # the raw bytes read as signed bytes are the cell values (254 -> FLAG, 255 ->
        # HIDDEN); sizes, values and the total are checked above
        cells = _cell_values(len(raw))(raw)
        if cls is not Position:  # a subclass may check more in its __post_init__
            position = cls(width, height, cells, mines)
            object.__setattr__(position, "_raw", raw)
            return position
        return Position._trusted(width, height, cells, mines, raw)

    @classmethod
    def _trusted(
        cls,
        width: int,
        height: int,
        cells: tuple[int, ...],
        mines: int | None,
        raw: bytes | None = None,
    ) -> Position:
        """A position from values already checked (sizes in bounds, valid cell values,
        ``mines`` fitting the board), without checking them again: the fast path of the
        text reader and of what-ifs (a child is its checked parent with one more digit).
        ``raw``, when given, must be :meth:`raw` of these cells. O(1)."""
        self = object.__new__(cls)
        put = object.__setattr__
        put(self, "width", width)
        put(self, "height", height)
        put(self, "cells", cells)
        put(self, "mines", mines)
        put(self, "_raw", raw)
        return self

    def with_digit(self, index: int, digit: int) -> Position:
        """The position with the unknown cell at ``index`` showing ``digit`` (0-8): what
        a what-if analyses. Equal to ``replace({coords(index): digit})``, without
        checking the other cells again. O(cells) copying, in C."""
        if not 0 <= digit <= 8:
            raise ValueError(f"digit {digit} is not 0-8")
        if not 0 <= index < len(self.cells):
            raise IndexError(f"cell index {index} is off the {self.width}x{self.height} board")
        cells = self.cells
        raw = self._raw
        return Position._trusted(
            self.width,
            self.height,
            cells[:index] + (digit,) + cells[index + 1 :],  # noqa: RUF005 (faster)
            self.mines,
            None if raw is None else raw[:index] + _DIGIT_BYTES[digit] + raw[index + 1 :],
        )

    @classmethod
    def empty(cls, width: int, height: int, mines: int | None = None) -> Position:
        """A position with every cell hidden."""
        _check_size(width, height, "position")
        return cls(width, height, (HIDDEN,) * (width * height), mines)

    def raw(self) -> bytes:
        """The cells as one byte each: a digit is itself, a flag 254, a hidden cell 255.

        Computed once per position; the analysis derives every board-wide mask from it
        with ``bytes.translate`` instead of looping over the cells in Python.
        """
        raw = self._raw
        if raw is None:
            raw = bytes(map(_LOW_BYTE, self.cells))
            object.__setattr__(self, "_raw", raw)
        return raw

    def to_text(self, header: bool = True) -> str:
        """Write the JSMinesweeper text format; ``from_text(p.to_text()) == p``.

        The header is written when ``header`` is true and the total is known.
        """
        rows = [
            "".join(_VALUE_CHAR[v] for v in self.cells[y * self.width : (y + 1) * self.width])
            for y in range(self.height)
        ]
        if header and self.mines is not None:
            rows.insert(0, f"{self.width}x{self.height}x{self.mines}")
        return "\n".join(rows) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        """Through the text format, as ``chess.Board`` goes through FEN (a summary for
        boards of more than 4,096 cells).

        >>> Position.from_text("3x1x1\\n1HH")
        Position.from_text('3x1x1\\n1HH\\n')
        """
        if self.width * self.height > 4096:
            size = f"{self.width}x{self.height}" + (
                f"x{self.mines}" if self.mines is not None else ""
            )
            shown = sum(1 for v in self.cells if v >= 0)
            return f"<Position {size}: {shown} revealed, {self.flags} flags>"
        return f"Position.from_text({self.to_text()!r})"

    def with_mines(self, mines: int | None) -> Position:
        """The same cells with another total mine count."""
        return Position(self.width, self.height, self.cells, mines)

    def replace(self, changes: dict[Cell, int]) -> Position:
        """The same position with some cells set to other values."""
        cells = list(self.cells)
        for (x, y), value in changes.items():
            cells[self.index((x, y))] = value
        return Position(self.width, self.height, tuple(cells), self.mines)

    def without_flags(self) -> Position:
        """The same position with every flag a hidden cell: what flags not trusted are to
        an analysis (a player's flags may be wrong). O(cells).

        >>> Position.from_text("3x1x1\\n1FH").without_flags().to_text(header=False)
        '1HH\\n'
        """
        return Position(
            self.width,
            self.height,
            tuple(HIDDEN if v == FLAG else v for v in self.cells),
            self.mines,
        )

    # -- access ---------------------------------------------------------------------------

    def index(self, cell: Cell) -> int:
        """Row-major index of ``cell``; raises ``IndexError`` when off the board."""
        x, y = cell
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"cell ({x}, {y}) is off the {self.width}x{self.height} board")
        return y * self.width + x

    def coords(self, index: int) -> Cell:
        """Coordinates ``(x, y)`` of a row-major index."""
        return index % self.width, index // self.width

    def __getitem__(self, cell: Cell) -> int:
        return self.cells[self.index(cell)]

    def __iter__(self) -> Iterator[Cell]:
        for y in range(self.height):
            for x in range(self.width):
                yield x, y

    @property
    def flags(self) -> int:
        """Number of flagged cells."""
        return self.cells.count(FLAG)

    def neighbour_indices(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, the indices of its up to 8 neighbours (shared per size)."""
        return neighbour_table(self.width, self.height)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The up to 8 cells around ``cell``."""
        return [self.coords(i) for i in self.neighbour_indices()[self.index(cell)]]
