"""Terminal play: watch a player move by move, or play yourself with hints on demand.

Both sessions write to a rich :class:`~rich.console.Console` and take what they need as
arguments (the game, the player, the commands as an iterable of lines), so they run the
same from a terminal, a pipe or a test. The player, as in the simulator, gets only the
game's :meth:`~minesolver.game.Game.view`.

Commands of :func:`play_human` (coordinates ``x y`` or ``x,y``, x the column):

    o X Y   open (also: ``open X Y`` or just ``X Y``)
    f X Y   flag or unflag
    c X Y   chord on a digit
    h       hint: the exact probabilities, the certain cells and the safest cell
    q       quit
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Sequence

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from minesolver.analysis import Analysis, analyze
from minesolver.engines import EngineLimitExceeded
from minesolver.game import Game, GameError, Move, MoveKind, Outcome
from minesolver.position import HIDDEN, Cell, InconsistentPosition, Position
from minesolver.simulate import apply_moves
from minesolver.strategy import Player, get_player
from minesolver.strategy.native import NativePlayer
from minesolver.ui.display import board_text, heat_map, summary
from minesolver.ui.words import plain_reason

__all__ = [
    "best_moves",
    "board_text",
    "describe_moves",
    "parse_command",
    "play_human",
    "recommend",
    "watch",
]


def describe_moves(moves: Sequence[Move]) -> str:
    """The moves of one round for people: the certain ones summed up, a guess with why."""
    parts = []
    opens = [m.cell for m in moves if m.kind == "open" and not m.guess]
    flags = [m.cell for m in moves if m.kind == "flag"]

    def cells(cs: list[Cell]) -> str:
        shown = " ".join(f"({x},{y})" for x, y in cs[:8])
        return shown + (f" … (+{len(cs) - 8})" if len(cs) > 8 else "")

    if opens:
        parts.append(f"open {len(opens)} certainly safe: {cells(opens)}")
    if flags:
        parts.append(f"flag {len(flags)} certain mine{'s' * (len(flags) > 1)}: {cells(flags)}")
    for m in moves:
        if m.kind == "chord":
            parts.append(f"chord ({m.cell[0]},{m.cell[1]})")
        elif m.guess:
            why = f": {plain_reason(m)}" if m.reason is not None else ""
            parts.append(f"guess ({m.cell[0]},{m.cell[1]}), {100 * m.risk:.1f}% risk{why}")
    return "; ".join(parts) or "no move"


def best_moves(view: Position, seconds: float | None = None) -> list[Move]:
    """The ``best`` player's moves on ``view`` (every certain move, or one guess), its
    ties drawn from a fixed seed: the same position always gets the same advice, from
    ``play --human``'s hint and ``solve``'s recommended move alike. ``seconds`` is a
    safety deadline (:class:`~minesolver.engines.EngineLimitExceeded` past it). Costs
    what the player's what-ifs cost: a few exact analyses of the position."""
    player = get_player("best")
    if isinstance(player, NativePlayer):
        player.deadline = seconds
    player.reset(random.Random(0))
    return player.next_moves(view)


def recommend(
    analysis: Analysis, trust_flags: bool = True, seconds: float | None = None
) -> tuple[list[Move], str]:
    """The ``best`` player's moves on the analysed position (:func:`best_moves`; the
    first is the move to make), or no move and why: the player needs the total of mines
    and an exact count (an approximate analysis says its count did not fit the budget),
    some cell left to open, and the moves chosen before the ``seconds`` deadline."""
    view = analysis.position if trust_flags else analysis.position.without_flags()
    if view.mines is None:
        return [], "the best player needs the total number of mines"
    if not analysis.exact:
        return [], "the analysis is approximate: the best player needs the exact count"
    if view.cells.count(HIDDEN) == view.mines - view.flags:
        return [], "no move left: every hidden cell is a mine"
    try:
        return best_moves(view, seconds), ""
    except EngineLimitExceeded:
        return [], "the best player did not choose before the --budget deadline"


def _analysis(view: Position) -> Analysis | None:
    """The exact analysis, distrusting flags if a wrong flag makes the position impossible."""
    try:
        return analyze(view)
    except InconsistentPosition:
        try:
            return analyze(view, trust_flags=False)
        except InconsistentPosition:
            return None


def watch(
    game: Game,
    player: Player,
    start: Cell,
    rng: random.Random,
    console: Console,
    *,
    probabilities: bool = True,
    delay: float = 0.0,
) -> Outcome:
    """Let ``player`` play ``game`` from the first click at ``start``, showing each round:
    the board (with the exact probabilities unless ``probabilities`` is false), the moves
    and why. On a terminal the board is redrawn in place (a rich :class:`~rich.live.Live`
    display); elsewhere (a pipe, a file, a test) every round is printed after the last.
    Returns the outcome."""
    player.reset(rng)
    game.push(Move("open", start))
    console.print(f"first click ({start[0]},{start[1]})")
    rounds = _rounds(game, player, probabilities)
    if console.is_terminal:
        with Live(console=console, auto_refresh=False, transient=True) as live:
            for board, line in rounds:
                live.update(Group(line, board), refresh=True)  # the moves stay in view
                _pause(delay)
    else:
        for board, line in rounds:
            console.print(board)
            console.print(line)
            _pause(delay)
    _finish(game, console)
    return game.outcome


def _rounds(
    game: Game, player: Player, probabilities: bool
) -> Iterator[tuple[RenderableType, Text]]:
    """Each round's board and the line saying the player's moves; the moves are made once
    the caller asks for the next round."""
    turn = 0
    while not game.over:
        turn += 1
        view = game.view()
        analysis = _analysis(view) if probabilities else None
        board = heat_map(analysis) if analysis else board_text(view)
        moves = player.next_moves(view)
        line = Text.from_markup(f"[bold]move {turn}[/bold]: ").append(describe_moves(moves))
        line.no_wrap, line.overflow = False, "fold"  # wrapped at the terminal's width, never cut
        yield board, line
        apply_moves(game, moves, player.name)


def _pause(delay: float) -> None:
    if delay > 0:
        time.sleep(delay)


def _finish(game: Game, console: Console) -> None:
    outcome = game.outcome
    mines = game.mine_cells()
    console.print(board_text(game.view(), mines, outcome.exploded, won=outcome.won))
    if outcome.won:
        console.print("[bold green]won[/bold green]")
    elif outcome.exploded is not None:
        x, y = outcome.exploded
        console.print(f"[bold red]lost[/bold red]: a mine at ({x},{y})")


def parse_command(line: str) -> tuple[str, Cell | None]:
    """``(action, cell)`` from a command line; action ``open``, ``flag``, ``chord``,
    ``hint``, ``quit``, ``help``, ``board``. Raises :class:`GameError` when unreadable."""
    words = line.replace(",", " ").split()
    if not words:
        return "board", None
    actions = {
        "o": "open", "open": "open", "f": "flag", "flag": "flag", "c": "chord",
        "chord": "chord", "h": "hint", "hint": "hint", "q": "quit", "quit": "quit",
        "?": "help", "help": "help", "b": "board", "board": "board",
    }  # fmt: skip
    if words[0].isdigit():
        words.insert(0, "open")
    action = actions.get(words[0].lower())
    if action is None:
        raise GameError(f"unknown command {words[0]!r} (type ? for help)")
    if action in ("open", "flag", "chord"):
        if len(words) != 3 or not (words[1].isdigit() and words[2].isdigit()):
            raise GameError(f"{action} needs a cell: {action[0]} X Y")
        return action, (int(words[1]), int(words[2]))
    return action, None


_HELP = "o X Y open · f X Y flag/unflag · c X Y chord · h hint · b board · q quit"


def play_human(game: Game, commands: Iterable[str], console: Console, prompt: str = "") -> Outcome:
    """Play ``game`` from ``commands`` (lines, e.g. standard input), showing the board
    after each move and the exact probabilities on ``h``; ``prompt`` is printed before
    each command is read. Returns the outcome (still playing when the commands end or
    ``q`` stops the game first)."""
    console.print(_HELP)
    console.print(board_text(game.view()))
    lines = iter(commands)
    while True:
        if prompt:
            console.print(prompt, end="")
        line = next(lines, None)
        if line is None:
            break
        try:
            action, cell = parse_command(line)
            if action == "quit":
                break
            if cell is None:
                _show(action, game, console)
            elif _human_move(game, action, cell, console):
                break
        except GameError as exc:
            console.print(f"[yellow]{exc}[/yellow]")
    if game.over:
        _finish(game, console)
    return game.outcome


_MOVE_KINDS: dict[str, MoveKind] = {"open": "open", "chord": "chord"}


def _human_move(game: Game, action: str, cell: Cell, console: Console) -> bool:
    """Make a person's move (``flag`` toggles); returns whether the game is over."""
    move = game.toggle_move(cell) if action == "flag" else Move(_MOVE_KINDS[action], cell)
    if not game.push(move).changed:
        console.print(f"{action} ({cell[0]},{cell[1]}): nothing to do")
    if game.over:
        return True
    console.print(board_text(game.view()))
    return False


def _show(action: str, game: Game, console: Console) -> None:
    """The commands that only show: ``help``, ``hint``, ``board``."""
    if action == "help":
        console.print(_HELP)
    elif action == "hint":
        _hint(game, console)
    else:
        console.print(board_text(game.view()))


def _hint(game: Game, console: Console) -> None:
    if not game.started:
        console.print(f"no cell open yet: any first click is {game.rule!r}")
        return
    analysis = _analysis(game.view())
    if analysis is None:
        console.print("[yellow]no mine layout fits the flags and digits[/yellow]")
        return
    console.print(heat_map(analysis))
    console.print(summary(analysis))
    moves = best_moves(game.view())
    if any(m.guess for m in moves):
        line = Text("best player: ", style="bold").append(describe_moves(moves))
        line.no_wrap, line.overflow = False, "fold"
        console.print(line)
