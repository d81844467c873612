//! The players' what-ifs: for a hidden cell `c` of a position and a digit `d`, the number
//! of layouts of the position with `c` showing `d`, and how many cells are then certainly
//! safe, without analysing the whole board again.
//!
//! The child's layouts are the parent's in which `c` is safe with `d` mines around it, so
//! the parent's reduction stays true: its certain cells stay certain, and only the
//! components next to `c` change. Those components, the interior cells around `c` and the
//! new equation of `c` are reduced again on their own (every digit next to them has all
//! its unknown neighbours among them, since an equation never spans two components),
//! counted, and combined under the total with the parent's other components, whose
//! counts are kept. A cell is then certainly safe exactly as in a full analysis: a box
//! or the interior of weight zero in the combination (or a parent's certain safe cell).
//! Both numbers are exact, so they equal those of a full analysis of the child (tested).
//!
//! Cost: once per position, a reduction and the count of each distinct component; per
//! what-if, the reduction and the count of the changed components (a few dozen cells) and
//! the combination (see [`crate::combine`]), no pass over the board.

use num_bigint::BigUint;
use num_traits::Zero;

use crate::combine::{combine, Combination, CombineError};
use crate::constraints::{build, Board, Shape};
use crate::count::Wide;
use crate::exact::{analysis_from_levels, map_count, wide_of, Analysis, NOT_UNKNOWN, ONE, ZERO};
use crate::frontier::{count, count_in, ComponentCount, CountError};
use crate::game::{FLAG, HIDDEN};
use crate::hash::FxHashMap;
use crate::limits::Deadline;

use super::{PlayError, Ratio, View};

const NONE: u32 = u32::MAX;
const FORCED_SAFE: u8 = 1;
const FORCED_MINE: u8 = 2;

/// A counted component: in `u128` when its counts fit (most do), else in big integers;
/// the wide and big forms are made from it for the combination.
struct Counted {
    small: Option<ComponentCount<u128>>,
    wide: Option<ComponentCount<Wide<8>>>,
    big: ComponentCount<BigUint>,
}

type Store = FxHashMap<Shape, std::sync::Arc<Counted>>;

/// Component counts by shape, kept across the positions of a game and the games of a
/// player (a move changes a few components; the others are met again), the what-ifs'
/// changed components too (a guess leaves most of them as they were). A handle: the
/// player and the position it analyses share one store.
#[derive(Default, Clone)]
pub struct Counts(std::sync::Arc<std::sync::Mutex<Store>>);

impl Counts {
    /// Most shapes kept before the store is emptied.
    pub const LIMIT: usize = 4096;

    pub fn clear(&mut self) {
        self.store().clear();
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        // a panic while the store was held left it whole (inserts are single calls)
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The count of `shape`, counted on first use.
    fn get(
        &self,
        shape: &Shape,
        deadline: &Deadline,
    ) -> Result<std::sync::Arc<Counted>, PlayError> {
        if let Some(c) = self.store().get(shape) {
            return Ok(std::sync::Arc::clone(c));
        }
        let c = std::sync::Arc::new(counted(shape, deadline)?);
        let mut store = self.store();
        if store.len() >= Counts::LIMIT {
            store.clear();
        }
        store.insert(shape.clone(), std::sync::Arc::clone(&c));
        Ok(c)
    }
}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Counts({} shapes)", self.store().len())
    }
}

/// The reduced parent position with its component counts, for its what-ifs.
pub struct Parent {
    /// Per component: the cells of each box.
    boxes: Vec<Vec<Vec<u32>>>,
    /// Per component: its count (shared between components of one shape).
    counted: Vec<std::sync::Arc<Counted>>,
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

fn count_error(e: CountError) -> PlayError {
    match e {
        CountError::Stop(s) => PlayError::Stop(s),
        CountError::Overflow => PlayError::Overflow,
        CountError::Invalid(why) => PlayError::Invalid(why),
    }
}

fn counted(shape: &Shape, deadline: &Deadline) -> Result<Counted, PlayError> {
    match count_in::<u128>(shape, deadline) {
        Ok(small) => Ok(Counted {
            wide: Some(map_count(&small, |&v| wide_of(v))),
            big: map_count(&small, |&v| BigUint::from(v)),
            small: Some(small),
        }),
        Err(CountError::Overflow) => {
            let big = count(shape, deadline).map_err(count_error)?;
            Ok(Counted {
                small: None,
                wide: big.convert().ok(),
                big,
            })
        }
        Err(e) => Err(count_error(e)),
    }
}

impl Parent {
    /// Reduce and count `view` (`Inconsistent` when no layout explains it).
    pub fn new(view: &View<'_>, deadline: &Deadline) -> Result<Parent, PlayError> {
        Parent::with_counts(view, &mut Counts::default(), deadline)
    }

    /// [`Parent::new`], taking the counts of shapes met before from `counts` (and
    /// adding the new ones).
    pub fn with_counts(
        view: &View<'_>,
        counts: &mut Counts,
        deadline: &Deadline,
    ) -> Result<Parent, PlayError> {
        let board = Board {
            width: view.width,
            height: view.height,
            cells: view.raw,
            mines: Some(view.mines),
            trust_flags: true,
        };
        let problem = build(&board).map_err(|_| PlayError::Inconsistent)?;
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
        let mut counted_list: Vec<std::sync::Arc<Counted>> = Vec::new();
        let mut boxes = Vec::with_capacity(problem.components.len());
        let interior_cells = problem.interior.len() as u64;
        let forced_safe = problem.forced_safe.len();
        let mines_left = problem.mines_left.ok_or(PlayError::Inconsistent)?;
        for (j, comp) in problem.components.into_iter().enumerate() {
            for (b, cells) in comp.cells.iter().enumerate() {
                for &i in cells {
                    component[i as usize] = j as u32;
                    box_of[i as usize] = b as u32;
                }
            }
            let c = counts.get(&comp.shape, deadline)?;
            if c.big.layouts.iter().all(Zero::is_zero) {
                return Err(PlayError::Inconsistent);
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
    pub fn analysis(&self, deadline: &Deadline) -> Result<Analysis, PlayError> {
        let all: Vec<usize> = (0..self.boxes.len()).collect();
        let comb = self
            .combine(&all, &[], self.interior_cells, deadline)?
            .ok_or(PlayError::Inconsistent)?;
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
    ) -> Result<Option<Child>, PlayError> {
        deadline.check().map_err(PlayError::Stop)?;
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
                        return Err(PlayError::Invalid(format!(
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
        let mut child_counts: Vec<std::sync::Arc<Counted>> = Vec::new();
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
            if c.big.layouts.iter().all(Zero::is_zero) {
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
        let layouts = super::layouts_of(&comb.total, interior, comb.k_lo, &comb.d);
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
    /// parent's mines: in wide integers, redone in big ones on overflow.
    fn combine(
        &self,
        kept: &[usize],
        new: &[std::sync::Arc<Counted>],
        interior: u64,
        deadline: &Deadline,
    ) -> Result<Option<Combination<BigUint>>, PlayError> {
        let small: Option<Vec<&ComponentCount<u128>>> = kept
            .iter()
            .map(|&j| self.counted[j].small.as_ref())
            .chain(new.iter().map(|c| c.small.as_ref()))
            .collect();
        if let Some(refs) = small {
            match combine(&refs, interior, self.mines_left, deadline) {
                Ok(r) => {
                    return Ok(r.map(|c| Combination {
                        total: BigUint::from(c.total),
                        box_weights: c
                            .box_weights
                            .iter()
                            .map(|w| w.iter().map(|&v| BigUint::from(v)).collect())
                            .collect(),
                        interior_weight: BigUint::from(c.interior_weight),
                        k_lo: c.k_lo,
                        d: BigUint::from(c.d),
                    }))
                }
                Err(CombineError::Stop(s)) => return Err(PlayError::Stop(s)),
                Err(CombineError::Overflow) => {}
            }
        }
        let wide: Option<Vec<&ComponentCount<Wide<8>>>> = kept
            .iter()
            .map(|&j| self.counted[j].wide.as_ref())
            .chain(new.iter().map(|c| c.wide.as_ref()))
            .collect();
        let mut result = Err(CombineError::Overflow);
        if let Some(refs) = wide {
            result = combine(&refs, interior, self.mines_left, deadline).map(|r| {
                r.map(|c| Combination {
                    total: crate::count::Count::to_big(&c.total),
                    box_weights: c
                        .box_weights
                        .iter()
                        .map(|w| w.iter().map(crate::count::Count::to_big).collect())
                        .collect(),
                    interior_weight: crate::count::Count::to_big(&c.interior_weight),
                    k_lo: c.k_lo,
                    d: crate::count::Count::to_big(&c.d),
                })
            });
        }
        if result == Err(CombineError::Overflow) {
            let refs: Vec<&ComponentCount<BigUint>> = kept
                .iter()
                .map(|&j| &self.counted[j].big)
                .chain(new.iter().map(|c| &c.big))
                .collect();
            result = combine(&refs, interior, self.mines_left, deadline);
        }
        match result {
            Ok(c) => Ok(c),
            Err(CombineError::Stop(s)) => Err(PlayError::Stop(s)),
            Err(CombineError::Overflow) => Err(PlayError::Overflow),
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::{neighbour_table, random_layout, FirstClick, Game, Kind};
    use crate::mt::Mt;
    use crate::players::{greedy::Greedy, layout_count, level_ratio, lowest_cells, Player};

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
                            Err(PlayError::Inconsistent) => None,
                            Err(e) => panic!("{e:?}"),
                        };
                        let full = full.filter(|(l, _, _)| !l.is_zero());
                        let quick = parent
                            .child(&view, cell, digit, &Deadline::none())
                            .unwrap_or_else(|e| {
                                panic!(
                                    "{e:?} w={w} {:?} comp={:?} interior={:?} forced={:?}",
                                    raw, parent.component, parent.interior, parent.forced
                                )
                            });
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
