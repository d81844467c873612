#!/bin/sh
# Builds minesolver's release wheel into DIR (default: dist/): one abi3 wheel (CPython 3.11
# and later) tagged manylinux_2_28, so that it installs with pip on any x86_64 Linux with
# glibc 2.28 or newer, where no Rust is needed.
#
# How: maturin links the extension with zig (`--zig`, the `ziglang` package from PyPI) against
# glibc 2.28's symbols, whatever glibc the build machine has, and checks the result the way
# auditwheel does (it refuses the tag if a symbol is newer). Both tools go into a venv of their
# own (.wheel-venv/), and the build into a target directory of its own (native/target/wheel),
# so the development build is left alone.
#
# Then it proves the wheel: a fresh venv with no Rust on PATH installs it and runs
# `minesolver solve` on a shipped position.
#
#   sh scripts/build_wheel.sh [DIR]
set -eu
cd "$(dirname "$0")/.."
OUT="${1:-dist}"
TAG="manylinux_2_28"
[ -x .wheel-venv/bin/python ] || python3 -m venv .wheel-venv
.wheel-venv/bin/python -m pip install -q --disable-pip-version-check "maturin>=1.8,<2" "ziglang>=0.13"
export CARGO_TARGET_DIR="$PWD/native/target/wheel"
# maturin finds zig as `python -m ziglang` through PATH: the venv's python first
PATH="$PWD/.wheel-venv/bin:$PATH" .wheel-venv/bin/maturin build --release --zig --compatibility "$TAG" --out "$OUT"
WHEEL="$(ls -t "$OUT"/minesolver-*-cp311-abi3-*"$TAG"*.whl | head -n 1)"
echo "built $WHEEL"

# the proof: install it where no cargo or rustc can be found, and solve a position
TRY="$(mktemp -d)"
trap 'rm -rf "$TRY"' EXIT
python3 -m venv "$TRY/venv"
cp examples/known-5x5.txt "$TRY/"  # away from the checkout, whose src/ must not be imported
"$TRY/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL"
env -i HOME="$TRY" PATH="$TRY/venv/bin:/usr/bin:/bin" sh -c '
    if command -v cargo >/dev/null 2>&1 || command -v rustc >/dev/null 2>&1; then
        echo "error: Rust is on PATH, the proof would prove nothing" >&2
        exit 2
    fi
    cd "$1" && minesolver solve known-5x5.txt --json >solve.json
' sh "$TRY"
python3 - "$TRY/solve.json" <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    answer = json.load(f)
assert answer["layouts"] == "72", answer["layouts"]
print("the wheel installs with no Rust and solves: 72 layouts, as known")
PY
