//! `bake`: heightmap + texture pairs into one tile bank.
//!
//! Steps: load and check every pair; quantise all texture pixels together to
//! one palette (NeuQuant, `color_quant` crate) of at most 52 GBA colours;
//! then, by placement:
//! - **corners** (the default): build a matched corner tile set from the
//!   pairs ([`crate::corners`]): tiles that join into one landscape;
//! - **paper**: cut each pair into square tiles, row by row, pair by pair
//!   (optionally fading their edges, `seam_band`), and store each distinct
//!   tile once, in order of first appearance.
//!
//! Heights keep their precision (16-bit heightmaps too) until they are
//! rounded to 8 bits in the tiles. The height scale is chosen from the
//! tiles' slopes unless given. The same inputs give byte-identical banks.

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
    /// Reads a manifest (the sidecar TOML file; paths in it are relative to it).
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
        Ok(options)
    }

    fn check(&self) -> Result<()> {
        if !bank::TILE_SIZES.contains(&(self.tile_size as u16)) || self.tile_size > 128 {
            return Err(Error::TileSize(self.tile_size));
        }
        if !(2..=MAX_COLOURS as u32).contains(&self.colours) {
            return Err(Error::Colours(self.colours));
        }
        if self.seam_band * 2 > self.tile_size {
            return Err(Error::SeamBand { band: self.seam_band, tile: self.tile_size });
        }
        if self.seam_band > 0 && self.placement == PlacementKind::Corners {
            return Err(Error::Option(format!(
                "--seam-band {} fades tiles for the paper's placement: add --placement paper",
                self.seam_band
            )));
        }
        if !(2..=3).contains(&self.classes) {
            return Err(Error::Option(format!("--classes {} is outside 2..=3", self.classes)));
        }
        if let HeightScale::Fixed(v) = self.height_scale {
            let (lo, hi) = (*bank::HEIGHT_SCALES.start() as f64 / 256.0, *bank::HEIGHT_SCALES.end() as f64 / 256.0);
            if !(lo..=hi).contains(&v) {
                return Err(Error::Option(format!("--height-scale {v} is outside {lo}..={hi} world pixels per unit")));
            }
        }
        if self.pairs.is_empty() {
            return Err(Error::NoInput);
        }
        Ok(())
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

fn load_pair(pair: &Pair, tile: u32) -> Result<Loaded> {
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
    // Alpha is ignored: a texture's colour is its RGB.
    Ok(Loaded { heights: height.to_luma16(), texture: texture.to_rgb8() })
}

/// 16-bit height to 8 bits, rounded.
fn height8(h: u16) -> u8 {
    ((h as u32 * 255 + 32767) / 65535) as u8
}

/// 8-bit channel to 5 bits, rounded.
fn c5(c: u8) -> u16 {
    ((c as u16 * 31 + 127) / 255).min(31)
}

/// RGB to the GBA's BGR555.
pub fn bgr555(r: u8, g: u8, b: u8) -> u16 {
    c5(r) | c5(g) << 5 | c5(b) << 10
}

/// Bakes `options` into a bank.
pub fn bake(options: &Options, progress: Progress<'_>) -> Result<Baked> {
    options.check()?;
    let tile = options.tile_size;
    let mut loaded = Vec::new();
    for (i, pair) in options.pairs.iter().enumerate() {
        progress("loading", i as u64, options.pairs.len() as u64);
        loaded.push(load_pair(pair, tile)?);
    }
    progress("quantising", 0, 1);
    let mut rgba = Vec::new();
    for l in &loaded {
        for p in l.texture.pixels() {
            rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
        }
    }
    // Sample factor 1: every pixel trains the network (slowest, best; a 1024^2
    // texture still takes well under a second).
    let quant = color_quant::NeuQuant::new(1, options.colours as usize, &rgba);
    // The network's colours in BGR555; equal ones merged, first occurrence first.
    let mut palette: Vec<u16> = Vec::new();
    let mut remap = Vec::new();
    for c in quant.color_map_rgb().chunks_exact(3) {
        let v = bgr555(c[0], c[1], c[2]);
        let at = palette.iter().position(|p| *p == v).unwrap_or_else(|| {
            palette.push(v);
            palette.len() - 1
        });
        remap.push(at as u8);
    }
    progress("quantising", 1, 1);
    let colours: Vec<Vec<u8>> = loaded
        .iter()
        .map(|l| l.texture.pixels().map(|p| remap[quant.index_of(&[p[0], p[1], p[2], 255])]).collect())
        .collect();

    let mut notes = Vec::new();
    let (tiles, placement, tiles_cut) = match options.placement {
        PlacementKind::Paper => {
            let (tiles, cut) = cut_tiles(options, &loaded, &colours, progress)?;
            (tiles, bank::Placement::Paper, cut)
        }
        PlacementKind::Corners => {
            let sources: Vec<corners::source::Source> = loaded
                .iter()
                .zip(colours)
                .map(|(l, c)| {
                    let h = l.heights.pixels().map(|p| p[0] as f32 * 255.0 / 65535.0).collect();
                    corners::source::Source::new(l.heights.width() as i32, l.heights.height() as i32, h, c, tile as i32)
                })
                .collect();
            let rgb: Vec<[u8; 3]> = palette.iter().map(|&c| crate::preview::rgb(c).0).collect();
            let upright = match options.orientations {
                Orientations::Auto => corners::lit(&sources, &rgb),
                Orientations::All => false,
                Orientations::Upright => true,
            };
            let setup = corners::Setup { tile: tile as i32, classes: options.classes as u8, upright };
            let inputs = options
                .pairs
                .iter()
                .map(|p| format!("{} + {}", p.height.display(), p.texture.display()))
                .collect::<Vec<_>>()
                .join(", ");
            let built =
                corners::build(&sources, &rgb, setup, progress).map_err(|detail| Error::Corners { inputs, detail })?;
            let n = built.tiles.len();
            notes.extend(built.notes);
            if upright {
                notes.push("the texture has baked lighting: tiles keep the source's orientation".into());
            }
            (built.tiles, bank::Placement::Corners(built.corners), n)
        }
    };
    let height_scale = match options.height_scale {
        HeightScale::Auto => auto_height_scale(&tiles, tile as usize),
        HeightScale::Fixed(v) => (v * 256.0).round() as u16,
    };
    let flat: Vec<u16> = tiles.iter().flatten().copied().collect();
    let contents = bank::Contents { tile_size: tile as u16, palette: &palette, tiles: &flat, placement, height_scale };
    let bytes = bank::encode(&contents).map_err(|e| Error::Bank { path: PathBuf::from("<baked bank>"), source: e })?;
    Ok(Baked { bytes, tiles_cut, tiles_stored: tiles.len(), colours: palette.len(), notes })
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
                let mut t = Vec::with_capacity((tile * tile) as usize);
                for y in ty * tile..(ty + 1) * tile {
                    for x in tx * tile..(tx + 1) * tile {
                        let h = height8(l.heights.get_pixel(x, y)[0]);
                        t.push(bank::texel(h, colours[(y * w + x) as usize]));
                    }
                }
                cut.push(t);
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
                let suggest = (tile * 2).min(128);
                return Err(Error::TooManyTiles { count: distinct, tile, suggest });
            }
            tiles.push(t.clone());
        }
    }
    Ok((tiles, cut.len()))
}
