//! A batch of games played natively: each game's layout drawn from its seed (or given),
//! the first click at the start cell, then the player's moves pushed until the end, as
//! `minesolver.simulate.playing.play_game` plays them. Same seeds, same layouts, same
//! moves, so the same wins and guesses.
//!
//! Untraced, a player whose guess does not depend on which certain mines are flagged
//! ([`Player::settles_locally`]: `greedy`) has its certain moves found first by
//! the single-digit rules ([`settle`]: a digit with all its mines flagged opens its other
//! hidden neighbours, one with as many hidden neighbours as mines left flags them), and
//! is asked only when those find nothing. That is the same game: a cell certainly safe
//! stays so as more is revealed, so both ways open exactly the cells certainly safe from
//! each guess on before the next one, and the next guess is made on the same position
//! (flags apart, which such a player treats as the certain mines they are): the same
//! guesses, wins and draws, with far fewer exact analyses (tested against the traced,
//! round-by-round play, which is what the move hashes record).
//!
//! Cost: the player's own per game (see [`crate::players`]), plus O(cells) per layout,
//! O(cells opened) per move and O(cells) per pass of the single-digit rules.

use std::sync::Arc;
use std::time::Instant;

use crate::game::{
    neighbour_table, random_layout, FirstClick, Game, Kind, MoveError, Status, FLAG, HIDDEN,
};
use crate::limits::Deadline;
use crate::mt::Mt;
use crate::players::{PlayError, Player, PlayerMove, View};

/// Why a batch stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    Play(PlayError),
    /// A round of the player's moves changed nothing (game `index` of the batch).
    Stuck {
        game: usize,
        moves: Vec<(Kind, u32)>,
    },
    /// The game refused a move.
    Move(MoveError),
    /// The mines do not fit beside the cells the first click protects.
    NoRoom,
    Invalid(String),
}

impl From<PlayError> for SimError {
    fn from(e: PlayError) -> Self {
        SimError::Play(e)
    }
}

/// Where a game's layout comes from.
#[derive(Debug, Clone)]
pub enum LayoutSource {
    /// Drawn as `random_layout` draws it from `random.Random(seed)`.
    Seed(u64),
    /// Given: the mine indices.
    Given(Vec<u32>),
}

/// What the batch's games share.
#[derive(Debug, Clone)]
pub struct Setup {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub start: usize,
    pub rule: FirstClick,
}

/// One game's result: won, the guesses, the cells guessed (in order), the player's time,
/// and (when asked) every move the player named, round by round, as `(kind, cell,
/// guess)`.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub won: bool,
    pub guesses: u32,
    pub guessed: Vec<u32>,
    pub seconds: f64,
    pub moves: Vec<(Kind, u32, bool)>,
}

/// What [`settle`] keeps during a game: the board as it last looked at it, and its work
/// list of digits to look at.
#[derive(Debug, Default)]
pub struct Settle {
    seen: Vec<u8>,
    queue: Vec<u32>,
    queued: Vec<bool>,
}

impl Settle {
    /// For a new game of `cells` cells (nothing seen yet).
    pub fn start(&mut self, cells: usize) {
        self.seen.clear();
        self.seen.resize(cells, HIDDEN);
        self.queued.clear();
        self.queued.resize(cells, false);
        self.queue.clear();
    }
}

/// The single-digit rules until they find nothing more: a digit whose flagged neighbours
/// number it opens its other hidden neighbours; one whose hidden neighbours number its
/// mines left flags them. Every move is certain (the rules are sound); returns whether
/// any was made. Only the digits next to a cell that changed since `state` last looked
/// are looked at: O(cells) byte comparisons per pass plus O(1) per digit looked at.
pub fn settle(game: &mut Game, state: &mut Settle) -> Result<bool, SimError> {
    let table = game.neighbour_table();
    let mut any = false;
    loop {
        // the digits next to every cell changed since the last look
        for (i, (seen, &now)) in state.seen.iter_mut().zip(game.raw()).enumerate() {
            if *seen == now {
                continue;
            }
            *seen = now;
            for j in std::iter::once(i as u32).chain(table[i].iter().copied()) {
                let v = game.raw()[j as usize];
                if (1..=8).contains(&v) && !state.queued[j as usize] {
                    state.queued[j as usize] = true;
                    state.queue.push(j);
                }
            }
        }
        if state.queue.is_empty() {
            return Ok(any);
        }
        while let Some(i) = state.queue.pop() {
            let i = i as usize;
            state.queued[i] = false;
            let d = game.raw()[i];
            let (mut hidden, mut flags) = (0u8, 0u8);
            for &j in &table[i] {
                match game.raw()[j as usize] {
                    HIDDEN => hidden += 1,
                    FLAG => flags += 1,
                    _ => {}
                }
            }
            if hidden == 0 {
                continue;
            }
            let kind = if flags == d {
                Kind::Open
            } else if d.saturating_sub(flags) == hidden {
                Kind::Flag
            } else {
                continue;
            };
            for &j in &table[i] {
                if game.raw()[j as usize] == HIDDEN {
                    game.push(kind, j).map_err(SimError::Move)?;
                    if game.over() {
                        return Ok(true);
                    }
                }
            }
            any = true;
        }
    }
}

/// Play one game of `player` on `layout` from `start` with the generator `rng`.
pub fn play_game(
    player: &mut dyn Player,
    mut game: Game,
    start: usize,
    rng: &mut Mt,
    trace: bool,
    deadline: &Deadline,
) -> Result<GameResult, SimError> {
    let began = Instant::now();
    game.push(Kind::Open, start as u32)
        .map_err(SimError::Move)?;
    let mut guesses = 0u32;
    let mut guessed = Vec::new();
    let mut moves_seen = Vec::new();
    let mut raw = Vec::with_capacity(game.raw().len());
    let local = !trace && player.settles_locally();
    let mut settled = Settle::default();
    settled.start(game.raw().len());
    while !game.over() {
        deadline.check().map_err(PlayError::Stop)?;
        if local {
            settle(&mut game, &mut settled)?;
            if game.over() {
                break;
            }
        }
        raw.clear();
        raw.extend_from_slice(game.raw());
        let view = View {
            width: game.width,
            height: game.height,
            mines: game.mines as u64,
            raw: &raw,
        };
        let moves: Vec<PlayerMove> = player.next_moves(&view, rng, deadline)?;
        if trace {
            moves_seen.extend(moves.iter().map(|m| (m.kind, m.cell, m.guess)));
        }
        let mut changed = false;
        for m in &moves {
            if game.over() {
                break;
            }
            if m.guess {
                guesses += 1;
                guessed.push(m.cell);
            }
            changed |= game.push(m.kind, m.cell).map_err(SimError::Move)?;
        }
        if !changed {
            return Err(SimError::Stuck {
                game: 0,
                moves: moves.iter().map(|m| (m.kind, m.cell)).collect(),
            });
        }
    }
    Ok(GameResult {
        won: game.status() == Status::Won,
        guesses,
        guessed,
        seconds: began.elapsed().as_secs_f64(),
        moves: moves_seen,
    })
}

/// Play `games` (a layout source and a player seed each) with a fresh player from
/// `make` per game; results in order.
pub fn play_batch(
    make: &dyn Fn() -> Box<dyn Player>,
    setup: &Setup,
    games: &[(LayoutSource, u64)],
    trace: bool,
    deadline: &Deadline,
) -> Result<Vec<GameResult>, SimError> {
    let n = setup
        .width
        .checked_mul(setup.height)
        .ok_or_else(|| SimError::Invalid("the board is too large".into()))?;
    if setup.start >= n {
        return Err(SimError::Invalid("the start cell is off the board".into()));
    }
    let table = Arc::new(neighbour_table(setup.width, setup.height));
    let mut out = Vec::with_capacity(games.len());
    let mut player = make();
    for (k, (source, player_seed)) in games.iter().enumerate() {
        let layout = match source {
            LayoutSource::Seed(seed) => {
                let mut rng = Mt::from_u64(*seed);
                random_layout(
                    setup.width,
                    setup.height,
                    setup.mines,
                    setup.start,
                    setup.rule,
                    &mut rng,
                )
                .ok_or(SimError::NoRoom)?
            }
            LayoutSource::Given(mines) => mines.clone(),
        };
        let game = Game::new(setup.width, setup.height, &layout, Arc::clone(&table))
            .ok_or_else(|| SimError::Invalid(format!("layout of game {k} is not a layout")))?;
        if game.mines != setup.mines {
            return Err(SimError::Invalid(format!(
                "layout of game {k} has {} mines, not {}",
                game.mines, setup.mines
            )));
        }
        player.reset();
        let mut rng = Mt::from_u64(*player_seed);
        let result = play_game(
            player.as_mut(),
            game,
            setup.start,
            &mut rng,
            trace,
            deadline,
        )
        .map_err(|e| match e {
            SimError::Stuck { moves, .. } => SimError::Stuck { game: k, moves },
            other => other,
        })?;
        out.push(result);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::by_name;

    /// Untraced play with the single-digit rules first is the same game as the traced,
    /// round-by-round play: the same guesses (cells, in order), wins and generator draws.
    #[test]
    fn settling_locally_plays_the_same_games() {
        for (name, games, w, h, mines, rule) in [
            ("greedy", 300u64, 30, 16, 99, FirstClick::Safe),
            ("greedy", 400, 9, 9, 10, FirstClick::Safe),
            ("greedy", 200, 16, 16, 40, FirstClick::Opening),
            ("greedy", 200, 8, 8, 12, FirstClick::Safe),
        ] {
            let setup = Setup {
                width: w,
                height: h,
                mines,
                start: 0,
                rule,
            };
            let list: Vec<(LayoutSource, u64)> = (0..games)
                .map(|i| (LayoutSource::Seed(i * 31 + 5), i * 17 + 2))
                .collect();
            let make = || by_name(name).expect("a native player");
            assert!(make().settles_locally());
            assert!(!by_name("pseq").unwrap().settles_locally());
            let traced = play_batch(&make, &setup, &list, true, &Deadline::none()).unwrap();
            let fast = play_batch(&make, &setup, &list, false, &Deadline::none()).unwrap();
            let mut guesses = 0;
            for (a, b) in traced.iter().zip(&fast) {
                assert_eq!(
                    (a.won, a.guesses, &a.guessed),
                    (b.won, b.guesses, &b.guessed)
                );
                guesses += a.guesses;
            }
            assert!(
                2 * guesses as u64 > games,
                "{name}: too few guesses to tell"
            );
        }
    }

    /// A deadline that passes stops a batch with the stop error, for every player.
    #[test]
    fn a_passed_deadline_stops_the_batch() {
        let setup = Setup {
            width: 9,
            height: 9,
            mines: 10,
            start: 0,
            rule: FirstClick::Safe,
        };
        let list: Vec<(LayoutSource, u64)> = (0..3).map(|i| (LayoutSource::Seed(i), i)).collect();
        for name in ["greedy", "pseq", "best"] {
            let make = || by_name(name).expect("a native player");
            let got = play_batch(&make, &setup, &list, false, &Deadline::after(0.0));
            assert_eq!(
                got.unwrap_err(),
                SimError::Play(PlayError::Stop(crate::limits::Stop::Deadline))
            );
        }
    }

    #[test]
    fn settle_makes_only_certain_moves() {
        let table = Arc::new(neighbour_table(30, 16));
        let mut rng = Mt::from_u64(3);
        let mut settled = 0;
        for _ in 0..200 {
            let layout = random_layout(30, 16, 99, 0, FirstClick::Safe, &mut rng).unwrap();
            let mut game = Game::new(30, 16, &layout, Arc::clone(&table)).unwrap();
            game.push(Kind::Open, 0).unwrap();
            let mut state = Settle::default();
            state.start(30 * 16);
            settled += usize::from(settle(&mut game, &mut state).unwrap());
            assert!(!matches!(game.status(), Status::Lost(_)));
            let mut mine = vec![false; 30 * 16];
            layout.iter().for_each(|&m| mine[m as usize] = true);
            for (i, &v) in game.raw().iter().enumerate() {
                assert!(v != FLAG || mine[i], "cell {i} flagged but safe");
            }
        }
        assert!(settled > 50);
    }
}
