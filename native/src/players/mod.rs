//! The players' inner loops, on the native exact analysis: what `minesolver.strategy`'s
//! `greedy` and `pseq` decide, decided the same way (same cells, same order, same draws
//! from the same Mersenne Twister), so a native player makes the very moves of the
//! Python one on the same seed.
//!
//! Every comparison of probabilities is exact: a probability is a ratio of big integers
//! ([`Ratio`]) compared by cross-multiplication, never a float. The one float the
//! players compare (`pseq`'s digit entropy, a last tie-break) is computed as Python
//! computes it: each ratio correctly rounded ([`ratio_to_f64`]), `log2` from the C
//! library, the sum in the order and the summation of Python's `sum`.
//!
//! Cost: one exact analysis per round of certain moves (see [`crate::exact`]); a guess
//! adds O(unknown cells) for `greedy`, one analysis per (candidate, possible digit) for
//! `pseq`.

pub mod best;
pub mod book;
pub mod endgame;
pub mod greedy;
pub mod pseq;
pub mod search;
#[cfg(test)]
pub(crate) mod testing;

use std::cmp::Ordering;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::count::Counts;
use crate::exact::{Analysis, ExactError, NOT_UNKNOWN, ONE};
use crate::game::{Kind, FLAG, HIDDEN};
use crate::limits::{Deadline, Stop};
use crate::mt::Mt;
use crate::whatif::Parent;

pub use crate::exact::{layouts_of, level_ratio, Ratio};
pub use crate::whatif::{count_analysis, View, ANALYSES};

/// Why a player could not move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// No layout explains the position shown.
    Inconsistent,
    Stop(Stop),
    /// A count overflowed even in `BigUint` (a bug: see `crate::error`).
    Overflow,
    Invalid(String),
}

impl From<Stop> for PlayError {
    fn from(s: Stop) -> Self {
        PlayError::Stop(s)
    }
}

impl From<ExactError> for PlayError {
    fn from(e: ExactError) -> Self {
        match e {
            ExactError::Inconsistent => PlayError::Inconsistent,
            ExactError::Stop(s) => PlayError::Stop(s),
            ExactError::NoTotal => PlayError::Invalid("the total is unknown".into()),
            ExactError::Overflow => PlayError::Overflow,
            ExactError::Invalid(why) => PlayError::Invalid(why),
        }
    }
}

/// Why a move was chosen (what the Python reasons hold).
#[derive(Debug, Clone)]
pub enum Why {
    /// Certainly safe (opened) or certainly a mine (flagged).
    Certain,
    /// The lowest mine probability, shared by `tied` cells.
    Lowest { low: Ratio, tied: usize },
    /// `pseq`'s tie-break: progress and expected safe cells (exact), digit entropy.
    Pseq {
        low: Ratio,
        tied: usize,
        progress: Ratio,
        expected: Ratio,
        entropy: f64,
    },
    /// `best`'s endgame search: `wins` of the `layouts` left.
    Endgame {
        wins: u64,
        layouts: u64,
        probability: Ratio,
    },
    /// `search`: the candidate that won `wins` of its `rollouts` where `best`'s guess won
    /// `best_wins` of its `best_rollouts` (on the same layouts).
    Rollout {
        wins: u64,
        rollouts: u64,
        best_wins: u64,
        best_rollouts: u64,
        probability: Ratio,
    },
    /// `best`: an unavoidable 50/50 with `other`, taken now.
    FiftyFifty { other: u32 },
    /// `best`'s heuristic: the best (second-move) safety `score` and its `progress`, of
    /// the `weighed` candidates; `second` tells which score.
    Safety {
        latent_weight: Ratio,
        second: bool,
        score: Ratio,
        progress: Ratio,
        probability: Ratio,
        weighed: usize,
    },
}

/// A move and why.
#[derive(Debug, Clone)]
pub struct PlayerMove {
    pub kind: Kind,
    pub cell: u32,
    pub guess: bool,
    pub why: Why,
}

/// A player: `greedy` or `pseq` (the same rules as the Python players of those names).
pub trait Player: Send + Sync {
    /// Start a new game (forget what was kept for the last one).
    fn reset(&mut self) {}

    /// Whether the player's guess is the same whichever certain mines are flagged (it
    /// reads a flag as the certain mine it is), so that the simulator may make the
    /// certain moves of the single-digit rules itself before asking it
    /// ([`crate::simulate::settle`]). Not `pseq` nor `best`: `pseq` groups the cells far
    /// from every digit by their flagged neighbours, and `best`'s endgame search keeps
    /// positions, flags included.
    fn settles_locally(&self) -> bool {
        false
    }

    /// The component counts the player keeps from one position to the next.
    fn counts(&mut self) -> &mut Counts;

    /// The cell to open, and why, when no cell is certain: the player's own rule.
    fn guess(
        &mut self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError>;

    /// Moves to make now, in order: every certain move, or, when there is none, the guess.
    fn next_moves(
        &mut self,
        view: &View<'_>,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<Vec<PlayerMove>, PlayError> {
        count_analysis();
        let parent = Parent::with_counts(view, self.counts(), deadline)?;
        let a = parent.analysis(deadline)?;
        let mut moves = certain_moves(&a);
        if !a.safe.is_empty() {
            return Ok(moves);
        }
        let (cell, why) = self.guess(view, &a, &parent, rng, deadline)?;
        moves.push(PlayerMove {
            kind: Kind::Open,
            cell,
            guess: true,
            why,
        });
        Ok(moves)
    }
}

/// A fresh player by name (`greedy`, `pseq`, `best`, `search`), `None` for any other.
pub fn by_name(name: &str) -> Option<Box<dyn Player>> {
    match name {
        "greedy" => Some(Box::new(greedy::Greedy::default())),
        "pseq" => Some(Box::new(pseq::Pseq::new(false))),
        "best" => Some(Box::new(best::Best::new(best::Options::default()))),
        "search" => Some(Box::new(search::Search::new(search::Options::default())?)),
        _ => None,
    }
}

/// The number of layouts of `a` by machine-word factors ([`crate::exact::layouts_of`]).
pub fn layout_count(a: &Analysis) -> BigUint {
    layouts_of(&a.total, a.interior, a.k_lo, &a.d)
}

/// The layout count by the direct formula (a binomial and a big-integer division).
pub fn slow_layout_count(a: &Analysis) -> BigUint {
    let mut c = a.total.clone();
    let (n, k) = (a.interior, a.k_lo.min(a.interior));
    let k = k.min(n - k);
    let mut binom = BigUint::one();
    for i in 0..k {
        binom *= n - i;
        binom /= i + 1;
    }
    c *= binom;
    if !a.d.is_one() {
        c /= &a.d;
    }
    c
}

/// Every certain move of `a`: open each safe cell, then flag each certain mine, in
/// reading order (`certain_moves`).
pub fn certain_moves(a: &Analysis) -> Vec<PlayerMove> {
    let open = a.safe.iter().map(|&c| PlayerMove {
        kind: Kind::Open,
        cell: c,
        guess: false,
        why: Why::Certain,
    });
    let flag = a.mines.iter().map(|&c| PlayerMove {
        kind: Kind::Flag,
        cell: c,
        guess: false,
        why: Why::Certain,
    });
    open.chain(flag).collect()
}

/// The lowest mine probability below 1 and its cells in reading order (`lowest_cells`);
/// `None` when no unknown cell could be safe.
pub fn lowest_cells(a: &Analysis) -> Option<(Ratio, Vec<u32>)> {
    // one exact comparison per distinct level, then one pass over the cells
    let mut seen = vec![false; a.weights.len() + 3];
    let mut levels = Vec::new();
    for &l in &a.cell_level {
        if l != NOT_UNKNOWN && l != ONE && !seen[l as usize] {
            seen[l as usize] = true;
            levels.push(l);
        }
    }
    let mut low: Option<Ratio> = None;
    let mut tied = vec![false; seen.len()];
    for &l in &levels {
        let r = level_ratio(a, l);
        let order = low.as_ref().map_or(Ordering::Less, |m| r.cmp_exact(m));
        match order {
            Ordering::Less => {
                tied.iter_mut().for_each(|t| *t = false);
                tied[l as usize] = true;
                low = Some(r);
            }
            Ordering::Equal => tied[l as usize] = true,
            Ordering::Greater => {}
        }
    }
    let low = low?;
    let cells = a
        .cell_level
        .iter()
        .enumerate()
        .filter(|&(_, &l)| l != NOT_UNKNOWN && tied[l as usize])
        .map(|(i, _)| i as u32)
        .collect();
    Some((low, cells))
}

/// `a / b` correctly rounded to the nearest `f64` (ties to even), as Python's `int / int`
/// and `float(Fraction)` give it; for `0 <= a`, `0 < b` and a ratio within the normal
/// range.
pub fn ratio_to_f64(a: &BigUint, b: &BigUint) -> f64 {
    if a.is_zero() {
        return 0.0;
    }
    let (la, lb) = (a.bits() as i64, b.bits() as i64);
    // scale so that the quotient has 55 or 56 bits: q = floor(a * 2^s / b)
    let s = 55 - (la - lb);
    let (num, den) = if s >= 0 {
        (a << (s as u64), b.clone())
    } else {
        (a.clone(), b << ((-s) as u64))
    };
    let q = &num / &den;
    let sticky = !(&num % &den).is_zero();
    let extra = q.bits() as i64 - 53;
    let mut mant: u64 = (&q >> (extra as u64))
        .try_into()
        .expect("53 bits fit a u64");
    let low_mask = (BigUint::one() << (extra as u64)) - 1u32;
    let low: BigUint = &q & &low_mask;
    let half = BigUint::one() << ((extra - 1) as u64);
    let round_up = match low.cmp(&half) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => sticky || mant & 1 == 1,
    };
    if round_up {
        mant += 1;
    }
    let exp = extra - s; // value = mant * 2^exp
    mant as f64 * pow2(exp)
}

fn pow2(e: i64) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// Python's `sum` of floats in order, starting from the int 0: plain addition before
/// Python 3.12, Neumaier's compensated summation from 3.12 on (`compensated`).
pub fn python_sum(values: &[f64], compensated: bool) -> f64 {
    let mut it = values.iter();
    let Some(&first) = it.next() else {
        return 0.0;
    };
    let mut total = 0.0 + first;
    let mut c = 0.0f64;
    for &x in it {
        if compensated {
            let t = total + x;
            if total.abs() >= x.abs() {
                c += (total - t) + x;
            } else {
                c += (x - t) + total;
            }
            total = t;
        } else {
            total += x;
        }
    }
    if compensated && c != 0.0 && c.is_finite() {
        total += c;
    }
    total
}

/// Whether cell `i` of `raw` is hidden.
pub fn is_hidden(raw: &[u8], i: usize) -> bool {
    raw[i] == HIDDEN
}

/// Whether cell `i` of `raw` is flagged.
pub fn is_flag(raw: &[u8], i: usize) -> bool {
    raw[i] == FLAG
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::exact;
    use crate::game::{neighbour_table, random_layout, FirstClick, Game};
    use crate::players::greedy::Greedy;
    use crate::whatif::Certainty;

    #[test]
    fn ratios_round_as_python() {
        // float(Fraction(1, 3)), float(Fraction(2, 3)), 1/10, and a tie case 2**53+1 / 2**53
        let f = |a: u64, b: u64| ratio_to_f64(&BigUint::from(a), &BigUint::from(b));
        assert_eq!(f(1, 3), 1.0 / 3.0);
        assert_eq!(f(2, 3), 2.0 / 3.0);
        assert_eq!(f(1, 10), 0.1);
        assert_eq!(f(1, 1), 1.0);
        assert_eq!(f((1 << 54) + 1, 1 << 54), 1.0); // a half-way case rounds to even
        assert_eq!(f((1 << 54) + 3, 1 << 54), 1.0 + 2f64.powi(-52)); // rounds up
        for (a, b) in [(7u64, 12u64), (11, 36), (5, 6), (123_456_789, 987_654_321)] {
            assert_eq!(f(a, b), a as f64 / b as f64);
        }
    }

    #[test]
    fn layout_counts_by_words_equal_the_direct_formula() {
        use crate::constraints::Board;
        let mut rng = crate::mt::Mt::from_u64(9);
        for _ in 0..300 {
            let (w, h) = (3 + rng.choice(12), 3 + rng.choice(9));
            let n = w * h;
            let mines = 1 + rng.choice(n / 3);
            let layout =
                crate::game::random_layout(w, h, mines, 0, crate::game::FirstClick::Safe, &mut rng)
                    .unwrap();
            let table = std::sync::Arc::new(crate::game::neighbour_table(w, h));
            let mut game = crate::game::Game::new(w, h, &layout, table).unwrap();
            game.push(Kind::Open, 0).unwrap();
            let board = Board {
                width: w,
                height: h,
                cells: game.raw(),
                mines: Some(mines as u64),
                trust_flags: true,
            };
            let a = exact::analyze(&board, &Deadline::none()).unwrap();
            assert_eq!(layout_count(&a), slow_layout_count(&a));
        }
    }

    #[test]
    fn sums_as_python() {
        assert_eq!(python_sum(&[0.1, 0.2, 0.3], false), 0.1 + 0.2 + 0.3);
        assert_eq!(python_sum(&[0.1, 0.2, 0.3], true), 0.6);
        assert_eq!(python_sum(&[], true), 0.0);
    }

    /// Every what-if of every hidden cell of positions met in real games equals a full
    /// analysis of the child: its layouts and its certainly-safe cells.
    #[test]
    fn what_ifs_equal_full_analyses() {
        let mut rng = Mt::from_u64(17);
        let mut checked = 0;
        for round in 0..40 {
            let (w, h) = if round % 4 == 0 {
                (30, 16)
            } else {
                (4 + rng.choice(10), 4 + rng.choice(8))
            };
            let mines = if round % 4 == 0 {
                99
            } else {
                1 + rng.choice(w * h / 4)
            };
            let layout = random_layout(w, h, mines, 0, FirstClick::Safe, &mut rng).unwrap();
            let mut game = Game::new(w, h, &layout, Arc::new(neighbour_table(w, h))).unwrap();
            game.push(Kind::Open, 0).unwrap();
            let mut player = Greedy::default();
            let mut counts = Counts::default();
            while !game.over() {
                let raw = game.raw().to_vec();
                let view = View {
                    width: w,
                    height: h,
                    mines: mines as u64,
                    raw: &raw,
                };
                let a = view.analyse(&Deadline::none()).unwrap();
                let parent = Parent::with_counts(&view, &mut counts, &Deadline::none()).unwrap();
                // the parent's own analysis equals the full one
                let own = parent.analysis(&Deadline::none()).unwrap();
                assert_eq!((&own.safe, &own.mines), (&a.safe, &a.mines));
                assert_eq!(layout_count(&own), layout_count(&a));
                for i in 0..raw.len() {
                    let (l1, l2) = (own.cell_level[i], a.cell_level[i]);
                    if l1 == crate::exact::NOT_UNKNOWN || l2 == crate::exact::NOT_UNKNOWN {
                        assert_eq!(l1, l2);
                    } else {
                        let (r1, r2) = (level_ratio(&own, l1), level_ratio(&a, l2));
                        assert_eq!(r1.cmp_exact(&r2), std::cmp::Ordering::Equal, "cell {i}");
                    }
                }
                for cell in (0..raw.len()).filter(|&i| raw[i] == HIDDEN) {
                    for digit in 0..=8u8 {
                        let mut child_raw = raw.clone();
                        child_raw[cell] = digit;
                        let child = View {
                            raw: &child_raw,
                            ..view
                        };
                        let full = match child.analyse(&Deadline::none()) {
                            Ok(c) => Some((
                                layout_count(&c),
                                c.safe.len(),
                                lowest_cells(&c).map(|l| l.0),
                            )),
                            Err(ExactError::Inconsistent) => None,
                            Err(e) => panic!("{e:?}"),
                        };
                        let full = full.filter(|(l, _, _)| !l.is_zero());
                        let quick = parent
                            .child(&view, cell, digit, &Deadline::none())
                            .unwrap_or_else(|e| panic!("{e:?} w={w} {raw:?}"));
                        if let (Some(c), Ok(fa), true) =
                            (&quick, child.analyse(&Deadline::none()), w * h < 200)
                        {
                            let ca = c.analysis(&parent);
                            assert_eq!((&ca.safe, &ca.mines), (&fa.safe, &fa.mines));
                            assert_eq!(layout_count(&ca), layout_count(&fa));
                            for i in 0..child_raw.len() {
                                let (l1, l2) = (ca.cell_level[i], fa.cell_level[i]);
                                if l1 == crate::exact::NOT_UNKNOWN
                                    || l2 == crate::exact::NOT_UNKNOWN
                                {
                                    assert_eq!(l1, l2, "cell {i}");
                                } else {
                                    let (r1, r2) = (level_ratio(&ca, l1), level_ratio(&fa, l2));
                                    assert_eq!(
                                        r1.cmp_exact(&r2),
                                        std::cmp::Ordering::Equal,
                                        "cell {i}"
                                    );
                                }
                            }
                            for i in 0..child_raw.len() {
                                let want = match fa.cell_level[i] {
                                    crate::exact::NOT_UNKNOWN => Certainty::Known,
                                    crate::exact::ZERO => Certainty::Safe,
                                    crate::exact::ONE => Certainty::Mine,
                                    _ => Certainty::Uncertain,
                                };
                                assert_eq!(c.certainty(&parent, &view, i), want, "cell {i}");
                            }
                        }
                        let quick = quick.map(|c| (c.layouts.clone(), c.safe, c.lowest()));
                        match (&quick, &full) {
                            (None, None) => {}
                            (Some((l1, s1, p1)), Some((l2, s2, p2))) => {
                                assert_eq!(
                                    (l1, s1),
                                    (l2, s2),
                                    "cell {cell} digit {digit} of\n{raw:?}"
                                );
                                match (p1, p2) {
                                    (None, None) => {}
                                    (Some(a), Some(b)) => {
                                        assert_eq!(a.cmp_exact(b), std::cmp::Ordering::Equal)
                                    }
                                    _ => panic!("lowest differs at cell {cell} digit {digit}"),
                                }
                            }
                            _ => panic!("cell {cell} digit {digit}: {quick:?} against {full:?}"),
                        }
                        checked += 1;
                    }
                }
                let _ = &a;
                for m in player
                    .next_moves(&view, &mut rng, &Deadline::none())
                    .unwrap()
                {
                    if game.over() {
                        break;
                    }
                    game.push(m.kind, m.cell).unwrap();
                }
            }
        }
        assert!(checked > 10_000);
    }
}
