//! The whole exact analysis of a position: reduce it ([`crate::constraints`]), count each
//! distinct component ([`crate::frontier`]), combine under the total
//! ([`crate::combine`]), and name each unknown cell's probability by a *level* (one per
//! box, one for the interior, and the shared 0 and 1), without making any fraction: the
//! Python wrapper makes them on demand.
//!
//! The counts and their combination are [`crate::count`]'s (each shape counted once, the
//! combination in `u128`, then 512-bit, then `BigUint` integers: never a wrapped count),
//! shared with the what-ifs. Cost: the reduction (linear), the counts (see
//! [`crate::frontier`]) and the combination (see [`crate::combine`]).

use std::cmp::Ordering;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::combine::Combination;
use crate::constraints::{build, Board, Problem};
use crate::count::{combine_counts, Counts};
use crate::frontier::CountError;
use crate::limits::{Deadline, Stop};

/// Level of a cell certainly safe.
pub const ZERO: u32 = 0;
/// Level of a cell certainly a mine.
pub const ONE: u32 = 1;
/// Level of a cell that is not unknown (revealed, or a trusted flag).
pub const NOT_UNKNOWN: u32 = u32::MAX;

/// Why an analysis failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExactError {
    /// No layout explains the position (`crate::explain` says why).
    Inconsistent,
    /// The total is unknown: nothing to combine under.
    NoTotal,
    Stop(Stop),
    /// A count overflowed even in `BigUint` (a bug: see `crate::error`).
    Overflow,
    Invalid(String),
}

impl From<Stop> for ExactError {
    fn from(s: Stop) -> Self {
        ExactError::Stop(s)
    }
}

impl From<CountError> for ExactError {
    fn from(e: CountError) -> Self {
        match e {
            CountError::Stop(s) => ExactError::Stop(s),
            CountError::Overflow => ExactError::Overflow,
            CountError::Invalid(why) => ExactError::Invalid(why),
        }
    }
}

/// The exact answer.
///
/// Cell `i` is a mine with probability: 0 or 1 for levels [`ZERO`] and [`ONE`];
/// `weights[l - 2] / total` for a box level `l`; `interior_weight / (total * interior)`
/// for the level `interior_level`. The layout count is
/// `total * C(interior, k_lo) / d`.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub total: BigUint,
    pub k_lo: u64,
    pub d: BigUint,
    pub interior: u64,
    pub interior_weight: BigUint,
    /// The level of the interior cells, when there are some and they are uncertain.
    pub interior_level: Option<u32>,
    /// Numerators of the box levels (level `l` is `weights[l - 2]`).
    pub weights: Vec<BigUint>,
    /// Per cell index, its level ([`NOT_UNKNOWN`] for a revealed cell or trusted flag).
    pub cell_level: Vec<u32>,
    /// Cells certainly safe, then certainly mines, in reading order.
    pub safe: Vec<u32>,
    pub mines: Vec<u32>,
}

impl Analysis {
    /// The number of layouts: `total * C(interior, k_lo) / d`. The binomial is two
    /// products of consecutive integers made by halves (so the big multiplications are
    /// balanced) and one division: O(M(b) log k) for `b`-bit numbers, where the former
    /// step-by-step recurrence made `k` passes over a growing number.
    pub fn layouts(&self) -> BigUint {
        let mut n = self.total.clone();
        if self.k_lo > 0 && self.interior > 0 {
            n *= binomial(self.interior, self.k_lo);
        }
        if self.d != BigUint::from(1u8) {
            n /= &self.d;
        }
        n
    }

    /// The lowest mine probability below 1 among the unknown cells, as `(numerator,
    /// denominator)` (not reduced), or `None` when every unknown cell is certain. Cells
    /// certainly safe count (probability 0). O(levels) comparisons.
    pub fn lowest(&self) -> Option<(BigUint, BigUint)> {
        if !self.safe.is_empty() {
            return Some((BigUint::from(0u8), BigUint::from(1u8)));
        }
        // every box level has the denominator `total`: the least weight is the lowest
        let low_box = self.weights.iter().min();
        let interior = self.interior_level.map(|_| &self.interior_weight);
        match (low_box, interior) {
            (None, None) => None,
            (Some(w), None) => Some((w.clone(), self.total.clone())),
            // interior_weight / (total * I) < w / total  <=>  interior_weight < w * I
            (Some(w), Some(iw)) if w * self.interior <= *iw => {
                Some((w.clone(), self.total.clone()))
            }
            (_, Some(iw)) => Some((iw.clone(), &self.total * self.interior)),
        }
    }
}

/// The product of the integers `lo..hi`, by halves (1 when the range is empty).
fn range_product(lo: u64, hi: u64) -> BigUint {
    if hi - lo <= 16 {
        let mut p = BigUint::from(1u8);
        let mut small = 1u128;
        for v in lo..hi {
            match small.checked_mul(u128::from(v)) {
                Some(s) if s <= u128::from(u64::MAX) => small = s,
                _ => {
                    p *= small as u64;
                    small = u128::from(v);
                }
            }
        }
        p *= small as u64;
        return p;
    }
    let mid = lo + (hi - lo) / 2;
    range_product(lo, mid) * range_product(mid, hi)
}

/// `C(n, k)` exactly (0 when `k > n`).
pub fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::from(0u8);
    }
    let k = k.min(n - k);
    range_product(n - k + 1, n + 1) / range_product(1, k + 1)
}

/// A non-negative exact ratio `num / den` (`den > 0`), compared by cross-multiplication.
#[derive(Debug, Clone)]
pub struct Ratio {
    pub num: BigUint,
    pub den: BigUint,
}

impl Ratio {
    pub fn new(num: BigUint, den: BigUint) -> Self {
        Ratio { num, den }
    }

    /// Exact comparison (`a/b` against `c/d` as `a*d` against `c*b`).
    pub fn cmp_exact(&self, other: &Ratio) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

/// The number of layouts from a combination's numbers, `total * C(n, k_lo) / d`, with
/// `d` the product `k_lo + 1 ..= k_hi` (see [`crate::combine`]), that is
/// `total * n! / ((n - k_lo)! * k_hi!)`: the falling factorial multiplied in and `k_hi!`
/// divided out by machine-word factors (floor divisions in turn give the exact quotient,
/// as `d` divides it), never a big-integer division. O(k_hi) word operations on the
/// count (the players' what-ifs make one per child).
pub fn layouts_of(total: &BigUint, n: u64, k_lo: u64, d: &BigUint) -> BigUint {
    let mut c = total.clone();
    let k_lo = k_lo.min(n);
    let mut word: u64 = 1;
    for j in 0..k_lo {
        let f = n - j;
        match word.checked_mul(f) {
            Some(w) => word = w,
            None => {
                c *= word;
                word = f;
            }
        }
    }
    c *= word;
    // d = (k_lo + 1) * ... * k_hi; so k_hi! = k_lo! * d and dividing by k_lo! * d is
    // dividing by k_hi!, once `d` is known as a product of small numbers
    let Some(k_hi) = small_factorial_top(d, k_lo) else {
        // `d` is not such a product (never, for the combination's `d`): divide directly
        let mut binom = BigUint::one();
        for i in 0..k_lo {
            binom *= n - i;
            binom /= i + 1;
        }
        return total * binom / d;
    };
    let mut word: u64 = 1;
    for j in 2..=k_hi {
        match word.checked_mul(j) {
            Some(w) => word = w,
            None => {
                c /= word;
                word = j;
            }
        }
    }
    c /= word;
    c
}

/// `k_hi` such that `d = (k_lo + 1) * ... * k_hi`, or `None` when `d` is not such a
/// product. O(k_hi - k_lo) word multiplications and one comparison per word.
fn small_factorial_top(d: &BigUint, k_lo: u64) -> Option<u64> {
    if d.is_one() {
        return Some(k_lo);
    }
    let mut product = BigUint::one();
    let mut k = k_lo;
    while product < *d {
        k += 1;
        product *= k;
    }
    (product == *d).then_some(k)
}

/// The probability of `level` in `a` (any level but [`NOT_UNKNOWN`]).
pub fn level_ratio(a: &Analysis, level: u32) -> Ratio {
    match level {
        ZERO => Ratio::new(BigUint::zero(), BigUint::one()),
        ONE => Ratio::new(BigUint::one(), BigUint::one()),
        l if Some(l) == a.interior_level => {
            Ratio::new(a.interior_weight.clone(), &a.total * a.interior)
        }
        l => Ratio::new(a.weights[l as usize - 2].clone(), a.total.clone()),
    }
}

/// Analyse `board` (its total must be known).
pub fn analyze(board: &Board, deadline: &Deadline) -> Result<Analysis, ExactError> {
    check_board(board)?;
    analyze_with(board, &Counts::default(), deadline)
}

/// Refuse a board whose cells do not match its size or hold an unknown value, or whose
/// total is unknown. O(cells).
pub fn check_board(board: &Board) -> Result<(), ExactError> {
    let n = board.width * board.height;
    if board.cells.len() != n || board.width == 0 {
        return Err(ExactError::Invalid(format!(
            "{} cells for a {}x{} board",
            board.cells.len(),
            board.width,
            board.height
        )));
    }
    if let Some(&v) = board.cells.iter().find(|&&v| v > 8 && v < 254) {
        return Err(ExactError::Invalid(format!("cell value {v}")));
    }
    if board.mines.is_none() {
        return Err(ExactError::NoTotal);
    }
    Ok(())
}

/// [`analyze`] of a checked board ([`check_board`]), its component counts taken from
/// and added to `counts`.
pub fn analyze_with(
    board: &Board,
    counts: &Counts,
    deadline: &Deadline,
) -> Result<Analysis, ExactError> {
    let problem = build(board).map_err(|_| ExactError::Inconsistent)?;
    deadline.check()?;
    let mines = problem.mines_left.ok_or(ExactError::NoTotal)?;
    let mut counted = Vec::with_capacity(problem.components.len());
    for comp in &problem.components {
        let c = counts.get(&comp.shape, deadline)?;
        if c.is_empty() {
            return Err(ExactError::Inconsistent);
        }
        counted.push(c);
    }
    let interior = problem.interior.len() as u64;
    let combination = combine_counts(counted.iter().map(|c| &**c), interior, mines, deadline)?
        .ok_or(ExactError::Inconsistent)?;
    Ok(levels(board, &problem, combination))
}

/// Each unknown cell's level, the certain cells, and the levels' numerators.
fn levels(board: &Board, problem: &Problem, c: Combination<BigUint>) -> Analysis {
    let mut cell_level = vec![NOT_UNKNOWN; board.cells.len()];
    for &i in &problem.forced_safe {
        cell_level[i as usize] = ZERO;
    }
    for &i in &problem.forced_mines {
        cell_level[i as usize] = ONE;
    }
    let boxes = problem.components.iter().flat_map(|comp| comp.cells.iter());
    let interior = problem.interior.iter().map(|&i| i as usize);
    analysis_from_levels(
        cell_level,
        boxes,
        problem.interior.len() as u64,
        interior,
        c,
    )
}

/// The analysis from a combination: ``cell_level`` holds the forced cells (ZERO, ONE) and
/// NOT_UNKNOWN elsewhere; ``boxes`` are the boxes' cells in the order of the combination's
/// box weights (component by component), ``interior_cells`` the ``interior`` cells away
/// from every digit. Each box and the interior get a level (ZERO, ONE, or a numerator of
/// its own), and the certain cells are collected. Shared by [`analyze`] and the players'
/// own reduction. O(cells).
pub(crate) fn analysis_from_levels<'a>(
    mut cell_level: Vec<u32>,
    boxes: impl Iterator<Item = &'a Vec<u32>>,
    interior: u64,
    interior_cells: impl Iterator<Item = usize>,
    c: Combination<BigUint>,
) -> Analysis {
    let mut weights = Vec::new();
    for (cells, w) in boxes.zip(c.box_weights.into_iter().flatten()) {
        let level = if w.is_zero() {
            ZERO
        } else if w == c.total {
            ONE
        } else {
            weights.push(w);
            weights.len() as u32 + 1
        };
        for &i in cells {
            cell_level[i as usize] = level;
        }
    }
    let mut interior_level = None;
    if interior > 0 {
        let level = if c.interior_weight.is_zero() {
            ZERO
        } else if c.interior_weight == &c.total * interior {
            ONE
        } else {
            interior_level = Some(weights.len() as u32 + 2);
            weights.len() as u32 + 2
        };
        for i in interior_cells {
            cell_level[i] = level;
        }
    }
    let mut safe = Vec::new();
    let mut mines = Vec::new();
    for (i, &l) in cell_level.iter().enumerate() {
        if l == ZERO {
            safe.push(i as u32);
        } else if l == ONE {
            mines.push(i as u32);
        }
    }
    Analysis {
        total: c.total,
        k_lo: c.k_lo,
        d: c.d,
        interior,
        interior_weight: c.interior_weight,
        interior_level,
        weights,
        cell_level,
        safe,
        mines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::constraints::HIDDEN;

    fn binom(n: u64, k: u64) -> BigUint {
        (0..k).fold(BigUint::from(1u8), |acc, i| acc * (n - i) / (i + 1))
    }

    fn layouts(a: &Analysis) -> BigUint {
        &a.total * binom(a.interior, a.k_lo) / &a.d
    }

    /// Probability of cell `i` as (numerator, denominator).
    fn prob(a: &Analysis, i: usize) -> (BigUint, BigUint) {
        match a.cell_level[i] {
            ZERO => (0u8.into(), 1u8.into()),
            ONE => (1u8.into(), 1u8.into()),
            l if Some(l) == a.interior_level => (a.interior_weight.clone(), &a.total * a.interior),
            l => (a.weights[l as usize - 2].clone(), a.total.clone()),
        }
    }

    fn is(a: &Analysis, i: usize, num: u64, den: u64) -> bool {
        let (p, q) = prob(a, i);
        p * den == q * num
    }

    #[test]
    fn design_example() {
        let cells = raw(&["H2HHH", "HHHHH", "112HH", "00HHH", "000HH"]);
        let board = Board {
            width: 5,
            height: 5,
            cells: &cells,
            mines: Some(5),
            trust_flags: true,
        };
        let a = analyze(&board, &Deadline::none()).unwrap();
        assert_eq!(layouts(&a), BigUint::from(72u8));
        assert!(is(&a, 0, 1, 2) && is(&a, 2, 1, 2));
        assert!(is(&a, 5, 1, 6) && is(&a, 6, 5, 6));
        assert!(is(&a, 8, 7, 12) && is(&a, 13, 7, 12));
        for i in [3, 4, 9, 14, 19, 24] {
            assert!(is(&a, i, 11, 36));
        }
        assert_eq!(a.safe, vec![7, 17, 18, 23]);
        assert!(a.mines.is_empty());
        assert_eq!(a.cell_level[1], NOT_UNKNOWN);
    }

    #[test]
    fn inconsistent_and_unknown_totals() {
        let cells = raw(&["1H", "HH"]);
        let mut board = Board {
            width: 2,
            height: 2,
            cells: &cells,
            mines: Some(0),
            trust_flags: true,
        };
        assert_eq!(
            analyze(&board, &Deadline::none()).unwrap_err(),
            ExactError::Inconsistent
        );
        board.mines = None;
        assert_eq!(
            analyze(&board, &Deadline::none()).unwrap_err(),
            ExactError::NoTotal
        );
        board.mines = Some(3); // the 1 allows one mine among the three hidden cells
        assert_eq!(
            analyze(&board, &Deadline::none()).unwrap_err(),
            ExactError::Inconsistent
        );
        board.mines = Some(1);
        let a = analyze(&board, &Deadline::none()).unwrap();
        assert_eq!(layouts(&a), BigUint::from(3u8));
        assert!(is(&a, 1, 1, 3) && is(&a, 3, 1, 3));
        assert!(a.safe.is_empty() && a.mines.is_empty());
    }

    #[test]
    fn binomials_by_halves_match_the_recurrence() {
        for (n, k) in [(0, 0), (5, 2), (40, 17), (300, 150), (40_000, 8000), (3, 5)] {
            assert_eq!(
                super::binomial(n, k),
                binom(n, k.min(n + 1)) * u8::from(k <= n)
            );
        }
    }

    #[test]
    fn a_big_empty_board_is_one_binomial() {
        let cells = vec![HIDDEN; 200 * 200];
        let board = Board {
            width: 200,
            height: 200,
            cells: &cells,
            mines: Some(8000),
            trust_flags: true,
        };
        let a = analyze(&board, &Deadline::none()).unwrap();
        assert_eq!(layouts(&a), binom(40_000, 8000));
        assert!(is(&a, 123, 1, 5));
    }
}
