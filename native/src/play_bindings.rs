//! Bindings of the game, the players and the batch simulator (kept apart from the
//! analysis bindings in `lib.rs`): a Mersenne Twister equal to Python's `random`, the
//! layouts from a seed, a native player moving on a raw position, and a batch of games in
//! one call with the GIL released. Thin: arguments in, plain Rust modules, results out.

use std::sync::Arc;

use num_bigint::BigUint;
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::game::{random_layout as draw_layout, FirstClick};
use crate::mt::Mt;
use crate::players::best::{Options, Q};
use crate::players::book::{self, BookMove, Layouts};
use crate::players::View;
use crate::players::{self, Player, PlayerMove, Ratio, Why};
use crate::simulate::{self, GameResult, LayoutSource};
use crate::{deadline, guarded};

fn rule(name: &str) -> PyResult<FirstClick> {
    FirstClick::parse(name)
        .ok_or_else(|| PyValueError::new_err(format!("first-click rule {name:?}")))
}

/// `fractions.Fraction`, imported once.
static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `Fraction(num, den)` (reduced by Python, as the Python players make theirs).
fn fraction<'py>(py: Python<'py>, num: &BigUint, den: &BigUint) -> PyResult<Bound<'py, PyAny>> {
    FRACTION
        .import(py, "fractions", "Fraction")?
        .call1((num.clone(), den.clone()))
}

/// A non-negative rational from Python (a `Fraction` or an `int`: anything with
/// `numerator` and `denominator`), as `num / den` with `den > 0`.
fn rational(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Q> {
    let num: BigUint = value.getattr("numerator")?.extract().map_err(|_| {
        PyValueError::new_err(format!("best's {what} must be a non-negative fraction"))
    })?;
    let den: BigUint = value.getattr("denominator")?.extract()?;
    if den == BigUint::from(0u8) {
        return Err(PyValueError::new_err(format!(
            "best's {what} has denominator 0"
        )));
    }
    Ok(Q::new(num, den))
}

/// `best`'s settings, by name (those of the Python `minesolver.strategy.best.Options`
/// but `latent_blocks`, which only the Python player counts).
#[pyclass(frozen, module = "minesolver._native")]
struct BestSettings {
    options: Options,
}

#[pymethods]
impl BestSettings {
    #[new]
    #[pyo3(signature = (*, fifty, dead, dominance, second, margin, max_candidates,
        progress_weight, latent, latent_weight, latent_missing, endgame, endgame_layouts,
        endgame_budget))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        fifty: bool,
        dead: bool,
        dominance: bool,
        second: bool,
        margin: &Bound<'_, PyAny>,
        max_candidates: usize,
        progress_weight: &Bound<'_, PyAny>,
        latent: bool,
        latent_weight: &Bound<'_, PyAny>,
        latent_missing: usize,
        endgame: bool,
        endgame_layouts: u64,
        endgame_budget: u64,
    ) -> PyResult<Self> {
        if max_candidates < 1 {
            return Err(PyValueError::new_err(
                "best's max_candidates must be at least 1",
            ));
        }
        Ok(BestSettings {
            options: Options {
                endgame,
                endgame_layouts,
                endgame_budget,
                fifty,
                dead,
                dominance,
                second,
                margin: rational(margin, "margin")?,
                max_candidates,
                progress_weight: rational(progress_weight, "progress_weight")?,
                latent,
                latent_weight: rational(latent_weight, "latent_weight")?,
                latent_missing,
            },
        })
    }
    #[getter]
    fn fifty(&self) -> bool {
        self.options.fifty
    }
    #[getter]
    fn dead(&self) -> bool {
        self.options.dead
    }
    #[getter]
    fn dominance(&self) -> bool {
        self.options.dominance
    }
    #[getter]
    fn second(&self) -> bool {
        self.options.second
    }
    #[getter]
    fn margin<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let q = &self.options.margin;
        fraction(py, &q.num, &q.den)
    }
    #[getter]
    fn max_candidates(&self) -> usize {
        self.options.max_candidates
    }
    #[getter]
    fn progress_weight<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let q = &self.options.progress_weight;
        fraction(py, &q.num, &q.den)
    }
    #[getter]
    fn latent(&self) -> bool {
        self.options.latent
    }
    #[getter]
    fn latent_weight<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let q = &self.options.latent_weight;
        fraction(py, &q.num, &q.den)
    }
    #[getter]
    fn latent_missing(&self) -> usize {
        self.options.latent_missing
    }
    #[getter]
    fn endgame(&self) -> bool {
        self.options.endgame
    }
    #[getter]
    fn endgame_layouts(&self) -> u64 {
        self.options.endgame_layouts
    }
    #[getter]
    fn endgame_budget(&self) -> u64 {
        self.options.endgame_budget
    }
}

fn make_player(
    name: &str,
    compensated_sum: bool,
    best: Option<&Options>,
    book: Option<&Arc<book::Book>>,
) -> PyResult<Box<dyn Player>> {
    match name {
        "greedy" => Ok(Box::new(players::greedy::Greedy::default())),
        "pseq" => Ok(Box::new(players::pseq::Pseq::new(compensated_sum))),
        "best" => {
            let options = best.cloned().unwrap_or_default();
            Ok(Box::new(players::best::Best::new(options)))
        }
        _ if name.starts_with("search") => {
            let mut options =
                players::search::Options::parse(name).map_err(PyValueError::new_err)?;
            if let Some(b) = best {
                options.best = b.clone();
            }
            let mut search = players::search::Search::new(options)
                .ok_or_else(|| PyValueError::new_err(format!("no rollout player in {name:?}")))?;
            if let Some(b) = book {
                search.set_book(Arc::clone(b));
            }
            Ok(Box::new(search))
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

/// Why a native player made a guess, by name: `kind` is `lowest`, `pseq`, `endgame`,
/// `fifty-fifty` or `safety`, and each kind has its fields (reading another kind's field
/// is an `AttributeError`). Fractions are `fractions.Fraction`s.
#[pyclass(frozen, module = "minesolver._native")]
struct Reason {
    why: Why,
}

impl Reason {
    fn missing(&self, field: &str) -> PyErr {
        PyAttributeError::new_err(format!("a {} reason has no {field}", self.kind()))
    }
}

fn ratio<'py>(py: Python<'py>, r: &Ratio) -> PyResult<Bound<'py, PyAny>> {
    fraction(py, &r.num, &r.den)
}

#[pymethods]
impl Reason {
    /// The kind of guess: `lowest`, `pseq`, `endgame`, `fifty-fifty`, `safety` or
    /// `rollout`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.why {
            Why::Certain => "certain",
            Why::Lowest { .. } => "lowest",
            Why::Pseq { .. } => "pseq",
            Why::Endgame { .. } => "endgame",
            Why::FiftyFifty { .. } => "fifty-fifty",
            Why::Safety { .. } => "safety",
            Why::Rollout { .. } => "rollout",
        }
    }
    /// The mine probability of the cell guessed (`lowest`, `pseq`, `endgame`, `safety`;
    /// 1/2 for `fifty-fifty`).
    #[getter]
    fn probability<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.why {
            Why::Lowest { low, .. } | Why::Pseq { low, .. } => ratio(py, low),
            Why::Endgame { probability, .. }
            | Why::Safety { probability, .. }
            | Why::Rollout { probability, .. } => ratio(py, probability),
            Why::FiftyFifty { .. } => fraction(py, &1u8.into(), &2u8.into()),
            Why::Certain => Err(self.missing("probability")),
        }
    }
    /// How many cells share the lowest probability (`lowest`, `pseq`).
    #[getter]
    fn tied(&self) -> PyResult<usize> {
        match &self.why {
            Why::Lowest { tied, .. } | Why::Pseq { tied, .. } => Ok(*tied),
            _ => Err(self.missing("tied")),
        }
    }
    /// The chance of progress (`pseq`, `safety`).
    #[getter]
    fn progress<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.why {
            Why::Pseq { progress, .. } | Why::Safety { progress, .. } => ratio(py, progress),
            _ => Err(self.missing("progress")),
        }
    }
    /// The expected safe cells a guess opens (`pseq`).
    #[getter]
    fn expected<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.why {
            Why::Pseq { expected, .. } => ratio(py, expected),
            _ => Err(self.missing("expected")),
        }
    }
    /// The entropy of the digit the cell shows (`pseq`).
    #[getter]
    fn entropy(&self) -> PyResult<f64> {
        match &self.why {
            Why::Pseq { entropy, .. } => Ok(*entropy),
            _ => Err(self.missing("entropy")),
        }
    }
    /// Won layouts of the endgame search (`endgame`), won rollouts of the cell guessed
    /// (`rollout`).
    #[getter]
    fn wins(&self) -> PyResult<u64> {
        match &self.why {
            Why::Endgame { wins, .. } | Why::Rollout { wins, .. } => Ok(*wins),
            _ => Err(self.missing("wins")),
        }
    }
    /// Rollouts played from the cell guessed (`rollout`).
    #[getter]
    fn rollouts(&self) -> PyResult<u64> {
        match &self.why {
            Why::Rollout { rollouts, .. } => Ok(*rollouts),
            _ => Err(self.missing("rollouts")),
        }
    }
    /// Won rollouts of `best`'s guess, on the same layouts (`rollout`).
    #[getter]
    fn best_wins(&self) -> PyResult<u64> {
        match &self.why {
            Why::Rollout { best_wins, .. } => Ok(*best_wins),
            _ => Err(self.missing("best_wins")),
        }
    }
    /// Rollouts played from `best`'s guess (`rollout`).
    #[getter]
    fn best_rollouts(&self) -> PyResult<u64> {
        match &self.why {
            Why::Rollout { best_rollouts, .. } => Ok(*best_rollouts),
            _ => Err(self.missing("best_rollouts")),
        }
    }
    /// Layouts the endgame search weighed (`endgame`).
    #[getter]
    fn layouts(&self) -> PyResult<u64> {
        match &self.why {
            Why::Endgame { layouts, .. } => Ok(*layouts),
            _ => Err(self.missing("layouts")),
        }
    }
    /// The other cell of the 50/50, by index (`fifty-fifty`).
    #[getter]
    fn other(&self) -> PyResult<u32> {
        match &self.why {
            Why::FiftyFifty { other } => Ok(*other),
            _ => Err(self.missing("other")),
        }
    }
    /// The safety score of the cell guessed (`safety`).
    #[getter]
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.why {
            Why::Safety { score, .. } => ratio(py, score),
            _ => Err(self.missing("score")),
        }
    }
    /// Whether the score is the second-move safety (`safety`).
    #[getter]
    fn second(&self) -> PyResult<bool> {
        match &self.why {
            Why::Safety { second, .. } => Ok(*second),
            _ => Err(self.missing("second")),
        }
    }
    /// The candidates weighed (`safety`).
    #[getter]
    fn weighed(&self) -> PyResult<usize> {
        match &self.why {
            Why::Safety { weighed, .. } => Ok(*weighed),
            _ => Err(self.missing("weighed")),
        }
    }
    /// The latent 50/50 weight of the cell guessed (`safety`).
    #[getter]
    fn latent_weight<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.why {
            Why::Safety { latent_weight, .. } => ratio(py, latent_weight),
            _ => Err(self.missing("latent_weight")),
        }
    }
    fn __repr__(&self) -> String {
        format!("<native reason {}>", self.kind())
    }
}

/// A move a native player names: `kind` (`open`, `flag`, ...), the cell by index,
/// whether it is a guess, and why (`None` for a certain move, and in a batch's trace).
#[pyclass(frozen, module = "minesolver._native", name = "Move")]
struct NativeMove {
    #[pyo3(get)]
    kind: &'static str,
    #[pyo3(get)]
    cell: u32,
    #[pyo3(get)]
    guess: bool,
    #[pyo3(get)]
    reason: Option<Py<Reason>>,
}

fn move_out(py: Python<'_>, m: PlayerMove) -> PyResult<NativeMove> {
    let reason = match m.why {
        Why::Certain => None,
        why => Some(Py::new(py, Reason { why })?),
    };
    Ok(NativeMove {
        kind: m.kind.name(),
        cell: m.cell,
        guess: m.guess,
        reason,
    })
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
    #[pyo3(signature = (name, compensated_sum=false, best=None, book=None))]
    fn new(
        name: &str,
        compensated_sum: bool,
        best: Option<PyRef<'_, BestSettings>>,
        book: Option<PyRef<'_, Book>>,
    ) -> PyResult<Self> {
        let best = best.as_ref().map(|b| &b.options);
        Ok(NativePlayer {
            player: make_player(name, compensated_sum, best, book.as_ref().map(|b| &b.inner))?,
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
    /// The moves for a raw position.
    #[pyo3(signature = (raw, width, height, mines, deadline_seconds=None))]
    fn next_moves(
        &mut self,
        py: Python<'_>,
        raw: &[u8],
        width: usize,
        height: usize,
        mines: u64,
        deadline_seconds: Option<f64>,
    ) -> PyResult<Vec<NativeMove>> {
        if width == 0 || width.checked_mul(height) != Some(raw.len()) {
            return Err(PyValueError::new_err("the cells do not fill the board"));
        }
        let limit = deadline(deadline_seconds);
        let cells = raw.to_vec();
        let player = &mut self.player;
        let mt = &mut self.mt;
        let moves = guarded(py, move || {
            let view = View {
                width,
                height,
                mines,
                raw: &cells,
            };
            player.next_moves(&view, mt, &limit).map_err(|e| {
                let board = crate::constraints::Board {
                    width,
                    height,
                    cells: &cells,
                    mines: Some(mines),
                    trust_flags: true,
                };
                super::explained(e.into(), &board, &limit)
            })
        })?;
        moves.into_iter().map(|m| move_out(py, m)).collect()
    }
}

/// One game of a native batch: won or lost, the guesses made, the player's seconds
/// (timed inside the core) and, traced, every move it named (without reasons).
#[pyclass(frozen, module = "minesolver._native")]
struct PlayedGame {
    #[pyo3(get)]
    won: bool,
    #[pyo3(get)]
    guesses: u32,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    moves: Vec<Py<NativeMove>>,
}

/// Play a batch of games natively, the GIL released: a [`PlayedGame`] per game (its
/// moves only with `trace`). Each game's layout is drawn from its seed in
/// `layout_seeds`, or given in `layouts`; its player draws from `player_seeds`.
#[pyfunction]
#[pyo3(signature = (player, width, height, mines, start, first_click, player_seeds,
    layout_seeds=None, layouts=None, trace=false, compensated_sum=false, deadline_seconds=None,
    best=None, book=None))]
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
    best: Option<PyRef<'_, BestSettings>>,
    book: Option<PyRef<'_, Book>>,
) -> PyResult<Vec<PlayedGame>> {
    let best: Option<Options> = best.map(|b| b.options.clone());
    let book: Option<Arc<book::Book>> = book.map(|b| Arc::clone(&b.inner));
    make_player(player, compensated_sum, best.as_ref(), book.as_ref())?; // an unknown name fails first
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
    let results: Vec<GameResult> = guarded(py, move || {
        let make = || {
            make_player(&name, compensated_sum, best.as_ref(), book.as_ref())
                .expect("checked above")
        };
        simulate::play_batch(&make, &setup, &games, trace, &limit)
    })?;
    results
        .into_iter()
        .map(|g| {
            let moves = g
                .moves
                .into_iter()
                .map(|(k, cell, guess)| {
                    let m = NativeMove {
                        kind: k.name(),
                        cell,
                        guess,
                        reason: None,
                    };
                    Py::new(py, m)
                })
                .collect::<PyResult<_>>()?;
            Ok(PlayedGame {
                won: g.won,
                guesses: g.guesses,
                seconds: g.seconds,
                moves,
            })
        })
        .collect()
}

/// One position of `search`'s opening book and its move (see `players::book`).
#[pyclass(frozen, module = "minesolver._native")]
struct BookEntry {
    width: usize,
    height: usize,
    mines: u64,
    raw: Vec<u8>,
    entry: BookMove,
}

#[pymethods]
impl BookEntry {
    #[new]
    #[pyo3(signature = (*, width, height, mines, raw, cell, wins, rollouts, best_wins,
        best_rollouts))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        width: usize,
        height: usize,
        mines: u64,
        raw: Vec<u8>,
        cell: u32,
        wins: u64,
        rollouts: u64,
        best_wins: u64,
        best_rollouts: u64,
    ) -> PyResult<Self> {
        if raw.len() != width * height || cell as usize >= raw.len() {
            return Err(PyValueError::new_err(format!(
                "a book position of {} cells on a {width}x{height} board, cell {cell}",
                raw.len()
            )));
        }
        let entry = BookMove {
            cell,
            wins,
            rollouts,
            best_wins,
            best_rollouts,
        };
        Ok(BookEntry {
            width,
            height,
            mines,
            raw,
            entry,
        })
    }
    #[getter]
    fn cell(&self) -> u32 {
        self.entry.cell
    }
}

/// `search`'s opening book: positions and their moves, given to the players that use it.
#[pyclass(frozen, module = "minesolver._native")]
struct Book {
    inner: Arc<book::Book>,
}

#[pymethods]
impl Book {
    #[new]
    fn new(entries: Vec<PyRef<'_, BookEntry>>) -> Self {
        let mut inner = book::Book::default();
        for e in entries {
            inner.insert(e.width, e.height, e.mines, e.raw.clone(), e.entry.clone());
        }
        Book {
            inner: Arc::new(inner),
        }
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// Each of `cells` opened from the raw position, then played out by `player`, on the
/// drawn layouts `first .. first + count` (or, with `every`, on layouts `first ..
/// first + count` of every layout, at most `limit` listed): per cell, won or lost on
/// each layout. The layouts and the player's draws depend on `seed` and the range only.
#[pyfunction]
#[pyo3(signature = (raw, width, height, mines, cells, player, seed, first, count, every=false,
    limit=100_000, compensated_sum=false, deadline_seconds=None))]
#[allow(clippy::too_many_arguments)]
fn book_rollouts(
    py: Python<'_>,
    raw: Vec<u8>,
    width: usize,
    height: usize,
    mines: u64,
    cells: Vec<u32>,
    player: &str,
    seed: u64,
    first: u64,
    count: u64,
    every: bool,
    limit: usize,
    compensated_sum: bool,
    deadline_seconds: Option<f64>,
) -> PyResult<Vec<Vec<bool>>> {
    if raw.len() != width * height {
        return Err(PyValueError::new_err(
            "the position's cells do not fill the board",
        ));
    }
    let mut rollout = make_player(player, compensated_sum, None, None)?;
    let which = if every {
        let first = usize::try_from(first).map_err(|_| PyValueError::new_err("first"))?;
        let count = usize::try_from(count).map_err(|_| PyValueError::new_err("count"))?;
        Layouts::Every {
            first,
            count,
            limit,
        }
    } else {
        Layouts::Drawn { first, count }
    };
    let limit_at = deadline(deadline_seconds);
    guarded(py, move || {
        let view = View {
            width,
            height,
            mines,
            raw: &raw,
        };
        book::rollouts(&view, &cells, rollout.as_mut(), seed, which, &limit_at)
    })
}

/// The number of layouts of the raw position when at most `limit` (else `None`).
#[pyfunction]
#[pyo3(signature = (raw, width, height, mines, limit))]
fn book_layout_count(
    py: Python<'_>,
    raw: Vec<u8>,
    width: usize,
    height: usize,
    mines: u64,
    limit: usize,
) -> PyResult<Option<usize>> {
    if raw.len() != width * height {
        return Err(PyValueError::new_err(
            "the position's cells do not fill the board",
        ));
    }
    guarded(py, move || {
        let view = View {
            width,
            height,
            mines,
            raw: &raw,
        };
        book::every_layout_count(&view, limit, &crate::limits::Deadline::none())
    })
}

/// The rollout player's seed on a layout (its sorted mines) in a book built from `seed`.
#[pyfunction]
fn book_layout_seed(seed: u64, mines: Vec<u32>) -> u64 {
    book::layout_seed(seed, &mines)
}

/// Add the game, player and simulator bindings to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MersenneTwister>()?;
    m.add_class::<NativePlayer>()?;
    m.add_class::<BestSettings>()?;
    m.add_class::<Reason>()?;
    m.add_class::<NativeMove>()?;
    m.add_class::<PlayedGame>()?;
    m.add_function(wrap_pyfunction!(random_layout, m)?)?;
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add_class::<BookEntry>()?;
    m.add_class::<Book>()?;
    m.add_function(wrap_pyfunction!(book_rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(book_layout_count, m)?)?;
    m.add_function(wrap_pyfunction!(book_layout_seed, m)?)?;
    Ok(())
}
