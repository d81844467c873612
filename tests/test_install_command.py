"""The advice for a missing extra is a command that works for the copy being run: from a
checkout (an editable install, as the README sets up) the checkout itself, which a package
index may not hold; from an index, ``minesolver[extra]``."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import minesolver.registry as registry
from minesolver.registry import install_command

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = set(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
)

BLOCK_UVICORN = (
    "import sys; sys.modules['uvicorn'] = None\n"  # an import of it raises ImportError
    "from minesolver.ui.cli import main; sys.exit(main(sys.argv[1:]))"
)


def installs_from_this_checkout(command: str, extra: str, cwd: Path) -> None:
    """``command`` is ``pip install -e TARGET[extra]`` with TARGET this checkout (seen from
    ``cwd``), whose pyproject.toml declares ``extra``."""
    words = shlex.split(command)
    assert words[:3] == ["pip", "install", "-e"] and len(words) == 4
    target, _, rest = words[3].partition("[")
    assert rest == f"{extra}]"
    assert (cwd / target).resolve() == ROOT
    assert extra in EXTRAS


@pytest.mark.skipif(registry._checkout() is None, reason="minesolver is not run from a checkout")
def test_from_a_checkout_the_advice_installs_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert install_command("web") == "pip install -e '.[web]'"
    installs_from_this_checkout(install_command("web"), "web", ROOT)
    monkeypatch.chdir(tmp_path)  # elsewhere, the checkout's path
    installs_from_this_checkout(install_command("plot"), "plot", tmp_path)


def test_from_a_package_index_the_advice_names_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_checkout", lambda: None)
    assert install_command("image") == "pip install 'minesolver[image]'"


@pytest.mark.skipif(registry._checkout() is None, reason="minesolver is not run from a checkout")
def test_serve_without_the_web_extra_advises_a_command_that_works_here(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_UVICORN, "serve"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: the web app needs the 'web' extra")
    installs_from_this_checkout(line.rsplit(": ", 1)[1], "web", tmp_path)
