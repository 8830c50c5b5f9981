//! Helpers for the end-to-end tests: where the built ROMs and goldens are.
//!
//! The ROMs are built by `cargo xtask test` (or `cargo xtask rom`, and the agb
//! example by `cargo xtask example`) into
//! `target/gba/`; `TERRAIN_ROM_DIR` overrides that.

use mgba_test_runner::{RunConfig, RunReport, run};
use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// The bytes of `target/gba/<name>.gba`.
pub fn rom(name: &str) -> Vec<u8> {
    let dir = std::env::var_os("TERRAIN_ROM_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target/gba"));
    let path = dir.join(format!("{name}.gba"));
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; build the ROMs first with `cargo xtask rom` (the agb example: `cargo xtask example`)",
            path.display()
        )
    })
}

/// A golden image path under `tests/golden/`.
pub fn golden(name: &str) -> PathBuf {
    root().join("tests/golden").join(name)
}

/// Where frames that differ from their golden are saved.
pub fn actual_dir() -> PathBuf {
    root().join("target/golden-actual")
}

/// Runs ROM `name` with `config` (its actual_dir set), failing the test on a load error.
pub fn run_rom(name: &str, mut config: RunConfig) -> RunReport {
    config.actual_dir = actual_dir();
    run(&rom(name), &config).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `rom` (a test ROM's bytes, `name` for messages) until it logs a
/// line starting with `done` (at most `frames` frames), failing the test on
/// a bad verdict, on any line saying FAILED, or if it never says `done` or
/// its line does not end in "checks ok"; returns the report and that line.
pub fn run_checks(name: &str, rom: &[u8], done: &str, frames: u32) -> (RunReport, String) {
    let config = RunConfig { frames, stop_on: Some(done.into()), actual_dir: actual_dir(), ..Default::default() };
    let report = run(rom, &config).unwrap_or_else(|e| panic!("{name}: {e}"));
    report.verdict().unwrap_or_else(|e| panic!("{name}: {e}"));
    let failures: Vec<&str> = report.lines().filter(|l| l.contains("FAILED")).collect();
    assert!(failures.is_empty(), "{name}: {failures:#?}");
    let line = report.lines().find(|l| l.starts_with(done)).unwrap_or_else(|| panic!("{name}: no `{done}` line"));
    assert!(line.ends_with("checks ok"), "{name}: {line}");
    let line = line.to_string();
    (report, line)
}

/// Runs the flyable ROM with `keys` (a `KeyScript`) until it logs its frame
/// `n` (at most `frames` emulator frames), failing the test if it does not.
pub fn run_to_frame(keys: &str, n: u32, frames: u32) -> RunReport {
    let config = RunConfig {
        frames,
        keys: keys.parse::<mgba_test_runner::KeyScript>().unwrap_or_else(|e| panic!("keys {keys}: {e}")),
        stop_on: Some(format!("frame n={n} ")),
        ..Default::default()
    };
    let report = run_rom("terrain", config);
    report.verdict().unwrap_or_else(|e| panic!("keys {keys}, frame {n}: {e}"));
    let stop = format!("frame n={n} ");
    assert!(report.lines().any(|l| l.starts_with(&stop)), "keys {keys}: no frame {n} in {frames} emulator frames");
    report
}

/// A release ELF of the ROM workspace: a binary (`terrain`) or an example.
pub fn elf(name: &str, example: bool) -> PathBuf {
    let dir = root().join("target/rom/thumbv4t-none-eabi/release");
    if example { dir.join("examples").join(name) } else { dir.join(name) }
}

/// The `key=value` words of a log line.
pub fn fields(line: &str) -> std::collections::HashMap<&str, &str> {
    line.split_whitespace().filter_map(|w| w.split_once('=')).collect()
}

/// The default tile set baked as the ROM's build does (deterministic).
pub fn default_bank() -> &'static [u8] {
    static BANK: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BANK.get_or_init(|| {
        let options = tilebake::Options::from_manifest(&root().join("assets/terrain.toml")).expect("manifest");
        tilebake::bake(&options, &mut |_, _, _| {}).expect("default assets bake").bytes
    })
}

/// What the ROM logs for each frame it renders (`frame n=... x=... ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLog {
    pub n: u32,
    pub page: usize,
    pub view: u32,
    /// The column mode (`columns=120` or `240`).
    pub columns: voxel::Columns,
    pub seed: u32,
    pub camera: voxel::Camera,
}

impl FrameLog {
    /// Parses a `frame n=...` line.
    pub fn parse(line: &str) -> Option<FrameLog> {
        if !line.starts_with("frame n=") {
            return None;
        }
        let f = fields(line);
        let num = |k: &str| f.get(k)?.parse::<i64>().ok();
        let seed = u32::from_str_radix(f.get("seed")?.trim_start_matches("0x"), 16).ok()?;
        Some(FrameLog {
            n: num("n")? as u32,
            page: num("page")? as usize,
            view: num("view")? as u32,
            columns: voxel::Columns::from_count(num("columns")? as usize)?,
            seed,
            camera: voxel::Camera {
                x: num("x")? as u32,
                y: num("y")? as u32,
                z: num("z")? as i32,
                heading: num("heading")? as u16,
                pitch: num("pitch")? as i16,
            },
        })
    }

    /// What the ROM drew with: the boundary view's marks, the columns.
    pub fn options(&self) -> voxel::Options {
        voxel::Options { boundaries: self.view == 1, columns: self.columns }
    }
}

/// The host's reference render of what the ROM logged in `frame`: the same
/// world, window, bank and camera, through `voxel::render` on the host.
pub fn reference_frame(frame: &FrameLog) -> voxel::Frame {
    let bank = bank::parse(default_bank()).expect("default bank");
    let (mut world, mut window) = (Box::<terrain::World>::default(), Box::<terrain::Window<64>>::default());
    let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let mut land = voxel::Landscape::new(bank, parts, frame.seed).expect("world for the bank");
    let mut out = voxel::Frame::default();
    land.render(&frame.camera, frame.options(), &mut out);
    out
}

/// A reference frame as a picture, through the ROM's palette for the default
/// bank and the world of `seed`.
pub fn frame_image(frame: &voxel::Frame, seed: u32) -> image::RgbImage {
    let bank = bank::parse(default_bank()).expect("default bank");
    let colours: Vec<u16> = (0..bank.palette_len()).map(|i| bank.colour(i)).collect();
    let palette = voxel::palette::build(&colours, &voxel::palette::Mood::of(seed));
    let px = bank::colour::to_rgb888;
    image::RgbImage::from_fn(240, 160, |x, y| image::Rgb(px(palette[frame.0[(y * 240 + x) as usize] as usize])))
}

/// The default assets baked with the paper's placement (tiles as cut: steep
/// borders between tiles), deterministic.
pub fn paper_bank() -> &'static [u8] {
    static BANK: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BANK.get_or_init(|| {
        let mut options = tilebake::Options::from_manifest(&root().join("assets/terrain.toml")).expect("manifest");
        options.placement = tilebake::PlacementKind::Paper;
        tilebake::bake(&options, &mut |_, _, _| {}).expect("paper bake").bytes
    })
}

/// The share of the most common colour among `pixels` (1.0: all one colour).
pub fn top_colour_share<T: Copy + Eq + std::hash::Hash>(pixels: &[T]) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for p in pixels {
        *counts.entry(*p).or_insert(0usize) += 1;
    }
    counts.values().copied().max().unwrap_or(0) as f64 / pixels.len().max(1) as f64
}

/// A xorshift32 generator from `seed` (not 0): the tests' random inputs.
pub fn xorshift(mut x: u32) -> impl FnMut() -> u32 {
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}

/// A paper-placement bank of `count` tiles of 128 texels (the largest) at
/// height scale 1, 8 grey colours: texel (x, y) of tile `t` has the height
/// `height(t, x, y)` (texel units, 0..=255) plus a grain of 0..3, and a
/// random colour, both from `seed`.
pub fn large_tile_bank(count: usize, seed: u32, height: impl Fn(usize, usize, usize) -> u8) -> Vec<u8> {
    tile_bank(128, count, seed, height)
}

/// [`large_tile_bank`] with tiles of `size` texels (one of
/// `bank::TILE_SIZES`).
pub fn tile_bank(size: usize, count: usize, seed: u32, height: impl Fn(usize, usize, usize) -> u8) -> Vec<u8> {
    let mut next = xorshift(seed);
    let tiles: Vec<u16> = (0..count * size * size)
        .map(|i| {
            let (t, y, x) = (i / (size * size), i / size % size, i % size);
            let h = height(t, x, y).saturating_add((next() % 4) as u8);
            bank::texel(h, (next() % 8) as u8)
        })
        .collect();
    let palette: Vec<u16> = (0..8).map(|i| 0x0421 * (i * 3 + 4)).collect();
    bank::encode(&bank::Contents {
        tile_size: size as u16,
        palette: &palette,
        tiles: &tiles,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .expect("a valid bank")
}
