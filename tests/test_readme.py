"""The README's commands run as written, in order, on a fresh copy and a fresh venv.

Every ```` ```sh ```` block of the README runs, in order, in one shell (so the tour's
``. .venv/bin/activate`` carries over to the commands after it), in a copy of the
working tree with no venv, as a new user would type them after cloning. The line that
runs the whole test suite (``scripts/check.sh``) is left out: it is what runs this test.
Slow (a venv and an install, the native core included): about a minute or two.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_SH = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def readme_script() -> str:
    """The README's shell blocks, in order, without the test suite's own command."""
    blocks = _SH.findall((ROOT / "README.md").read_text())
    lines = [
        line for block in blocks for line in block.splitlines() if "scripts/check.sh" not in line
    ]
    return "\n".join(lines) + "\n"


def _copy_of_the_tree(target: Path) -> None:
    """The files git knows (tracked and new, not ignored): what a clone would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            dest = target / os.fsdecode(name)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)


def test_the_script_holds_the_main_job_and_the_tour() -> None:
    script = readme_script()
    assert "python3 -m venv .venv" in script
    assert ". .venv/bin/activate" in script
    assert "minesolver solve" in script and "minesolver perfect" in script
    assert "scripts/check.sh" not in script


@pytest.mark.slow
def test_the_readme_runs_as_written_on_a_fresh_venv(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout")
    repo = tmp_path / "minesolver"
    _copy_of_the_tree(repo)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}
    }
    # no venv on the PATH: the README's commands must find their own
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != bindir)
    env["COLUMNS"] = "100"
    native_target = ROOT / "native" / "target"
    if native_target.is_dir():  # reuse the compiled Rust crates, as cargo's cache would
        env["CARGO_TARGET_DIR"] = str(native_target)
    done = subprocess.run(
        ["sh", "-e", "-c", readme_script()],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "layouts" in out  # solve's summary
    assert '"safest"' in out  # solve --json
    assert "perfect play wins" in out
