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

/// Each cell's root-mean-square distance to its nearest template, capped at `cap`.
///
/// `cells` (`n` x `length`) and `templates` (`t` x `length`), row-major; `small` and
/// `small_templates` the same rows with blocks of pixels averaged (`small_length`
/// values each; see `coarse` in `vision/templates.py`), whose distance bounds the
/// full one from below: a template whose bound is above the best found so far (with
/// `slack` for the single-precision means and sums) is skipped, and a full sum stops
/// as soon as it passes the best. Each distance measured is summed in `f64` in a fixed
/// order ([`squares`]), so the answer is the least distance over all templates, the
/// same on every machine.
/// O(cells x templates x `small_length` + pairs measured x `length`).
#[allow(clippy::too_many_arguments)]
pub fn nearest(
    cells: &[f32],
    templates: &[f32],
    small: &[f32],
    small_templates: &[f32],
    length: usize,
    small_length: usize,
    cap: f32,
    slack: f64,
    out: &mut [f32],
) -> Result<(), Invalid> {
    let n = out.len();
    if length == 0 || small_length == 0 || !templates.len().is_multiple_of(length) {
        return Err(Invalid("templates are not rows of `length` values".into()));
    }
    let t = templates.len() / length;
    if cells.len() != n * length
        || small.len() != n * small_length
        || small_templates.len() != t * small_length
    {
        return Err(Invalid(
            "the cells, their coarse vectors and the templates' disagree in size".into(),
        ));
    }
    let capped = f64::from(cap) * f64::from(cap) * length as f64;
    let mut bounds = vec![0.0f32; t];
    for k in 0..n {
        let cell = &cells[k * length..(k + 1) * length];
        let coarse = &small[k * small_length..(k + 1) * small_length];
        for (m, bound) in bounds.iter_mut().enumerate() {
            *bound = rough(
                coarse,
                &small_templates[m * small_length..(m + 1) * small_length],
            );
        }
        // the template the bounds put first, measured first, so the rest are cut early
        let first = (0..t)
            .min_by(|&a, &b| bounds[a].total_cmp(&bounds[b]))
            .unwrap_or(0);
        let mut best = capped;
        for m in std::iter::once(first).chain((0..t).filter(|&m| m != first)) {
            // the bound, a sum over the coarse values, as a mean square (a few units in
            // the last place of single precision off: `slack` covers it)
            if f64::from(bounds[m]) / small_length as f64 > best / length as f64 + slack {
                continue;
            }
            let sum = squares(cell, &templates[m * length..(m + 1) * length], best);
            best = best.min(sum);
        }
        out[k] = ((best / length as f64).sqrt() as f32).min(cap);
    }
    Ok(())
}

/// Lanes of the sums below: independent partial sums, added in a fixed order at the
/// end, so the compiler may keep them in vector registers, and every machine adds alike.
const LANES: usize = 8;

/// The sum of squared differences of `a` and `b` in single precision, in [`LANES`]
/// partial sums: for a lower bound only, where speed matters more than the last bits.
fn rough(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..LANES {
            let d = x[j] - y[j];
            acc[j] += d * d;
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(p, q)| (p - q) * (p - q)).sum();
    acc.iter().sum::<f32>() + tail
}

/// The sum of squared differences of `a` and `b` in `f64`, in [`LANES`] partial sums
/// added in a fixed order; once it passes `stop` (checked every 48 values), whatever it
/// has reached (more than `stop`).
fn squares(a: &[f32], b: &[f32], stop: f64) -> f64 {
    let mut acc = [0.0f64; LANES];
    let mut done = 0.0f64;
    for (x, y) in a.chunks(48).zip(b.chunks(48)) {
        let (cx, cy) = (x.chunks_exact(LANES), y.chunks_exact(LANES));
        let (rx, ry) = (cx.remainder(), cy.remainder());
        for (p, q) in cx.zip(cy) {
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
            cells in proptest::collection::vec(0u8..=255, 3 * 12),
            templates in proptest::collection::vec(0u8..=255, 5 * 12),
            cap in 0.05f32..1.0,
        ) {
            let level = |v: &Vec<u8>| v.iter().map(|&x| f32::from(x) / 255.0).collect::<Vec<_>>();
            let (cells, templates) = (level(&cells), level(&templates));
            // a coarse vector: the mean of each 4 values (a lower bound, as blocks are)
            let coarse = |v: &[f32]| v.chunks(4).map(|c| c.iter().sum::<f32>() / 4.0).collect::<Vec<_>>();
            let (small, small_t) = (coarse(&cells), coarse(&templates));
            let mut out = vec![0.0f32; 3];
            nearest(&cells, &templates, &small, &small_t, 12, 3, cap, 1e-5, &mut out).unwrap();
            for k in 0..3 {
                let brute = (0..5)
                    .map(|m| {
                        let s: f64 = (0..12)
                            .map(|i| (f64::from(cells[k * 12 + i]) - f64::from(templates[m * 12 + i])).powi(2))
                            .sum();
                        (s / 12.0).sqrt() as f32
                    })
                    .fold(f32::INFINITY, f32::min)
                    .min(cap);
                prop_assert!((out[k] - brute).abs() <= 1e-6, "{} {}", out[k], brute);
            }
        }
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
