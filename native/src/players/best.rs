//! `best`'s guess, natively, for the variant without its endgame search
//! (`best-no-endgame` in Python): unavoidable 50/50s first; then the candidates within
//! `margin` of the lowest live probability (at most `max_candidates`), in increasing
//! probability; dead cells set aside; dominance; second-move safety with its progress
//! bonus; the latent 50/50 weight (pairs); every bound and cut as
//! `minesolver.strategy.best` makes them, so the same cells are weighed and the same one
//! chosen. The latent weight's counts are full analyses of the position with a
//! pattern's mines flagged.
//!
//! Every number is exact ([`Q`]: big-integer fractions); the one float is the order's
//! first key (`float(p)`, correctly rounded as Python makes it), with exact ties broken
//! as Python breaks them. The what-ifs are [`crate::whatif`]'s.
//!
//! Cost per guess: at most one what-if per (candidate, possible digit), most skipped by
//! the bounds (see the Python module); the 50/50 test O(h^2) structural comparisons for
//! `h` cells of probability 1/2 plus at most two what-ifs per cell of a passing pair.

use std::cmp::Ordering;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::exact::{Analysis, ExactError, NOT_UNKNOWN, ONE, ZERO};
use crate::game::HIDDEN;
use crate::limits::Deadline;
use crate::mt::Mt;

use crate::count::Counts;
use crate::whatif::{digit_range, Certainty, Child, Parent};

use super::endgame::{enumerate_layouts, Cut, Endgame};
use super::pseq::representatives;
use super::{layout_count, level_ratio, ratio_to_f64, PlayError, Player, Ratio, View, Why};

/// A non-negative exact fraction, kept reduced.
#[derive(Debug, Clone)]
pub struct Q {
    pub num: BigUint,
    pub den: BigUint,
}

impl Q {
    pub fn new(num: BigUint, den: BigUint) -> Q {
        let g = num.gcd(&den);
        if g.is_one() || g.is_zero() {
            Q { num, den }
        } else {
            Q {
                num: num / &g,
                den: den / &g,
            }
        }
    }
    pub fn int(v: u64) -> Q {
        Q::new(BigUint::from(v), BigUint::one())
    }
    pub fn of(r: &Ratio) -> Q {
        Q::new(r.num.clone(), r.den.clone())
    }
    pub fn add(&self, o: &Q) -> Q {
        if self.den == o.den {
            return Q::new(&self.num + &o.num, self.den.clone());
        }
        Q::new(&self.num * &o.den + &o.num * &self.den, &self.den * &o.den)
    }
    /// `self - o`, for `o <= self`.
    pub fn sub(&self, o: &Q) -> Q {
        Q::new(&self.num * &o.den - &o.num * &self.den, &self.den * &o.den)
    }
    pub fn mul(&self, o: &Q) -> Q {
        Q::new(&self.num * &o.num, &self.den * &o.den)
    }
    /// Exact comparison by cross-multiplication.
    pub fn cmp_q(&self, o: &Q) -> Ordering {
        (&self.num * &o.den).cmp(&(&o.num * &self.den))
    }
    pub fn ratio(&self) -> Ratio {
        Ratio::new(self.num.clone(), self.den.clone())
    }
}

impl PartialEq for Q {
    fn eq(&self, o: &Q) -> bool {
        self.cmp_q(o) == Ordering::Equal
    }
}

/// The settings of `best` the native player takes (`Options` in Python).
#[derive(Debug, Clone)]
pub struct Options {
    pub endgame: bool,
    pub endgame_layouts: u64,
    pub endgame_budget: u64,
    pub fifty: bool,
    pub dead: bool,
    pub dominance: bool,
    pub second: bool,
    pub margin: Q,
    pub max_candidates: usize,
    pub progress_weight: Q,
    /// The latent 50/50 weight (pairs only, as `latent_blocks` off).
    pub latent: bool,
    pub latent_weight: Q,
    pub latent_missing: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            endgame: true,
            endgame_layouts: 1000,
            endgame_budget: 20_000,
            fifty: true,
            dead: true,
            dominance: true,
            second: true,
            margin: Q::new(1u8.into(), 20u8.into()),
            max_candidates: 12,
            progress_weight: Q::new(1u8.into(), 10u8.into()),
            latent: true,
            latent_weight: Q::new(1u8.into(), 2u8.into()),
            latent_missing: 2,
        }
    }
}

/// The outcomes taken and the `(score, progress)` key, `None` when cut short.
type Scored = (Vec<Out>, Option<(Q, Q)>);

/// One outcome of a candidate: its probability and the child position.
struct Out {
    probability: Q,
    child: Child,
}

/// `best`, with its endgame search's cache and the component counts of the game.
#[derive(Debug, Default)]
pub struct Best {
    pub options: Options,
    endgame: Endgame,
    counts: Counts,
}

/// The best chance of surviving the next click from a child (`next_safety`).
fn next_safety(child: &Child) -> Q {
    if child.safe > 0 {
        return Q::int(1);
    }
    match child.lowest() {
        None => Q::int(1),
        Some(low) => Q::int(1).sub(&Q::of(&low)),
    }
}

/// The candidates of one guess (`_Window`).
#[derive(Default)]
struct Window {
    live: Vec<usize>,
    dead: Vec<usize>,
    outcomes: Vec<(usize, Vec<Out>)>,
    scored: Vec<(Q, Q, usize)>,
    weights: Vec<(usize, Q)>,
    top: Option<(Q, Q)>,
    low: Option<Q>,
}

impl Window {
    fn outs(&self, cell: usize) -> &[Out] {
        self.outcomes
            .iter()
            .find(|(c, _)| *c == cell)
            .map_or(&[], |(_, o)| o.as_slice())
    }
}

fn key_gt(a: &(Q, Q), b: &(Q, Q)) -> bool {
    match a.0.cmp_q(&b.0) {
        Ordering::Equal => a.1.cmp_q(&b.1) == Ordering::Greater,
        o => o == Ordering::Greater,
    }
}

struct Ctx<'a> {
    view: &'a View<'a>,
    a: &'a Analysis,
    parent: &'a Parent,
    layouts: BigUint,
    deadline: &'a Deadline,
    /// The probability of each level, made once.
    levels: Vec<Q>,
}

impl<'a> Ctx<'a> {
    fn new(
        view: &'a View<'a>,
        a: &'a Analysis,
        parent: &'a Parent,
        deadline: &'a Deadline,
    ) -> Ctx<'a> {
        Ctx {
            view,
            a,
            parent,
            layouts: layout_count(a),
            deadline,
            levels: (0..a.weights.len() as u32 + 2 + u32::from(a.interior_level.is_some()))
                .map(|l| Q::of(&level_ratio(a, l)))
                .collect(),
        }
    }

    fn prob(&self, cell: usize) -> Q {
        self.levels[self.a.cell_level[cell] as usize].clone()
    }

    /// The outcomes of `cell` by increasing digit, lazily: `next` gives the following one.
    fn outcomes(&self, cell: usize) -> OutcomeIter<'_> {
        let (low, high) = if self.a.cell_level[cell] == ONE {
            (1, 0)
        } else {
            digit_range(self.view, self.a, cell)
        };
        OutcomeIter {
            ctx: self,
            cell,
            digit: low,
            high,
        }
    }

    /// Whether `cell` is uncertain (unknown, neither certainly safe nor a mine).
    fn uncertain(&self, cell: usize) -> bool {
        let l = self.a.cell_level[cell];
        l != NOT_UNKNOWN && l != ZERO && l != ONE
    }

    fn uncertain_neighbours(&self, cell: usize) -> Vec<usize> {
        self.view
            .neighbours(cell)
            .filter(|&nb| self.view.raw[nb] == HIDDEN && self.uncertain(nb))
            .collect()
    }
}

struct OutcomeIter<'a> {
    ctx: &'a Ctx<'a>,
    cell: usize,
    digit: u8,
    high: u8,
}

impl OutcomeIter<'_> {
    fn next(&mut self) -> Result<Option<Out>, PlayError> {
        while self.digit <= self.high {
            let d = self.digit;
            self.digit += 1;
            let ctx = self.ctx;
            if let Some(child) = ctx.parent.child(ctx.view, self.cell, d, ctx.deadline)? {
                if !child.layouts.is_zero() {
                    let probability = Q::new(child.layouts.clone(), ctx.layouts.clone());
                    return Ok(Some(Out { probability, child }));
                }
            }
        }
        Ok(None)
    }
}

impl Best {
    /// A `best` with these settings.
    pub fn new(options: Options) -> Best {
        let endgame = Endgame::new(options.endgame_budget);
        Best {
            options,
            endgame,
            counts: Counts::default(),
        }
    }

    /// The guess for a position with no certainly-safe cell, and why.
    pub fn choose(
        &mut self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        if self.options.endgame {
            let layouts = layout_count(a);
            if layouts <= BigUint::from(self.options.endgame_layouts) {
                let limit = usize::try_from(self.options.endgame_layouts).unwrap_or(usize::MAX);
                if let Some(list) = enumerate_layouts(view, limit, deadline)? {
                    // beyond its node budget the search gives up, as Python's does, and
                    // the heuristic chooses; a deadline stops the move
                    match self.endgame.best_move(view, &list, deadline) {
                        Ok(Some((cell, wins, total))) => {
                            let probability = level_ratio(a, a.cell_level[cell]);
                            let why = Why::Endgame {
                                wins,
                                layouts: total,
                                probability,
                            };
                            return Ok((cell as u32, why));
                        }
                        Ok(None) | Err(Cut::Budget) => {}
                        Err(Cut::Stop(stop)) => return Err(PlayError::Stop(stop)),
                    }
                }
            }
        }
        let ctx = Ctx::new(view, a, parent, deadline);
        if self.options.fifty {
            if let Some((x, y)) = self.fifty_fifty(&ctx)? {
                return Ok((x as u32, Why::FiftyFifty { other: y as u32 }));
            }
        }
        self.heuristic(&ctx, rng)
    }

    /// An unavoidable 50/50 (`find_fifty_fifty`).
    fn fifty_fifty(&self, ctx: &Ctx<'_>) -> Result<Option<(usize, usize)>, PlayError> {
        let half = Q::new(1u8.into(), 2u8.into());
        let a = ctx.a;
        let cells: Vec<usize> = (0..a.cell_level.len())
            .filter(|&i| {
                let l = a.cell_level[i];
                l != NOT_UNKNOWN && l != ZERO && l != ONE && ctx.prob(i) == half
            })
            .collect();
        if cells.is_empty() {
            return Ok(None);
        }
        let around: Vec<Vec<usize>> = cells.iter().map(|&c| ctx.uncertain_neighbours(c)).collect();
        // per cell: None not yet known, Some(None) two digits or more, Some(Some(out))
        let mut dead: Vec<Option<Option<Out>>> = (0..cells.len()).map(|_| None).collect();
        let only = |k: usize, dead: &mut Vec<Option<Option<Out>>>| -> Result<(), PlayError> {
            if dead[k].is_none() {
                let mut it = ctx.outcomes(cells[k]);
                let first = it.next()?;
                let second = if first.is_some() { it.next()? } else { None };
                dead[k] = Some(match (first, second) {
                    (Some(o), None) => Some(o),
                    _ => None,
                });
            }
            Ok(())
        };
        for ka in 0..cells.len() {
            ctx.deadline.check()?; // O(h) structural comparisons a cell
            let ca = cells[ka];
            for kb in ka + 1..cells.len() {
                let cb = cells[kb];
                let mut sa: Vec<usize> = around[ka].iter().copied().filter(|&x| x != cb).collect();
                let mut sb: Vec<usize> = around[kb].iter().copied().filter(|&x| x != ca).collect();
                sa.sort_unstable();
                sb.sort_unstable();
                if sa != sb {
                    continue;
                }
                if !digits_blind(ctx, ca, cb) {
                    continue;
                }
                only(ka, &mut dead)?;
                let Some(Some(out_a)) = &dead[ka] else {
                    break;
                };
                if out_a.child.certainty(ctx.parent, ctx.view, cb) != Certainty::Mine {
                    continue;
                }
                only(kb, &mut dead)?;
                if let Some(Some(_)) = &dead[kb] {
                    return Ok(Some((ca, cb)));
                }
            }
        }
        Ok(None)
    }

    /// The cells not certain mines in `_order`'s order: float probability, exact ties by
    /// probability then by uncertain neighbours, then reading order; deep cells once per
    /// class.
    fn order(&self, ctx: &Ctx<'_>) -> Vec<usize> {
        let a = ctx.a;
        let mut cells: Vec<(f64, usize)> = (0..a.cell_level.len())
            .filter(|&i| a.cell_level[i] != NOT_UNKNOWN && a.cell_level[i] != ONE)
            .map(|i| {
                let r = level_ratio(a, a.cell_level[i]);
                (ratio_to_f64(&r.num, &r.den), i)
            })
            .collect();
        cells.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut ordered = Vec::with_capacity(cells.len());
        let mut k = 0;
        while k < cells.len() {
            let mut end = k + 1;
            while end < cells.len() && cells[end].0 == cells[k].0 {
                end += 1;
            }
            let mut run: Vec<usize> = cells[k..end].iter().map(|c| c.1).collect();
            if run.len() > 1 {
                let uncertain_around = |c: usize| {
                    ctx.view
                        .neighbours(c)
                        .filter(|&nb| ctx.uncertain(nb))
                        .count()
                };
                run.sort_by(|&x, &y| {
                    ctx.prob(x)
                        .cmp_q(&ctx.prob(y))
                        .then(uncertain_around(x).cmp(&uncertain_around(y)))
                });
            }
            ordered.extend(run);
            k = end;
        }
        let ordered: Vec<u32> = ordered.into_iter().map(|c| c as u32).collect();
        representatives(ctx.view, &ordered)
            .into_iter()
            .map(|c| c as usize)
            .collect()
    }

    fn bound(&self, p: &Q) -> Q {
        let safe = Q::int(1).sub(p);
        let most = if self.options.latent {
            Q::int(1).add(&self.options.latent_weight)
        } else {
            Q::int(1)
        };
        if self.options.second {
            safe.mul(&Q::int(1).add(&self.options.progress_weight.mul(&safe)))
                .mul(&most)
        } else {
            safe.mul(&most)
        }
    }

    /// The latent patterns around `cell` worth counting (`patterns`, pairs only): for
    /// each, the cells that must be mines.
    fn patterns(&self, ctx: &Ctx<'_>, cell: usize) -> Vec<Vec<usize>> {
        let view = ctx.view;
        let a = ctx.a;
        let (w, h) = (view.width as i64, view.height as i64);
        let (x, y) = ((cell % view.width) as i64, (cell / view.width) as i64);
        let idx = |x: i64, y: i64| (y * w + x) as usize;
        let level = |i: usize| a.cell_level[i];
        let hidden = |i: usize| view.raw[i] == HIDDEN;
        let mut near_c: Vec<usize> = view.neighbours(cell).collect();
        near_c.push(cell);
        let mut out = Vec::new();
        for (vx, vy) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if !(0 <= vx && vx < w && 0 <= vy && vy < h) {
                continue;
            }
            let v = idx(vx, vy);
            if !hidden(v) || level(v) == ZERO {
                continue;
            }
            let mut near_v: Vec<usize> = view.neighbours(v).collect();
            near_v.push(v);
            let flanks = near_c
                .iter()
                .filter(|f| !near_v.contains(f))
                .chain(near_v.iter().filter(|f| !near_c.contains(f)))
                .copied()
                .filter(|&f| f != cell && f != v);
            let mut need = Vec::new();
            let mut possible = true;
            for f in flanks {
                if view.raw[f] <= 8 || (level(f) == ZERO && hidden(f)) {
                    possible = false;
                    break;
                }
                if hidden(f) && level(f) != ONE {
                    need.push(f);
                }
            }
            if possible && need.len() <= self.options.latent_missing {
                let mut mines = vec![v];
                mines.extend(need);
                out.push(mines);
            }
        }
        out
    }

    /// `1 + latent_weight * share` (`_factor`; `latent_share`): the share counted by
    /// inclusion and exclusion over the layouts of positions with the pattern's mines
    /// flagged, over P(cell safe), capped at 1.
    fn factor(&self, ctx: &Ctx<'_>, cell: usize) -> Result<Q, PlayError> {
        if !self.options.latent {
            return Ok(Q::int(1));
        }
        let safe = Q::int(1).sub(&ctx.prob(cell));
        if safe.num.is_zero() {
            return Ok(Q::int(1));
        }
        let count = |mines: &[usize]| -> Result<BigUint, PlayError> {
            let mut raw = ctx.view.raw.to_vec();
            for &m in mines {
                raw[m] = crate::game::FLAG;
            }
            let child = View {
                raw: &raw,
                ..*ctx.view
            };
            match child.analyse(ctx.deadline) {
                Ok(c) => Ok(layout_count(&c)),
                Err(ExactError::Inconsistent) => Ok(BigUint::zero()),
                Err(e) => Err(e.into()),
            }
        };
        let mut total = BigUint::zero();
        for mines in self.patterns(ctx, cell) {
            let base = count(&mines)?;
            if base.is_zero() {
                continue;
            }
            let mut with_cell = mines.clone();
            with_cell.push(cell);
            total += base - count(&with_cell)?;
        }
        let mut share = Q::new(total, ctx.layouts.clone());
        share = Q::new(&share.num * &safe.den, &share.den * &safe.num);
        if share.cmp_q(&Q::int(1)) == Ordering::Greater {
            share = Q::int(1);
        }
        Ok(Q::int(1).add(&self.options.latent_weight.mul(&share)))
    }

    /// `_score`: the outcomes taken and `(score, progress)`, or `None` when cut short.
    fn score(
        &self,
        p: &Q,
        it: &mut dyn FnMut() -> Result<Option<Out>, PlayError>,
        beat: Option<&Q>,
        most: &Q,
    ) -> Result<Scored, PlayError> {
        let second = self.options.second;
        let w = &self.options.progress_weight;
        let mut rest = Q::int(1).sub(p);
        let mut safety = Q::int(0);
        let mut progress = Q::int(0);
        let mut outs: Vec<Out> = Vec::new();
        while let Some(o) = it()? {
            if o.child.safe > 0 {
                progress = progress.add(&o.probability);
            }
            if second {
                rest = rest.sub(&o.probability);
                safety = safety.add(&o.probability.mul(&next_safety(&o.child)));
            }
            outs.push(o);
            if !second {
                continue;
            }
            if let Some(beat) = beat {
                let bound = safety
                    .add(&rest)
                    .mul(&Q::int(1).add(&w.mul(&progress.add(&rest))))
                    .mul(most);
                if outs.len() >= 2 && bound.cmp_q(beat) == Ordering::Less {
                    return Ok((outs, None));
                }
            }
        }
        if !second {
            return Ok((outs, Some((Q::int(1).sub(p), progress))));
        }
        let score = safety.mul(&Q::int(1).add(&w.mul(&progress)));
        Ok((outs, Some((score, progress))))
    }

    fn dominated(&self, ctx: &Ctx<'_>, b: usize, others: &[usize], window: &Window) -> bool {
        let pb = ctx.prob(b);
        others.iter().any(|&a| {
            a != b
                && ctx.prob(a).cmp_q(&pb) == Ordering::Less
                && window
                    .outs(b)
                    .iter()
                    .all(|o| o.child.certainty(ctx.parent, ctx.view, a) == Certainty::Safe)
        })
    }

    fn heuristic(&self, ctx: &Ctx<'_>, rng: &mut Mt) -> Result<(u32, Why), PlayError> {
        let opts = &self.options;
        let mut window = Window::default();
        for cell in self.order(ctx) {
            let p = ctx.prob(cell);
            if let Some(low) = &window.low {
                if p.cmp_q(&low.add(&opts.margin)) == Ordering::Greater
                    || window.live.len() >= opts.max_candidates
                {
                    break;
                }
            }
            let beat = window.top.as_ref().map(|t| t.0.clone());
            if let Some(b) = &beat {
                if self.bound(&p).cmp_q(b) == Ordering::Less {
                    break;
                }
            }
            // _weigh: the latent weight is at most `most`, counted only for a cell kept
            let most = if opts.latent && !self.patterns(ctx, cell).is_empty() {
                Q::int(1).add(&opts.latent_weight)
            } else {
                Q::int(1)
            };
            let mut it = ctx.outcomes(cell);
            let (outs, key) = self.score(&p, &mut || it.next(), beat.as_ref(), &most)?;
            let count = outs.len();
            window.outcomes.push((cell, outs));
            if opts.dead && count <= 1 {
                if window.dead.len() < opts.max_candidates {
                    window.dead.push(cell);
                }
                continue;
            }
            if window.low.is_none() {
                window.low = Some(p.clone());
            }
            let dominated =
                key.is_some() && opts.dominance && self.dominated(ctx, cell, &window.live, &window);
            window.live.push(cell);
            let Some(mut key) = key else { continue };
            if dominated {
                continue;
            }
            if most.cmp_q(&Q::int(1)) == Ordering::Greater {
                let weight = self.factor(ctx, cell)?;
                key = (key.0.mul(&weight), key.1);
                window.weights.push((cell, weight));
            }
            window.scored.push((key.0.clone(), key.1.clone(), cell));
            if window.top.as_ref().is_none_or(|t| key_gt(&key, t)) {
                window.top = Some(key);
            }
        }
        if window.live.is_empty() {
            // _weigh_dead
            let dead = window.dead.clone();
            let mut kept: Vec<usize> = dead
                .iter()
                .copied()
                .filter(|&b| !(opts.dominance && self.dominated(ctx, b, &dead, &window)))
                .collect();
            if kept.is_empty() {
                kept = dead;
            }
            window.scored.clear();
            for c in kept {
                let p = ctx.prob(c);
                let outs = window.outs(c);
                let mut k = 0;
                let mut replay = || -> Result<Option<Out>, PlayError> {
                    k += 1;
                    Ok(outs.get(k - 1).map(|o| Out {
                        probability: o.probability.clone(),
                        child: o.child.clone(),
                    }))
                };
                let (_, key) = self.score(&p, &mut replay, None, &Q::int(1))?;
                let key = key.expect("nothing to beat: never cut short");
                let weight = self.factor(ctx, c)?;
                window.scored.push((key.0.mul(&weight), key.1, c));
                window.weights.push((c, weight));
            }
            let mut top: Option<(Q, Q)> = None;
            for (s, g, _) in &window.scored {
                let k = (s.clone(), g.clone());
                if top.as_ref().is_none_or(|t| key_gt(&k, t)) {
                    top = Some(k);
                }
            }
            window.top = top;
        }
        let top = window
            .top
            .clone()
            .ok_or_else(|| PlayError::Invalid("no candidate to guess".into()))?;
        let best: Vec<usize> = window
            .scored
            .iter()
            .filter(|(s, g, _)| *s == top.0 && *g == top.1)
            .map(|e| e.2)
            .collect();
        let cell = if best.len() == 1 {
            best[0]
        } else {
            best[rng.choice(best.len())]
        };
        let latent_weight = window
            .weights
            .iter()
            .rev()
            .find(|(c, _)| *c == cell)
            .map_or(Q::int(1), |(_, w)| w.clone());
        let why = Why::Safety {
            latent_weight: latent_weight.ratio(),
            second: opts.second,
            score: top.0.ratio(),
            progress: top.1.ratio(),
            probability: ctx.prob(cell).ratio(),
            weighed: window.scored.len(),
        };
        Ok((cell as u32, why))
    }
}

/// True when no revealed digit can ever tell `a` from `b` (`_digits_blind`).
fn digits_blind(ctx: &Ctx<'_>, a: usize, b: usize) -> bool {
    let na: Vec<usize> = ctx.view.neighbours(a).collect();
    let nb: Vec<usize> = ctx.view.neighbours(b).collect();
    let one_side = na
        .iter()
        .filter(|x| !nb.contains(x))
        .chain(nb.iter().filter(|x| !na.contains(x)));
    !one_side.into_iter().any(|&d| {
        ctx.view.raw[d] <= 8
            && ctx
                .uncertain_neighbours(d)
                .iter()
                .any(|&x| x != a && x != b)
    })
}

impl Player for Best {
    fn reset(&mut self) {
        self.endgame.clear();
        self.counts.clear();
    }

    fn counts(&mut self) -> &mut Counts {
        &mut self.counts
    }

    fn guess(
        &mut self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        self.choose(view, a, parent, rng, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::exact::ExactError;
    use crate::limits::Stop;
    use crate::players::lowest_cells;
    use crate::players::testing::guess_spots;

    fn q(n: u64, d: u64) -> Q {
        Q::new(n.into(), d.into())
    }

    #[test]
    fn fractions_are_exact_and_reduced() {
        let x = q(6, 8);
        assert_eq!((x.num.clone(), x.den.clone()), (3u8.into(), 4u8.into()));
        assert!(x.add(&q(1, 6)) == q(11, 12));
        assert!(x.sub(&q(1, 4)) == q(1, 2));
        assert!(x.mul(&q(2, 3)) == q(1, 2));
        assert_eq!(q(1, 3).cmp_q(&q(2, 6)), Ordering::Equal);
        assert_eq!(q(1, 3).cmp_q(&q(3, 8)), Ordering::Less);
        assert!(q(0, 5) == Q::int(0));
    }

    /// Two cells under two 1s, one mine: whichever is opened shows the same digit, an
    /// unavoidable 50/50, taken at once (or won by the endgame search in one of two).
    #[test]
    fn an_unavoidable_fifty_fifty() {
        let cells = raw(&["11", "HH"]);
        let view = View {
            width: 2,
            height: 2,
            mines: 1,
            raw: &cells,
        };
        let no_endgame = Options {
            endgame: false,
            ..Options::default()
        };
        let moves = Best::new(no_endgame)
            .next_moves(&view, &mut Mt::from_u64(1), &Deadline::none())
            .unwrap();
        assert_eq!(moves.len(), 1);
        let m = &moves[0];
        assert!(m.guess && m.cell == 2);
        assert!(matches!(m.why, Why::FiftyFifty { other: 3 }));
        let moves = Best::new(Options::default())
            .next_moves(&view, &mut Mt::from_u64(1), &Deadline::none())
            .unwrap();
        assert!(matches!(
            moves[0].why,
            Why::Endgame {
                wins: 1,
                layouts: 2,
                ..
            }
        ));
    }

    /// Where the layouts are few, the guess is the endgame search's, and it wins as many
    /// layouts as a fresh search finds.
    #[test]
    fn few_layouts_go_to_the_endgame_search() {
        let mut searched = 0;
        for spot in guess_spots(31, 6, 6, 6, 200) {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let layouts = layout_count(&a);
            let mut best = Best::new(Options::default());
            let moves = best
                .next_moves(&view, &mut Mt::from_u64(0), &Deadline::none())
                .unwrap();
            let guess = moves.last().unwrap();
            let few = layouts <= BigUint::from(1000u32);
            match &guess.why {
                Why::Endgame {
                    wins, layouts: n, ..
                } => {
                    assert!(few);
                    let list = enumerate_layouts(&view, 1000, &Deadline::none())
                        .unwrap()
                        .unwrap();
                    assert_eq!(BigUint::from(*n), layouts);
                    let fresh = Endgame::new(20_000)
                        .best_move(&view, &list, &Deadline::none())
                        .unwrap()
                        .unwrap();
                    assert_eq!((fresh.1, fresh.2), (*wins, *n));
                    searched += 1;
                }
                _ => assert!(!few || layouts > BigUint::from(100u32), "{layouts} layouts"),
            }
        }
        assert!(searched > 20, "{searched} searches");
    }

    /// The chances of a click by full analyses: `(probability, child)` per digit shown,
    /// the child as `(certainly safe cells, lowest probability)`.
    fn outcomes_by_full_analyses(view: &View<'_>, cell: usize) -> Vec<(Q, usize, Option<Q>)> {
        let a = view.analyse(&Deadline::none()).unwrap();
        let layouts = layout_count(&a);
        let mut raw = view.raw.to_vec();
        let mut out = Vec::new();
        for digit in 0..=8 {
            raw[cell] = digit;
            let child = View { raw: &raw, ..*view };
            match child.analyse(&Deadline::none()) {
                Ok(c) => {
                    let n = layout_count(&c);
                    if !n.is_zero() {
                        let low = lowest_cells(&c).map(|l| Q::of(&l.0));
                        out.push((Q::new(n, layouts.clone()), c.safe.len(), low));
                    }
                }
                Err(ExactError::Inconsistent) => {}
                Err(e) => panic!("{e:?}"),
            }
        }
        out
    }

    /// Without the 50/50s, the latent weight and dominance, the guess is the candidate
    /// of highest second-move safety (ties by progress) among the first live ones within
    /// the margin: its score as the full analyses of every outcome give it.
    #[test]
    fn the_guess_has_the_best_second_move_safety() {
        let options = Options {
            endgame: false,
            fifty: false,
            latent: false,
            dominance: false,
            ..Options::default()
        };
        let w = options.progress_weight.clone();
        let mut checked = 0;
        for spot in guess_spots(32, 9, 9, 10, 40) {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let parent = Parent::new(&view, &Deadline::none()).unwrap();
            let mut best = Best::new(options.clone());
            let (cell, why) = best
                .choose(&view, &a, &parent, &mut Mt::from_u64(0), &Deadline::none())
                .unwrap();
            let Why::Safety {
                score,
                progress,
                probability,
                ..
            } = why
            else {
                panic!("the heuristic's reason");
            };
            // (score, progress) of a cell by full analyses
            let key = |c: usize| {
                let outs = outcomes_by_full_analyses(&view, c);
                let mut safety = Q::int(0);
                let mut prog = Q::int(0);
                for (p, safe, low) in &outs {
                    let next = match (safe, low) {
                        (0, Some(l)) => Q::int(1).sub(l),
                        _ => Q::int(1),
                    };
                    safety = safety.add(&p.mul(&next));
                    if *safe > 0 {
                        prog = prog.add(p);
                    }
                }
                (safety.mul(&Q::int(1).add(&w.mul(&prog))), prog, outs.len())
            };
            let none = Deadline::none();
            let ctx = Ctx::new(&view, &a, &parent, &none);
            let mut window: Vec<(Q, Q)> = Vec::new();
            let mut low: Option<Q> = None;
            for c in best.order(&ctx) {
                let p = ctx.prob(c);
                if let Some(l) = &low {
                    if p.cmp_q(&l.add(&options.margin)) == Ordering::Greater
                        || window.len() >= options.max_candidates
                    {
                        break;
                    }
                }
                let (s, g, count) = key(c);
                if count <= 1 {
                    continue; // dead
                }
                low.get_or_insert(p);
                window.push((s, g));
            }
            let Some(top) = window
                .into_iter()
                .reduce(|t, k| if key_gt(&k, &t) { k } else { t })
            else {
                continue; // every candidate dead
            };
            let (s, g, _) = key(cell as usize);
            assert!(s == Q::of(&score) && g == Q::of(&progress), "cell {cell}");
            assert!(s == top.0 && g == top.1, "cell {cell} is not the best");
            assert!(Q::of(&probability) == ctx.prob(cell as usize));
            checked += 1;
        }
        assert!(checked > 30, "{checked} guesses checked");
    }

    #[test]
    fn a_passed_deadline_stops_the_move() {
        let spot = &guess_spots(33, 9, 9, 10, 5)[0];
        let view = spot.view();
        let got = Best::new(Options::default()).next_moves(
            &view,
            &mut Mt::from_u64(0),
            &Deadline::after(0.0),
        );
        assert_eq!(got.unwrap_err(), PlayError::Stop(Stop::Deadline));
        // inside the guess: the endgame's listing and search, the heuristic's what-ifs
        let a = view.analyse(&Deadline::none()).unwrap();
        let parent = Parent::new(&view, &Deadline::none()).unwrap();
        for endgame in [true, false] {
            let mut best = Best::new(Options {
                endgame,
                ..Options::default()
            });
            let got = best.choose(
                &view,
                &a,
                &parent,
                &mut Mt::from_u64(0),
                &Deadline::after(0.0),
            );
            assert_eq!(got.unwrap_err(), PlayError::Stop(Stop::Deadline));
        }
    }
}
