//! Bounds on native work: a deadline checked inside the loops.

use std::time::{Duration, Instant};

/// Why native work stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The caller's time limit passed.
    Deadline,
    /// The count would hold more than [`MAX_TERMS`] polynomial terms in memory.
    TooLarge,
}

/// Most polynomial terms the frontier programme keeps at once (about a gigabyte at
/// worst): far beyond any real position (a 152x3 strip needs a few hundred thousand),
/// a bound on memory where a hostile one would otherwise exhaust it.
pub const MAX_TERMS: usize = 40_000_000;

/// A point in time after which the loops stop (`None`: no limit; the default).
#[derive(Debug, Clone, Copy, Default)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No limit.
    pub fn none() -> Self {
        Deadline(None)
    }

    /// `seconds` from now (a negative, zero or non-finite limit stops at once; a huge
    /// one is no limit).
    pub fn after(seconds: f64) -> Self {
        let now = Instant::now();
        if seconds.is_nan() || seconds <= 0.0 {
            return Deadline(Some(now));
        }
        Deadline(
            Duration::try_from_secs_f64(seconds)
                .ok()
                .and_then(|d| now.checked_add(d)),
        )
    }

    /// `Err(Stop::Deadline)` once the deadline has passed.
    pub fn check(&self) -> Result<(), Stop> {
        match self.0 {
            Some(t) if Instant::now() >= t => Err(Stop::Deadline),
            _ => Ok(()),
        }
    }
}
