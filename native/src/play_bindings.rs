//! Bindings of the game, the players and the batch simulator (kept apart from the
//! analysis bindings in `lib.rs`): a Mersenne Twister equal to Python's `random`, the
//! layouts from a seed, a native player moving on a raw position, and a batch of games in
//! one call with the GIL released. Thin: arguments in, plain Rust modules, results out.

use num_bigint::BigUint;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::game::{random_layout as draw_layout, FirstClick};
use crate::mt::Mt;
use crate::players::{self, PlayError, Player, PlayerMove, View, Why};
use crate::simulate::{self, GameResult, LayoutSource, SimError};
use crate::{deadline, guarded, stop_error, Inconsistent};

create_exception!(
    _native,
    Stuck,
    PyRuntimeError,
    "A round of a native player's moves changed nothing."
);

fn play_error(e: PlayError) -> PyErr {
    match e {
        PlayError::Inconsistent => Inconsistent::new_err("no layout explains the position"),
        PlayError::Stop(s) => stop_error(s),
        PlayError::Invalid(why) => PyValueError::new_err(why),
    }
}

fn sim_error(e: SimError) -> PyErr {
    match e {
        SimError::Play(p) => play_error(p),
        SimError::Stuck { game, moves } => {
            let shown: Vec<String> = moves
                .iter()
                .map(|(k, c)| format!("{} {}", k.name(), c))
                .collect();
            Stuck::new_err(format!(
                "game {game} of the batch: no progress with moves [{}]",
                shown.join(", ")
            ))
        }
        SimError::Move(m) => PyValueError::new_err(format!("the game refused a move: {m:?}")),
        SimError::NoRoom => PyValueError::new_err("the mines do not fit beside the first click"),
        SimError::Invalid(why) => PyValueError::new_err(why),
    }
}

fn rule(name: &str) -> PyResult<FirstClick> {
    FirstClick::parse(name)
        .ok_or_else(|| PyValueError::new_err(format!("first-click rule {name:?}")))
}

/// `best`'s settings from Python: the switches fifty, dead, dominance, second; margin
/// as (numerator, denominator); max_candidates; progress_weight as a fraction.
/// Then latent, latent_weight as a fraction, latent_missing; then (endgame,
/// endgame_layouts, endgame_budget).
type BestSettings = (
    bool,
    bool,
    bool,
    bool,
    (BigUint, BigUint),
    usize,
    (BigUint, BigUint),
    bool,
    (BigUint, BigUint),
    usize,
    (bool, u64, u64),
);

fn make_player(
    name: &str,
    compensated_sum: bool,
    best: Option<&BestSettings>,
) -> PyResult<Box<dyn Player>> {
    match name {
        "greedy" => Ok(Box::new(players::greedy::Greedy::default())),
        "pseq" => Ok(Box::new(players::pseq::Pseq::new(compensated_sum))),
        "best" => {
            let mut options = players::best::Options::default();
            if let Some((
                fifty,
                dead,
                dominance,
                second,
                margin,
                most,
                weight,
                latent,
                lw,
                lm,
                (endgame, endgame_layouts, endgame_budget),
            )) = best
            {
                let zero = BigUint::from(0u8);
                if margin.1 == zero || weight.1 == zero || lw.1 == zero || *most < 1 {
                    return Err(PyValueError::new_err("bad settings of best"));
                }
                options = players::best::Options {
                    endgame: *endgame,
                    endgame_layouts: *endgame_layouts,
                    endgame_budget: *endgame_budget,
                    fifty: *fifty,
                    dead: *dead,
                    dominance: *dominance,
                    second: *second,
                    margin: players::best::Q::new(margin.0.clone(), margin.1.clone()),
                    max_candidates: *most,
                    progress_weight: players::best::Q::new(weight.0.clone(), weight.1.clone()),
                    latent: *latent,
                    latent_weight: players::best::Q::new(lw.0.clone(), lw.1.clone()),
                    latent_missing: *lm,
                };
            }
            Ok(Box::new(players::best::Best::new(options)))
        }
        _ => Err(PyValueError::new_err(format!("no native player {name:?}"))),
    }
}

/// Python's `random.Random` state, natively: the draws the layouts and players make.
#[pyclass(module = "minesolver._native")]
struct MersenneTwister {
    mt: Mt,
}

#[pymethods]
impl MersenneTwister {
    /// `random.Random(seed)` for a non-negative int seed (pass `abs(seed)`).
    #[new]
    fn new(seed: BigUint) -> Self {
        MersenneTwister {
            mt: Mt::from_key(&seed.to_u32_digits()),
        }
    }
    /// From `Random.getstate()[1]`: 624 words then the position.
    #[staticmethod]
    fn from_state(state: Vec<u32>) -> PyResult<Self> {
        let (index, words) = state
            .split_last()
            .ok_or_else(|| PyValueError::new_err("empty state"))?;
        Mt::from_state(words, *index as usize)
            .map(|mt| MersenneTwister { mt })
            .ok_or_else(|| PyValueError::new_err("not a Mersenne Twister state"))
    }
    /// The state as `Random.setstate` takes it in its second item.
    fn state(&self) -> Vec<u32> {
        let (mut words, index) = self.mt.state();
        words.push(index as u32);
        words
    }
    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err("at most 64 bits"));
        }
        Ok(self.mt.getrandbits(k))
    }
    fn randbelow(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("randbelow(0)"));
        }
        Ok(self.mt.randbelow(n))
    }
    fn random(&mut self) -> f64 {
        self.mt.random()
    }
    /// The positions `Random.sample(population, k)` takes from a population of `n`.
    fn sample(&mut self, n: usize, k: usize) -> PyResult<Vec<usize>> {
        if k > n {
            return Err(PyValueError::new_err("sample larger than population"));
        }
        Ok(self.mt.sample(n, k))
    }
}

/// The layout `random_layout` draws from `random.Random(seed)`: sorted mine indices.
#[pyfunction]
fn random_layout(
    width: usize,
    height: usize,
    mines: usize,
    start: usize,
    first_click: &str,
    seed: u64,
) -> PyResult<Vec<u32>> {
    let r = rule(first_click)?;
    let mut mt = Mt::from_u64(seed);
    draw_layout(width, height, mines, start, r, &mut mt)
        .ok_or_else(|| PyValueError::new_err("the mines do not fit beside the first click"))
}

/// `(code, low, tied, p, e, entropy, latent weight)` with each fraction as two ints;
/// code 0 lowest, 1 pseq, 2 fifty-fifty (`tied` the other cell), 3 best's safety
/// (`low` its probability, `tied` the candidates weighed, `p` the score, `e` the
/// progress, `entropy` 1 for second-move safety).
type Reason = (
    u8,
    BigUint,
    BigUint,
    usize,
    BigUint,
    BigUint,
    BigUint,
    BigUint,
    f64,
    BigUint,
    BigUint,
);
type MoveOut = (&'static str, u32, bool, Option<Reason>);

fn move_out(m: PlayerMove) -> MoveOut {
    let why = match m.why {
        Why::Certain => None,
        Why::Lowest { low, tied } => Some((
            0,
            low.num,
            low.den,
            tied,
            0u8.into(),
            1u8.into(),
            0u8.into(),
            1u8.into(),
            0.0,
            1u8.into(),
            1u8.into(),
        )),
        Why::Pseq {
            low,
            tied,
            progress,
            expected,
            entropy,
        } => Some((
            1,
            low.num,
            low.den,
            tied,
            progress.num,
            progress.den,
            expected.num,
            expected.den,
            entropy,
            1u8.into(),
            1u8.into(),
        )),
        Why::Endgame {
            wins,
            layouts,
            probability,
        } => Some((
            4,
            BigUint::from(wins),
            BigUint::from(layouts),
            0,
            probability.num,
            probability.den,
            0u8.into(),
            1u8.into(),
            0.0,
            1u8.into(),
            1u8.into(),
        )),
        Why::FiftyFifty { other } => Some((
            2,
            1u8.into(),
            2u8.into(),
            other as usize,
            0u8.into(),
            1u8.into(),
            0u8.into(),
            1u8.into(),
            0.0,
            1u8.into(),
            1u8.into(),
        )),
        Why::Safety {
            latent_weight,
            second,
            score,
            progress,
            probability,
            weighed,
        } => Some((
            3,
            probability.num,
            probability.den,
            weighed,
            score.num,
            score.den,
            progress.num,
            progress.den,
            if second { 1.0 } else { 0.0 },
            latent_weight.num,
            latent_weight.den,
        )),
    };
    (m.kind.name(), m.cell, m.guess, why)
}

/// A native player (`greedy` or `pseq`) with its own generator in a Python `Random`'s
/// state.
#[pyclass(module = "minesolver._native")]
struct NativePlayer {
    player: Box<dyn Player>,
    mt: Mt,
}

#[pymethods]
impl NativePlayer {
    #[new]
    #[pyo3(signature = (name, compensated_sum=false, best=None))]
    fn new(name: &str, compensated_sum: bool, best: Option<BestSettings>) -> PyResult<Self> {
        Ok(NativePlayer {
            player: make_player(name, compensated_sum, best.as_ref())?,
            mt: Mt::from_u64(0),
        })
    }
    /// Start a new game: forget what the player kept (best's endgame cache).
    fn reset(&mut self) {
        self.player.reset();
    }
    /// Take the generator's state from `Random.getstate()[1]`.
    fn set_state(&mut self, state: Vec<u32>) -> PyResult<()> {
        let (index, words) = state
            .split_last()
            .ok_or_else(|| PyValueError::new_err("empty state"))?;
        self.mt = Mt::from_state(words, *index as usize)
            .ok_or_else(|| PyValueError::new_err("not a Mersenne Twister state"))?;
        Ok(())
    }
    /// The generator's state for `Random.setstate` (624 words then the position).
    fn state(&self) -> Vec<u32> {
        let (mut words, index) = self.mt.state();
        words.push(index as u32);
        words
    }
    /// The moves for a raw position: `(kind, cell index, guess, reason)`.
    #[pyo3(signature = (raw, width, height, mines, deadline_seconds=None))]
    fn next_moves(
        &mut self,
        py: Python<'_>,
        raw: &[u8],
        width: usize,
        height: usize,
        mines: u64,
        deadline_seconds: Option<f64>,
    ) -> PyResult<Vec<MoveOut>> {
        if width == 0 || width.checked_mul(height) != Some(raw.len()) {
            return Err(PyValueError::new_err("the cells do not fill the board"));
        }
        let limit = deadline(deadline_seconds);
        let cells = raw.to_vec();
        let player = &mut self.player;
        let mt = &mut self.mt;
        let result = guarded(py, move || {
            let view = View {
                width,
                height,
                mines,
                raw: &cells,
            };
            player.next_moves(&view, mt, &limit)
        })?;
        Ok(result
            .map_err(play_error)?
            .into_iter()
            .map(move_out)
            .collect())
    }
}

type GameOut = (bool, u32, f64, Vec<(&'static str, u32, bool)>);

/// Play a batch of games natively, the GIL released: per game `(won, guesses, seconds,
/// moves)` (`moves` only with `trace`). Each game's layout is drawn from its seed in
/// `layout_seeds`, or given in `layouts`; its player draws from `player_seeds`.
#[pyfunction]
#[pyo3(signature = (player, width, height, mines, start, first_click, player_seeds,
    layout_seeds=None, layouts=None, trace=false, compensated_sum=false, deadline_seconds=None,
    best=None))]
#[allow(clippy::too_many_arguments)]
fn play_batch(
    py: Python<'_>,
    player: &str,
    width: usize,
    height: usize,
    mines: usize,
    start: usize,
    first_click: &str,
    player_seeds: Vec<u64>,
    layout_seeds: Option<Vec<u64>>,
    layouts: Option<Vec<Vec<u32>>>,
    trace: bool,
    compensated_sum: bool,
    deadline_seconds: Option<f64>,
    best: Option<BestSettings>,
) -> PyResult<Vec<GameOut>> {
    make_player(player, compensated_sum, best.as_ref())?; // an unknown name fails first
    let setup = simulate::Setup {
        width,
        height,
        mines,
        start,
        rule: rule(first_click)?,
    };
    let sources: Vec<LayoutSource> = match (layout_seeds, layouts) {
        (Some(seeds), None) => seeds.into_iter().map(LayoutSource::Seed).collect(),
        (None, Some(given)) => given.into_iter().map(LayoutSource::Given).collect(),
        _ => return Err(PyValueError::new_err("give either layout_seeds or layouts")),
    };
    if sources.len() != player_seeds.len() {
        return Err(PyValueError::new_err("one player seed per game is needed"));
    }
    let games: Vec<(LayoutSource, u64)> = sources.into_iter().zip(player_seeds).collect();
    let limit = deadline(deadline_seconds);
    let name = player.to_owned();
    let result = guarded(py, move || {
        let make = || make_player(&name, compensated_sum, best.as_ref()).expect("checked above");
        simulate::play_batch(&make, &setup, &games, trace, &limit)
    })?;
    let results: Vec<GameResult> = result.map_err(sim_error)?;
    Ok(results
        .into_iter()
        .map(|g| {
            let moves = g
                .moves
                .into_iter()
                .map(|(k, c, q)| (k.name(), c, q))
                .collect();
            (g.won, g.guesses, g.seconds, moves)
        })
        .collect())
}

/// Add the game, player and simulator bindings to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<MersenneTwister>()?;
    m.add_class::<NativePlayer>()?;
    m.add_function(wrap_pyfunction!(random_layout, m)?)?;
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add("Stuck", py.get_type::<Stuck>())?;
    Ok(())
}
