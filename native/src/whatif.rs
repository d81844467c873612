//! What-ifs: the analyses of a position after one of its hidden cells is opened and
//! shows a digit, for many cells in one call (mirrors the Python `analyze_after` and the
//! outcomes of `strategy/outcomes.py`).
//!
//! The position is analysed once; for each asked cell that is not a certain mine, every
//! digit its neighbours allow (from the flags and certain mines around it to those plus
//! every uncertain neighbour) is tried: the position with the cell showing the digit is
//! analysed, a digit no layout allows is left out. The layouts of the child are exactly
//! the parent's layouts in which the cell is safe with that many mines around it, so
//! `P(safe and shows d) = layouts(child) / layouts(parent)`.
//!
//! Every analysis of the call shares one [`CountCache`]: a reveal changes only the
//! components next to the cell, so each child recounts one or two components and takes
//! the others from the cache. Cost per child: the reduction (linear in the board), the
//! count of the changed components, and the combination.

use crate::constraints::{Board, FLAG, HIDDEN};
use crate::exact::{analyze_with, check_board, Analysis, CountCache, ExactError, ONE, ZERO};
use crate::limits::Deadline;

/// What one cell can show: `(digit, analysis after it)` by increasing digit.
pub type Outcomes = Vec<(u8, Analysis)>;

/// The digits `cell` could show, from the flags and certain mines around it to those
/// plus every uncertain neighbour (the analyses decide which are possible).
pub fn digit_range(board: &Board, parent: &Analysis, cell: usize) -> (u8, u8) {
    let (mut low, mut high) = (0u8, 0u8);
    for nb in board.neighbours(cell) {
        let v = board.cells[nb];
        let level = parent.cell_level[nb];
        if (v == FLAG && board.trust_flags) || level == ONE {
            low += 1;
            high += 1;
        } else if board.is_unknown(nb) && level != ZERO {
            high += 1;
        }
    }
    (low, high)
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
    let mut cache = CountCache::default();
    let parent = analyze_with(board, &mut cache, deadline)?;
    let mut child_cells = board.cells.to_vec();
    let mut out = Vec::with_capacity(cells.len());
    for &cell in cells {
        let mut outcomes = Vec::new();
        if parent.cell_level[cell] != ONE {
            let (low, high) = digit_range(board, &parent, cell);
            for digit in low..=high {
                deadline.check()?;
                child_cells[cell] = digit;
                let child = Board {
                    cells: &child_cells,
                    ..*board
                };
                match analyze_with(&child, &mut cache, deadline) {
                    Ok(a) => outcomes.push((digit, a)),
                    Err(ExactError::Inconsistent) => {}
                    Err(e) => return Err(e),
                }
            }
            child_cells[cell] = HIDDEN;
        }
        out.push(outcomes);
    }
    Ok((parent, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::tests::raw;
    use crate::exact::analyze;
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
                assert_eq!(fresh.cell_level, a.cell_level);
                assert_eq!(fresh.weights, a.weights);
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
