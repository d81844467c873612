#!/bin/sh
# The whole test suite: set-up (venv + editable install with every extra), lint, types, tests.
set -eu
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy --strict src/minesolver
.venv/bin/python -m pytest "$@"
