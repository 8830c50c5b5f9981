//! The palette plan of mode 4's 256 colours (BGR555):
//!
//! | entries | use |
//! |---|---|
//! | 0..16 | interface: text, HUD, error screens, tile boundaries |
//! | 16..48 | sky: 32 shades, top of the screen to the horizon |
//! | 48..256 | terrain: 4 fog levels x 52 bank colours |
//!
//! So a bank has at most 52 colours (`bank::MAX_COLOURS`); fog is free at draw
//! time: a distant sample just uses a later block of the same colour.

/// First sky entry.
pub const SKY_BASE: u8 = 16;
/// Sky entries.
pub const SKY_LEN: u8 = 32;
/// First terrain entry.
pub const TERRAIN_BASE: u8 = 48;
/// Terrain colours per fog level.
pub const TERRAIN_LEN: u8 = bank::MAX_COLOURS as u8;
/// Fog levels.
pub const FOG_LEVELS: u8 = 4;

/// Interface entries.
pub mod ui {
    pub const BLACK: u8 = 0;
    pub const WHITE: u8 = 1;
    pub const GREY: u8 = 2;
    pub const ERROR_RED: u8 = 3;
    pub const BOUNDARY: u8 = 4;
    pub const HUD_BG: u8 = 5;
}

/// The colours of a BGR555 value.
const fn split(c: u16) -> (u32, u32, u32) {
    ((c & 31) as u32, ((c >> 5) & 31) as u32, ((c >> 10) & 31) as u32)
}

const fn join(r: u32, g: u32, b: u32) -> u16 {
    (r | g << 5 | b << 10) as u16
}

/// `a` moved `num / 16` of the way to `b`.
pub const fn blend(a: u16, b: u16, num: u32) -> u16 {
    let (ar, ag, ab) = split(a);
    let (br, bg, bb) = split(b);
    join(
        (ar * (16 - num) + br * num + 8) / 16,
        (ag * (16 - num) + bg * num + 8) / 16,
        (ab * (16 - num) + bb * num + 8) / 16,
    )
}

/// Sky colour at the top of the screen and at the horizon.
pub const SKY_TOP: u16 = join(6, 12, 26);
pub const SKY_HORIZON: u16 = join(24, 27, 30);

/// How far (in 16ths) each fog level pulls a colour towards the horizon colour.
pub const FOG_AMOUNT: [u32; FOG_LEVELS as usize] = [0, 3, 6, 9];

/// The whole palette for a bank palette of `colours` (BGR555; unused entries black).
pub fn build(colours: &[u16]) -> [u16; 256] {
    let mut p = [0u16; 256];
    p[ui::BLACK as usize] = 0;
    p[ui::WHITE as usize] = join(31, 31, 31);
    p[ui::GREY as usize] = join(6, 6, 8);
    p[ui::ERROR_RED as usize] = join(12, 0, 0);
    p[ui::BOUNDARY as usize] = join(31, 24, 0);
    p[ui::HUD_BG as usize] = join(2, 3, 6);
    for i in 0..SKY_LEN as u32 {
        p[(SKY_BASE as u32 + i) as usize] = blend(SKY_TOP, SKY_HORIZON, i * 16 / (SKY_LEN as u32 - 1));
    }
    for (fog, amount) in FOG_AMOUNT.iter().enumerate() {
        for (i, c) in colours.iter().take(TERRAIN_LEN as usize).enumerate() {
            p[TERRAIN_BASE as usize + fog * TERRAIN_LEN as usize + i] = blend(*c & 0x7FFF, SKY_HORIZON, *amount);
        }
    }
    p
}

/// Palette index of bank colour `c` at fog level `fog`.
#[inline(always)]
pub const fn terrain(c: u8, fog: u8) -> u8 {
    TERRAIN_BASE + fog * TERRAIN_LEN + c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_fits_in_256_entries() {
        assert_eq!(TERRAIN_BASE as u32 + FOG_LEVELS as u32 * TERRAIN_LEN as u32, 256);
        assert_eq!(SKY_BASE + SKY_LEN, TERRAIN_BASE);
        let p = build(&[0x7FFF; 52]);
        assert_eq!(p[terrain(0, 0) as usize], 0x7FFF);
        assert_ne!(p[terrain(51, 3) as usize], 0x7FFF, "fogged");
        assert_eq!(p[SKY_BASE as usize], SKY_TOP);
        assert_eq!(p[(SKY_BASE + SKY_LEN - 1) as usize], SKY_HORIZON);
    }
}
