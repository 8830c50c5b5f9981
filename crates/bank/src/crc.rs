//! CRC-32/ISO-HDLC (zlib's) a word at a time: slicing-by-4 tables computed at
//! compile time, and a portable slicing-by-4 update. The ROM's ARM scan reads
//! the same tables; [`crate::crc32`] (the `crc` crate) stays the reference.

/// The reflected polynomial.
pub const POLY: u32 = 0xEDB8_8320;

/// Slicing-by-4 tables: `TABLES[0]` is the byte-wise table; `TABLES[k][i]`
/// is the CRC of byte `i` followed by `k` zero bytes.
pub const TABLES: [[u32; 256]; 4] = {
    let mut t = [[0u32; 256]; 4];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { POLY ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut s = 1;
    while s < 4 {
        let mut i = 0;
        while i < 256 {
            let p = t[s - 1][i];
            t[s][i] = (p >> 8) ^ t[0][(p & 0xFF) as usize];
            i += 1;
        }
        s += 1;
    }
    t
};

/// Advances a running CRC state (start from `!0`, finish with `!`) over
/// `bytes`: four bytes per step with [`TABLES`].
///
/// ```
/// use bank::crc::update;
/// // In pieces, as a stream arrives.
/// let state = update(update(!0, b"1234"), b"56789");
/// assert_eq!(!state, 0xCBF4_3926); // CRC-32 of "123456789", the standard check value
/// ```
pub fn update(mut crc: u32, bytes: &[u8]) -> u32 {
    let mut words = bytes.chunks_exact(4);
    for w in &mut words {
        let c = crc ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        crc = TABLES[3][(c & 0xFF) as usize]
            ^ TABLES[2][((c >> 8) & 0xFF) as usize]
            ^ TABLES[1][((c >> 16) & 0xFF) as usize]
            ^ TABLES[0][(c >> 24) as usize];
    }
    for b in words.remainder() {
        crc = TABLES[0][((crc ^ *b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc
}

/// CRC-32 of `bytes` by [`update`].
///
/// ```
/// assert_eq!(bank::crc::crc32(b"123456789"), 0xCBF4_3926); // the standard check value
/// assert_eq!(bank::crc::crc32(b""), 0);
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    !update(!0, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slicing_by_4_equals_the_reference() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        let mut x = 0x9E37_79B9u32;
        let data: [u8; 1024] = core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        });
        for start in 0..8 {
            for len in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100, 1000] {
                let bytes = &data[start..start + len.min(1016)];
                assert_eq!(crc32(bytes), crate::crc32(bytes), "start {start} len {len}");
            }
        }
        // A running state split anywhere gives the same CRC.
        let (a, b) = data.split_at(333);
        assert_eq!(!update(update(!0, a), b), crate::crc32(&data));
    }
}
