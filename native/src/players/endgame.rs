//! `best`'s exact endgame, natively: every layout listed, then the optimal win count by
//! game-tree search with a transposition cache kept for the game, exactly as
//! `minesolver.strategy.endgame` searches (same layout order and indices, same order of
//! cells and of parts, same cuts, same node budget and the same cache across the calls
//! of a game), so it gives up or answers exactly where the Python search does.
//!
//! A set of layouts is a bit set over game-wide layout indices ([`Bits`], ordered as the
//! Python int it mirrors). Cost: listing O(layouts * cells) plus the dead ends of the
//! walk; the search is exponential in the worst case and bounded by `budget` node
//! expansions per call (the budget in work, so the same position gives up at the same
//! node on every machine). A deadline is a safety net only: checked every
//! [`CHECK_EVERY`] steps of the listing and at every node of the search, it stops the
//! work with [`Stop::Deadline`], never with a different answer.

use std::cmp::Ordering;

use crate::game::{FLAG, HIDDEN};
use crate::hash::FxHashMap;
use crate::limits::{Deadline, Stop};

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

/// Why the search gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// More node expansions than its budget (as the Python search gives up).
    Budget,
    /// The deadline passed.
    Stop(Stop),
}

/// Steps of the listing's walk between two looks at the deadline.
pub const CHECK_EVERY: u64 = 1024;

/// Every layout of the hidden cells consistent with the digits and the total, as the
/// sorted mine cells, in `enumerate_layouts`'s order; `Ok(None)` beyond `limit` layouts,
/// `Err` when `deadline` passes.
pub fn enumerate_layouts(
    view: &View<'_>,
    limit: usize,
    deadline: &Deadline,
) -> Result<Option<Vec<Vec<u32>>>, Stop> {
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
        deadline: &'a Deadline,
        steps: u64,
        stopped: Option<Stop>,
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
                if self.out.len() > self.limit || !self.tick() {
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
        /// One step of work: false once the deadline has passed (looked at every
        /// [`CHECK_EVERY`] steps).
        fn tick(&mut self) -> bool {
            self.steps += 1;
            if self.steps.is_multiple_of(CHECK_EVERY) {
                if let Err(stop) = self.deadline.check() {
                    self.stopped = Some(stop);
                    return false;
                }
            }
            true
        }
        fn walk(&mut self, k: usize, placed: i64) -> bool {
            if !self.tick() {
                return false;
            }
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
        deadline,
        steps: 0,
        stopped: None,
    };
    let whole = w.walk(0, 0);
    if let Some(stop) = w.stopped {
        return Err(stop);
    }
    Ok(whole.then_some(w.out))
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
    /// The deadline of the current call.
    deadline: Deadline,
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
    /// why the search gave up. A cut leaves the cache as it was plus whole answers only.
    pub fn best_move(
        &mut self,
        view: &View<'_>,
        layouts: &[Vec<u32>],
        deadline: &Deadline,
    ) -> Result<Option<(usize, u64, u64)>, Cut> {
        deadline.check().map_err(Cut::Stop)?;
        let hidden = self.prepare(view);
        self.nodes = 0;
        self.deadline = *deadline;
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

    fn closed_wins(&mut self, state: &Bits, opened: &[bool]) -> Result<u64, Cut> {
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
    ) -> Result<(u64, i64), Cut> {
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
            return Err(Cut::Budget);
        }
        self.deadline.check().map_err(Cut::Stop)?;
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::players::testing::{guess_spots, Spot};

    /// Every layout by brute force: each set of `mines - flags` hidden cells that every
    /// digit agrees with, as sorted mine cells.
    fn brute_layouts(view: &View<'_>) -> Vec<Vec<u32>> {
        let raw = view.raw;
        let hidden: Vec<usize> = (0..raw.len()).filter(|&i| raw[i] == HIDDEN).collect();
        let flags = raw.iter().filter(|&&v| v == FLAG).count() as u64;
        let k = (view.mines - flags) as u32;
        let mut out = Vec::new();
        for set in 0u64..1 << hidden.len() {
            if set.count_ones() != k {
                continue;
            }
            let mut mine = vec![false; raw.len()];
            for (b, &c) in hidden.iter().enumerate() {
                mine[c] = set >> b & 1 == 1;
            }
            let fits = (0..raw.len()).filter(|&i| raw[i] <= 8).all(|i| {
                let around = view
                    .neighbours(i)
                    .filter(|&j| mine[j] || raw[j] == FLAG)
                    .count();
                around == usize::from(raw[i])
            });
            if fits {
                out.push(
                    (0..raw.len())
                        .filter(|&c| mine[c])
                        .map(|c| c as u32)
                        .collect(),
                );
            }
        }
        out
    }

    /// The most layouts of `state` that any sequence of clicks wins (a click opens a
    /// cell safe in some layout and tells the layouts apart by the digit it shows): the
    /// plain recursion over every cell, memoised.
    fn brute_wins(
        view: &View<'_>,
        layouts: &[Vec<bool>],
        state: Vec<usize>,
        opened: u64,
        memo: &mut HashMap<(Vec<usize>, u64), u64>,
    ) -> u64 {
        if state.len() <= 1 {
            return state.len() as u64;
        }
        if let Some(&w) = memo.get(&(state.clone(), opened)) {
            return w;
        }
        let mut best = 0;
        for c in (0..view.raw.len()).filter(|&c| view.raw[c] == HIDDEN) {
            if opened >> c & 1 == 1 {
                continue;
            }
            let mut groups: [Vec<usize>; 9] = Default::default();
            for &k in &state {
                if !layouts[k][c] {
                    let d = view.neighbours(c).filter(|&j| layouts[k][j]).count();
                    groups[d].push(k);
                }
            }
            if groups.iter().all(Vec::is_empty) {
                continue;
            }
            let wins: u64 = groups
                .into_iter()
                .filter(|g| !g.is_empty())
                .map(|g| brute_wins(view, layouts, g, opened | 1 << c, memo))
                .sum();
            best = best.max(wins);
        }
        memo.insert((state, opened), best);
        best
    }

    fn small_spots() -> Vec<Spot> {
        let mut spots = guess_spots(11, 5, 5, 5, 150);
        spots.extend(guess_spots(12, 6, 5, 7, 100));
        spots.retain(|s| s.raw.iter().filter(|&&v| v == HIDDEN).count() <= 14);
        spots
    }

    #[test]
    fn every_layout_is_listed_once() {
        let spots = small_spots();
        assert!(spots.len() > 100, "{} positions", spots.len());
        for spot in &spots {
            let view = spot.view();
            let mut got = enumerate_layouts(&view, usize::MAX, &Deadline::none())
                .unwrap()
                .unwrap();
            let n = got.len();
            got.sort();
            got.dedup();
            assert_eq!(got.len(), n, "a layout listed twice");
            let mut want = brute_layouts(&view);
            want.sort();
            assert_eq!(got, want);
            // one layout fewer than there are: refused
            if n > 1 {
                let cut = enumerate_layouts(&view, n - 1, &Deadline::none()).unwrap();
                assert!(cut.is_none());
            }
        }
    }

    /// The search's win count is the optimum of every sequence of clicks, on positions
    /// of real games, one search (and its cache) per board size as in a game.
    #[test]
    fn the_search_wins_the_most_layouts() {
        let mut endgame = Endgame::new(u64::MAX);
        let mut searched = 0;
        for spot in small_spots() {
            let view = spot.view();
            let list = enumerate_layouts(&view, 40, &Deadline::none()).unwrap();
            let Some(list) = list.filter(|l| l.len() > 1) else {
                continue;
            };
            let (cell, wins, total) = endgame
                .best_move(&view, &list, &Deadline::none())
                .unwrap()
                .expect("a cell to open");
            assert_eq!(total, list.len() as u64);
            assert!(view.raw[cell] == HIDDEN);
            let masks: Vec<Vec<bool>> = list
                .iter()
                .map(|l| {
                    let mut m = vec![false; view.raw.len()];
                    l.iter().for_each(|&c| m[c as usize] = true);
                    m
                })
                .collect();
            assert!(masks.iter().any(|m| !m[cell]), "the cell is a certain mine");
            let mut memo = HashMap::new();
            let all: Vec<usize> = (0..list.len()).collect();
            assert_eq!(wins, brute_wins(&view, &masks, all, 0, &mut memo));
            searched += 1;
        }
        assert!(searched > 30, "{searched} searches");
    }

    /// The node budget is honoured: an answer within it, a cut one node past it.
    #[test]
    fn the_node_budget_is_honoured() {
        let mut cut = 0;
        for spot in small_spots().iter().take(60) {
            let view = spot.view();
            let Some(list) = enumerate_layouts(&view, 200, &Deadline::none()).unwrap() else {
                continue;
            };
            if list.len() < 2 {
                continue;
            }
            for budget in [0, 1, 3, 10] {
                let mut endgame = Endgame::new(budget);
                match endgame.best_move(&view, &list, &Deadline::none()) {
                    Ok(_) => assert!(endgame.nodes <= budget),
                    Err(e) => {
                        assert_eq!(e, Cut::Budget);
                        assert_eq!(endgame.nodes, budget + 1);
                        cut += 1;
                    }
                }
            }
        }
        assert!(cut > 20);
    }

    /// A deadline that has passed stops the listing (even of layouts beyond counting)
    /// and the search, as a stop, never an answer.
    #[test]
    fn a_passed_deadline_stops_both() {
        let raw = vec![HIDDEN; 64];
        let open = View {
            width: 8,
            height: 8,
            mines: 10,
            raw: &raw,
        };
        let passed = Deadline::after(0.0);
        assert_eq!(
            enumerate_layouts(&open, usize::MAX, &passed),
            Err(Stop::Deadline)
        );
        let spot = small_spots().into_iter().next().unwrap();
        let view = spot.view();
        let list = enumerate_layouts(&view, 1000, &Deadline::none())
            .unwrap()
            .unwrap();
        let mut endgame = Endgame::new(u64::MAX);
        assert_eq!(
            endgame.best_move(&view, &list, &passed),
            Err(Cut::Stop(Stop::Deadline))
        );
        // the cut left the search able to answer
        assert!(endgame.best_move(&view, &list, &Deadline::none()).is_ok());
    }

    #[test]
    fn bit_sets_order_as_integers() {
        let mut rng = crate::mt::Mt::from_u64(5);
        for _ in 0..500 {
            let (a, b): (u128, u128) = (
                u128::from(rng.getrandbits(64)) << rng.choice(64),
                u128::from(rng.getrandbits(64)) << rng.choice(64),
            );
            let bits = |v: u128| {
                let mut s = Bits::default();
                (0..128).filter(|k| v >> k & 1 == 1).for_each(|k| s.set(k));
                s
            };
            let (x, y) = (bits(a), bits(b));
            assert_eq!(x.cmp_int(&y), a.cmp(&b));
            assert_eq!(x.and(&y), bits(a & b));
            assert_eq!(x.count_and(&y), u64::from((a & b).count_ones()));
            assert_eq!(x.single(), a.count_ones() <= 1);
        }
    }
}
