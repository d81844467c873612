//! The whole exact analysis of a position: reduce it ([`crate::constraints`]), count each
//! distinct component ([`crate::frontier`]), combine under the total
//! ([`crate::combine`]), and name each unknown cell's probability by a *level* (one per
//! box, one for the interior, and the shared 0 and 1), without making any fraction: the
//! Python wrapper makes them on demand.
//!
//! The combination runs in 512-bit [`Wide`] integers (an expert board's counts fit) and
//! is redone in `BigUint` when a count overflows. Cost: the reduction (linear), the
//! counts (see [`crate::frontier`]) and the combination (see [`crate::combine`]).

use std::cell::OnceCell;
use std::rc::Rc;

use num_bigint::BigUint;

use crate::combine::{combine, Combination, CombineError};
use crate::constraints::{build, Board, Problem, Shape};
use crate::count::{Count, Wide};
use crate::frontier::{count_any, AnyCount, ComponentCount, CountError};
use crate::hash::FxHashMap;
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

/// Analyse `board` (its total must be known).
pub fn analyze(board: &Board, deadline: &Deadline) -> Result<Analysis, ExactError> {
    check_board(board)?;
    analyze_with(board, &mut CountCache::default(), deadline)
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

/// One component's count: in `u128` when it fits (what the combination runs in first),
/// else in `BigUint`; the other forms the combination may need are made from it on
/// demand.
#[derive(Debug)]
pub struct Counted {
    small: Option<ComponentCount<u128>>,
    big: OnceCell<ComponentCount<BigUint>>,
}

impl Counted {
    fn layouts_empty(&self) -> bool {
        match &self.small {
            Some(c) => c.layouts.is_empty(),
            None => self.big().layouts.is_empty(),
        }
    }

    /// The count in `BigUint` (made from the `u128` one on first use).
    fn big(&self) -> &ComponentCount<BigUint> {
        self.big.get_or_init(|| {
            let small = self.small.as_ref().expect("a count is small or big");
            map_count(small, |&v| BigUint::from(v))
        })
    }

    /// The count in [`Wide`] integers, `None` when it does not fit.
    fn wide(&self) -> Option<ComponentCount<Wide<8>>> {
        match &self.small {
            Some(small) => Some(map_count(small, |&v| wide_of(v))),
            None => self.big().convert().ok(),
        }
    }
}

/// A `u128` count as a 512-bit [`Wide`] one (the what-ifs of the players use it too).
pub(crate) fn wide_of(v: u128) -> Wide<8> {
    let mut limbs = [0u64; 8];
    limbs[0] = v as u64;
    limbs[1] = (v >> 64) as u64;
    Wide(limbs)
}

/// A component count with `f` applied to every number in it (a change of integer type).
pub(crate) fn map_count<A, B>(c: &ComponentCount<A>, f: impl Fn(&A) -> B) -> ComponentCount<B> {
    ComponentCount {
        layouts: c.layouts.iter().map(&f).collect(),
        box_mines: c
            .box_mines
            .iter()
            .map(|p| p.iter().map(&f).collect())
            .collect(),
    }
}

/// Component counts by shape, kept across the analyses of related positions (the
/// what-ifs of one position share most of their components).
#[derive(Debug, Default)]
pub struct CountCache {
    map: FxHashMap<Shape, Rc<Counted>>,
}

impl CountCache {
    /// Number of distinct shapes counted.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True before any count.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The count of `shape`, counted on first use. `Inconsistent` for a shape with no
    /// layout.
    fn get(&mut self, shape: &Shape, deadline: &Deadline) -> Result<Rc<Counted>, ExactError> {
        if let Some(c) = self.map.get(shape) {
            return Ok(Rc::clone(c));
        }
        let counted = match count_any(shape, deadline).map_err(|e| match e {
            CountError::Stop(s) => ExactError::Stop(s),
            CountError::Overflow => ExactError::Overflow,
            CountError::Invalid(why) => ExactError::Invalid(why),
        })? {
            AnyCount::Small(c) => Counted {
                small: Some(c),
                big: OnceCell::new(),
            },
            AnyCount::Big(c) => Counted {
                small: None,
                big: OnceCell::from(c),
            },
        };
        if counted.layouts_empty() {
            return Err(ExactError::Inconsistent);
        }
        let counted = Rc::new(counted);
        self.map.insert(shape.clone(), Rc::clone(&counted));
        Ok(counted)
    }
}

/// [`analyze`] of a checked board ([`check_board`]), its component counts taken from
/// and added to `cache`.
pub fn analyze_with(
    board: &Board,
    cache: &mut CountCache,
    deadline: &Deadline,
) -> Result<Analysis, ExactError> {
    let problem = build(board).map_err(|_| ExactError::Inconsistent)?;
    deadline.check()?;
    let mines = problem.mines_left.ok_or(ExactError::NoTotal)?;
    let counts = problem
        .components
        .iter()
        .map(|comp| cache.get(&comp.shape, deadline))
        .collect::<Result<Vec<_>, _>>()?;
    let interior = problem.interior.len() as u64;
    let combination = combine_fast(&counts, interior, mines, deadline)?;
    Ok(levels(board, &problem, combination))
}

/// The combination in `u128`, else in [`Wide`] integers, else in `BigUint` (each tier
/// tried when the one before overflows).
fn combine_fast(
    counts: &[Rc<Counted>],
    interior: u64,
    mines: u64,
    deadline: &Deadline,
) -> Result<Combination<BigUint>, ExactError> {
    fn finish<C: Count>(
        r: Result<Option<Combination<C>>, CombineError>,
    ) -> Result<Option<Combination<BigUint>>, CombineError> {
        Ok(r?.map(|c| Combination {
            total: c.total.to_big(),
            box_weights: c
                .box_weights
                .iter()
                .map(|w| w.iter().map(Count::to_big).collect())
                .collect(),
            interior_weight: c.interior_weight.to_big(),
            k_lo: c.k_lo,
            d: c.d.to_big(),
        }))
    }
    let mut result = Err(CombineError::Overflow);
    let small: Option<Vec<&ComponentCount<u128>>> =
        counts.iter().map(|c| c.small.as_ref()).collect();
    if let Some(refs) = small {
        result = finish(combine(&refs, interior, mines, deadline));
    }
    if result == Err(CombineError::Overflow) {
        let wide: Option<Vec<ComponentCount<Wide<8>>>> = counts.iter().map(|c| c.wide()).collect();
        if let Some(wide) = wide {
            let refs: Vec<&ComponentCount<Wide<8>>> = wide.iter().collect();
            result = finish(combine(&refs, interior, mines, deadline));
        }
    }
    if result == Err(CombineError::Overflow) {
        let refs: Vec<&ComponentCount<BigUint>> = counts.iter().map(|c| c.big()).collect();
        result = combine(&refs, interior, mines, deadline);
    }
    match result {
        Ok(Some(c)) => Ok(c),
        Ok(None) => Err(ExactError::Inconsistent),
        Err(CombineError::Stop(s)) => Err(ExactError::Stop(s)),
        Err(CombineError::Overflow) => Err(ExactError::Overflow),
    }
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
