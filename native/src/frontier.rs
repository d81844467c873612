//! The frontier count of one component: a dynamic programme over its boxes (mirrors the
//! Python reference engine `engines/exact.py`).
//!
//! Boxes are taken in an order that keeps few equations *open* (some of their boxes
//! placed, some not); the state after `i` boxes is the vector of mines still owed by
//! each open equation, and its value the mine-count polynomial of the partial layouts
//! reaching it (a box of `s` cells with `k` mines weighs `C(s, k)`). Two prunings keep
//! the states few: an equation never owes a negative number of mines, nor more than its
//! unplaced boxes can hold. A backward pass over the same transitions gives, with the
//! forward one, every box's mine polynomial (the layouts in which one given cell of the
//! box is a mine): one forward and one backward sweep, not one count per cell.
//!
//! A small component (at most [`ENUMERATE_LIMIT`] ways to choose its boxes' mine
//! numbers, most components of a real board) is counted instead by trying every choice,
//! an equation checked when its last box is chosen: the same counts, without the
//! programme's ordering, plan and states.
//!
//! Complexity: O(n * S * s * L^2) count operations for `n` boxes, at most `S` states per
//! step, box size `s` and polynomial length `L`; `S` is exponential only in the width of
//! the order (the most equations open at once), small for the strips and loops of a real
//! frontier. Counts run in `u128` with checked arithmetic and are redone in `BigUint`
//! when one overflows; a deadline is checked at every step.

use std::collections::VecDeque;
use std::hash::Hash;

use num_bigint::BigUint;

use crate::constraints::Shape;
use crate::hash::FxHashMap;
use crate::ints::{
    add_product_shifted, add_shifted, binomial_row, convert, trim, Count, Overflow, Poly,
};
use crate::limits::{Deadline, Stop, MAX_TERMS};

/// What the count of one component gives: `layouts[m]`, the layouts with `m` mines;
/// `box_mines[b][m]`, of those, the layouts in which one given cell of box `b` is a mine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentCount<C> {
    pub layouts: Poly<C>,
    pub box_mines: Vec<Poly<C>>,
}

impl<C: Count> ComponentCount<C> {
    /// The same counts in another number type.
    pub fn convert<D: Count>(&self) -> Result<ComponentCount<D>, Overflow> {
        Ok(ComponentCount {
            layouts: convert(&self.layouts)?,
            box_mines: self
                .box_mines
                .iter()
                .map(|p| convert(p))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// Largest box the count accepts (`C(s, k)` must fit a `u64`; a real box has at most 8
/// cells, all around one digit).
pub const MAX_BOX: usize = 62;

/// Why a count stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    Stop(Stop),
    Overflow,
    /// The shape is malformed (an empty or too large box, a box index out of range).
    Invalid(String),
}

impl From<Overflow> for CountError {
    fn from(_: Overflow) -> Self {
        CountError::Overflow
    }
}

impl From<Stop> for CountError {
    fn from(s: Stop) -> Self {
        CountError::Stop(s)
    }
}

/// Count a component exactly: in `u128` first, in `BigUint` when a count overflows.
pub fn count(shape: &Shape, deadline: &Deadline) -> Result<ComponentCount<BigUint>, CountError> {
    check_shape(shape)?;
    match count_in::<u128>(shape, deadline) {
        Ok(c) => Ok(c.convert()?),
        Err(CountError::Overflow) => count_in::<BigUint>(shape, deadline),
        Err(e) => Err(e),
    }
}

/// A component's count in the smallest type it fits: `u128` (nearly every component of
/// a real board) or `BigUint`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyCount {
    Small(ComponentCount<u128>),
    Big(ComponentCount<BigUint>),
}

/// Count a component exactly, in `u128` when its counts fit, else in `BigUint`: what
/// [`count`] does, without converting a `u128` count to `BigUint`.
pub fn count_any(shape: &Shape, deadline: &Deadline) -> Result<AnyCount, CountError> {
    check_shape(shape)?;
    match count_in::<u128>(shape, deadline) {
        Ok(c) => Ok(AnyCount::Small(c)),
        Err(CountError::Overflow) => Ok(AnyCount::Big(count_in::<BigUint>(shape, deadline)?)),
        Err(e) => Err(e),
    }
}

fn check_shape(shape: &Shape) -> Result<(), CountError> {
    let n = shape.sizes.len();
    if n == 0 {
        return Err(CountError::Invalid("a component without boxes".into()));
    }
    if let Some(&s) = shape.sizes.iter().find(|&&s| s == 0 || s > MAX_BOX) {
        return Err(CountError::Invalid(format!(
            "a box of {s} cells (1 to {MAX_BOX} accepted)"
        )));
    }
    for (boxes, v) in &shape.constraints {
        if boxes.is_empty() || boxes.iter().any(|&b| b as usize >= n) {
            return Err(CountError::Invalid(
                "an equation over no or unknown boxes".into(),
            ));
        }
        if *v > 255 {
            return Err(CountError::Invalid(format!("an equation owing {v} mines")));
        }
    }
    Ok(())
}

/// Count in the number type `C` (an [`Overflow`] error when a count does not fit).
pub fn count_in<C: Count>(
    shape: &Shape,
    deadline: &Deadline,
) -> Result<ComponentCount<C>, CountError> {
    if shape.sizes.len() == 1 && shape.constraints.len() == 1 {
        return Ok(one_box(shape.sizes[0], shape.constraints[0].1 as usize));
    }
    let leaves = shape
        .sizes
        .iter()
        .try_fold(1u64, |acc, &s| acc.checked_mul(s as u64 + 1))
        .filter(|&l| l <= ENUMERATE_LIMIT);
    if leaves.is_some() {
        deadline.check()?;
        return enumerate(shape);
    }
    programme(shape, deadline)
}

/// The frontier programme (see the module's documentation) over `shape`.
fn programme<C: Count>(
    shape: &Shape,
    deadline: &Deadline,
) -> Result<ComponentCount<C>, CountError> {
    let order = box_order(shape, deadline)?;
    let (steps, slots) = plan(shape, &order);
    deadline.check()?;
    let sizes: Vec<usize> = order.iter().map(|&b| shape.sizes[b]).collect();
    let (layouts, by_step) = if slots <= 32 {
        run::<C, u128>(&steps, &sizes, slots, deadline)?
    } else {
        run::<C, Vec<u8>>(&steps, &sizes, slots, deadline)?
    };
    let mut by_step = by_step;
    let mut box_mines = vec![Vec::new(); order.len()];
    for (i, &b) in order.iter().enumerate() {
        box_mines[b] = std::mem::take(&mut by_step[i]);
    }
    Ok(ComponentCount { layouts, box_mines })
}

/// Components whose boxes' mine choices number at most this many (the product of their
/// sizes plus one) are counted by enumerating the choices: cheaper than the programme's
/// ordering, plan and states for the small components that make most of a real board.
const ENUMERATE_LIMIT: u64 = 1024;

/// Count a small component by trying every number of mines in each box, an equation
/// checked as soon as its last box is chosen. O(product of (size + 1) * boxes^2) at most
/// ([`ENUMERATE_LIMIT`] choices), usually far less.
fn enumerate<C: Count>(shape: &Shape) -> Result<ComponentCount<C>, CountError> {
    let n = shape.sizes.len();
    let cells: usize = shape.sizes.iter().sum();
    let mut closes: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, (boxes, _)) in shape.constraints.iter().enumerate() {
        if let Some(&last) = boxes.iter().max() {
            closes[last as usize].push(c);
        }
    }
    let mut e = Enumeration {
        shape,
        closes: &closes,
        ks: vec![0; n],
        layouts: vec![C::zero(); cells + 1],
        box_mines: vec![vec![C::zero(); cells + 1]; n],
    };
    e.choose(0)?;
    let Enumeration {
        mut layouts,
        mut box_mines,
        ..
    } = e;
    trim(&mut layouts);
    for p in &mut box_mines {
        trim(p);
    }
    Ok(ComponentCount { layouts, box_mines })
}

/// The state of [`enumerate`]: the mines chosen in the boxes so far and the sums.
struct Enumeration<'a, C> {
    shape: &'a Shape,
    closes: &'a [Vec<usize>],
    ks: Vec<usize>,
    layouts: Poly<C>,
    box_mines: Vec<Poly<C>>,
}

impl<C: Count> Enumeration<'_, C> {
    fn choose(&mut self, b: usize) -> Result<(), Overflow> {
        let n = self.ks.len();
        if b == n {
            return self.add_leaf();
        }
        'k: for k in 0..=self.shape.sizes[b] {
            self.ks[b] = k;
            for &c in &self.closes[b] {
                let (boxes, value) = &self.shape.constraints[c];
                let sum: usize = boxes.iter().map(|&o| self.ks[o as usize]).sum();
                if sum != *value as usize {
                    continue 'k;
                }
            }
            self.choose(b + 1)?;
        }
        Ok(())
    }

    /// Add the layouts of the chosen mines: `prod C(s, k)` at `sum k`, and for each box
    /// the layouts with a given cell of it a mine (`C(s - 1, k - 1)` for that box).
    fn add_leaf(&mut self) -> Result<(), Overflow> {
        let sizes = &self.shape.sizes;
        let m: usize = self.ks.iter().sum();
        let mut ways = C::from_u64(1);
        for (&s, &k) in sizes.iter().zip(&self.ks) {
            ways.mul_small(binomial_row(s)[k])?;
        }
        self.layouts[m].add(&ways)?;
        for (b, &k) in self.ks.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let mut w = C::from_u64(binomial_row(sizes[b] - 1)[k - 1]);
            for (o, (&s, &ko)) in sizes.iter().zip(&self.ks).enumerate() {
                if o != b {
                    w.mul_small(binomial_row(s)[ko])?;
                }
            }
            self.box_mines[b][m].add(&w)?;
        }
        Ok(())
    }
}

/// One box under one equation: `C(size, value)` layouts, `C(size - 1, value - 1)` of them
/// with a given cell a mine. O(1).
fn one_box<C: Count>(size: usize, value: usize) -> ComponentCount<C> {
    if value > size {
        return ComponentCount {
            layouts: Vec::new(),
            box_mines: vec![Vec::new()],
        };
    }
    let mut layouts = vec![C::zero(); value + 1];
    layouts[value] = C::from_u64(binomial_row(size)[value]);
    let mut mines = Vec::new();
    if value > 0 {
        mines = vec![C::zero(); value + 1];
        mines[value] = C::from_u64(binomial_row(size - 1)[value - 1]);
    }
    ComponentCount {
        layouts,
        box_mines: vec![mines],
    }
}

/// Components of at most this many boxes keep the order they were built in.
const TINY: usize = 12;
/// Components of at most this many boxes are ordered breadth-first, without the greedy.
const SMALL: usize = 40;

/// A box order keeping few equations open at once (greedy, O(n^2 * degree)): from a
/// peripheral box (found by two breadth-first searches), next the box that closes the
/// most equations and opens the fewest. The greedy checks `deadline` at every box (on a
/// 1000x250 board it alone takes seconds).
pub fn box_order(shape: &Shape, deadline: &Deadline) -> Result<Vec<usize>, Stop> {
    let n = shape.sizes.len();
    if n <= TINY {
        return Ok((0..n).collect());
    }
    let mut box_cons: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, (boxes, _)) in shape.constraints.iter().enumerate() {
        for &b in boxes {
            box_cons[b as usize].push(c);
            neighbours[b as usize].extend(boxes.iter().map(|&o| o as usize));
        }
    }
    for nb in &mut neighbours {
        nb.sort_unstable();
        nb.dedup();
    }
    let bfs = |from: usize| -> (Vec<i64>, usize) {
        let mut dist = vec![-1i64; n];
        dist[from] = 0;
        let mut queue = VecDeque::from([from]);
        let mut last = from;
        while let Some(b) = queue.pop_front() {
            last = b;
            for &o in &neighbours[b] {
                if dist[o] < 0 {
                    dist[o] = dist[b] + 1;
                    queue.push_back(o);
                }
            }
        }
        (dist, last)
    };
    let (_, last) = bfs(0);
    let (dist, _) = bfs(last);
    if n <= SMALL {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&b| (dist[b], b));
        return Ok(order);
    }
    deadline.check()?;
    let mut unplaced: Vec<usize> = shape.constraints.iter().map(|(b, _)| b.len()).collect();
    let mut opened = vec![false; shape.constraints.len()];
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut candidates: Vec<usize> = vec![last];
    let mut is_candidate = vec![false; n];
    is_candidate[last] = true;
    while order.len() < n {
        deadline.check()?; // each step scans every candidate: thousands on a wide board
        if candidates.is_empty() {
            let b = (0..n).find(|&b| !placed[b]).unwrap_or(0);
            candidates.push(b);
            is_candidate[b] = true;
        }
        let score = |b: usize| {
            let opens = box_cons[b]
                .iter()
                .filter(|&&c| !opened[c] && unplaced[c] > 1)
                .count() as i64;
            let closes = box_cons[b].iter().filter(|&&c| unplaced[c] == 1).count() as i64;
            (opens - closes, dist[b], b)
        };
        let (at, &best) = candidates
            .iter()
            .enumerate()
            .min_by_key(|&(_, &b)| score(b))
            .unwrap_or((0, &candidates[0]));
        candidates.swap_remove(at);
        is_candidate[best] = false;
        placed[best] = true;
        order.push(best);
        for &c in &box_cons[best] {
            opened[c] = true;
            unplaced[c] -= 1;
            if unplaced[c] > 0 {
                for &o in &shape.constraints[c].0 {
                    let o = o as usize;
                    if !placed[o] && !is_candidate[o] {
                        is_candidate[o] = true;
                        candidates.push(o);
                    }
                }
            }
        }
    }
    Ok(order)
}

/// One equation containing a box: its slot in the state, whether it opens at this box,
/// its value, and how many mines its later boxes can still hold.
#[derive(Debug, Clone, Copy)]
pub struct Touch {
    slot: usize,
    opens: bool,
    value: u8,
    cap: usize,
}

/// For each box in `order`, the equations it belongs to ([`Touch`]), a closing one (no
/// capacity left) first; and the number of slots. An equation keeps one slot from the
/// box that opens it to the box that closes it, then frees it. O(sum of equation sizes).
fn plan(shape: &Shape, order: &[usize]) -> (Vec<Vec<Touch>>, usize) {
    let n = order.len();
    let m = shape.constraints.len();
    let mut pos = vec![0usize; n];
    for (i, &b) in order.iter().enumerate() {
        pos[b] = i;
    }
    // the equations of each step, in CSR form (equation order within a step)
    let mut cons_start = vec![0usize; n + 1];
    let mut last = Vec::with_capacity(m);
    let mut capacity = Vec::with_capacity(m);
    for (boxes, _) in &shape.constraints {
        let mut end = 0;
        let mut cap = 0;
        for &b in boxes {
            let p = pos[b as usize];
            end = end.max(p);
            cap += shape.sizes[b as usize];
            cons_start[p + 1] += 1;
        }
        last.push(end);
        capacity.push(cap);
    }
    for i in 0..n {
        cons_start[i + 1] += cons_start[i];
    }
    let mut fill = cons_start.clone();
    let mut step_cons = vec![0usize; cons_start[n]];
    for (c, (boxes, _)) in shape.constraints.iter().enumerate() {
        for &b in boxes {
            let p = pos[b as usize];
            step_cons[fill[p]] = c;
            fill[p] += 1;
        }
    }
    let mut slot_of: Vec<Option<usize>> = vec![None; m];
    let mut free: Vec<usize> = Vec::new();
    let mut slots = 0;
    let mut steps = Vec::with_capacity(n);
    for i in 0..n {
        let size = shape.sizes[order[i]];
        let cons = &step_cons[cons_start[i]..cons_start[i + 1]];
        let mut touch: Vec<Touch> = Vec::with_capacity(cons.len());
        for &c in cons {
            capacity[c] -= size;
            let opens = slot_of[c].is_none();
            if opens {
                slot_of[c] = Some(free.pop().unwrap_or_else(|| {
                    slots += 1;
                    slots - 1
                }));
            }
            touch.push(Touch {
                slot: slot_of[c].unwrap_or(0),
                opens,
                value: shape.constraints[c].1 as u8,
                cap: capacity[c],
            });
        }
        if let Some(t) = touch.iter().position(|t| t.cap == 0) {
            touch.swap(0, t);
        }
        steps.push(touch);
        for &c in cons {
            if last[c] == i {
                free.extend(slot_of[c]);
            }
        }
    }
    (steps, slots)
}

/// A state of the programme: the mines owed by each slot.
trait Key: Clone + Eq + Hash {
    fn zero(slots: usize) -> Self;
    fn get(&self, slot: usize) -> u8;
    fn set(&mut self, slot: usize, v: u8);
}

/// Up to 32 slots of 4 bits (an equation owes at most 8 mines).
impl Key for u128 {
    fn zero(_: usize) -> Self {
        0
    }
    fn get(&self, slot: usize) -> u8 {
        ((self >> (4 * slot)) & 0xF) as u8
    }
    fn set(&mut self, slot: usize, v: u8) {
        *self = (*self & !(0xF << (4 * slot))) | (u128::from(v) << (4 * slot));
    }
}

impl Key for Vec<u8> {
    fn zero(slots: usize) -> Self {
        vec![0; slots]
    }
    fn get(&self, slot: usize) -> u8 {
        self[slot]
    }
    fn set(&mut self, slot: usize, v: u8) {
        self[slot] = v;
    }
}

/// The states before one step: keys and their polynomials.
struct Layer<K, C> {
    keys: Vec<K>,
    polys: Vec<Poly<C>>,
}

/// What the passes hold: the forward layers and transitions, the step being built, and
/// the backward completions. On a stop (a deadline, the memory cap, an overflow) it is
/// freed on a helper thread ([`drop_later`]): freeing millions of polynomials takes a
/// good part of a second, which a caller past its deadline should not wait for.
struct Scratch<K, C> {
    layers: Vec<Layer<K, C>>,
    edges: Vec<Vec<(u32, u8, u32)>>,
    next: Layer<K, C>,
    index: FxHashMap<K, u32>,
    step_edges: Vec<(u32, u8, u32)>,
    back: Vec<Option<Poly<C>>>,
    new_back: Vec<Option<Poly<C>>>,
}

impl<K, C> Default for Layer<K, C> {
    fn default() -> Self {
        Layer {
            keys: Vec::new(),
            polys: Vec::new(),
        }
    }
}

impl<K, C> Default for Scratch<K, C> {
    fn default() -> Self {
        Scratch {
            layers: Vec::new(),
            edges: Vec::new(),
            next: Layer::default(),
            index: FxHashMap::default(),
            step_edges: Vec::new(),
            back: Vec::new(),
            new_back: Vec::new(),
        }
    }
}

/// Free `value` on a helper thread (at once on this one when no thread can be started).
pub fn drop_later<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("minesolver-free".into())
        .spawn(move || drop(value));
}

/// Forward and backward passes; returns the layouts by mine number and each step's box
/// mine polynomial. What they hold is freed in the background when they stop early.
#[allow(clippy::type_complexity)]
fn run<C: Count, K: Key + Send + 'static>(
    steps: &[Vec<Touch>],
    sizes: &[usize],
    slots: usize,
    deadline: &Deadline,
) -> Result<(Poly<C>, Vec<Poly<C>>), CountError> {
    let mut scratch: Scratch<K, C> = Scratch::default();
    let result = passes(steps, sizes, slots, deadline, &mut scratch);
    if result.is_err() {
        drop_later(scratch);
    }
    result
}

/// The passes of [`run`], in `scratch`.
#[allow(clippy::type_complexity)]
fn passes<C: Count, K: Key>(
    steps: &[Vec<Touch>],
    sizes: &[usize],
    slots: usize,
    deadline: &Deadline,
    scratch: &mut Scratch<K, C>,
) -> Result<(Poly<C>, Vec<Poly<C>>), CountError> {
    if slots > 32 && std::mem::size_of::<K>() == 16 {
        return Err(CountError::Invalid(
            "too many open equations for a packed key".into(),
        ));
    }
    let Scratch {
        layers,
        edges,
        next,
        index,
        step_edges,
        back,
        new_back,
    } = scratch;
    let n = steps.len();
    // forward: layers[i] holds the states before box i; edges[i] the transitions of box i
    layers.reserve(n + 1);
    layers.push(Layer {
        keys: vec![K::zero(slots)],
        polys: vec![vec![C::from_u64(1)]],
    });
    edges.reserve(n);
    let mut terms = 0usize; // polynomial terms held by the layers so far
    for (touch, &s) in steps.iter().zip(sizes) {
        deadline.check()?;
        let row = binomial_row(s);
        let closing = touch.first().filter(|t| t.cap == 0).copied();
        index.clear();
        let cur = layers.last().expect("the first layer is pushed above");
        for (from, (key, poly)) in cur.keys.iter().zip(&cur.polys).enumerate() {
            if from % 1024 == 1023 {
                deadline.check()?;
                if terms + next.keys.len() * (poly.len() + s) > MAX_TERMS {
                    return Err(Stop::TooLarge.into());
                }
            }
            let (lo, hi) = match closing {
                Some(t) => {
                    let k0 = if t.opens { t.value } else { key.get(t.slot) } as usize;
                    if k0 > s {
                        continue;
                    }
                    (k0, k0)
                }
                None => (0, s),
            };
            'choice: for (k, &ways) in row.iter().enumerate().take(hi + 1).skip(lo) {
                let mut new = key.clone();
                for t in touch {
                    let owed = if t.opens { t.value } else { new.get(t.slot) } as i64;
                    let r = owed - k as i64;
                    if r < 0 || r as usize > t.cap {
                        continue 'choice;
                    }
                    new.set(t.slot, r as u8);
                }
                let to = match index.get(&new) {
                    Some(&to) => {
                        add_shifted(&mut next.polys[to as usize], poly, k, ways)?;
                        to
                    }
                    None => {
                        let to = next.keys.len() as u32;
                        let mut fresh = Vec::with_capacity(poly.len() + s);
                        add_shifted(&mut fresh, poly, k, ways)?;
                        index.insert(new.clone(), to);
                        next.keys.push(new);
                        next.polys.push(fresh);
                        to
                    }
                };
                step_edges.push((from as u32, k as u8, to));
            }
        }
        terms += next.polys.iter().map(Vec::len).sum::<usize>() + step_edges.len();
        if terms > MAX_TERMS {
            return Err(Stop::TooLarge.into());
        }
        let (states, moves) = (next.keys.len(), step_edges.len());
        layers.push(std::mem::replace(
            next,
            Layer {
                keys: Vec::with_capacity(states),
                polys: Vec::with_capacity(states),
            },
        ));
        edges.push(std::mem::replace(step_edges, Vec::with_capacity(moves)));
    }
    // backward: back[j] = completions of the boxes i.. from state j of layer i
    let last = &layers[n];
    *back = vec![Some(vec![C::from_u64(1)]); last.keys.len()];
    let mut by_step: Vec<Poly<C>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        deadline.check()?;
        let s = sizes[i];
        let (row, row1) = (binomial_row(s), binomial_row(s - 1));
        let fwd = &layers[i];
        new_back.clear();
        new_back.resize(fwd.keys.len(), None);
        let mut marginal: Poly<C> = Vec::new();
        for (e, &(from, k, to)) in edges[i].iter().enumerate() {
            if e % 1024 == 1023 {
                deadline.check()?;
            }
            let Some(tail) = back[to as usize].as_ref() else {
                continue;
            };
            let k = k as usize;
            let acc =
                new_back[from as usize].get_or_insert_with(|| Vec::with_capacity(tail.len() + s));
            add_shifted(acc, tail, k, row[k])?;
            if k > 0 {
                add_product_shifted(
                    &mut marginal,
                    &fwd.polys[from as usize],
                    tail,
                    k,
                    row1[k - 1],
                )?;
            }
        }
        std::mem::swap(back, new_back);
        trim(&mut marginal);
        by_step[i] = marginal;
    }
    let zero = K::zero(slots);
    let mut layouts = layers[0]
        .keys
        .iter()
        .position(|k| *k == zero)
        .and_then(|j| back[j].take())
        .unwrap_or_default();
    trim(&mut layouts);
    Ok((layouts, by_step))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(sizes: &[usize], constraints: &[(&[u32], u32)]) -> Shape {
        Shape {
            sizes: sizes.to_vec(),
            constraints: constraints.iter().map(|(b, v)| (b.to_vec(), *v)).collect(),
        }
    }

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| BigUint::from(x)).collect()
    }

    /// Brute force over the mines in each box.
    fn brute(shape: &Shape) -> ComponentCount<BigUint> {
        let n = shape.sizes.len();
        let cells: usize = shape.sizes.iter().sum();
        let mut layouts = vec![BigUint::from(0u8); cells + 1];
        let mut box_mines = vec![vec![BigUint::from(0u8); cells + 1]; n];
        let mut ks = vec![0usize; n];
        loop {
            let ok = shape
                .constraints
                .iter()
                .all(|(b, v)| b.iter().map(|&b| ks[b as usize]).sum::<usize>() == *v as usize);
            if ok {
                let m: usize = ks.iter().sum();
                let mut ways = BigUint::from(1u8);
                for (b, &k) in ks.iter().enumerate() {
                    ways *= binomial_row(shape.sizes[b])[k];
                }
                layouts[m] += &ways;
                for (b, &k) in ks.iter().enumerate() {
                    // k of the s cells are mines: a given cell is one in k/s of the ways
                    box_mines[b][m] += &ways * k / shape.sizes[b];
                }
            }
            let mut b = 0;
            while b < n {
                ks[b] += 1;
                if ks[b] <= shape.sizes[b] {
                    break;
                }
                ks[b] = 0;
                b += 1;
            }
            if b == n {
                break;
            }
        }
        trim(&mut layouts);
        for p in &mut box_mines {
            trim(p);
        }
        ComponentCount { layouts, box_mines }
    }

    #[test]
    fn one_equation_over_two_boxes() {
        let s = shape(&[2, 1], &[(&[0, 1], 1)]);
        let c = count(&s, &Deadline::none()).unwrap();
        assert_eq!(c.layouts, big(&[0, 3]));
        assert_eq!(c.box_mines, vec![big(&[0, 1]), big(&[0, 1])]);
        assert_eq!(c, brute(&s));
    }

    #[test]
    fn a_chain_matches_brute_force() {
        // 1-2-1 pattern style chain: boxes 0..5, equations over consecutive pairs/triples
        let s = shape(
            &[1, 2, 1, 3, 1, 2],
            &[
                (&[0, 1], 1),
                (&[1, 2, 3], 2),
                (&[3, 4], 1),
                (&[4, 5], 1),
                (&[2, 5], 1),
            ],
        );
        assert_eq!(count(&s, &Deadline::none()).unwrap(), brute(&s));
    }

    #[test]
    fn big_counts_switch_to_biguint() {
        // a cycle of 22 boxes of 8 cells, each pair of neighbours owing 8 mines
        let sizes = vec![8; 22];
        let cons: Vec<(Vec<u32>, u32)> = (0..22)
            .map(|b| (vec![b as u32, ((b + 1) % 22) as u32], 8))
            .collect();
        let s = Shape {
            sizes,
            constraints: cons,
        };
        assert!(matches!(
            count_in::<u128>(&s, &Deadline::none()),
            Err(CountError::Overflow)
        ));
        let c = count(&s, &Deadline::none()).unwrap();
        // each box holds k and its neighbour 8 - k: 88 mines in every layout
        let want: BigUint = (0..=8usize)
            .map(|k| BigUint::from(binomial_row(8)[k]).pow(22))
            .sum();
        assert_eq!(c.layouts[88], want);
        assert!(want > BigUint::from(u128::MAX));
        assert_eq!(c.layouts.len(), 89);
    }

    #[test]
    fn an_expired_deadline_stops() {
        let s = shape(&[1, 1, 1], &[(&[0, 1], 1), (&[1, 2], 1)]);
        let d = Deadline::after(0.0);
        assert!(matches!(
            count(&s, &d),
            Err(CountError::Stop(Stop::Deadline))
        ));
    }

    #[test]
    fn the_box_order_of_a_wide_component_checks_the_deadline() {
        // a chain of 100 boxes, each equation over two neighbours: past SMALL, greedy
        let sizes = vec![1; 100];
        let constraints: Vec<(Vec<u32>, u32)> = (0..99).map(|b| (vec![b, b + 1], 1)).collect();
        let s = Shape { sizes, constraints };
        let order = box_order(&s, &Deadline::none()).unwrap();
        assert_eq!(order.len(), 100);
        assert_eq!(box_order(&s, &Deadline::after(0.0)), Err(Stop::Deadline));
    }

    #[test]
    fn malformed_shapes_are_refused() {
        let s = shape(&[0], &[(&[0], 0)]);
        assert!(matches!(
            count(&s, &Deadline::none()),
            Err(CountError::Invalid(_))
        ));
        let s = shape(&[1], &[(&[3], 0)]);
        assert!(matches!(
            count(&s, &Deadline::none()),
            Err(CountError::Invalid(_))
        ));
    }

    proptest::proptest! {
        #[test]
        fn random_shapes_match_brute_force(
            sizes in proptest::collection::vec(1usize..4, 1..7),
            raw in proptest::collection::vec(
                (proptest::collection::vec(0u32..7, 1..4), 0u32..6), 1..6),
        ) {
            let n = sizes.len() as u32;
            let mut constraints: Vec<(Vec<u32>, u32)> = raw
                .into_iter()
                .map(|(mut b, v)| {
                    for x in &mut b { *x %= n; }
                    b.sort_unstable();
                    b.dedup();
                    (b, v)
                })
                .collect();
            constraints.sort();
            constraints.dedup_by(|a, b| a.0 == b.0);
            let s = Shape { sizes, constraints };
            let got = count_in::<u128>(&s, &Deadline::none()).unwrap();
            let want = brute(&s);
            // both ways of counting, whichever count_in chose, agree exactly
            let by_programme = programme::<u128>(&s, &Deadline::none()).unwrap();
            let by_enumeration = enumerate::<u128>(&s).unwrap();
            proptest::prop_assert_eq!(&by_programme.layouts, &by_enumeration.layouts);
            for (b, (p, e)) in by_programme.box_mines.iter().zip(&by_enumeration.box_mines).enumerate() {
                if s.constraints.iter().any(|(bs, _)| bs.contains(&(b as u32))) {
                    proptest::prop_assert_eq!(p, e);
                }
            }
            proptest::prop_assert_eq!(got.convert::<BigUint>().unwrap().layouts, want.layouts.clone());
            if !want.layouts.is_empty() {
                // boxes in no equation are not counted by the DP (build never makes them)
                for (b, p) in got.box_mines.iter().enumerate() {
                    if s.constraints.iter().any(|(bs, _)| bs.contains(&(b as u32))) {
                        proptest::prop_assert_eq!(convert::<u128, BigUint>(p).unwrap(), want.box_mines[b].clone());
                    }
                }
            }
        }
    }
}
