//! What-ifs: the analyses of a position after one of its hidden cells is opened and
//! shows a digit, for many cells in one call (mirrors the Python `analyze_after` and the
//! outcomes of `strategy/outcomes.py`).
//!
//! The one what-if implementation is the players' ([`crate::players::whatif`]): the
//! position is reduced and counted once; for each asked cell that is not a certain mine,
//! every digit its neighbours allow ([`digit_range`]) is tried by reducing and counting
//! again only the components next to the cell, combined with the others' counts kept;
//! a digit no layout allows is left out. Each child's whole analysis is then read off
//! its combination ([`crate::players::whatif::Child::analysis`]): the probabilities and
//! certain cells of a fresh analysis of the child position (tested equal), its levels
//! numbered its own way. The layouts of the child are exactly the parent's in which the
//! cell is safe with that many mines around it, so
//! `P(safe and shows d) = layouts(child) / layouts(parent)`.
//!
//! Untrusted flags are unknown cells: they are read as hidden ones. Cost: one reduction
//! and count of the position; per child, the reduction and count of the changed
//! components (a few dozen cells), the combination and O(cells) to lay out its levels.

use num_traits::Zero;

use crate::constraints::{Board, FLAG, HIDDEN};
use crate::exact::{check_board, Analysis, ExactError, ONE};
use crate::limits::Deadline;
use crate::players::whatif::{Counts, Parent};
use crate::players::{PlayError, View};

pub use crate::players::pseq::digit_range;

/// What one cell can show: `(digit, analysis after it)` by increasing digit.
pub type Outcomes = Vec<(u8, Analysis)>;

fn exact_error(e: PlayError) -> ExactError {
    match e {
        PlayError::Inconsistent => ExactError::Inconsistent,
        PlayError::Stop(s) => ExactError::Stop(s),
        PlayError::Overflow => ExactError::Overflow,
        PlayError::Invalid(why) => ExactError::Invalid(why),
    }
}

/// The analysis of `board` and, for each of `cells` (hidden cells, by index), its
/// outcomes ([`Outcomes`]; none for a certain mine). `Inconsistent` when no layout
/// explains `board`; `Invalid` for a cell that is off the board or not hidden.
pub fn what_ifs(
    board: &Board,
    cells: &[usize],
    deadline: &Deadline,
) -> Result<(Analysis, Vec<Outcomes>), ExactError> {
    check_board(board)?;
    if let Some(&c) = cells
        .iter()
        .find(|&&c| c >= board.cells.len() || board.cells[c] != HIDDEN)
    {
        return Err(ExactError::Invalid(format!(
            "cell index {c} is not a hidden cell"
        )));
    }
    let raw: Vec<u8> = if board.trust_flags {
        board.cells.to_vec()
    } else {
        let unknown = |v: u8| if v == FLAG { HIDDEN } else { v };
        board.cells.iter().map(|&v| unknown(v)).collect()
    };
    let view = View {
        width: board.width,
        height: board.height,
        mines: board.mines.ok_or(ExactError::NoTotal)?,
        raw: &raw,
    };
    let parent =
        Parent::with_counts(&view, &mut Counts::default(), deadline).map_err(exact_error)?;
    let analysis = parent.analysis(deadline).map_err(exact_error)?;
    let mut out = Vec::with_capacity(cells.len());
    for &cell in cells {
        let mut outcomes = Vec::new();
        if analysis.cell_level[cell] != ONE {
            let (low, high) = digit_range(&view, &analysis, cell);
            for digit in low..=high {
                deadline.check()?;
                if let Some(child) = parent
                    .child(&view, cell, digit, deadline)
                    .map_err(exact_error)?
                {
                    if !child.layouts.is_zero() {
                        outcomes.push((digit, child.analysis(&parent)));
                    }
                }
            }
        }
        out.push(outcomes);
    }
    Ok((analysis, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::exact::{analyze, NOT_UNKNOWN};
    use crate::players::level_ratio;
    use num_bigint::BigUint;

    #[test]
    fn design_example_digits() {
        // the known answer of the design notes: cell (4, 0) shows 0, 1, 2 or 3 with
        // chances 1/12, 1/3, 1/4 and 1/36 of the 72 layouts
        let cells = raw(&["H2HHH", "HHHHH", "112HH", "00HHH", "000HH"]);
        let board = Board {
            width: 5,
            height: 5,
            cells: &cells,
            mines: Some(5),
            trust_flags: true,
        };
        let (parent, outs) = what_ifs(&board, &[4, 6], &Deadline::none()).unwrap();
        assert_eq!(parent.layouts(), BigUint::from(72u8));
        let got: Vec<(u8, BigUint)> = outs[0].iter().map(|(d, a)| (*d, a.layouts())).collect();
        let want: Vec<(u8, BigUint)> = [(0u8, 6u8), (1, 24), (2, 18), (3, 2)]
            .iter()
            .map(|&(d, n)| (d, BigUint::from(n)))
            .collect();
        assert_eq!(got, want);
        // each child equals a fresh analysis of the revealed position
        for (cell, outcomes) in [4usize, 6].iter().zip(&outs) {
            for (d, a) in outcomes {
                let mut c = cells.clone();
                c[*cell] = *d;
                let b = Board { cells: &c, ..board };
                let fresh = analyze(&b, &Deadline::none()).unwrap();
                assert_eq!(fresh.layouts(), a.layouts());
                assert_eq!((&fresh.safe, &fresh.mines), (&a.safe, &a.mines));
                // the same probability in every cell (levels are numbered and scaled
                // each their own way)
                for (i, (&l1, &l2)) in fresh.cell_level.iter().zip(&a.cell_level).enumerate() {
                    if l1 == NOT_UNKNOWN || l2 == NOT_UNKNOWN {
                        assert_eq!(l1, l2, "cell {i}");
                    } else {
                        let (r1, r2) = (level_ratio(&fresh, l1), level_ratio(a, l2));
                        assert_eq!(r1.cmp_exact(&r2), std::cmp::Ordering::Equal, "cell {i}");
                    }
                }
            }
        }
        // (1, 1) is a mine in 5/6 of the layouts: its outcomes add up to 12 layouts
        let safe: BigUint = outs[1].iter().map(|(_, a)| a.layouts()).sum();
        assert_eq!(safe, BigUint::from(12u8));
    }

    #[test]
    fn refuses_cells_that_are_not_hidden() {
        let cells = raw(&["1H"]);
        let board = Board {
            width: 2,
            height: 1,
            cells: &cells,
            mines: Some(1),
            trust_flags: true,
        };
        assert!(matches!(
            what_ifs(&board, &[0], &Deadline::none()),
            Err(ExactError::Invalid(_))
        ));
        assert!(matches!(
            what_ifs(&board, &[2], &Deadline::none()),
            Err(ExactError::Invalid(_))
        ));
        // a certain mine has no outcome
        let (_, outs) = what_ifs(&board, &[1], &Deadline::none()).unwrap();
        assert!(outs[0].is_empty());
    }
}
