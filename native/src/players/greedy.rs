//! `greedy`: every certain move, else the hidden cell least likely to be a mine, ties
//! drawn with the game's generator (`minesolver.strategy.greedy`).
//!
//! Cost per call: one exact analysis plus O(unknown cells) and one exact comparison per
//! distinct probability.

use crate::limits::Deadline;
use crate::mt::Mt;

use super::whatif::{Counts, Parent};
use super::{certain_moves, lowest_cells, PlayError, Player, PlayerMove, View, Why};
use crate::game::Kind;

/// The `greedy` player; it keeps the counts of the components it met in the game.
#[derive(Debug, Default)]
pub struct Greedy {
    counts: Counts,
}

impl Player for Greedy {
    fn reset(&mut self) {
        self.counts.clear();
    }

    fn next_moves(
        &mut self,
        view: &View<'_>,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<Vec<PlayerMove>, PlayError> {
        super::count_analysis();
        let a = Parent::with_counts(view, &mut self.counts, deadline)?.analysis(deadline)?;
        let mut moves = certain_moves(&a);
        if !a.safe.is_empty() {
            return Ok(moves);
        }
        let (low, cells) = lowest_cells(&a)
            .ok_or_else(|| PlayError::Invalid("no cell left that could be safe".into()))?;
        let cell = if cells.len() == 1 {
            cells[0]
        } else {
            cells[rng.choice(cells.len())]
        };
        moves.push(PlayerMove {
            kind: Kind::Open,
            cell,
            guess: true,
            why: Why::Lowest {
                low,
                tied: cells.len(),
            },
        });
        Ok(moves)
    }
}
