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

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;
    use crate::constraints::tests::raw;
    use crate::exact::NOT_UNKNOWN;
    use crate::game::Kind;
    use crate::limits::Stop;
    use crate::players::testing::guess_spots;
    use crate::players::{level_ratio, Player};

    #[test]
    fn certain_moves_first_safe_then_mines() {
        let cells = raw(&["1HH"]);
        let view = View {
            width: 3,
            height: 1,
            mines: 1,
            raw: &cells,
        };
        let moves = Greedy::default()
            .next_moves(&view, &mut Mt::from_u64(0), &Deadline::none())
            .unwrap();
        let got: Vec<(Kind, u32, bool)> = moves.iter().map(|m| (m.kind, m.cell, m.guess)).collect();
        assert_eq!(got, vec![(Kind::Open, 2, false), (Kind::Flag, 1, false)]);
    }

    /// The guess is a cell of the lowest probability (exactly, among every unknown
    /// cell), the tie drawn as Python's `rng.choice` draws it.
    #[test]
    fn the_guess_is_the_lowest_cell_drawn_among_ties() {
        let spots = guess_spots(3, 16, 16, 40, 30);
        assert!(spots.len() > 50);
        let mut ties = 0;
        for (k, spot) in spots.iter().enumerate() {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let mut rng = Mt::from_u64(k as u64);
            let moves = Greedy::default()
                .next_moves(&view, &mut rng, &Deadline::none())
                .unwrap();
            let guess = moves.last().unwrap();
            assert!(guess.guess && guess.kind == Kind::Open);
            let Why::Lowest { low, tied } = &guess.why else {
                panic!("greedy's reason is the lowest probability");
            };
            let unknown: Vec<usize> = (0..spot.raw.len())
                .filter(|&i| a.cell_level[i] != NOT_UNKNOWN)
                .collect();
            let at_low: Vec<u32> = unknown
                .iter()
                .filter(|&&i| level_ratio(&a, a.cell_level[i]).cmp_exact(low) == Ordering::Equal)
                .map(|&i| i as u32)
                .collect();
            assert!(unknown
                .iter()
                .all(|&i| { level_ratio(&a, a.cell_level[i]).cmp_exact(low) != Ordering::Less }));
            assert_eq!(at_low.len(), *tied);
            let mut draw = Mt::from_u64(k as u64);
            let want = if at_low.len() == 1 {
                at_low[0]
            } else {
                ties += 1;
                at_low[draw.choice(at_low.len())]
            };
            assert_eq!(guess.cell, want);
            assert_eq!(rng.random(), draw.random(), "the same draws were made");
        }
        assert!(ties > 10);
    }

    #[test]
    fn a_passed_deadline_stops_the_move() {
        let spot = &guess_spots(4, 9, 9, 10, 5)[0];
        let got =
            Greedy::default().next_moves(&spot.view(), &mut Mt::from_u64(0), &Deadline::after(0.0));
        assert_eq!(got.unwrap_err(), PlayError::Stop(Stop::Deadline));
    }
}
