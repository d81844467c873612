//! What-ifs: the analyses of a position after one of its hidden cells is opened and
//! shows a digit, written once for the engine (many cells in one call, [`what_ifs`]:
//! mirrors the Python `analyze_after` and the outcomes of `strategy/outcomes.py`) and for
//! the players' guesses ([`Parent::child`]).
//!
//! For a hidden cell `c` and a digit `d`, the child's layouts are the parent's in which
//! `c` is safe with `d` mines around it, so `P(safe and shows d) = layouts(child) /
//! layouts(parent)`, and the parent's reduction stays true: its certain cells stay
//! certain, and only the components next to `c` change. The position is reduced and
//! counted once ([`Parent`]); for a child, those components, the interior cells around
//! `c` and the new equation of `c` are reduced again on their own (every digit next to
//! them has all its unknown neighbours among them, since an equation never spans two
//! components), counted, and combined under the total with the parent's other
//! components, whose counts are kept ([`crate::count`]). A cell is then certainly safe
//! exactly as in a full analysis: a box or the interior of weight zero in the
//! combination (or a parent's certain safe cell). Each child's whole analysis is read
//! off its combination ([`Child::analysis`]): the probabilities and certain cells of a
//! fresh analysis of the child position (tested equal), its levels numbered its own way.
//!
//! Untrusted flags are unknown cells: [`what_ifs`] reads them as hidden ones. The
//! position a player sees ([`View`]) is here too, as the what-ifs read it.
//!
//! Cost: once per position, a reduction and the count of each distinct component; per
//! what-if, the reduction and the count of the changed components (a few dozen cells) and
//! the combination (see [`crate::combine`]), no pass over the board; O(cells) more to
//! lay out a child's levels when its whole analysis is asked.

use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::combine::Combination;
use crate::constraints::{build, Board, Shape, FLAG, HIDDEN};
use crate::count::{combine_counts, Counted, Counts};
use crate::exact::{
    self, analysis_from_levels, check_board, layouts_of, Analysis, ExactError, Ratio, NOT_UNKNOWN,
    ONE, ZERO,
};
use crate::hash::FxHashMap;
use crate::limits::Deadline;

const NONE: u32 = u32::MAX;
const FORCED_SAFE: u8 = 1;
const FORCED_MINE: u8 = 2;

/// Analyses made by the players since the process started (for the benchmarks).
pub static ANALYSES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Count one analysis in [`ANALYSES`].
pub fn count_analysis() {
    ANALYSES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The position a player sees: a byte per cell (`Position.raw()`) and the total.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    pub width: usize,
    pub height: usize,
    pub mines: u64,
    pub raw: &'a [u8],
}

impl View<'_> {
    /// The exact analysis (flags trusted, as the players analyse).
    pub fn analyse(&self, deadline: &Deadline) -> Result<Analysis, ExactError> {
        count_analysis();
        exact::analyze(&self.board(), deadline)
    }

    /// The position as the exact count reads it (flags trusted, as the players analyse).
    pub fn board(&self) -> Board<'_> {
        Board {
            width: self.width,
            height: self.height,
            cells: self.raw,
            mines: Some(self.mines),
            trust_flags: true,
        }
    }

    /// Neighbour indices of cell `i` in `neighbour_table`'s order.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i % w, i / w);
        (y.saturating_sub(1)..(y + 2).min(h)).flat_map(move |yy| {
            (x.saturating_sub(1)..(x + 2).min(w))
                .filter(move |&xx| yy != y || xx != x)
                .map(move |xx| yy * w + xx)
        })
    }
}

/// The digits `cell` could show given its neighbours' state (`digit_range`).
pub fn digit_range(view: &View<'_>, a: &Analysis, cell: usize) -> (u8, u8) {
    let (mut low, mut high) = (0u8, 0u8);
    for nb in view.neighbours(cell) {
        match view.raw[nb] {
            FLAG => {
                low += 1;
                high += 1;
            }
            HIDDEN => match a.cell_level[nb] {
                ONE => {
                    low += 1;
                    high += 1;
                }
                ZERO => {}
                _ => high += 1,
            },
            _ => {}
        }
    }
    (low, high)
}

/// The reduced parent position with its component counts, for its what-ifs.
pub struct Parent {
    /// Per component: the cells of each box.
    boxes: Vec<Vec<Vec<u32>>>,
    /// Per component: its count (shared between components of one shape).
    counted: Vec<Arc<Counted>>,
    /// Per cell: its component, or `NONE`.
    component: Vec<u32>,
    /// Per cell of a component: its box in the component.
    box_of: Vec<u32>,
    /// Per cell: interior.
    interior: Vec<bool>,
    interior_cells: u64,
    /// Per cell: certain in the parent's reduction (`FORCED_SAFE`, `FORCED_MINE`) or 0.
    forced: Vec<u8>,
    forced_safe: usize,
    mines_left: u64,
    /// The store the what-ifs' counts are kept in.
    counts: Counts,
}

impl Parent {
    /// Reduce and count `view` (`Inconsistent` when no layout explains it).
    pub fn new(view: &View<'_>, deadline: &Deadline) -> Result<Parent, ExactError> {
        Parent::with_counts(view, &mut Counts::default(), deadline)
    }

    /// [`Parent::new`], taking the counts of shapes met before from `counts` (and
    /// adding the new ones).
    pub fn with_counts(
        view: &View<'_>,
        counts: &mut Counts,
        deadline: &Deadline,
    ) -> Result<Parent, ExactError> {
        deadline.check()?; // every count may be kept: the loops below may not look
        let board = view.board();
        let problem = build(&board).map_err(|_| ExactError::Inconsistent)?;
        let n = view.raw.len();
        let mut component = vec![NONE; n];
        let mut box_of = vec![NONE; n];
        let mut interior = vec![false; n];
        let mut forced = vec![0u8; n];
        for &i in &problem.interior {
            interior[i as usize] = true;
        }
        for &i in &problem.forced_safe {
            forced[i as usize] = FORCED_SAFE;
        }
        for &i in &problem.forced_mines {
            forced[i as usize] = FORCED_MINE;
        }
        let mut counted_list: Vec<Arc<Counted>> = Vec::new();
        let mut boxes = Vec::with_capacity(problem.components.len());
        let interior_cells = problem.interior.len() as u64;
        let forced_safe = problem.forced_safe.len();
        let mines_left = problem.mines_left.ok_or(ExactError::Inconsistent)?;
        for (j, comp) in problem.components.into_iter().enumerate() {
            for (b, cells) in comp.cells.iter().enumerate() {
                for &i in cells {
                    component[i as usize] = j as u32;
                    box_of[i as usize] = b as u32;
                }
            }
            let c = counts.get(&comp.shape, deadline)?;
            if c.is_empty() {
                return Err(ExactError::Inconsistent);
            }
            counted_list.push(c);
            boxes.push(comp.cells);
        }
        Ok(Parent {
            boxes,
            counted: counted_list,
            component,
            box_of,
            interior,
            interior_cells,
            forced,
            forced_safe,
            mines_left,
            counts: counts.clone(),
        })
    }

    /// The whole exact analysis of the parent position, as [`crate::exact::analyze`]
    /// gives it (the same probabilities and certain cells; its levels numbered alike).
    pub fn analysis(&self, deadline: &Deadline) -> Result<Analysis, ExactError> {
        let all: Vec<usize> = (0..self.boxes.len()).collect();
        let comb = self
            .combine(&all, &[], self.interior_cells, deadline)?
            .ok_or(ExactError::Inconsistent)?;
        let mut cell_level = vec![NOT_UNKNOWN; self.component.len()];
        for (i, &f) in self.forced.iter().enumerate() {
            if f == FORCED_SAFE {
                cell_level[i] = ZERO;
            } else if f == FORCED_MINE {
                cell_level[i] = ONE;
            }
        }
        let boxes = self.boxes.iter().flatten();
        let interior =
            (self.interior.iter().enumerate()).filter_map(|(i, &inside)| inside.then_some(i));
        Ok(analysis_from_levels(
            cell_level,
            boxes,
            self.interior_cells,
            interior,
            comb,
        ))
    }

    /// The child with `cell` showing `digit`, or `None` when no layout allows that digit
    /// there.
    pub fn child(
        &self,
        view: &View<'_>,
        cell: usize,
        digit: u8,
        deadline: &Deadline,
    ) -> Result<Option<Child>, ExactError> {
        deadline.check()?;
        let raw = view.raw;
        let n = raw.len();
        // the changed components, and the region: their cells and the interior cells
        // around `cell` (the cell itself leaves both)
        let mut changed: Vec<u32> = Vec::new();
        let mut in_region = vec![false; n];
        let mut region: Vec<u32> = Vec::new();
        let mut interior_left = self.interior_cells;
        // the cell, its neighbours, and the unknown cells of the digits next to it (all in
        // the cell's component, unless the parent had proved the cell safe or a mine)
        let mut around: Vec<usize> = std::iter::once(cell).chain(view.neighbours(cell)).collect();
        for g in view.neighbours(cell) {
            if raw[g] <= 8 {
                around.extend(view.neighbours(g).filter(|&j| self.component[j] != NONE));
            }
        }
        for &j in &around {
            let comp = self.component[j];
            if comp != NONE && !changed.contains(&comp) {
                changed.push(comp);
                for b in &self.boxes[comp as usize] {
                    for &i in b {
                        take(i as usize, &mut region, &mut in_region);
                    }
                }
            } else if self.interior[j] {
                interior_left -= 1;
                if j != cell {
                    take(j, &mut region, &mut in_region);
                }
            }
        }
        if in_region[cell] {
            in_region[cell] = false;
            region.retain(|&i| i as usize != cell);
        }
        // the region's equations: every digit next to it (the new one at `cell` too)
        let value_at = |i: usize| if i == cell { digit } else { raw[i] };
        let mut digits: Vec<usize> = Vec::new();
        for &r in &region {
            for g in view.neighbours(r as usize) {
                if value_at(g) <= 8 && !digits.contains(&g) {
                    digits.push(g);
                }
            }
        }
        for g in std::iter::once(cell).chain(view.neighbours(cell)) {
            if value_at(g) <= 8 && !digits.contains(&g) {
                digits.push(g);
            }
        }
        let mut equations: Vec<(Vec<u32>, i64)> = Vec::with_capacity(digits.len());
        for &g in &digits {
            let mut cells = Vec::new();
            let mut need = i64::from(value_at(g));
            for j in view.neighbours(g) {
                if j == cell {
                    continue; // shown: safe
                }
                if raw[j] == FLAG || self.forced[j] == FORCED_MINE {
                    need -= 1;
                } else if raw[j] == HIDDEN && self.forced[j] != FORCED_SAFE {
                    if !in_region[j] {
                        // cannot happen: an equation's cells lie in one component
                        return Err(ExactError::Invalid(format!(
                            "what-if of cell {cell}: the digit at {g} reaches outside"
                        )));
                    }
                    cells.push(j as u32);
                }
            }
            if need < 0 || need > cells.len() as i64 {
                return Ok(None);
            }
            if !cells.is_empty() {
                equations.push((cells, need));
            }
        }
        // boxes: region cells with the same equations
        let mut member: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (e, (cells, _)) in equations.iter().enumerate() {
            for &c in cells {
                member.entry(c).or_default().push(e as u32);
            }
        }
        let mut box_of_sig: FxHashMap<&Vec<u32>, u32> = FxHashMap::default();
        let mut box_cells: Vec<usize> = Vec::new();
        let mut cell_box: FxHashMap<u32, u32> = FxHashMap::default();
        let mut free_cells = 0u64; // region cells in no equation (none in practice)
        for &r in &region {
            match member.get(&r) {
                Some(sig) => {
                    let b = *box_of_sig.entry(sig).or_insert_with(|| {
                        box_cells.push(0);
                        (box_cells.len() - 1) as u32
                    });
                    box_cells[b as usize] += 1;
                    cell_box.insert(r, b);
                }
                None => free_cells += 1,
            }
        }
        let mut child_counts: Vec<Arc<Counted>> = Vec::new();
        if !box_cells.is_empty() {
            let constraints = equations
                .iter()
                .map(|(cells, need)| {
                    let mut bs: Vec<u32> = cells.iter().map(|c| cell_box[c]).collect();
                    bs.sort_unstable();
                    bs.dedup();
                    (bs, *need as u32)
                })
                .collect();
            let shape = Shape {
                sizes: box_cells.clone(),
                constraints,
            };
            let c = self.counts.get(&shape, deadline)?;
            if c.is_empty() {
                return Ok(None);
            }
            child_counts.push(c);
        }
        let kept: Vec<usize> = (0..self.boxes.len())
            .filter(|j| !changed.contains(&(*j as u32)))
            .collect();
        let interior = interior_left + free_cells;
        let Some(comb) = self.combine(&kept, &child_counts, interior, deadline)? else {
            return Ok(None);
        };
        // certainly safe: the parent's (the cell is not one: it is uncertain), the boxes
        // and the interior of weight zero
        let mut safe = self.forced_safe - usize::from(self.forced[cell] == FORCED_SAFE);
        for (k, &j) in kept.iter().enumerate() {
            for (b, w) in self.boxes[j].iter().zip(&comb.box_weights[k]) {
                if w.is_zero() {
                    safe += b.len();
                }
            }
        }
        if let Some(weights) = comb.box_weights.get(kept.len()) {
            for (size, w) in box_cells.iter().zip(weights) {
                if w.is_zero() {
                    safe += size;
                }
            }
        }
        if interior > 0 && comb.interior_weight.is_zero() {
            safe += interior as usize;
        }
        let layouts = layouts_of(&comb.total, interior, comb.k_lo, &comb.d);
        let kept_index = {
            let mut index = vec![NONE; self.boxes.len()];
            for (k, &j) in kept.iter().enumerate() {
                index[j] = k as u32;
            }
            index
        };
        Ok(Some(Child {
            layouts,
            safe,
            comb,
            interior,
            cell,
            kept_index,
            region_box: cell_box,
            in_region,
        }))
    }

    /// The kept components and the new ones combined with `interior` cells under the
    /// parent's mines ([`combine_counts`]).
    fn combine(
        &self,
        kept: &[usize],
        new: &[Arc<Counted>],
        interior: u64,
        deadline: &Deadline,
    ) -> Result<Option<Combination<BigUint>>, ExactError> {
        let counts = kept
            .iter()
            .map(|&j| &*self.counted[j])
            .chain(new.iter().map(|c| &**c));
        Ok(combine_counts(counts, interior, self.mines_left, deadline)?)
    }
}

/// A what-if's answer: the child's layouts and certainly-safe cells; its lowest mine
/// probability on demand.
#[derive(Debug, Clone)]
pub struct Child {
    pub layouts: BigUint,
    pub safe: usize,
    comb: Combination<BigUint>,
    interior: u64,
    /// The cell shown.
    cell: usize,
    /// Per parent component: its place among the kept ones (`NONE`: changed).
    kept_index: Vec<u32>,
    /// The region's cells in an equation: their box in the region's component.
    region_box: FxHashMap<u32, u32>,
    in_region: Vec<bool>,
}

/// What a cell is in a child: certainly safe, certainly a mine, uncertain, or not an
/// unknown cell (revealed or flagged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certainty {
    Safe,
    Mine,
    Uncertain,
    Known,
}

impl Child {
    /// The whole exact analysis of the child position: the probabilities and certain
    /// cells of a full analysis of it (its levels numbered and scaled its own way). The
    /// kept components' boxes, then the region's, take their weights from the child's
    /// combination; the interior is the parent's less the cells around the shown one,
    /// plus the region's cells in no equation. O(cells).
    pub fn analysis(&self, parent: &Parent) -> Analysis {
        let n = parent.component.len();
        let mut cell_level = vec![NOT_UNKNOWN; n];
        for (i, &f) in parent.forced.iter().enumerate() {
            if f == FORCED_SAFE {
                cell_level[i] = ZERO;
            } else if f == FORCED_MINE {
                cell_level[i] = ONE;
            }
        }
        cell_level[self.cell] = NOT_UNKNOWN;
        let kept = (0..parent.boxes.len()).filter(|&j| self.kept_index[j] != NONE);
        let kept_boxes = kept.flat_map(|j| parent.boxes[j].iter());
        let kept_count = self.kept_index.iter().filter(|&&k| k != NONE).count();
        let mut region_boxes: Vec<Vec<u32>> =
            vec![Vec::new(); self.comb.box_weights.get(kept_count).map_or(0, Vec::len)];
        for (&c, &b) in &self.region_box {
            region_boxes[b as usize].push(c);
        }
        let interior_cells = (0..n).filter(|&i| {
            if self.in_region[i] {
                !self.region_box.contains_key(&(i as u32))
            } else {
                parent.interior[i] && i != self.cell
            }
        });
        analysis_from_levels(
            cell_level,
            kept_boxes.chain(region_boxes.iter()),
            self.interior,
            interior_cells,
            self.comb.clone(),
        )
    }

    /// Whether `cell` (an index) is certainly safe, certainly a mine or uncertain in the
    /// child, as its probability in a full analysis is 0, 1 or between. O(1).
    pub fn certainty(&self, parent: &Parent, view: &View<'_>, cell: usize) -> Certainty {
        if cell == self.cell || view.raw[cell] != HIDDEN {
            return Certainty::Known;
        }
        match parent.forced[cell] {
            FORCED_SAFE => return Certainty::Safe,
            FORCED_MINE => return Certainty::Mine,
            _ => {}
        }
        let total = &self.comb.total;
        let of = |w: &BigUint| {
            if w.is_zero() {
                Certainty::Safe
            } else if w == total {
                Certainty::Mine
            } else {
                Certainty::Uncertain
            }
        };
        if self.in_region[cell] {
            if let Some(&b) = self.region_box.get(&(cell as u32)) {
                let weights = &self.comb.box_weights[self.comb.box_weights.len() - 1];
                return of(&weights[b as usize]);
            }
        } else {
            let j = parent.component[cell];
            if j != NONE {
                let k = self.kept_index[j as usize] as usize;
                return of(&self.comb.box_weights[k][parent.box_of[cell] as usize]);
            }
        }
        // the interior (and a region cell in no equation, counted with it)
        if self.comb.interior_weight.is_zero() {
            Certainty::Safe
        } else if self.comb.interior_weight == total * self.interior {
            Certainty::Mine
        } else {
            Certainty::Uncertain
        }
    }

    /// The lowest mine probability below 1 among the child's unknown cells (0 when one
    /// is certainly safe), as `lowest_cells` of a full analysis gives it; `None` when
    /// every unknown cell is a certain mine. O(boxes) exact comparisons.
    pub fn lowest(&self) -> Option<Ratio> {
        if self.safe > 0 {
            return Some(Ratio::new(BigUint::zero(), BigUint::from(1u8)));
        }
        let total = &self.comb.total;
        let low_box = self
            .comb
            .box_weights
            .iter()
            .flatten()
            .filter(|w| *w < total)
            .min();
        let mut low = low_box.map(|w| Ratio::new(w.clone(), total.clone()));
        if self.interior > 0 {
            let all = total * self.interior;
            if self.comb.interior_weight < all {
                let r = Ratio::new(self.comb.interior_weight.clone(), all);
                if low
                    .as_ref()
                    .is_none_or(|l| r.cmp_exact(l) == std::cmp::Ordering::Less)
                {
                    low = Some(r);
                }
            }
        }
        low
    }
}

/// Put cell `i` in the region once.
fn take(i: usize, region: &mut Vec<u32>, in_region: &mut [bool]) {
    if !in_region[i] {
        in_region[i] = true;
        region.push(i as u32);
    }
}

/// What one cell can show: `(digit, analysis after it)` by increasing digit.
pub type Outcomes = Vec<(u8, Analysis)>;

/// The analysis of `board` and, for each of `cells` (hidden cells, by index), its
/// outcomes ([`Outcomes`]; none for a certain mine). `Inconsistent` when no layout
/// explains `board`; `Invalid` for a cell that is off the board or not hidden.
pub fn what_ifs(
    board: &Board,
    cells: &[usize],
    deadline: &Deadline,
) -> Result<(Analysis, Vec<Outcomes>), ExactError> {
    check_board(board)?;
    if let Some(&c) = cells
        .iter()
        .find(|&&c| c >= board.cells.len() || board.cells[c] != HIDDEN)
    {
        return Err(ExactError::Invalid(format!(
            "cell index {c} is not a hidden cell"
        )));
    }
    let raw: Vec<u8> = if board.trust_flags {
        board.cells.to_vec()
    } else {
        let unknown = |v: u8| if v == FLAG { HIDDEN } else { v };
        board.cells.iter().map(|&v| unknown(v)).collect()
    };
    let view = View {
        width: board.width,
        height: board.height,
        mines: board.mines.ok_or(ExactError::NoTotal)?,
        raw: &raw,
    };
    let parent = Parent::with_counts(&view, &mut Counts::default(), deadline)?;
    let analysis = parent.analysis(deadline)?;
    let mut out = Vec::with_capacity(cells.len());
    for &cell in cells {
        let mut outcomes = Vec::new();
        if analysis.cell_level[cell] != ONE {
            let (low, high) = digit_range(&view, &analysis, cell);
            for digit in low..=high {
                deadline.check()?;
                if let Some(child) = parent.child(&view, cell, digit, deadline)? {
                    if !child.layouts.is_zero() {
                        outcomes.push((digit, child.analysis(&parent)));
                    }
                }
            }
        }
        out.push(outcomes);
    }
    Ok((analysis, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::exact::{analyze, level_ratio, NOT_UNKNOWN};
    use num_bigint::BigUint;

    #[test]
    fn design_example_digits() {
        // the known answer of the design notes: cell (4, 0) shows 0, 1, 2 or 3 with
        // chances 1/12, 1/3, 1/4 and 1/36 of the 72 layouts
        let cells = raw(&["H2HHH", "HHHHH", "112HH", "00HHH", "000HH"]);
        let board = Board {
            width: 5,
            height: 5,
            cells: &cells,
            mines: Some(5),
            trust_flags: true,
        };
        let (parent, outs) = what_ifs(&board, &[4, 6], &Deadline::none()).unwrap();
        assert_eq!(parent.layouts(), BigUint::from(72u8));
        let got: Vec<(u8, BigUint)> = outs[0].iter().map(|(d, a)| (*d, a.layouts())).collect();
        let want: Vec<(u8, BigUint)> = [(0u8, 6u8), (1, 24), (2, 18), (3, 2)]
            .iter()
            .map(|&(d, n)| (d, BigUint::from(n)))
            .collect();
        assert_eq!(got, want);
        // each child equals a fresh analysis of the revealed position
        for (cell, outcomes) in [4usize, 6].iter().zip(&outs) {
            for (d, a) in outcomes {
                let mut c = cells.clone();
                c[*cell] = *d;
                let b = Board { cells: &c, ..board };
                let fresh = analyze(&b, &Deadline::none()).unwrap();
                assert_eq!(fresh.layouts(), a.layouts());
                assert_eq!((&fresh.safe, &fresh.mines), (&a.safe, &a.mines));
                // the same probability in every cell (levels are numbered and scaled
                // each their own way)
                for (i, (&l1, &l2)) in fresh.cell_level.iter().zip(&a.cell_level).enumerate() {
                    if l1 == NOT_UNKNOWN || l2 == NOT_UNKNOWN {
                        assert_eq!(l1, l2, "cell {i}");
                    } else {
                        let (r1, r2) = (level_ratio(&fresh, l1), level_ratio(a, l2));
                        assert_eq!(r1.cmp_exact(&r2), std::cmp::Ordering::Equal, "cell {i}");
                    }
                }
            }
        }
        // (1, 1) is a mine in 5/6 of the layouts: its outcomes add up to 12 layouts
        let safe: BigUint = outs[1].iter().map(|(_, a)| a.layouts()).sum();
        assert_eq!(safe, BigUint::from(12u8));
    }

    #[test]
    fn refuses_cells_that_are_not_hidden() {
        let cells = raw(&["1H"]);
        let board = Board {
            width: 2,
            height: 1,
            cells: &cells,
            mines: Some(1),
            trust_flags: true,
        };
        assert!(matches!(
            what_ifs(&board, &[0], &Deadline::none()),
            Err(ExactError::Invalid(_))
        ));
        assert!(matches!(
            what_ifs(&board, &[2], &Deadline::none()),
            Err(ExactError::Invalid(_))
        ));
        // a certain mine has no outcome
        let (_, outs) = what_ifs(&board, &[1], &Deadline::none()).unwrap();
        assert!(outs[0].is_empty());
    }
}
