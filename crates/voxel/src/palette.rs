//! The palette plan of mode 4's 256 colours (BGR555):
//!
//! | entries | use |
//! |---|---|
//! | 0..12 | interface: text, HUD, error screens, the map's marks |
//! | 12..44 | sky: 32 shades, top of the screen to the horizon |
//! | 44..256 | terrain: 4 fog levels, each 52 bank colours and the boundary view's mark |
//!
//! So a bank has at most 52 colours (`bank::MAX_COLOURS`); fog is free at draw
//! time: a distant sample just uses a later block of the same colour. The
//! boundary view's lines are texels of colour [`MARK`], one past the bank's:
//! fogged like the rest, and drawn like any other texel.

/// First sky entry.
pub const SKY_BASE: u8 = 12;
/// Sky entries.
pub const SKY_LEN: u8 = 32;
/// First terrain entry.
pub const TERRAIN_BASE: u8 = 44;
/// Terrain colours per fog level: the bank's.
pub const TERRAIN_LEN: u8 = bank::MAX_COLOURS as u8;
/// The colour, past the bank's, of the texels on tile borders in the
/// boundary view (`Options::boundaries`): each fog level's last entry, the
/// interface's [`ui::BOUNDARY`] fogged.
pub const MARK: u8 = TERRAIN_LEN;
/// Entries from one fog level's block to the next: the bank's colours and
/// the mark.
pub const TERRAIN_STRIDE: u8 = TERRAIN_LEN + 1;
/// Fog levels.
pub const FOG_LEVELS: u8 = 4;

// The plan: the interface's entries, then the sky's, then the terrain's
// blocks, to the last entry.
const _: () = {
    assert!(ui::HUD_BG < SKY_BASE && SKY_BASE + SKY_LEN == TERRAIN_BASE);
    assert!(TERRAIN_BASE as u32 + FOG_LEVELS as u32 * TERRAIN_STRIDE as u32 == 256);
};

/// Interface entries.
pub mod ui {
    pub const BLACK: u8 = 0;
    pub const WHITE: u8 = 1;
    pub const GREY: u8 = 2;
    pub const ERROR_RED: u8 = 3;
    pub const BOUNDARY: u8 = 4;
    pub const HUD_BG: u8 = 5;
}

/// The 5-bit channels of a BGR555 value (`bank::colour`).
const fn split(c: u16) -> (u32, u32, u32) {
    let [r, g, b] = bank::colour::channels(c);
    (r as u32, g as u32, b as u32)
}

const fn join(r: u32, g: u32, b: u32) -> u16 {
    bank::colour::from_channels([r as u8, g as u8, b as u8])
}

/// `a` moved `num / 16` of the way to `b`.
///
/// # Panics
/// In debug builds (and at compile time in constants) if `num` is more
/// than 16.
///
/// ```
/// use voxel::palette::blend;
/// let (black, white) = (0x0000, 0x7FFF);
/// assert_eq!(blend(black, white, 0), black);
/// assert_eq!(blend(black, white, 8), bank::colour::from_channels([16, 16, 16])); // half way, rounded
/// assert_eq!(blend(black, white, 16), white);
/// ```
pub const fn blend(a: u16, b: u16, num: u32) -> u16 {
    let (ar, ag, ab) = split(a);
    let (br, bg, bb) = split(b);
    join(
        (ar * (16 - num) + br * num + 8) / 16,
        (ag * (16 - num) + bg * num + 8) / 16,
        (ab * (16 - num) + bb * num + 8) / 16,
    )
}

/// Sky colour at the top of the screen and at the horizon (the plain mood).
pub const SKY_TOP: u16 = join(6, 12, 26);
pub const SKY_HORIZON: u16 = join(24, 27, 30);

/// How far (in 16ths) each fog level pulls a colour towards the horizon colour.
pub const FOG_AMOUNT: [u32; FOG_LEVELS as usize] = [0, 3, 6, 9];

/// A world's look: sky, light on the land, water. Derived from the seed, so
/// two worlds rarely look alike, from a few natural base moods.
///
/// ```
/// use voxel::palette::{MOODS, Mood};
/// let mood = Mood::of(7);
/// let (name, sky_top, ..) = MOODS[mood.base];
/// assert_eq!(mood.sky_top, sky_top);
/// println!("world 7 is a {name} world");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mood {
    /// Which base mood (index into [`MOODS`]).
    pub base: usize,
    pub sky_top: u16,
    pub sky_horizon: u16,
    /// Light on land colours: red, green, blue gains in 16ths.
    pub light: [u32; 3],
    /// Gains for water colours (blue-dominant ones).
    pub water: [u32; 3],
}

/// A base mood: (name, sky top, horizon, land light, water light).
pub type BaseMood = (&'static str, u16, u16, [u32; 3], [u32; 3]);

/// The base moods.
pub const MOODS: [BaseMood; 6] = [
    ("summer", join(6, 12, 26), join(24, 27, 30), [16, 16, 16], [16, 16, 16]),
    ("autumn", join(8, 11, 22), join(28, 24, 20), [20, 15, 11], [14, 15, 15]),
    ("winter", join(14, 16, 22), join(27, 28, 30), [15, 16, 19], [13, 16, 19]),
    ("dusk", join(6, 4, 14), join(30, 18, 12), [19, 13, 12], [15, 12, 16]),
    ("tropical", join(2, 14, 28), join(22, 30, 31), [14, 19, 14], [10, 20, 18]),
    ("overcast", join(14, 15, 17), join(22, 23, 24), [14, 15, 15], [14, 15, 15]),
];

impl Mood {
    /// The mood of the world of `seed`: a base mood and a small jitter of its light.
    ///
    /// ```
    /// use voxel::palette::Mood;
    /// assert_eq!(Mood::of(7), Mood::of(7)); // the seed decides
    /// assert!(Mood::of(7).light.iter().all(|&g| g >= 8)); // gains in 16ths, never below half
    /// ```
    pub fn of(seed: u32) -> Mood {
        let mut rng = terrain::rng::Rng::new(seed ^ 0x6D6F_6F64);
        let base = rng.below(MOODS.len() as u32) as usize;
        let (_, sky_top, sky_horizon, light, water) = MOODS[base];
        let mut jitter = |g: [u32; 3]| g.map(|v| (v as i32 + rng.below(5) as i32 - 2).max(8) as u32);
        Mood { base, sky_top, sky_horizon, light: jitter(light), water: jitter(water) }
    }

    /// The plain mood (summer, no jitter).
    pub const PLAIN: Mood =
        Mood { base: 0, sky_top: SKY_TOP, sky_horizon: SKY_HORIZON, light: [16, 16, 16], water: [16, 16, 16] };
}

fn lit(c: u16, gains: [u32; 3]) -> u16 {
    let (r, g, b) = split(c);
    let f = |v: u32, k: u32| ((v * k + 8) / 16).min(31);
    join(f(r, gains[0]), f(g, gains[1]), f(b, gains[2]))
}

/// The whole palette for a bank palette of `colours` (BGR555; unused entries
/// black) in `mood`.
///
/// ```
/// use voxel::palette::{Mood, build, terrain};
/// let colours = [0x03E0, 0x7C00]; // the bank's: green, blue (BGR555)
/// let palette = build(&colours, &Mood::of(1));
/// // Load it into the background palette (0x0500_0000) once per world; a
/// // frame's pixels are indices into it. Colour 1 of the bank, unfogged:
/// let near_blue = palette[terrain(1, 0) as usize];
/// // Far away the same colour is fogged towards the sky.
/// assert_ne!(palette[terrain(1, 3) as usize], near_blue);
/// ```
pub fn build(colours: &[u16], mood: &Mood) -> [u16; 256] {
    let mut p = [0u16; 256];
    p[ui::BLACK as usize] = 0;
    p[ui::WHITE as usize] = join(31, 31, 31);
    p[ui::GREY as usize] = join(6, 6, 8);
    p[ui::ERROR_RED as usize] = join(12, 0, 0);
    p[ui::BOUNDARY as usize] = BOUNDARY;
    p[ui::HUD_BG as usize] = join(2, 3, 6);
    for i in 0..SKY_LEN as u32 {
        p[(SKY_BASE as u32 + i) as usize] = blend(mood.sky_top, mood.sky_horizon, i * 16 / (SKY_LEN as u32 - 1));
    }
    for (fog, amount) in FOG_AMOUNT.iter().enumerate() {
        for (i, c) in colours.iter().take(TERRAIN_LEN as usize).enumerate() {
            let c = *c & 0x7FFF;
            let (r, g, b) = split(c);
            let gains = if b > r + 2 && b > g { mood.water } else { mood.light };
            p[terrain(i as u8, fog as u8) as usize] = blend(lit(c, gains), mood.sky_horizon, *amount);
        }
        p[terrain(MARK, fog as u8) as usize] = blend(BOUNDARY, mood.sky_horizon, *amount);
    }
    p
}

/// The interface's yellow: the map's field of view, messages' frames and
/// the boundary view's lines.
const BOUNDARY: u16 = join(31, 24, 0);

/// Palette index of bank colour `c` (or [`MARK`]) at fog level `fog`.
///
/// # Panics
/// In debug builds (and at compile time in constants) when the index
/// passes 255: a colour past [`MARK`] or a fog level at or past
/// [`FOG_LEVELS`] (a release build wraps to a wrong entry).
///
/// ```
/// use voxel::palette::{MARK, TERRAIN_BASE, TERRAIN_STRIDE, terrain};
/// assert_eq!(terrain(0, 0), TERRAIN_BASE);
/// assert_eq!(terrain(5, 2), TERRAIN_BASE + 2 * TERRAIN_STRIDE + 5);
/// assert_eq!(terrain(MARK, 3), 255); // the last entry
/// ```
#[inline(always)]
pub const fn terrain(c: u8, fog: u8) -> u8 {
    TERRAIN_BASE + fog * TERRAIN_STRIDE + c
}

/// Whether palette entry `e` is the boundary view's mark ([`MARK`]) at any
/// fog level.
///
/// ```
/// use voxel::palette::{MARK, is_mark, terrain};
/// assert!(is_mark(terrain(MARK, 2)) && !is_mark(terrain(MARK - 1, 2)));
/// ```
pub const fn is_mark(e: u8) -> bool {
    e >= TERRAIN_BASE && (e - TERRAIN_BASE) % TERRAIN_STRIDE == MARK
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn the_plan_fits_in_256_entries() {
        assert_eq!(TERRAIN_BASE as u32 + FOG_LEVELS as u32 * TERRAIN_STRIDE as u32, 256);
        assert_eq!(SKY_BASE + SKY_LEN, TERRAIN_BASE);
        let p = build(&[0x7FFF; 52], &Mood::PLAIN);
        assert_eq!(p[terrain(0, 0) as usize], 0x7FFF);
        assert_ne!(p[terrain(51, 3) as usize], 0x7FFF, "fogged");
        // The marks: the interface's yellow, fogged like the land.
        assert_eq!(p[terrain(MARK, 0) as usize], p[ui::BOUNDARY as usize]);
        assert_ne!(p[terrain(MARK, 3) as usize], p[ui::BOUNDARY as usize]);
        assert_ne!(p[terrain(MARK, 1) as usize], p[terrain(51, 1) as usize]);
        assert_eq!(p[SKY_BASE as usize], SKY_TOP);
        assert_eq!(p[(SKY_BASE + SKY_LEN - 1) as usize], SKY_HORIZON);
    }

    /// Terrain entries: colour c of fog level f at 44 + 53 f + c, the
    /// mark at 44 + 53 f + 52.
    #[test]
    fn terrain_entries_are_pinned() {
        assert_eq!((terrain(0, 0), terrain(5, 0), terrain(5, 2), terrain(51, 3)), (44, 49, 155, 254));
        assert_eq!((terrain(MARK, 0), terrain(MARK, 3)), (96, 255));
    }

    /// Water (blue above red by more than 2 and above green) takes the
    /// mood's water gains, the rest its light: here water halves, light
    /// keeps (unfogged entries, so the lit colour itself).
    #[test]
    fn water_gets_the_water_light() {
        let mood = Mood { water: [8, 8, 8], ..Mood::PLAIN };
        let colours =
            [join(0, 0, 20), join(17, 0, 20), join(18, 0, 20), join(0, 19, 20), join(0, 20, 20), join(31, 31, 31)];
        let p = build(&colours, &mood);
        let got: std::vec::Vec<u16> = (0..6).map(|i| p[terrain(i, 0) as usize]).collect();
        let want =
            [join(0, 0, 10), join(9, 0, 10), join(18, 0, 20), join(0, 10, 10), join(0, 20, 20), join(31, 31, 31)];
        assert_eq!(got, want);
        // Fog level 3 pulls 9/16 of the way to the horizon (24, 27, 30).
        assert_eq!(p[terrain(5, 3) as usize], join(27, 29, 30));
        assert_eq!(p[terrain(0, 3) as usize], join(14, 15, 21));
    }

    /// The moods of a few seeds, pinned: a base mood, and each gain its
    /// base's within 2 (at least 8).
    #[test]
    fn moods_of_seeds_are_pinned() {
        let got: std::vec::Vec<(usize, [u32; 3], [u32; 3])> =
            (1..5).map(Mood::of).map(|m| (m.base, m.light, m.water)).collect();
        let want = [
            (0, [18, 17, 16], [15, 17, 16]), // summer: 16s
            (1, [22, 16, 12], [15, 15, 13]), // autumn: 20, 15, 11 and 14, 15, 15
            (3, [19, 15, 14], [14, 14, 17]), // dusk: 19, 13, 12 and 15, 12, 16
            (2, [13, 15, 20], [13, 16, 20]), // winter: 15, 16, 19 and 13, 16, 19
        ];
        assert_eq!(got, want);
        for s in 0..200 {
            let m = Mood::of(s);
            let (_, top, horizon, light, water) = MOODS[m.base];
            assert_eq!((m.sky_top, m.sky_horizon), (top, horizon));
            for (g, b) in m.light.iter().chain(m.water.iter()).zip(light.iter().chain(water.iter())) {
                assert!(*g as i32 >= (*b as i32 - 2).max(8) && *g <= b + 2, "seed {s}: {m:?}");
            }
        }
    }

    #[test]
    fn seeds_get_different_moods() {
        let colours = [join(10, 20, 8), join(4, 8, 24), join(20, 18, 14)];
        let palettes: std::vec::Vec<[u16; 256]> = (0..64).map(|s| build(&colours, &Mood::of(s))).collect();
        let distinct = (0..64).filter(|&i| (0..i).all(|j| palettes[j] != palettes[i])).count();
        assert!(distinct >= 60, "only {distinct} distinct palettes in 64 seeds");
        let bases: std::collections::BTreeSet<usize> = (0..64).map(|s| Mood::of(s).base).collect();
        assert_eq!(bases.len(), MOODS.len(), "every base mood occurs");
        assert_eq!(Mood::of(5), Mood::of(5));
    }
}
