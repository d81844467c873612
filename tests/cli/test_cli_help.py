"""The help shows what each option takes and its default, without type tags."""

from __future__ import annotations

import re

import pytest

from minesolver.ui.cli import main


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
