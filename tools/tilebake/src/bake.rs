//! `bake`: heightmap + texture pairs into one tile bank.
//!
//! Steps: load and check every pair (for the paper placement, count the
//! distinct tiles too, so too many are refused before the slow part);
//! quantise all texture pixels together to one palette of at most 52 GBA
//! colours (the textures' own colours if there are so few, else NeuQuant,
//! `color_quant` crate, trained on at most [`MAX_TRAINING_PIXELS`]); then,
//! by placement:
//! - **corners** (the default): build a matched corner tile set from the
//!   pairs ([`crate::corners`]): tiles that join into one landscape;
//! - **paper**: cut each pair into square tiles, row by row, pair by pair
//!   (optionally fading their edges, `seam_band`), and store each distinct
//!   tile once, in order of first appearance.
//!
//! Palette colours no tile uses are dropped at the end. Heights keep their
//! precision (16-bit heightmaps too) until they are rounded to 8 bits in the
//! tiles; a colour heightmap is read as its luminance, with a note. The
//! height scale is chosen from the tiles' slopes unless given. The same
//! inputs give byte-identical banks.

use crate::corners;
use crate::error::{Error, Result};
use crate::io;
use bank::MAX_COLOURS;
use image::{ImageBuffer, Luma, RgbImage};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One heightmap and its texture (same size).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Pair {
    pub height: PathBuf,
    pub texture: PathBuf,
}

/// How worlds place the tiles of the bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum PlacementKind {
    /// Corner tiles, matched borders: one continuous landscape.
    #[default]
    Corners,
    /// The paper's: tiles as cut, placed by the random table alone.
    Paper,
}

impl std::str::FromStr for PlacementKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "corners" => Ok(PlacementKind::Corners),
            "paper" => Ok(PlacementKind::Paper),
            _ => Err(format!("`{s}` is not a placement: use corners or paper")),
        }
    }
}

/// Which orientations of the source corner placement may cut tiles from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Orientations {
    /// Upright if the texture has baked lighting, else all.
    #[default]
    Auto,
    /// The eight turns and mirrors (more variety from a small source).
    All,
    /// As the source is (where a configuration allows it).
    Upright,
}

impl std::str::FromStr for Orientations {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "auto" => Ok(Orientations::Auto),
            "all" => Ok(Orientations::All),
            "upright" => Ok(Orientations::Upright),
            _ => Err(format!("`{s}` is not an orientation choice: use auto, all or upright")),
        }
    }
}

/// The set's vertical scale.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum HeightScale {
    /// Chosen from the tiles' slopes (see [`auto_height_scale`]).
    #[default]
    Auto,
    /// World pixels per height unit.
    Fixed(f64),
}

impl std::str::FromStr for HeightScale {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        if s == "auto" {
            return Ok(HeightScale::Auto);
        }
        s.parse::<f64>()
            .map(HeightScale::Fixed)
            .map_err(|_| format!("`{s}` is not a height scale: use auto or a number of world pixels per height unit"))
    }
}

impl<'de> Deserialize<'de> for HeightScale {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(v) => Ok(HeightScale::Fixed(v)),
            Raw::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// What to bake.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Tile side in texels: 8, 16, 32, 64 or 128.
    pub tile_size: u32,
    /// Palette colours, 2..=52.
    #[serde(default = "default_colours")]
    pub colours: u32,
    /// The pairs, in order.
    #[serde(rename = "pair", default)]
    pub pairs: Vec<Pair>,
    /// How worlds place the tiles.
    #[serde(default)]
    pub placement: PlacementKind,
    /// Corner placement: corner classes, 2 or 3.
    #[serde(default = "default_classes")]
    pub classes: u32,
    /// Corner placement: orientations of the source tiles may be cut from.
    #[serde(default)]
    pub orientations: Orientations,
    /// Paper placement only: the outer `seam_band` texels of every tile fade
    /// to a common height and colour (0: tiles as cut).
    #[serde(default)]
    pub seam_band: u32,
    /// World pixels per height unit, or auto.
    #[serde(default)]
    pub height_scale: HeightScale,
}

fn default_colours() -> u32 {
    MAX_COLOURS as u32
}

fn default_classes() -> u32 {
    3
}

/// Mean slope that [`HeightScale::Auto`] gives a set: world pixels of rise per
/// world pixel across, averaged over every pair of neighbouring texels (as
/// `tilebake inspect` prints it). Real game maps at their own renderer's
/// scale measure 0.25 to 0.9 (README: height scale); 0.45 keeps hills
/// rounded at our flight altitudes.
pub const AUTO_SLOPE: f64 = 0.45;

/// World pixels per texel side (`voxel` draws a texel as 4 x 4 world pixels).
const TEXEL_PX: f64 = 4.0;

/// The height scale (8.8 fixed point) that gives `tiles` a mean slope of
/// [`AUTO_SLOPE`]; one world pixel per unit for flat sets.
pub fn auto_height_scale(tiles: &[Vec<u16>], tile: usize) -> u16 {
    let (mut sum, mut n) = (0f64, 0f64);
    for t in tiles {
        for y in 0..tile {
            for x in 0..tile {
                let h = (t[y * tile + x] & 0xFF) as f64;
                if x + 1 < tile {
                    sum += (h - (t[y * tile + x + 1] & 0xFF) as f64).abs();
                    n += 1.0;
                }
                if y + 1 < tile {
                    sum += (h - (t[(y + 1) * tile + x] & 0xFF) as f64).abs();
                    n += 1.0;
                }
            }
        }
    }
    let mean = sum / n.max(1.0);
    if mean < 1e-3 {
        return bank::HEIGHT_SCALE_ONE;
    }
    let scale = AUTO_SLOPE * TEXEL_PX / mean;
    ((scale * 256.0).round() as u16).clamp(*bank::HEIGHT_SCALES.start(), *bank::HEIGHT_SCALES.end())
}

impl Options {
    /// Reads a manifest (the sidecar TOML file; paths in it are relative to
    /// it) and checks its values: errors name the manifest and the key.
    pub fn from_manifest(path: &Path) -> Result<Options> {
        let text = String::from_utf8(io::read(path)?)
            .map_err(|_| Error::Manifest { path: path.to_path_buf(), detail: "not UTF-8 text".into() })?;
        let mut options: Options = toml::from_str(&text)
            .map_err(|e| Error::Manifest { path: path.to_path_buf(), detail: e.message().to_string() })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        for p in &mut options.pairs {
            p.height = dir.join(&p.height);
            p.texture = dir.join(&p.texture);
        }
        options.check_values().map_err(|e| match e {
            Error::Range { key, value, problem, .. } => {
                Error::Range { manifest: Some(path.to_path_buf()), key, value, problem }
            }
            other => other,
        })?;
        if options.pairs.is_empty() {
            return Err(Error::Manifest {
                path: path.to_path_buf(),
                detail: "no [[pair]] entries: add one with height = \"...\" and texture = \"...\"".into(),
            });
        }
        Ok(options)
    }

    /// Every numeric option in its range (see [`Error::Range`]).
    pub fn check_values(&self) -> Result<()> {
        if !bank::TILE_SIZES.iter().any(|&t| t as u32 == self.tile_size) {
            return Err(Error::range("tile_size", self.tile_size, "is not supported: use 8, 16, 32, 64 or 128"));
        }
        if !(2..=MAX_COLOURS as u32).contains(&self.colours) {
            return Err(Error::range(
                "colours",
                self.colours,
                format!("is outside 2..={MAX_COLOURS} (the ROM keeps 4 fog shades of each colour)"),
            ));
        }
        if !(2..=3).contains(&self.classes) {
            return Err(Error::range("classes", self.classes, "is outside 2..=3"));
        }
        if let HeightScale::Fixed(v) = self.height_scale {
            let (lo, hi) = (*bank::HEIGHT_SCALES.start() as f64 / 256.0, *bank::HEIGHT_SCALES.end() as f64 / 256.0);
            if !(lo..=hi).contains(&v) {
                return Err(Error::range(
                    "height_scale",
                    v,
                    format!("is outside {lo}..={hi} world pixels per unit (or auto)"),
                ));
            }
        }
        let half = self.tile_size / 2;
        if self.seam_band > half {
            return Err(Error::range(
                "seam_band",
                self.seam_band,
                format!("is outside 0..={half} (at most half the tile size {})", self.tile_size),
            ));
        }
        if self.seam_band > 0 && self.placement == PlacementKind::Corners {
            return Err(Error::range(
                "seam_band",
                self.seam_band,
                "fades tiles for the paper's placement only: add --placement paper",
            ));
        }
        Ok(())
    }

    fn check(&self) -> Result<()> {
        self.check_values()?;
        if self.pairs.is_empty() {
            return Err(Error::NoInput);
        }
        Ok(())
    }

    /// The inputs, for messages: `h.png + t.png, h2.png + t2.png`.
    fn inputs(&self) -> String {
        self.pairs
            .iter()
            .map(|p| format!("{} + {}", p.height.display(), p.texture.display()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Progress callbacks: (stage, done, total).
pub type Progress<'a> = &'a mut dyn FnMut(&str, u64, u64);

/// A baked bank and what went into it.
#[derive(Debug, Clone)]
pub struct Baked {
    /// The bank's bytes.
    pub bytes: Vec<u8>,
    /// Tiles cut from the images.
    pub tiles_cut: usize,
    /// Distinct tiles stored.
    pub tiles_stored: usize,
    /// Palette colours.
    pub colours: usize,
    /// What the user should know about the result, one line each.
    pub notes: Vec<String>,
}

struct Loaded {
    heights: ImageBuffer<Luma<u16>, Vec<u16>>,
    texture: RgbImage,
}

/// Loads and checks one pair; a note when the heightmap is not plain grey.
fn load_pair(pair: &Pair, tile: u32, notes: &mut Vec<String>) -> Result<Loaded> {
    let height = io::load_png(&pair.height)?;
    let texture = io::load_png(&pair.texture)?;
    let (hs, ts) = ((height.width(), height.height()), (texture.width(), texture.height()));
    if hs != ts {
        return Err(Error::SizeMismatch {
            height: pair.height.clone(),
            hsize: hs,
            texture: pair.texture.clone(),
            tsize: ts,
        });
    }
    if hs.0 % tile != 0 || hs.1 % tile != 0 {
        return Err(Error::NotMultiple { path: pair.height.clone(), size: hs, tile });
    }
    let colour = height.color();
    let name = pair.height.display();
    if colour.has_color() {
        let alpha = if colour.has_alpha() { ", alpha ignored" } else { "" };
        notes.push(format!(
            "{name} is a colour image; heights are its luminance (0.2126 R + 0.7152 G + 0.0722 B{alpha})"
        ));
    } else if colour.has_alpha() {
        notes.push(format!("{name} has an alpha channel; heights are its grey level, alpha ignored"));
    }
    // Alpha is ignored: a texture's colour is its RGB.
    Ok(Loaded { heights: height.into_luma16(), texture: texture.into_rgb8() })
}

/// 16-bit height to 8 bits, rounded.
fn height8(h: u16) -> u8 {
    ((h as u32 * 255 + 32767) / 65535) as u8
}

/// Most texture pixels the colour quantiser trains on. Larger textures train
/// on a fixed pseudo-random sample of this many pixels: training time grows
/// with the pixels trained on (6.4 s for every pixel of a generated 4096^2
/// texture, 0.05 s for the sample), and the sample's palette is as good (RMS
/// error per channel over all that texture's pixels 2.0, against 2.6).
/// 512^2 textures, like the default set's, train on every pixel.
pub const MAX_TRAINING_PIXELS: usize = 1 << 18;

/// Bakes `options` into a bank.
pub fn bake(options: &Options, progress: Progress<'_>) -> Result<Baked> {
    options.check()?;
    let tile = options.tile_size;
    let mut notes = Vec::new();
    let mut loaded = Vec::new();
    for (i, pair) in options.pairs.iter().enumerate() {
        progress("loading", i as u64, options.pairs.len() as u64);
        loaded.push(load_pair(pair, tile, &mut notes)?);
    }
    progress("loading", options.pairs.len() as u64, options.pairs.len() as u64);
    if options.placement == PlacementKind::Paper {
        // Refuse too many tiles before the slow part: tiles whose heights
        // differ stay different whatever the palette.
        progress("counting tiles", 0, 1);
        let count = distinct_height_patterns(options, &loaded);
        if count > bank::MAX_TILES {
            return Err(too_many_tiles(options, &loaded, format!("at least {count}")));
        }
    }
    let (mut palette, colours) = quantise(&loaded, options.colours as usize, progress);

    let (mut tiles, placement, tiles_cut) = match options.placement {
        PlacementKind::Paper => {
            let (tiles, cut) = cut_tiles(options, &loaded, &colours, progress)?;
            (tiles, bank::Placement::Paper, cut)
        }
        PlacementKind::Corners => {
            let n = loaded.len() as u64;
            let mut sources = Vec::new();
            for (i, (l, c)) in loaded.into_iter().zip(colours).enumerate() {
                progress("corner sources", i as u64, n + 1);
                let (w, h) = (l.heights.width() as i32, l.heights.height() as i32);
                let heights = l.heights.pixels().map(|p| p[0] as f32 * 255.0 / 65535.0).collect();
                drop(l);
                sources.push(corners::source::Source::new(w, h, heights, c, tile as i32));
            }
            progress("corner sources", n, n + 1);
            let rgb: Vec<[u8; 3]> = palette.iter().map(|&c| crate::preview::rgb(c).0).collect();
            let upright = match options.orientations {
                Orientations::Auto => corners::lit(&sources, &rgb),
                Orientations::All => false,
                Orientations::Upright => true,
            };
            let setup = corners::Setup { tile: tile as i32, classes: options.classes as u8, upright };
            let built = corners::build(&sources, &rgb, setup, progress)
                .map_err(|detail| Error::Corners { inputs: options.inputs(), detail })?;
            let n = built.tiles.len();
            notes.extend(built.notes);
            if upright {
                notes.push("the texture has baked lighting: tiles keep the source's orientation".into());
            }
            (built.tiles, bank::Placement::Corners(built.corners), n)
        }
    };
    drop_unused_colours(&mut palette, &mut tiles);
    let height_scale = match options.height_scale {
        HeightScale::Auto => auto_height_scale(&tiles, tile as usize),
        HeightScale::Fixed(v) => (v * 256.0).round() as u16,
    };
    let flat: Vec<u16> = tiles.iter().flatten().copied().collect();
    let contents = bank::Contents { tile_size: tile as u16, palette: &palette, tiles: &flat, placement, height_scale };
    let bytes = bank::encode(&contents).map_err(|e| Error::Bank { path: PathBuf::from("<baked bank>"), source: e })?;
    Ok(Baked { bytes, tiles_cut, tiles_stored: tiles.len(), colours: palette.len(), notes })
}

/// One palette of at most `max` BGR555 colours for every texture, and each
/// texture's pixels as palette indices.
///
/// Textures with at most `max` distinct BGR555 colours keep exactly those
/// (in order of first appearance). Others go through NeuQuant (`color_quant`),
/// trained on every pixel up to [`MAX_TRAINING_PIXELS`] and on a fixed
/// pseudo-random sample of that many beyond; equal network colours are merged.
fn quantise(loaded: &[Loaded], max: usize, progress: Progress<'_>) -> (Vec<u16>, Vec<Vec<u8>>) {
    progress("palette", 0, 1);
    let total: usize = loaded.iter().map(|l| l.texture.pixels().len()).sum();
    if let Some(exact) = exact_palette(loaded, max) {
        progress("palette", 1, 1);
        return exact;
    }
    let all = || loaded.iter().flat_map(|l| l.texture.pixels());
    let mut rgba = Vec::with_capacity(total.min(MAX_TRAINING_PIXELS) * 4);
    if total <= MAX_TRAINING_PIXELS {
        for p in all() {
            rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
        }
    } else {
        // SplitMix64 from a fixed seed: the same sample on every run.
        let mut state: u64 = 0x7469_6C65_6261_6B65;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        for _ in 0..MAX_TRAINING_PIXELS {
            let mut i = (next() % total as u64) as usize;
            let l = loaded
                .iter()
                .find(|l| {
                    let n = l.texture.pixels().len();
                    if i < n {
                        true
                    } else {
                        i -= n;
                        false
                    }
                })
                .expect("index below the total");
            let w = l.texture.width() as usize;
            let p = l.texture.get_pixel((i % w) as u32, (i / w) as u32);
            rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
        }
    }
    let quant = color_quant::NeuQuant::new(1, max, &rgba);
    drop(rgba);
    progress("palette", 1, 1);
    // The network's colours in BGR555; equal ones merged, first occurrence first.
    let mut palette: Vec<u16> = Vec::new();
    let mut remap = Vec::new();
    for c in quant.color_map_rgb().chunks_exact(3) {
        let v = bank::colour::from_rgb888([c[0], c[1], c[2]]);
        let at = palette.iter().position(|p| *p == v).unwrap_or_else(|| {
            palette.push(v);
            palette.len() - 1
        });
        remap.push(at as u8);
    }
    // Each pixel to its nearest network colour, memoised by RGB (the search
    // is the same for the same colour; 8192^2 textures have far fewer colours).
    const UNKNOWN: u8 = u8::MAX;
    let mut memo = vec![UNKNOWN; 1 << 24];
    let mut done = 0u64;
    let colours = loaded
        .iter()
        .map(|l| {
            let mut out = Vec::with_capacity(l.texture.pixels().len());
            for row in l.texture.rows() {
                for p in row {
                    let key = (p[0] as usize) << 16 | (p[1] as usize) << 8 | p[2] as usize;
                    if memo[key] == UNKNOWN {
                        memo[key] = remap[quant.index_of(&[p[0], p[1], p[2], 255])];
                    }
                    out.push(memo[key]);
                }
                done += l.texture.width() as u64;
                if done % (1 << 20) < l.texture.width() as u64 {
                    progress("mapping colours", done, total as u64);
                }
            }
            out
        })
        .collect();
    progress("mapping colours", total as u64, total as u64);
    (palette, colours)
}

/// The textures' own colours when there are at most `max` (BGR555).
fn exact_palette(loaded: &[Loaded], max: usize) -> Option<(Vec<u16>, Vec<Vec<u8>>)> {
    const NONE: u8 = u8::MAX;
    let mut index = vec![NONE; 1 << 15];
    let mut palette = Vec::new();
    let mut colours = Vec::with_capacity(loaded.len());
    for l in loaded {
        let mut out = Vec::with_capacity(l.texture.pixels().len());
        for p in l.texture.pixels() {
            let c = bank::colour::from_rgb888([p[0], p[1], p[2]]);
            if index[c as usize] == NONE {
                if palette.len() == max {
                    return None;
                }
                index[c as usize] = palette.len() as u8;
                palette.push(c);
            }
            out.push(index[c as usize]);
        }
        colours.push(out);
    }
    Some((palette, colours))
}

/// Drops palette colours no texel uses (keeping the others' order) and
/// renumbers the texels.
fn drop_unused_colours(palette: &mut Vec<u16>, tiles: &mut [Vec<u16>]) {
    let mut used = [false; 256];
    for t in tiles.iter().flatten() {
        used[(*t >> 8) as usize] = true;
    }
    let mut new_index = [0u8; 256];
    let mut kept = Vec::new();
    for (i, &c) in palette.iter().enumerate() {
        if used[i] {
            new_index[i] = kept.len() as u8;
            kept.push(c);
        }
    }
    if kept.len() == palette.len() {
        return;
    }
    for t in tiles.iter_mut().flatten() {
        *t = bank::texel((*t & 0xFF) as u8, new_index[(*t >> 8) as usize]);
    }
    *palette = kept;
}

/// The paper placement's tile `(tx, ty)` of `l`, as texels of `colour(x, y)`.
fn tile_at(l: &Loaded, tile: u32, tx: u32, ty: u32, colour: impl Fn(u32, u32) -> u8) -> Vec<u16> {
    let mut t = Vec::with_capacity((tile * tile) as usize);
    for y in ty * tile..(ty + 1) * tile {
        for x in tx * tile..(tx + 1) * tile {
            t.push(bank::texel(height8(l.heights.get_pixel(x, y)[0]), colour(x, y)));
        }
    }
    t
}

/// How many tiles of the paper placement differ in their heights (after the
/// edge fade): a lower bound on the distinct tiles, known before quantising.
fn distinct_height_patterns(options: &Options, loaded: &[Loaded]) -> usize {
    let tile = options.tile_size;
    let band = options.seam_band as usize;
    let level = if band > 0 {
        crate::seams::median_height(loaded.iter().flat_map(|l| l.heights.pixels().map(|p| height8(p[0]))))
    } else {
        0
    };
    let mut seen: std::collections::HashSet<Vec<u16>> = std::collections::HashSet::new();
    for l in loaded {
        for ty in 0..l.heights.height() / tile {
            for tx in 0..l.heights.width() / tile {
                let mut t = tile_at(l, tile, tx, ty, |_, _| 0);
                if band > 0 {
                    crate::seams::fade_tile(&mut t, tile as usize, band, level, 0);
                }
                seen.insert(t);
            }
        }
    }
    seen.len()
}

/// The refusal of too many distinct tiles, with advice that can work: a
/// larger tile size the images divide into (one that surely fits first),
/// else smaller images or the corner placement.
fn too_many_tiles(options: &Options, loaded: &[Loaded], count: String) -> Error {
    let tile = options.tile_size;
    let larger: Vec<(u32, u64)> = bank::TILE_SIZES
        .iter()
        .map(|&t| t as u32)
        .filter(|&t| t > tile)
        .filter(|&t| loaded.iter().all(|l| l.heights.width() % t == 0 && l.heights.height() % t == 0))
        .map(|t| (t, loaded.iter().map(|l| (l.heights.width() / t) as u64 * (l.heights.height() / t) as u64).sum()))
        .collect();
    let side = 16 * tile;
    let corners = "or the corner placement (leave out --placement paper), which builds one set of at most 256 \
                   tiles from images of any size";
    let advice = if let Some((t, n)) = larger.iter().find(|(_, n)| *n <= bank::MAX_TILES as u64) {
        format!("try --tile-size {t} (the images make {n} tiles of {t} px)")
    } else if let Some((t, _)) = larger.first() {
        format!("try --tile-size {t} (fewer, larger tiles), smaller images, {corners}")
    } else {
        format!("use smaller or fewer images (256 tiles of {tile} px cover {side}x{side} px), {corners}")
    };
    Error::TooManyTiles { inputs: options.inputs(), count, tile, advice }
}

/// The paper's tiles: each pair cut into squares, optionally faded at the
/// edges, identical ones stored once. Returns the tiles and how many were cut.
fn cut_tiles(
    options: &Options,
    loaded: &[Loaded],
    colours: &[Vec<u8>],
    progress: Progress<'_>,
) -> Result<(Vec<Vec<u16>>, usize)> {
    let tile = options.tile_size;
    let total: u64 = loaded.iter().map(|l| (l.texture.width() / tile * l.texture.height() / tile) as u64).sum();
    let mut cut: Vec<Vec<u16>> = Vec::new();
    for (l, colours) in loaded.iter().zip(colours) {
        let w = l.texture.width();
        for ty in 0..l.texture.height() / tile {
            for tx in 0..w / tile {
                cut.push(tile_at(l, tile, tx, ty, |x, y| colours[(y * w + x) as usize]));
                if cut.len().is_multiple_of(64) {
                    progress("cutting tiles", cut.len() as u64, total);
                }
            }
        }
    }
    progress("cutting tiles", total, total);
    if options.seam_band > 0 {
        crate::seams::fade_edges(&mut cut, tile as usize, options.seam_band as usize);
    }
    let mut seen: HashMap<&[u16], ()> = HashMap::new();
    let mut tiles: Vec<Vec<u16>> = Vec::new();
    for t in &cut {
        if seen.insert(t, ()).is_none() {
            if tiles.len() >= bank::MAX_TILES {
                let distinct = cut.iter().map(|t| t.as_slice()).collect::<std::collections::HashSet<_>>().len();
                return Err(too_many_tiles(options, loaded, distinct.to_string()));
            }
            tiles.push(t.clone());
        }
    }
    Ok((tiles, cut.len()))
}
