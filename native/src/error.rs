//! The one error the bindings raise: every failure of the core's modules (a count, an
//! analysis, a player, a batch of games) becomes an [`Error`], and [`Error`] alone
//! becomes a Python exception (in `lib.rs`), so each failure has one class and one
//! wording wherever it happens.
//!
//! An overflow is not among them: every count is redone in `BigUint` when a fast type
//! overflows, and `BigUint` never does. Should one still reach the boundary (a bug: a
//! tier skipped), it is [`Error::Bug`], the same as a caught panic, in every caller.

use crate::exact::ExactError;
use crate::explain::Contradiction;
use crate::frontier::CountError;
use crate::limits::Stop;
use crate::players::PlayError;
use crate::simulate::SimError;

/// Why native work failed, as the Python wrapper is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// No mine layout explains the position; the reference's reason when the binding
    /// found it ([`crate::explain`]).
    Inconsistent(Option<Contradiction>),
    /// The caller's time limit passed.
    Deadline,
    /// The count would hold more polynomial terms than [`crate::limits::MAX_TERMS`].
    TooLarge,
    /// Malformed input: the message says what.
    Invalid(String),
    /// A round of a native player's moves changed nothing (game `game` of a batch).
    Stuck { game: usize, moves: Vec<String> },
    /// A bug in the core: a caught panic, or an overflow no tier absorbed.
    Bug(String),
}

impl From<crate::vision::Invalid> for Error {
    fn from(e: crate::vision::Invalid) -> Self {
        Error::Invalid(e.0)
    }
}

impl From<Stop> for Error {
    fn from(s: Stop) -> Self {
        match s {
            Stop::Deadline => Error::Deadline,
            Stop::TooLarge => Error::TooLarge,
        }
    }
}

/// An overflow no tier absorbed, from whichever module it reached.
fn overflow() -> Error {
    Error::Bug("a count overflowed in big integers".into())
}

impl From<CountError> for Error {
    fn from(e: CountError) -> Self {
        match e {
            CountError::Stop(s) => s.into(),
            CountError::Overflow => overflow(),
            CountError::Invalid(why) => Error::Invalid(why),
        }
    }
}

impl From<ExactError> for Error {
    fn from(e: ExactError) -> Self {
        match e {
            ExactError::Inconsistent => Error::Inconsistent(None),
            ExactError::Stop(s) => s.into(),
            ExactError::NoTotal => Error::Invalid("the total is unknown".into()),
            ExactError::Overflow => overflow(),
            ExactError::Invalid(why) => Error::Invalid(why),
        }
    }
}

impl From<PlayError> for Error {
    fn from(e: PlayError) -> Self {
        match e {
            PlayError::Inconsistent => Error::Inconsistent(None),
            PlayError::Stop(s) => s.into(),
            PlayError::Overflow => overflow(),
            PlayError::Invalid(why) => Error::Invalid(why),
        }
    }
}

impl From<SimError> for Error {
    fn from(e: SimError) -> Self {
        match e {
            SimError::Play(p) => p.into(),
            SimError::Stuck { game, moves } => Error::Stuck {
                game,
                moves: moves
                    .iter()
                    .map(|(k, c)| format!("{} {}", k.name(), c))
                    .collect(),
            },
            SimError::Move(m) => Error::Invalid(format!("the game refused a move: {m:?}")),
            SimError::NoRoom => {
                Error::Invalid("the mines do not fit beside the first click".into())
            }
            SimError::Invalid(why) => Error::Invalid(why),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Inconsistent(_) => write!(f, "no layout explains the position"),
            Error::Deadline => write!(f, "the time limit passed during the count"),
            Error::TooLarge => write!(
                f,
                "the exact count would hold more than {} polynomial terms in memory",
                crate::limits::MAX_TERMS
            ),
            Error::Invalid(why) => write!(f, "{why}"),
            Error::Stuck { game, moves } => write!(
                f,
                "game {game} of the batch: no progress with moves [{}]",
                moves.join(", ")
            ),
            Error::Bug(why) => write!(f, "the native core failed: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overflow_is_the_same_error_from_every_module() {
        let from_count = Error::from(CountError::Overflow);
        let from_exact = Error::from(ExactError::Overflow);
        let from_play = Error::from(PlayError::from(ExactError::Overflow));
        let from_sim = Error::from(SimError::Play(PlayError::Overflow));
        assert!(matches!(from_count, Error::Bug(_)));
        assert_eq!(from_count, from_exact);
        assert_eq!(from_count, from_play);
        assert_eq!(from_count, from_sim);
    }

    #[test]
    fn stops_and_inconsistencies_keep_their_kind() {
        assert_eq!(Error::from(Stop::Deadline), Error::Deadline);
        assert_eq!(
            Error::from(ExactError::Stop(Stop::TooLarge)),
            Error::TooLarge
        );
        assert_eq!(
            Error::from(PlayError::Inconsistent),
            Error::Inconsistent(None)
        );
        assert_eq!(
            Error::from(ExactError::Inconsistent),
            Error::Inconsistent(None)
        );
        assert_eq!(
            Error::from(ExactError::Invalid("cell value 9".into())),
            Error::Invalid("cell value 9".into())
        );
    }
}
