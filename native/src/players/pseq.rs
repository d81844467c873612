//! `pseq`: the player of Tu, Zhang and Liu (2017) without its endgame search, as
//! `minesolver.strategy.pseq` has it: every certain move; else among the cells of lowest
//! mine probability, the highest probability of a new certainly-safe cell, then the most
//! certainly-safe cells expected, then the highest entropy of the digit shown, then a
//! draw with the game's generator.
//!
//! The what-if of each candidate (the position with the cell showing each digit it can
//! show) gives the layouts and the certainly-safe cells of that position
//! ([`crate::whatif`]): exact, so they equal the Python players' what-ifs (and a full
//! native analysis of the child: tested). Cells far from every digit are evaluated once per class
//! (`deep_signature`), in the order the Python player meets them.
//!
//! Cost per guess: at most one analysis per (candidate, possible digit), fewer when a
//! candidate's remaining digits cannot lift it to the best progress so far; certain moves
//! cost one.

use std::cmp::Ordering;

use num_bigint::BigUint;
use num_traits::{CheckedSub, Zero};

use crate::exact::{Analysis, ExactError, NOT_UNKNOWN, ONE};
use crate::game::{FLAG, HIDDEN};
use crate::limits::Deadline;
use crate::mt::Mt;

use crate::count::Counts;
use crate::whatif::Parent;

use super::{
    layout_count, lowest_cells, python_sum, ratio_to_f64, PlayError, Player, Ratio, View, Why,
};
pub use crate::whatif::digit_range;

/// The `pseq` player; it keeps the counts of the components it met in the game.
#[derive(Debug, Default)]
pub struct Pseq {
    /// Sum the entropy terms as Python 3.12+'s `sum` does (compensated), not 3.11's.
    pub compensated_sum: bool,
    counts: Counts,
}

impl Pseq {
    /// A `pseq` summing the entropy as Python 3.12+ does when `compensated_sum`.
    pub fn new(compensated_sum: bool) -> Pseq {
        Pseq {
            compensated_sum,
            counts: Counts::default(),
        }
    }
}

/// One outcome of a click: the layouts in which the cell shows a digit (over the same
/// denominator, the position's layouts) and the certainly-safe cells that follow.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub digit: u8,
    pub layouts: BigUint,
    pub safe: usize,
}

/// Every digit `cell` can show with its layouts and the certain cells after it
/// (`cell_outcomes`): one analysis per digit of [`digit_range`].
pub fn cell_outcomes(
    view: &View<'_>,
    a: &Analysis,
    cell: usize,
    deadline: &Deadline,
) -> Result<Vec<Outcome>, PlayError> {
    if a.cell_level[cell] == ONE {
        return Ok(Vec::new());
    }
    let (low, high) = digit_range(view, a, cell);
    let mut raw = view.raw.to_vec();
    let mut out = Vec::new();
    for digit in low..=high {
        raw[cell] = digit;
        let child = View { raw: &raw, ..*view };
        match child.analyse(deadline) {
            Ok(c) => {
                let layouts = layout_count(&c);
                if !layouts.is_zero() {
                    out.push(Outcome {
                        digit,
                        layouts,
                        safe: c.safe.len(),
                    });
                }
            }
            Err(ExactError::Inconsistent) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}

/// [`cell_outcomes`] by the what-ifs of `parent` (the same numbers, without analysing
/// the board again), or `None` as soon as the candidate's progress cannot reach `best`
/// (`bound = (layouts in which the cell is safe, best progress so far)`).
fn cell_outcomes_bounded(
    view: &View<'_>,
    a: &Analysis,
    parent: &Parent,
    cell: usize,
    bound: Option<(&BigUint, &BigUint)>,
    deadline: &Deadline,
) -> Result<Option<Vec<Outcome>>, PlayError> {
    if a.cell_level[cell] == ONE {
        return Ok(Some(Vec::new()));
    }
    let (low, high) = digit_range(view, a, cell);
    let mut out = Vec::new();
    let mut seen = BigUint::zero();
    let mut progress = BigUint::zero();
    for digit in low..=high {
        if let Some(child) = parent.child(view, cell, digit, deadline)? {
            let (layouts, safe) = (child.layouts, child.safe);
            if !layouts.is_zero() {
                seen += &layouts;
                if safe > 0 {
                    progress += &layouts;
                }
                out.push(Outcome {
                    digit,
                    layouts,
                    safe,
                });
            }
        }
        // what the digits not yet analysed can still add
        if let Some((safe_layouts, best)) = bound {
            if let Some(left) = safe_layouts.checked_sub(&seen) {
                if &progress + left < *best {
                    return Ok(None);
                }
            }
        }
    }
    Ok(Some(out))
}

/// Per cell index, whether it is a digit or touches one (`digit_neighbourhood`).
pub fn digit_neighbourhood(view: &View<'_>) -> Vec<bool> {
    let mut near = vec![false; view.raw.len()];
    for (i, &v) in view.raw.iter().enumerate() {
        if v <= 8 {
            near[i] = true;
            for j in view.neighbours(i) {
                near[j] = true;
            }
        }
    }
    near
}

/// The class of a cell far from every digit, `(hidden, flagged)` neighbours, or `None`
/// (`deep_signature`).
pub fn deep_signature(view: &View<'_>, near: &[bool], cell: usize) -> Option<(u8, u8)> {
    if near[cell] {
        return None;
    }
    let (mut hidden, mut flags) = (0u8, 0u8);
    for j in view.neighbours(cell) {
        if view.raw[j] == FLAG {
            flags += 1;
        } else if near[j] {
            return None;
        } else {
            hidden += 1;
        }
    }
    Some((hidden, flags))
}

/// `cells` with each class of deep cells kept once, the first met (`representatives`).
pub fn representatives(view: &View<'_>, cells: &[u32]) -> Vec<u32> {
    let near = digit_neighbourhood(view);
    let mut seen: Vec<(u8, u8)> = Vec::new();
    let mut out = Vec::new();
    for &c in cells {
        if let Some(sig) = deep_signature(view, &near, c as usize) {
            if seen.contains(&sig) {
                continue;
            }
            seen.push(sig);
        }
        out.push(c);
    }
    out
}

/// A candidate's key: layouts with a new safe cell, layouts times safe cells (both over
/// the position's layouts), and the digit entropy (`pseq_key`).
#[derive(Debug, Clone)]
struct Key {
    progress: BigUint,
    expected: BigUint,
    entropy: f64,
}

impl Key {
    fn of(outcomes: &[Outcome], compensated: bool) -> Key {
        let mut progress = BigUint::zero();
        let mut expected = BigUint::zero();
        let mut total = BigUint::zero();
        for o in outcomes {
            if o.safe > 0 {
                progress += &o.layouts;
            }
            expected += &o.layouts * o.safe;
            total += &o.layouts;
        }
        Key {
            progress,
            expected,
            entropy: digit_entropy(outcomes, &total, compensated),
        }
    }

    fn cmp(&self, other: &Key) -> Ordering {
        self.progress
            .cmp(&other.progress)
            .then_with(|| self.expected.cmp(&other.expected))
            .then_with(|| {
                self.entropy
                    .partial_cmp(&other.entropy)
                    .unwrap_or(Ordering::Equal)
            })
    }
}

/// The entropy in bits of the digit shown given the cell is safe, as
/// `digit_entropy` computes it in floats: `-sum(q * log2(q))`, `q = float(p / total)`.
fn digit_entropy(outcomes: &[Outcome], total: &BigUint, compensated: bool) -> f64 {
    if total.is_zero() {
        return 0.0;
    }
    let terms: Vec<f64> = outcomes
        .iter()
        .filter(|o| !o.layouts.is_zero())
        .map(|o| {
            let q = ratio_to_f64(&o.layouts, total);
            q * q.log2()
        })
        .collect();
    -python_sum(&terms, compensated)
}

impl Pseq {
    /// The guess for a position with no certainly-safe cell, and why (`choose`).
    pub fn choose(
        &self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        let (low, tied) = lowest_cells(a)
            .ok_or_else(|| PlayError::Invalid("no cell left that could be safe".into()))?;
        if tied.len() == 1 {
            return Ok((tied[0], Why::Lowest { low, tied: 1 }));
        }
        // A candidate's outcomes add up to the layouts in which it is safe, the same for
        // every tied candidate; once what is left of them cannot lift a candidate's
        // progress to the best progress so far, it cannot be chosen: its remaining
        // analyses are skipped (the chosen cell and the draw are unchanged).
        let layouts = layout_count(a);
        let safe_layouts = {
            let mines = &layouts * &low.num;
            if (&mines % &low.den).is_zero() {
                Some(&layouts - mines / &low.den)
            } else {
                None // cannot happen for an exact analysis; then nothing is skipped
            }
        };
        // Evaluated in an order likely to meet a high progress early (more pruning);
        // the survivors are then put back in the Python player's order, which the draw
        // among ties follows.
        let reps = representatives(view, &tied);
        let mut order: Vec<usize> = (0..reps.len()).collect();
        // (fewest hidden neighbours first: the more constrained cells more often prove
        // a cell safe whatever they show)
        order.sort_by_key(|&k| {
            let c = reps[k] as usize;
            view.neighbours(c)
                .filter(|&j| view.raw[j] == HIDDEN)
                .count()
        });
        let mut scored: Vec<(usize, Key, u32)> = Vec::new();
        let mut best_progress: Option<BigUint> = None;
        for &k in &order {
            let cell = reps[k];
            let bound = match (&safe_layouts, &best_progress) {
                (Some(s), Some(b)) => Some((s, b)),
                _ => None,
            };
            if let Some(outcomes) =
                cell_outcomes_bounded(view, a, parent, cell as usize, bound, deadline)?
            {
                let key = Key::of(&outcomes, self.compensated_sum);
                if best_progress.as_ref().is_none_or(|b| key.progress > *b) {
                    best_progress = Some(key.progress.clone());
                }
                scored.push((k, key, cell));
            }
        }
        scored.sort_by_key(|e| e.0);
        let scored: Vec<(Key, u32)> = scored
            .into_iter()
            .map(|(_, key, cell)| (key, cell))
            .collect();
        let mut top = 0;
        for k in 1..scored.len() {
            if scored[k].0.cmp(&scored[top].0) == Ordering::Greater {
                top = k;
            }
        }
        let best: Vec<usize> = (0..scored.len())
            .filter(|&k| scored[k].0.cmp(&scored[top].0) == Ordering::Equal)
            .collect();
        let pick = if best.len() == 1 {
            best[0]
        } else {
            best[rng.choice(best.len())]
        };
        let key = scored[top].0.clone();
        let why = Why::Pseq {
            low,
            tied: tied.len(),
            progress: Ratio::new(key.progress, layouts.clone()),
            expected: Ratio::new(key.expected, layouts),
            entropy: key.entropy,
        };
        Ok((scored[pick].1, why))
    }
}

impl Player for Pseq {
    fn reset(&mut self) {
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
        let (cell, why) = self.choose(view, a, parent, rng, deadline)?;
        debug_assert!(a.cell_level[cell as usize] != NOT_UNKNOWN);
        Ok((cell, why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::limits::Stop;
    use crate::players::testing::guess_spots;

    /// The what-ifs give every candidate the outcomes of full analyses of the position
    /// with the cell showing each digit.
    #[test]
    fn what_if_outcomes_equal_full_analyses() {
        let mut checked = 0;
        for spot in guess_spots(21, 9, 9, 10, 40) {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let parent = Parent::new(&view, &Deadline::none()).unwrap();
            for cell in (0..spot.raw.len()).filter(|&i| spot.raw[i] == HIDDEN) {
                let full = cell_outcomes(&view, &a, cell, &Deadline::none()).unwrap();
                let quick =
                    cell_outcomes_bounded(&view, &a, &parent, cell, None, &Deadline::none())
                        .unwrap()
                        .unwrap();
                let key = |o: &[Outcome]| -> Vec<(u8, BigUint, usize)> {
                    o.iter()
                        .map(|o| (o.digit, o.layouts.clone(), o.safe))
                        .collect()
                };
                assert_eq!(key(&quick), key(&full), "cell {cell}");
                checked += 1;
            }
        }
        assert!(checked > 500);
    }

    /// The choice (and the draws) are those of scoring every tied cell in the Python
    /// player's order, without the bound that skips analyses and the reordering.
    #[test]
    fn the_choice_is_the_plain_scoring() {
        let mut spots = guess_spots(22, 16, 16, 40, 20);
        spots.extend(guess_spots(23, 9, 9, 10, 60));
        let mut compared = 0;
        for (k, spot) in spots.iter().enumerate() {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let parent = Parent::new(&view, &Deadline::none()).unwrap();
            let (_, tied) = lowest_cells(&a).unwrap();
            if tied.len() < 2 {
                continue;
            }
            let mut rng = Mt::from_u64(k as u64);
            let player = Pseq::new(false);
            let (cell, why) = player
                .choose(&view, &a, &parent, &mut rng, &Deadline::none())
                .unwrap();
            let scored: Vec<(Key, u32)> = representatives(&view, &tied)
                .into_iter()
                .map(|c| {
                    let o = cell_outcomes(&view, &a, c as usize, &Deadline::none()).unwrap();
                    (Key::of(&o, false), c)
                })
                .collect();
            let top = scored
                .iter()
                .map(|s| &s.0)
                .reduce(|t, x| if x.cmp(t) == Ordering::Greater { x } else { t })
                .unwrap();
            let best: Vec<u32> = scored
                .iter()
                .filter(|s| s.0.cmp(top) == Ordering::Equal)
                .map(|s| s.1)
                .collect();
            let mut draw = Mt::from_u64(k as u64);
            let want = if best.len() == 1 {
                best[0]
            } else {
                best[draw.choice(best.len())]
            };
            assert_eq!(cell, want);
            assert_eq!(rng.random(), draw.random());
            let Why::Pseq {
                progress, tied: t, ..
            } = why
            else {
                panic!("pseq's reason");
            };
            assert_eq!(t, tied.len());
            let layouts = layout_count(&a);
            assert_eq!(progress.num * &layouts, &top.progress * &progress.den);
            compared += 1;
        }
        assert!(compared > 20, "{compared} choices compared");
    }

    #[test]
    fn deep_cells_are_weighed_once_per_class() {
        // the digit's neighbourhood is cells 0, 1, 5 and 6: a cell next to none of
        // them is deep, classed by its hidden and flagged neighbours
        let cells = raw(&["1HHHH", "HHHHH", "HHHHH", "HHHHH", "HHHFH"]);
        let view = View {
            width: 5,
            height: 5,
            mines: 4,
            raw: &cells,
        };
        let near = digit_neighbourhood(&view);
        assert_eq!(deep_signature(&view, &near, 1), None);
        assert_eq!(deep_signature(&view, &near, 2), None); // next to cell 1
        assert_eq!(deep_signature(&view, &near, 3), Some((5, 0)));
        assert_eq!(deep_signature(&view, &near, 4), Some((3, 0)));
        assert_eq!(deep_signature(&view, &near, 24), Some((2, 1)));
        assert_eq!(deep_signature(&view, &near, 19), Some((4, 1)));
        assert_eq!(
            representatives(&view, &[1, 3, 4, 9, 14, 24, 19, 2]),
            vec![1, 3, 4, 24, 19, 2]
        );
    }

    #[test]
    fn a_passed_deadline_stops_the_move() {
        let spot = &guess_spots(24, 9, 9, 10, 5)[0];
        let got =
            Pseq::new(false).next_moves(&spot.view(), &mut Mt::from_u64(0), &Deadline::after(0.0));
        assert_eq!(got.unwrap_err(), PlayError::Stop(Stop::Deadline));
    }
}
