//! `greedy`: every certain move, else the hidden cell least likely to be a mine, ties
//! drawn with the game's generator (`minesolver.strategy.greedy`).
//!
//! Cost per call: one exact analysis plus O(unknown cells) and one exact comparison per
//! distinct probability.

use crate::exact::Analysis;
use crate::limits::Deadline;
use crate::mt::Mt;

use super::{lowest_cells, PlayError, Player, View, Why};
use crate::count::Counts;
use crate::whatif::Parent;

/// The `greedy` player; it keeps the counts of the components it met in the game.
#[derive(Debug, Default)]
pub struct Greedy {
    counts: Counts,
}

impl Player for Greedy {
    fn reset(&mut self) {
        self.counts.clear();
    }

    /// The lowest probability and its cells are the same whether a certain mine is
    /// flagged or not.
    fn settles_locally(&self) -> bool {
        true
    }

    fn counts(&mut self) -> &mut Counts {
        &mut self.counts
    }

    fn guess(
        &mut self,
        _view: &View<'_>,
        a: &Analysis,
        _parent: &Parent,
        rng: &mut Mt,
        _deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        let (low, cells) = lowest_cells(a)
            .ok_or_else(|| PlayError::Invalid("no cell left that could be safe".into()))?;
        let cell = if cells.len() == 1 {
            cells[0]
        } else {
            cells[rng.choice(cells.len())]
        };
        Ok((
            cell,
            Why::Lowest {
                low,
                tied: cells.len(),
            },
        ))
    }
}
