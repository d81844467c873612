#!/bin/sh
# The strength measurements of the README, one process after another (the machine is
# shared); each writes its part of benchmarks/results/strength.json as it goes.
# The expert safe-corner run plays greedy and best on 5,000 layouts, then pseq on the
# same layouts (key "+pseq"), paired with them game by game.
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
B=benchmarks/bench_strength.py
$PY $B --level beginner --games 3000 --players greedy,pseq,best --seed 1 --save-every 250
$PY $B --level intermediate --games 2000 --players greedy,pseq,best --seed 3 --save-every 100
$PY $B --level expert --first-click opening --start 3,3 --games 800 --players greedy,pseq,best --seed 2 --save-every 50
$PY $B --level expert --games 5000 --players greedy,best --seed 1 --save-every 100
$PY $B --level expert --games 5000 --players pseq --seed 1 --save-every 100 --key "expert-safe-0,0+pseq"
