//! `best`'s exact endgame, natively: every layout listed, then the optimal win count by
//! game-tree search with a transposition cache kept for the game, exactly as
//! `minesolver.strategy.endgame` searches (same layout order and indices, same order of
//! cells and of parts, same cuts, same node budget and the same cache across the calls
//! of a game), so it gives up or answers exactly where the Python search does.
//!
//! A set of layouts is a bit set over game-wide layout indices ([`Bits`], ordered as the
//! Python int it mirrors). Cost: listing O(layouts * cells); the search is exponential
//! in the worst case and bounded by `budget` node expansions per call.

use std::cmp::Ordering;

use crate::game::{FLAG, HIDDEN};
use crate::hash::FxHashMap;

use super::View;

/// A bit set of layout indices, ordered as the Python int it mirrors: the words from
/// word `lo` on, trimmed at both ends (no zero first or last word), so a set of recent
/// layouts costs only its own words whatever their indices.
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Bits {
    lo: usize,
    words: Vec<u64>,
}

impl Bits {
    fn trimmed(mut lo: usize, mut words: Vec<u64>) -> Bits {
        while words.last() == Some(&0) {
            words.pop();
        }
        let first = words.iter().position(|&w| w != 0).unwrap_or(words.len());
        if first > 0 {
            words.drain(..first);
            lo += first;
        }
        if words.is_empty() {
            lo = 0;
        }
        Bits { lo, words }
    }
    fn hi(&self) -> usize {
        self.lo + self.words.len()
    }
    fn set(&mut self, k: usize) {
        let w = k / 64;
        if self.words.is_empty() {
            self.lo = w;
            self.words.push(0);
        } else if w < self.lo {
            let mut words = vec![0; self.lo - w];
            words.extend_from_slice(&self.words);
            self.words = words;
            self.lo = w;
        } else if w >= self.hi() {
            self.words.resize(w - self.lo + 1, 0);
        }
        self.words[w - self.lo] |= 1 << (k % 64);
    }
    fn overlap(&self, o: &Bits) -> (usize, usize) {
        (self.lo.max(o.lo), self.hi().min(o.hi()))
    }
    fn and(&self, o: &Bits) -> Bits {
        let (lo, hi) = self.overlap(o);
        if lo >= hi {
            return Bits::default();
        }
        let words = (lo..hi)
            .map(|w| self.words[w - self.lo] & o.words[w - o.lo])
            .collect();
        Bits::trimmed(lo, words)
    }
    /// The number of bits set in both.
    fn count_and(&self, o: &Bits) -> u64 {
        let (lo, hi) = self.overlap(o);
        (lo..hi)
            .map(|w| u64::from((self.words[w - self.lo] & o.words[w - o.lo]).count_ones()))
            .sum()
    }
    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
    fn count(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }
    /// At most one bit set.
    fn single(&self) -> bool {
        self.words.len() <= 1 && self.words.first().is_none_or(|w| w.count_ones() <= 1)
    }
    /// The order of the integers the sets are (highest bit first).
    fn cmp_int(&self, o: &Bits) -> Ordering {
        let word = |b: &Bits, w: usize| {
            if w >= b.lo && w < b.hi() {
                b.words[w - b.lo]
            } else {
                0
            }
        };
        match self.hi().cmp(&o.hi()) {
            Ordering::Equal => {}
            other => return other,
        }
        let low = self.lo.min(o.lo);
        for w in (low..self.hi()).rev() {
            match word(self, w).cmp(&word(o, w)) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        Ordering::Equal
    }
}

/// The search gave up (more node expansions than its budget).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

/// Every layout of the hidden cells consistent with the digits and the total, as the
/// sorted mine cells, in `enumerate_layouts`'s order; `None` beyond `limit` layouts.
pub fn enumerate_layouts(view: &View<'_>, limit: usize) -> Option<Vec<Vec<u32>>> {
    let raw = view.raw;
    let n = raw.len();
    let flags = raw.iter().filter(|&&v| v == FLAG).count() as i64;
    let to_place = view.mines as i64 - flags;
    let hidden: Vec<usize> = (0..n).filter(|&i| raw[i] == HIDDEN).collect();
    // the digits touching a hidden cell as equations
    let mut need: Vec<i64> = Vec::new();
    let mut free: Vec<i64> = Vec::new();
    let mut cell_eqs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        if raw[i] > 8 {
            continue;
        }
        let around: Vec<usize> = view.neighbours(i).filter(|&j| raw[j] == HIDDEN).collect();
        if around.is_empty() {
            continue;
        }
        let e = need.len();
        let flagged = view.neighbours(i).filter(|&j| raw[j] == FLAG).count() as i64;
        need.push(i64::from(raw[i]) - flagged);
        free.push(around.len() as i64);
        for j in around {
            cell_eqs[j].push(e);
        }
    }
    // frontier cells breadth first
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    for &start in &hidden {
        if cell_eqs[start].is_empty() || seen[start] {
            continue;
        }
        let mut queue = std::collections::VecDeque::from([start]);
        seen[start] = true;
        while let Some(i) = queue.pop_front() {
            order.push(i);
            for j in view.neighbours(i) {
                if !cell_eqs[j].is_empty() && !seen[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
    }
    let interior: Vec<u32> = hidden
        .iter()
        .filter(|&&i| cell_eqs[i].is_empty())
        .map(|&i| i as u32)
        .collect();
    struct Walk<'a> {
        order: &'a [usize],
        cell_eqs: &'a [Vec<usize>],
        need: Vec<i64>,
        free: Vec<i64>,
        to_place: i64,
        interior: &'a [u32],
        out: Vec<Vec<u32>>,
        limit: usize,
        mines: Vec<u32>,
    }
    impl Walk<'_> {
        fn emit(&mut self, placed: i64) -> bool {
            let rest = self.to_place - placed;
            if rest < 0 || rest as usize > self.interior.len() {
                return true;
            }
            // combinations(interior, rest) in lexicographic order
            let k = rest as usize;
            let m = self.interior.len();
            let mut idx: Vec<usize> = (0..k).collect();
            loop {
                let mut layout = self.mines.clone();
                layout.extend(idx.iter().map(|&i| self.interior[i]));
                layout.sort_unstable();
                self.out.push(layout);
                if self.out.len() > self.limit {
                    return false;
                }
                // the next combination: the rightmost index that can still move
                let mut i = k;
                while i > 0 && idx[i - 1] == i - 1 + m - k {
                    i -= 1;
                }
                if i == 0 {
                    return true;
                }
                idx[i - 1] += 1;
                for j in i..k {
                    idx[j] = idx[j - 1] + 1;
                }
            }
        }
        fn walk(&mut self, k: usize, placed: i64) -> bool {
            if placed > self.to_place {
                return true;
            }
            if k == self.order.len() {
                return self.emit(placed);
            }
            let j = self.order[k];
            for mine in [0i64, 1] {
                let eqs = &self.cell_eqs[j];
                for &e in eqs {
                    self.free[e] -= 1;
                    self.need[e] -= mine;
                }
                let ok = eqs
                    .iter()
                    .all(|&e| self.need[e] >= 0 && self.need[e] <= self.free[e]);
                let mut go_on = true;
                if ok {
                    if mine == 1 {
                        self.mines.push(j as u32);
                    }
                    go_on = self.walk(k + 1, placed + mine);
                    if mine == 1 {
                        self.mines.pop();
                    }
                }
                let eqs = &self.cell_eqs[j];
                for &e in eqs {
                    self.free[e] += 1;
                    self.need[e] += mine;
                }
                if !go_on {
                    return false;
                }
            }
            true
        }
    }
    let mut w = Walk {
        order: &order,
        cell_eqs: &cell_eqs,
        need,
        free,
        to_place,
        interior: &interior,
        out: Vec::new(),
        limit,
        mines: Vec::new(),
    };
    if w.walk(0, 0) {
        Some(w.out)
    } else {
        None
    }
}

/// Optimal play over the listed layouts, with a transposition cache for the game
/// (`EndgameSolver`).
#[derive(Debug, Default)]
pub struct Endgame {
    pub budget: u64,
    memo: FxHashMap<Bits, (u64, i64)>,
    size: (usize, usize),
    nodes: u64,
    cells: Vec<usize>,
    index: FxHashMap<Vec<u32>, usize>,
    covered: Vec<Vec<bool>>,
    layouts: Vec<Vec<bool>>,
    /// Per cell: the layouts with a mine there.
    mine: Vec<Bits>,
    /// Per cell: per digit, the layouts in which it is safe and shows the digit.
    digit: Vec<[Bits; 9]>,
    neighbours: Vec<Vec<usize>>,
}

impl Endgame {
    pub fn new(budget: u64) -> Endgame {
        Endgame {
            budget,
            ..Endgame::default()
        }
    }

    /// Forget the layouts and the cache (a new game).
    pub fn clear(&mut self) {
        self.memo.clear();
        self.index.clear();
        self.layouts.clear();
        self.covered.clear();
        self.mine.iter_mut().for_each(|m| *m = Bits::default());
        self.digit.iter_mut().for_each(|d| *d = Default::default());
    }

    fn prepare(&mut self, view: &View<'_>) -> Vec<bool> {
        let size = (view.width, view.height);
        if size != self.size {
            self.size = size;
            self.clear();
            self.neighbours = (0..view.raw.len())
                .map(|i| view.neighbours(i).collect())
                .collect();
            self.mine = vec![Bits::default(); view.raw.len()];
            self.digit = vec![Default::default(); view.raw.len()];
        }
        view.raw.iter().map(|&v| v == HIDDEN).collect()
    }

    fn cover(&mut self, k: usize, cells: &[bool]) {
        let layout = &self.layouts[k];
        for c in 0..cells.len() {
            if cells[c] && !layout[c] {
                let d = self.neighbours[c].iter().filter(|&&j| layout[j]).count();
                self.digit[c][d].set(k);
            }
        }
    }

    fn register(&mut self, layouts: &[Vec<u32>], hidden: &[bool]) -> Bits {
        let mut state = Bits::default();
        for layout in layouts {
            let k = match self.index.get(layout) {
                Some(&k) => {
                    let extra: Vec<bool> = hidden
                        .iter()
                        .zip(&self.covered[k])
                        .map(|(&h, &c)| h && !c)
                        .collect();
                    if extra.iter().any(|&x| x) {
                        self.cover(k, &extra);
                        for (c, &x) in self.covered[k].iter_mut().zip(&extra) {
                            *c |= x;
                        }
                    }
                    k
                }
                None => {
                    let k = self.layouts.len();
                    self.index.insert(layout.clone(), k);
                    let mut mask = vec![false; hidden.len()];
                    for &c in layout {
                        mask[c as usize] = true;
                        self.mine[c as usize].set(k);
                    }
                    self.layouts.push(mask);
                    self.covered.push(hidden.to_vec());
                    self.cover(k, hidden);
                    k
                }
            };
            state.set(k);
        }
        state
    }

    /// The optimal cell, the layouts it wins and how many there are (`best_move`), or
    /// `BudgetExceeded`.
    pub fn best_move(
        &mut self,
        view: &View<'_>,
        layouts: &[Vec<u32>],
    ) -> Result<Option<(usize, u64, u64)>, BudgetExceeded> {
        let hidden = self.prepare(view);
        self.nodes = 0;
        let state = self.register(layouts, &hidden);
        self.cells = (0..hidden.len())
            .filter(|&c| hidden[c] && state.and(&self.mine[c]) != state)
            .collect();
        let (safe, _, uncertain) = self.classify(&state, None);
        let (wins, cell) = self.solve(&state, uncertain, &safe)?;
        if cell < 0 {
            return Ok(None);
        }
        Ok(Some((cell as usize, wins, state.count())))
    }

    /// `_classify`: the cells safe in every layout of `state`, those not yet `opened`,
    /// and `(safe layouts, cell)` of the uncertain ones.
    fn classify(
        &self,
        state: &Bits,
        opened: Option<&[bool]>,
    ) -> (Vec<bool>, Vec<usize>, Vec<(u64, usize)>) {
        let size = state.count();
        let mut safe = vec![false; self.size.0 * self.size.1];
        let mut newly = Vec::new();
        let mut uncertain = Vec::new();
        for &c in &self.cells {
            let m = state.count_and(&self.mine[c]);
            if m == 0 {
                safe[c] = true;
                if opened.is_some_and(|o| !o[c]) {
                    newly.push(c);
                }
            } else if m != size {
                uncertain.push((size - m, c));
            }
        }
        (safe, newly, uncertain)
    }

    fn closed_wins(&mut self, state: &Bits, opened: &[bool]) -> Result<u64, BudgetExceeded> {
        if state.single() {
            return Ok(1);
        }
        if let Some(hit) = self.memo.get(state) {
            return Ok(hit.0);
        }
        let (safe, newly, uncertain) = self.classify(state, Some(opened));
        if !newly.is_empty() {
            let mut parts = vec![state.clone()];
            for c in &newly {
                let row = &self.digit[*c];
                parts = parts
                    .iter()
                    .flat_map(|p| row.iter().map(move |x| p.and(x)))
                    .filter(|g| !g.is_empty())
                    .collect();
            }
            if parts.len() > 1 {
                let now_open: Vec<bool> = opened.iter().zip(&safe).map(|(&o, &s)| o || s).collect();
                let mut wins = 0;
                for p in &parts {
                    wins += self.closed_wins(p, &now_open)?;
                }
                self.memo.insert(state.clone(), (wins, -1));
                return Ok(wins);
            }
        }
        Ok(self.solve(state, uncertain, &safe)?.0)
    }

    fn solve(
        &mut self,
        state: &Bits,
        mut uncertain: Vec<(u64, usize)>,
        safe: &[bool],
    ) -> Result<(u64, i64), BudgetExceeded> {
        if state.single() {
            return Ok((1, -1));
        }
        if let Some(&hit) = self.memo.get(state) {
            if hit.1 >= 0 {
                return Ok(hit);
            }
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(BudgetExceeded);
        }
        uncertain.sort_unstable_by(|a, b| b.cmp(a));
        let (mut best, mut best_cell) = (0u64, -1i64);
        let mut seen_split: Vec<Vec<Bits>> = Vec::new();
        for (safe_count, c) in uncertain {
            if safe_count <= best {
                break;
            }
            let mut split: Vec<Bits> = self.digit[c]
                .iter()
                .map(|x| state.and(x))
                .filter(|g| !g.is_empty())
                .collect();
            split.sort_by(Bits::cmp_int);
            if seen_split.contains(&split) {
                continue;
            }
            seen_split.push(split.clone());
            let mut now_open = safe.to_vec();
            now_open[c] = true;
            let (mut total, mut rest) = (0u64, safe_count);
            let mut cut = false;
            for g in &split {
                rest -= g.count();
                total += self.closed_wins(g, &now_open)?;
                if total + rest <= best {
                    cut = true;
                    break;
                }
            }
            if !cut && total > best {
                best = total;
                best_cell = c as i64;
            }
        }
        self.memo.insert(state.clone(), (best, best_cell));
        Ok((best, best_cell))
    }
}
