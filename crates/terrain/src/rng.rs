//! The seeded PRNG: xoshiro128** (Blackman and Vigna, 2018), seeded through
//! SplitMix32.
//!
//! Why this one: it uses only 32-bit wrapping adds, shifts, rotates and
//! multiplies by 5 and 9 (shift-and-add on the ARM7TDMI), so it is fast on the
//! GBA and bit-identical on every host; its 128-bit state is 16 bytes; its
//! output passes BigCrush, far more than a terrain needs. xorshift32 would be
//! cheaper but its low bits are weak; PCG32 needs 64-bit multiplies.

/// xoshiro128** generator.
///
/// ```
/// use terrain::rng::Rng;
/// let mut rng = Rng::new(42);
/// let die = rng.below(6) + 1;
/// assert!((1..=6).contains(&die));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u32; 4],
}

/// Rotate left (`u32::rotate_left` is a `core` function: on the GBA it could
/// not be inlined into our ARM code).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
#[allow(clippy::manual_rotate)]
fn rotl(x: u32, k: u32) -> u32 {
    (x << k) | (x >> (32 - k))
}

/// SplitMix32 step (Steele, Lea, Flood), used to spread a 32-bit seed over the
/// state: every seed, 0 included, gives a non-zero state (SplitMix32 is a
/// bijection of its counter, and the four counters differ).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn splitmix32(x: &mut u32) -> u32 {
    *x = x.wrapping_add(0x9E37_79B9);
    let mut z = *x;
    z = (z ^ (z >> 16)).wrapping_mul(0x21F0_AAAD);
    z = (z ^ (z >> 15)).wrapping_mul(0x735A_2D97);
    z ^ (z >> 15)
}

impl Rng {
    /// A generator for `seed`.
    ///
    /// ```
    /// use terrain::rng::Rng;
    /// assert_eq!(Rng::new(0).next_u32(), Rng::new(0).next_u32()); // the seed decides; 0 is a seed too
    /// assert_ne!(Rng::new(0).next_u32(), Rng::new(1).next_u32());
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn new(seed: u32) -> Self {
        let mut x = seed;
        let s = [splitmix32(&mut x), splitmix32(&mut x), splitmix32(&mut x), splitmix32(&mut x)];
        Rng { s }
    }

    /// The next 32 random bits.
    ///
    /// ```
    /// let mut rng = terrain::rng::Rng::new(7);
    /// let (a, b) = (rng.next_u32(), rng.next_u32());
    /// assert_ne!(a, b);
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        let s = &mut self.s;
        let result = rotl(s[1].wrapping_mul(5), 7).wrapping_mul(9);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 11);
        result
    }

    /// A uniform value in `0..n` (Lemire's multiply-high: no division; the bias
    /// is below n / 2^32).
    ///
    /// ```
    /// let mut rng = terrain::rng::Rng::new(7);
    /// let mut seen = [false; 4];
    /// for _ in 0..100 {
    ///     seen[rng.below(4) as usize] = true;
    /// }
    /// assert_eq!(seen, [true; 4]);
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // xoshiro128** with state [1, 2, 3, 4] (reference implementation's
        // first outputs).
        let mut r = Rng { s: [1, 2, 3, 4] };
        let got: [u32; 4] = core::array::from_fn(|_| r.next_u32());
        assert_eq!(got, [11520, 0, 5927040, 70819200]);
    }

    #[test]
    fn seeds_differ_and_repeat() {
        let a: [u32; 8] = {
            let mut r = Rng::new(1);
            core::array::from_fn(|_| r.next_u32())
        };
        let b: [u32; 8] = {
            let mut r = Rng::new(1);
            core::array::from_fn(|_| r.next_u32())
        };
        let c: [u32; 8] = {
            let mut r = Rng::new(2);
            core::array::from_fn(|_| r.next_u32())
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut z = Rng::new(0);
        assert_ne!(z.next_u32() | z.next_u32(), 0);
    }

    /// `Rng::new` seeds through SplitMix32: the first outputs for seeds 7
    /// and 0, worked out by an independent implementation of both
    /// generators from their papers.
    #[test]
    fn seeded_sequences_are_pinned() {
        let mut r = Rng::new(7);
        let got: [u32; 4] = core::array::from_fn(|_| r.next_u32());
        assert_eq!(got, [0x0C8B_E48B, 0x2A62_4B5C, 0xEE0A_DC20, 0xF3BE_D522]);
        let mut r = Rng::new(0);
        let got: [u32; 4] = core::array::from_fn(|_| r.next_u32());
        assert_eq!(got, [0x6AB0_3720, 0x02AE_349E, 0x9649_5024, 0xE567_1339]);
    }

    /// `below(n)` is the high word of `next_u32() * n`: pinned sequences
    /// (from the same independent implementation), for small, medium and
    /// large `n`.
    #[test]
    fn below_is_the_multiply_high() {
        let mut r = Rng::new(7);
        let got: [u32; 16] = core::array::from_fn(|_| r.below(10));
        assert_eq!(got, [0, 1, 9, 9, 3, 6, 3, 1, 6, 7, 3, 0, 0, 3, 2, 4]);
        let mut r = Rng::new(7);
        let got: [u32; 8] = core::array::from_fn(|_| r.below(1000));
        assert_eq!(got, [49, 165, 929, 952, 397, 639, 306, 106]);
        let mut r = Rng::new(7);
        let got: [u32; 4] = core::array::from_fn(|_| r.below(0x8000_0000));
        assert_eq!(got, [105_247_301, 355_542_446, 1_996_844_560, 2_044_684_945]);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(7);
        for n in [1, 2, 3, 12, 255, 256, 1000] {
            for _ in 0..1000 {
                assert!(r.below(n) < n);
            }
        }
    }
}
