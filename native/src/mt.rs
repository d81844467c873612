//! The Mersenne Twister (MT19937) exactly as CPython's `random.Random` draws from it, for
//! the calls the layouts and the players make: seeding from an int, `getrandbits`,
//! `_randbelow` (rejection sampling), `choice`, `sample` (both of CPython 3.11's
//! algorithms) and `random`. Same seed, same draws, so a game played here makes the
//! moves the Python players make on the same seed.
//!
//! Seeding from an int `a` is CPython's `init_by_array` on the 32-bit chunks of `|a|`,
//! least significant first (one zero chunk for 0). A state can also be taken from
//! Python's `Random.getstate()` (624 words and the position), so a native player carries
//! on the very stream a Python `Random` was at.
//!
//! Cost: O(1) amortised per 32-bit word (a twist of 624 words every 624 draws);
//! `randbelow(n)` draws fewer than two words on average; `sample(n, k)` O(n) (pool) or
//! O(k) expected (set).

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A Mersenne Twister in CPython's `random.Random` state.
#[derive(Clone)]
pub struct Mt {
    state: [u32; N],
    index: usize,
}

impl std::fmt::Debug for Mt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mt(index={})", self.index)
    }
}

impl Mt {
    fn init_genrand(s: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = s;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt { state, index: N }
    }

    /// CPython's `init_by_array` (the wrapping arithmetic is MT19937's own, modulo 2^32).
    pub fn from_key(key: &[u32]) -> Self {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let mut mt = Mt::init_genrand(19_650_218);
        let mt_state = &mut mt.state;
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len();
        let mut k = N.max(len);
        while k > 0 {
            let prev = mt_state[i - 1];
            mt_state[i] = (mt_state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt_state[0] = mt_state[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = mt_state[i - 1];
            mt_state[i] = (mt_state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt_state[0] = mt_state[N - 1];
                i = 1;
            }
            k -= 1;
        }
        mt_state[0] = 0x8000_0000;
        mt
    }

    /// `random.Random(seed)` for a non-negative int below 2^64 (`derive_seed`'s range).
    pub fn from_u64(seed: u64) -> Self {
        let lo = seed as u32;
        let hi = (seed >> 32) as u32;
        if hi == 0 {
            Mt::from_key(&[lo])
        } else {
            Mt::from_key(&[lo, hi])
        }
    }

    /// The state of Python's `Random.getstate()[1]`: 624 words and the position (0..=624).
    pub fn from_state(words: &[u32], index: usize) -> Option<Self> {
        if words.len() != N || index > N {
            return None;
        }
        let mut state = [0u32; N];
        state.copy_from_slice(words);
        Some(Mt { state, index })
    }

    /// The state as Python's `Random.setstate` takes it (624 words, the position).
    pub fn state(&self) -> (Vec<u32>, usize) {
        (self.state.to_vec(), self.index)
    }

    fn twist(&mut self) {
        let mt = &mut self.state;
        for kk in 0..N {
            let y = (mt[kk] & UPPER_MASK) | (mt[(kk + 1) % N] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit word (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `k <= 64`: CPython fills 32-bit words from the least
    /// significant, the last one keeping its top `k mod 32` bits.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits above 64 bits is not needed here");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `_randbelow(n)` (n >= 1): `getrandbits(n.bit_length())` until below `n`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow(0)");
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// The index `choice` takes in a sequence of `len` items (`len >= 1`).
    pub fn choice(&mut self, len: usize) -> usize {
        self.randbelow(len as u64) as usize
    }

    /// `random()`: a float in [0, 1) from 53 bits.
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// The positions `sample(population, k)` takes from a population of `n` (`k <= n`),
    /// in selection order: CPython 3.11's pool algorithm when an `n`-list is smaller
    /// than a `k`-set, else its set algorithm (same draws, same result).
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "sample larger than population");
        let mut setsize = 21usize;
        if k > 5 {
            // 4 ** ceil(log(k * 3, 4)), with CPython's float logarithm
            let e = ((k as f64 * 3.0).ln() / 4f64.ln()).ceil();
            setsize += 4usize.saturating_pow(e as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow((n - i) as u64) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = vec![false; n];
            for _ in 0..k {
                let mut j = self.randbelow(n as u64) as usize;
                while selected[j] {
                    j = self.randbelow(n as u64) as usize;
                }
                selected[j] = true;
                result.push(j);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_of_cpython() {
        // random.Random(0).getrandbits(32) and random.Random(1).random(), from CPython 3.11
        let mut mt = Mt::from_u64(0);
        assert_eq!(mt.next_u32(), 3_626_764_237);
        let mut mt = Mt::from_u64(1);
        assert_eq!(mt.random(), 0.134_364_244_112_401_22);
        // random.Random(2**40 + 7).getrandbits(64)
        let mut mt = Mt::from_u64((1 << 40) + 7);
        let v = mt.getrandbits(64);
        assert_eq!(v, KNOWN_64);
    }

    const KNOWN_64: u64 = 13_785_699_202_830_676_186;

    #[test]
    fn sample_is_a_sample() {
        let mut mt = Mt::from_u64(5);
        for (n, k) in [(479, 99), (10_000, 30), (30, 30), (0, 0), (1, 1)] {
            let s = mt.sample(n, k);
            let mut t = s.clone();
            t.sort_unstable();
            t.dedup();
            assert_eq!(t.len(), k);
            assert!(s.iter().all(|&i| i < n));
        }
    }
}
