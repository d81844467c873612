#!/bin/sh
# The whole test suite, set-up included: Debian's Chromium for the browser tests (when
# missing), a venv with every extra (which builds the Rust core), then the crate's
# cargo fmt, clippy and tests, ruff, mypy --strict, the documentation build and pytest.
set -eu
cd "$(dirname "$0")/.."
# the web app's end-to-end tests drive Debian's Chromium (Playwright downloads no browser)
if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
# the native core (native/): one target directory for cargo and maturin
export CARGO_TARGET_DIR="$PWD/native/target"
(cd native && cargo fmt --check && cargo clippy --release --all-targets -- -D warnings)
# the crate's tests on one core while the linters run on the other (each is one process);
# their output is shown when they end
CARGO_LOG="$(mktemp)"
(cd native && cargo test --release) >"$CARGO_LOG" 2>&1 &
CARGO_TEST=$!
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks
.venv/bin/mypy --strict src/minesolver
.venv/bin/python -m mypy.stubtest minesolver._native
# the documentation site, offline, warnings as errors (a broken link or docstring fails)
SITE="$(mktemp -d)"
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$SITE"
rm -rf "$SITE"
if wait "$CARGO_TEST"; then CARGO_OK=1; else CARGO_OK=0; fi
cat "$CARGO_LOG"
rm -f "$CARGO_LOG"
[ "$CARGO_OK" -eq 1 ] || { echo "error: cargo test failed" >&2; exit 1; }
# on every core (pytest-xdist; each test goes to whichever worker is free)
.venv/bin/python -m pytest -n auto --dist worksteal "$@"
