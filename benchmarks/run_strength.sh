#!/bin/sh
# The strength measurements of the README, one run after another on both cores; each
# writes its part of benchmarks/results/strength.json as it goes (every --save-every games).
# Boards come from the simulator's seeding: `minesolver bench --seed S` plays the same ones.
# A key "BASE+more" is another run on the layouts of BASE, paired with it game by game
# through the stored outcomes (bench_strength.py --table). About 45 minutes on 2 cores.
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
B="benchmarks/bench_strength.py --workers ${WORKERS:-2}"
$PY $B --level expert --games 20000 --players greedy,pseq,best --seed 1 --save-every 1000
# games 20,000-39,999 of the same seed, best only: 40,000 expert games for its estimate
$PY $B --level expert --games 20000 --first-game 20000 --players best --seed 1 --save-every 2000 \
    --key "expert-safe-0,0@20000"
$PY $B --level expert --games 5000 --seed 1 --save-every 1000 --key "expert-safe-0,0+ablation" \
    --players best-no-endgame,best-no-second,best-no-fifty,best-no-dominance,best-no-dead
$PY $B --level expert --first-click opening --start 3,3 --games 10000 --players greedy,pseq,best \
    --seed 2 --save-every 1000
$PY $B --level intermediate --games 10000 --players greedy,pseq,best --seed 3 --save-every 2000
$PY $B --level beginner --games 20000 --players greedy,pseq,best --seed 4 --save-every 5000
$PY benchmarks/bench_strength.py --table
