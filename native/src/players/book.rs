//! `search`'s opening book, and the rollouts that build it.
//!
//! A [`Book`] maps a position (the board's width, height and mines, and its cells as the
//! player sees them) to the guess found best there by many rollouts, computed once
//! offline (`minesolver book build`, on a Dask cluster) and shipped with the package as
//! data. Where `best` would guess by its heuristic in a book position, `search` plays the
//! book's move instead of valuing candidates by its own few rollouts.
//!
//! [`rollouts`] plays candidates out on a range of layouts for the builder: layout `j`
//! of a drawn range is the sampler's draw ([`crate::sample`], exactly uniform) from a
//! generator seeded by `(seed, j)` alone, and layout `j` of an exact range is the `j`-th
//! of every layout in `enumerate_layouts`'s order; the rollout player's generator on a
//! layout is seeded by the seed and the layout's mines ([`layout_seed`]). So any range
//! gives the same results however the ranges are cut into tasks, on any machine
//! (resumable, deterministic), and every candidate plays the same games (common random
//! numbers).
//!
//! Cost: a lookup hashes the position (O(cells)); [`rollouts`] costs one sampler (or one
//! listing of every layout) per call, then `cells x count` games of the rollout player.

use std::collections::HashMap;

use crate::game::FLAG;
use crate::limits::Deadline;
use crate::mt::Mt;
use crate::sample::Sampler;

use super::endgame::enumerate_layouts;
use super::search::play_out;
use super::{PlayError, Player, View};

/// A book position's move and the rollouts that chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    /// The cell to open (an index, `y * width + x`).
    pub cell: u32,
    /// Rollouts the cell won, of `rollouts`.
    pub wins: u64,
    pub rollouts: u64,
    /// Rollouts `best`'s guess won, of `best_rollouts` (on the same layouts).
    pub best_wins: u64,
    pub best_rollouts: u64,
}

/// Positions and their moves, by board (width, height, mines), then cells.
#[derive(Debug, Clone, Default)]
pub struct Book {
    boards: HashMap<(usize, usize, u64), HashMap<Vec<u8>, BookMove>>,
}

impl Book {
    /// Add (or replace) the move of the position `raw` on a `width x height` board of
    /// `mines` mines.
    pub fn insert(&mut self, width: usize, height: usize, mines: u64, raw: Vec<u8>, m: BookMove) {
        self.boards
            .entry((width, height, mines))
            .or_default()
            .insert(raw, m);
    }

    /// The book's move in `view`, if it holds the position.
    pub fn get(&self, view: &View<'_>) -> Option<&BookMove> {
        self.boards
            .get(&(view.width, view.height, view.mines))?
            .get(view.raw)
    }

    /// The number of positions held.
    pub fn len(&self) -> usize {
        self.boards.values().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// SplitMix64's finaliser: a 64-bit mix (each input bit moves half the output bits).
pub fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The rollout player's seed on the layout of sorted mines `mines`: a mix of `seed` and
/// every mine, so the same layout gets the same seed in whatever range it is drawn.
pub fn layout_seed(seed: u64, mines: &[u32]) -> u64 {
    mines.iter().fold(mix(seed), |h, &m| mix(h ^ u64::from(m)))
}

/// Which layouts a call of [`rollouts`] plays.
#[derive(Debug, Clone, Copy)]
pub enum Layouts {
    /// Draws `first .. first + count`, draw `j` from a generator seeded `mix(seed ^ mix(j))`.
    Drawn { first: u64, count: u64 },
    /// Layouts `first .. first + count` of every layout (at most `limit` listed).
    Every {
        first: usize,
        count: usize,
        limit: usize,
    },
}

/// Each cell of `cells` opened from `view` on each layout of `which`, then played out by
/// `player`: per cell, won or lost on each layout, in the layouts' order.
pub fn rollouts(
    view: &View<'_>,
    cells: &[u32],
    player: &mut dyn Player,
    seed: u64,
    which: Layouts,
    deadline: &Deadline,
) -> Result<Vec<Vec<bool>>, PlayError> {
    let n = view.raw.len() as u32;
    if let Some(c) = cells.iter().find(|&&c| c >= n || view.raw[c as usize] <= 8) {
        return Err(PlayError::Invalid(format!(
            "cell {c} is not a closed cell of the position"
        )));
    }
    let layouts: Vec<Vec<u32>> = match which {
        Layouts::Drawn { first, count } => {
            let board = view.board();
            let sampler = Sampler::new(&board).map_err(|e| {
                PlayError::Invalid(format!("no layouts can be drawn from the position: {e:?}"))
            })?;
            (first..first + count)
                .map(|j| {
                    let mut mines = sampler.draw(&mut Mt::from_u64(mix(seed ^ mix(j))));
                    mines.sort_unstable();
                    mines
                })
                .collect()
        }
        Layouts::Every {
            first,
            count,
            limit,
        } => {
            let all = enumerate_layouts(view, limit, deadline)?.ok_or_else(|| {
                PlayError::Invalid(format!("the position has more than {limit} layouts"))
            })?;
            let flags: Vec<u32> = (0..n).filter(|&i| view.raw[i as usize] == FLAG).collect();
            all.into_iter()
                .skip(first)
                .take(count)
                .map(|mut l| {
                    l.extend(&flags);
                    l.sort_unstable();
                    l
                })
                .collect()
        }
    };
    let mut out = vec![Vec::with_capacity(layouts.len()); cells.len()];
    let mut table = None;
    for layout in &layouts {
        let s = layout_seed(seed, layout);
        for (k, &cell) in cells.iter().enumerate() {
            out[k].push(play_out(
                view,
                layout,
                cell as usize,
                s,
                player,
                &mut table,
                deadline,
            )?);
        }
    }
    Ok(out)
}

/// The number of layouts of `view` when at most `limit` (`None` beyond).
pub fn every_layout_count(
    view: &View<'_>,
    limit: usize,
    deadline: &Deadline,
) -> Result<Option<usize>, PlayError> {
    Ok(enumerate_layouts(view, limit, deadline)?.map(|l| l.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::HIDDEN;
    use crate::players::best::{Best, Options as BestOptions};
    use crate::players::testing::guess_spots;

    /// A range's results do not depend on how the layouts are cut into calls, and the
    /// same cell on the same layout gives the same result.
    #[test]
    fn ranges_add_up_and_repeat() {
        let spot = guess_spots(53, 8, 8, 10, 30).into_iter().next().unwrap();
        let view = spot.view();
        let cells: Vec<u32> = (0..view.raw.len() as u32)
            .filter(|&c| view.raw[c as usize] > 8 && view.raw[c as usize] != FLAG)
            .take(3)
            .collect();
        let mut best = Best::new(BestOptions::default());
        let d = Deadline::none();
        let drawn = |first, count| Layouts::Drawn { first, count };
        let whole = rollouts(&view, &cells, &mut best, 5, drawn(0, 12), &d).unwrap();
        let a = rollouts(&view, &cells, &mut best, 5, drawn(0, 5), &d).unwrap();
        let b = rollouts(&view, &cells, &mut best, 5, drawn(5, 7), &d).unwrap();
        for k in 0..cells.len() {
            let joined: Vec<bool> = a[k].iter().chain(&b[k]).copied().collect();
            assert_eq!(whole[k], joined);
        }
        let other = rollouts(&view, &cells, &mut best, 6, drawn(0, 12), &d).unwrap();
        assert_eq!(other.len(), whole.len());
    }

    #[test]
    fn the_book_finds_its_positions() {
        let mut book = Book::default();
        let raw = vec![1u8, HIDDEN, HIDDEN, HIDDEN];
        let m = BookMove {
            cell: 3,
            wins: 2,
            rollouts: 3,
            best_wins: 1,
            best_rollouts: 3,
        };
        book.insert(2, 2, 1, raw.clone(), m.clone());
        let view = View {
            width: 2,
            height: 2,
            mines: 1,
            raw: &raw,
        };
        assert_eq!(book.get(&view), Some(&m));
        let other = View { mines: 2, ..view };
        assert_eq!(book.get(&other), None);
        assert_eq!(book.len(), 1);
    }
}
