//! A batch of games played natively: each game's layout drawn from its seed (or given),
//! the first click at the start cell, then the player's moves pushed until the end, as
//! `minesolver.simulate.playing.play_game` plays them. Same seeds, same layouts, same
//! moves, so the same wins and guesses.
//!
//! Cost: the player's own per game (see [`crate::players`]), plus O(cells) per layout
//! and O(cells opened) per move.

use std::sync::Arc;
use std::time::Instant;

use crate::game::{neighbour_table, random_layout, FirstClick, Game, Kind, MoveError, Status};
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

/// One game's result: won, the guesses, the player's time, and (when asked) every move
/// the player named, round by round, as `(kind, cell, guess)`.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub won: bool,
    pub guesses: u32,
    pub seconds: f64,
    pub moves: Vec<(Kind, u32, bool)>,
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
    let mut moves_seen = Vec::new();
    let mut raw = Vec::with_capacity(game.raw().len());
    while !game.over() {
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
            guesses += u32::from(m.guess);
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
        let mut player = make();
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
