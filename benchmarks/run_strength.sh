#!/bin/sh
# The strength measurements of the README, one process after another (the machine is
# shared); each writes its part of benchmarks/results/strength.json as it goes.
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
B=benchmarks/bench_strength.py
$PY $B --level beginner --games 3000 --players greedy,pseq,best --seed 1 --save-every 250
$PY $B --level expert --games 5000 --players greedy,pseq,best --seed 1 --save-every 100
$PY $B --level expert --first-click opening --start 3,3 --games 1500 --players greedy,pseq,best --seed 2 --save-every 100
$PY $B --level intermediate --games 2000 --players greedy,pseq,best --seed 3 --save-every 100
