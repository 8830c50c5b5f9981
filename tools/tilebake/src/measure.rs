//! How much a world built from tiles looks like one continuous landscape,
//! measured on the world exactly as the ROM places it (`tilebake seams`,
//! `cargo xtask bench`). Every measure is two-sided: 1.0 (or 0.0 for the
//! last two) is a natural map; too little is as wrong as too much.
//!
//! - **step ratio** (height, colour): mean step between neighbouring texels
//!   that straddle a tile border / the same inside tiles. Above 1: cliffs or
//!   colour edges at borders; below 1: flattened borders.
//! - **spread ratio** (height, colour): spread (standard deviation, pooled
//!   over the area) of the texels in the tiles' outer band / in their
//!   centres. Below 1: borders pulled to a common level (a frame round every
//!   tile); above 1: the reverse.
//! - **neighbour correlation**: Pearson correlation of neighbouring tiles'
//!   mean heights. Near 0: every tile an island of its own; natural maps
//!   0.5 to 0.9: landforms that run across many tiles.
//! - **grid contrast** (height, colour): how much the mean step depends on
//!   where in the tile it is, the largest relative deviation over the
//!   offsets 0..tile (the border step included). 0: no offset stands out; a
//!   seam, a frame or a cut line at a fixed offset stands out as a grid.
//! - **periodicity** (height, colour): 1 - D(tile) / mean(D(tile - 2),
//!   D(tile + 2)), where D(lag) is the mean difference of texels `lag` apart.
//!   Natural terrain has none (about 0); content repeated at every tile
//!   (identical borders, corners or tiles) makes texels one tile apart alike.

use bank::Bank;

/// The measures of one bank and seed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Measures {
    pub height_step: f64,
    pub colour_step: f64,
    pub height_spread: f64,
    pub colour_spread: f64,
    pub neighbour_correlation: f64,
    pub height_grid: f64,
    pub colour_grid: f64,
    pub height_periodicity: f64,
    pub colour_periodicity: f64,
}

/// Most tiles on a side of the measured square.
pub const MAX_TILES: u32 = 64;
/// Most texels on a side of the measured square (the measures hold about 40
/// bytes a texel: 700 MB at this side).
pub const MAX_SIDE: u32 = 4096;

/// The most tiles on a side [`measure`] takes for tiles of `tile_size`
/// texels: [`MAX_TILES`], or fewer for large tiles ([`MAX_SIDE`] texels).
///
/// ```
/// assert_eq!(tilebake::measure::max_tiles(32), 64);
/// assert_eq!(tilebake::measure::max_tiles(128), 32);
/// ```
pub fn max_tiles(tile_size: usize) -> u32 {
    MAX_TILES.min(MAX_SIDE / tile_size.max(1) as u32)
}

/// The measures as `key value` lines' keys and values, in a fixed order.
impl Measures {
    pub fn fields(&self) -> [(&'static str, f64); 9] {
        [
            ("height_step_ratio", self.height_step),
            ("colour_step_ratio", self.colour_step),
            ("height_spread_ratio", self.height_spread),
            ("colour_spread_ratio", self.colour_spread),
            ("neighbour_correlation", self.neighbour_correlation),
            ("height_grid_contrast", self.height_grid),
            ("colour_grid_contrast", self.colour_grid),
            ("height_periodicity", self.height_periodicity),
            ("colour_periodicity", self.colour_periodicity),
        ]
    }
}

/// What each of [`Measures::fields`] means, in one line each, in the same
/// order (`tilebake seams` prints them beside the values).
pub const MEANINGS: [&str; 9] = [
    "height step across tile borders / inside tiles (natural 1; above: cliffs at borders)",
    "colour step across tile borders / inside tiles (natural 1; above: colour edges at borders)",
    "height spread near borders / in tile centres (natural 1; below: borders pulled level)",
    "colour spread near borders / in tile centres (natural 1; below: a frame round each tile)",
    "correlation of neighbouring tiles' mean heights (natural 0.5 to 0.9; 0: every tile an island)",
    "how much the height step depends on the place in the tile (natural 0; high: a grid shows)",
    "how much the colour step depends on the place in the tile (natural 0; high: a grid shows)",
    "heights a tile apart more alike than at nearby distances (natural 0; high: tiles repeat)",
    "colours a tile apart more alike than at nearby distances (natural 0; high: tiles repeat)",
];

/// A square of texels: heights (bank height units, 0..=255: every measure is
/// a ratio, so the bank's height scale does not matter) and 8-bit RGB
/// colours, `side` x `side`, with the tile side `tile`.
pub struct Area {
    pub side: usize,
    pub tile: usize,
    pub height: Vec<f64>,
    pub rgb: Vec<[f64; 3]>,
}

impl Area {
    /// `tiles` x `tiles` tiles of the world of `seed`, from tile (0, 0).
    pub fn of_world(bank: &Bank<'_>, seed: u32, tiles: u32) -> Result<Area, voxel::LandscapeError> {
        crate::world::with_texels(bank, seed, |at| Area::of_texels(bank, at, tiles))
    }

    /// `tiles` x `tiles` tiles of texels from `at`, from tile (0, 0).
    fn of_texels(bank: &Bank<'_>, at: &dyn Fn(u32, u32) -> (u8, u8), tiles: u32) -> Area {
        let n = bank.tile_size();
        let side = tiles as usize * n;
        let mut height = Vec::with_capacity(side * side);
        let mut rgb = Vec::with_capacity(side * side);
        for y in 0..side as u32 {
            for x in 0..side as u32 {
                let (h, c) = at(x, y);
                // Height units: every measure is a ratio, so the bank's
                // height scale would cancel.
                height.push(h as f64);
                let p = crate::preview::rgb(bank.colour(c as usize)).0;
                rgb.push([p[0] as f64, p[1] as f64, p[2] as f64]);
            }
        }
        Area { side, tile: n, height, rgb }
    }

    fn colour_step(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (self.rgb[i], self.rgb[j]);
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    }

    /// All the measures.
    pub fn measures(&self) -> Measures {
        let (s, n) = (self.side, self.tile);
        // Steps by offset in the tile: pair (k, k + 1), k = n - 1 straddling a border.
        let mut hstep = vec![(0f64, 0f64); n];
        let mut cstep = vec![(0f64, 0f64); n];
        for y in 0..s {
            for x in 0..s {
                let i = y * s + x;
                for (dx, dy) in [(1, 0), (0, 1)] {
                    let (xx, yy) = (x + dx, y + dy);
                    if xx >= s || yy >= s {
                        continue;
                    }
                    let j = yy * s + xx;
                    let k = if dx == 1 { x % n } else { y % n };
                    hstep[k].0 += (self.height[i] - self.height[j]).abs();
                    hstep[k].1 += 1.0;
                    cstep[k].0 += self.colour_step(i, j);
                    cstep[k].1 += 1.0;
                }
            }
        }
        let ratio = |v: &[(f64, f64)]| {
            let border = v[n - 1].0 / v[n - 1].1.max(1.0);
            let (a, b) = v[..n - 1].iter().fold((0.0, 0.0), |acc, p| (acc.0 + p.0, acc.1 + p.1));
            let inside = a / b.max(1.0);
            if inside == 0.0 { if border == 0.0 { 1.0 } else { f64::INFINITY } } else { border / inside }
        };
        let grid = |v: &[(f64, f64)]| {
            let means: Vec<f64> = v.iter().map(|p| p.0 / p.1.max(1.0)).collect();
            let mean = means.iter().sum::<f64>() / means.len() as f64;
            if mean == 0.0 { 0.0 } else { means.iter().map(|m| (m / mean - 1.0).abs()).fold(0.0, f64::max) }
        };
        // Spreads in the outer band and the centre.
        let band = (n / 8).clamp(1, 3);
        let centre = n / 4;
        let (mut hb, mut hc, mut cb, mut cc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for y in 0..s {
            for x in 0..s {
                let (u, v) = (x % n, y % n);
                let depth = u.min(v).min(n - 1 - u).min(n - 1 - v);
                let i = y * s + x;
                if depth < band {
                    hb.push(self.height[i]);
                    cb.push(self.rgb[i]);
                } else if depth >= centre {
                    hc.push(self.height[i]);
                    cc.push(self.rgb[i]);
                }
            }
        }
        let spread_ratio = |a: f64, b: f64| if b == 0.0 { if a == 0.0 { 1.0 } else { f64::INFINITY } } else { a / b };
        // Neighbouring tiles' heights, summed: the same as their means for
        // the correlation, which no common scale changes.
        let t = s / n;
        let mut sums = vec![0f64; t * t];
        for y in 0..s {
            for x in 0..s {
                sums[(y / n) * t + x / n] += self.height[y * s + x];
            }
        }
        let mut pairs = Vec::new();
        for ty in 0..t {
            for tx in 0..t {
                if tx + 1 < t {
                    pairs.push((sums[ty * t + tx], sums[ty * t + tx + 1]));
                }
                if ty + 1 < t {
                    pairs.push((sums[ty * t + tx], sums[(ty + 1) * t + tx]));
                }
            }
        }
        Measures {
            height_step: ratio(&hstep),
            colour_step: ratio(&cstep),
            height_spread: spread_ratio(std_dev(&hb), std_dev(&hc)),
            colour_spread: spread_ratio(colour_spread(&cb), colour_spread(&cc)),
            neighbour_correlation: correlation(&pairs),
            height_grid: grid(&hstep),
            colour_grid: grid(&cstep),
            height_periodicity: self.periodicity(|i, j| (self.height[i] - self.height[j]).abs()),
            colour_periodicity: self.periodicity(|i, j| self.colour_step(i, j)),
        }
    }

    /// 1 - D(n) / mean(D(n - 2), D(n + 2)) over both axes.
    fn periodicity(&self, diff: impl Fn(usize, usize) -> f64) -> f64 {
        let (s, n) = (self.side, self.tile);
        let d = |lag: usize| {
            let (mut sum, mut k) = (0f64, 0f64);
            for y in 0..s {
                for x in 0..s.saturating_sub(lag) {
                    sum += diff(y * s + x, y * s + x + lag);
                    sum += diff(x * s + y, (x + lag) * s + y);
                    k += 2.0;
                }
            }
            sum / k.max(1.0)
        };
        if s < n + 3 {
            return 0.0;
        }
        let around = (d(n - 2) + d(n + 2)) / 2.0;
        if around == 0.0 { 0.0 } else { 1.0 - d(n) / around }
    }
}

fn std_dev(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let m = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
}

/// Root mean squared RGB distance from the mean colour.
fn colour_spread(v: &[[f64; 3]]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut m = [0f64; 3];
    for c in v {
        for k in 0..3 {
            m[k] += c[k];
        }
    }
    for x in &mut m {
        *x /= v.len() as f64;
    }
    (v.iter().map(|c| (0..3).map(|k| (c[k] - m[k]).powi(2)).sum::<f64>()).sum::<f64>() / v.len() as f64).sqrt()
}

fn correlation(pairs: &[(f64, f64)]) -> f64 {
    if pairs.len() < 2 {
        return 0.0;
    }
    let n = pairs.len() as f64;
    let (ma, mb) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0f64, 0f64, 0f64);
    for (a, b) in pairs {
        let (da, db) = (a - ma, b - mb);
        sab += da * db;
        saa += da * da;
        sbb += db * db;
    }
    if saa == 0.0 || sbb == 0.0 { 0.0 } else { sab / (saa * sbb).sqrt() }
}

/// Measures `bank` placed by the world of `seed`, over `tiles` x `tiles` tiles.
pub fn measure(bank: &Bank<'_>, seed: u32, tiles: u32) -> Result<Measures, voxel::LandscapeError> {
    Ok(Area::of_world(bank, seed, tiles)?.measures())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(side: usize, tile: usize, h: impl Fn(usize, usize) -> f64) -> Area {
        let height: Vec<f64> = (0..side * side).map(|i| h(i % side, i / side)).collect();
        let rgb = height.iter().map(|&v| [v, v, v]).collect();
        Area { side, tile, height, rgb }
    }

    /// A smooth natural-ish field (no tile structure): ratios near 1, no grid.
    #[test]
    fn a_map_without_tiles_measures_natural() {
        let m = area(256, 16, |x, y| {
            let (x, y) = (x as f64, y as f64);
            40.0 * (x / 23.0).sin() * (y / 31.0).cos() + 20.0 * ((x + 2.0 * y) / 11.0).sin()
        })
        .measures();
        assert!((0.9..1.1).contains(&m.height_step), "{m:?}");
        assert!((0.9..1.1).contains(&m.height_spread), "{m:?}");
        assert!(m.neighbour_correlation > 0.5, "{m:?}");
        assert!(m.height_grid < 0.15, "{m:?}");
        assert!(m.height_periodicity.abs() < 0.05, "{m:?}");
    }

    /// Each tile its own random level with flat borders: cliffs and islands.
    #[test]
    fn tiles_as_islands_measure_badly() {
        let level = |tx: usize, ty: usize| {
            let mut h = (tx * 131 + ty * 7919 + 1) as u32;
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            (h % 97) as f64
        };
        let m = area(256, 16, |x, y| level(x / 16, y / 16) + ((x * 13 + y * 7) % 5) as f64).measures();
        assert!(m.height_step > 3.0, "cliffs: {m:?}");
        assert!(m.neighbour_correlation.abs() < 0.3, "{m:?}");
        assert!(m.height_grid > 1.0, "{m:?}");
    }

    /// The same tile everywhere: strongly periodic.
    #[test]
    fn repeated_tiles_are_periodic() {
        let m = area(256, 16, |x, y| (((x % 16) * 37 + (y % 16) * 11) % 29) as f64).measures();
        assert!(m.height_periodicity > 0.5, "{m:?}");
    }

    /// Borders flattened to a common level: spread well below 1.
    #[test]
    fn flat_frames_lower_the_spread() {
        let m = area(256, 16, |x, y| {
            let (u, v) = (x % 16, y % 16);
            let d = u.min(v).min(15 - u).min(15 - v);
            if d < 3 { 50.0 } else { 50.0 + (((x * 13 + y * 7) % 41) as f64 - 20.0) }
        })
        .measures();
        assert!(m.height_spread < 0.3, "{m:?}");
    }

    /// Content that repeats exactly every tile along one axis: texels one
    /// tile apart are equal, so periodicity is exactly 1 (both axes).
    #[test]
    fn content_repeated_along_one_axis_is_fully_periodic() {
        let f = |v: usize| [0.0, 7.0, 3.0, 9.0, 1.0, 4.0, 8.0, 2.0][v % 8];
        for m in [area(64, 8, |x, _| f(x)).measures(), area(64, 8, |_, y| f(y)).measures()] {
            assert_eq!(m.height_periodicity, 1.0, "{m:?}");
        }
    }

    /// Values worked by hand.
    #[test]
    fn correlation_and_colour_spread_by_hand() {
        // Means 2 and 2; sums of products 1, squares 2 and 2.
        assert_eq!(correlation(&[(1.0, 1.0), (2.0, 3.0), (3.0, 2.0)]), 0.5);
        assert_eq!(correlation(&[(1.0, 6.0), (2.0, 4.0), (3.0, 2.0)]), -1.0);
        assert_eq!(correlation(&[(1.0, 1.0)]), 0.0);
        // Mean (1, 2, 3); each colour sqrt(1 + 4 + 9) from it.
        assert_eq!(colour_spread(&[[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]]), 14f64.sqrt());
        assert_eq!(colour_spread(&[]), 0.0);
    }

    /// Periodicity needs lags tile + 2 inside the area: a side of tile + 3
    /// is enough, a side of tile + 2 is not (0).
    #[test]
    fn periodicity_needs_a_side_of_a_tile_and_three() {
        let f = |x: usize, _| [0.0, 7.0, 3.0, 9.0][x % 4];
        let a = area(7, 4, f);
        assert_eq!(a.periodicity(|i, j| (a.height[i] - a.height[j]).abs()), 1.0);
        assert_eq!(area(6, 4, f).periodicity(|_, _| 1.0), 0.0);
    }

    /// Every measure of one uneven area of 4 x 4 tiles, pinned (values from
    /// this code; a change to any measure shows here: check it against the
    /// tests above and the module docs, then pin the new values).
    #[test]
    fn measures_of_an_uneven_area_are_pinned() {
        let side = 64;
        let height: Vec<f64> =
            (0..side * side).map(|i| ((i % side) * 7 + (i / side) * (i / side) * 3 % 41) as f64).collect();
        let rgb = (0..side * side)
            .map(|i| [(i % 13) as f64 * 9.0, (i % 29) as f64 * 4.0, (i / side % 7) as f64 * 30.0])
            .collect();
        let m = Area { side, tile: 16, height, rgb }.measures();
        let want = [
            1.045_172_719_220_549_3,
            0.796_578_171_894_698_3,
            1.041_796_159_867_713_2,
            1.026_319_445_018_337,
            0.878_052_321_735_817_9,
            0.258_625_448_523_323,
            0.204_499_798_393_180_33,
            -0.002_579_661_712_543_757,
            -0.228_741_011_360_638_3,
        ];
        for ((name, got), want) in m.fields().iter().zip(want) {
            assert!((got - want).abs() < 1e-9, "{name}: {got:?} (all: {:?})", m.fields());
        }
    }
}
