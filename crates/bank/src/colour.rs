//! Colours: the GBA's BGR555 (bits 0..5 red, 5..10 green, 10..15 blue, bit
//! 15 clear), as bank palettes store them, and 8-bit RGB.

/// The 5-bit channels (red, green, blue) of a BGR555 colour.
///
/// ```
/// assert_eq!(bank::colour::channels(0x7C1F), [31, 0, 31]); // magenta
/// ```
pub const fn channels(c: u16) -> [u8; 3] {
    [(c & 31) as u8, ((c >> 5) & 31) as u8, ((c >> 10) & 31) as u8]
}

/// A BGR555 colour from 5-bit channels (each masked to 5 bits).
///
/// ```
/// assert_eq!(bank::colour::from_channels([31, 0, 31]), 0x7C1F);
/// assert_eq!(bank::colour::from_channels([32, 0, 0]), 0); // 32 masked to 0
/// ```
pub const fn from_channels([r, g, b]: [u8; 3]) -> u16 {
    (r as u16 & 31) | (g as u16 & 31) << 5 | (b as u16 & 31) << 10
}

/// 8-bit RGB of a BGR555 colour: each 5-bit channel widened by repeating its
/// top bits (0 -> 0, 31 -> 255).
///
/// ```
/// assert_eq!(bank::colour::to_rgb888(0x7FFF), [255, 255, 255]);
/// assert_eq!(bank::colour::to_rgb888(bank::colour::from_channels([16, 1, 0])), [132, 8, 0]);
/// ```
pub const fn to_rgb888(c: u16) -> [u8; 3] {
    let [r, g, b] = channels(c);
    [r << 3 | r >> 2, g << 3 | g >> 2, b << 3 | b >> 2]
}

/// BGR555 of 8-bit RGB, each channel rounded to the nearest of 32 levels.
///
/// ```
/// use bank::colour::{from_channels, from_rgb888};
/// assert_eq!(from_rgb888([255, 128, 0]), from_channels([31, 16, 0]));
/// ```
pub const fn from_rgb888([r, g, b]: [u8; 3]) -> u16 {
    const fn five(c: u8) -> u8 {
        // At most (255 * 31 + 127) / 255 = 31.
        ((c as u16 * 31 + 127) / 255) as u8
    }
    from_channels([five(r), five(g), five(b)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_values() {
        assert_eq!(channels(0x7FFF), [31, 31, 31]);
        assert_eq!(channels(0x03E0), [0, 31, 0]);
        assert_eq!(from_channels([1, 2, 3]), 1 | 2 << 5 | 3 << 10);
        assert_eq!(to_rgb888(0x001F), [255, 0, 0]);
        assert_eq!(to_rgb888(from_channels([16, 8, 1])), [132, 66, 8]);
        assert_eq!(from_rgb888([255, 128, 0]), from_channels([31, 16, 0]));
        assert_eq!(from_rgb888([4, 5, 0]), from_channels([0, 1, 0]));
    }

    #[test]
    fn round_trips() {
        for c in 0..0x8000u16 {
            assert_eq!(from_rgb888(to_rgb888(c)), c);
            assert_eq!(from_channels(channels(c)), c);
        }
    }
}
