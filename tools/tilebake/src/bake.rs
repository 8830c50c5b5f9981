//! `bake`: heightmap + texture pairs into one tile bank.
//!
//! Steps: load and check every pair; quantise all texture pixels together to
//! one palette (NeuQuant, `color_quant` crate) of at most 52 GBA colours;
//! reduce heights to 8 bits (16-bit heightmaps keep their precision until
//! this rounding); cut each pair into square tiles, row by row, pair by pair;
//! store each distinct tile once, in order of first appearance. The same
//! inputs give byte-identical banks.

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

/// What to bake.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Tile side in pixels: 8, 16, 32, 64 or 128.
    pub tile_size: u32,
    /// Palette colours, 2..=52.
    #[serde(default = "default_colours")]
    pub colours: u32,
    /// The pairs, in order.
    #[serde(rename = "pair", default)]
    pub pairs: Vec<Pair>,
    /// Seams: the outer `seam_band` texels of every tile fade to a common
    /// height and colour, so tiles join without cliffs or colour steps
    /// whatever their neighbours (0: off, tiles as cut, as in the paper).
    #[serde(default)]
    pub seam_band: u32,
}

fn default_colours() -> u32 {
    MAX_COLOURS as u32
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

    let total: u64 = loaded.iter().map(|l| (l.texture.width() / tile * l.texture.height() / tile) as u64).sum();
    let mut cut: Vec<Vec<u16>> = Vec::new();
    for l in &loaded {
        let colours = l.texture.pixels().map(|p| remap[quant.index_of(&[p[0], p[1], p[2], 255])]).collect::<Vec<_>>();
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
    let mut seen: HashMap<&[u16], usize> = HashMap::new();
    let mut tiles: Vec<u16> = Vec::new();
    let mut distinct = 0usize;
    for t in &cut {
        if !seen.contains_key(t.as_slice()) {
            seen.insert(t, distinct);
            distinct += 1;
            if distinct <= bank::MAX_TILES {
                tiles.extend_from_slice(t);
            }
        }
    }
    if distinct > bank::MAX_TILES {
        let suggest = (tile * 2).min(128);
        return Err(Error::TooManyTiles { count: distinct, tile, suggest });
    }
    let bytes = bank::encode(tile as u16, &palette, &tiles)
        .map_err(|e| Error::Bank { path: PathBuf::from("<baked bank>"), source: e })?;
    Ok(Baked { bytes, tiles_cut: cut.len(), tiles_stored: distinct, colours: palette.len() })
}
