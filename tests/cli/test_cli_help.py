"""The help shows what each option takes and its default, without type tags."""

from __future__ import annotations

import re

import pytest
import typer

from minesolver.ui.cli import app, main


def test_solve_help_shows_defaults_and_no_type_tags(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["solve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "[default: auto]" in out and "[default: 10.0]" in out
    for tag in ("<int>", "<float>", "INTEGER", "FLOAT", "TEXT"):
        assert tag not in out, tag
    options = [line for line in out.splitlines() if "--" in line and "--help" not in line]
    assert not [line for line in options if "<str>" in line or "<bool>" in line]
    assert any("--budget" in line and "SECONDS" in line for line in options)


@pytest.mark.parametrize(
    "command", [[], ["solve"], ["replay"], ["play"], ["bench"], ["perfect"], ["serve"]]
)
def test_no_help_page_has_a_type_tag(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "--help" in out and "Usage:" in out
    tags = re.findall(r"<[a-z][a-z_|\[\], ]*>", out)
    assert not tags, tags


def test_usage_writes_arguments_as_usual(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["replay", "--help"]) == 0
    assert re.search(r"Usage: .*replay \[OPTIONS\] FILE\s", capsys.readouterr().out)
    assert main(["solve", "--help"]) == 0
    assert re.search(r"Usage: .*solve \[OPTIONS\] \[FILE\]\s", capsys.readouterr().out)


@pytest.mark.parametrize("command", ["solve", "replay", "play", "bench", "perfect", "serve"])
def test_every_option_with_a_default_shows_it(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each option that has a default says it on its help lines: those typer knows and those
    written into the help text (rich reads a bare "[default: …]" there as markup and drops
    it, leaving "Games to play ." behind)."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"\w \.", out), "a help text lost its bracketed words"
    blocks: dict[str, str] = {}
    name = ""
    for line in out.splitlines():
        found = re.match(r"\W*(--[\w-]+)", line)
        if found:
            name = found[1]
        if name:
            blocks[name] = blocks.get(name, "") + line
    click_command = typer.main.get_command(app)
    assert isinstance(click_command, typer.core.TyperGroup)
    options = [
        p
        for p in click_command.commands[command].params
        if isinstance(p, typer.core.TyperOption) and not p.is_flag and not p.required
    ]
    with_default = [p for p in options if p.default is not None or "default" in (p.help or "")]
    for option in with_default:
        assert "[default: " in blocks[option.opts[0]], option.opts[0]
