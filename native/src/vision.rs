//! The per-pixel kernels of reading a screenshot (`minesolver.vision`, layer 8): cells
//! scaled from the image's running sums, and each cell's distance to its nearest
//! template. Plain functions on slices; the bindings (`vision_bindings`) hand them
//! numpy's buffers without a copy.
//!
//! [`box_means`] is Pillow's box filter in its own fixed-point arithmetic, so its
//! output is the same, bit for bit, as the numpy code it replaces (`_box_means` in
//! `vision/templates.py`). [`nearest`] sums the squared differences of a cell and a
//! template in `f64`, in one fixed order, so its answer is the same on every machine
//! (numpy's single-precision products are not: their order follows the CPU's vector
//! width).

/// Bits of Pillow's fixed-point weights (`_BITS` in `vision/templates.py`).
const BITS: u32 = 22;
/// Pixels a side of a scaled cell.
pub const SIZE: usize = 16;
/// Values of a scaled cell: `SIZE` x `SIZE` pixels, 3 colours.
pub const LENGTH: usize = SIZE * SIZE * 3;

/// Why a kernel's input cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

/// The pixels of each box scaled to `SIZE` x `SIZE`, from the image's running sums.
///
/// `table` is the summed-area table of an RGB image `width - 1` pixels wide (`width`
/// columns of 3 `u32` sums a row, wrapping past 2^32: a box's sum, a difference of four
/// of them taken modulo 2^32, stays exact). For box `k` and output pixel `(i, j)`, the
/// image rows `ay[k][i]..by[k][i]` and columns `ax[k][j]..bx[k][j]` are averaged
/// (`ay`, `by`, `ax`, `bx`: `boxes` x `SIZE`, row-major); `ok[k] == 0` makes box `k`
/// black. `out` (`boxes` x [`LENGTH`], in the order box, row, column, colour) gets each
/// mean rounded as Pillow rounds it, over 255. O(boxes x `LENGTH`): four look-ups a
/// value, whatever the box's size.
#[allow(clippy::too_many_arguments)]
pub fn box_means(
    table: &[u32],
    width: usize,
    ay: &[i64],
    by: &[i64],
    ax: &[i64],
    bx: &[i64],
    ok: &[u8],
    out: &mut [f32],
) -> Result<(), Invalid> {
    let boxes = ok.len();
    if [ay.len(), by.len(), ax.len(), bx.len()] != [boxes * SIZE; 4] {
        return Err(Invalid(format!(
            "box ranges for {boxes} boxes must be {boxes} x {SIZE}"
        )));
    }
    if out.len() != boxes * LENGTH {
        return Err(Invalid(format!(
            "the output for {boxes} boxes must hold {} values",
            boxes * LENGTH
        )));
    }
    if width == 0 || !table.len().is_multiple_of(width * 3) {
        return Err(Invalid(
            "the running sums are not rows of `width` RGB sums".into(),
        ));
    }
    let height = table.len() / (width * 3);
    let inside = |lo: &[i64], hi: &[i64], size: usize| {
        lo.iter()
            .zip(hi)
            .all(|(&a, &b)| 0 <= a && a <= b && (b as usize) < size)
    };
    if !inside(ay, by, height) || !inside(ax, bx, width) {
        return Err(Invalid("a box reaches outside the image".into()));
    }
    // the numpy code multiplies in 32 bits when every box is under 2^20 pixels and in 64
    // otherwise: both exact here, so 64 bits always gives the same values
    let half = 1i64 << (BITS - 1);
    for k in 0..boxes {
        let rows = k * SIZE..(k + 1) * SIZE;
        let (ay, by, ax, bx) = (
            &ay[rows.clone()],
            &by[rows.clone()],
            &ax[rows.clone()],
            &bx[rows],
        );
        let cell = &mut out[k * LENGTH..(k + 1) * LENGTH];
        for i in 0..SIZE {
            let (ya, yb) = (ay[i] as usize * width, by[i] as usize * width);
            for j in 0..SIZE {
                let (xa, xb) = (ax[j] as usize, bx[j] as usize);
                let count = (by[i] - ay[i]) * (bx[j] - ax[j]);
                let weight = if ok[k] != 0 && count > 0 {
                    // Pillow's weight: 0.5 + 2^22 / count in double, truncated
                    (0.5 + f64::from(1u32 << BITS) / count as f64) as i64
                } else {
                    0
                };
                for c in 0..3 {
                    let at = |y: usize, x: usize| table[(y + x) * 3 + c];
                    let sum = at(yb, xb)
                        .wrapping_sub(at(ya, xb))
                        .wrapping_sub(at(yb, xa))
                        .wrapping_add(at(ya, xa));
                    let level = ((i64::from(sum) * weight + half) >> BITS).min(255);
                    cell[(i * SIZE + j) * 3 + c] = level as f32 / 255.0;
                }
            }
        }
    }
    Ok(())
}

/// The running sums of an RGB image (`pixels`: rows of `width` pixels of three bytes) into
/// `out`, a summed-area table of `height + 1` rows of `width + 1` entries of three values,
/// the first row and column zero: entry `(y, x)` is the sum over the pixels above and left
/// of it, per colour, modulo 2**32 (the sum over any box of fewer than 16 million pixels,
/// a difference of four entries taken modulo 2**32, stays exact; sums modulo 2**32 do not
/// depend on their order, so this equals numpy's two cumulative sums). O(pixels), one pass.
pub fn integral(pixels: &[u8], width: usize, out: &mut [u32]) -> Result<(), Invalid> {
    if width == 0 || !pixels.len().is_multiple_of(width * 3) {
        return Err(Invalid(format!(
            "the pixels must be rows of {width} pixels of 3 values"
        )));
    }
    let height = pixels.len() / (width * 3);
    let stride = (width + 1) * 3;
    if out.len() != (height + 1) * stride {
        return Err(Invalid(format!(
            "the table must be {} rows of {} entries of 3 values",
            height + 1,
            width + 1
        )));
    }
    out[..stride].fill(0);
    for (row, pixel_row) in pixels.chunks_exact(width * 3).enumerate() {
        let (above, below) = out.split_at_mut((row + 1) * stride);
        let above = &above[row * stride..];
        let here = &mut below[..stride];
        here[..3].fill(0);
        let mut sums = [0u32; 3];
        for (x, pixel) in pixel_row.chunks_exact(3).enumerate() {
            for c in 0..3 {
                sums[c] = sums[c].wrapping_add(u32::from(pixel[c]));
                let at = (x + 1) * 3 + c;
                here[at] = above[at].wrapping_add(sums[c]);
            }
        }
    }
    Ok(())
}

/// The largest of the three colours' differences between two pixels (`a`, `b`: RGB).
#[inline(always)]
fn step(a: &[u8], b: &[u8]) -> u8 {
    a.iter()
        .zip(b)
        .map(|(&p, &q)| p.abs_diff(q))
        .max()
        .unwrap_or(0)
}

/// The edge maps of an RGB image (`pixels`: rows of `width` pixels of 3 values): into
/// `vx` (`height` rows of `width - 1`) the step between each pixel and the next along
/// the row, into `vy` (`height - 1` rows of `width`) between each pixel and the next
/// down the column (each the largest of the colours' steps), kept only where the step
/// is over `threshold` all along a straight run of at least `run` such pixels (down the
/// columns for `vx`: a vertical line; along the rows for `vy`), and then at most `cap`;
/// 0 elsewhere. The same maps as `edge_maps` in `vision/grid.py` made with numpy, in
/// one pass over the pixels and one over the maps: O(pixels).
pub fn edges(
    pixels: &[u8],
    width: usize,
    threshold: u8,
    run: usize,
    cap: u8,
    vx: &mut [f32],
    vy: &mut [f32],
) -> Result<(), Invalid> {
    // (a row of pixels no longer than the pixels given: nothing below is sized by a
    // width the pixels do not hold, so no hostile width makes a vast allocation)
    let row_len = width.checked_mul(3).filter(|&n| n > 0 && n <= pixels.len());
    let Some(row_len) = row_len.filter(|&n| pixels.len().is_multiple_of(n)) else {
        return Err(Invalid(format!(
            "the pixels must be one or more rows of {width} pixels of 3 values"
        )));
    };
    if run > usize::from(u8::MAX) {
        return Err(Invalid(format!("a run of {run} steps is longer than 255")));
    }
    let height = pixels.len() / row_len;
    if vx.len() != height * (width - 1) || vy.len() != height.saturating_sub(1) * width {
        return Err(Invalid(format!(
            "the edge maps of {width}x{height} pixels must hold {} and {} values",
            height * (width - 1),
            height.saturating_sub(1) * width
        )));
    }
    let row = |y: usize| &pixels[y * width * 3..(y + 1) * width * 3];
    let value = |d: u8| f32::from(d.min(cap));
    // along the rows: each row's steps, kept on runs of `run` or more
    let mut steps = vec![0u8; width];
    for y in 0..height.saturating_sub(1) {
        let (here, below) = (row(y), row(y + 1));
        for (x, d) in steps.iter_mut().enumerate() {
            *d = step(&here[x * 3..x * 3 + 3], &below[x * 3..x * 3 + 3]);
        }
        keep_runs(
            &steps,
            threshold,
            run,
            &mut vy[y * width..(y + 1) * width],
            value,
        );
    }
    // down the columns: the steps and, for each, how long its run is so far (top down),
    // then whole runs' lengths carried back up (bottom up)
    let across = width - 1;
    // (how long each step's run is so far, saturating: only whether it reaches `run`,
    // at most 255, counts; a byte a step keeps a large image's memory down)
    let mut above = vec![0u8; height * across];
    for y in 0..height {
        let here = row(y);
        let (done, rest) = above.split_at_mut(y * across);
        let before = if y > 0 {
            &done[(y - 1) * across..]
        } else {
            &[][..]
        };
        let line = &mut rest[..across];
        for (x, (v, up)) in vx[y * across..(y + 1) * across]
            .iter_mut()
            .zip(line)
            .enumerate()
        {
            let d = step(&here[x * 3..x * 3 + 3], &here[x * 3 + 3..x * 3 + 6]);
            *v = f32::from(d);
            *up = if d > threshold {
                before.get(x).copied().unwrap_or(0).saturating_add(1)
            } else {
                0
            };
        }
    }
    let mut below = vec![0u32; across];
    for y in (0..height).rev() {
        let line = y * across..(y + 1) * across;
        let ups = &above[line.clone()];
        for ((v, &up), down) in vx[line].iter_mut().zip(ups).zip(below.iter_mut()) {
            if up == 0 {
                *down = 0;
                *v = 0.0;
                continue;
            }
            *down += 1;
            let length = usize::from(up) + *down as usize - 1;
            // the value held until now is the whole step, at most 255: an exact f32
            *v = if length >= run { value(*v as u8) } else { 0.0 };
        }
    }
    Ok(())
}

/// `out` for one line of `steps`: each step over `threshold` on a run of at least
/// `run` of them, through `value`; 0 elsewhere.
fn keep_runs(steps: &[u8], threshold: u8, run: usize, out: &mut [f32], value: impl Fn(u8) -> f32) {
    let mut start = 0;
    while start < steps.len() {
        if steps[start] <= threshold {
            out[start] = 0.0;
            start += 1;
            continue;
        }
        let mut end = start;
        while end < steps.len() && steps[end] > threshold {
            end += 1;
        }
        let long = end - start >= run;
        for (o, &d) in out[start..end].iter_mut().zip(&steps[start..end]) {
            *o = if long { value(d) } else { 0.0 };
        }
        start = end;
    }
}

/// How far each cell is from a flat patch of its own mean colour: the root-mean-square
/// of its values less their colour's mean over the cell, into `out` (one value a cell;
/// `cells`: rows of [`LENGTH`] values). Every skin draws a cell's edges, so a patch
/// this flat is no cell. The means and the sum in `f64`, in one fixed order, so the
/// same on every machine. O(cells x [`LENGTH`]), two passes over each cell.
pub fn structure(cells: &[f32], out: &mut [f32]) -> Result<(), Invalid> {
    let n = out.len();
    if cells.len() != n * LENGTH {
        return Err(Invalid(format!(
            "the cells must be {n} rows of {LENGTH} values"
        )));
    }
    let pixels = (SIZE * SIZE) as f64;
    for (cell, answer) in cells.chunks_exact(LENGTH).zip(out.iter_mut()) {
        let mut mean = [0.0f64; 3];
        for pixel in cell.chunks_exact(3) {
            for (m, &v) in mean.iter_mut().zip(pixel) {
                *m += f64::from(v);
            }
        }
        for m in &mut mean {
            *m /= pixels;
        }
        let mut sum = 0.0f64;
        for pixel in cell.chunks_exact(3) {
            for (m, &v) in mean.iter().zip(pixel) {
                let d = f64::from(v) - m;
                sum += d * d;
            }
        }
        *answer = (sum / LENGTH as f64).sqrt() as f32;
    }
    Ok(())
}

/// Vectors of cells or templates at three levels of detail: `full` (rows of [`LENGTH`]
/// values, `SIZE` x `SIZE` pixels of 3 colours), `medium` (each 2 x 2 block of pixels
/// averaged: rows of [`MEDIUM`] values) and `coarse` (each 4 x 4 block: [`COARSE`]).
/// The root-mean-square distance of two rows at a coarser level is at most theirs in
/// full (a block's mean square is at least its mean's square): a lower bound.
#[derive(Clone, Copy)]
pub struct Levels<'a> {
    pub full: &'a [f32],
    pub medium: &'a [f32],
    pub coarse: &'a [f32],
}

/// Values of a medium vector: 8 x 8 blocks of 3 colours.
pub const MEDIUM: usize = LENGTH / 4;
/// Values of a coarse vector: 4 x 4 blocks of 3 colours.
pub const COARSE: usize = LENGTH / 16;

impl<'a> Levels<'a> {
    /// How many rows the levels hold, when they agree.
    fn rows(&self) -> Option<usize> {
        let n = self.full.len() / LENGTH;
        let whole = self.full.len().is_multiple_of(LENGTH);
        (whole && self.medium.len() == n * MEDIUM && self.coarse.len() == n * COARSE).then_some(n)
    }
}

/// Each cell's root-mean-square distance to its nearest template, capped at `cap`.
///
/// A template whose coarse bound is above the best found so far (with `slack` for the
/// single-precision means and sums) is skipped, one whose medium bound is too, and a
/// full sum stops as soon as it passes the best. Each distance measured in full is
/// summed in `f64` in a fixed order ([`squares`]), so the answer is the least distance
/// over all templates, the same on every machine. `cells`: rows of [`LENGTH`] values,
/// whose medium and coarse vectors are made here, a cell at a time ([`halved`]).
/// O(cells x templates x [`COARSE`] + those left x [`MEDIUM`] + those left x
/// [`LENGTH`]); on real screenshots most cells are measured in full against one or two
/// templates.
///
/// `stop` ends the work early: once the capped distances of the cells measured so far
/// sum to more than `stop` (in `f64`, in the cells' order), the cells left are given
/// `cap` and not measured. A caller that only asks whether the cells' mean beats a
/// mean it has (a fit searched over offsets) passes that mean times the cells, and
/// learns that it does not at a fraction of the cost; `f64::INFINITY` measures all.
pub fn nearest(
    cells: &[f32],
    templates: Levels<'_>,
    cap: f32,
    slack: f64,
    stop: f64,
    out: &mut [f32],
) -> Result<(), Invalid> {
    let n = out.len();
    let Some(t) = templates.rows() else {
        return Err(Invalid("the templates' levels disagree in size".into()));
    };
    if cells.len() != n * LENGTH {
        return Err(Invalid(format!(
            "the cells must be {n} rows of {LENGTH} values"
        )));
    }
    // the templates' coarse values by position, each position's values of every template
    // side by side: the bounds of one cell to all templates are then sums of long runs
    let mut by_position = vec![0.0f32; t * COARSE];
    for m in 0..t {
        for i in 0..COARSE {
            by_position[i * t + m] = templates.coarse[m * COARSE + i];
        }
    }
    let work = Work {
        templates,
        by_position: &by_position,
        cap,
        slack,
        stop,
    };
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above
            unsafe { nearest_cells_avx2(cells, &work, out) };
            return Ok(());
        }
    }
    nearest_cells(cells, &work, out);
    Ok(())
}

/// What [`nearest`] measures each cell against: the templates, their coarse values by
/// position, the cap, the slack and the stop.
struct Work<'a> {
    templates: Levels<'a>,
    by_position: &'a [f32],
    cap: f32,
    slack: f64,
    stop: f64,
}

/// [`nearest_cells`] compiled for AVX2 (no fused multiply-add: every sum rounds as in
/// the plain build, lane by lane, so the answers are the same to the bit).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn nearest_cells_avx2(cells: &[f32], work: &Work<'_>, out: &mut [f32]) {
    nearest_cells(cells, work, out);
}

/// The loop of [`nearest`] over the cells (checked there).
#[inline(always)]
fn nearest_cells(cells: &[f32], work: &Work<'_>, out: &mut [f32]) {
    let Work {
        templates,
        by_position,
        cap,
        slack,
        stop,
    } = *work;
    let mut total = 0.0f64;
    let t = by_position.len() / COARSE;
    let (mut mid, mut small) = ([0.0f32; MEDIUM], [0.0f32; COARSE]);
    let capped = f64::from(cap) * f64::from(cap) * LENGTH as f64;
    let mut bounds = vec![0.0f32; t];
    for k in 0..out.len() {
        if total > stop {
            out[k..].fill(cap);
            return;
        }
        let cell = &cells[k * LENGTH..(k + 1) * LENGTH];
        halved(cell, SIZE, &mut mid);
        halved(&mid, SIZE / 2, &mut small);
        coarse_bounds(&small, by_position, &mut bounds);
        // the template the bounds put first, measured first, so the rest are cut early
        let mut first = 0;
        for (m, &bound) in bounds.iter().enumerate() {
            if bound < bounds[first] {
                first = m;
            }
        }
        let mut best = capped;
        // each bound against the best's mean square, with room for rounding, in its own
        // units (a product, not a division per template)
        let limits = |best: f64| {
            let limit = best / LENGTH as f64 + slack;
            (limit * COARSE as f64, limit * MEDIUM as f64)
        };
        let (mut coarse_limit, mut medium_limit) = limits(best);
        for m in std::iter::once(first).chain(0..t) {
            if f64::from(bounds[m]) > coarse_limit || (m == first && best < capped) {
                continue;
            }
            let closer = squares(
                &mid,
                &templates.medium[m * MEDIUM..(m + 1) * MEDIUM],
                medium_limit,
            );
            if closer > medium_limit {
                continue;
            }
            let sum = squares(cell, &templates.full[m * LENGTH..(m + 1) * LENGTH], best);
            if sum < best {
                best = sum;
                (coarse_limit, medium_limit) = limits(best);
            }
        }
        out[k] = ((best / LENGTH as f64).sqrt() as f32).min(cap);
        total += f64::from(out[k]);
    }
}

/// Templates whose bounds are summed at once, in registers.
const RUN: usize = 32;

/// The sums of squared differences of `coarse` (a cell's coarse vector) and each
/// template's, into `bounds` (`by_position`: each position's values of every template
/// side by side). Each bound is summed in the positions' order whatever the machine; the
/// loop over the templates is the same sums whether it runs 4 or 8 lanes at a time, so
/// it is compiled for AVX2 inside [`nearest_cells_avx2`] (no fused multiply-add: the
/// same roundings).
#[inline(always)]
fn coarse_bounds(coarse: &[f32], by_position: &[f32], bounds: &mut [f32]) {
    let t = bounds.len();
    let mut start = 0;
    while start < t {
        let end = (start + RUN).min(t);
        let mut acc = [0.0f32; RUN];
        for (i, &value) in coarse.iter().enumerate() {
            let row = &by_position[i * t + start..i * t + end];
            if let Ok(row) = <&[f32; RUN]>::try_from(row) {
                for j in 0..RUN {
                    let d = row[j] - value;
                    acc[j] += d * d;
                }
            } else {
                for (a, &other) in acc.iter_mut().zip(row) {
                    let d = other - value;
                    *a += d * d;
                }
            }
        }
        bounds[start..end].copy_from_slice(&acc[..end - start]);
        start = end;
    }
}

/// `image` (`side` x `side` pixels of 3 colours) with each 2 x 2 block of pixels
/// averaged per colour, into `out` (`side / 2` squared pixels): a cell's medium vector
/// from the cell, its coarse vector from the medium one.
#[inline(always)]
fn halved(image: &[f32], side: usize, out: &mut [f32]) {
    let half = side / 2;
    for r in 0..half {
        for c in 0..half {
            for ch in 0..3 {
                let at = |y: usize, x: usize| image[(y * side + x) * 3 + ch];
                let (y, x) = (2 * r, 2 * c);
                out[(r * half + c) * 3 + ch] =
                    (at(y, x) + at(y, x + 1) + (at(y + 1, x) + at(y + 1, x + 1))) / 4.0;
            }
        }
    }
}

/// Lanes of the sums below: independent partial sums, added in a fixed order at the
/// end, so the compiler may keep them in vector registers, and every machine adds alike.
const LANES: usize = 8;

/// Values between two checks of a sum against its stop in [`squares`]: each check adds
/// the partial sums across, so fewer checks cost less; the answer is the same whatever
/// this is (a sum cut early is only ever compared as "past the stop").
const CHECK: usize = 96;

/// The sum of squared differences of `a` and `b` in `f64`, in [`LANES`] partial sums
/// added in a fixed order; once it passes `stop` (checked every [`CHECK`] values), whatever it
/// has reached (more than `stop`).
#[inline(always)]
fn squares(a: &[f32], b: &[f32], stop: f64) -> f64 {
    let mut acc = [0.0f64; LANES];
    let mut done = 0.0f64;
    for (x, y) in a.chunks(CHECK).zip(b.chunks(CHECK)) {
        let (cx, cy) = (x.chunks_exact(LANES), y.chunks_exact(LANES));
        let (rx, ry) = (cx.remainder(), cy.remainder());
        for (p, q) in cx.zip(cy) {
            let (p, q): (&[f32; LANES], &[f32; LANES]) =
                (p.try_into().unwrap(), q.try_into().unwrap());
            for j in 0..LANES {
                let d = f64::from(p[j]) - f64::from(q[j]);
                acc[j] += d * d;
            }
        }
        for (p, q) in rx.iter().zip(ry) {
            let d = f64::from(*p) - f64::from(*q);
            done += d * d;
        }
        let sum = acc.iter().sum::<f64>() + done;
        if sum > stop {
            return sum;
        }
    }
    acc.iter().sum::<f64>() + done
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The running sums of an RGB image of `w` x `h` pixels (row-major), as
    /// `integral` in `vision/templates.py` makes them.
    fn integral(pixels: &[u8], w: usize, h: usize) -> Vec<u32> {
        let mut table = vec![0u32; (h + 1) * (w + 1) * 3];
        for y in 0..h {
            for x in 0..w {
                for c in 0..3 {
                    let at = |yy: usize, xx: usize| table[(yy * (w + 1) + xx) * 3 + c];
                    let v = u32::from(pixels[(y * w + x) * 3 + c]) + at(y, x + 1) + at(y + 1, x)
                        - at(y, x);
                    table[((y + 1) * (w + 1) + x + 1) * 3 + c] = v;
                }
            }
        }
        table
    }

    /// Values in 0..=1 (a thousand levels) from a xorshift generator seeded by `seed`.
    fn levels(seed: u64) -> impl FnMut() -> f32 {
        let mut state = seed | 1;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 1000) as f32 / 999.0
        }
    }

    proptest! {
        #[test]
        fn a_box_mean_is_the_rounded_mean_of_its_pixels(
            pixels in proptest::collection::vec(any::<u8>(), 20 * 20 * 3),
            y0 in 0i64..10, x0 in 0i64..10, dy in 1i64..10, dx in 1i64..10,
        ) {
            let table = integral(&pixels, 20, 20);
            let ay = vec![y0; SIZE];
            let by = vec![y0 + dy; SIZE];
            let ax = vec![x0; SIZE];
            let bx = vec![x0 + dx; SIZE];
            let mut out = vec![0.0f32; LENGTH];
            box_means(&table, 21, &ay, &by, &ax, &bx, &[1], &mut out).unwrap();
            for c in 0..3 {
                let mut sum = 0u64;
                for y in y0..y0 + dy {
                    for x in x0..x0 + dx {
                        sum += u64::from(pixels[((y * 20 + x) * 3 + c as i64) as usize]);
                    }
                }
                let mean = sum as f64 / (dy * dx) as f64;
                // Pillow's fixed point rounds within half a level of the true mean
                prop_assert!((f64::from(out[c]) * 255.0 - mean).abs() <= 0.5 + 1e-3);
            }
        }

        #[test]
        fn the_nearest_is_the_least_distance_of_all(
            seed in any::<u64>(),
            cap in 0.05f32..1.0,
            noise in 0.0f32..0.3,
        ) {
            // templates of random levels, cells near some of them
            let mut draw = levels(seed);
            let templates: Vec<f32> = (0..6 * LENGTH).map(|_| draw()).collect();
            let cells: Vec<f32> = (0..4 * LENGTH)
                .map(|i| {
                    let near = templates[(i % (2 * LENGTH)) + LENGTH];
                    (near + noise * (draw() - 0.5)).clamp(0.0, 1.0)
                })
                .collect();
            let (tm, tc) = (blocks(&templates, 2), blocks(&templates, 4));
            let mut out = vec![0.0f32; 4];
            let templates_levels = Levels { full: &templates, medium: &tm, coarse: &tc };
            nearest(&cells, templates_levels, cap, 1e-5, f64::INFINITY, &mut out).unwrap();
            for k in 0..4 {
                let brute = (0..6)
                    .map(|m| {
                        let s: f64 = (0..LENGTH)
                            .map(|i| {
                                let d = f64::from(cells[k * LENGTH + i]);
                                (d - f64::from(templates[m * LENGTH + i])).powi(2)
                            })
                            .sum();
                        (s / LENGTH as f64).sqrt() as f32
                    })
                    .fold(f32::INFINITY, f32::min)
                    .min(cap);
                prop_assert!((out[k] - brute).abs() <= 1e-6, "{} {}", out[k], brute);
            }
        }
    }

    proptest! {
        #[test]
        fn a_stopped_measure_is_the_full_one_until_the_stop_and_the_cap_after(
            seed in any::<u64>(),
            share in 0.0f64..1.5,
        ) {
            let mut draw = levels(seed);
            let templates: Vec<f32> = (0..5 * LENGTH).map(|_| draw()).collect();
            let cells: Vec<f32> = (0..6 * LENGTH)
                .map(|i| (templates[i % (5 * LENGTH)] + 0.2 * (draw() - 0.5)).clamp(0.0, 1.0))
                .collect();
            let (tm, tc) = (blocks(&templates, 2), blocks(&templates, 4));
            let levels = Levels { full: &templates, medium: &tm, coarse: &tc };
            let cap = 0.1f32;
            let mut full = vec![0.0f32; 6];
            nearest(&cells, levels, cap, 1e-5, f64::INFINITY, &mut full).unwrap();
            let total: f64 = full.iter().map(|&d| f64::from(d)).sum();
            let stop = share * total;
            let mut got = vec![0.0f32; 6];
            nearest(&cells, levels, cap, 1e-5, stop, &mut got).unwrap();
            let mut sum = 0.0f64;
            for k in 0..6 {
                if sum > stop {
                    prop_assert_eq!(got[k], cap);
                } else {
                    prop_assert_eq!(got[k], full[k]);
                }
                sum += f64::from(full[k]);
            }
        }
    }

    proptest! {
        #[test]
        fn the_structure_is_the_spread_about_each_colours_mean(
            values in proptest::collection::vec(0.0f32..=1.0, 2 * LENGTH),
        ) {
            let mut out = vec![0.0f32; 2];
            structure(&values, &mut out).unwrap();
            for (k, cell) in values.chunks(LENGTH).enumerate() {
                let mut sum = 0.0f64;
                for ch in 0..3 {
                    let of: Vec<f64> = cell.iter().skip(ch).step_by(3).map(|&v| f64::from(v)).collect();
                    let mean = of.iter().sum::<f64>() / of.len() as f64;
                    sum += of.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
                }
                let brute = (sum / LENGTH as f64).sqrt();
                prop_assert!((f64::from(out[k]) - brute).abs() <= 1e-6, "{} {}", out[k], brute);
            }
        }
    }

    proptest! {
        #[test]
        fn the_running_sums_are_the_sums_of_the_pixels_above_and_left(
            w in 1usize..12, h in 1usize..12, seed in any::<u64>(),
        ) {
            let mut state = seed;
            let pixels: Vec<u8> = (0..w * h * 3)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 56) as u8
                })
                .collect();
            let mut out = vec![7u32; (h + 1) * (w + 1) * 3];
            super::integral(&pixels, w, &mut out).unwrap();
            prop_assert_eq!(out, integral(&pixels, w, h));
        }
    }

    /// The edge maps as `edges` describes them, by brute force: each pixel's run found
    /// by walking both ways from it.
    fn brute_edges(pixels: &[u8], w: usize, h: usize) -> (Vec<f32>, Vec<f32>) {
        let at = |y: usize, x: usize| &pixels[(y * w + x) * 3..(y * w + x) * 3 + 3];
        let d = |a: &[u8], b: &[u8]| (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
        let dx = |y: usize, x: usize| d(at(y, x), at(y, x + 1));
        let dy = |y: usize, x: usize| d(at(y, x), at(y + 1, x));
        let mut vx = vec![0.0f32; h * (w - 1)];
        for y in 0..h {
            for x in 0..w - 1 {
                if dx(y, x) <= 3 {
                    continue;
                }
                let up = (0..=y).rev().take_while(|&t| dx(t, x) > 3).count();
                let down = (y..h).take_while(|&t| dx(t, x) > 3).count();
                if up + down > 4 {
                    vx[y * (w - 1) + x] = f32::from(dx(y, x).min(100));
                }
            }
        }
        let mut vy = vec![0.0f32; (h - 1) * w];
        for y in 0..h - 1 {
            for x in 0..w {
                if dy(y, x) <= 3 {
                    continue;
                }
                let left = (0..=x).rev().take_while(|&t| dy(y, t) > 3).count();
                let right = (x..w).take_while(|&t| dy(y, t) > 3).count();
                if left + right > 4 {
                    vy[y * w + x] = f32::from(dy(y, x).min(100));
                }
            }
        }
        (vx, vy)
    }

    proptest! {
        #[test]
        fn the_edges_are_the_steps_on_long_enough_runs(
            w in 1usize..14, h in 1usize..14, seed in any::<u64>(), levels in 2u64..6,
        ) {
            // few levels, so that runs of steps over the threshold are common
            let mut state = seed;
            let pixels: Vec<u8> = (0..w * h * 3)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((state >> 33) % levels * 60) as u8
                })
                .collect();
            let mut vx = vec![7.0f32; h * (w - 1)];
            let mut vy = vec![7.0f32; (h - 1) * w];
            edges(&pixels, w, 3, 4, 100, &mut vx, &mut vy).unwrap();
            let (bx, by) = brute_edges(&pixels, w, h);
            prop_assert_eq!(vx, bx);
            prop_assert_eq!(vy, by);
        }
    }

    #[test]
    fn edge_maps_of_a_wrong_shape_are_refused() {
        let (mut vx, mut vy) = (vec![0.0f32; 2], vec![0.0f32; 2]);
        assert!(edges(&[0; 2 * 2 * 3], 2, 14, 7, 128, &mut vx, &mut vy).is_ok());
        assert!(edges(&[0; 2 * 2 * 3], 2, 14, 7, 128, &mut vx[..1], &mut vy).is_err());
        assert!(edges(&[0; 2 * 2 * 3 - 1], 2, 14, 7, 128, &mut vx, &mut vy).is_err());
        assert!(edges(&[0; 2 * 2 * 3], 0, 14, 7, 128, &mut vx, &mut vy).is_err());
        // no pixels, or a width wider than the pixels: refused before any allocation
        assert!(edges(&[], 1 << 62, 14, 7, 128, &mut [], &mut []).is_err());
        assert!(edges(&[0; 6], usize::MAX, 14, 7, 128, &mut [], &mut []).is_err());
        assert!(edges(&[0; 6], 4, 14, 7, 128, &mut [], &mut []).is_err());
        assert!(edges(&[0; 6], 2, 14, 256, 128, &mut vx[..1], &mut []).is_err());
    }

    #[test]
    fn running_sums_of_a_wrong_shape_are_refused() {
        let mut out = vec![0u32; 3 * 3 * 3];
        assert!(super::integral(&[0; 2 * 2 * 3], 2, &mut out).is_ok());
        assert!(super::integral(&[0; 2 * 2 * 3 - 1], 2, &mut out).is_err());
        assert!(super::integral(&[0; 2 * 2 * 3], 0, &mut out).is_err());
        assert!(super::integral(&[0; 2 * 2 * 3], 2, &mut out[1..]).is_err());
    }

    #[test]
    fn a_flat_cell_has_no_structure_and_a_wrong_length_is_refused() {
        let flat: Vec<f32> = (0..LENGTH).map(|i| [0.2, 0.5, 0.9][i % 3]).collect();
        let mut out = vec![1.0f32; 1];
        structure(&flat, &mut out).unwrap();
        assert!(out[0].abs() < 1e-7);
        assert!(structure(&flat[1..], &mut out).is_err());
    }

    /// Rows of [`LENGTH`] values with each `side` x `side` block of pixels averaged per
    /// colour (as `coarse` and `medium` in `vision/templates.py`).
    fn blocks(rows: &[f32], side: usize) -> Vec<f32> {
        let cells = SIZE / side;
        let mut out = Vec::new();
        for row in rows.chunks(LENGTH) {
            for r in 0..cells {
                for c in 0..cells {
                    for ch in 0..3 {
                        let mut sum = 0.0f32;
                        for y in r * side..(r + 1) * side {
                            for x in c * side..(c + 1) * side {
                                sum += row[(y * SIZE + x) * 3 + ch];
                            }
                        }
                        out.push(sum / (side * side) as f32);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_box_outside_the_image_is_refused() {
        let table = integral(&[0; 4 * 4 * 3], 4, 4);
        let far = vec![9i64; SIZE];
        let zero = vec![0i64; SIZE];
        let mut out = vec![0.0f32; LENGTH];
        assert!(box_means(&table, 5, &zero, &far, &zero, &zero, &[1], &mut out).is_err());
    }
}
