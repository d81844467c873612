#!/bin/sh
# The strength measurements of docs/strength.md, one run after another on both cores; each
# writes its part of benchmarks/results/strength.json as it goes (every --save-every games).
# Boards come from the simulator's seeding: `minesolver bench --seed S` plays the same ones.
# A key "BASE+more" is another run on the layouts of BASE, paired with it game by game
# through the stored outcomes (bench_strength.py --table); "BASE@N" holds games N.. of
# BASE's seed. `best-no-latent` is `best` as it was before the latent 50/50 weight (the
# same moves), `best:latent=0;X=0` its ablations. About 3 hours on 2 cores.
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
B="benchmarks/bench_strength.py --workers ${WORKERS:-2}"
# before the latent weight: greedy, pseq and best-no-latent on the same boards
$PY $B --level expert --games 20000 --players greedy,pseq,best-no-latent --seed 1 --save-every 1000
$PY $B --level expert --games 20000 --first-game 20000 --players best-no-latent --seed 1 \
    --save-every 2000 --key "expert-safe-0,0@20000"
$PY $B --level expert --games 5000 --seed 1 --save-every 1000 --key "expert-safe-0,0+ablation" \
    --players 'best:latent=0;endgame=0,best:latent=0;second=0,best:latent=0;fifty=0,best:latent=0;dominance=0,best:latent=0;dead=0'
$PY $B --level expert --first-click opening --start 3,3 --games 10000 \
    --players greedy,pseq,best-no-latent --seed 2 --save-every 1000
$PY $B --level expert --first-click opening --start 3,3 --games 10000 --first-game 10000 \
    --players best-no-latent --seed 2 --save-every 2000 --key "expert-opening-3,3@10000"
$PY $B --level intermediate --games 10000 --players greedy,pseq,best-no-latent --seed 3 --save-every 2000
$PY $B --level intermediate --games 30000 --first-game 10000 --players best-no-latent --seed 3 \
    --save-every 5000 --key "intermediate-safe-0,0@10000"
$PY $B --level beginner --games 20000 --players greedy,pseq,best-no-latent --seed 4 --save-every 5000
$PY $B --level beginner --games 60000 --first-game 20000 --players best-no-latent --seed 4 \
    --save-every 10000 --key "beginner-safe-0,0@20000"
# the latent weight with 2x2 blocks too (a trial)
$PY $B --level expert --games 20000 --players 'best:latent_blocks=1' --seed 1 --save-every 2000 \
    --key "expert-safe-0,0+latent-blocks"
# best as it is now, on the same boards
C="$B --players best"
$PY $C --level expert --games 20000 --seed 1 --save-every 2000 --key "expert-safe-0,0+best"
$PY $C --level expert --games 20000 --first-game 20000 --seed 1 --save-every 2000 \
    --key "expert-safe-0,0@20000+best"
$PY $C --level expert --first-click opening --start 3,3 --games 10000 --seed 2 --save-every 2000 \
    --key "expert-opening-3,3+best"
$PY $C --level intermediate --games 10000 --seed 3 --save-every 5000 --key "intermediate-safe-0,0+best"
$PY $C --level beginner --games 20000 --seed 4 --save-every 10000 --key "beginner-safe-0,0+best"
# more games of the current best (the last run has no earlier player on its boards)
$PY $C --level expert --first-click opening --start 3,3 --games 10000 --first-game 10000 --seed 2 \
    --save-every 2000 --key "expert-opening-3,3@10000+best"
$PY $C --level intermediate --games 30000 --first-game 10000 --seed 3 --save-every 5000 \
    --key "intermediate-safe-0,0@10000+best"
$PY $C --level beginner --games 60000 --first-game 20000 --seed 4 --save-every 10000 \
    --key "beginner-safe-0,0@20000+best"
$PY $C --level expert --games 20000 --first-game 40000 --seed 1 --save-every 2000 \
    --key "expert-safe-0,0@40000+best"
# the latent weight on other boards: best and best-no-latent paired, seed 7
$PY $B --level expert --games 20000 --players best,best-no-latent --seed 7 --save-every 2000 \
    --key "expert-safe-0,0/seed7"
# the last runs, sizes fixed before running: best to 100,000 games on 16x16, 200,000 on 9x9,
# 50,000 on the expert opening and 100,000 of seed 1 on expert safe corner
$PY $C --level intermediate --games 60000 --first-game 40000 --seed 3 --save-every 10000 \
    --key "intermediate-safe-0,0@40000+best"
$PY $C --level beginner --games 120000 --first-game 80000 --seed 4 --save-every 20000 \
    --key "beginner-safe-0,0@80000+best"
$PY $C --level expert --first-click opening --start 3,3 --games 30000 --first-game 20000 --seed 2 \
    --save-every 5000 --key "expert-opening-3,3@20000+best"
$PY $C --level expert --games 40000 --first-game 60000 --seed 1 --save-every 5000 \
    --key "expert-safe-0,0@60000+best"
$PY benchmarks/bench_strength.py --table --docs
