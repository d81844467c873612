"""Writing EVF v4 (Metasweeper's open format), and building a replay from a game's moves.

:func:`write_evf` turns any :class:`Replay` into EVF v4 bytes that our reader and
ms-toollib (hence Metasweeper) read back: the header (completed, no question marks,
board, cell size, the game mode, 3BV, time), the strings (the player's name among them),
the mine bitmap, and the mouse events as time and position steps (pauses for steps over
255 ms), with no checksum. The game mode is the only field EVF has for the first-click
rule (:func:`evf_mode`): a replay that knows its rule writes it, so that the file is
graded as the game was, its first click included; one that does not (``mode`` None)
is written in the standard mode, as it always was. :func:`replay_from_moves` makes the
mouse events of a game played through minesolver (open: press and release the left
button on the cell; flag: the right button; chord: both buttons), so a game from
``minesolver play`` or the web app can be saved for Metasweeper.

Cost: O(events + cells).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from minesolver.game import FirstClick, Game, Layout
from minesolver.game.efficiency import board_stats
from minesolver.position import Cell
from minesolver.replay.actions import play_events
from minesolver.replay.record import (
    EVENT_KINDS,
    MODE_CLASSIC_NO_GUESS,
    MODE_NO_RULE,
    MODE_STANDARD,
    MODE_UPK,
    MODE_WIN7,
    EventKind,
    MouseEvent,
    Replay,
    cell_at,
)

__all__ = ["evf_mode", "replay_from_game", "replay_from_moves", "write_evf"]

_CODE = {kind: code for code, kind in enumerate(EVENT_KINDS, start=1)}
_PRESSES: dict[str, tuple[EventKind, ...]] = {
    "open": ("lc", "lr"),
    "flag": ("rc", "rr"),
    "unflag": ("rc", "rr"),
    "chord": ("lc", "rc", "lr", "rr"),
}
_MAX_PAUSE = 65535
_MAX_PIXELS = 32767


def evf_mode(rule: FirstClick, *, no_guess: bool = False, known_layout: bool = False) -> int:
    """The EVF game mode of a game laid under ``rule`` (``no_guess``: a board solved
    without a guess; ``known_layout``: a board given before the game, where no rule
    applies).

    >>> evf_mode("safe"), evf_mode("opening"), evf_mode("none"), evf_mode("safe", no_guess=True)
    (0, 4, 65535, 5)
    """
    if known_layout:
        return MODE_UPK
    if no_guess:
        return MODE_CLASSIC_NO_GUESS
    return {"safe": MODE_STANDARD, "opening": MODE_WIN7, "none": MODE_NO_RULE}[rule]


def write_evf(replay: Replay, *, software: str | None = None) -> bytes:
    """``replay`` as EVF v4 bytes (``software`` overrides its software's name)."""
    out = bytearray()
    out += _header(replay, software)
    out += _bitmap(replay.layout)
    out += (0).to_bytes(2, "big")  # no custom metrics
    out += _events(replay)
    out += b"\0" + (0).to_bytes(2, "big")  # end of events, no checksum
    return bytes(out)


def _header(replay: Replay, software: str | None) -> bytes:
    playback = play_events(replay)
    won = playback.won
    mode = MODE_STANDARD if replay.mode is None else replay.mode
    # completed and fair; official only in the standard mode (the specification's rule)
    completed = 0xE0 if mode == MODE_STANDARD else 0xA0
    flags = (completed if won else 0) | (0x10 if playback.clicks.rce == 0 else 0)
    if not 0 <= mode <= 65535:
        raise ValueError(f"EVF's game mode is a number from 0 to 65535, not {mode}")
    if replay.width > 255 or replay.height > 255 or replay.mines > 65535:
        raise ValueError(
            f"EVF holds boards up to 255x255; this one is {replay.width}x{replay.height}"
        )
    size = replay.cell_size
    if not 5 <= size <= 255 or max(replay.width, replay.height) * size > _MAX_PIXELS:
        size = 16
    out = bytearray([4, flags, 0, replay.height, replay.width])
    out += replay.mines.to_bytes(2, "big")
    out += bytes([size]) + mode.to_bytes(2, "big")
    out += min(board_stats(replay.layout).bbbv, 65535).to_bytes(2, "big")
    out += min(replay.time_ms, 2**32 - 1).to_bytes(4, "big")
    out += b"XX" + bytes(16)  # country unknown, no timestamps
    for text in (software or replay.software, replay.player, "", ""):
        out += text.replace("\0", "").encode("utf-8") + b"\0"
    out += (0).to_bytes(2, "big")  # no device UUID
    return bytes(out)


def _bitmap(layout: Layout) -> bytes:
    n = layout.width * layout.height
    bits = 0
    for i in layout.mine_indices:
        bits |= 1 << (n - 1 - i)
    nbytes = (n + 7) // 8
    return (bits << (8 * nbytes - n)).to_bytes(nbytes, "big")


def _pixels(replay: Replay, e: MouseEvent, size: int) -> tuple[int, int]:
    """The event's position in ``size``-pixel cells (off the board: the corner)."""
    if e.cell is None:
        return replay.width * size, replay.height * size
    if size == replay.cell_size:
        return e.x, e.y
    x, y = e.cell
    return x * size + size // 2, y * size + size // 2


def _events(replay: Replay) -> bytes:
    events = replay.events
    if not events:
        raise ValueError("a replay without mouse events cannot be written")
    size = replay.cell_size if 5 <= replay.cell_size <= 255 else 16
    out = bytearray()
    base = events[0].time_ms
    x, y = _pixels(replay, events[0], size)
    out += bytes([_CODE[events[0].kind], 0]) + x.to_bytes(2, "big") + y.to_bytes(2, "big")
    t = base
    for e in events[1:]:
        step = max(e.time_ms - t, 0)
        t += step
        while step > 255:
            pause = min(step - 255, _MAX_PAUSE)
            out += b"\xff" + pause.to_bytes(2, "big")
            step -= pause
        nx, ny = _pixels(replay, e, size)
        out += bytes([_CODE[e.kind], step])
        out += (nx - x).to_bytes(2, "big", signed=True) + (ny - y).to_bytes(2, "big", signed=True)
        x, y = nx, ny
    return bytes(out)


def replay_from_game(game: Game, *, player: str = "") -> Replay:
    """A replay of ``game`` as it was played: the moves :meth:`Game.push` accepted
    (:attr:`Game.move_stack`), timed from the first, in the game mode of its first-click
    rule (UPK for a game on a given layout, which no rule protects). ``ValueError``
    before the first open (no layout yet, or no move)."""
    if game.layout is None or not game.move_stack:
        raise ValueError("no move was made: there is no game to save yet")
    start = game.move_stack[0][1]
    moves = [(m.kind, m.cell, round((t - start) * 1000)) for m, t in game.move_stack]
    mode = evf_mode(game.rule, known_layout=game.rng is None)
    return replay_from_moves(game.layout, moves, player=player, mode=mode)


def replay_from_moves(
    layout: Layout,
    moves: Iterable[tuple[str, Cell, int]],
    *,
    player: str = "",
    software: str = "minesolver",
    cell_size: int = 16,
    mode: int | None = None,
) -> Replay:
    """A replay of a game played as ``moves``: ``(kind, cell, time_ms)`` with kind
    ``open``, ``flag``, ``unflag`` or ``chord``, times from the start of the game;
    ``mode``, the game's EVF mode (:func:`evf_mode`), ``None`` when unknown.

    >>> from minesolver.game import Layout
    >>> r = replay_from_moves(Layout.from_cells(2, 1, [(1, 0)]), [("open", (0, 0), 0)])
    >>> from minesolver.replay import play_events
    >>> play_events(r).status, [e.kind for e in r.events]
    ('won', ['mv', 'lc', 'lr'])
    """
    events: list[MouseEvent] = []
    half = cell_size // 2
    for kind, (x, y), t in moves:
        if kind not in _PRESSES:
            raise ValueError(f"move kind {kind!r} is not one of {sorted(_PRESSES)}")
        px, py = x * cell_size + half, y * cell_size + half
        cell = cell_at(px, py, layout.width, layout.height, cell_size)
        if cell is None:
            raise ValueError(f"cell ({x}, {y}) is off the {layout.width}x{layout.height} board")
        events.append(MouseEvent(t, "mv", px, py, cell))
        events.extend(MouseEvent(t, k, px, py, cell) for k in _PRESSES[kind])
    return _replay(layout, events, player, software, cell_size, mode)


def _replay(
    layout: Layout,
    events: Sequence[MouseEvent],
    player: str,
    software: str,
    size: int,
    mode: int | None,
) -> Replay:
    first_open = next((e.time_ms for e in events if e.kind == "lr"), 0)
    end = events[-1].time_ms if events else 0
    return Replay(
        format="evf",
        version="4",
        software=software,
        player=player,
        width=layout.width,
        height=layout.height,
        mines=len(layout.mine_indices),
        cell_size=size,
        layout=layout,
        events=tuple(events),
        time_ms=end - first_open,
        mode=mode,
    )
