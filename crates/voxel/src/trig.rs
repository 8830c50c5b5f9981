//! Sine and cosine without floating point: a 1024-entry table of sin in 2.14
//! fixed point, computed at compile time with an integer Taylor series.
//!
//! Angles are `u16`: 65,536 steps per turn.

/// Table entries per turn.
pub const STEPS: usize = 1024;
/// 1.0 in the table's fixed point (2.14).
pub const ONE: i32 = 1 << 14;

/// sin(2 pi k / STEPS) for k in 0..=STEPS/4, in 2.30 fixed point.
const fn quarter(k: i64) -> i64 {
    // x in 2.30: 2 pi k / STEPS, pi = 3.14159265358979 as 2.30 = 3373259426.
    const PI_230: i64 = 3_373_259_426;
    let x = 2 * PI_230 * k / STEPS as i64;
    let x2 = (x * x) >> 30;
    // x - x^3/3! + x^5/5! - x^7/7! + x^9/9! - x^11/11!, Horner form; the error
    // on [0, pi/2] is below 1e-8, far under the table's 2^-14 step.
    let mut t = (1i64 << 30) / 39_916_800;
    t = (1i64 << 30) / 362_880 - ((t * x2) >> 30);
    t = (1i64 << 30) / 5040 - ((t * x2) >> 30);
    t = (1i64 << 30) / 120 - ((t * x2) >> 30);
    t = (1i64 << 30) / 6 - ((t * x2) >> 30);
    t = (1i64 << 30) - ((t * x2) >> 30);
    (t * x) >> 30
}

/// sin table, 2.14 fixed point.
pub static SIN: [i16; STEPS] = {
    let mut t = [0i16; STEPS];
    let mut k = 0;
    while k < STEPS {
        let q = k % (STEPS / 2);
        let v = if q <= STEPS / 4 { quarter(q as i64) } else { quarter((STEPS / 2 - q) as i64) };
        let v = ((v + (1 << 15)) >> 16) as i16;
        t[k] = if k < STEPS / 2 { v } else { -v };
        k += 1;
    }
    t
};

/// sin(angle), 2.14 fixed point.
///
/// ```
/// use voxel::trig::{ONE, sin};
/// assert_eq!(sin(0), 0);
/// assert_eq!(sin(16_384), ONE); // a quarter turn: 1.0
/// assert_eq!(sin(49_152), -ONE);
/// ```
#[inline]
pub fn sin(angle: u16) -> i32 {
    SIN[(angle >> 6) as usize] as i32
}

/// cos(angle), 2.14 fixed point.
///
/// ```
/// use voxel::trig::{ONE, cos};
/// assert_eq!(cos(0), ONE);
/// assert_eq!(cos(32_768), -ONE); // half a turn
/// ```
#[inline]
pub fn cos(angle: u16) -> i32 {
    SIN[(angle.wrapping_add(16384) >> 6) as usize] as i32
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn matches_the_float_sine() {
        for (k, v) in SIN.iter().enumerate() {
            let want = (2.0 * std::f64::consts::PI * k as f64 / STEPS as f64).sin() * ONE as f64;
            assert!((*v as f64 - want).abs() <= 1.0, "k {k}: {v} vs {want}");
        }
        assert_eq!(sin(0), 0);
        assert_eq!(cos(0), ONE);
        assert_eq!(sin(16384), ONE);
        assert_eq!(cos(32768), -ONE);
    }

    /// Every entry is the float sine rounded to the nearest 2.14 value (not
    /// only within one of it), and the quadrants' ends and the angles of
    /// 30, 45 and 60 degrees are pinned.
    #[test]
    fn entries_are_the_rounded_sine() {
        let off: std::vec::Vec<usize> = (0..STEPS)
            .filter(|&k| {
                let want = (2.0 * std::f64::consts::PI * k as f64 / STEPS as f64).sin() * ONE as f64;
                SIN[k] as f64 != want.round()
            })
            .collect();
        assert!(off.is_empty(), "entries not the rounded sine: {off:?}");
        // 0, 30, 45, 60, 90 degrees, and the quadrant ends; sin(30) is 8192
        // exactly but the table's k = 85.33 is not an entry: 85 and 86.
        assert_eq!([SIN[0], SIN[85], SIN[86], SIN[128], SIN[171], SIN[256]], [0, 8163, 8250, 11585, 14206, 16384]);
        assert_eq!(
            [SIN[511], SIN[512], SIN[513], SIN[767], SIN[768], SIN[769]],
            [101, 0, -101, -16384, -16384, -16384]
        );
        assert_eq!((sin(8192), cos(8192), sin(24576), cos(24576)), (11585, 11585, 11585, -11585));
        assert_eq!((sin(65535), cos(65535), sin(16383), cos(16383)), (-101, 16384, 16384, 101));
    }
}
