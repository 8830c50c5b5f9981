//! Corner tiles: a matched tile set built from any heightmap + texture pair,
//! so that a world placed by corner classes (see `terrain::world`) reads as
//! one landscape.
//!
//! Every tile corner (vertex) of a world has a class (0 = lowest ..
//! `classes - 1`), taken from the smoothly interpolated structure grid; a
//! tile is baked for its four corner classes (its *configuration*). Here,
//! from the source:
//!
//! 1. **Classes in the source.** The heights smoothed over about a tile (the
//!    *field*), sampled at source vertices; the field's quantiles split the
//!    source into `classes` equally common classes (low ground, middle,
//!    high...).
//! 2. **Corner patches**, one per class: a square of natural terrain round a
//!    source vertex of that class, typical of it (colour, level and
//!    roughness) and with nothing in it that stands out (it repeats at every
//!    vertex of the class: a fleck of snow in it is a lattice of flecks).
//! 3. **Edge strips**, two (the edge variants) per pair of classes and
//!    direction: a natural strip of the source running from a vertex of the
//!    first class to one of the second, one tile long, joined at each end to
//!    the corner patches by a minimum-error cut. Every tile with that edge
//!    and variant carries this strip, so the texels on both sides of a border
//!    come from one piece of real terrain: the step across a border is a
//!    natural step, never a cliff or a flat band.
//! 4. **Interiors**: for each configuration, source windows whose own four
//!    corners have those classes (in any of the eight orientations), so a
//!    coast, a slope or a ridge runs through the tile the way the classes say;
//!    the best-matching few become the configuration's variants, each joined
//!    to the shared frame (corner patches and strips) by minimum-error cuts
//!    round the tile, with a short blend of heights across the cut.
//!
//! A world's field and a source's field differ in distribution, so the bank's
//! thresholds (in world field units) are chosen to give each class the same
//! share of a world as of the source, with the middle classes at least
//! [`terrain::class_band`] wide (so no tile's corners are more than one class
//! apart, and only configurations of two neighbouring classes are baked).

mod cut;
pub mod source;

use bank::{CONFIGS, ConfigTiles, Corners};
use cut::{harmonic, harmonic_lanes, min_cut};
use source::{Place, Source};
use terrain::{World, WorldParams};

/// What the construction needs besides the sources.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// Tile side, texels.
    pub tile: i32,
    /// Corner classes, 2 or 3.
    pub classes: u8,
    /// Keep the source's orientation where the source allows (textures with
    /// baked lighting: a turned or mirrored hill would be lit from the wrong
    /// side); otherwise windows are also taken turned and mirrored.
    pub upright: bool,
}

/// The built set.
#[derive(Debug, Clone)]
pub struct Built {
    /// Texels of every tile, in order (`bank::texel`).
    pub tiles: Vec<Vec<u16>>,
    /// The placement tables for the bank.
    pub corners: Corners,
    /// Per needed configuration, how many of its tiles have interiors from
    /// places of their own in the source (the rest reuse a place).
    pub distinct: Vec<(u8, usize)>,
    /// What the user should know (configurations built from substitutes).
    pub notes: Vec<String>,
}

/// Geometry of the shared frame, in texels from a tile edge: texels nearer
/// than `pure` are the frame itself (identical in every tile with that
/// edge); between `pure` and `reach` the cut to the interior runs.
#[derive(Debug, Clone, Copy)]
struct Frame {
    t: i32,
    pure: i32,
    reach: i32,
}

impl Frame {
    fn new(t: i32) -> Frame {
        let pure = (t / 32).max(1);
        let reach = (t / 4).max(pure + 2);
        Frame { t, pure, reach }
    }

    /// Frame content extends one texel past the cut band.
    fn ext(&self) -> i32 {
        self.reach + 1
    }
}

/// How much colour counts against height in the cost of a cut: a
/// grass/rock change (RGB distance about 100) as much as a 14-unit step.
/// Colour seams are eased afterwards (see [`assemble`]); heights decide.
const COLOUR_WEIGHT: f32 = 0.02;

/// What a cut pays for each texel it extends the shared frame (or a corner
/// patch) past its pure part, in error units (a 5-unit height step is 25): the
/// less shared content, the less repeats across the world.
const SPREAD_COST: f32 = 10.0;

/// What a window pays per texel of its edge (in error units) for each
/// typical deviation (squared) of its relief (centre against border, in
/// level and in slope) from the typical.
const RELIEF_COST: f32 = 20.0;

/// A texel under construction: height (units) and colour index.
#[derive(Debug, Clone, Copy, Default)]
struct Tx {
    h: f32,
    c: u8,
}

/// How much two texels differ, for cuts: height difference squared plus
/// colour distance (RGB, 0..=255) squared, weighted so that a water/grass
/// colour change costs about as much as a 40-unit step.
struct Metric {
    rgb: Vec<[f32; 3]>,
    /// Whether some source texel has each palette entry: the quantiser's
    /// palette can hold colours no pixel maps to (a neuron left near black),
    /// which a blend must not pick.
    used: Vec<bool>,
}

impl Metric {
    /// The palette entry nearest `c` (RGB) among those the sources use.
    fn nearest(&self, c: [f32; 3]) -> u8 {
        let mut best = (f32::INFINITY, 0u8);
        for (i, p) in self.rgb.iter().enumerate().filter(|(i, _)| self.used[*i]) {
            let d = (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2) + (p[2] - c[2]).powi(2);
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        best.1
    }

    fn err(&self, a: Tx, b: Tx) -> f32 {
        let dh = a.h - b.h;
        let (ca, cb) = (self.rgb[a.c as usize], self.rgb[b.c as usize]);
        let dc = (ca[0] - cb[0]).powi(2) + (ca[1] - cb[1]).powi(2) + (ca[2] - cb[2]).powi(2);
        dh * dh + COLOUR_WEIGHT * dc
    }
}

fn tx(sources: &[Source], p: &Place, u: i32, v: i32) -> Tx {
    let (x, y) = p.texel(u, v);
    let (h, c) = sources[p.src].texel(x, y);
    Tx { h, c }
}

/// The classes of the source, from its field.
struct Classes {
    /// Field values where classes 1.. begin.
    cuts: Vec<f32>,
}

impl Classes {
    fn of(&self, f: f32) -> u8 {
        self.cuts.iter().filter(|&&c| f >= c).count() as u8
    }
}

/// Configurations a world can produce with bands as wide as `class_band`:
/// the four classes within two neighbouring ones.
pub fn needed(classes: u8) -> Vec<u8> {
    (0..=255u8)
        .filter(|&c| {
            let k = bank::corners(c);
            let (lo, hi) = (*k.iter().min().unwrap_or(&0), *k.iter().max().unwrap_or(&0));
            hi < classes && hi - lo <= 1
        })
        .collect()
}

/// Every `stride`-th vertex of every source, as (source, x, y).
fn vertices(sources: &[Source], stride: i32) -> impl Iterator<Item = (usize, i32, i32)> + '_ {
    sources.iter().enumerate().flat_map(move |(s, src)| {
        (0..=src.h)
            .step_by(stride as usize)
            .flat_map(move |y| (0..=src.w).step_by(stride as usize).map(move |x| (s, x, y)))
    })
}

fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// Texels [`lit`] reads at most (about; 1024^2 sources are read whole).
pub const LIT_TEXELS: u64 = 1 << 20;

/// Share of the brightness variance the slopes must explain for [`lit`].
pub const LIT_SHARE: f64 = 0.1;

/// True if the texture's brightness follows the heightmap's slopes (baked
/// lighting: shaded slopes, as in the Comanche maps): more than
/// [`LIT_SHARE`] of the brightness variance is explained by the slope along
/// x and y ([`slope_share`]).
pub fn lit(sources: &[Source], rgb: &[[u8; 3]]) -> bool {
    slope_share(sources, rgb) > LIT_SHARE
}

/// The share (0 ..= 1) of the texture's brightness variance that a linear
/// fit on the heightmap's slopes along x and y explains; 0 when there is too
/// little to fit (fewer than 16 inner texels, flat brightness or slopes).
/// Sources of more than [`LIT_TEXELS`] texels are measured on every k-th row
/// and column.
pub fn slope_share(sources: &[Source], rgb: &[[u8; 3]]) -> f64 {
    let texels: u64 = sources.iter().map(|s| s.w as u64 * s.h as u64).sum();
    let k = ((texels as f64 / LIT_TEXELS as f64).sqrt().floor() as usize).max(1);
    // Least squares of brightness on (1, dh/dx, dh/dy), over every source.
    let mut m = [[0f64; 3]; 3];
    let mut v = [0f64; 3];
    let (mut sl, mut sll, mut n) = (0f64, 0f64, 0f64);
    for s in sources {
        for y in (1..s.h - 1).step_by(k) {
            for x in (1..s.w - 1).step_by(k) {
                let gx = (s.texel(x + 1, y).0 - s.texel(x - 1, y).0) as f64;
                let gy = (s.texel(x, y + 1).0 - s.texel(x, y - 1).0) as f64;
                let c = rgb[s.texel(x, y).1 as usize];
                let l = 0.3 * c[0] as f64 + 0.59 * c[1] as f64 + 0.11 * c[2] as f64;
                let row = [1.0, gx, gy];
                for i in 0..3 {
                    for j in 0..3 {
                        m[i][j] += row[i] * row[j];
                    }
                    v[i] += row[i] * l;
                }
                sl += l;
                sll += l * l;
                n += 1.0;
            }
        }
    }
    if n < 16.0 {
        return 0.0;
    }
    let var = sll / n - (sl / n).powi(2);
    // Solve the 3 x 3 normal equations (Cramer's rule).
    let det = |a: &[[f64; 3]; 3]| {
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    };
    let d = det(&m);
    if d.abs() < 1e-9 || var <= 1e-9 {
        return 0.0;
    }
    let coef: Vec<f64> = (0..3)
        .map(|k| {
            let mut a = m;
            for (i, row) in a.iter_mut().enumerate() {
                row[k] = v[i];
            }
            det(&a) / d
        })
        .collect();
    // Variance explained: mean of (fit - mean)^2 over the variance.
    let mut explained = 0f64;
    for s in sources {
        for y in (1..s.h - 1).step_by(k) {
            for x in (1..s.w - 1).step_by(k) {
                let gx = (s.texel(x + 1, y).0 - s.texel(x - 1, y).0) as f64;
                let gy = (s.texel(x, y + 1).0 - s.texel(x, y - 1).0) as f64;
                let fit = coef[0] + coef[1] * gx + coef[2] * gy;
                explained += (fit - sl / n).powi(2);
            }
        }
    }
    explained / n / var
}

/// A square of content round a vertex: offsets `-e .. e` in x and y.
struct Patch {
    e: i32,
    texels: Vec<Tx>,
}

impl Patch {
    fn at(&self, x: i32, y: i32) -> Tx {
        self.texels[((y + self.e) * 2 * self.e + x + self.e) as usize]
    }
}

/// How far from the vertex (texels) the least-distinctive choice of corner
/// patches looks: as far as a patch can reach into the tiles round its
/// vertex (a feature a few texels out, shared at every vertex of the class,
/// is a lattice as much as one on the vertex).
fn near(f: Frame) -> i32 {
    f.reach
}

/// The RGB of a texel, and the squared distance of two colours.
fn rgb_of(m: &Metric, t: Tx) -> [f32; 3] {
    m.rgb[t.c as usize]
}

/// Statistics of a strip of terrain (`w` texels long, an even number of
/// rows, the edge line between its two middle rows) that say how it looks:
/// mean colour, mean colour and height steps between neighbouring texels,
/// the same across the edge line, and mean height.
fn looks(m: &Metric, texels: &[Tx], w: usize) -> [f32; LOOKS] {
    let h = texels.len() / w;
    let step = |a: Tx, b: Tx| {
        let (p, q) = (rgb_of(m, a), rgb_of(m, b));
        (((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt(), (a.h - b.h).abs())
    };
    let (mut mean, mut cstep, mut hstep) = ([0f32; 3], 0f32, 0f32);
    for (i, t) in texels.iter().enumerate() {
        let c = rgb_of(m, *t);
        for k in 0..3 {
            mean[k] += c[k];
        }
        let (x, y) = (i % w, i / w);
        for j in [(x + 1 < w).then(|| i + 1), (y + 1 < h).then(|| i + w)].into_iter().flatten() {
            let (c, hh) = step(*t, texels[j]);
            cstep += c;
            hstep += hh;
        }
    }
    let (mut cacross, mut hacross) = (0f32, 0f32);
    for x in 0..w {
        let (c, hh) = step(texels[(h / 2 - 1) * w + x], texels[(h / 2) * w + x]);
        cacross += c;
        hacross += hh;
    }
    let len = texels.len() as f32;
    let level = texels.iter().map(|t| t.h).sum::<f32>() / len;
    // Neighbour pairs: along the rows and down the columns.
    let n = ((w.saturating_sub(1) * h + w * h.saturating_sub(1)) as f32).max(1.0);
    [mean[0] / len, mean[1] / len, mean[2] / len, cstep / n, hstep / n, cacross / w as f32, hacross / w as f32, level]
}

/// The detail at the scale of bumps and spots (each texel's 3 x 3 mean less
/// its 9 x 9 mean, clipped to the texels given; in error units, see
/// [`Metric::err`]) of texels `w` wide, summed over the `2 * along` x
/// `2 * across` texels in their middle.
fn detail(m: &Metric, texels: &[Tx], w: usize, along: usize, across: usize) -> f32 {
    let h = texels.len() / w;
    let mean = |x: usize, y: usize, r: usize| {
        let (mut sum, mut n) = ([0f32; 4], 0f32);
        for yy in y.saturating_sub(r)..(y + r + 1).min(h) {
            for xx in x.saturating_sub(r)..(x + r + 1).min(w) {
                let t = texels[yy * w + xx];
                let c = rgb_of(m, t);
                for (k, v) in [t.h, c[0], c[1], c[2]].into_iter().enumerate() {
                    sum[k] += v;
                }
                n += 1.0;
            }
        }
        sum.map(|v| v / n)
    };
    let mut total = 0f32;
    for y in (h / 2).saturating_sub(across)..(h / 2 + across).min(h) {
        for x in (w / 2).saturating_sub(along)..(w / 2 + along).min(w) {
            let (a, b) = (mean(x, y, 1), mean(x, y, 4));
            let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]];
            total += d[0] * d[0] + COLOUR_WEIGHT * (d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
        }
    }
    total
}

/// How many of the most typical candidates [`most_typical`] weighs by their
/// detail.
const TYPICAL_FEW: usize = 16;

/// How many statistics [`looks`] gives.
const LOOKS: usize = 8;
/// How much each statistic counts: the steps across the edge line most (the
/// measure of a seam), then the other steps, colour and level.
const LOOK_WEIGHTS: [f32; LOOKS] = [1.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 1.0];
/// The statistics whose typical value is their median: mean colour and level.
const LOOKS_BY_MEDIAN: [usize; 4] = [0, 1, 2, 7];

/// The most typical candidate: of the [`TYPICAL_FEW`] whose [`looks`] are
/// nearest the typical (each statistic scaled by its spread), the one with
/// the least detail in what it shares (`shared`: [`detail`]). What repeats
/// at every vertex or edge should look like any other piece of the land
/// round it: neither a feature that catches the eye (a lone peak, a fleck
/// of snow, a spot of light water) nor a smooth line through textured
/// ground.
fn most_typical(
    m: &Metric,
    count: usize,
    texels: impl Fn(usize) -> (Vec<Tx>, usize),
    shared: impl Fn(usize) -> f32,
) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let stats: Vec<[f32; LOOKS]> = (0..count)
        .map(|i| {
            let (t, w) = texels(i);
            looks(m, &t, w)
        })
        .collect();
    let mut centre = [0f32; LOOKS];
    let mut spread = [0f32; LOOKS];
    let n = stats.len() as f32;
    for k in 0..LOOKS {
        // Steps: the mean, not the median (steps are mostly 0 in a grainy
        // texture quantised to few colours, and a strip without grain is a
        // line). Colour and level: the median (a class of bare rock with
        // fields of snow is typically rock, not the grey of their mean,
        // which only a patch with a fleck of snow would match).
        centre[k] = if LOOKS_BY_MEDIAN.contains(&k) {
            median(stats.iter().map(|s| s[k]).collect())
        } else {
            stats.iter().map(|s| s[k]).sum::<f32>() / n
        };
        spread[k] = (stats.iter().map(|s| (s[k] - centre[k]).abs()).sum::<f32>() / n).max(0.5);
    }
    let score =
        |i: usize| (0..LOOKS).map(|k| LOOK_WEIGHTS[k] * ((stats[i][k] - centre[k]) / spread[k]).powi(2)).sum::<f32>();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| score(a).total_cmp(&score(b)).then(a.cmp(&b)));
    order.truncate(TYPICAL_FEW);
    order.into_iter().map(|i| (shared(i), i)).min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))).map(|(_, i)| i)
}

/// One corner patch per class: the least distinctive vertex of the class
/// (its few shared texels sit at every vertex of the class: they must not
/// catch the eye).
fn corner_patches(
    sources: &[Source],
    m: &Metric,
    classes: &Classes,
    k: u8,
    f: Frame,
    stride: i32,
) -> Result<Vec<Patch>, String> {
    let e = f.ext();
    let r = near(f);
    let mut patches = Vec::new();
    for class in 0..k {
        let cands: Vec<Place> = vertices(sources, stride)
            .map(|(src, x, y)| Place { src, x, y, orient: 0 })
            .filter(|p| p.fits(&sources[p.src], -e, e, -e, e))
            .filter(|p| classes.of(sources[p.src].field_at(p.x, p.y)) == class)
            .collect();
        // At most a few thousand candidates, spread over the list.
        let cands: Vec<Place> = cands.iter().copied().step_by((cands.len() / 3000).max(1)).collect();
        let square = |i: usize, r: i32| -> Vec<Tx> {
            (-r..r).flat_map(|y| (-r..r).map(move |x| (x, y))).map(|(x, y)| tx(sources, &cands[i], x, y)).collect()
        };
        let reach = f.reach as usize;
        let best = most_typical(
            m,
            cands.len(),
            |i| (square(i, r), 2 * r as usize),
            |i| detail(m, &square(i, e), 2 * e as usize, reach, reach),
        )
        .ok_or_else(|| format!("no vertex of class {class} has room for a corner patch"))?;
        let p = cands[best];
        let mut texels = Vec::with_capacity((4 * e * e) as usize);
        for y in -e..e {
            for x in -e..e {
                texels.push(tx(sources, &p, x, y));
            }
        }
        patches.push(Patch { e, texels });
    }
    Ok(patches)
}

/// The frame along one edge between vertices of classes `a` (at `along` 0)
/// and `b` (at `along` t): `along` 0..t, `across` -ext..ext (positive:
/// below a horizontal edge, right of a vertical one).
struct Edge {
    t: i32,
    e: i32,
    texels: Vec<Tx>,
}

impl Edge {
    fn at(&self, along: i32, across: i32) -> Tx {
        self.texels[((across + self.e) * self.t + along) as usize]
    }
}

/// Corner patch `p`'s texel at edge coordinates.
fn patch_at(p: &Patch, vertical: bool, along: i32, across: i32) -> Tx {
    if vertical { p.at(across, along) } else { p.at(along, across) }
}

/// Builds the edge frame from patch `pa` (at along 0), the strip at `strip`
/// and patch `pb` (at along t), with a minimum-error cut at each end.
#[allow(clippy::too_many_arguments)]
fn join_edge(
    sources: &[Source],
    m: &Metric,
    f: Frame,
    strip: &Place,
    pa: &Patch,
    pb: &Patch,
    vertical: bool,
) -> (Edge, f32) {
    let (t, e) = (f.t, f.ext());
    let rows = (2 * e) as usize;
    let s = |along: i32, across: i32| tx(sources, strip, along, across);
    // Left cut: along < d is patch a; d in pure..=reach.
    let (left, lc) = min_cut(rows, f.pure as usize, f.reach as usize, |r, d| {
        let across = r as i32 - e;
        let d = d as i32;
        m.err(patch_at(pa, vertical, d - 1, across), s(d - 1, across))
            + m.err(patch_at(pa, vertical, d, across), s(d, across))
            + SPREAD_COST * (d - f.pure) as f32
    });
    // Right cut: along >= d is patch b; d in t - reach ..= t - pure.
    let (right, rc) = min_cut(rows, (t - f.reach) as usize, (t - f.pure) as usize, |r, d| {
        let across = r as i32 - e;
        let d = d as i32;
        m.err(patch_at(pb, vertical, d - 1 - t, across), s(d - 1, across))
            + m.err(patch_at(pb, vertical, d - t, across), s(d, across))
            + SPREAD_COST * (t - f.pure - d) as f32
    });
    // Patch a left of the left cut, patch b right of the right cut, the
    // strip between, its level brought to the patches' by a harmonic offset.
    let w = t as usize;
    let owner = |r: usize, along: i32| {
        if along < left[r] as i32 {
            0
        } else if along >= right[r] as i32 {
            2
        } else {
            1
        }
    };
    let patch = |r: usize, along: i32| {
        let across = r as i32 - e;
        match owner(r, along) {
            0 => patch_at(pa, vertical, along, across),
            _ => patch_at(pb, vertical, along - t, across),
        }
    };
    let fixed: Vec<Option<f32>> = (0..w * rows)
        .map(|i| {
            let (along, r) = ((i % w) as i32, i / w);
            (owner(r, along) != 1).then(|| patch(r, along).h - s(along, r as i32 - e).h)
        })
        .collect();
    let offset = harmonic(&fixed, w, rows);
    let mut texels = Vec::with_capacity(w * rows);
    for r in 0..rows {
        for along in 0..t {
            let texel = if owner(r, along) == 1 {
                let st = s(along, r as i32 - e);
                Tx { h: st.h + offset[r * w + along as usize], c: st.c }
            } else {
                patch(r, along)
            };
            texels.push(texel);
        }
    }
    (Edge { t, e, texels }, lc + rc)
}

/// Strip candidates for an edge from class `a` to class `b`.
fn strip_candidates(sources: &[Source], classes: &Classes, f: Frame, a: u8, b: u8, stride: i32) -> Vec<Place> {
    let (t, e) = (f.t, f.ext());
    let mut out = Vec::new();
    for (src, x, y) in vertices(sources, stride) {
        for orient in 0..8 {
            let p = Place { src, x, y, orient };
            if !p.fits(&sources[src], -e, t + e, -e, e) {
                continue;
            }
            let (bx, by) = p.vertex(t, 0);
            let s = &sources[src];
            if classes.of(s.field_at(x, y)) == a && classes.of(s.field_at(bx, by)) == b {
                out.push(p);
            }
        }
    }
    out
}

/// A rectangle of a source: (source, (x0, y0, x1, y1)), exclusive ends.
type SourceRect = (usize, (i32, i32, i32, i32));

/// True if source rectangles overlap by more than a quarter of `area`.
fn overlaps(p: SourceRect, q: SourceRect, area: i32) -> bool {
    if p.0 != q.0 {
        return false;
    }
    let (a, b) = (p.1, q.1);
    let w = (a.2.min(b.2) - a.0.max(b.0)).max(0);
    let h = (a.3.min(b.3) - a.1.max(b.1)).max(0);
    w * h * 4 > area
}

/// Chooses the strip for edge (`a`, `b`): the least distinctive candidate
/// near the edge line whose step across the edge is typical (a strip
/// smoother than the land round it would show as a line), avoiding `taken`.
#[allow(clippy::too_many_arguments)]
fn choose_strip(
    sources: &[Source],
    m: &Metric,
    f: Frame,
    cands: &[Place],
    vertical: bool,
    upright: bool,
    taken: &[SourceRect],
) -> Option<Place> {
    let (t, e) = (f.t, f.ext());
    let area = (t + 2 * e) * 2 * e;
    // A vertical edge's strip runs down the source when its axes are swapped.
    let upright_orient = if vertical { 1 } else { 0 };
    let unturned = |p: &Place| !upright || p.orient == upright_orient;
    let any_unturned = cands.iter().any(unturned);
    let free: Vec<Place> = cands
        .iter()
        .copied()
        .filter(|p| !any_unturned || unturned(p))
        .filter(|p| !taken.iter().any(|q| overlaps((p.src, p.rect(-e, t + e, -e, e)), *q, area)))
        .collect();
    if free.is_empty() {
        return None;
    }
    let free: Vec<Place> = free.iter().copied().step_by((free.len() / 3000).max(1)).collect();
    // The strip's shared rows and the row either side.
    let r = f.pure + 1;
    let band = |i: usize, r: i32| -> Vec<Tx> {
        (-r..r).flat_map(|v| (0..t).map(move |u| (u, v))).map(|(u, v)| tx(sources, &free[i], u, v)).collect()
    };
    let best = most_typical(
        m,
        free.len(),
        |i| (band(i, r), t as usize),
        |i| detail(m, &band(i, e), t as usize, t as usize / 2, f.reach as usize),
    )?;
    Some(free[best])
}

/// The frame of a tile with corner classes `k` (TL, TR, BL, BR) at texel
/// (`x`, `y`), for depth (distance to the nearest edge) up to `reach`.
struct TileFrame<'a> {
    f: Frame,
    m: &'a Metric,
    top: &'a Edge,
    bottom: &'a Edge,
    left: &'a Edge,
    right: &'a Edge,
}

impl TileFrame<'_> {
    fn at(&self, x: i32, y: i32) -> Tx {
        let t = self.f.t;
        let d = [y, t - 1 - y, x, t - 1 - x];
        let side = (0..4).min_by_key(|&s| (d[s], s)).expect("four sides");
        match side {
            0 => self.top.at(x, y),
            1 => self.bottom.at(x, y - t),
            2 => self.left.at(y, x),
            _ => self.right.at(y, x - t),
        }
    }
}

/// (position along the side, depth) of side `s` to tile texel (x, y).
fn side_texel(t: i32, s: usize, p: i32, d: i32) -> (i32, i32) {
    match s {
        0 => (p, d),
        1 => (p, t - 1 - d),
        2 => (d, p),
        _ => (t - 1 - d, p),
    }
}

/// Joins interior `inner` (a t x t window) to `frame`: the four cut paths and
/// their total cost.
fn cuts(frame: &TileFrame<'_>, m: &Metric, inner: &dyn Fn(i32, i32) -> Tx) -> ([Vec<usize>; 4], f32) {
    let f = frame.f;
    let mut total = 0f32;
    let paths: [Vec<usize>; 4] = std::array::from_fn(|s| {
        let (path, cost) = min_cut(f.t as usize, f.pure as usize, f.reach as usize, |p, d| {
            let e = |d: i32| {
                let (x, y) = side_texel(f.t, s, p as i32, d);
                m.err(frame.at(x, y), inner(x, y))
            };
            e(d as i32 - 1) + e(d as i32) + SPREAD_COST * (d as i32 - f.pure) as f32
        });
        total += cost;
        path
    });
    (paths, total)
}

/// The tile: frame where any side's cut says so, interior elsewhere. The
/// interior keeps its slopes but not its level: a harmonic offset brings it
/// to the frame's heights all along the cut, so the join shows no step.
fn assemble(frame: &TileFrame<'_>, inner: &dyn Fn(i32, i32) -> Tx, paths: &[Vec<usize>; 4]) -> Vec<u16> {
    let f = frame.f;
    let t = f.t as usize;
    let mut is_frame = vec![false; t * t];
    for (s, path) in paths.iter().enumerate() {
        for p in 0..f.t {
            for d in 0..path[p as usize] as i32 {
                let (x, y) = side_texel(f.t, s, p, d);
                is_frame[y as usize * t + x as usize] = true;
            }
        }
    }
    // Offsets for height and for red, green, blue: frame minus interior on
    // frame texels, averaged over a few texels (the levels should meet, not
    // the texel-sized detail, which the harmonic fill would copy into the
    // interior as bumps), harmonic inside.
    let channel = |k: usize, x: i32, y: i32, inner_side: bool| -> f32 {
        let tx = if inner_side { inner(x, y) } else { frame.at(x, y) };
        if k == 0 { tx.h } else { frame.m.rgb[tx.c as usize][k - 1] }
    };
    let channels: Vec<Vec<Option<f32>>> = (0..4)
        .map(|k| {
            let radius = if k == 0 { LEVEL_RADIUS } else { COLOUR_RADIUS };
            let mismatch: Vec<f32> = (0..t * t)
                .map(|i| {
                    let (x, y) = ((i % t) as i32, (i / t) as i32);
                    if is_frame[i] { channel(k, x, y, false) - channel(k, x, y, true) } else { 0.0 }
                })
                .collect();
            let fixed: Vec<Option<f32>> = (0..t * t)
                .map(|i| {
                    if !is_frame[i] {
                        return None;
                    }
                    let (x, y) = ((i % t) as i32, (i / t) as i32);
                    let (mut sum, mut n) = (0f32, 0f32);
                    for yy in (y - radius).max(0)..(y + radius + 1).min(f.t) {
                        for xx in (x - radius).max(0)..(x + radius + 1).min(f.t) {
                            let j = yy as usize * t + xx as usize;
                            if is_frame[j] {
                                sum += mismatch[j];
                                n += 1.0;
                            }
                        }
                    }
                    Some(sum / n)
                })
                .collect();
            fixed
        })
        .collect();
    // The four fills fix the same texels (the frame's): in lockstep.
    let fixed: Vec<Option<[f32; 4]>> =
        (0..t * t).map(|i| is_frame[i].then(|| core::array::from_fn(|k| channels[k][i].unwrap_or_default()))).collect();
    let offsets = harmonic_lanes(&fixed, t, t);
    let mut out = Vec::with_capacity(t * t);
    for y in 0..f.t {
        for x in 0..f.t {
            let i = y as usize * t + x as usize;
            let texel = if is_frame[i] {
                frame.at(x, y)
            } else {
                let inn = inner(x, y);
                let c = if (1..4).all(|k| offsets[i][k].abs() < 0.5) {
                    inn.c
                } else {
                    let rgb = frame.m.rgb[inn.c as usize];
                    frame.m.nearest([rgb[0] + offsets[i][1], rgb[1] + offsets[i][2], rgb[2] + offsets[i][3]])
                };
                Tx { h: inn.h + offsets[i][0], c }
            };
            out.push(bank::texel(texel.h.round().clamp(0.0, 255.0) as u8, texel.c));
        }
    }
    out
}

/// Radius (texels) over which the height mismatch between frame and interior
/// is averaged before the harmonic offset spreads it.
const LEVEL_RADIUS: i32 = 0;
/// The same for colour: grain (texel-sized colour noise) is not a level.
const COLOUR_RADIUS: i32 = 2;

/// The world field's distribution: how often each integer value (0..=255)
/// occurs at the vertices of worlds made with the default parameters.
fn world_field_histogram() -> [u64; 256] {
    let mut hist = [0u64; 256];
    for seed in 1..=16u32 {
        let world = World::new(seed, WorldParams::DEFAULT).expect("default parameters are valid");
        let n = world.size_tiles();
        let shift = 2 * world.params().spacing_log2 as u32;
        for y in 0..n {
            for x in 0..n {
                hist[(world.value_at(x, y) >> shift).min(255) as usize] += 1;
            }
        }
    }
    hist
}

/// World thresholds giving class `k` the share `shares[k]` of a world's
/// vertices, with middle classes at least `band` wide.
fn world_thresholds(shares: &[f64], band: u16) -> [u8; 3] {
    let hist = world_field_histogram();
    let total: u64 = hist.iter().sum();
    let k = shares.len();
    let mut t = [0u16; 3];
    let mut acc = 0f64;
    let mut v = 0usize;
    let mut seen = 0u64;
    for (c, share) in shares.iter().enumerate().take(k - 1) {
        acc += share;
        while v < 255 && (seen + hist[v]) as f64 / (total as f64) < acc {
            seen += hist[v];
            v += 1;
        }
        t[c] = (v as u16).clamp(1, 255);
    }
    // Widen narrow middle classes about their centre, keeping order and range.
    for _ in 0..4 {
        for c in 1..k - 1 {
            let (lo, hi) = (t[c - 1], t[c]);
            if hi < lo + band {
                let mid = (lo + hi) / 2;
                let lo2 = mid.saturating_sub(band / 2).max(c as u16);
                t[c - 1] = lo2;
                t[c] = lo2 + band;
            }
        }
    }
    for c in 1..k - 1 {
        t[c] = t[c].max(t[c - 1] + 1);
    }
    [t[0].min(255) as u8, t[1].min(255) as u8, t[2].min(255) as u8]
}

/// Builds the corner tile set from `sources` (colours already quantised;
/// `rgb` is the palette). Fails with what is missing and what to do.
pub fn build(
    sources: &[Source],
    rgb: &[[u8; 3]],
    setup: Setup,
    progress: crate::bake::Progress<'_>,
) -> Result<Built, String> {
    // One tile holds no two vertices a tile apart: say so, not what the
    // class split below would find wrong with so few vertices.
    if sources.iter().all(|s| s.w <= setup.tile && s.h <= setup.tile) {
        return Err(format!(
            "a corner set needs a source two tiles or more across, and {} one tile of {} texels: give a smaller \
             --tile-size or a larger source, or --placement paper",
            if sources.len() == 1 { "this is" } else { "each is" },
            setup.tile
        ));
    }
    let f = Frame::new(setup.tile);
    let k = setup.classes;
    let mut used = vec![false; rgb.len()];
    for c in sources.iter().flat_map(|s| s.colour.iter()) {
        if let Some(u) = used.get_mut(*c as usize) {
            *u = true;
        }
    }
    let m = Metric { rgb: rgb.iter().map(|c| [c[0] as f32, c[1] as f32, c[2] as f32]).collect(), used };
    // Candidate anchors on a grid fine enough to find rare configurations and
    // coarse enough to keep large sources quick: about 40,000 vertices in all.
    let texels: i64 = sources.iter().map(|s| s.w as i64 * s.h as i64).sum();
    let stride = ((texels as f64 / 40_000.0).sqrt().floor() as i32).max(1);

    // 1. Classes in the source: equal shares of the field.
    let fields: Vec<f32> = vertices(sources, stride).map(|(s, x, y)| sources[s].field_at(x, y)).collect();
    let mut sorted = fields.clone();
    sorted.sort_by(f32::total_cmp);
    let levels: Vec<f32> = (1..k as usize).map(|c| sorted[sorted.len() * c / k as usize]).collect();
    for w in levels.windows(2) {
        if w[1] <= w[0] {
            return Err(format!(
                "the heights do not vary enough to split them into {k} classes; use --classes 2 or a source with more relief"
            ));
        }
    }
    if levels.first().is_some_and(|&c| c <= sorted[0]) {
        // The lowest class would be empty: at least 1/k of the source lies at
        // its lowest height.
        let lowest = sorted.iter().filter(|&&v| v <= sorted[0]).count() * 100 / sorted.len();
        if lowest >= 99 {
            return Err(
                "the heights are almost all equal: a corner set needs relief to tell low from high ground".into()
            );
        }
        let advice = if k > 2 { "use --classes 2, or a source" } else { "use a source" };
        return Err(format!(
            "{lowest}% of the heights are the lowest one (a flat floor or sea), so the lowest of {k} classes \
             would be empty; {advice} with less of it at one height"
        ));
    }
    let classes = Classes { cuts: levels };
    let counts: Vec<usize> = (0..k).map(|c| fields.iter().filter(|&&v| classes.of(v) == c).count()).collect();
    let shares: Vec<f64> = counts.iter().map(|&c| c as f64 / fields.len() as f64).collect();

    // 2. Corner patches.
    progress("corner patches", 0, 1);
    let patches = corner_patches(sources, &m, &classes, k, f, stride)?;

    // 3. Edge strips: for every pair of neighbouring classes, both
    // directions, both variants, each from its own place in the source.
    let pairs: Vec<(u8, u8)> =
        (0..k).flat_map(|a| (0..k).map(move |b| (a, b))).filter(|(a, b)| a.abs_diff(*b) <= 1).collect();
    // edges[pair][variant][vertical]; the pairs in parallel (each reads
    // only the patches and the source), kept in order.
    let pair_edges = |i: usize| -> [[Option<Edge>; 2]; 2] {
        let (a, b) = pairs[i];
        let cands = strip_candidates(sources, &classes, f, a, b, stride);
        let (pa, pb) = (&patches[a as usize], &patches[b as usize]);
        let e = f.ext();
        let mut taken = Vec::new();
        let mut four: [[Option<Edge>; 2]; 2] = Default::default();
        for slot in four.iter_mut() {
            for (vertical, edge) in slot.iter_mut().enumerate() {
                let vertical = vertical == 1;
                let pick = choose_strip(sources, &m, f, &cands, vertical, setup.upright, &taken)
                    .or_else(|| choose_strip(sources, &m, f, &cands, vertical, setup.upright, &[]));
                if let Some(p) = pick {
                    taken.push((p.src, p.rect(-e, f.t + e, -e, e)));
                    *edge = Some(join_edge(sources, &m, f, &p, pa, pb, vertical).0);
                }
            }
        }
        four
    };
    let edges: Vec<[[Option<Edge>; 2]; 2]> =
        crate::parallel::map(pairs.len(), pair_edges, |done| progress("edge strips", done as u64, pairs.len() as u64));
    let edge = |a: u8, b: u8, variant: u8, vertical: bool| -> Option<&Edge> {
        let i = pairs.iter().position(|&p| p == (a, b))?;
        edges[i][variant as usize][vertical as usize].as_ref()
    };

    // 4. Interiors: windows by the classes of their corners.
    let t = f.t;
    let mut by_config: Vec<Vec<Place>> = vec![Vec::new(); CONFIGS];
    for (src, x, y) in vertices(sources, stride) {
        for orient in 0..8 {
            let p = Place { src, x, y, orient };
            if !p.fits(&sources[src], 0, t, 0, t) {
                continue;
            }
            let class = |u: i32, v: i32| {
                let (vx, vy) = p.vertex(u, v);
                classes.of(sources[src].field_at(vx, vy))
            };
            let c = bank::config(class(0, 0), class(t, 0), class(0, t), class(t, t));
            by_config[c as usize].push(p);
        }
    }
    let wanted = needed(k);
    let has_edges = |a: u8, b: u8| (0..2).all(|v| edge(a, b, v, false).is_some() && edge(a, b, v, true).is_some());
    let name = |c: u8| {
        let [a, b, cc, d] = bank::corners(c);
        format!("{a}{b}/{cc}{d}")
    };
    let no_edges: Vec<String> =
        pairs.iter().filter(|&&(a, b)| !has_edges(a, b)).map(|&(a, b)| format!("{a} to {b}")).collect();
    let missing: Vec<u8> = wanted.iter().copied().filter(|&c| by_config[c as usize].is_empty()).collect();
    if !no_edges.is_empty() || missing.len() * 4 > wanted.len() {
        let what = if no_edges.is_empty() {
            format!(
                "no window of {t} texels whose corner classes are {} (classes 0 = low .. {} = high; top-left \
                 top-right/bottom-left bottom-right)",
                missing.iter().map(|&c| name(c)).collect::<Vec<_>>().join(", "),
                k - 1
            )
        } else {
            format!("no pair of vertices one tile apart going from class {}", no_edges.join(", "))
        };
        let classes = if k > 2 { ", or --classes 2" } else { "" };
        return Err(format!(
            "the source has {what}: give a larger or more varied source, or a smaller --tile-size{classes}"
        ));
    }
    // A few missing configurations (saddles between two hills, say) borrow
    // the windows of the nearest one; their borders still match (the frame
    // decides them), only their insides are less typical.
    let mut substitutes = Vec::new();
    for &c in &missing {
        let k4 = bank::corners(c);
        let near = wanted
            .iter()
            .filter(|&&w| !by_config[w as usize].is_empty())
            .min_by_key(|&&w| {
                let kw = bank::corners(w);
                (k4.iter().zip(kw.iter()).map(|(a, b)| a.abs_diff(*b) as u32).sum::<u32>(), w)
            })
            .copied()
            .expect("most configurations have windows");
        by_config[c as usize] = by_config[near as usize].clone();
        substitutes.push((c, near));
    }
    let notes: Vec<String> = substitutes
        .iter()
        .map(|&(c, n)| {
            format!(
                "no window of the source has corner classes {} (top-left top-right/bottom-left bottom-right, \
                 0 = low ground): its tiles are cut from windows of {}, their borders still match",
                name(c),
                name(n)
            )
        })
        .collect();

    let area = t * t;
    // A configuration's tiles depend on nothing but the configuration and
    // what the stages above made (read only here): the configurations are
    // made in parallel, their tiles kept in `wanted`'s order, so the bank is
    // the same byte for byte on any number of cores.
    let one_config = |c: u8| -> (Vec<Vec<u16>>, usize) {
        let mut tiles: Vec<Vec<u16>> = Vec::with_capacity(bank::COMBINATIONS as usize);
        let [a, b, cc, d] = bank::corners(c);
        let all = &by_config[c as usize];
        let upright: Vec<Place> = all.iter().copied().filter(|p| p.orient == 0).collect();
        let cands = if setup.upright && !upright.is_empty() { &upright } else { all };
        let mut chosen: Vec<SourceRect> = Vec::new();
        let mut distinct = 0;
        let frames: Vec<TileFrame<'_>> = (0..bank::COMBINATIONS)
            .map(|combination| {
                let [et, eb, el, er] = bank::edge_variants(combination);
                TileFrame {
                    f,
                    m: &m,
                    top: edge(a, b, et, false).expect("checked"),
                    bottom: edge(cc, d, eb, false).expect("checked"),
                    left: edge(a, cc, el, true).expect("checked"),
                    right: edge(b, d, er, true).expect("checked"),
                }
            })
            .collect();
        // Cheap score: frame against window along the middle of the cut band,
        // for every combination's frame. Window by window, so each window's
        // texels are read from the (possibly large) source once, not once per
        // combination; the sums are the same.
        let mid = (f.pure + f.reach) / 2;
        let points: Vec<(i32, i32)> =
            (0..4).flat_map(|side| (0..t).step_by(2).map(move |q| side_texel(t, side, q, mid))).collect();
        let frame_texels: Vec<Vec<Tx>> =
            frames.iter().map(|frame| points.iter().map(|&(x, y)| frame.at(x, y)).collect()).collect();
        let mut cheap: Vec<Vec<(f32, usize)>> = vec![Vec::with_capacity(cands.len()); frames.len()];
        let mut window = Vec::with_capacity(points.len());
        for (j, p) in cands.iter().enumerate() {
            window.clear();
            window.extend(points.iter().map(|&(x, y)| tx(sources, p, x, y)));
            for (scores, frame) in cheap.iter_mut().zip(&frame_texels) {
                let mut s = 0f32;
                for (a, b) in frame.iter().zip(&window) {
                    s += m.err(*a, *b);
                }
                scores.push((s, j));
            }
        }
        // Relief: a window's centre above its border (a hill) or below it
        // (a hollow), against the typical relief of the configuration's
        // windows; min-cut alone favours bland borders round a hill, and
        // every tile would then hold one.
        let relief = |p: &Place| {
            let src = &sources[p.src];
            let (x0, y0, x1, y1) = p.rect(0, t, 0, t);
            let q = t / 4;
            let centre = (x0 + q, y0 + q, x1 - q, y1 - q);
            // Centre half-square against the whole: level and slope.
            let level = (src.mean(centre) - src.mean((x0, y0, x1, y1))) * 4.0 / 3.0;
            let slope = (src.mean_slope(centre) - src.mean_slope((x0, y0, x1, y1))) * 4.0 / 3.0;
            [level, slope]
        };
        let step = (cands.len() / 2000).max(1);
        let sample: Vec<[f32; 2]> = cands.iter().step_by(step).map(relief).collect();
        // Level: no dome and no hollow (a slope has none either), else
        // every tile of a hilltop class would hold its own peak. Slope:
        // the median (most all-water windows are flat; the mean would
        // make the few with an island look typical).
        let typical = [0.0, median(sample.iter().map(|r| r[1]).collect())];
        let spread = [0, 1].map(|k| median(sample.iter().map(|r| (r[k] - typical[k]).abs()).collect()).max(0.25));
        // In units of a typical deviation, squared, summed; the same for
        // every combination.
        let relief_costs: Vec<f32> = cands
            .iter()
            .map(|p| {
                let r = relief(p);
                RELIEF_COST * (0..2).map(|k| ((r[k] - typical[k]) / spread[k]).powi(2)).sum::<f32>()
            })
            .collect();
        for (frame, mut scored) in frames.iter().zip(cheap) {
            for sc in &mut scored {
                sc.0 += relief_costs[sc.1] * (4 * t / 2) as f32;
            }
            scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            // The best window this configuration has not used: from a place
            // of its own if there is one, else any other, else the best.
            let free = |pass: usize, j: usize| {
                let p = cands[j];
                let rect = (p.src, p.rect(0, t, 0, t));
                match pass {
                    0 => !chosen.iter().any(|q| overlaps(rect, *q, area)),
                    1 => !chosen.contains(&rect),
                    _ => true,
                }
            };
            let (pass, shortlist) = (0..3)
                .map(|pass| (pass, scored.iter().map(|s| s.1).filter(|&j| free(pass, j)).take(8).collect::<Vec<_>>()))
                .find(|(_, l)| !l.is_empty())
                .expect("candidates exist");
            if pass == 0 {
                distinct += 1;
            }
            // Of the shortlist, the one with the cheapest cuts.
            let best = shortlist
                .iter()
                .map(|&j| {
                    let p = cands[j];
                    let (paths, cost) = cuts(frame, &m, &|x, y| tx(sources, &p, x, y));
                    (cost + relief_costs[j] * (4 * t) as f32, j, paths)
                })
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .expect("a shortlist");
            let p = cands[best.1];
            chosen.push((p.src, p.rect(0, t, 0, t)));
            tiles.push(assemble(frame, &|x, y| tx(sources, &p, x, y), &best.2));
        }
        (tiles, distinct)
    };
    let made = crate::parallel::map(
        wanted.len(),
        |i| one_config(wanted[i]),
        |done| progress("corner tiles", done as u64, wanted.len() as u64),
    );
    let mut tiles: Vec<Vec<u16>> = Vec::new();
    let mut configs = [ConfigTiles::default(); CONFIGS];
    let mut found = Vec::new();
    for (&c, (made, distinct)) in wanted.iter().zip(made) {
        configs[c as usize] = ConfigTiles { first: tiles.len() as u8, count: bank::COMBINATIONS };
        tiles.extend(made);
        found.push((c, distinct));
    }
    // Configurations a world cannot make (corners more than one class apart)
    // borrow the tiles of the nearest one it can.
    for c in 0..CONFIGS {
        if configs[c].count == 0 {
            let k4 = bank::corners(c as u8);
            let near = wanted
                .iter()
                .min_by_key(|&&w| {
                    let kw = bank::corners(w);
                    (k4.iter().zip(kw.iter()).map(|(a, b)| a.abs_diff(*b) as u32).sum::<u32>(), w)
                })
                .expect("at least one configuration");
            configs[c] = configs[*near as usize];
        }
    }
    let thresholds = world_thresholds(&shares, terrain::class_band(WorldParams::DEFAULT.spacing_log2));
    Ok(Built { tiles, corners: Corners { classes: k, thresholds, configs }, distinct: found, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needed_configurations_span_two_neighbouring_classes() {
        assert_eq!(needed(2).len(), 16);
        assert_eq!(needed(3).len(), 31);
        assert!(!needed(3).contains(&bank::config(0, 2, 1, 1)));
        assert!(needed(3).contains(&bank::config(1, 2, 2, 1)));
    }

    /// A `w` x `h` source of `height(x, y)` and palette entry `colour(x, y)`.
    fn source(w: i32, h: i32, height: impl Fn(i32, i32) -> f32, colour: impl Fn(i32, i32) -> u8) -> Source {
        let points = || (0..h).flat_map(move |y| (0..w).map(move |x| (x, y)));
        let heights: Vec<f32> = points().map(|(x, y)| height(x, y)).collect();
        let colours: Vec<u8> = points().map(|(x, y)| colour(x, y)).collect();
        Source::new(w, h, heights, colours, 4)
    }

    /// Grey palette entries: entry i has brightness 2i.
    fn greys() -> Vec<[u8; 3]> {
        (0..=127u8).map(|i| [2 * i, 2 * i, 2 * i]).collect()
    }

    /// Brightness exactly linear in the slopes is all explained; brightness
    /// unrelated to them hardly at all; too few texels, flat brightness or
    /// slopes that cannot be told from the mean give 0. Pinned values.
    #[test]
    fn slope_share_measures_baked_lighting() {
        let rgb = greys();
        // Heights x^2 + y^2 / 2: slopes 4x and 2y.
        let bowl = |x: i32, y: i32| (x * x) as f32 + (y * y) as f32 / 2.0;
        // Brightness 2 (x + y), exactly linear in the slopes.
        let shaded = source(24, 20, bowl, |x, y| (x + y) as u8);
        let share = slope_share(std::slice::from_ref(&shaded), &rgb);
        assert!((share - 1.0).abs() < 1e-9, "{share}");
        assert!(lit(std::slice::from_ref(&shaded), &rgb));
        // The same slopes, colours in a pattern of their own.
        let pattern = source(24, 20, bowl, |x, y| (((x * 73_856_093) ^ (y * 19_349_663)).rem_euclid(17)) as u8);
        let share = slope_share(std::slice::from_ref(&pattern), &rgb);
        assert!((share - PATTERN_SHARE).abs() < 1e-12, "{share:.17}");
        assert!(!lit(std::slice::from_ref(&pattern), &rgb));
        // Two sources are fitted together: half shaded, half pattern.
        let both = [shaded, pattern];
        let share = slope_share(&both, &rgb);
        assert!((share - BOTH_SHARE).abs() < 1e-12, "{share:.17}");
        // 4 x 4 inner texels is the least fitted; 3 x 5 is too few.
        let slope = |x: i32, y: i32| (x * x + 2 * y * y) as f32;
        assert!(slope_share(&[source(6, 6, slope, |x, y| (x + 2 * y) as u8)], &rgb) > 0.99);
        assert_eq!(slope_share(&[source(5, 7, slope, |x, y| (x + 2 * y) as u8)], &rgb), 0.0);
        // One colour: no variance to explain.
        assert_eq!(slope_share(&[source(24, 20, slope, |_, _| 9)], &rgb), 0.0);
        // A plane: the slopes are constant, no fit tells them from the mean.
        assert_eq!(slope_share(&[source(24, 20, |x, y| (3 * x + y) as f32, |x, _| x as u8)], &rgb), 0.0);
        // Brightness weighs red, green and blue as 0.3, 0.59 and 0.11: a
        // palette whose channels vary apart gives its own share.
        let mixed: Vec<[u8; 3]> =
            (0..=127u32).map(|i| [(i * 37 % 256) as u8, (i * 11 % 256) as u8, (i * 53 % 256) as u8]).collect();
        let share = slope_share(&both[..1], &mixed);
        assert!((share - MIXED_SHARE).abs() < 1e-12, "{share:.17}");
        assert_eq!(LIT_SHARE, 0.1);
    }

    /// [`slope_share_measures_baked_lighting`]'s pinned shares.
    const PATTERN_SHARE: f64 = 0.006_034_223_109_513_66;
    const BOTH_SHARE: f64 = 0.187_944_051_041_227_38;
    const MIXED_SHARE: f64 = 0.018_624_510_960_747_3;

    #[test]
    fn world_thresholds_keep_middle_classes_wide() {
        let t = world_thresholds(&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0], 64);
        assert!(t[1] >= t[0] + 64, "{t:?}");
        assert!(t[0] >= 1 && t[2] == 0);
        let t = world_thresholds(&[0.5, 0.5], 64);
        assert!((100..160).contains(&t[0]), "the median of the field is mid-range: {t:?}");
    }

    /// Two classes: the threshold is the first field value at which the
    /// share of vertices below or at it reaches class 0's share, so class 0
    /// (values below the threshold) holds less than its share, and with the
    /// threshold's own vertices at least its share. Shares that end exactly
    /// on a value's edge too.
    #[test]
    fn world_thresholds_split_the_field_at_the_share() {
        let hist = world_field_histogram();
        let total = hist.iter().sum::<u64>() as f64;
        let below = |t: usize| hist[..t].iter().sum::<u64>() as f64 / total;
        let exact = (96..160).filter(|&v| hist[v] > 0).map(|v| below(v + 1));
        for share in [0.25, 0.5, 0.75].into_iter().chain(exact.take(4)) {
            let t = world_thresholds(&[share, 1.0 - share], 0)[0] as usize;
            assert!(below(t) < share && share <= below(t + 1), "share {share}: threshold {t}");
        }
        // Three classes whose middle one is already wider than the band:
        // the thresholds stay where the shares put them.
        let t = world_thresholds(&[0.2, 0.6, 0.2], 64).map(|t| t as usize);
        assert!(t[1] >= t[0] + 64, "{t:?}");
        for (k, acc) in [(0, 0.2), (1, 0.8)] {
            assert!(below(t[k]) < acc && acc <= below(t[k] + 1), "{t:?}");
        }
    }
}
