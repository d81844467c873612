"""The command line's documentation says what the program does: every option of every
command is in its section of docs/cli.md, every
player and engine is named where one is chosen, the shipped example files exist, and the
examples of output are what the program prints."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from minesolver.engines import engine_names
from minesolver.ui.cli import app, main

ROOT = Path(__file__).parents[2]
CLI = (ROOT / "docs" / "cli.md").read_text()
FORMATS = (ROOT / "docs" / "formats.md").read_text()
COMMAND = typer.main.get_command(app)
assert isinstance(COMMAND, typer.core.TyperGroup)


def section(name: str) -> str:
    """The text of ``## `minesolver NAME``` in cli.md."""
    start = CLI.index(f"## `minesolver {name}`")
    end = CLI.find("\n## ", start + 1)
    return CLI[start : end if end > 0 else None]


def _commands() -> list[tuple[str, object]]:
    """Every command by its name on the command line (a group's as ``group sub``)."""
    out: list[tuple[str, object]] = []
    for name, command in sorted(COMMAND.commands.items()):
        if isinstance(command, typer.core.TyperGroup):
            out.extend((f"{name} {sub}", c) for sub, c in sorted(command.commands.items()))
        else:
            out.append((name, command))
    return out


@pytest.mark.parametrize(("name", "command"), _commands(), ids=[n for n, _ in _commands()])
def test_every_option_is_documented(name: str, command: typer.core.TyperCommand) -> None:
    text = section(name)
    options = [
        opt
        for param in command.params
        for opt in param.opts
        if opt.startswith("--") and opt != "--help"
    ]
    assert options or name == "read"
    missing = [opt for opt in options if f"`{opt}" not in text]
    assert not missing, f"docs/cli.md, minesolver {name}: {missing} undocumented"


def players() -> list[str]:
    """The library's players to choose from (the pure-Python references ``-py`` aside),
    asked of a fresh interpreter: other tests register players of their own in this one."""
    listed = subprocess.run(
        [sys.executable, "-c", "from minesolver.strategy import player_names as p; print(*p())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert {"greedy", "pseq", "best", "efficient"} <= set(listed)
    return [name for name in listed if not name.endswith("-py")]


@pytest.mark.parametrize("name", ["bench", "play"])
def test_every_player_is_named(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for player in players():
        assert f"`{player}`" in section(name), (name, player)
        assert player in shown, (name, player)


def test_every_engine_is_in_the_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["solve", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split()).replace("│", " ")
    missing = [e for e in engine_names() if not re.search(rf"(?<![\w-]){e}(?![\w-])", shown)]
    assert not missing


def test_the_example_files_named_in_the_docs_exist() -> None:
    named = set()
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        named |= set(re.findall(r"examples/[\w.-]+\.\w+", page.read_text()))
    assert "examples/boards.txt" in named and "examples/boards.mbf" in named
    assert not [name for name in sorted(named) if not (ROOT / name).is_file()]


def test_the_efficiency_example_is_the_programs_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    block = re.search(r"```text\n\$ minesolver efficiency (\S+)\n(.*?)```", CLI, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(ROOT)
    assert main(["efficiency", block.group(1)]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert printed == block.group(2).splitlines()


def test_the_json_example_of_solve_is_the_programs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    block = re.search(r"```text\n\$ minesolver solve (\S+) --json\n(.*?)```", FORMATS, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(ROOT)
    assert main(["solve", block.group(1), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    shown = block.group(2)
    assert set(re.findall(r'"(\w+)":', shown)) == set(out) | {"x", "y", "p", "prob"} | set(
        out["recommended"]
    )
    recommended = shown[shown.index('"recommended": ') + len('"recommended": ') :].strip()
    assert json.loads(recommended[:-1]) == out["recommended"]
    table = FORMATS[FORMATS.index("| key | value |") :]
    assert not [key for key in out if f"`{key}`" not in table]


def test_the_budget_s_docs_quote_the_program_s_refusal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``solve --budget`` with the default engine: cli.md says what it does when the
    deadline passes before any answer, in the words the program prints (a nanosecond has
    passed before any count or sample on every machine)."""
    midgame = str(ROOT / "examples" / "expert-midgame.txt")
    assert main(["solve", midgame, "--budget", "1e-9"]) == 2
    err = capsys.readouterr().err
    said = err[: err.index(": the deadline")].replace("1e-09", "S")
    assert said == "error: no answer within --budget S s, not even an approximate one"
    text = section("solve")
    assert f"`{said}: …`" in text
    assert "else approximately (`exact: false`" in text  # what auto does within the budget
