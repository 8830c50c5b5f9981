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
//! tiles; a colour heightmap is read as its luminance, with a note; heights
//! that span only a sliver of their range are stretched to all of it when
//! the height scale is `auto` ([`MIN_LEVELS`]), with a note. The
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
#[serde(deny_unknown_fields)]
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
        /// A number, or text that parses as a height scale.
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = HeightScale;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"auto\" or a number of world pixels per height unit")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> std::result::Result<HeightScale, E> {
                Ok(HeightScale::Fixed(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> std::result::Result<HeightScale, E> {
                Ok(HeightScale::Fixed(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> std::result::Result<HeightScale, E> {
                Ok(HeightScale::Fixed(v as f64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<HeightScale, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Most characters of a manifest's text an error quotes.
const QUOTE_CHARS: usize = 60;

/// A TOML error as one line: where (line from 1) and what. A value's error
/// quotes its key and value, so the key is named (`line 11: placement = 5:
/// use corners or paper`; a value over several lines on one, cut short past
/// [`QUOTE_CHARS`]); others give the column.
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let mut what = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(": ");
    // The types of `Options`, in a user's words.
    what = what.replace("expected u32", "expected a whole number");
    // A message quoting a long value (an unknown variant, say) cut short too;
    // but an unknown key's whole list of keys, which is short.
    if let Some(words) = unknown_key(&what) {
        what = words;
    } else {
        what = cut_short(&what, 2 * QUOTE_CHARS);
    }
    let Some(span) = e.span() else {
        return what;
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..start].matches('\n').count() + 1;
    // From the line's start to the value's end, on one line (a value may
    // run over several: an array, a multi-line string), cut short if long.
    let end = span.end.clamp(start, text.len());
    let end = end.max(line_start + text[line_start..].find('\n').unwrap_or(text.len() - line_start));
    let words: Vec<&str> = text[line_start..end].split_whitespace().collect();
    let quoted = cut_short(&words.join(" "), QUOTE_CHARS);
    // A value's error: its span starts past the line's `=`.
    match text[line_start..start].split_once('=') {
        Some((key, _)) if !key.trim().is_empty() => {
            // An enum given no string: its own parser says what it takes.
            if what == "wanted string or table" {
                let hint = match key.trim().trim_matches(['"', '\'']) {
                    "placement" => "".parse::<PlacementKind>().err(),
                    "orientations" => "".parse::<Orientations>().err(),
                    _ => None,
                };
                if let Some(h) = hint.as_deref().and_then(|h| h.split_once(": ")) {
                    what = h.1.to_string();
                }
            }
            format!("line {line}: {quoted}: {what}")
        }
        _ => {
            let column = text[line_start..start].chars().count() + 1;
            format!("line {line}, column {column}: {what}")
        }
    }
}

/// `text` whole if at most `most` characters, else its first `most - 3`
/// and `...`.
fn cut_short(text: &str, most: usize) -> String {
    if text.chars().count() > most { text.chars().take(most - 3).collect::<String>() + "..." } else { text.to_string() }
}

/// serde's ``unknown field `tile_sise`, expected one of `tile_size`, ...``
/// in a user's words, the nearest key first: ``unknown key `tile_sise`: did
/// you mean `tile_size`? (the keys: tile_size, colours, ...)``; `None` for
/// any other message.
fn unknown_key(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    // The key may hold a backtick itself: it ends where serde's words begin.
    let (key, list) = ["`, expected one of ", "`, expected ", "`, there are no fields"]
        .iter()
        .find_map(|words| rest.rsplit_once(words))?;
    let keys: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    let nearest = keys
        .iter()
        .map(|k| (strsim::damerau_levenshtein(key, k), *k))
        .min()
        .filter(|&(d, k)| d <= 2.max(k.len() / 3))
        .map(|(_, k)| format!(": did you mean `{k}`?"));
    // A long key cut short, as any quoted text (the list of keys is short).
    let key = cut_short(key, QUOTE_CHARS);
    Some(match keys.len() {
        0 => format!("unknown key `{key}`: none is allowed here"),
        _ => format!("unknown key `{key}`{} (the keys: {})", nearest.unwrap_or_default(), keys.join(", ")),
    })
}

/// What to bake.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Tile side in texels: 8, 16, 32, 64 or 128 (32 if not given, as on
    /// the command line).
    #[serde(default = "default_tile_size")]
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

impl Options {
    /// The bake of `pairs` with every other option at its default (the
    /// defaults of `tilebake bake` and of a manifest).
    pub fn new(pairs: Vec<Pair>) -> Options {
        Options {
            tile_size: default_tile_size(),
            colours: default_colours(),
            pairs,
            placement: PlacementKind::default(),
            classes: default_classes(),
            orientations: Orientations::default(),
            seam_band: 0,
            height_scale: HeightScale::default(),
        }
    }
}

fn default_tile_size() -> u32 {
    32
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
        let mut options: Options = toml::from_str(&text).map_err(|e| {
            // `[pair]` for `[[pair]]`: TOML's words ("invalid type: map,
            // expected a sequence") do not say what to type.
            let single = text.lines().position(|l| l.trim() == "[pair]");
            let detail = match single {
                Some(i) => format!("line {}: [pair] is one table; each pair is written [[pair]] (two brackets)", i + 1),
                None => toml_error(&text, &e),
            };
            Error::Manifest { path: path.to_path_buf(), detail }
        })?;
        let manifest = |detail: String| Error::Manifest { path: path.to_path_buf(), detail };
        // Keys the paper's placement does not use: refused, not ignored.
        if options.placement == PlacementKind::Paper {
            let table: toml::Table = toml::from_str(&text).map_err(|e| manifest(toml_error(&text, &e)))?;
            if let Some(key) = ["classes", "orientations"].into_iter().find(|k| table.contains_key(*k)) {
                return Err(manifest(format!(
                    "{key}: applies to placement = \"corners\" only, not \"paper\": remove it or the placement"
                )));
            }
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        for (i, p) in options.pairs.iter_mut().enumerate() {
            for (key, file) in [("height", &mut p.height), ("texture", &mut p.texture)] {
                if file.as_os_str().is_empty() {
                    return Err(manifest(format!("pair {}: {key} is empty: give the PNG's path", i + 1)));
                }
                *file = dir.join(&*file);
            }
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
                // 1e308 as written, not as its 309 digits.
                let shown = if v != 0.0 && !(1e-4..1e6).contains(&v.abs()) { format!("{v:e}") } else { v.to_string() };
                return Err(Error::range(
                    "height_scale",
                    shown,
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
                "fades tiles for the paper's placement only: choose it (--placement paper; in a manifest, placement = \"paper\")",
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
    if texture.color().has_alpha() {
        notes.push(format!("{} has an alpha channel; colours are its RGB, alpha ignored", pair.texture.display()));
    }
    Ok(Loaded { heights: height.into_luma16(), texture: texture.into_rgb8() })
}

/// Fewest of the 256 height levels the heightmaps may span before
/// the bake stretches them (with the height scale `auto`): fewer, and the land bakes
/// terraced or flat (a 16-bit export of heights 0 to 1,000 spans 5).
pub const MIN_LEVELS: u32 = 64;

/// Heightmaps (all pairs together) that span fewer than [`MIN_LEVELS`] of the
/// 256 height levels bake a flat world: with the height scale `auto`, their
/// heights are stretched to the full range, lowest to 0 and highest to
/// 65,535, with a note (the scale is then chosen for the stretched heights);
/// with a fixed scale they are kept, with a note saying so. Heightmaps of
/// one height throughout are kept, with a note that the land is flat.
fn stretch_narrow_heights(loaded: &mut [Loaded], scale: HeightScale, notes: &mut Vec<String>) {
    let heights = loaded.iter().flat_map(|l| l.heights.pixels().map(|p| p[0]));
    let Some((lo, hi)) =
        heights.fold(None, |r, h| Some(r.map_or((h, h), |(lo, hi): (u16, u16)| (lo.min(h), hi.max(h)))))
    else {
        return;
    };
    if hi == lo {
        notes.push(format!(
            "the heightmaps hold one height throughout (level {} of 0..=255): the land bakes flat, a plane of colours",
            height8(lo)
        ));
        return;
    }
    let levels = (height8(hi) - height8(lo)) as u32 + 1;
    if levels >= MIN_LEVELS {
        return;
    }
    let span = format!("the heightmaps span {levels} of the 256 height levels (16-bit heights {lo}..={hi})");
    if scale != HeightScale::Auto {
        notes.push(format!(
            "{span}: with a fixed height scale the land is as flat as that; with `auto` they would be stretched"
        ));
        return;
    }
    let range = (hi - lo) as u64;
    for l in loaded.iter_mut() {
        for p in l.heights.pixels_mut() {
            p[0] = (((p[0] - lo) as u64 * 65535 + range / 2) / range) as u16;
        }
    }
    notes.push(format!("{span}: stretched to the full range, so that the relief keeps its detail"));
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

/// The pixels of the pairs loaded so far, `total`, and one more pair of
/// `size`, named by its heightmap `path`: one cap for all pairs together
/// ([`io::MAX_PIXELS`], as for one image), as a bake's memory grows with the
/// pixels of every pair.
fn add_pixels(total: u64, size: (u32, u32), path: &Path) -> Result<u64> {
    let pixels = total + size.0 as u64 * size.1 as u64;
    if pixels > io::MAX_PIXELS {
        return Err(Error::Image {
            path: path.to_path_buf(),
            detail: format!(
                "with this pair the heightmaps hold {pixels} pixels, more than tilebake takes in all pairs \
                 together ({}, one 8192 x 8192 pair); use fewer or smaller pairs",
                io::MAX_PIXELS
            ),
        });
    }
    Ok(pixels)
}

/// Bakes `options` into a bank.
pub fn bake(options: &Options, progress: Progress<'_>) -> Result<Baked> {
    options.check()?;
    let tile = options.tile_size;
    let mut notes = Vec::new();
    let mut loaded: Vec<Loaded> = Vec::new();
    let mut pixels = 0u64;
    for (i, pair) in options.pairs.iter().enumerate() {
        progress("loading", i as u64, options.pairs.len() as u64);
        let l = load_pair(pair, tile, &mut notes)?;
        pixels = add_pixels(pixels, l.heights.dimensions(), &pair.height)?;
        loaded.push(l);
    }
    progress("loading", options.pairs.len() as u64, options.pairs.len() as u64);
    stretch_narrow_heights(&mut loaded, options.height_scale, &mut notes);
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
            // What the source holds, to tell what the tiles leave out.
            let kept = Kept::of_source(&loaded, &colours);
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
            // Said when the choice was ours (`auto`), not when asked for.
            if upright && options.orientations == Orientations::Auto {
                notes.push("the texture has baked lighting: tiles keep the source's orientation".into());
            }
            notes.extend(kept.left_out(&built.tiles, &palette));
            (built.tiles, bank::Placement::Corners(built.corners), n)
        }
    };
    drop_unused_colours(&mut palette, &mut tiles);
    let height_scale = match options.height_scale {
        HeightScale::Auto => auto_height_scale(&tiles, tile as usize),
        HeightScale::Fixed(v) => {
            let stored = (v * 256.0).round() as u16;
            // The bank keeps 256ths of a world pixel: say so when that moves it.
            if stored as f64 != v * 256.0 {
                notes.push(format!(
                    "height scale {v} is stored as {stored}/256 = {} world pixels per unit (the bank keeps 256ths)",
                    stored as f64 / 256.0
                ));
            }
            stored
        }
    };
    let flat: Vec<u16> = tiles.iter().flatten().copied().collect();
    let contents = bank::Contents { tile_size: tile as u16, palette: &palette, tiles: &flat, placement, height_scale };
    let bytes = bank::encode(&contents).map_err(|e| Error::Bank { path: PathBuf::from("<baked bank>"), source: e })?;
    if options.placement == PlacementKind::Corners {
        progress("measuring the world", 0, 1);
        let bank = bank::parse(&bytes).map_err(|e| Error::Bank { path: PathBuf::from("<baked bank>"), source: e })?;
        notes.extend(crate::measure::lattice_note(&bank));
        progress("measuring the world", 1, 1);
    }
    Ok(Baked { bytes, tiles_cut, tiles_stored: tiles.len(), colours: palette.len(), notes })
}

/// How much of the sources each palette colour and each height covers: the
/// corner placement builds tiles of each class's typical ground, which may
/// leave out the source's rarest (its deepest pits and their water, say),
/// and a user should hear of it.
struct Kept {
    /// Texels per palette index, over every texture.
    colours: Vec<u64>,
    /// Texels per height (0..=255), over every heightmap.
    heights: [u64; 256],
    total: u64,
}

/// The least share of the source (texels) a note names as left out.
const LEFT_OUT_SHARE: f64 = 0.005;

impl Kept {
    fn of_source(loaded: &[Loaded], colours: &[Vec<u8>]) -> Kept {
        let mut k = Kept { colours: vec![0; 256], heights: [0; 256], total: 0 };
        for c in colours.iter().flatten() {
            k.colours[*c as usize] += 1;
        }
        for l in loaded {
            for p in l.heights.pixels() {
                // Rounded as the tiles' heights are.
                k.heights[height8(p[0]) as usize] += 1;
                k.total += 1;
            }
        }
        k
    }

    /// Notes on the colours no tile shows and the heights below or above
    /// every tile's, each at least [`LEFT_OUT_SHARE`] of the source.
    fn left_out(&self, tiles: &[Vec<u16>], palette: &[u16]) -> Vec<String> {
        let used = colours_used(tiles);
        let (mut low, mut high) = (255usize, 0usize);
        for t in tiles.iter().flatten() {
            (low, high) = (low.min((*t & 0xFF) as usize), high.max((*t & 0xFF) as usize));
        }
        let share = |n: u64| n as f64 / self.total.max(1) as f64;
        let pct = |n: u64| format!("{:.1}%", 100.0 * share(n));
        let mut notes = Vec::new();
        let lost: Vec<String> = (0..palette.len())
            .filter(|&i| !used[i] && share(self.colours[i]) >= LEFT_OUT_SHARE)
            .map(|i| {
                let [r, g, b] = crate::preview::rgb(palette[i]).0;
                format!("#{r:02X}{g:02X}{b:02X} ({} of the texture)", pct(self.colours[i]))
            })
            .collect();
        if !lost.is_empty() {
            notes.push(format!(
                "no corner tile shows {} {}: each tile is cut from the ground typical of its corners' classes, \
                 and rare ground is left out (make it more common in the source, or bake --placement paper)",
                if lost.len() == 1 { "colour" } else { "colours" },
                lost.join(", ")
            ));
        }
        let below: u64 = self.heights[..low].iter().sum();
        let above: u64 = self.heights[high + 1..].iter().sum();
        for (n, words) in
            [(below, format!("below height {low}, the lowest")), (above, format!("above height {high}, the highest"))]
        {
            if share(n) >= LEFT_OUT_SHARE {
                notes.push(format!(
                    "{} of the heightmap lies {words} any corner tile has: that ground is left out",
                    pct(n)
                ));
            }
        }
        notes
    }
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

/// Which palette indices `tiles` use.
fn colours_used(tiles: &[Vec<u16>]) -> [bool; 256] {
    let mut used = [false; 256];
    for t in tiles.iter().flatten() {
        used[(*t >> 8) as usize] = true;
    }
    used
}

/// Drops palette colours no texel uses (keeping the others' order) and
/// renumbers the texels.
fn drop_unused_colours(palette: &mut Vec<u16>, tiles: &mut [Vec<u16>]) {
    let used = colours_used(tiles);
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
    } else if let Some((t, n)) = larger.last() {
        format!("even --tile-size {t} cuts {n} tiles: use smaller or fewer images, {corners}")
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

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GrayImage, Rgb};

    /// A pair in memory: 8-bit `height(x, y)` (as 16 bits, `v * 257`) and
    /// `colour(x, y)`.
    fn loaded(w: u32, h: u32, height: impl Fn(u32, u32) -> u8, colour: impl Fn(u32, u32) -> [u8; 3]) -> Loaded {
        Loaded {
            heights: ImageBuffer::from_fn(w, h, |x, y| Luma([height(x, y) as u16 * 257])),
            texture: RgbImage::from_fn(w, h, |x, y| Rgb(colour(x, y))),
        }
    }

    fn options(tile: u32, placement: PlacementKind) -> Options {
        Options {
            tile_size: tile,
            colours: 52,
            pairs: vec![],
            placement,
            classes: 3,
            orientations: Orientations::Auto,
            seam_band: 0,
            height_scale: HeightScale::Auto,
        }
    }

    /// Writes `<name>-h.png` and `<name>-t.png` into `dir`.
    fn write_pair(dir: &Path, name: &str, heights: GrayImage, texture: RgbImage) -> Pair {
        let pair = Pair { height: dir.join(format!("{name}-h.png")), texture: dir.join(format!("{name}-t.png")) };
        heights.save(&pair.height).unwrap();
        texture.save(&pair.texture).unwrap();
        pair
    }

    /// Every progress call, in order.
    fn recorder(events: &mut Vec<(String, u64, u64)>) -> impl FnMut(&str, u64, u64) + '_ {
        |stage, done, total| events.push((stage.to_string(), done, total))
    }

    fn events(list: &[(&str, u64, u64)]) -> Vec<(String, u64, u64)> {
        list.iter().map(|&(s, d, t)| (s.to_string(), d, t)).collect()
    }

    const RED: u16 = 31;
    const GREEN: u16 = 31 << 5;
    const BLUE: u16 = 31 << 10;
    const WHITE: u16 = 0x7FFF;

    /// Heights that span a sliver of their range (a 16-bit export of 0 to
    /// 1,000) are stretched to the full range when the scale is ours to
    /// choose, and kept, with a note, when it is fixed; a wide span, or one
    /// height throughout, is kept without a note.
    #[test]
    fn narrow_heights_are_stretched_with_a_note() {
        let narrow = || Loaded {
            heights: ImageBuffer::from_fn(8, 8, |x, y| Luma([((x + 8 * y) * 1000 / 63) as u16])),
            texture: RgbImage::from_pixel(8, 8, Rgb([0, 128, 0])),
        };
        let mut pairs = vec![narrow()];
        let mut notes = Vec::new();
        stretch_narrow_heights(&mut pairs, HeightScale::Auto, &mut notes);
        let h: Vec<u16> = pairs[0].heights.pixels().map(|p| p[0]).collect();
        assert_eq!((h[0], h[63]), (0, 65535));
        assert!(h.windows(2).all(|w| w[0] < w[1]), "order kept");
        assert_eq!(
            notes,
            [
                "the heightmaps span 5 of the 256 height levels (16-bit heights 0..=1000): stretched to the full range, so that the relief keeps its detail"
            ]
        );
        let mut pairs = vec![narrow()];
        let mut notes = Vec::new();
        stretch_narrow_heights(&mut pairs, HeightScale::Fixed(2.0), &mut notes);
        assert_eq!(pairs[0].heights.pixels().map(|p| p[0]).max(), Some(1000), "kept");
        assert!(
            notes[0].ends_with(
                "with a fixed height scale the land is as flat as that; with `auto` they would be stretched"
            )
        );
        let flat = loaded(8, 8, |_, _| 40, |_, _| [0, 0, 0]);
        for (keep, note) in [(loaded_wide(), None), (flat, Some(40))] {
            let before: Vec<u16> = keep.heights.pixels().map(|p| p[0]).collect();
            let (mut pairs, mut notes) = (vec![keep], Vec::new());
            stretch_narrow_heights(&mut pairs, HeightScale::Auto, &mut notes);
            assert_eq!(pairs[0].heights.pixels().map(|p| p[0]).collect::<Vec<_>>(), before);
            let want = note.map(|h| {
                format!("the heightmaps hold one height throughout (level {h} of 0..=255): the land bakes flat, a plane of colours")
            });
            assert_eq!(notes, Vec::from_iter(want));
        }
    }

    /// Too many paper tiles: the advice names a tile size only if it would
    /// cut few enough; when even the largest cuts too many, it says so.
    #[test]
    fn too_many_tiles_advises_only_what_helps() {
        let big = |w, h| Loaded { heights: ImageBuffer::new(w, h), texture: RgbImage::new(w, h) };
        let advice = |l: Loaded| match too_many_tiles(&options(8, PlacementKind::Paper), &[l], "many".into()) {
            Error::TooManyTiles { advice, .. } => advice,
            e => panic!("{e}"),
        };
        assert!(advice(big(1024, 1024)).starts_with("try --tile-size 64 (the images make 256 tiles of 64 px)"));
        let a = advice(big(4096, 1152));
        assert!(
            a.starts_with("even --tile-size 128 cuts 288 tiles: use smaller or fewer images, or the corner placement"),
            "{a}"
        );
    }

    /// Heights 0 to 63 x 4: 253 levels.
    fn loaded_wide() -> Loaded {
        loaded(8, 8, |x, y| ((x + 8 * y) * 4) as u8, |_, _| [0, 0, 0])
    }

    #[test]
    fn option_names_parse() {
        assert_eq!("corners".parse(), Ok(PlacementKind::Corners));
        assert_eq!("paper".parse(), Ok(PlacementKind::Paper));
        assert_eq!("Paper".parse::<PlacementKind>(), Err("`Paper` is not a placement: use corners or paper".into()));
        assert_eq!("auto".parse(), Ok(Orientations::Auto));
        assert_eq!("all".parse(), Ok(Orientations::All));
        assert_eq!("upright".parse(), Ok(Orientations::Upright));
        assert_eq!(
            "up".parse::<Orientations>(),
            Err("`up` is not an orientation choice: use auto, all or upright".into())
        );
        assert_eq!("auto".parse(), Ok(HeightScale::Auto));
        assert_eq!("2.5".parse(), Ok(HeightScale::Fixed(2.5)));
        assert_eq!(
            "steep".parse::<HeightScale>(),
            Err("`steep` is not a height scale: use auto or a number of world pixels per height unit".into())
        );
    }

    #[test]
    fn the_pixel_cap_holds_for_all_pairs_together() {
        let p = Path::new("h.png");
        assert_eq!(add_pixels(0, (8192, 8192), p).unwrap(), io::MAX_PIXELS);
        let half = add_pixels(0, (8192, 4096), p).unwrap();
        assert_eq!(add_pixels(half, (8192, 4096), p).unwrap(), io::MAX_PIXELS);
        let e = add_pixels(half, (8192, 4097), p).unwrap_err().to_string();
        assert!(e.starts_with("h.png: with this pair the heightmaps hold 67117056 pixels"), "{e}");
    }

    #[test]
    fn manifest_defaults_and_height_scale_spellings() {
        let o: Options = toml::from_str("tile_size = 16\n").unwrap();
        assert_eq!(
            o,
            Options { tile_size: 16, colours: 52, classes: 3, ..options(16, PlacementKind::Corners) },
            "defaults: 52 colours, 3 classes, corners, auto orientations and height scale"
        );
        for (text, want) in [
            ("height_scale = 1.5", HeightScale::Fixed(1.5)),
            ("height_scale = 2", HeightScale::Fixed(2.0)),
            ("height_scale = \"0.5\"", HeightScale::Fixed(0.5)),
            ("height_scale = \"auto\"", HeightScale::Auto),
        ] {
            let o: Options = toml::from_str(&format!("tile_size = 16\n{text}\n")).unwrap();
            assert_eq!(o.height_scale, want, "{text}");
        }
        let e = toml::from_str::<Options>("tile_size = 16\nheight_scale = \"steep\"\n").unwrap_err();
        assert!(e.message().contains("`steep` is not a height scale"), "{e}");
    }

    /// A value's error in a manifest quotes its line (naming the key), and
    /// an enum given a number says which words it takes.
    #[test]
    fn manifest_value_errors_name_their_key() {
        let d = tempfile::tempdir().unwrap();
        let m = d.path().join("m.toml");
        for (text, want) in [
            ("placement = 5", "m.toml: line 2: placement = 5: use corners or paper"),
            ("orientations = 1", "m.toml: line 2: orientations = 1: use auto, all or upright"),
            ("\"placement\" = 5", "m.toml: line 2: \"placement\" = 5: use corners or paper"),
            ("colours = -3", "m.toml: line 2: colours = -3: invalid value: integer `-3`, expected a whole number"),
            ("classes = 99999999999", "m.toml: line 2: classes = 99999999999: invalid value"),
            (
                "bogus = 1",
                "m.toml: line 2, column 1: unknown key `bogus` (the keys: tile_size, colours, pair, placement, \
                 classes, orientations, seam_band, height_scale)",
            ),
            // A long key is cut short, a backtick in one kept apart from the list.
            (
                &format!("{} = 1", "y".repeat(3000)),
                &format!("m.toml: line 2, column 1: unknown key `{}...` (the keys: tile_size,", "y".repeat(57)),
            ),
            ("\"a`b\" = 1", "m.toml: line 2, column 1: unknown key `a`b` (the keys: tile_size, colours,"),
            // A near miss is named, and the whole list kept (it was cut short).
            (
                "tile_sise = 32",
                "m.toml: line 2, column 1: unknown key `tile_sise`: did you mean `tile_size`? (the keys: tile_size, \
                 colours, pair, placement, classes, orientations, seam_band, height_scale)",
            ),
            // A value over several lines is quoted whole, on one line.
            ("classes = [\n  2,\n  3,\n]", "m.toml: line 2: classes = [ 2, 3, ]: invalid type: sequence"),
            (
                "placement = \"\"\"\ncorners\npaper\"\"\"",
                "m.toml: line 2: placement = \"\"\" corners paper\"\"\": unknown variant",
            ),
            (
                &format!("placement = \"{}\"", "x".repeat(3000)),
                &format!(
                    "m.toml: line 2: placement = \"{}...: unknown variant `{}...",
                    "x".repeat(44),
                    "x".repeat(100)
                ),
            ),
            (
                &format!("colours = [{}]", ["1"; 40].join(", ")),
                "m.toml: line 2: colours = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1...: invalid type",
            ),
        ] {
            std::fs::write(&m, format!("tile_size = 16\n{text}\n")).unwrap();
            let e = Options::from_manifest(&m).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn from_manifest_resolves_paths_and_names_the_manifest() {
        let d = tempfile::tempdir().unwrap();
        let m = d.path().join("m.toml");
        std::fs::write(
            &m,
            "tile_size = 16\nplacement = \"paper\"\nseam_band = 8\n[[pair]]\nheight = \"h.png\"\ntexture = \"sub/t.png\"\n",
        )
        .unwrap();
        let o = Options::from_manifest(&m).unwrap();
        assert_eq!(o.pairs, vec![Pair { height: d.path().join("h.png"), texture: d.path().join("sub/t.png") }]);
        assert_eq!((o.tile_size, o.placement, o.seam_band, o.colours), (16, PlacementKind::Paper, 8, 52));

        std::fs::write(&m, "tile_size = 16\ncolours = 99\n[[pair]]\nheight = \"h.png\"\ntexture = \"t.png\"\n")
            .unwrap();
        match Options::from_manifest(&m) {
            Err(Error::Range { manifest, key, value, .. }) => {
                assert_eq!((manifest, key, value.as_str()), (Some(m.clone()), "colours", "99"))
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&m, "tile_size = 16\n").unwrap();
        match Options::from_manifest(&m) {
            Err(Error::Manifest { path, detail }) => {
                assert_eq!(path, m);
                assert!(detail.starts_with("no [[pair]] entries"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        // TOML errors: one line, where and what (the key named by its place).
        for (text, want) in [
            ("height = g8.png\n", "line 1: height = g8.png: invalid string"),
            (
                "tile_size = 16\ncolours = \"many\"\n",
                "line 2: colours = \"many\": invalid type: string \"many\", expected a whole number",
            ),
            (
                "tile_size = 16\nheight_scale = true\n",
                "line 2: height_scale = true: invalid type: boolean `true`, expected \"auto\"",
            ),
            (
                "tile_size = 16\n[[pair]]\nheight = \"h.png\"\ntexture = \"t.png\"\nextra = 1\n",
                "line 5, column 1: unknown key `extra` (the keys: height, texture)",
            ),
        ] {
            std::fs::write(&m, text).unwrap();
            match Options::from_manifest(&m) {
                Err(Error::Manifest { path, detail }) => {
                    assert_eq!(path, m);
                    assert!(detail.starts_with(want) && !detail.contains('\n'), "{text:?}: {detail}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        std::fs::write(&m, b"tile_size = 16 # \xFF\n").unwrap();
        match Options::from_manifest(&m) {
            Err(Error::Manifest { path, detail }) => assert_eq!((path, detail.as_str()), (m.clone(), "not UTF-8 text")),
            other => panic!("{other:?}"),
        }
    }

    /// Each range at both ends: the last value in, the first value out.
    #[test]
    fn option_ranges_at_their_limits() {
        let key = |o: &Options| match o.check_values() {
            Ok(()) => None,
            Err(Error::Range { key, .. }) => Some(key),
            Err(e) => panic!("{e}"),
        };
        let paper = options(16, PlacementKind::Paper);
        assert_eq!(key(&paper), None);
        for t in [8, 16, 32, 64, 128] {
            assert_eq!(key(&options(t, PlacementKind::Paper)), None, "tile size {t}");
        }
        for t in [0, 4, 24, 256] {
            assert_eq!(key(&options(t, PlacementKind::Paper)), Some("tile_size"), "tile size {t}");
        }
        for (colours, want) in [(1, Some("colours")), (2, None), (52, None), (53, Some("colours"))] {
            assert_eq!(key(&Options { colours, ..paper.clone() }), want, "colours {colours}");
        }
        for (classes, want) in [(1, Some("classes")), (2, None), (3, None), (4, Some("classes"))] {
            assert_eq!(key(&Options { classes, ..paper.clone() }), want, "classes {classes}");
        }
        for (v, want) in [
            (0.0624, Some("height_scale")),
            (0.0625, None),
            (1.0, None),
            (8.0, None),
            (8.001, Some("height_scale")),
            (f64::NAN, Some("height_scale")),
        ] {
            let o = Options { height_scale: HeightScale::Fixed(v), ..paper.clone() };
            assert_eq!(key(&o), want, "height scale {v}");
        }
        // A huge value is shown as written, in one short line.
        let o = Options { height_scale: HeightScale::Fixed(1e308), ..paper.clone() };
        let e = o.check_values().unwrap_err().to_string();
        assert!(e.starts_with("--height-scale 1e308 is outside"), "{e}");
        // Half the tile size at most, and for the paper placement only.
        for (band, want) in [(0, None), (1, None), (8, None), (9, Some("seam_band"))] {
            assert_eq!(key(&Options { seam_band: band, ..paper.clone() }), want, "seam band {band}");
        }
        assert_eq!(key(&Options { seam_band: 4, ..options(8, PlacementKind::Paper) }), None);
        assert_eq!(key(&Options { seam_band: 5, ..options(8, PlacementKind::Paper) }), Some("seam_band"));
        let corners = options(16, PlacementKind::Corners);
        assert_eq!(key(&corners), None);
        match (Options { seam_band: 1, ..corners }).check_values() {
            Err(Error::Range { key, value, problem, .. }) => {
                assert_eq!((key, value.as_str()), ("seam_band", "1"));
                assert!(
                    problem.contains("--placement paper") && problem.contains("placement = \"paper\""),
                    "{problem}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// The default corner set baked on one thread and on three gives the
    /// same bank, byte for byte (the configurations and edge strips run on
    /// `parallel::map`, whose results keep job order).
    #[test]
    fn the_bank_does_not_depend_on_the_thread_count() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/terrain.toml");
        let options = Options::from_manifest(&manifest).expect("the default manifest");
        let banks = [1, 3].map(|threads| {
            crate::parallel::set_threads(threads);
            bake(&options, &mut |_, _, _| {}).expect("the default bake").bytes
        });
        crate::parallel::set_threads(0);
        assert!(banks[0] == banks[1], "one thread and three bake different banks");
    }

    /// Options are checked before any file is read.
    #[test]
    fn bake_refuses_bad_options_and_no_input_first() {
        let nowhere = Pair { height: "no/such/h.png".into(), texture: "no/such/t.png".into() };
        let o = Options { pairs: vec![nowhere], ..options(24, PlacementKind::Paper) };
        assert!(matches!(bake(&o, &mut |_, _, _| {}), Err(Error::Range { key: "tile_size", .. })));
        let o = options(16, PlacementKind::Paper);
        assert!(matches!(bake(&o, &mut |_, _, _| {}), Err(Error::NoInput)));
    }

    /// `x` across, `y` down: texels `height | colour << 8`, colours varied so
    /// only the height byte counts.
    fn tile_of(n: usize, height: impl Fn(usize, usize) -> u8) -> Vec<u16> {
        (0..n * n).map(|i| bank::texel(height(i % n, i / n), (i % 5 + 1) as u8)).collect()
    }

    #[test]
    fn auto_height_scale_pinned() {
        // Steps of 2 across and 6 down: mean slope (6 * 2 + 6 * 6) / 12 = 4
        // height units per texel; 0.45 * 4 px / 4 = 0.45 px per unit, 115.2 / 256.
        let t = tile_of(3, |x, y| (2 * x + 6 * y) as u8);
        assert_eq!(auto_height_scale(&[t], 3), 115);
        // Steps of 1 down only, over two tiles: mean (0 * 12 + 1 * 12) / 24 = 0.5;
        // 1.8 / 0.5 = 3.6 px, 921.6 / 256.
        let t = tile_of(4, |_, y| y as u8);
        assert_eq!(auto_height_scale(&[t.clone(), tile_of(4, |_, y| 3 - y as u8)], 4), 922);
        // Mean 1 (every neighbour differs by 1, both ways): 1.8 px, 460.8 / 256.
        let t = tile_of(2, |x, y| ((x + y) % 2) as u8);
        assert_eq!(auto_height_scale(&[t], 2), 461);
        // A 0 / 255 checkerboard: 1.8 / 255 px, clamped up to 1/16.
        let t = tile_of(2, |x, y| if (x + y) % 2 == 0 { 0 } else { 255 });
        assert_eq!(auto_height_scale(&[t], 2), 16);
        // Flat: one pixel per unit.
        assert_eq!(auto_height_scale(&[tile_of(8, |_, _| 90)], 8), 256);
        assert_eq!(auto_height_scale(&[], 8), 256);
    }

    /// Below a mean slope of 1e-3 the set counts as flat; at exactly 1e-3
    /// (one corner 1 unit up: 2 of 2000 neighbour pairs) it is not, and the
    /// scale, 1800 px per unit, is clamped to 8.
    #[test]
    fn auto_height_scale_flat_limit() {
        let mut tiles = vec![tile_of(2, |_, _| 7); 500];
        tiles[0] = tile_of(2, |x, y| if (x, y) == (0, 0) { 8 } else { 7 });
        assert_eq!(auto_height_scale(&tiles, 2), 2048);
        tiles.push(tile_of(2, |_, _| 7));
        assert_eq!(auto_height_scale(&tiles, 2), 256);
    }

    #[test]
    fn height8_rounds_to_nearest() {
        for (h, want) in
            [(0, 0), (128, 0), (129, 1), (257, 1), (32767, 127), (32768, 128), (65406, 254), (65407, 255), (65535, 255)]
        {
            assert_eq!(height8(h), want, "{h}");
        }
    }

    /// The default set's 512^2 textures train on every pixel.
    #[test]
    fn training_sample_size() {
        assert_eq!(MAX_TRAINING_PIXELS, 262_144);
    }

    /// Colours in order of first appearance, across the pairs; 8-bit colours
    /// equal in BGR555 are one colour.
    #[test]
    fn exact_palette_pinned() {
        let px = |colours: &'static [[u8; 3]]| move |x: u32, _| colours[x as usize];
        let a = loaded(4, 1, |_, _| 0, px(&[[255, 0, 0], [0, 255, 0], [252, 0, 0], [0, 0, 255]]));
        let b = loaded(2, 1, |_, _| 0, px(&[[0, 0, 255], [255, 255, 255]]));
        let (palette, colours) = exact_palette(&[a, b], 4).expect("4 colours fit 4");
        assert_eq!(palette, vec![RED, GREEN, BLUE, WHITE]);
        assert_eq!(colours, vec![vec![0, 1, 0, 2], vec![2, 3]]);
        let a = loaded(4, 1, |_, _| 0, px(&[[255, 0, 0], [0, 255, 0], [252, 0, 0], [0, 0, 255]]));
        let b = loaded(2, 1, |_, _| 0, px(&[[0, 0, 255], [255, 255, 255]]));
        assert_eq!(exact_palette(&[a, b], 3), None, "4 colours do not fit 3");
    }

    #[test]
    fn quantise_keeps_few_colours_exactly() {
        let a = loaded(2, 2, |_, _| 0, |x, y| if x == y { [0, 255, 0] } else { [255, 255, 255] });
        let mut ev = Vec::new();
        let (palette, colours) = quantise(&[a], 2, &mut recorder(&mut ev));
        assert_eq!((palette, colours), (vec![GREEN, WHITE], vec![vec![0, 1, 1, 0]]));
        assert_eq!(ev, events(&[("palette", 0, 1), ("palette", 1, 1)]));
    }

    /// Each pixel's palette colour is near its own: within the distance the
    /// palette leaves between neighbouring colours of a smooth ramp.
    fn assert_near(loaded: &[Loaded], palette: &[u16], colours: &[Vec<u8>], tolerance: i32) {
        for (l, c) in loaded.iter().zip(colours) {
            assert_eq!(c.len(), l.texture.pixels().len());
            for (p, &i) in l.texture.pixels().zip(c) {
                let q = bank::colour::to_rgb888(palette[i as usize]);
                let d = (0..3).map(|k| (p[k] as i32 - q[k] as i32).abs()).max().unwrap();
                assert!(d <= tolerance, "{p:?} as {q:?}");
            }
        }
    }

    /// Over the palette size: NeuQuant, trained on every pixel of a small
    /// texture, in order. Pinned (recorded, not derived by hand: NeuQuant's
    /// result depends on every pixel and their order): the palette, and the
    /// indices of every 97th pixel.
    #[test]
    fn quantise_small_texture_pinned() {
        let ramp = |x: u32, y: u32| [(x * 4) as u8, (y * 4) as u8, 100];
        let l = [loaded(64, 64, |_, _| 0, ramp)];
        let mut ev = Vec::new();
        let (palette, colours) = quantise(&l, 52, &mut recorder(&mut ev));
        #[rustfmt::skip]
        let want: [u16; 52] = [
            0, 12292, 12310, 12332, 12322, 12321, 12367, 12372, 12362, 12381, 12392, 12390, 12433, 12441, 12452,
            12493, 12533, 12513, 12553, 12573, 12594, 12614, 12611, 12665, 12654, 12675, 12725, 12715, 12705,
            12765, 12776, 12786, 12825, 12846, 12836, 12918, 12897, 12907, 12947, 12988, 12967, 13008, 13028,
            13080, 13069, 13121, 13139, 13161, 13181, 13220, 13230, 13240,
        ];
        assert_eq!(palette, want);
        #[rustfmt::skip]
        let want: [u8; 43] = [
            5, 6, 5, 12, 5, 12, 14, 12, 14, 16, 14, 16, 21, 16, 21, 23, 21, 23, 30, 32, 30, 32, 27, 32, 37, 32, 37,
            39, 37, 39, 41, 39, 41, 45, 41, 45, 46, 45, 46, 49, 46, 49, 51,
        ];
        assert_eq!(colours[0].iter().step_by(97).copied().collect::<Vec<_>>(), want, "every 97th pixel");
        assert_near(&l, &palette, &colours, 40);
        assert_eq!(ev, events(&[("palette", 0, 1), ("palette", 1, 1), ("mapping colours", 4096, 4096)]),);
    }

    /// Over the training sample: two textures of 1024 x 615 and 1024 x 485
    /// (1,126,400 pixels) train on a fixed pseudo-random sample of 2^18
    /// (SplitMix64 from a fixed seed; its 14,747th draw is pixel 615 * 1024,
    /// the second texture's first). Pinned: progress when 2^20 pixels are
    /// mapped; and (recorded: they change with any pixel of the sample) the
    /// palette and the indices of every 20011th pixel.
    #[test]
    fn quantise_sampled_textures_pinned() {
        let a = loaded(1024, 615, |_, _| 0, |x, y| [(x / 4) as u8, (y / 3) as u8, 60]);
        let b = loaded(1024, 485, |_, _| 0, |x, y| [(x / 4) as u8, 200, (y / 2) as u8]);
        let l = [a, b];
        let mut ev = Vec::new();
        let (palette, colours) = quantise(&l, 52, &mut recorder(&mut ev));
        #[rustfmt::skip]
        let want: [u16; 52] = [
            0, 7254, 7260, 7271, 7280, 7266, 7276, 7384, 7411, 7426, 7433, 7452, 7470, 7511, 7554, 7613, 7602,
            7623, 7628, 7703, 7747, 7773, 7784, 7792, 7832, 7906, 7915, 7923, 7933, 7943, 8975, 7960, 26377, 19208,
            13059, 3852, 21250, 2835, 23315, 13077, 28431, 28444, 2843, 28438, 27394, 22286, 2820, 13064, 15119,
            21276, 14108, 18198,
        ];
        assert_eq!(palette, want);
        #[rustfmt::skip]
        let want: [u8; 57] = [
            5, 4, 5, 1, 5, 7, 3, 7, 10, 7, 12, 11, 12, 14, 16, 14, 16, 17, 19, 18, 19, 18, 21, 23, 20, 23, 25, 27,
            25, 24, 29, 31, 46, 37, 46, 37, 29, 31, 29, 31, 26, 50, 48, 50, 48, 34, 51, 36, 51, 33, 38, 32, 41, 32,
            41, 40, 44,
        ];
        let got: Vec<u8> = colours.iter().flat_map(|c| c.iter().step_by(20011)).copied().collect();
        assert_eq!(got, want, "every 20011th pixel of each texture");
        assert_near(&l, &palette, &colours, 80);
        assert_eq!(
            ev,
            events(&[
                ("palette", 0, 1),
                ("palette", 1, 1),
                ("mapping colours", 1 << 20, 1_126_400),
                ("mapping colours", 1_126_400, 1_126_400)
            ]),
        );
    }

    #[test]
    fn unused_colours_are_dropped_and_texels_renumbered() {
        let mut palette = vec![10, 20, 30, 40];
        let mut tiles =
            vec![vec![bank::texel(5, 1), bank::texel(255, 3)], vec![bank::texel(0, 3), bank::texel(128, 1)]];
        drop_unused_colours(&mut palette, &mut tiles);
        assert_eq!(palette, vec![20, 40]);
        assert_eq!(
            tiles,
            vec![vec![bank::texel(5, 0), bank::texel(255, 1)], vec![bank::texel(0, 1), bank::texel(128, 0)]]
        );
        // All used: nothing changes.
        let mut palette = vec![10, 20];
        let mut all = vec![vec![bank::texel(9, 1), bank::texel(8, 0)]];
        drop_unused_colours(&mut palette, &mut all);
        assert_eq!((palette, all), (vec![10, 20], vec![vec![bank::texel(9, 1), bank::texel(8, 0)]]));
    }

    #[test]
    fn tile_at_cuts_the_right_square() {
        let l = loaded(4, 6, |x, y| (10 * y + x) as u8, |_, _| [0, 0, 0]);
        let t = tile_at(&l, 2, 1, 2, |x, y| (x + 4 * y) as u8);
        assert_eq!(t, vec![bank::texel(42, 18), bank::texel(43, 19), bank::texel(52, 22), bank::texel(53, 23)]);
    }

    /// Tiles row by row, pair by pair; repeats stored once, in order of
    /// first appearance.
    #[test]
    fn cut_tiles_pinned() {
        // 4 x 4 in 2 px tiles: heights 10 y + x, so four different tiles;
        // then 4 x 2 whose left tile repeats the first one's top-left tile.
        let a = loaded(4, 4, |x, y| (10 * y + x) as u8, |_, _| [0; 3]);
        let b = loaded(4, 2, |x, y| if x < 2 { (10 * y + x) as u8 } else { 99 }, |_, _| [0; 3]);
        let colours = vec![(0..16u8).map(|i| i % 3).collect::<Vec<_>>(), vec![0, 1, 7, 7, 1, 2, 7, 7]];
        let mut ev = Vec::new();
        let (tiles, cut) =
            cut_tiles(&options(2, PlacementKind::Paper), &[a, b], &colours, &mut recorder(&mut ev)).unwrap();
        assert_eq!(cut, 6);
        let t = |h: [u8; 4], c: [u8; 4]| (0..4).map(|i| bank::texel(h[i], c[i])).collect::<Vec<u16>>();
        assert_eq!(
            tiles,
            vec![
                t([0, 1, 10, 11], [0, 1, 1, 2]),
                t([2, 3, 12, 13], [2, 0, 0, 1]),
                t([20, 21, 30, 31], [2, 0, 0, 1]),
                t([22, 23, 32, 33], [1, 2, 2, 0]),
                t([99, 99, 99, 99], [7, 7, 7, 7]),
            ]
        );
        assert_eq!(ev, events(&[("cutting tiles", 6, 6)]));
    }

    /// With a seam band the cut tiles are faded: 2 px tiles in a band of 1
    /// are all edge, so every texel becomes the median height (of 0..=15:
    /// 8) in the commonest colour (2), and one tile is stored.
    #[test]
    fn cut_tiles_fades_with_a_band() {
        let a = loaded(4, 4, |x, y| (4 * y + x) as u8, |_, _| [0; 3]);
        let colours = vec![(0..16u8).map(|i| if i == 5 { 1 } else { 2 }).collect::<Vec<_>>()];
        let o = Options { seam_band: 1, ..options(2, PlacementKind::Paper) };
        let (tiles, cut) = cut_tiles(&o, &[a], &colours, &mut |_, _, _| {}).unwrap();
        assert_eq!((tiles, cut), (vec![vec![bank::texel(8, 2); 4]], 4));
    }

    /// A paper bake end to end: two 8 px tiles of a 16 x 8 pair.
    #[test]
    fn paper_bake_pinned() {
        let d = tempfile::tempdir().unwrap();
        let pair = write_pair(
            d.path(),
            "a",
            GrayImage::from_fn(16, 8, |x, y| Luma([(x + 16 * y) as u8])),
            RgbImage::from_fn(16, 8, |x, y| match (x / 8, y % 2) {
                (0, 0) => Rgb([0, 255, 0]),
                (0, _) => Rgb([255, 0, 0]),
                _ => Rgb([0, 0, 255]),
            }),
        );
        let o =
            Options { pairs: vec![pair], height_scale: HeightScale::Fixed(2.0), ..options(8, PlacementKind::Paper) };
        let mut ev = Vec::new();
        let baked = bake(&o, &mut recorder(&mut ev)).unwrap();
        assert_eq!((baked.tiles_cut, baked.tiles_stored, baked.colours), (2, 2, 3));
        assert!(baked.notes.is_empty(), "{:?}", baked.notes);
        assert_eq!(
            ev,
            events(&[
                ("loading", 0, 1),
                ("loading", 1, 1),
                ("counting tiles", 0, 1),
                ("palette", 0, 1),
                ("palette", 1, 1),
                ("cutting tiles", 2, 2),
            ])
        );
        let b = bank::parse(&baked.bytes).unwrap();
        assert_eq!((b.tile_size(), b.tile_count(), b.height_scale()), (8, 2, 512));
        assert!(matches!(b.placement(), bank::Placement::Paper));
        // Colours in order of first appearance in the texture, row by row.
        assert_eq!((0..3).map(|i| b.colour(i)).collect::<Vec<_>>(), vec![GREEN, BLUE, RED]);
        for (t, x, y, h, c) in [(0, 0, 0, 0, 0), (0, 7, 1, 23, 2), (1, 0, 0, 8, 1), (1, 7, 7, 127, 1), (0, 3, 6, 99, 0)]
        {
            assert_eq!(b.texel(t, x, y), (h, c), "tile {t} ({x}, {y})");
        }
        // The smallest fixed scale, and auto on flat tiles: 1 px per unit.
        let o = Options { height_scale: HeightScale::Fixed(0.0625), ..o };
        assert_eq!(bank::parse(&bake(&o, &mut |_, _, _| {}).unwrap().bytes).unwrap().height_scale(), 16);
    }

    fn too_many(e: Error) -> (String, String, u32, String) {
        match e {
            Error::TooManyTiles { inputs, count, tile, advice } => (inputs, count, tile, advice),
            other => panic!("{other}"),
        }
    }

    const NO_LARGER: &str = "use smaller or fewer images (256 tiles of 8 px cover 128x128 px), or the corner \
                             placement (leave out --placement paper), which builds one set of at most 256 tiles \
                             from images of any size";

    /// 256 distinct tiles fit (each 8 px tile one height, 0..=255, row by
    /// row); one more pair with a 257th is refused before quantising.
    #[test]
    fn exactly_256_tiles_fit() {
        let d = tempfile::tempdir().unwrap();
        let flat = write_pair(
            d.path(),
            "flat",
            GrayImage::from_fn(128, 128, |x, y| Luma([(x / 8 + 16 * (y / 8)) as u8])),
            RgbImage::from_pixel(128, 128, Rgb([0, 0, 255])),
        );
        let o = Options { pairs: vec![flat.clone()], ..options(8, PlacementKind::Paper) };
        let baked = bake(&o, &mut |_, _, _| {}).unwrap();
        assert_eq!((baked.tiles_cut, baked.tiles_stored, baked.colours), (256, 256, 1));
        let b = bank::parse(&baked.bytes).unwrap();
        for t in [0, 1, 17, 255] {
            assert_eq!(b.texel(t, 5, 3), (t as u8, 0), "tile {t}");
        }
        let ramp = write_pair(
            d.path(),
            "ramp",
            GrayImage::from_fn(8, 8, |x, _| Luma([x as u8])),
            RgbImage::from_pixel(8, 8, Rgb([0, 0, 255])),
        );
        let o = Options { pairs: vec![flat.clone(), ramp.clone()], ..o };
        let (inputs, count, tile, advice) = too_many(bake(&o, &mut |_, _, _| {}).unwrap_err());
        let want = format!(
            "{} + {}, {} + {}",
            flat.height.display(),
            flat.texture.display(),
            ramp.height.display(),
            ramp.texture.display()
        );
        assert_eq!((inputs, count.as_str(), tile, advice.as_str()), (want, "at least 257", 8, NO_LARGER));
    }

    /// 176 x 200 px in 8 px tiles (22 x 25 = 550 tiles): tile t's two middle
    /// texels encode t / 2; its ring at distance 1 from the edge is 100 for
    /// even t, 101 for odd; everything else is 101, so the median is 101.
    /// The seam band 2 pulls the ring halfway to 101: 100 and 101 both
    /// become 101, so tiles 2k and 2k + 1 are equal after the fade (275
    /// distinct) and not before (550). 16 px divides 176 but not 200: no
    /// larger size to advise.
    #[test]
    fn distinct_tiles_are_counted_after_the_fade() {
        let d = tempfile::tempdir().unwrap();
        let heights = GrayImage::from_fn(176, 200, |x, y| {
            let t = y / 8 * 22 + x / 8;
            let (u, v) = (x % 8, y % 8);
            let ring = u.min(v).min(7 - u).min(7 - v);
            Luma([match (u, v) {
                (2, 2) => (t / 2 % 128) as u8,
                (3, 2) => (t / 2 / 128) as u8,
                _ if ring == 1 => 100 + (t % 2) as u8,
                _ => 101,
            }])
        });
        let pair = write_pair(d.path(), "rings", heights, RgbImage::from_pixel(176, 200, Rgb([9, 9, 9])));
        let inputs = format!("{} + {}", pair.height.display(), pair.texture.display());
        for (band, count) in [(2, "at least 275"), (0, "at least 550")] {
            let o = Options { pairs: vec![pair.clone()], seam_band: band, ..options(8, PlacementKind::Paper) };
            let mut ev = Vec::new();
            let e = bake(&o, &mut recorder(&mut ev)).unwrap_err();
            assert_eq!(too_many(e), (inputs.clone(), count.to_string(), 8, NO_LARGER.to_string()), "band {band}");
            assert!(!ev.iter().any(|(s, _, _)| s == "palette"), "quantised before counting: {ev:?}");
        }
    }

    /// Heights alone make one tile, colours 272 (17 x 16 tiles of 8 px, each
    /// with its index in binary): refused after cutting, with the exact
    /// count; 136 is not a multiple of 16.
    #[test]
    fn distinct_colour_patterns_are_refused_with_their_count() {
        let d = tempfile::tempdir().unwrap();
        let pair = write_pair(
            d.path(),
            "bits",
            GrayImage::from_pixel(136, 128, Luma([50])),
            RgbImage::from_fn(136, 128, |x, y| {
                let t = y / 8 * 17 + x / 8;
                let bit = y % 8 * 8 + x % 8;
                if bit < 9 && t >> bit & 1 == 1 { Rgb([255, 255, 255]) } else { Rgb([0, 0, 0]) }
            }),
        );
        let o = Options { pairs: vec![pair], ..options(8, PlacementKind::Paper) };
        let (_, count, tile, advice) = too_many(bake(&o, &mut |_, _, _| {}).unwrap_err());
        assert_eq!((count.as_str(), tile, advice.as_str()), ("272", 8, NO_LARGER));
    }

    /// A corner set from a generated map whose heights are scaled to
    /// 0..=120 (8-bit grey): the source reads them as they are, so every
    /// baked height stays in 0..=120 (tiles are cut from the source, joins
    /// blend between its heights), and high ground (over half of that) is
    /// among the tiles.
    #[test]
    fn corner_bake_keeps_the_source_heights() {
        let d = tempfile::tempdir().unwrap();
        let (h16, texture) = crate::generate::generate(4, 256).unwrap();
        let heights =
            GrayImage::from_fn(256, 256, |x, y| Luma([((h16.get_pixel(x, y)[0] as u32 * 120 + 32767) / 65535) as u8]));
        let pair = write_pair(d.path(), "gen", heights, texture);
        let o = Options { pairs: vec![pair], orientations: Orientations::Auto, ..options(32, PlacementKind::Corners) };
        let mut ev = Vec::new();
        let baked = bake(&o, &mut recorder(&mut ev)).unwrap();
        let sources: Vec<_> = ev.iter().filter(|(s, _, _)| s == "corner sources").cloned().collect();
        assert_eq!(sources, events(&[("corner sources", 0, 2), ("corner sources", 1, 2)]));
        assert!(
            baked.notes.iter().any(|n| n == "the texture has baked lighting: tiles keep the source's orientation"),
            "{:?}",
            baked.notes
        );
        let b = bank::parse(&baked.bytes).unwrap();
        let top = (0..b.tile_count())
            .flat_map(|t| (0..32).flat_map(move |y| (0..32).map(move |x| (t, x, y))))
            .map(|(t, x, y)| b.texel(t, x, y).0)
            .max()
            .unwrap();
        assert!((60..=120).contains(&top), "highest baked texel {top}");
    }

    #[test]
    fn sizes_must_match_and_divide_on_both_sides() {
        let d = tempfile::tempdir().unwrap();
        for (w, h, ok) in [(64, 48, false), (48, 64, false), (48, 48, false), (64, 32, true)] {
            let pair = write_pair(d.path(), "p", GrayImage::new(w, h), RgbImage::new(w, h));
            let o = Options { pairs: vec![pair.clone()], ..options(32, PlacementKind::Paper) };
            match bake(&o, &mut |_, _, _| {}) {
                Ok(_) => assert!(ok, "{w}x{h}"),
                Err(Error::NotMultiple { path, size, tile }) => {
                    assert!(!ok, "{w}x{h}");
                    assert_eq!((path, size, tile), (pair.height, (w, h), 32));
                }
                Err(e) => panic!("{w}x{h}: {e}"),
            }
        }
        let pair = write_pair(d.path(), "q", GrayImage::new(64, 32), RgbImage::new(32, 64));
        let o = Options { pairs: vec![pair], ..options(32, PlacementKind::Paper) };
        assert!(matches!(
            bake(&o, &mut |_, _, _| {}),
            Err(Error::SizeMismatch { hsize: (64, 32), tsize: (32, 64), .. })
        ));
    }
}
