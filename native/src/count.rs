//! The exact count of a position's components, written once for the engine
//! ([`crate::exact`]) and the what-ifs ([`crate::whatif`]): each component counted by
//! shape ([`Counted`], in the smallest integer type it fits), the counts kept by shape
//! across related positions ([`Counts`]), and the components combined with the interior
//! under the total in three tiers of integers ([`combine_counts`]).
//!
//! Layer order inside the crate: constraints, frontier, count (this module, with
//! [`crate::combine`] under it), exact, whatif, game, players, simulate, bindings; each
//! imports only lower ones.
//!
//! Cost: a shape met before costs one hash lookup; a new one its frontier count (see
//! [`crate::frontier`]); the combination is tried in `u128`, then in 512-bit [`Wide`]
//! integers, then in `BigUint`, each tier run only when the one before overflows (see
//! [`crate::combine`] for one run's cost). An expert board's combination fits the first
//! or the second tier.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use num_bigint::BigUint;

use crate::combine::{combine, Combination, CombineError};
use crate::constraints::Shape;
use crate::frontier::{count_any, AnyCount, ComponentCount, CountError};
use crate::hash::FxHashMap;
use crate::ints::{Count, Wide};
use crate::limits::Deadline;

/// One component's count: in `u128` when it fits (what the combination runs in first),
/// else in `BigUint`; the wide and big forms the combination may need are made from it
/// on first use and kept.
#[derive(Debug)]
pub struct Counted {
    small: Option<ComponentCount<u128>>,
    wide: OnceLock<Option<ComponentCount<Wide<8>>>>,
    big: OnceLock<ComponentCount<BigUint>>,
}

impl Counted {
    /// Count `shape` (see [`crate::frontier::count_any`]).
    pub fn new(shape: &Shape, deadline: &Deadline) -> Result<Counted, CountError> {
        Ok(match count_any(shape, deadline)? {
            AnyCount::Small(c) => Counted {
                small: Some(c),
                wide: OnceLock::new(),
                big: OnceLock::new(),
            },
            AnyCount::Big(c) => Counted {
                small: None,
                wide: OnceLock::new(),
                big: OnceLock::from(c),
            },
        })
    }

    /// True when no layout of the component exists (its equations contradict).
    pub fn is_empty(&self) -> bool {
        match &self.small {
            Some(c) => c.layouts.iter().all(|v| *v == 0),
            None => self.big().layouts.iter().all(Count::is_zero),
        }
    }

    /// The count in `u128`, when it fits.
    pub fn small(&self) -> Option<&ComponentCount<u128>> {
        self.small.as_ref()
    }

    /// The count in `BigUint` (made from the `u128` one on first use).
    pub fn big(&self) -> &ComponentCount<BigUint> {
        self.big.get_or_init(|| {
            let small = self.small.as_ref().expect("a count is small or big");
            map_count(small, |&v| BigUint::from(v))
        })
    }

    /// The count in [`Wide`] integers, `None` when it does not fit (made on first use).
    pub fn wide(&self) -> Option<&ComponentCount<Wide<8>>> {
        self.wide
            .get_or_init(|| match &self.small {
                Some(small) => Some(map_count(small, |&v| wide_of(v))),
                None => self.big().convert().ok(),
            })
            .as_ref()
    }
}

/// A `u128` count as a 512-bit [`Wide`] one.
fn wide_of(v: u128) -> Wide<8> {
    let mut limbs = [0u64; 8];
    limbs[0] = v as u64;
    limbs[1] = (v >> 64) as u64;
    Wide(limbs)
}

/// A component count with `f` applied to every number in it (a change of integer type).
fn map_count<A, B>(c: &ComponentCount<A>, f: impl Fn(&A) -> B) -> ComponentCount<B> {
    ComponentCount {
        layouts: c.layouts.iter().map(&f).collect(),
        box_mines: c
            .box_mines
            .iter()
            .map(|p| p.iter().map(&f).collect())
            .collect(),
    }
}

type Store = FxHashMap<Shape, Arc<Counted>>;

/// Component counts by shape, kept across related positions: the what-ifs of one
/// position share most of their components, and so do the positions of a game and the
/// games of a player (a move changes a few components; the others are met again). A
/// handle: clones share one store, so a player and the position it analyses keep their
/// counts together. A shape with no layout is kept too (a what-if meets it again).
#[derive(Default, Clone)]
pub struct Counts(Arc<Mutex<Store>>);

impl Counts {
    /// Most shapes kept before the store is emptied (a bound on its memory).
    pub const LIMIT: usize = 4096;

    /// Forget every count.
    pub fn clear(&mut self) {
        self.store().clear();
    }

    /// Number of distinct shapes kept.
    pub fn len(&self) -> usize {
        self.store().len()
    }

    /// True when no shape is kept.
    pub fn is_empty(&self) -> bool {
        self.store().is_empty()
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        // a panic while the store was held left it whole (inserts are single calls)
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The count of `shape`, counted on first use.
    pub fn get(&self, shape: &Shape, deadline: &Deadline) -> Result<Arc<Counted>, CountError> {
        if let Some(c) = self.store().get(shape) {
            return Ok(Arc::clone(c));
        }
        let c = Arc::new(Counted::new(shape, deadline)?);
        let mut store = self.store();
        if store.len() >= Counts::LIMIT {
            store.clear();
        }
        store.insert(shape.clone(), Arc::clone(&c));
        Ok(c)
    }
}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Counts({} shapes)", self.len())
    }
}

/// `counts` combined with `interior` free cells under exactly `mines` mines, in `u128`,
/// else in [`Wide`] integers, else in `BigUint` (each tier tried when the one before
/// overflows); `Ok(None)` when no layout has exactly that many mines.
pub fn combine_counts<'a, I>(
    counts: I,
    interior: u64,
    mines: u64,
    deadline: &Deadline,
) -> Result<Option<Combination<BigUint>>, CountError>
where
    I: IntoIterator<Item = &'a Counted>,
    I::IntoIter: Clone,
{
    fn to_big<C: Count>(c: Combination<C>) -> Combination<BigUint> {
        Combination {
            total: c.total.to_big(),
            box_weights: c
                .box_weights
                .iter()
                .map(|w| w.iter().map(Count::to_big).collect())
                .collect(),
            interior_weight: c.interior_weight.to_big(),
            k_lo: c.k_lo,
            d: c.d.to_big(),
        }
    }
    fn tier<C: Count>(
        refs: Option<Vec<&ComponentCount<C>>>,
        interior: u64,
        mines: u64,
        deadline: &Deadline,
    ) -> Result<Option<Option<Combination<BigUint>>>, CountError> {
        let Some(refs) = refs else {
            return Ok(None); // a count does not fit this tier
        };
        match combine(&refs, interior, mines, deadline) {
            Ok(r) => Ok(Some(r.map(to_big))),
            Err(CombineError::Overflow) => Ok(None),
            Err(CombineError::Stop(s)) => Err(CountError::Stop(s)),
        }
    }
    let counts = counts.into_iter();
    let small = counts.clone().map(Counted::small).collect();
    if let Some(r) = tier(small, interior, mines, deadline)? {
        return Ok(r);
    }
    let wide = counts.clone().map(Counted::wide).collect();
    if let Some(r) = tier(wide, interior, mines, deadline)? {
        return Ok(r);
    }
    let big = Some(counts.map(Counted::big).collect());
    tier(big, interior, mines, deadline)?.ok_or(CountError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of `n` single-cell boxes under the equations `b_i + b_{i+1} = 1`: two
    /// layouts, each cell a mine in one.
    fn strip(n: usize) -> Shape {
        Shape {
            sizes: vec![1; n],
            constraints: (0..n as u32 - 1).map(|i| (vec![i, i + 1], 1)).collect(),
        }
    }

    #[test]
    fn counts_are_kept_by_shape_and_shared_by_clones() {
        let counts = Counts::default();
        let other = counts.clone();
        let a = counts.get(&strip(5), &Deadline::none()).unwrap();
        let b = other.get(&strip(5), &Deadline::none()).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(counts.len(), 1);
        let bad = Shape {
            sizes: vec![1, 1],
            constraints: vec![(vec![0], 1), (vec![0, 1], 0)],
        };
        assert!(counts.get(&bad, &Deadline::none()).unwrap().is_empty());
        assert!(!a.is_empty());
        assert_eq!(counts.len(), 2);
    }

    /// The three tiers give one answer: a combination that overflows `u128` (a big
    /// interior under many mines) is redone, and equals the `BigUint` one.
    #[test]
    fn every_tier_gives_the_same_combination() {
        let c = Counted::new(&strip(6), &Deadline::none()).unwrap();
        for (interior, mines) in [(10u64, 8u64), (300, 150), (4000, 1500)] {
            let got = combine_counts([&c, &c], interior, mines, &Deadline::none())
                .unwrap()
                .unwrap();
            let big = [c.big(), c.big()];
            let want = combine(&big, interior, mines, &Deadline::none())
                .unwrap()
                .unwrap();
            assert_eq!(got, want);
        }
        // no layout holds more mines than cells
        assert_eq!(
            combine_counts([&c], 3, 100, &Deadline::none()).unwrap(),
            None
        );
    }

    #[test]
    fn a_passed_deadline_stops_the_combination() {
        let c = Counted::new(&strip(6), &Deadline::none()).unwrap();
        let r = combine_counts([&c], 50, 20, &Deadline::after(0.0));
        assert_eq!(
            r.unwrap_err(),
            CountError::Stop(crate::limits::Stop::Deadline)
        );
    }
}
