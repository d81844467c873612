//! Mine layouts drawn exactly uniformly from the layouts that explain a position: what
//! the `search` player opens its candidates on (its rollouts).
//!
//! The position is reduced as the exact count reduces it ([`crate::constraints::build`]:
//! forced cells, boxes, components). Each component's box mine numbers are listed once
//! (a depth-first walk over its boxes, an equation checked as its boxes are placed),
//! each choice weighing the product of `C(size, mines)` over its boxes. A draw then
//! takes, each with its exact weight (big integers, never a float):
//!
//! 1. the number `t` of mines on the frontier: `F[t] * C(interior, left - t)`, where `F`
//!    is the product of the components' mine-count polynomials;
//! 2. each component's own mine number given the mines still to place on the components
//!    after it (their product polynomial, the suffix);
//! 3. a choice of the component's box mine numbers with that many mines, by its weight;
//! 4. the cells of each box, and of the interior, uniformly (`Mt::sample`).
//!
//! Every layout consistent with the position therefore has the same chance: its weight
//! in steps 1-3 is the number of layouts sharing its box mine numbers, and step 4 picks
//! one of those uniformly.
//!
//! Cost: listing O(choices * boxes), refused (`None`) above [`MAX_CHOICES`] choices per
//! component or [`MAX_STEPS`] steps of the walk (a very long frontier); the suffix
//! products O(components * L^2) big-integer products for polynomials of length `L`;
//! a draw O(components * L) big-integer products plus O(cells).

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::constraints::{build, Board, Shape, FLAG};
use crate::exact::binomial;
use crate::ints::binomial_row;
use crate::mt::Mt;

/// Most box mine-number choices listed for one component.
pub const MAX_CHOICES: usize = 200_000;
/// Most steps of one component's walk.
pub const MAX_STEPS: u64 = 2_000_000;

/// One component's choices: by mine number `m`, the running sums of the choices'
/// weights and the choices (a mine number per box).
#[derive(Debug, Clone)]
struct Table {
    cells: Vec<Vec<u32>>,
    by_mines: Vec<(Vec<u128>, Vec<Vec<u8>>)>,
    /// `layouts[m]`: the component's layouts with `m` mines.
    layouts: Vec<BigUint>,
}

/// A position ready to be sampled (see the module).
#[derive(Debug, Clone)]
pub struct Sampler {
    tables: Vec<Table>,
    interior: Vec<u32>,
    /// Cells that are mines in every layout: trusted flags and forced mines.
    fixed: Vec<u32>,
    /// `suffix[i][j]`: the layouts of components `i..` with `j` mines in all.
    suffix: Vec<Vec<BigUint>>,
    /// Running sums of the weight of each frontier mine total `t` (index `t`).
    totals: Vec<BigUint>,
    left: u64,
}

/// Why no sampler could be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleError {
    /// No layout explains the position.
    Inconsistent,
    /// A component has too many choices to list (or its counts too large a weight).
    TooLarge,
}

/// `a * b` as polynomials in big integers.
fn convolve(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    let mut out = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if !y.is_zero() {
                out[i + j] += x * y;
            }
        }
    }
    out
}

/// A uniform integer in `[0, n)` (`n > 0`): random bits of `n`'s length until below it.
fn below_big(rng: &mut Mt, n: &BigUint) -> BigUint {
    let bits = n.bits();
    let words = bits.div_ceil(32) as usize;
    let top = (bits % 32) as u32;
    loop {
        let mut digits: Vec<u32> = (0..words).map(|_| rng.next_u32()).collect();
        if top != 0 {
            if let Some(last) = digits.last_mut() {
                *last >>= 32 - top;
            }
        }
        let r = BigUint::from_slice(&digits);
        if &r < n {
            return r;
        }
    }
}

/// A uniform `u128` in `[0, n)` (`n > 0`).
fn below_u128(rng: &mut Mt, n: u128) -> u128 {
    if n <= u128::from(u64::MAX) {
        return u128::from(rng.randbelow(n as u64));
    }
    let bits = 128 - n.leading_zeros();
    loop {
        let low = u128::from(rng.getrandbits(64));
        let high = u128::from(rng.getrandbits(bits - 64));
        let r = low | (high << 64);
        if r < n {
            return r;
        }
    }
}

/// The index of the first running sum above `r`.
fn pick<T: PartialOrd>(running: &[T], r: &T) -> usize {
    running.partition_point(|s| s <= r)
}

/// A box order that closes equations early: each next box shares the most equations
/// with the boxes already placed (ties by index).
fn box_order(shape: &Shape) -> Vec<usize> {
    let n = shape.sizes.len();
    let mut of_box: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, (boxes, _)) in shape.constraints.iter().enumerate() {
        for &b in boxes {
            of_box[b as usize].push(c);
        }
    }
    let mut touched = vec![0usize; shape.constraints.len()];
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for _ in 0..n {
        let next = (0..n)
            .filter(|&b| !placed[b])
            .max_by_key(|&b| {
                let score: usize = of_box[b].iter().map(|&c| touched[c]).sum();
                (score, std::cmp::Reverse(b))
            })
            .expect("a box left");
        placed[next] = true;
        order.push(next);
        for &c in &of_box[next] {
            touched[c] += 1;
        }
    }
    order
}

/// Every choice of box mine numbers of a component, grouped by mine number.
fn list(shape: &Shape, cells: &[Vec<u32>]) -> Result<Table, SampleError> {
    let n = shape.sizes.len();
    let order = box_order(shape);
    let mut of_box: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, (boxes, _)) in shape.constraints.iter().enumerate() {
        for &b in boxes {
            of_box[b as usize].push(c);
        }
    }
    let mut owed: Vec<i64> = shape.constraints.iter().map(|c| i64::from(c.1)).collect();
    let mut room: Vec<i64> = shape
        .constraints
        .iter()
        .map(|(boxes, _)| boxes.iter().map(|&b| shape.sizes[b as usize] as i64).sum())
        .collect();
    struct Walk<'a> {
        shape: &'a Shape,
        order: &'a [usize],
        of_box: &'a [Vec<usize>],
        choice: Vec<u8>,
        found: Vec<(usize, u128, Vec<u8>)>,
        steps: u64,
    }
    impl Walk<'_> {
        fn go(
            &mut self,
            k: usize,
            owed: &mut [i64],
            room: &mut [i64],
            mines: usize,
            weight: u128,
        ) -> Result<(), SampleError> {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(SampleError::TooLarge);
            }
            if k == self.order.len() {
                if self.found.len() >= MAX_CHOICES {
                    return Err(SampleError::TooLarge);
                }
                self.found.push((mines, weight, self.choice.clone()));
                return Ok(());
            }
            let b = self.order[k];
            let size = self.shape.sizes[b];
            let most = self.of_box[b]
                .iter()
                .map(|&c| owed[c])
                .min()
                .unwrap_or(size as i64)
                .min(size as i64);
            for m in 0..=most {
                // after this box: each equation owes 0..=room
                let fits = self.of_box[b].iter().all(|&c| {
                    let (o, r) = (owed[c] - m, room[c] - size as i64);
                    o >= 0 && o <= r
                });
                if !fits {
                    continue;
                }
                for &c in &self.of_box[b] {
                    owed[c] -= m;
                    room[c] -= size as i64;
                }
                let w = weight
                    .checked_mul(u128::from(binomial_row(size)[m as usize]))
                    .ok_or(SampleError::TooLarge)?;
                self.choice[b] = m as u8;
                let done = self.go(k + 1, owed, room, mines + m as usize, w);
                for &c in &self.of_box[b] {
                    owed[c] += m;
                    room[c] += size as i64;
                }
                done?;
            }
            Ok(())
        }
    }
    let mut walk = Walk {
        shape,
        order: &order,
        of_box: &of_box,
        choice: vec![0; n],
        found: Vec::new(),
        steps: 0,
    };
    walk.go(0, &mut owed, &mut room, 0, 1)?;
    if walk.found.is_empty() {
        return Err(SampleError::Inconsistent);
    }
    let most = walk.found.iter().map(|f| f.0).max().unwrap_or(0);
    let mut by_mines: Vec<(Vec<u128>, Vec<Vec<u8>>)> = vec![(Vec::new(), Vec::new()); most + 1];
    for (m, w, choice) in walk.found {
        let (sums, choices) = &mut by_mines[m];
        let last = sums.last().copied().unwrap_or(0);
        sums.push(last.checked_add(w).ok_or(SampleError::TooLarge)?);
        choices.push(choice);
    }
    let layouts = by_mines
        .iter()
        .map(|(sums, _)| BigUint::from(sums.last().copied().unwrap_or(0)))
        .collect();
    Ok(Table {
        cells: cells.to_vec(),
        by_mines,
        layouts,
    })
}

impl Sampler {
    /// A sampler of the layouts of `board` (its flags trusted as mines, its total known).
    pub fn new(board: &Board<'_>) -> Result<Sampler, SampleError> {
        let problem = build(board).map_err(|_| SampleError::Inconsistent)?;
        let left = problem.mines_left.ok_or(SampleError::Inconsistent)?;
        let mut fixed: Vec<u32> = (0..board.cells.len() as u32)
            .filter(|&i| board.trust_flags && board.cells[i as usize] == FLAG)
            .collect();
        fixed.extend(&problem.forced_mines);
        let tables = problem
            .components
            .iter()
            .map(|c| list(&c.shape, &c.cells))
            .collect::<Result<Vec<_>, _>>()?;
        let mut suffix = vec![vec![BigUint::one()]];
        for t in tables.iter().rev() {
            let next = convolve(&t.layouts, suffix.last().expect("one at least"));
            suffix.push(next);
        }
        suffix.reverse();
        let interior = problem.interior;
        let mut totals = Vec::with_capacity(suffix[0].len());
        let mut running = BigUint::zero();
        for (t, f) in suffix[0].iter().enumerate() {
            let t = t as u64;
            if t <= left && left - t <= interior.len() as u64 && !f.is_zero() {
                running += f * binomial(interior.len() as u64, left - t);
            }
            totals.push(running.clone());
        }
        if running.is_zero() {
            return Err(SampleError::Inconsistent);
        }
        Ok(Sampler {
            tables,
            interior,
            fixed,
            suffix,
            totals,
            left,
        })
    }

    /// The number of layouts explaining the position.
    pub fn layouts(&self) -> &BigUint {
        self.totals.last().expect("one total at least")
    }

    /// One layout drawn uniformly: its mines (flags included), in no particular order.
    pub fn draw(&self, rng: &mut Mt) -> Vec<u32> {
        let total = self.layouts();
        let r = below_big(rng, total);
        let mut left_frontier = pick(&self.totals, &r);
        let mut mines = self.fixed.clone();
        for (i, table) in self.tables.iter().enumerate() {
            // this component's mine number m, weighed by the rest's ways with the others
            let rest = &self.suffix[i + 1];
            let weights: Vec<BigUint> = (0..table.layouts.len())
                .map(|m| {
                    let other = left_frontier.checked_sub(m).and_then(|j| rest.get(j));
                    match other {
                        Some(o) if !table.layouts[m].is_zero() => &table.layouts[m] * o,
                        _ => BigUint::zero(),
                    }
                })
                .collect();
            let mut running = Vec::with_capacity(weights.len());
            let mut sum = BigUint::zero();
            for w in weights {
                sum += w;
                running.push(sum.clone());
            }
            let m = pick(&running, &below_big(rng, &sum));
            left_frontier -= m;
            let (sums, choices) = &table.by_mines[m];
            let r = below_u128(rng, *sums.last().expect("a choice with m mines"));
            let choice = &choices[pick(sums, &r)];
            for (b, &k) in choice.iter().enumerate() {
                let cells = &table.cells[b];
                mines.extend(
                    rng.sample(cells.len(), k as usize)
                        .iter()
                        .map(|&j| cells[j]),
                );
            }
        }
        let frontier: usize = mines.len() - self.fixed.len();
        let inside = self.left as usize - frontier;
        mines.extend(
            rng.sample(self.interior.len(), inside)
                .iter()
                .map(|&j| self.interior[j]),
        );
        mines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::game::HIDDEN;
    use crate::hash::FxHashMap;
    use crate::limits::Deadline;
    use crate::players::endgame::enumerate_layouts;
    use crate::players::testing::guess_spots;
    use crate::players::{layout_count, View};

    fn board<'a>(view: &View<'a>) -> Board<'a> {
        Board {
            width: view.width,
            height: view.height,
            cells: view.raw,
            mines: Some(view.mines),
            trust_flags: true,
        }
    }

    /// The design's example: 72 layouts, each drawn about as often as the others, and
    /// every draw one of them.
    #[test]
    fn every_layout_equally_often() {
        let cells = raw(&["H2HHH", "HHHHH", "112HH", "00HHH", "000HH"]);
        let view = View {
            width: 5,
            height: 5,
            mines: 5,
            raw: &cells,
        };
        let sampler = Sampler::new(&board(&view)).unwrap();
        assert_eq!(*sampler.layouts(), BigUint::from(72u8));
        let all = enumerate_layouts(&view, 1000, &Deadline::none())
            .unwrap()
            .unwrap();
        assert_eq!(all.len(), 72);
        let mut seen: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut rng = Mt::from_u64(3);
        let draws = 72 * 400;
        for _ in 0..draws {
            let mut l = sampler.draw(&mut rng);
            l.sort_unstable();
            *seen.entry(l).or_default() += 1;
        }
        assert_eq!(seen.len(), 72, "every layout drawn, and no other");
        for l in &all {
            // 400 expected each: a count outside 400 +- 5 sd (about 100) would be a bias
            let c = seen[l];
            assert!((300..=500).contains(&c), "{l:?} drawn {c} times");
        }
    }

    /// On positions met in real games, the count equals the exact engine's and every
    /// draw is consistent with the position (its digits and its total).
    #[test]
    fn draws_explain_the_position() {
        let mut rng = Mt::from_u64(8);
        let mut checked = 0;
        for spot in guess_spots(41, 16, 16, 40, 20) {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let sampler = match Sampler::new(&board(&view)) {
                Ok(s) => s,
                Err(SampleError::TooLarge) => continue,
                Err(e) => panic!("{e:?}"),
            };
            assert_eq!(*sampler.layouts(), layout_count(&a));
            for _ in 0..20 {
                let layout = sampler.draw(&mut rng);
                assert_eq!(layout.len() as u64, view.mines);
                let mut mine = vec![false; view.raw.len()];
                for &c in &layout {
                    assert!(!mine[c as usize], "a cell twice");
                    mine[c as usize] = true;
                }
                for (i, &v) in view.raw.iter().enumerate() {
                    if v == HIDDEN || v == FLAG {
                        assert!(v != FLAG || mine[i]);
                        continue;
                    }
                    assert!(!mine[i]);
                    let around = view.neighbours(i).filter(|&j| mine[j]).count();
                    assert_eq!(around, v as usize, "digit at {i}");
                }
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked} draws checked");
    }
}
