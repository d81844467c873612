//! The game: layouts drawn from a seed under a first-click rule, and the rules of a click
//! (open with flood fill from zeros, flag, unflag, chord), as `minesolver.game` has them.
//!
//! A layout is drawn as `random_layout` draws it: the mines are
//! `rng.sample(allowed, mines)` over the cells the first-click rule leaves free, in
//! reading order, so the same seed gives the same layout. Cells are row-major indices;
//! the board a player sees is a byte per cell as `Position.raw()` has it (digit 0-8,
//! [`FLAG`], [`HIDDEN`]).
//!
//! Cost: a layout O(cells); a move O(cells it opens) (a chord O(8) plus its opens).

use crate::mt::Mt;

pub use crate::constraints::{FLAG, HIDDEN};

/// Which cells the first click keeps free of mines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstClick {
    /// The first cell is safe.
    Safe,
    /// The first cell and its neighbours are safe.
    Opening,
    /// No protection.
    Unprotected,
}

impl FirstClick {
    /// The rule by its name in `minesolver.game.levels` (`safe`, `opening`, `none`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "safe" => Some(FirstClick::Safe),
            "opening" => Some(FirstClick::Opening),
            "none" => Some(FirstClick::Unprotected),
            _ => None,
        }
    }
}

/// Each cell's neighbours in the order `neighbour_table` lists them (rows, then columns).
pub fn neighbour_table(width: usize, height: usize) -> Vec<Vec<u32>> {
    let mut table = Vec::with_capacity(width * height);
    for y in 0..height {
        for x in 0..width {
            let mut around = Vec::with_capacity(8);
            for yy in y.saturating_sub(1)..(y + 2).min(height) {
                for xx in x.saturating_sub(1)..(x + 2).min(width) {
                    if yy != y || xx != x {
                        around.push((yy * width + xx) as u32);
                    }
                }
            }
            table.push(around);
        }
    }
    table
}

/// A layout drawn as `random_layout(level, rng, start, rule)` draws it: the sorted mine
/// indices, or `None` when the mines do not fit beside the protected cells.
pub fn random_layout(
    width: usize,
    height: usize,
    mines: usize,
    start: usize,
    rule: FirstClick,
    rng: &mut Mt,
) -> Option<Vec<u32>> {
    let n = width.checked_mul(height)?;
    if start >= n {
        return None;
    }
    let mut free = vec![false; n];
    match rule {
        FirstClick::Unprotected => {}
        FirstClick::Safe => free[start] = true,
        FirstClick::Opening => {
            free[start] = true;
            let (x, y) = (start % width, start / width);
            for yy in y.saturating_sub(1)..(y + 2).min(height) {
                for xx in x.saturating_sub(1)..(x + 2).min(width) {
                    free[yy * width + xx] = true;
                }
            }
        }
    }
    let allowed: Vec<u32> = (0..n as u32).filter(|&i| !free[i as usize]).collect();
    if mines > allowed.len() {
        return None;
    }
    let mut chosen: Vec<u32> = rng
        .sample(allowed.len(), mines)
        .into_iter()
        .map(|j| allowed[j])
        .collect();
    chosen.sort_unstable();
    Some(chosen)
}

/// What a move does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Open,
    Flag,
    Unflag,
    Chord,
}

impl Kind {
    /// The move kind's name in `minesolver.game.move`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Open => "open",
            Kind::Flag => "flag",
            Kind::Unflag => "unflag",
            Kind::Chord => "chord",
        }
    }
}

/// How a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Playing,
    Won,
    /// Lost by opening the mine at this cell.
    Lost(u32),
}

/// A move the game refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    OffBoard(u32),
    Over,
    /// A chord on a hidden or flagged cell.
    ChordNotDigit(u32),
}

/// One game on a known layout (the first click is the caller's: it is a move like any).
#[derive(Debug, Clone)]
pub struct Game {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    raw: Vec<u8>,
    mine: Vec<bool>,
    digits: Vec<u8>,
    neighbours: std::sync::Arc<Vec<Vec<u32>>>,
    safe_left: usize,
    status: Status,
}

impl Game {
    /// A game on `layout` (sorted or not; `None` when a mine is off the board or twice).
    pub fn new(
        width: usize,
        height: usize,
        layout: &[u32],
        neighbours: std::sync::Arc<Vec<Vec<u32>>>,
    ) -> Option<Self> {
        let n = width.checked_mul(height)?;
        if neighbours.len() != n {
            return None;
        }
        let mut mine = vec![false; n];
        for &i in layout {
            let slot = mine.get_mut(i as usize)?;
            if *slot {
                return None;
            }
            *slot = true;
        }
        let digits = (0..n)
            .map(|i| neighbours[i].iter().filter(|&&j| mine[j as usize]).count() as u8)
            .collect();
        Some(Game {
            width,
            height,
            mines: layout.len(),
            raw: vec![HIDDEN; n],
            mine,
            digits,
            neighbours,
            safe_left: n - layout.len(),
            status: Status::Playing,
        })
    }

    /// Each cell's neighbours (shared with the other games of a batch).
    pub fn neighbour_table(&self) -> std::sync::Arc<Vec<Vec<u32>>> {
        std::sync::Arc::clone(&self.neighbours)
    }

    /// The board the player sees, a byte per cell.
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn over(&self) -> bool {
        self.status != Status::Playing
    }

    /// Make a move; returns whether it changed the board or the outcome (`Game.push`).
    pub fn push(&mut self, kind: Kind, cell: u32) -> Result<bool, MoveError> {
        if self.over() {
            return Err(MoveError::Over);
        }
        let i = cell as usize;
        if i >= self.raw.len() {
            return Err(MoveError::OffBoard(cell));
        }
        Ok(match kind {
            Kind::Open => self.open(i) > 0,
            Kind::Flag => self.switch(i, HIDDEN, FLAG),
            Kind::Unflag => self.switch(i, FLAG, HIDDEN),
            Kind::Chord => {
                if self.raw[i] > 8 {
                    return Err(MoveError::ChordNotDigit(cell));
                }
                self.chord(i) > 0
            }
        })
    }

    /// Open cell `i`; the number of cells opened (the mine, when it is one).
    fn open(&mut self, i: usize) -> usize {
        if self.raw[i] != HIDDEN {
            return 0;
        }
        if self.mine[i] {
            self.status = Status::Lost(i as u32);
            return 1;
        }
        self.reveal(i)
    }

    /// Open the safe cell `start` and flood-fill from zeros.
    fn reveal(&mut self, start: usize) -> usize {
        let mut opened = 1;
        self.raw[start] = self.digits[start];
        let mut stack = Vec::new();
        if self.digits[start] == 0 {
            stack.push(start);
        }
        while let Some(i) = stack.pop() {
            for &j in &self.neighbours[i] {
                let j = j as usize;
                if self.raw[j] == HIDDEN {
                    self.raw[j] = self.digits[j];
                    opened += 1;
                    if self.digits[j] == 0 {
                        stack.push(j);
                    }
                }
            }
        }
        self.safe_left -= opened;
        if self.safe_left == 0 {
            self.status = Status::Won;
        }
        opened
    }

    fn switch(&mut self, i: usize, old: u8, new: u8) -> bool {
        if self.raw[i] != old {
            return false;
        }
        self.raw[i] = new;
        true
    }

    fn chord(&mut self, i: usize) -> usize {
        let flags = self.neighbours[i]
            .iter()
            .filter(|&&j| self.raw[j as usize] == FLAG)
            .count();
        if flags != usize::from(self.raw[i]) {
            return 0;
        }
        let mut opened = 0;
        for k in 0..self.neighbours[i].len() {
            let j = self.neighbours[i][k] as usize;
            if self.raw[j] == HIDDEN && !self.over() {
                opened += self.open(j);
            }
        }
        opened
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn flood_fill_and_win() {
        // 3x1 with a mine at the right: opening the left opens the middle and wins
        let table = Arc::new(neighbour_table(3, 1));
        let mut g = Game::new(3, 1, &[2], table).unwrap();
        assert_eq!(g.push(Kind::Open, 0), Ok(true));
        assert_eq!(g.raw(), &[0, 1, HIDDEN]);
        assert_eq!(g.status(), Status::Won);
        assert_eq!(g.push(Kind::Open, 2), Err(MoveError::Over));
    }

    #[test]
    fn chord_opens_and_loses_under_a_wrong_flag() {
        let table = Arc::new(neighbour_table(3, 1));
        let mut g = Game::new(3, 1, &[0], table).unwrap();
        assert_eq!(g.push(Kind::Open, 1), Ok(true));
        assert_eq!(g.push(Kind::Chord, 1), Ok(false)); // no flag: nothing
        assert_eq!(g.push(Kind::Flag, 2), Ok(true));
        assert_eq!(g.push(Kind::Chord, 1), Ok(true));
        assert_eq!(g.status(), Status::Lost(0));
    }

    #[test]
    fn layouts_respect_the_rule() {
        let mut rng = Mt::from_u64(3);
        let l = random_layout(9, 9, 72, 40, FirstClick::Opening, &mut rng).unwrap();
        assert_eq!(l.len(), 72);
        for i in [30, 31, 32, 39, 40, 41, 48, 49, 50] {
            assert!(!l.contains(&i));
        }
        assert!(random_layout(9, 9, 73, 40, FirstClick::Opening, &mut rng).is_none());
    }
}
