//! `minesolver._native`: the exact core in Rust, built by maturin into the one Python
//! package. The bindings here stay thin: arguments in, the GIL released while the plain
//! Rust modules work, results out. Those modules mirror the Python layers they serve:
//!
//! - [`constraints`]: a raw position to equations, boxes and components (layer 2);
//! - [`frontier`]: the frontier count of one component (the `exact` engine, layer 4);
//! - [`combine`]: components and interior under the total (layer 2, `counting`);
//! - [`count`]: each component counted once by shape and the combination in three tiers
//!   of integers; [`ints`] the exact integer types; [`limits`] the deadline;
//! - [`exact`]: the whole analysis;
//! - [`whatif`]: the analyses after a cell shows a digit, many in one call (layer 4, and
//!   the players' what-ifs); [`sample`]: layouts drawn exactly uniformly from a position
//!   (`search`'s rollouts).
//! - [`error`]: the one error of the bindings; [`explain`]: why a position is
//!   inconsistent, as the Python reference's first failing check.
//! - [`mt`]: a Mersenne Twister equal to Python's `random`; [`game`]: layouts from a seed
//!   and the rules of a click (layer 6); [`players`]: `greedy`, `pseq`, `best` and
//!   `search`, with their what-ifs and `best`'s endgame search (layer 7); [`simulate`]: a batch of games
//!   (layer 8). Their bindings are in `play_bindings`.
//! - [`vision`]: the per-pixel kernels of reading a screenshot (layer 8): cells scaled
//!   from an image's running sums, each cell's nearest template; bindings in
//!   `vision_bindings`, on numpy's buffers.
//!
//! Every failure is one [`error::Error`] and becomes a Python exception in one place
//! (`From<Error> for PyErr`): a position no layout explains is `Inconsistent` (a
//! `ValueError` carrying the reference's reason, found by [`explain`]), a
//! deadline that passes `DeadlineExceeded`, a count that would exhaust memory
//! `TooLarge`, a native player that stops making progress `Stuck`, malformed input a
//! `ValueError`, and a bug (a panic, caught; an overflow no big-integer path absorbed)
//! `NativePanic`: never a crash.

pub mod combine;
pub mod constraints;
pub mod count;
pub mod error;
pub mod exact;
pub mod explain;
pub mod frontier;
pub mod hash;
pub mod ints;
pub mod limits;
pub mod whatif;

// the game, the players and the simulator (their bindings in `play_bindings`)
pub mod game;
pub mod mt;
mod play_bindings;
pub mod players;
pub mod sample;
pub mod simulate;
pub mod vision;
mod vision_bindings;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// mimalloc for the core's own allocations (Python's objects keep Python's allocator):
/// an analysis makes many small vectors, and the system allocator took about a third of
/// a native player's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use num_bigint::BigUint;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::constraints::{Board, Shape};
use crate::error::Error;
use crate::limits::Deadline;

create_exception!(
    _native,
    Inconsistent,
    PyValueError,
    "No mine layout explains the position."
);
create_exception!(
    _native,
    DeadlineExceeded,
    PyRuntimeError,
    "The native work passed its deadline."
);
create_exception!(
    _native,
    TooLarge,
    PyRuntimeError,
    "The count would need more memory than the core allows."
);
create_exception!(
    _native,
    NativePanic,
    PyRuntimeError,
    "A bug in the native core."
);
create_exception!(
    _native,
    Stuck,
    PyRuntimeError,
    "A round of a native player's moves changed nothing."
);

/// The one conversion of the core's errors into Python exceptions.
impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        let message = e.to_string();
        match e {
            Error::Inconsistent(why) => inconsistent(message, why),
            Error::Deadline => DeadlineExceeded::new_err(message),
            Error::TooLarge => TooLarge::new_err(message),
            Error::Invalid(_) => PyValueError::new_err(message),
            Error::Stuck { .. } => Stuck::new_err(message),
            Error::Bug(_) => NativePanic::new_err(message),
        }
    }
}

pub(crate) fn deadline(seconds: Option<f64>) -> Deadline {
    seconds.map_or_else(Deadline::none, Deadline::after)
}

/// `Inconsistent` with the reference's reason as attributes: `kind` (`None` when not
/// known), `cells` and `numbers` ([`explain::Contradiction`]).
fn inconsistent(message: String, why: Option<explain::Contradiction>) -> PyErr {
    let err = Inconsistent::new_err(message);
    Python::attach(|py| {
        let value = err.value(py);
        let (kind, cells, numbers) = match why {
            Some(c) => (Some(c.kind), c.cells, c.numbers),
            None => (None, Vec::new(), Vec::new()),
        };
        let set = value
            .setattr("kind", kind)
            .and_then(|()| value.setattr("cells", cells))
            .and_then(|()| value.setattr("numbers", numbers));
        match set {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// `e` with the reference's reason when it is an inconsistency of `board` found by the
/// fast path, which only knows that there is one ([`explain`], a cold path).
pub(crate) fn explained(e: Error, board: &Board, limit: &Deadline) -> Error {
    match e {
        Error::Inconsistent(None) => match explain::explain(board, limit) {
            Ok(why) => Error::Inconsistent(why),
            Err(stop) => stop.into(),
        },
        e => e,
    }
}

/// Run `work` without the GIL, a panic turned into [`Error::Bug`] and any error of the
/// core's modules into [`Error`], then into its Python exception ([`From<Error>`]).
pub(crate) fn guarded<T: Send, E: Into<Error> + Send, F: FnOnce() -> Result<T, E> + Send>(
    py: Python<'_>,
    work: F,
) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Error::Bug(why)
        })?
        .map_err(|e| PyErr::from(e.into()))
}

/// The exact analysis of a position, for the Python wrapper to turn into probabilities
/// on demand (see the `exact` module for what each field means).
#[pyclass(frozen, module = "minesolver._native")]
struct ExactResult {
    inner: exact::Analysis,
}

#[pymethods]
impl ExactResult {
    /// The layouts in the common scale (`layouts = total * C(interior, k_lo) / d`).
    #[getter]
    fn total(&self) -> BigUint {
        self.inner.total.clone()
    }
    #[getter]
    fn k_lo(&self) -> u64 {
        self.inner.k_lo
    }
    #[getter]
    fn d(&self) -> BigUint {
        self.inner.d.clone()
    }
    #[getter]
    fn interior(&self) -> u64 {
        self.inner.interior
    }
    #[getter]
    fn interior_weight(&self) -> BigUint {
        self.inner.interior_weight.clone()
    }
    #[getter]
    fn interior_level(&self) -> Option<u32> {
        self.inner.interior_level
    }
    /// Number of levels (0, 1, and one per uncertain box and interior).
    #[getter]
    fn level_count(&self) -> usize {
        self.inner.weights.len() + 2 + usize::from(self.inner.interior_level.is_some())
    }
    /// Numerator of box level `level` (its denominator is `total`).
    fn weight(&self, level: usize) -> PyResult<BigUint> {
        level
            .checked_sub(2)
            .and_then(|l| self.inner.weights.get(l))
            .cloned()
            .ok_or_else(|| PyValueError::new_err(format!("no box level {level}")))
    }
    /// Each cell's level as little-endian `u32`s (`0xFFFFFFFF`: not an unknown cell).
    /// A `MemoryError` when the bytes cannot be allocated (never a panic).
    fn cell_levels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let levels = &self.inner.cell_level;
        PyBytes::new_with(py, levels.len() * 4, |buf| {
            for (chunk, l) in buf.chunks_exact_mut(4).zip(levels) {
                chunk.copy_from_slice(&l.to_le_bytes());
            }
            Ok(())
        })
    }
    /// Cells certainly safe, in reading order.
    #[getter]
    fn safe(&self) -> Vec<u32> {
        self.inner.safe.clone()
    }
    /// Cells certainly mines, in reading order.
    #[getter]
    fn mines(&self) -> Vec<u32> {
        self.inner.mines.clone()
    }
    /// The number of layouts (`total * C(interior, k_lo) // d`).
    #[getter]
    fn layouts(&self) -> BigUint {
        self.inner.layouts()
    }
    /// The lowest probability below 1 as a `fractions.Fraction` (0 when a cell is
    /// certainly safe), or `None` when every unknown cell is a certain mine.
    fn lowest<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((numerator, denominator)) = self.inner.lowest() else {
            return Ok(None);
        };
        let fraction = py.import("fractions")?.getattr("Fraction")?;
        fraction.call1((numerator, denominator)).map(Some)
    }
}

/// One digit a cell can show and the analysis after it shows it.
#[pyclass(frozen, module = "minesolver._native")]
struct WhatIf {
    digit: u8,
    analysis: Py<ExactResult>,
}

#[pymethods]
impl WhatIf {
    /// The digit the cell shows.
    #[getter]
    fn digit(&self) -> u8 {
        self.digit
    }
    /// The analysis of the position with that digit.
    #[getter]
    fn analysis(&self, py: Python<'_>) -> Py<ExactResult> {
        self.analysis.clone_ref(py)
    }
}

/// The what-ifs of many cells: the parent's analysis, and for each cell asked the digits
/// it can show, by increasing digit (none for a certain mine).
#[pyclass(frozen, module = "minesolver._native")]
struct WhatIfs {
    parent: Py<ExactResult>,
    outcomes: Vec<Vec<Py<WhatIf>>>,
}

#[pymethods]
impl WhatIfs {
    /// The analysis of the position itself.
    #[getter]
    fn parent(&self, py: Python<'_>) -> Py<ExactResult> {
        self.parent.clone_ref(py)
    }
    /// For each cell asked (in the order asked), its outcomes by increasing digit.
    #[getter]
    fn outcomes(&self, py: Python<'_>) -> Vec<Vec<Py<WhatIf>>> {
        self.outcomes
            .iter()
            .map(|cell| cell.iter().map(|o| o.clone_ref(py)).collect())
            .collect()
    }
}

/// One component's exact count: `layouts[k]` layouts with `k` mines, and
/// `box_mines[b][k]` the mines of box `b` summed over those layouts.
#[pyclass(frozen, get_all, module = "minesolver._native")]
struct ComponentCount {
    layouts: Vec<BigUint>,
    box_mines: Vec<Vec<BigUint>>,
}

/// Analyse a raw position (a byte per cell: digit 0-8, 254 flag, 255 hidden) with a
/// known total. Raises `Inconsistent`, `DeadlineExceeded`, `NativePanic`, or
/// `ValueError` for malformed input.
#[pyfunction]
#[pyo3(signature = (raw, width, height, mines, trust_flags=true, deadline_seconds=None))]
fn analyze(
    py: Python<'_>,
    raw: &[u8],
    width: usize,
    height: usize,
    mines: u64,
    trust_flags: bool,
    deadline_seconds: Option<f64>,
) -> PyResult<ExactResult> {
    let cells = raw.to_vec();
    let limit = deadline(deadline_seconds);
    let inner = guarded(py, move || {
        let board = Board {
            width,
            height,
            cells: &cells,
            mines: Some(mines),
            trust_flags,
        };
        exact::analyze(&board, &limit).map_err(|e| explained(e.into(), &board, &limit))
    })?;
    Ok(ExactResult { inner })
}

/// What-ifs of many cells in one call: the analysis of the raw position, and for each
/// of `cells` (hidden cells by index) every digit it can show with the analysis after it
/// (none for a certain mine). Raises like [`analyze`]; `ValueError` for a cell that is
/// not hidden.
#[pyfunction]
#[pyo3(signature = (raw, width, height, mines, cells, trust_flags=true, deadline_seconds=None))]
#[allow(clippy::too_many_arguments)]
fn what_ifs(
    py: Python<'_>,
    raw: &[u8],
    width: usize,
    height: usize,
    mines: u64,
    cells: Vec<usize>,
    trust_flags: bool,
    deadline_seconds: Option<f64>,
) -> PyResult<WhatIfs> {
    let board_cells = raw.to_vec();
    let limit = deadline(deadline_seconds);
    let (parent, outs) = guarded(py, move || {
        let board = Board {
            width,
            height,
            cells: &board_cells,
            mines: Some(mines),
            trust_flags,
        };
        whatif::what_ifs(&board, &cells, &limit).map_err(|e| explained(e.into(), &board, &limit))
    })?;
    let outcomes = outs
        .into_iter()
        .map(|cell| {
            cell.into_iter()
                .map(|(digit, inner)| {
                    let analysis = Py::new(py, ExactResult { inner })?;
                    Py::new(py, WhatIf { digit, analysis })
                })
                .collect::<PyResult<Vec<_>>>()
        })
        .collect::<PyResult<Vec<_>>>()?;
    let parent = Py::new(py, ExactResult { inner: parent })?;
    Ok(WhatIfs { parent, outcomes })
}

/// A component's count for box sizes `sizes` and equations `(boxes, mines)`. Raises
/// `DeadlineExceeded`, `NativePanic`, or `ValueError` for a malformed component.
#[pyfunction]
#[pyo3(name = "count", signature = (sizes, constraints, deadline_seconds=None))]
fn count_component(
    py: Python<'_>,
    sizes: Vec<usize>,
    constraints: Vec<(Vec<u32>, u32)>,
    deadline_seconds: Option<f64>,
) -> PyResult<ComponentCount> {
    let limit = deadline(deadline_seconds);
    let shape = Shape { sizes, constraints };
    let c = guarded(py, move || frontier::count(&shape, &limit))?;
    Ok(ComponentCount {
        layouts: c.layouts,
        box_mines: c.box_mines,
    })
}

/// Panic on purpose (the wrapper's tests check that a panic becomes an error).
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    guarded(py, || -> Result<(), Error> { panic!("a test panic") })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(count_component, m)?)?;
    m.add_function(wrap_pyfunction!(what_ifs, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add_class::<ExactResult>()?;
    m.add_class::<WhatIf>()?;
    m.add_class::<WhatIfs>()?;
    m.add_class::<ComponentCount>()?;
    m.add("Inconsistent", py.get_type::<Inconsistent>())?;
    m.add("DeadlineExceeded", py.get_type::<DeadlineExceeded>())?;
    m.add("NativePanic", py.get_type::<NativePanic>())?;
    m.add("TooLarge", py.get_type::<TooLarge>())?;
    m.add("Stuck", py.get_type::<Stuck>())?;
    m.add("MAX_BOX", frontier::MAX_BOX)?;
    play_bindings::register(m)?;
    vision_bindings::register(m)?;
    Ok(())
}
