"""``minesolver book build``: compute ``search``'s opening book (:mod:`minesolver.book`).

Thin: parse the options, run the builder with a progress bar on standard error, write
the book as JSON and say what it holds.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeRemainingColumn,
)

from minesolver.ui.inputs import fail

__all__ = ["book_build"]


def book_build(
    levels: Annotated[
        str,
        typer.Option(
            metavar="LEVELS",
            help="Levels, comma-separated: beginner, ..., WxHxM; LEVEL:RULE for one rule only.",
        ),
    ] = "beginner,intermediate,expert",
    rules: Annotated[
        str,
        typer.Option(
            metavar="RULES",
            help="First-click rules, comma-separated: safe (in the corner), opening (at 3,3).",
        ),
    ] = "safe,opening",
    rollouts: Annotated[
        int, typer.Option(metavar="N", help="Rollouts per position (layouts drawn).")
    ] = 4096,
    games: Annotated[
        int, typer.Option(metavar="N", help="Games played to find the positions.")
    ] = 2000,
    min_share: Annotated[
        float, typer.Option(metavar="P", help="Least share of the games a position needs.")
    ] = 0.01,
    max_positions: Annotated[
        int, typer.Option(metavar="N", help="Most positions per level and rule.")
    ] = 4,
    candidates: Annotated[
        int, typer.Option(metavar="N", help="Most candidates per position.")
    ] = 12,
    exact_limit: Annotated[
        int, typer.Option(metavar="N", help="Play every layout where there are at most N.")
    ] = 20_000,
    chunk: Annotated[int, typer.Option(metavar="N", help="Layouts per task.")] = 64,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the build.")] = 1,
    workers: Annotated[
        int, typer.Option(metavar="N", help="Workers of the local Dask cluster.")
    ] = 2,
    scheduler: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help="Run on the Dask scheduler at this address."),
    ] = None,
    out: Annotated[
        str, typer.Option(metavar="FILE", help="Where to write the book (JSON).")
    ] = "book.json",
    state: Annotated[
        str | None,
        typer.Option(
            metavar="FILE", help="Results so far, to resume a stopped build [FILE.state.jsonl]."
        ),
    ] = None,
) -> None:
    """Value the first guesses of the levels by rollouts and write the opening book.

    Rerun the same command to resume a stopped build: the tasks done are read back."""
    from minesolver.book import BuildSettings, build_book, standard_targets

    targets = standard_targets(_names(levels), _names(rules))
    settings = BuildSettings(
        seed=seed,
        rollouts=rollouts,
        games=games,
        min_share=min_share,
        max_positions=max_positions,
        candidates=candidates,
        exact_limit=exact_limit,
        chunk=chunk,
    )
    if workers < 1:
        fail(f"--workers {workers} must be at least 1")
    err = Console(stderr=True)
    # every setting the book depends on, as given or by default: the command that rebuilds it
    shown = {
        "levels": levels,
        "rules": rules,
        "rollouts": rollouts,
        "games": games,
        "min-share": min_share,
        "max-positions": max_positions,
        "candidates": candidates,
        "exact-limit": exact_limit,
        "chunk": chunk,
        "seed": seed,
    }
    words = [w for k, v in shown.items() for w in (f"--{k}", str(v))]
    command = shlex.join(["minesolver", "book", "build", *words])
    state_path = Path(state) if state is not None else Path(out + ".state.jsonl")
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        bar = progress.add_task("finding the positions", total=None)

        def found(positions: int, planned: int) -> None:
            progress.update(
                bar, description=f"rollouts of {positions} positions", total=planned, completed=0
            )

        book = build_book(
            targets,
            settings,
            state_path,
            scheduler=scheduler,
            workers=workers,
            command=command,
            on_found=found,
            on_progress=lambda n: progress.advance(bar, n),
        )
    Path(out).write_text(json.dumps(book.to_json(), indent=1) + "\n", encoding="utf-8")
    console = Console(highlight=False, soft_wrap=True)
    for e in book.entries:
        value = e.candidate(e.move)
        changed = "" if e.move == e.best_move else f" (best: {e.best_move[0]},{e.best_move[1]})"
        console.print(
            f"{e.level} {e.rule}: {e.position.to_text(header=False).splitlines()[0][:12]}... "
            f"share {100 * e.share:.1f}%: move {e.move[0]},{e.move[1]}{changed}, "
            f"{value.wins}/{value.rollouts} won{' (every layout)' if e.exact else ''}"
        )
    console.print(
        f"{len(book.entries)} positions, {book.meta['rollouts_played']} rollouts, "
        f"{book.meta['cpu_seconds']} s of CPU: written to {out}"
    )


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        fail(f"{text!r}: name at least one")
    return names
