//! Numbers as text without `core::fmt` and without division: the GBA has
//! no divide instruction, `/` is a call into `__aeabi_uidiv` (about a
//! hundred cycles), and `core::fmt`'s machinery is Thumb code in ROM. The
//! HUD ([`crate::hud`]) and the per-frame log line ([`crate::log::Line`])
//! write their numbers with these.

/// `v / 10` and `v % 10`: below 65,536 by one multiply (`v * 52429 >> 19`,
/// exact up to 81,919, and no overflow), else by shifts and adds (Hacker's
/// Delight's `divu10`). (A loop subtracting powers of ten is no way round
/// the division: the compiler turns it into one.)
pub fn div10(v: u32) -> (u32, u32) {
    if v < 1 << 16 {
        let q = (v * 52429) >> 19;
        return (q, v - ((q << 3) + (q << 1)));
    }
    let mut q = (v >> 1) + (v >> 2);
    q += q >> 4;
    q += q >> 8;
    q += q >> 16;
    q >>= 3;
    // q is v / 10 or one less: the remainder is below 20.
    let r = v - ((q << 3) + (q << 1));
    if r > 9 { (q + 1, r - 10) } else { (q, r) }
}

/// The decimal digits of `v` (ASCII, no sign, no padding: what `{}`
/// prints), written into the end of `buf`.
pub fn decimal(v: u32, buf: &mut [u8; 10]) -> &[u8] {
    let n = decimal_len(v);
    let mut at = buf.len();
    decimal_backwards(v, |d| {
        at -= 1;
        buf[at] = d;
    });
    &buf[buf.len() - n..]
}

/// How many digits [`decimal`] writes for `v` (1 to 10).
pub fn decimal_len(v: u32) -> usize {
    // Ten digits from 10^9 on (u32::MAX has ten): the loop below stops at
    // 10^9, whose next power would overflow.
    if v >= 1_000_000_000 {
        return 10;
    }
    let mut n = 1;
    let mut next = 10u32;
    while v >= next {
        n += 1;
        next = (next << 3) + (next << 1);
    }
    n
}

/// Hands `put` the decimal digits of `v` (ASCII), the last first: as many
/// as [`decimal_len`] says.
pub fn decimal_backwards(mut v: u32, mut put: impl FnMut(u8)) {
    loop {
        let (q, d) = div10(v);
        put(b'0' + d as u8);
        v = q;
        if v == 0 {
            break;
        }
    }
}

/// The hexadecimal digit of the low four bits of `v` (`upper`: `A..F`, else
/// `a..f`).
pub fn hex_digit(v: u32, upper: bool) -> u8 {
    let d = (v & 15) as u8;
    match (d < 10, upper) {
        (true, _) => b'0' + d,
        (false, true) => b'A' + d - 10,
        (false, false) => b'a' + d - 10,
    }
}
