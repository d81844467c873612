//! Components and interior combined under the mine total (mirrors the Python layer 2
//! module `counting`, functions `rest_weights` and `combine`).
//!
//! With `I` interior cells, `M` mines left and `F` the product of the components'
//! polynomials, the layout count is `sum_t F[t] * C(I, M - t)`. The interior binomials
//! are needed only over the window of frontier mine numbers `t` the components can hold,
//! and are divided by their common factor `C(I, k_lo) / D` (`D` the product of
//! `k_lo + 1 ..= k_hi`), which keeps them small: `h[t] = C(I, M - t) * D / C(I, k_lo)`,
//! integers built by the recurrence `h(k + 1) = h(k) (I - k) / (k + 1)`. Suffix tables
//! (ways for components `j..` and the interior to hold what is left) and a prefix
//! product give each component's "rest" weight in one pass; the exact layout count is
//! `total * C(I, k_lo) / D` (the caller restores it). Cost: O(len(F) * sum of component
//! mine ranges) count operations.

use crate::frontier::ComponentCount;
use crate::ints::{convolve, Count, Overflow, Poly};
use crate::limits::{Deadline, Stop, MAX_TERMS};

/// The combination in the common scale: a box cell is a mine with probability
/// `box_weights[j][b] / total`, an interior cell with `interior_weight / (total * I)`;
/// the layout count is `total * C(I, k_lo) / d`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Combination<C> {
    pub total: C,
    pub box_weights: Vec<Vec<C>>,
    pub interior_weight: C,
    pub k_lo: u64,
    pub d: C,
}

/// Why a combination stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombineError {
    Overflow,
    Stop(Stop),
}

impl From<Overflow> for CombineError {
    fn from(_: Overflow) -> Self {
        CombineError::Overflow
    }
}

impl From<Stop> for CombineError {
    fn from(s: Stop) -> Self {
        CombineError::Stop(s)
    }
}

/// `sum_m poly[m] * weights[m + shift]` over the indices that exist.
fn dot_shifted<C: Count>(poly: &[C], weights: &[C], shift: usize) -> Result<C, Overflow> {
    let mut acc = C::zero();
    if shift < weights.len() {
        for (p, w) in poly.iter().zip(&weights[shift..]) {
            acc.add_mul(p, w)?;
        }
    }
    Ok(acc)
}

/// Combine `counts` with `interior` free cells under exactly `mines` mines; `Ok(None)`
/// when no layout has exactly that many.
pub fn combine<C: Count>(
    counts: &[&ComponentCount<C>],
    interior: u64,
    mines: u64,
    deadline: &Deadline,
) -> Result<Option<Combination<C>>, CombineError> {
    let n = counts.len();
    let mut most = vec![0u64; n + 1];
    let mut least = vec![0u64; n + 1];
    for (j, c) in counts.iter().enumerate() {
        let poly = &c.layouts;
        if poly.is_empty() {
            return Ok(None);
        }
        most[j + 1] = most[j] + poly.len() as u64 - 1;
        let low = poly.iter().position(|v| !v.is_zero()).unwrap_or(0);
        least[j + 1] = least[j] + low as u64;
    }
    let top = most[n].min(mines);
    if mines < least[n] {
        return Ok(None);
    }
    let (k_lo, k_hi) = (mines - top, interior.min(mines - least[n]));
    if k_lo > k_hi {
        return Ok(None);
    }
    let mut d = C::from_u64(1);
    for j in k_lo + 1..=k_hi {
        d.mul_small(j)?;
    }
    let top_u = top as usize;
    // the suffix tables hold sum_j min(most[j], top) + 1 terms: bounded, as the
    // frontier programme's layers are (thousands of components on a huge board)
    let terms: u64 = most[..n].iter().map(|&m| m.min(top) + 1).sum();
    if terms > MAX_TERMS as u64 {
        return Err(Stop::TooLarge.into());
    }
    let mut h: Vec<C> = vec![C::zero(); top_u + 1];
    let mut value = d.clone();
    for k in k_lo..=k_hi {
        if (k - k_lo) % 4096 == 4095 {
            deadline.check()?; // a huge interior: one step per mine number
        }
        h[(mines - k) as usize] = value.clone();
        if k < k_hi {
            value.mul_small(interior - k)?;
            value.div_small(k + 1);
        }
    }
    let mut tables: Vec<Vec<C>> = vec![Vec::new(); n + 1];
    tables[n] = h;
    for j in (0..n).rev() {
        deadline.check()?;
        let poly = &counts[j].layouts;
        let start = (least[j] as usize).min(top_u + 1);
        let end = (most[j] as usize).min(top_u);
        let mut t = vec![C::zero(); start];
        for a in start..=end {
            t.push(dot_shifted(poly, &tables[j + 1], a)?);
        }
        tables[j] = t;
    }
    let total = match tables[0].first() {
        Some(t) if !t.is_zero() => t.clone(),
        _ => return Ok(None),
    };
    let mut box_weights = Vec::with_capacity(n);
    let mut prefix: Poly<C> = vec![C::from_u64(1)];
    for (j, c) in counts.iter().enumerate() {
        deadline.check()?;
        let nxt = &tables[j + 1];
        let rest: Vec<C> = (0..c.layouts.len())
            .map(|k| dot_shifted(&prefix, nxt, k))
            .collect::<Result<_, _>>()?;
        let weights = c
            .box_mines
            .iter()
            .map(|bm| {
                let mut w = C::zero();
                for (x, r) in bm.iter().zip(&rest) {
                    w.add_mul(x, r)?;
                }
                Ok(w)
            })
            .collect::<Result<Vec<C>, Overflow>>()?;
        box_weights.push(weights);
        prefix = convolve(&prefix, &c.layouts)?;
        prefix.truncate(top_u + 1); // more mines than the total leave nothing to the rest
    }
    let mut interior_weight = C::zero();
    if interior > 0 {
        let h = &tables[n];
        for (t, v) in prefix.iter().enumerate().take(top_u + 1) {
            if v.is_zero() || h[t].is_zero() {
                continue;
            }
            let mut w = h[t].clone();
            w.mul_small(mines - t as u64)?;
            interior_weight.add_mul(v, &w)?;
        }
    }
    Ok(Some(Combination {
        total,
        box_weights,
        interior_weight,
        k_lo,
        d,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ints::Wide;
    use num_bigint::BigUint;

    fn count(layouts: &[u64], box_mines: &[&[u64]]) -> ComponentCount<BigUint> {
        let big = |v: &[u64]| v.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>();
        ComponentCount {
            layouts: big(layouts),
            box_mines: box_mines.iter().map(|b| big(b)).collect(),
        }
    }

    fn binom(n: u64, k: u64) -> BigUint {
        (0..k).fold(BigUint::from(1u8), |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn interior_only_and_too_many_mines() {
        let r = combine::<BigUint>(&[], 6, 2, &Deadline::none())
            .unwrap()
            .unwrap();
        assert_eq!(&r.total * binom(6, r.k_lo) / &r.d, BigUint::from(15u8));
        assert_eq!(r.interior_weight, &r.total * 2u8); // 2 mines over 6 cells: 1/3 each
        assert!(combine::<BigUint>(&[], 2, 3, &Deadline::none())
            .unwrap()
            .is_none());
        let c = count(&[0, 2], &[&[0, 1]]);
        assert!(combine(&[&c], 0, 0, &Deadline::none()).unwrap().is_none());
    }

    #[test]
    fn matches_a_direct_sum() {
        let a = count(&[1, 4, 2], &[&[0, 1, 1], &[0, 1, 2]]);
        let b = count(&[0, 3, 3, 1], &[&[0, 1, 2, 1]]);
        let (interior, mines) = (10u64, 4u64);
        let r = combine(&[&a, &b], interior, mines, &Deadline::none())
            .unwrap()
            .unwrap();
        // direct: sum over (ta, tb) of a[ta] b[tb] C(10, 4 - ta - tb)
        let mut want = BigUint::from(0u8);
        let mut a0 = BigUint::from(0u8); // layouts with box 0 of a a mine
        for (ta, x) in a.layouts.iter().enumerate() {
            for (tb, y) in b.layouts.iter().enumerate() {
                if ta + tb <= mines as usize {
                    let rest = binom(interior, mines - (ta + tb) as u64);
                    want += x * y * &rest;
                    a0 += &a.box_mines[0][ta] * y * &rest;
                }
            }
        }
        assert_eq!(&r.total * binom(interior, r.k_lo) / &r.d, want);
        // the same ratio: weight / total = a0 / want
        assert_eq!(&r.box_weights[0][0] * &want, &a0 * &r.total);
        let wide = a.convert::<Wide<4>>().unwrap();
        let wb = b.convert::<Wide<4>>().unwrap();
        let rw = combine(&[&wide, &wb], interior, mines, &Deadline::none())
            .unwrap()
            .unwrap();
        assert_eq!(rw.total.to_big(), r.total);
        assert_eq!(rw.interior_weight.to_big(), r.interior_weight);
    }
}
