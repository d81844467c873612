//! Why a position is inconsistent, in the terms of the Python reference
//! (`minesolver.constraints.build`, then the count of each component and the combination
//! under the total): the first check of the reference that fails, with the cells and
//! numbers its message names. The fast reduction ([`crate::constraints`]) only says *that*
//! no layout exists (its work list meets a contradiction in another order); this cold
//! path, run once when it does, follows the reference's order step by step, so the
//! Python wrapper words the very message the reference would, without running it.
//!
//! Steps, as the reference takes them: the flags against the total; each digit against
//! its neighbours (reading order); the forced cells propagated in rounds (every equation
//! owing 0 or all of its cells at once); equations over the same cells; the forced mines
//! against the total; each component counted (components ordered by their first cell);
//! the total against what the components and the interior can hold.
//! Cost: O(cells + rounds * equations) and the counts of the components
//! ([`crate::frontier`]), under the caller's deadline.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::constraints::{Board, Shape, FLAG, HIDDEN};
use crate::frontier::{self, CountError};
use crate::limits::{Deadline, Stop};

/// The failing check of the reference, with what its message names: `kind` and, by
/// kind, `cells` (indices) and `numbers`:
///
/// - `flags`: numbers `[flags, total]`;
/// - `flags-around`: the digit's cell; `[digit, flags around it]`;
/// - `no-room`: the digit's cell; `[digit]`;
/// - `short`: the digit's cell; `[digit, mines it still needs, unknown neighbours]`;
/// - `clash`: the cell forced both safe and a mine;
/// - `unsatisfiable`: the digit's cell; `[digit, 1 for too many mines else 0]`;
/// - `same-cells`: two digits' cells; `[digit, other digit, mines, other mines]`;
/// - `forced`: `[forced mines, mines left after the flags]`;
/// - `component`: the first digit of the component with no layout; `[digit]`;
/// - `total`: `[total, mines left, least and most the components hold, interior]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    pub kind: &'static str,
    pub cells: Vec<u32>,
    pub numbers: Vec<u64>,
}

fn found(
    kind: &'static str,
    cells: Vec<u32>,
    numbers: Vec<u64>,
) -> Result<Option<Contradiction>, Stop> {
    Ok(Some(Contradiction {
        kind,
        cells,
        numbers,
    }))
}

/// The reference's first failing check on `board` (a checked board: its cells fill it),
/// `None` when every check passes (the position is consistent).
pub fn explain(board: &Board, deadline: &Deadline) -> Result<Option<Contradiction>, Stop> {
    let cells = board.cells;
    let (w, h) = (board.width, board.height);
    let n = cells.len();
    let trust = board.trust_flags;
    let flag_count = if trust {
        cells.iter().filter(|&&v| v == FLAG).count() as u64
    } else {
        0
    };
    let mut mines_left: Option<i64> = board.mines.map(|m| m as i64 - flag_count as i64);
    if let (Some(left), Some(total)) = (mines_left, board.mines) {
        if left < 0 {
            return found("flags", vec![], vec![flag_count, total]);
        }
    }
    let split = trust && flag_count > 0;
    let unknown = |v: u8| v == HIDDEN || (v == FLAG && !trust);
    let neighbours = |i: usize| {
        let (x, y) = (i % w, i / w);
        let ys = y.saturating_sub(1)..(y + 2).min(h);
        ys.flat_map(move |yy| {
            let xs = x.saturating_sub(1)..(x + 2).min(w);
            xs.filter_map(move |xx| (xx != x || yy != y).then_some(yy * w + xx))
        })
    };

    // each digit against its neighbours: the first too many flags, the first too few
    // cells, in reading order (the earlier of the two is reported)
    let mut near = vec![0u64; n];
    let mut flags_near = vec![0u64; n];
    let mut over = None;
    let mut short = None;
    for i in 0..n {
        let d = cells[i];
        if d > 8 {
            continue;
        }
        for j in neighbours(i) {
            if cells[j] == HIDDEN || cells[j] == FLAG {
                near[i] += 1;
            }
            if split && cells[j] == FLAG {
                flags_near[i] += 1;
            }
        }
        if over.is_none() && split && flags_near[i] > u64::from(d) {
            over = Some(i);
        }
        if short.is_none() && u64::from(d) > near[i] {
            short = Some(i);
        }
    }
    if let Some(o) = over {
        if short.is_none_or(|s| o < s) {
            return found(
                "flags-around",
                vec![o as u32],
                vec![u64::from(cells[o]), flags_near[o]],
            );
        }
    }
    if let Some(s) = short {
        let d = u64::from(cells[s]);
        if near[s] == 0 {
            return found("no-room", vec![s as u32], vec![d]);
        }
        let flagged = flags_near[s];
        return found(
            "short",
            vec![s as u32],
            vec![d, d - flagged, near[s] - flagged],
        );
    }

    // the equations: each digit with a hidden or flagged neighbour, over its unknown ones
    let mut origin: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut value: Vec<i64> = Vec::new();
    for i in 0..n {
        let d = cells[i];
        if d > 8 || near[i] == 0 {
            continue;
        }
        let m: Vec<u32> = neighbours(i)
            .filter(|&j| unknown(cells[j]))
            .map(|j| j as u32)
            .collect();
        if split && m.is_empty() {
            continue;
        }
        origin.push(i);
        value.push(i64::from(d) - flags_near[i] as i64);
        members.push(m);
    }

    // forced cells in rounds: all the equations owing nothing, all the full ones, at once
    const SAFE: u8 = 1;
    const MINE: u8 = 2;
    let mut mark = vec![0u8; n]; // this round: SAFE, MINE or both
    let mut forced_mines = 0u64;
    let mut forced = vec![false; n];
    let mut pending: Vec<usize> = (0..members.len()).collect();
    loop {
        deadline.check()?;
        let mut changed: Vec<u32> = Vec::new();
        let mut rest = Vec::new();
        for &e in &pending {
            let fixed = if value[e] == 0 {
                SAFE
            } else if value[e] == members[e].len() as i64 {
                MINE
            } else {
                rest.push(e);
                continue;
            };
            for &c in &members[e] {
                if mark[c as usize] == 0 {
                    changed.push(c);
                }
                mark[c as usize] |= fixed;
            }
        }
        if changed.is_empty() {
            break;
        }
        if let Some(&c) = changed
            .iter()
            .filter(|&&c| mark[c as usize] == SAFE | MINE)
            .min()
        {
            return found("clash", vec![c], vec![]);
        }
        for &c in &changed {
            forced[c as usize] = true;
            if mark[c as usize] == MINE {
                forced_mines += 1;
            }
        }
        for &e in &rest {
            let mines = members[e]
                .iter()
                .filter(|&&c| mark[c as usize] == MINE)
                .count() as i64;
            value[e] -= mines;
            members[e].retain(|&c| mark[c as usize] == 0);
            if value[e] < 0 || value[e] > members[e].len() as i64 {
                let o = origin[e];
                let too_many = u64::from(value[e] < 0);
                return found(
                    "unsatisfiable",
                    vec![o as u32],
                    vec![u64::from(cells[o]), too_many],
                );
            }
        }
        for &c in &changed {
            mark[c as usize] = 0;
        }
        pending = rest;
    }

    // equations over the same cells, kept once; two of them owing different mines fail
    let mut by_cells: HashMap<&[u32], usize> = HashMap::new();
    let mut live: Vec<usize> = Vec::new();
    for &e in &pending {
        if members[e].is_empty() {
            continue;
        }
        match by_cells.get(members[e].as_slice()) {
            None => {
                by_cells.insert(members[e].as_slice(), e);
                live.push(e);
            }
            Some(&other) if value[other] != value[e] => {
                let (a, b) = (origin[e], origin[other]);
                let numbers = vec![
                    u64::from(cells[a]),
                    u64::from(cells[b]),
                    value[e] as u64,
                    value[other] as u64,
                ];
                return found("same-cells", vec![a as u32, b as u32], numbers);
            }
            Some(_) => {}
        }
    }
    if let Some(left) = mines_left.as_mut() {
        *left -= forced_mines as i64;
        if *left < 0 {
            let before = (*left + forced_mines as i64) as u64;
            return found("forced", vec![], vec![forced_mines, before]);
        }
    }

    // components: the live equations joined through shared cells, ordered by first cell
    let mut eqs_of: HashMap<u32, Vec<usize>> = HashMap::new(); // cell -> live equations
    for (k, &e) in live.iter().enumerate() {
        for &c in &members[e] {
            eqs_of.entry(c).or_default().push(k);
        }
    }
    let mut parent: Vec<usize> = (0..live.len()).collect();
    fn find(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    let mut constrained: Vec<u32> = eqs_of.keys().copied().collect();
    constrained.sort_unstable();
    for c in &constrained {
        let eqs = &eqs_of[c];
        let ra = find(&mut parent, eqs[0]);
        for &k in &eqs[1..] {
            let rb = find(&mut parent, k);
            if rb != ra {
                parent[rb] = ra;
            }
        }
    }
    // per component (by root, in the order of its first cell): its cells in order
    let mut order: Vec<usize> = Vec::new();
    let mut comp_cells: HashMap<usize, Vec<u32>> = HashMap::new();
    for &c in &constrained {
        let root = find(&mut parent, eqs_of[&c][0]);
        let list = comp_cells.entry(root).or_insert_with(|| {
            order.push(root);
            Vec::new()
        });
        list.push(c);
    }
    let mut supports: Vec<(usize, usize, Vec<bool>)> = Vec::new(); // (low, high, support)
    for root in order {
        let comp = &comp_cells[&root];
        // boxes: the component's cells grouped by their equations
        let mut box_of_sig: HashMap<&[usize], u32> = HashMap::new();
        let mut sizes: Vec<usize> = Vec::new();
        let mut box_of_cell: HashMap<u32, u32> = HashMap::new();
        for c in comp {
            let sig = eqs_of[c].as_slice();
            let b = *box_of_sig.entry(sig).or_insert_with(|| {
                sizes.push(0);
                (sizes.len() - 1) as u32
            });
            sizes[b as usize] += 1;
            box_of_cell.insert(*c, b);
        }
        let first_eq = eqs_of[&comp[0]][0];
        let mut eq_ids: Vec<usize> = comp
            .iter()
            .flat_map(|c| eqs_of[c].iter().copied())
            .collect();
        eq_ids.sort_unstable();
        eq_ids.dedup();
        let constraints: Vec<(Vec<u32>, u32)> = eq_ids
            .iter()
            .map(|&k| {
                let e = live[k];
                let mut boxes: Vec<u32> = members[e].iter().map(|c| box_of_cell[c]).collect();
                boxes.sort_unstable();
                boxes.dedup();
                (boxes, value[e] as u32)
            })
            .collect();
        let shape = Shape { sizes, constraints };
        let layouts = match frontier::count(&shape, deadline) {
            Ok(c) => c.layouts,
            Err(CountError::Stop(s)) => return Err(s),
            Err(_) => return Ok(None), // cannot happen for a board's component
        };
        let support: Vec<bool> = layouts.iter().map(|v: &BigUint| !v.is_zero()).collect();
        let (Some(low), Some(high)) = (
            support.iter().position(|&s| s),
            support.iter().rposition(|&s| s),
        ) else {
            let o = origin[live[first_eq]];
            return found("component", vec![o as u32], vec![u64::from(cells[o])]);
        };
        supports.push((low, high, support));
    }

    // the total against the components and the interior
    let Some(left) = mines_left else {
        return Ok(None);
    };
    let interior = (0..n)
        .filter(|&i| unknown(cells[i]) && !forced[i] && !eqs_of.contains_key(&(i as u32)))
        .count() as i64;
    let mut reach = vec![true]; // reach[s]: some layouts of the components hold s mines
    for (_, _, support) in &supports {
        deadline.check()?;
        let mut next = vec![false; reach.len() + support.len() - 1];
        for (a, &ra) in reach.iter().enumerate() {
            if ra {
                for (b, &sb) in support.iter().enumerate() {
                    if sb {
                        next[a + b] = true;
                    }
                }
            }
        }
        reach = next;
    }
    let fits = reach
        .iter()
        .enumerate()
        .any(|(s, &r)| r && s as i64 <= left && left - s as i64 <= interior);
    if fits {
        return Ok(None);
    }
    let low: usize = supports.iter().map(|s| s.0).sum();
    let high: usize = supports.iter().map(|s| s.1).sum();
    let total = board.mines.unwrap_or(0);
    found(
        "total",
        vec![],
        vec![total, left as u64, low as u64, high as u64, interior as u64],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(text: &str, mines: u64) -> Option<Contradiction> {
        let rows: Vec<&str> = text.split('/').collect();
        let cells: Vec<u8> = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'H' => HIDDEN,
                b'F' => FLAG,
                d => d - b'0',
            })
            .collect();
        let board = Board {
            width: rows[0].len(),
            height: rows.len(),
            cells: &cells,
            mines: Some(mines),
            trust_flags: true,
        };
        explain(&board, &Deadline::none()).unwrap()
    }

    #[test]
    fn each_check_names_what_the_reference_names() {
        let case = |t, m| {
            let c = why(t, m).expect("inconsistent");
            (c.kind, c.cells, c.numbers)
        };
        assert_eq!(case("2/H", 1), ("short", vec![0], vec![2, 2, 1]));
        assert_eq!(case("010", 1), ("no-room", vec![1], vec![1]));
        assert_eq!(case("F0H", 1), ("flags-around", vec![1], vec![0, 1]));
        assert_eq!(case("FF", 1), ("flags", vec![], vec![2, 1]));
        assert_eq!(case("1H", 0), ("forced", vec![], vec![1, 0]));
        assert_eq!(case("H1HH1H", 1), ("total", vec![], vec![1, 1, 2, 2, 0]));
        assert_eq!(case("HHH/131", 3), ("unsatisfiable", vec![3], vec![1, 1]));
        assert_eq!(case("000/111/H2F", 1), ("clash", vec![6], vec![]));
        assert_eq!(case("H1H/232/FHF", 3), ("component", vec![1], vec![1]));
        assert_eq!(why("H2HHH/HHHHH/112HH/00HHH/000HH", 5), None); // the 72 layouts
    }
}
