//! `greedy`: every certain move, else the hidden cell least likely to be a mine, ties
//! drawn with the game's generator (`minesolver.strategy.greedy`).
//!
//! Cost per call: one exact analysis plus O(unknown cells) and one exact comparison per
//! distinct probability.

use crate::limits::Deadline;
use crate::mt::Mt;

use super::{certain_moves, lowest_cells, PlayError, Player, PlayerMove, View, Why};
use crate::game::Kind;

/// The `greedy` player (it keeps nothing between moves).
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

impl Player for Greedy {
    fn next_moves(
        &mut self,
        view: &View<'_>,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<Vec<PlayerMove>, PlayError> {
        let a = view.analyse(deadline)?;
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
