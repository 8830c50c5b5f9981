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
//! - **lattice** (height, colour): the texel that stands out most of
//!   those repeated at every tile corner or edge of a kind. Corners (and
//!   edge midpoints) are of a kind when their 2 x 2 texels are identical, as
//!   corner tiles make them: every vertex of a class carries the class's
//!   corner patch, every edge of a type and variant its strip. Within a
//!   quarter tile of the points of a kind, at each offset, each value two or
//!   more of them share scores the share of the kind's points that have it
//!   times how far it stands out of the land round it (its mean distance
//!   from the 9 x 9 mean); the measure is the best score over the kind's
//!   mean standing-out (at least a quarter of the world's), largest over
//!   kinds of at least 16 points and a hundredth of all points. Natural
//!   terrain has no kinds (about 0; flat ground of one colour, water say,
//!   can make a few and score a little). Shared borders repeat the land's
//!   own texels (corner tiles about 2 to 4.5); a spot that stands out
//!   plainly, a fleck of snow at every high vertex, scores above 5: a
//!   lattice seen from above, even when it covers too little of the area for
//!   the periodicity to move. Fainter lattices, a small fleck the cuts keep
//!   at only some vertices, can score as little as clean borders: the
//!   measure flags the plain ones, the eye finds the rest (`tilebake world`).

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
    pub height_lattice: f64,
    pub colour_lattice: f64,
}

/// Most tiles on a side of the measured square.
pub const MAX_TILES: u32 = 64;
/// Most texels on a side of the measured square (the measures hold about 22
/// bytes a texel at most, in the lattice's tables: 372 MB at this side,
/// `tilebake seams` of a bank of 128-px tiles).
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
    pub fn fields(&self) -> [(&'static str, f64); 11] {
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
            ("height_lattice", self.height_lattice),
            ("colour_lattice", self.colour_lattice),
        ]
    }

    /// The mean of each measure over `all` (several seeds).
    pub fn mean(all: &[Measures]) -> Measures {
        let n = all.len().max(1) as f64;
        let m = |f: fn(&Measures) -> f64| all.iter().map(f).sum::<f64>() / n;
        Measures {
            height_step: m(|m| m.height_step),
            colour_step: m(|m| m.colour_step),
            height_spread: m(|m| m.height_spread),
            colour_spread: m(|m| m.colour_spread),
            neighbour_correlation: m(|m| m.neighbour_correlation),
            height_grid: m(|m| m.height_grid),
            colour_grid: m(|m| m.colour_grid),
            height_periodicity: m(|m| m.height_periodicity),
            colour_periodicity: m(|m| m.colour_periodicity),
            height_lattice: m(|m| m.height_lattice),
            colour_lattice: m(|m| m.colour_lattice),
        }
    }
}

/// What each of [`Measures::fields`] means, in one line each, in the same
/// order (`tilebake seams` prints them beside the values).
pub const MEANINGS: [&str; 11] = [
    "height step across tile borders / inside tiles (natural 1; above: cliffs at borders)",
    "colour step across tile borders / inside tiles (natural 1; above: colour edges at borders)",
    "height spread near borders / in tile centres (natural 1; below: borders pulled level)",
    "colour spread near borders / in tile centres (natural 1; below: a frame round each tile)",
    "correlation of neighbouring tiles' mean heights (natural 0.5 to 0.9, more for broad landforms over many tiles; 0: every tile an island)",
    "how much the height step depends on the place in the tile (natural 0; high: a grid shows)",
    "how much the colour step depends on the place in the tile (natural 0; high: a grid shows)",
    "heights a tile apart more alike than at nearby distances (natural 0; high: tiles repeat)",
    "colours a tile apart more alike than at nearby distances (natural 0; high: tiles repeat)",
    "height repeated at every tile corner or edge of a kind, standing out of the land round it (natural about 0; from 5: a lattice)",
    "colour repeated at every tile corner or edge of a kind, standing out of the land round it (natural about 0; from 5: a lattice)",
];

/// A square of texels: heights (bank height units, 0..=255: every measure is
/// a ratio, so the bank's height scale does not matter) and 8-bit RGB
/// colours, `side` x `side`, with the tile side `tile`.
pub struct Area {
    pub side: usize,
    pub tile: usize,
    /// Per texel, its height (`f32`: a bank's are whole numbers, exact; 4
    /// bytes a texel, where a 32 x 32-tile area of 128-px tiles has 16.8
    /// million texels).
    heights: Vec<f32>,
    /// Per texel, its colour's entry in `palette`.
    colours: Vec<u16>,
    /// The colours, 8-bit RGB.
    palette: Vec<[f64; 3]>,
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
        let mut heights = Vec::with_capacity(side * side);
        let mut colours = Vec::with_capacity(side * side);
        // Palette entries in the order the area first shows them.
        let (mut entry, mut palette) = ([u16::MAX; 256], Vec::new());
        for y in 0..side as u32 {
            for x in 0..side as u32 {
                let (h, c) = at(x, y);
                // Height units: every measure is a ratio, so the bank's
                // height scale would cancel.
                heights.push(h as f32);
                if entry[c as usize] == u16::MAX {
                    entry[c as usize] = palette.len() as u16;
                    let p = crate::preview::rgb(bank.colour(c as usize)).0;
                    palette.push([p[0] as f64, p[1] as f64, p[2] as f64]);
                }
                colours.push(entry[c as usize]);
            }
        }
        Area { side, tile: n, heights, colours, palette }
    }

    /// Texel `i`'s height.
    fn height(&self, i: usize) -> f64 {
        self.heights[i] as f64
    }

    /// Texel `i`'s colour, 8-bit RGB.
    fn rgb(&self, i: usize) -> [f64; 3] {
        self.palette[self.colours[i] as usize]
    }

    fn colour_step(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (self.rgb(i), self.rgb(j));
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    }

    /// All the measures.
    pub fn measures(&self) -> Measures {
        // First, while nothing else is held (they need 16 bytes a texel).
        let (height_lattice, colour_lattice) = self.lattices();
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
                    hstep[k].0 += (self.height(i) - self.height(j)).abs();
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
        // Two passes over the texels (means, then distances from them),
        // holding sums only: a texel's place is its depth in its tile.
        let (mut hb, mut hc, mut cb, mut cc) =
            (Spread::default(), Spread::default(), Spread::default(), Spread::default());
        for pass in [Pass::Mean, Pass::Distance] {
            for y in 0..s {
                for x in 0..s {
                    let (u, v) = (x % n, y % n);
                    let depth = u.min(v).min(n - 1 - u).min(n - 1 - v);
                    let i = y * s + x;
                    if depth < band {
                        hb.add(pass, [self.height(i)]);
                        cb.add(pass, self.rgb(i));
                    } else if depth >= centre {
                        hc.add(pass, [self.height(i)]);
                        cc.add(pass, self.rgb(i));
                    }
                }
            }
            for spread in [&mut hb, &mut hc] {
                spread.end(pass);
            }
            for spread in [&mut cb, &mut cc] {
                spread.end(pass);
            }
        }
        let spread_ratio = |a: f64, b: f64| if b == 0.0 { if a == 0.0 { 1.0 } else { f64::INFINITY } } else { a / b };
        // Neighbouring tiles' heights, summed: the same as their means for
        // the correlation, which no common scale changes.
        let t = s / n;
        let mut sums = vec![0f64; t * t];
        for y in 0..s {
            for x in 0..s {
                sums[(y / n) * t + x / n] += self.height(y * s + x);
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
            height_spread: spread_ratio(hb.rms(), hc.rms()),
            colour_spread: spread_ratio(cb.rms(), cc.rms()),
            neighbour_correlation: correlation(&pairs),
            height_grid: grid(&hstep),
            colour_grid: grid(&cstep),
            height_periodicity: self.periodicity(|i, j| (self.height(i) - self.height(j)).abs()),
            colour_periodicity: self.periodicity(|i, j| self.colour_step(i, j)),
            height_lattice,
            colour_lattice,
        }
    }

    /// The height and colour lattice measures (see the module docs).
    fn lattices(&self) -> (f64, f64) {
        let kinds = self.kinds();
        (self.lattice(&kinds, 1, |_, i| self.height(i)), self.lattice(&kinds, 3, |k, i| self.rgb(i)[k]))
    }

    /// The kinds of corners and edge midpoints that can make a lattice:
    /// each kind's points (x, y), with its 2 x 2 texels left of and above
    /// (x, y).
    fn kinds(&self) -> Vec<Vec<(usize, usize)>> {
        let (s, n) = (self.side, self.tile);
        let t = s / n;
        // Points (x, y) with the texel pair left/above them: corners, then
        // the midpoints of horizontal and of vertical edges, each kind keyed
        // by what it is and its 2 x 2 texels.
        let mut kinds: std::collections::BTreeMap<Vec<i64>, Vec<(usize, usize)>> = std::collections::BTreeMap::new();
        for j in 0..=t {
            for i in 0..=t {
                for (what, x, y) in [(0, i * n, j * n), (1, i * n + n / 2, j * n), (2, i * n, j * n + n / 2)] {
                    if x < 1 || y < 1 || x + 1 > s || y + 1 > s {
                        continue;
                    }
                    let mut key = vec![what];
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let k = (y - 1 + dy) * s + x - 1 + dx;
                        key.push(self.height(k) as i64);
                        key.extend(self.rgb(k).iter().map(|&v| v as i64));
                    }
                    kinds.entry(key).or_default().push((x, y));
                }
            }
        }
        // A kind makes a lattice when it has at least LATTICE_KIND points
        // and a hundredth of all points.
        let points: usize = kinds.values().map(|p| p.len()).sum();
        let least = LATTICE_KIND.max(points / 100);
        kinds.into_values().filter(|p| p.len() >= least).collect()
    }

    /// The lattice measure of `kinds` ([`Area::kinds`]) on `channels`
    /// values per texel (`value(k, i)`: channel `k` of texel `i`, whole
    /// numbers).
    fn lattice(&self, kinds: &[Vec<(usize, usize)>], channels: usize, value: impl Fn(usize, usize) -> f64) -> f64 {
        let (s, n) = (self.side, self.tile);
        let w = (n / 4).max(1) as i64;
        let mut lattice = 0f64;
        // How far each texel stands out: its distance from its 9 x 9 mean.
        let mut standout = vec![0f64; s * s];
        for k in 0..channels {
            let mean = BoxMean::new(|i| value(k, i), s, 4);
            for (i, d) in standout.iter_mut().enumerate() {
                *d += (value(k, i) - mean.at(i)).powi(2);
            }
        }
        for d in &mut standout {
            *d = d.sqrt();
        }
        let world = standout.iter().sum::<f64>() / standout.len().max(1) as f64;
        for kind in kinds {
            let k = kind.len() as f64;
            let (mut strongest, mut typical, mut offsets) = (0f64, 0f64, 0f64);
            for dy in -w..w {
                for dx in -w..w {
                    let at = |&(x, y): &(usize, usize)| {
                        let (xx, yy) = (x as i64 + dx, y as i64 + dy);
                        (xx >= 0 && yy >= 0 && xx < s as i64 && yy < s as i64).then(|| yy as usize * s + xx as usize)
                    };
                    let inside: Vec<usize> = kind.iter().filter_map(at).collect();
                    if inside.len() < kind.len() {
                        continue;
                    }
                    // Each value at this offset: how many points have it, and
                    // how far it stands out at each, summed.
                    let mut counts: std::collections::BTreeMap<Vec<i64>, (f64, f64)> =
                        std::collections::BTreeMap::new();
                    for &i in &inside {
                        let key: Vec<i64> = (0..channels).map(|k| value(k, i) as i64).collect();
                        let e = counts.entry(key).or_default();
                        e.0 += 1.0;
                        e.1 += standout[i];
                    }
                    typical += inside.iter().map(|&i| standout[i]).sum::<f64>() / k;
                    offsets += 1.0;
                    // A value's share of the points times its mean standing-out.
                    for (_, sum) in counts.values().filter(|(n, _)| *n >= 2.0) {
                        strongest = strongest.max(sum / k);
                    }
                }
            }
            // Against the land round the kind, but never less than a
            // fraction of the world's: a flat sea's spots are not infinite.
            let round = (typical / offsets).max(LATTICE_FLOOR * world);
            if round > 0.0 {
                lattice = lattice.max(strongest / round);
            }
        }
        lattice
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

/// The least standing-out round a kind that [`Area::lattice`] measures
/// against, as a share of the world's mean: flat ground's spots are not
/// infinitely many times its own.
const LATTICE_FLOOR: f64 = 0.25;

/// The fewest corners or edges of a kind that make a lattice: fewer are a
/// handful of places, too few to see a pattern in or to measure one by.
const LATTICE_KIND: usize = 16;

/// The mean of `v` (texel index to value, `s` x `s`) over the (2r + 1) x
/// (2r + 1) square round each texel, clipped at the area's edges: a
/// summed-area table, each mean read from it when asked (a table of the
/// means as well would take another 8 bytes a texel).
struct BoxMean {
    s: usize,
    r: usize,
    /// Summed-area table, one row and column of zeros first.
    sum: Vec<f64>,
}

impl BoxMean {
    fn new(v: impl Fn(usize) -> f64, s: usize, r: usize) -> BoxMean {
        let mut sum = vec![0f64; (s + 1) * (s + 1)];
        for y in 0..s {
            let mut row = 0.0;
            for x in 0..s {
                row += v(y * s + x);
                sum[(y + 1) * (s + 1) + x + 1] = sum[y * (s + 1) + x + 1] + row;
            }
        }
        BoxMean { s, r, sum }
    }

    /// The mean round texel `i`.
    fn at(&self, i: usize) -> f64 {
        let (s, r, sum) = (self.s, self.r, &self.sum);
        let (x, y) = (i % s, i / s);
        let (x0, y0, x1, y1) = (x.saturating_sub(r), y.saturating_sub(r), (x + r + 1).min(s), (y + r + 1).min(s));
        let total = sum[y1 * (s + 1) + x1] - sum[y0 * (s + 1) + x1] - sum[y1 * (s + 1) + x0] + sum[y0 * (s + 1) + x0];
        total / ((x1 - x0) * (y1 - y0)) as f64
    }
}

/// Which pass over the values a [`Spread`] takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Summing them, for their mean.
    Mean,
    /// Summing their squared distances from it.
    Distance,
}

/// The root mean squared distance of values of `K` components (a height:
/// 1; a colour: RGB, 3) from their mean, over two passes that give it the
/// same values in the same order: sums only, no copy of the values (the
/// numbers, to the bit, of summing a list of them twice).
#[derive(Clone, Copy)]
struct Spread<const K: usize> {
    count: usize,
    sum: [f64; K],
    mean: [f64; K],
    squares: f64,
}

impl<const K: usize> Default for Spread<K> {
    fn default() -> Self {
        Spread { count: 0, sum: [0.0; K], mean: [0.0; K], squares: 0.0 }
    }
}

impl<const K: usize> Spread<K> {
    fn add(&mut self, pass: Pass, v: [f64; K]) {
        match pass {
            Pass::Mean => {
                self.count += 1;
                for (sum, x) in self.sum.iter_mut().zip(v) {
                    *sum += x;
                }
            }
            Pass::Distance => self.squares += (0..K).map(|k| (v[k] - self.mean[k]).powi(2)).sum::<f64>(),
        }
    }

    /// After a pass: the mean, once every value is summed.
    fn end(&mut self, pass: Pass) {
        if pass == Pass::Mean && self.count > 0 {
            self.mean = self.sum.map(|s| s / self.count as f64);
        }
    }

    /// The spread (0 for no values), after both passes.
    fn rms(&self) -> f64 {
        if self.count == 0 { 0.0 } else { (self.squares / self.count as f64).sqrt() }
    }
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

/// The lattice measure from which a lattice shows from above: a texel
/// repeated at every tile corner or edge of a kind that stands out of the
/// land round it this many times as far as the land's own texels do.
pub const LATTICE_SHOWS: f64 = 5.0;

/// Tiles on a side of the square of world 1 [`lattice_note`] measures.
pub const NOTE_TILES: u32 = 16;

/// What to tell the baker of corner bank `bank` if its world (seed 1,
/// [`NOTE_TILES`] tiles square: 240 MB of measures for 128-px tiles) shows a
/// lattice ([`LATTICE_SHOWS`]); `None` if it does not.
pub fn lattice_note(bank: &Bank<'_>) -> Option<String> {
    let area = match Area::of_world(bank, 1, NOTE_TILES) {
        Ok(area) => area,
        Err(e) => return Some(format!("could not measure the world for a lattice: {e}")),
    };
    let (h, c) = area.lattices();
    let (what, v) = if c >= h { ("colour", c) } else { ("height", h) };
    let advice = lattice_advice(bank.tile_size());
    (v >= LATTICE_SHOWS).then(|| {
        format!(
            "the tiles' shared borders show as a lattice from above ({what} lattice {v:.1} over {NOTE_TILES} x \
             {NOTE_TILES} tiles of world 1; from {LATTICE_SHOWS} it shows): see it with `tilebake world`, measure it \
             with `tilebake seams --tiles {NOTE_TILES}`{advice}"
        )
    })
}

/// What [`lattice_note`] advises for a bank of `tile_size`-texel tiles: a
/// smaller tile, which lowered the measure in every trial (more tiles for
/// the borders to choose from), where there is one. A larger source did not
/// always: `generate --size` 1024 -> 2048 at 64-px tiles raised it, 6.6 -> 7.3.
fn lattice_advice(tile_size: usize) -> &'static str {
    if tile_size > usize::from(bank::TILE_SIZES[0]) {
        "; a smaller --tile-size cuts more tiles for the borders to choose from, which lowers it (a larger source of \
         the same land may not)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An area of `heights` (kept as `f32`, as a bank's) and colours `rgb`
    /// (each distinct one a palette entry).
    fn of_values(side: usize, tile: usize, heights: &[f64], rgb: &[[f64; 3]]) -> Area {
        let mut entries = std::collections::BTreeMap::new();
        let mut palette = Vec::new();
        let colours = rgb
            .iter()
            .map(|&c| {
                *entries.entry(c.map(f64::to_bits)).or_insert_with(|| {
                    palette.push(c);
                    u16::try_from(palette.len() - 1).expect("at most 65,536 colours")
                })
            })
            .collect();
        Area { side, tile, heights: heights.iter().map(|&v| v as f32).collect(), colours, palette }
    }

    /// An area of heights `h` and grey colours of the same values.
    fn area(side: usize, tile: usize, h: impl Fn(usize, usize) -> f64) -> Area {
        let values: Vec<f64> = (0..side * side).map(|i| h(i % side, i / side)).collect();
        let grey: Vec<[f64; 3]> = values.iter().map(|&v| [v; 3]).collect();
        of_values(side, tile, &values, &grey)
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
        // No two corners alike: no lattice.
        assert_eq!((m.height_lattice, m.colour_lattice), (0.0, 0.0), "{m:?}");
    }

    /// Noise of heights 0..=40 (a hash of the texel), 16-px tiles.
    fn noise(x: usize, y: usize) -> f64 {
        let mut h = (x * 7919 + y * 104_729 + 17) as u32;
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        (h % 41) as f64
    }

    /// The same 2 x 2 texels at every corner (as corner tiles share them) in
    /// noise: a kind of every corner, sharing only what those texels bring
    /// to the detail round them. A bump three texels from every corner as
    /// well: a lattice, several times that.
    #[test]
    fn a_bump_repeated_at_every_corner_is_a_lattice() {
        let corner = |x: usize, y: usize| {
            let (u, v) = ((x + 1) % 16, (y + 1) % 16);
            (u < 2 && v < 2).then(|| [10.0, 30.0, 20.0, 5.0][v * 2 + u])
        };
        let shared = area(256, 16, |x, y| corner(x, y).unwrap_or_else(|| noise(x, y))).measures();
        let bump = area(256, 16, |x, y| {
            let near = (2..5).contains(&(x % 16)) && (2..5).contains(&(y % 16));
            corner(x, y).unwrap_or(if near { 120.0 } else { noise(x, y) })
        })
        .measures();
        assert!(shared.height_lattice > 0.5 && shared.height_lattice < 2.5, "{shared:?}");
        assert!(bump.height_lattice > 5.0 && bump.height_lattice > 3.0 * shared.height_lattice, "{bump:?}");
        // Pinned (values from this code).
        assert!((shared.height_lattice - 1.483_666_492_796_718_3).abs() < 1e-9, "{shared:?}");
        assert!((bump.height_lattice - 5.620_176_278_148_397).abs() < 1e-9, "{bump:?}");
        // Grey colours follow the heights here.
        assert!((bump.colour_lattice - bump.height_lattice).abs() < 1e-9, "{bump:?}");
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

    #[test]
    fn the_lattice_advice_is_a_smaller_tile_where_there_is_one() {
        for size in bank::TILE_SIZES {
            let advice = lattice_advice(usize::from(size));
            assert_eq!(advice.contains("a smaller --tile-size"), size > 8, "{size}: {advice}");
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
        let spread = |v: &[[f64; 3]]| {
            let mut s = Spread::default();
            for pass in [Pass::Mean, Pass::Distance] {
                v.iter().for_each(|c| s.add(pass, *c));
                s.end(pass);
            }
            s.rms()
        };
        assert_eq!(spread(&[[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]]), 14f64.sqrt());
        assert_eq!(spread(&[]), 0.0);
    }

    /// Periodicity needs lags tile + 2 inside the area: a side of tile + 3
    /// is enough, a side of tile + 2 is not (0).
    #[test]
    fn periodicity_needs_a_side_of_a_tile_and_three() {
        let f = |x: usize, _| [0.0, 7.0, 3.0, 9.0][x % 4];
        let a = area(7, 4, f);
        assert_eq!(a.periodicity(|i, j| (a.height(i) - a.height(j)).abs()), 1.0);
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
        let rgb: Vec<[f64; 3]> = (0..side * side)
            .map(|i| [(i % 13) as f64 * 9.0, (i % 29) as f64 * 4.0, (i / side % 7) as f64 * 30.0])
            .collect();
        let m = of_values(side, 16, &height, &rgb).measures();
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
            0.0,
            0.0,
        ];
        assert_eq!(m.fields().len(), want.len());
        for ((name, got), want) in m.fields().iter().zip(want) {
            assert!((got - want).abs() < 1e-9, "{name}: {got:?} (all: {:?})", m.fields());
        }
    }
}
