//! Exact counts: the number types the dynamic programme and the combination run in.
//!
//! Every count is exact. [`Count`] is implemented by `u128` and by the fixed-width
//! [`Wide`] integers with *checked* arithmetic (an overflow is an [`Overflow`] error,
//! never a wrapped value), and by `BigUint`, which never overflows. The callers run the
//! fast types first and redo the work in `BigUint` on overflow (mirrors the Python layer
//! 2 module `counting`, where every count is a Python int).

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// A count did not fit the fixed-width type it was computed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// An exact non-negative integer with checked arithmetic.
pub trait Count: Clone + std::fmt::Debug + Send + 'static {
    fn zero() -> Self;
    fn from_u64(v: u64) -> Self;
    fn is_zero(&self) -> bool;
    /// `self += a`.
    fn add(&mut self, a: &Self) -> Result<(), Overflow>;
    /// `self += a * b`.
    fn add_mul(&mut self, a: &Self, b: &Self) -> Result<(), Overflow>;
    /// `self += a * k`.
    fn add_mul_small(&mut self, a: &Self, k: u64) -> Result<(), Overflow>;
    /// `self *= k`.
    fn mul_small(&mut self, k: u64) -> Result<(), Overflow>;
    /// `self /= k`, the division being exact (the callers divide binomial products).
    fn div_small(&mut self, k: u64);
    /// The value as a `BigUint`.
    fn to_big(&self) -> BigUint;
    /// The value from a `BigUint`, or [`Overflow`] when it does not fit.
    fn from_big(v: &BigUint) -> Result<Self, Overflow>;
}

impl Count for u128 {
    fn zero() -> Self {
        0
    }
    fn from_u64(v: u64) -> Self {
        u128::from(v)
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn add(&mut self, a: &Self) -> Result<(), Overflow> {
        *self = self.checked_add(*a).ok_or(Overflow)?;
        Ok(())
    }
    fn add_mul(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        let p = a.checked_mul(*b).ok_or(Overflow)?;
        self.add(&p)
    }
    fn add_mul_small(&mut self, a: &Self, k: u64) -> Result<(), Overflow> {
        self.add_mul(a, &u128::from(k))
    }
    fn mul_small(&mut self, k: u64) -> Result<(), Overflow> {
        *self = self.checked_mul(u128::from(k)).ok_or(Overflow)?;
        Ok(())
    }
    fn div_small(&mut self, k: u64) {
        *self /= u128::from(k);
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn from_big(v: &BigUint) -> Result<Self, Overflow> {
        v.to_u128().ok_or(Overflow)
    }
}

impl Count for BigUint {
    fn zero() -> Self {
        <BigUint as Zero>::zero()
    }
    fn from_u64(v: u64) -> Self {
        BigUint::from(v)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn add(&mut self, a: &Self) -> Result<(), Overflow> {
        *self += a;
        Ok(())
    }
    fn add_mul(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        if Zero::is_zero(a) || Zero::is_zero(b) {
            return Ok(());
        }
        // a product by a one-limb factor is a scalar multiplication (no allocation of a
        // temporary for the factor)
        if let Some(k) = b.to_u64() {
            *self += a * k;
        } else if let Some(k) = a.to_u64() {
            *self += b * k;
        } else {
            *self += a * b;
        }
        Ok(())
    }
    fn add_mul_small(&mut self, a: &Self, k: u64) -> Result<(), Overflow> {
        if k != 0 && !Zero::is_zero(a) {
            *self += a * k;
        }
        Ok(())
    }
    fn mul_small(&mut self, k: u64) -> Result<(), Overflow> {
        *self *= k;
        Ok(())
    }
    fn div_small(&mut self, k: u64) {
        *self /= k;
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn from_big(v: &BigUint) -> Result<Self, Overflow> {
        Ok(v.clone())
    }
}

/// A fixed-width unsigned integer of `N` 64-bit limbs (little-endian), with checked
/// arithmetic: no allocation, so the combination of an expert board (counts of a few
/// hundred bits) runs without touching the heap. `N` is at most [`MAX_LIMBS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const N: usize>(pub [u64; N]);

/// The largest `N` of [`Wide`] (the product buffer has twice as many limbs).
pub const MAX_LIMBS: usize = 16;

impl<const N: usize> Wide<N> {
    fn limbs(&self) -> usize {
        let mut n = N;
        while n > 0 && self.0[n - 1] == 0 {
            n -= 1;
        }
        n
    }
}

impl<const N: usize> Count for Wide<N> {
    fn zero() -> Self {
        Wide([0; N])
    }
    fn from_u64(v: u64) -> Self {
        let mut w = [0; N];
        w[0] = v;
        Wide(w)
    }
    fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }
    fn add(&mut self, a: &Self) -> Result<(), Overflow> {
        let mut carry = false;
        for (x, &y) in self.0.iter_mut().zip(a.0.iter()) {
            let (s1, c1) = x.overflowing_add(y);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *x = s2;
            carry = c1 || c2;
        }
        if carry {
            Err(Overflow)
        } else {
            Ok(())
        }
    }
    fn add_mul(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        let (la, lb) = (a.limbs(), b.limbs());
        if la == 0 || lb == 0 {
            return Ok(());
        }
        if la + lb - 1 > N {
            return Err(Overflow);
        }
        let mut prod = [0u64; 2 * MAX_LIMBS];
        for i in 0..la {
            let mut carry: u128 = 0;
            let x = u128::from(a.0[i]);
            for j in 0..lb {
                let t = x * u128::from(b.0[j]) + u128::from(prod[i + j]) + carry;
                prod[i + j] = t as u64;
                carry = t >> 64;
            }
            prod[i + lb] = carry as u64;
        }
        if la + lb > N && prod[N..la + lb].iter().any(|&x| x != 0) {
            return Err(Overflow);
        }
        let mut p = [0u64; N];
        p.copy_from_slice(&prod[..N]);
        self.add(&Wide(p))
    }
    fn add_mul_small(&mut self, a: &Self, k: u64) -> Result<(), Overflow> {
        let mut p = *a;
        p.mul_small(k)?;
        self.add(&p)
    }
    fn mul_small(&mut self, k: u64) -> Result<(), Overflow> {
        let mut carry: u128 = 0;
        for x in self.0.iter_mut() {
            let t = u128::from(*x) * u128::from(k) + carry;
            *x = t as u64;
            carry = t >> 64;
        }
        if carry != 0 {
            Err(Overflow)
        } else {
            Ok(())
        }
    }
    fn div_small(&mut self, k: u64) {
        let mut rem: u128 = 0;
        for x in self.0.iter_mut().rev() {
            let t = (rem << 64) | u128::from(*x);
            *x = (t / u128::from(k)) as u64;
            rem = t % u128::from(k);
        }
    }
    fn to_big(&self) -> BigUint {
        let mut digits = Vec::with_capacity(2 * N);
        for &x in &self.0[..self.limbs()] {
            digits.push(x as u32);
            digits.push((x >> 32) as u32);
        }
        BigUint::new(digits)
    }
    fn from_big(v: &BigUint) -> Result<Self, Overflow> {
        let digits = v.to_u64_digits();
        if digits.len() > N {
            return Err(Overflow);
        }
        let mut w = [0u64; N];
        w[..digits.len()].copy_from_slice(&digits);
        Ok(Wide(w))
    }
}

/// A mine-count polynomial: entry `m` counts layouts with `m` mines.
pub type Poly<C> = Vec<C>;

/// `acc += factor * x^shift * poly`, growing `acc` as needed.
pub fn add_shifted<C: Count>(
    acc: &mut Poly<C>,
    poly: &[C],
    shift: usize,
    factor: u64,
) -> Result<(), Overflow> {
    let need = poly.len() + shift;
    if acc.len() < need {
        acc.resize(need, C::zero());
    }
    if factor == 1 {
        for (a, v) in acc[shift..].iter_mut().zip(poly) {
            a.add(v)?;
        }
    } else {
        for (a, v) in acc[shift..].iter_mut().zip(poly) {
            a.add_mul_small(v, factor)?;
        }
    }
    Ok(())
}

/// `acc += factor * x^shift * a * b`, growing `acc` as needed: [`convolve`] and
/// [`add_shifted`] in one pass, without the product's own vector. O(len(a) * len(b)).
pub fn add_product_shifted<C: Count>(
    acc: &mut Poly<C>,
    a: &[C],
    b: &[C],
    shift: usize,
    factor: u64,
) -> Result<(), Overflow> {
    if a.is_empty() || b.is_empty() {
        return Ok(());
    }
    let need = a.len() + b.len() - 1 + shift;
    if acc.len() < need {
        acc.resize(need, C::zero());
    }
    let factor = C::from_u64(factor);
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        let mut xf = C::zero();
        xf.add_mul(x, &factor)?;
        for (out, y) in acc[shift + i..].iter_mut().zip(b) {
            out.add_mul(&xf, y)?;
        }
    }
    Ok(())
}

/// The product of two polynomials. O(len(a) * len(b)).
pub fn convolve<C: Count>(a: &[C], b: &[C]) -> Result<Poly<C>, Overflow> {
    if a.is_empty() || b.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = vec![C::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j].add_mul(x, y)?;
        }
    }
    Ok(out)
}

/// Drop the trailing zeros of a polynomial.
pub fn trim<C: Count>(poly: &mut Poly<C>) {
    while poly.last().is_some_and(Count::is_zero) {
        poly.pop();
    }
}

/// Pascal's triangle up to row [`BINOMIAL_ROWS`]` - 1`, made at compile time.
static BINOMIALS: [[u64; BINOMIAL_ROWS]; BINOMIAL_ROWS] = {
    let mut t = [[0u64; BINOMIAL_ROWS]; BINOMIAL_ROWS];
    let mut n = 0;
    while n < BINOMIAL_ROWS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n][k - 1] * (n + 1 - k) as u64 / k as u64;
            k += 1;
        }
        n += 1;
    }
    t
};

/// Rows of [`binomial_row`] (`C(62, 31)` is the largest binomial that fits this table's
/// recurrence in `u64`).
pub const BINOMIAL_ROWS: usize = 63;

/// `C(n, k)` for `k = 0..=n` as `u64` (`n` at most 62: no overflow), from a table made
/// at compile time: O(1), no allocation.
pub fn binomial_row(n: usize) -> &'static [u64] {
    &BINOMIALS[n][..=n]
}

/// Convert a polynomial from one count type to another.
pub fn convert<A: Count, B: Count>(poly: &[A]) -> Result<Poly<B>, Overflow> {
    poly.iter().map(|v| B::from_big(&v.to_big())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: u128) -> BigUint {
        BigUint::from(v)
    }

    #[test]
    fn u128_overflow_is_an_error() {
        let mut x = u128::MAX;
        assert_eq!(x.add(&1), Err(Overflow));
        x = 1 << 100;
        assert_eq!(x.mul_small(1 << 30), Err(Overflow));
    }

    #[test]
    fn wide_matches_biguint() {
        let a = Wide::<4>::from_big(&(big(u128::MAX) * big(12345))).unwrap();
        let b = Wide::<4>::from_big(&big(987_654_321_987_654_321)).unwrap();
        let mut acc = Wide::<4>::from_u64(7);
        acc.add_mul(&a, &b).unwrap();
        let want = big(u128::MAX) * big(12345) * big(987_654_321_987_654_321) + big(7);
        assert_eq!(acc.to_big(), want);
        let mut c = acc;
        c.mul_small(1000).unwrap();
        c.div_small(1000);
        assert_eq!(c, acc);
    }

    #[test]
    fn wide_overflow_is_an_error() {
        let top = Wide::<2>([0, 1 << 63]);
        let mut acc = Wide::<2>::zero();
        assert_eq!(acc.add_mul(&top, &Wide::from_u64(2)), Err(Overflow));
        let mut t = top;
        assert_eq!(t.add(&top), Err(Overflow));
        let mut t = top; // a failed operation leaves garbage: the caller starts again
        assert_eq!(t.mul_small(2), Err(Overflow));
        assert!(Wide::<2>::from_big(&(BigUint::from(1u8) << 128)).is_err());
    }

    #[test]
    fn binomials_and_polynomials() {
        assert_eq!(binomial_row(4), vec![1, 4, 6, 4, 1]);
        assert_eq!(binomial_row(62)[31], 465_428_353_255_261_088);
        let p = convolve::<u128>(&[1, 2], &[3, 0, 1]).unwrap();
        assert_eq!(p, vec![3, 6, 1, 2]);
        let mut acc: Vec<u128> = vec![1];
        add_shifted(&mut acc, &[1, 1], 2, 3).unwrap();
        assert_eq!(acc, vec![1, 0, 3, 3]);
        let mut z: Vec<u128> = vec![1, 0, 0];
        trim(&mut z);
        assert_eq!(z, vec![1]);
    }
}
