#!/bin/sh
# The strength measurements of the README, one process after another (the machine is
# shared); each writes its part of benchmarks/results/strength.json as it goes.
# Expert safe corner: greedy and best on 5,000 layouts, then pseq (key "+pseq") and two
# ablations of best (key "+ablation") on the same layouts, paired game by game through
# the stored outcomes (bench_strength.py --table).
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
B=benchmarks/bench_strength.py
$PY $B --level beginner --games 10000 --players greedy,pseq,best --seed 1 --save-every 500
$PY $B --level intermediate --games 6000 --players greedy,pseq,best --seed 3 --save-every 250
$PY $B --level expert --first-click opening --start 3,3 --games 4000 --players greedy,pseq,best --seed 2 --save-every 100
$PY $B --level expert --games 5000 --players greedy,best --seed 1 --save-every 100
$PY $B --level expert --games 5000 --players pseq --seed 1 --save-every 100 --key "expert-safe-0,0+pseq"
$PY $B --level expert --games 1000 --players best-no-second,best-no-endgame --seed 1 --save-every 50 --key "expert-safe-0,0+ablation"
$PY $B --table
