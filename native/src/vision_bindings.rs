//! Bindings of the screenshot kernels ([`crate::vision`]): numpy arrays in through the
//! buffer protocol (no copy: an image's running sums are tens of megabytes, and a read
//! calls the kernels thousands of times), the GIL released while they work, the answer
//! written into an array the caller made. Thin: checks of the buffers' kind and shape
//! here, of their contents in [`crate::vision`].

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::guarded;
use crate::vision;

/// A C-contiguous buffer's memory, to be read or written without the GIL.
struct Raw<T> {
    ptr: *mut T,
    len: usize,
}

// SAFETY: a `Raw` is made from a `PyBuffer` that the binding holds until the kernel
// returns (the exporter keeps the memory alive and in place while a buffer is held), and
// is used only inside that call.
unsafe impl<T> Send for Raw<T> {}

impl<T> Raw<T> {
    /// The buffer's values, read-only.
    ///
    /// # Safety
    /// The buffer `self` came from is still held, and no other thread writes it.
    unsafe fn slice<'a>(&self) -> &'a [T] {
        std::slice::from_raw_parts(self.ptr, self.len)
    }

    /// The buffer's values, to be written.
    ///
    /// # Safety
    /// As [`Raw::slice`], and no other `Raw` of this call overlaps it ([`disjoint`]).
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice_mut<'a>(&self) -> &'a mut [T] {
        std::slice::from_raw_parts_mut(self.ptr, self.len)
    }

    fn span(&self) -> (usize, usize) {
        let start = self.ptr as usize;
        (start, start + self.len * std::mem::size_of::<T>())
    }
}

/// `buffer` (named `what` in an error) as a C-contiguous array of `T`; writable when
/// `write`.
fn raw<T: Element>(buffer: &PyBuffer<T>, what: &str, write: bool) -> PyResult<Raw<T>> {
    if !buffer.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{what} must be C-contiguous"
        )));
    }
    if write && buffer.readonly() {
        return Err(PyValueError::new_err(format!("{what} must be writable")));
    }
    Ok(Raw {
        ptr: buffer.buf_ptr().cast::<T>(),
        len: buffer.item_count(),
    })
}

/// An error unless the output's memory overlaps none of the inputs'.
fn disjoint(out: (usize, usize), inputs: &[(usize, usize)]) -> PyResult<()> {
    if inputs.iter().any(|&(a, b)| a < out.1 && out.0 < b) {
        return Err(PyValueError::new_err("the output array overlaps an input"));
    }
    Ok(())
}

/// Boxes of an image scaled to 16 x 16 (Pillow's box filter, in its fixed point) from
/// its running sums, written into `out`: see [`vision::box_means`].
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn box_means(
    py: Python<'_>,
    table: PyBuffer<u32>,
    width: usize,
    ay: PyBuffer<i64>,
    by: PyBuffer<i64>,
    ax: PyBuffer<i64>,
    bx: PyBuffer<i64>,
    ok: PyBuffer<u8>,
    out: PyBuffer<f32>,
) -> PyResult<()> {
    let t = raw(&table, "table", false)?;
    let ranges = [
        raw(&ay, "ay", false)?,
        raw(&by, "by", false)?,
        raw(&ax, "ax", false)?,
        raw(&bx, "bx", false)?,
    ];
    let k = raw(&ok, "ok", false)?;
    let o = raw(&out, "out", true)?;
    let mut spans = vec![t.span(), k.span()];
    spans.extend(ranges.iter().map(Raw::span));
    disjoint(o.span(), &spans)?;
    let [ay, by, ax, bx] = ranges;
    guarded(py, move || {
        // SAFETY: every buffer is held by this call until `guarded` returns, numpy
        // arrays made by the caller for this call alone, and `out` overlaps no input
        unsafe {
            vision::box_means(
                t.slice(),
                width,
                ay.slice(),
                by.slice(),
                ax.slice(),
                bx.slice(),
                k.slice(),
                o.slice_mut(),
            )
        }
    })
}

/// Each cell's distance to its nearest template, capped, written into `out`: see
/// [`vision::nearest`] (each array C-contiguous float32: the cells and the templates in
/// rows of 768 values, the templates' medium and coarse vectors in rows of 192 and 48).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn nearest(
    py: Python<'_>,
    cells: PyBuffer<f32>,
    templates: PyBuffer<f32>,
    templates_medium: PyBuffer<f32>,
    templates_coarse: PyBuffer<f32>,
    cap: f32,
    slack: f64,
    stop: f64,
    out: PyBuffer<f32>,
) -> PyResult<()> {
    let inputs = [
        raw(&cells, "cells", false)?,
        raw(&templates, "templates", false)?,
        raw(&templates_medium, "templates_medium", false)?,
        raw(&templates_coarse, "templates_coarse", false)?,
    ];
    let o = raw(&out, "out", true)?;
    disjoint(o.span(), &inputs.iter().map(Raw::span).collect::<Vec<_>>())?;
    let [c, t, tm, tc] = inputs;
    guarded(py, move || {
        // SAFETY: as in `box_means`
        unsafe {
            let levels = vision::Levels {
                full: t.slice(),
                medium: tm.slice(),
                coarse: tc.slice(),
            };
            vision::nearest(c.slice(), levels, cap, slack, stop, o.slice_mut())
        }
    })
}

/// How far each cell is from a flat patch of its own mean colour, written into `out`
/// (float32 a cell): see [`vision::structure`] (`cells`: C-contiguous float32, rows of
/// 768 values).
#[pyfunction]
fn structure(py: Python<'_>, cells: PyBuffer<f32>, out: PyBuffer<f32>) -> PyResult<()> {
    let c = raw(&cells, "cells", false)?;
    let o = raw(&out, "out", true)?;
    disjoint(o.span(), &[c.span()])?;
    guarded(py, move || {
        // SAFETY: as in `box_means`
        unsafe { vision::structure(c.slice(), o.slice_mut()) }
    })
}

/// The running sums of an RGB image, written into `out`: see [`vision::integral`]
/// (`pixels`: C-contiguous uint8, rows of `width` pixels of 3 values; `out`: C-contiguous
/// uint32, `height + 1` rows of `width + 1` entries of 3 values).
#[pyfunction]
fn integral(
    py: Python<'_>,
    pixels: PyBuffer<u8>,
    width: usize,
    out: PyBuffer<u32>,
) -> PyResult<()> {
    let p = raw(&pixels, "pixels", false)?;
    let o = raw(&out, "out", true)?;
    disjoint(o.span(), &[p.span()])?;
    guarded(py, move || {
        // SAFETY: as in `box_means`
        unsafe { vision::integral(p.slice(), width, o.slice_mut()) }
    })
}

/// The edge maps of an RGB image, written into `vx` and `vy`: see [`vision::edges`]
/// (`pixels`: C-contiguous uint8, rows of `width` pixels of 3 values; `vx`, `vy`:
/// C-contiguous float32 of `height` x `width - 1` and `height - 1` x `width`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn edges(
    py: Python<'_>,
    pixels: PyBuffer<u8>,
    width: usize,
    threshold: u8,
    run: usize,
    cap: u8,
    vx: PyBuffer<f32>,
    vy: PyBuffer<f32>,
) -> PyResult<()> {
    let p = raw(&pixels, "pixels", false)?;
    let ox = raw(&vx, "vx", true)?;
    let oy = raw(&vy, "vy", true)?;
    disjoint(ox.span(), &[p.span(), oy.span()])?;
    disjoint(oy.span(), &[p.span()])?;
    guarded(py, move || {
        // SAFETY: as in `box_means`
        unsafe {
            vision::edges(
                p.slice(),
                width,
                threshold,
                run,
                cap,
                ox.slice_mut(),
                oy.slice_mut(),
            )
        }
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(edges, m)?)?;
    m.add_function(wrap_pyfunction!(integral, m)?)?;
    m.add_function(wrap_pyfunction!(box_means, m)?)?;
    m.add_function(wrap_pyfunction!(nearest, m)?)?;
    m.add_function(wrap_pyfunction!(structure, m)?)?;
    Ok(())
}
