//! Positions met in real games, for the players' unit tests: `greedy` plays games drawn
//! from a seed, and every position where it had to guess (no cell certainly safe) is
//! kept.

use std::sync::Arc;

use crate::game::{neighbour_table, random_layout, FirstClick, Game, Kind};
use crate::limits::Deadline;
use crate::mt::Mt;

use super::greedy::Greedy;
use super::{Player, View};

/// A position a player sees, owned.
#[derive(Debug, Clone)]
pub struct Spot {
    pub width: usize,
    pub height: usize,
    pub mines: u64,
    pub raw: Vec<u8>,
}

impl Spot {
    pub fn view(&self) -> View<'_> {
        View {
            width: self.width,
            height: self.height,
            mines: self.mines,
            raw: &self.raw,
        }
    }
}

/// The positions where `greedy` guessed in `games` games of `width` x `height` with
/// `mines`, first click safe in the corner, layouts and draws from `seed`.
pub fn guess_spots(
    seed: u64,
    width: usize,
    height: usize,
    mines: usize,
    games: usize,
) -> Vec<Spot> {
    let mut rng = Mt::from_u64(seed);
    let table = Arc::new(neighbour_table(width, height));
    let mut spots = Vec::new();
    for _ in 0..games {
        let layout = random_layout(width, height, mines, 0, FirstClick::Safe, &mut rng).unwrap();
        let mut game = Game::new(width, height, &layout, Arc::clone(&table)).unwrap();
        game.push(Kind::Open, 0).unwrap();
        let mut player = Greedy::default();
        while !game.over() {
            let spot = Spot {
                width,
                height,
                mines: mines as u64,
                raw: game.raw().to_vec(),
            };
            let moves = player
                .next_moves(&spot.view(), &mut rng, &Deadline::none())
                .unwrap();
            if moves.last().is_some_and(|m| m.guess) {
                spots.push(spot);
            }
            for m in moves {
                if game.over() {
                    break;
                }
                game.push(m.kind, m.cell).unwrap();
            }
        }
    }
    spots
}
