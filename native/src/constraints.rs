//! The digits of a position as equations over its unknown cells, reduced to components
//! of boxes (mirrors the Python layer 2 module `constraints`).
//!
//! 1. every revealed digit next to an unknown cell gives an equation (its unknown
//!    neighbours hold `digit - trusted flags around it` mines), each checked on its own;
//! 2. forced cells are propagated to a fixed point with a work list: an equation owing
//!    0 mines makes its cells safe, one owing as many as it has cells makes them mines;
//! 3. cells with the same set of equations form a *box* (interchangeable cells: a box of
//!    `s` cells holding `k` mines stands for `C(s, k)` layouts); equations over the same
//!    boxes are merged;
//! 4. components by union-find over the boxes of each equation.
//!
//! Any contradiction found on the way is [`Inconsistent`]: the binding then finds the
//! reference's reason with [`crate::explain`].
//! Cost: O(cells + sum of equation sizes), near-linear.

/// Byte of a flagged cell in a raw position (a digit is itself).
pub const FLAG: u8 = 254;
/// Byte of a hidden cell in a raw position.
pub const HIDDEN: u8 = 255;

/// No mine layout explains the position (`crate::explain` says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inconsistent;

/// What the raw position says: a byte per cell in row-major order.
#[derive(Debug, Clone, Copy)]
pub struct Board<'a> {
    pub width: usize,
    pub height: usize,
    pub cells: &'a [u8],
    /// Total mines on the board (flags included), `None` when unknown.
    pub mines: Option<u64>,
    /// Flags count as mines; otherwise they are unknown cells like hidden ones.
    pub trust_flags: bool,
}

impl Board<'_> {
    /// Is cell `i` unknown (hidden, or a flag that is not trusted)?
    pub fn is_unknown(&self, i: usize) -> bool {
        let v = self.cells[i];
        v == HIDDEN || (v == FLAG && !self.trust_flags)
    }

    /// The up to 8 neighbours of cell `i`, in reading order.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i % w, i / w);
        let ys = y.saturating_sub(1)..(y + 2).min(h);
        ys.flat_map(move |yy| {
            let xs = x.saturating_sub(1)..(x + 2).min(w);
            xs.filter_map(move |xx| (xx != x || yy != y).then_some(yy * w + xx))
        })
    }
}

/// An independent group of equations over boxes.
///
/// `sizes[b]` is the number of cells of box `b`; `constraints[c]` is `(boxes, mines)`:
/// the boxes of equation `c` hold exactly `mines` mines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shape {
    pub sizes: Vec<usize>,
    pub constraints: Vec<(Vec<u32>, u32)>,
}

/// A component: its shape, and the cells of each box.
#[derive(Debug, Clone)]
pub struct Component {
    pub shape: Shape,
    pub cells: Vec<Vec<u32>>,
}

/// A position reduced to what the count needs.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    pub components: Vec<Component>,
    /// Unknown cells in no equation (one shared probability), in reading order.
    pub interior: Vec<u32>,
    pub forced_safe: Vec<u32>,
    pub forced_mines: Vec<u32>,
    /// Mines among the unknown cells that are neither forced nor flagged; `None` when
    /// the total is unknown.
    pub mines_left: Option<u64>,
}

const UNDECIDED: u8 = 0;
const SAFE: u8 = 1;
const MINE: u8 = 2;

/// Reduce a board to components, interior and forced cells (steps 1-4 above).
pub fn build(board: &Board) -> Result<Problem, Inconsistent> {
    let n = board.cells.len();
    let cells = board.cells;
    let trust = board.trust_flags;
    let flags = if trust {
        cells.iter().filter(|&&v| v == FLAG).count() as u64
    } else {
        0
    };
    let mut mines_left = match board.mines {
        Some(m) => Some(m.checked_sub(flags).ok_or(Inconsistent)?),
        None => None,
    };

    // 1. equations, in CSR form: the cells of equation e are eq_cells[start[e]..start[e+1]]
    let (w, h) = (board.width, board.height);
    // per cell: 1 unknown, 2 trusted flag, 0 otherwise
    let kind: Vec<u8> = cells
        .iter()
        .map(|&v| match v {
            HIDDEN => 1,
            FLAG if trust => 2,
            FLAG => 1,
            _ => 0,
        })
        .collect();
    let mut eq_cells: Vec<u32> = Vec::with_capacity(n);
    let mut start: Vec<usize> = Vec::with_capacity(n / 2 + 1);
    start.push(0);
    let mut value: Vec<i32> = Vec::with_capacity(n / 2);
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(1), (y + 1).min(h - 1));
        for x in 0..w {
            let i = y * w + x;
            let d = cells[i];
            if d > 8 {
                continue;
            }
            let (x0, x1) = (x.saturating_sub(1), (x + 1).min(w - 1));
            let before = eq_cells.len();
            let mut flagged = 0i32;
            for yy in y0..=y1 {
                let row = yy * w;
                for (j, &k) in kind[row + x0..=row + x1].iter().enumerate() {
                    if k == 1 {
                        eq_cells.push((row + x0 + j) as u32);
                    } else {
                        flagged += i32::from(k >> 1);
                    }
                }
            }
            let unknown_near = (eq_cells.len() - before) as i32;
            let need = i32::from(d) - flagged;
            if need < 0 || need > unknown_near {
                return Err(Inconsistent);
            }
            if unknown_near > 0 {
                start.push(eq_cells.len());
                value.push(need);
            }
        }
    }
    let equations = value.len();

    // 2. forced cells, propagated with a work list
    let mut eqs_of_cell_start = vec![0u32; n + 1];
    for &c in &eq_cells {
        eqs_of_cell_start[c as usize + 1] += 1;
    }
    for i in 0..n {
        eqs_of_cell_start[i + 1] += eqs_of_cell_start[i];
    }
    // filled from the last equation back, each cell's list ends in increasing order and
    // its start pointer ends where the list starts
    let mut eqs_of_cell = vec![0u32; eq_cells.len()];
    for c in 0..n {
        eqs_of_cell_start[c] = eqs_of_cell_start[c + 1];
    }
    for e in (0..equations).rev() {
        for &c in &eq_cells[start[e]..start[e + 1]] {
            let at = &mut eqs_of_cell_start[c as usize];
            *at -= 1;
            eqs_of_cell[*at as usize] = e as u32;
        }
    }
    let eqs_of =
        |c: usize| &eqs_of_cell[eqs_of_cell_start[c] as usize..eqs_of_cell_start[c + 1] as usize];
    let mut state = vec![UNDECIDED; n];
    let mut open: Vec<i32> = start.windows(2).map(|s| (s[1] - s[0]) as i32).collect();
    let mut work: Vec<u32> = (0..equations as u32).rev().collect();
    let mut queued = vec![true; equations];
    let mut forced_safe = Vec::new();
    let mut forced_mines = Vec::new();
    while let Some(e) = work.pop() {
        let e = e as usize;
        queued[e] = false;
        let fixed = if value[e] == 0 {
            SAFE
        } else if value[e] == open[e] {
            MINE
        } else {
            continue;
        };
        if open[e] == 0 {
            continue;
        }
        for &c in &eq_cells[start[e]..start[e + 1]] {
            let c = c as usize;
            if state[c] != UNDECIDED {
                continue;
            }
            state[c] = fixed;
            if fixed == SAFE {
                forced_safe.push(c as u32);
            } else {
                forced_mines.push(c as u32);
            }
            for &f in eqs_of(c) {
                let f = f as usize;
                open[f] -= 1;
                if fixed == MINE {
                    value[f] -= 1;
                }
                if value[f] < 0 || value[f] > open[f] {
                    return Err(Inconsistent);
                }
                if !queued[f] {
                    queued[f] = true;
                    work.push(f as u32);
                }
            }
        }
    }
    forced_safe.sort_unstable();
    forced_mines.sort_unstable();
    if let Some(left) = mines_left {
        mines_left = Some(
            left.checked_sub(forced_mines.len() as u64)
                .ok_or(Inconsistent)?,
        );
    }

    // 3. boxes: undecided cells of live equations, grouped by their live equations. A
    // cell is in at most 8 equations (one per digit around it): fixed-size signatures,
    // found among the boxes whose signature starts with the same equation (a few)
    let mut box_of_cell = vec![u32::MAX; n];
    let mut box_cells: Vec<Vec<u32>> = Vec::new();
    let mut box_sig: Vec<[u32; 8]> = Vec::new();
    let mut next_box: Vec<u32> = Vec::new(); // the next box with the same first equation
    let mut first_box = vec![u32::MAX; equations];
    for c in 0..n {
        if state[c] != UNDECIDED {
            continue;
        }
        let eqs = eqs_of(c);
        if eqs.is_empty() {
            continue;
        }
        let mut signature = [u32::MAX; 8];
        let mut len = 0;
        for &e in eqs {
            if open[e as usize] > 0 {
                signature[len] = e;
                len += 1;
            }
        }
        if len == 0 {
            continue;
        }
        let head = &mut first_box[signature[0] as usize];
        let mut b = *head;
        while b != u32::MAX && box_sig[b as usize] != signature {
            b = next_box[b as usize];
        }
        if b == u32::MAX {
            b = box_cells.len() as u32;
            next_box.push(*head);
            *head = b;
            box_sig.push(signature);
            box_cells.push(Vec::new());
        }
        box_cells[b as usize].push(c as u32);
        box_of_cell[c] = b;
    }

    // each live equation over its boxes (CSR); equations over the same boxes merged,
    // found among the equations with the same first box
    let nb = box_cells.len();
    let mut con_boxes: Vec<u32> = Vec::with_capacity(eq_cells.len());
    let mut con_start: Vec<usize> = vec![0];
    let mut con_value: Vec<u32> = Vec::new();
    let mut next_con: Vec<u32> = Vec::new();
    let mut first_con = vec![u32::MAX; nb];
    for e in 0..equations {
        if open[e] <= 0 {
            continue;
        }
        let at = con_boxes.len();
        for &c in &eq_cells[start[e]..start[e + 1]] {
            if state[c as usize] == UNDECIDED {
                con_boxes.push(box_of_cell[c as usize]);
            }
        }
        con_boxes[at..].sort_unstable();
        let mut len = 0;
        for k in at..con_boxes.len() {
            if len == 0 || con_boxes[at + len - 1] != con_boxes[k] {
                con_boxes[at + len] = con_boxes[k];
                len += 1;
            }
        }
        con_boxes.truncate(at + len);
        let v = value[e] as u32;
        let boxes = &con_boxes[at..];
        let head = first_con[boxes[0] as usize];
        let mut other = head;
        while other != u32::MAX {
            let o = other as usize;
            if con_boxes[con_start[o]..con_start[o + 1]] == *boxes {
                break;
            }
            other = next_con[o];
        }
        if other != u32::MAX {
            if con_value[other as usize] != v {
                return Err(Inconsistent);
            }
            con_boxes.truncate(at);
            continue;
        }
        let k = con_value.len() as u32;
        next_con.push(head);
        first_con[boxes[0] as usize] = k;
        con_value.push(v);
        con_start.push(con_boxes.len());
    }
    let constraints = con_value.len();

    // 4. components: union-find over the boxes of each equation
    let mut parent: Vec<u32> = (0..nb as u32).collect();
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        let mut root = a;
        while parent[root as usize] != root {
            root = parent[root as usize];
        }
        while parent[a as usize] != root {
            let next = parent[a as usize];
            parent[a as usize] = root;
            a = next;
        }
        root
    }
    for k in 0..constraints {
        let boxes = &con_boxes[con_start[k]..con_start[k + 1]];
        let ra = find(&mut parent, boxes[0]);
        for &b in &boxes[1..] {
            let rb = find(&mut parent, b);
            if rb != ra {
                parent[rb as usize] = ra;
            }
        }
    }
    let mut comp_of_root = vec![u32::MAX; nb];
    let mut local = vec![0u32; nb];
    let mut comp_of_box = vec![0u32; nb];
    let mut components: Vec<Component> = Vec::new();
    for b in 0..nb {
        let r = find(&mut parent, b as u32) as usize;
        if comp_of_root[r] == u32::MAX {
            comp_of_root[r] = components.len() as u32;
            components.push(Component {
                shape: Shape {
                    sizes: Vec::new(),
                    constraints: Vec::new(),
                },
                cells: Vec::new(),
            });
        }
        comp_of_box[b] = comp_of_root[r];
        let comp = &mut components[comp_of_root[r] as usize];
        local[b] = comp.cells.len() as u32;
        comp.shape.sizes.push(box_cells[b].len());
        comp.cells.push(std::mem::take(&mut box_cells[b]));
    }
    for k in 0..constraints {
        let boxes = &con_boxes[con_start[k]..con_start[k + 1]];
        let comp = &mut components[comp_of_box[boxes[0] as usize] as usize];
        let boxes = boxes.iter().map(|&b| local[b as usize]).collect();
        comp.shape.constraints.push((boxes, con_value[k]));
    }

    let interior = (0..n)
        .filter(|&c| kind[c] == 1 && state[c] == UNDECIDED && box_of_cell[c] == u32::MAX)
        .map(|c| c as u32)
        .collect();
    Ok(Problem {
        components,
        interior,
        forced_safe,
        forced_mines,
        mines_left,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A raw board from the text rows (H hidden, F flag, digits).
    pub fn raw(rows: &[&str]) -> Vec<u8> {
        rows.iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'H' => HIDDEN,
                b'F' => FLAG,
                d => d - b'0',
            })
            .collect()
    }

    fn board(cells: &[u8], width: usize, mines: Option<u64>) -> Board<'_> {
        Board {
            width,
            height: cells.len() / width,
            cells,
            mines,
            trust_flags: true,
        }
    }

    #[test]
    fn design_example() {
        let cells = raw(&["H2HHH", "HHHHH", "112HH", "00HHH", "000HH"]);
        let p = build(&board(&cells, 5, Some(5))).unwrap();
        assert_eq!(p.components.len(), 1);
        // (2,3), (3,3), (3,4) are forced safe by the zeros ((2,1) only by the count)
        assert_eq!(p.forced_safe, vec![17, 18, 23]);
        assert!(p.forced_mines.is_empty());
        assert_eq!(p.interior, vec![3, 4, 9, 14, 19, 24]);
        assert_eq!(p.mines_left, Some(5));
    }

    #[test]
    fn contradictions_are_found() {
        let cells = raw(&["1", "0"]);
        assert!(build(&board(&cells, 1, Some(1))).is_err()); // a 1 with no hidden cell
        let cells = raw(&["1F", "FH"]);
        assert!(build(&board(&cells, 2, Some(3))).is_err()); // two flags around a 1
        let cells = raw(&["FF"]);
        assert!(build(&board(&cells, 2, Some(1))).is_err()); // more flags than mines
        let cells = raw(&["H1H", "H0H"]);
        assert!(build(&board(&cells, 3, Some(1))).is_err()); // the 0 clears the 1's cells
    }

    #[test]
    fn untrusted_flags_are_unknown() {
        let cells = raw(&["F1"]);
        let mut b = board(&cells, 2, Some(1));
        b.trust_flags = false;
        let p = build(&b).unwrap();
        assert_eq!(p.forced_mines, vec![0]);
        assert_eq!(p.mines_left, Some(0));
    }
}
