//! The command line, end to end: every bad input gets one line naming the file
//! and the problem, exit status 2, and no output file.

use image::{DynamicImage, GrayImage, ImageBuffer, Luma, Rgb, RgbImage, Rgba, RgbaImage};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tilebake(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebake")).args(args).env("RUST_BACKTRACE", "1").output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    fn s(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}

/// A smooth 8-bit heightmap and a two-colour texture, `w` x `h`.
fn pair(dir: &Dir, w: u32, h: u32) -> (String, String) {
    GrayImage::from_fn(w, h, |x, y| Luma([((x * 3 + y * 5) % 256) as u8])).save(dir.path("h.png")).unwrap();
    RgbImage::from_fn(w, h, |x, y| if (x / 8 + y / 8) % 2 == 0 { Rgb([20, 120, 40]) } else { Rgb([200, 190, 150]) })
        .save(dir.path("t.png"))
        .unwrap();
    (dir.s("h.png"), dir.s("t.png"))
}

/// Asserts a clean failure: status 2, one line naming `file` and containing
/// `problem`, no backtrace, and `output` not created.
fn fails(o: &Output, file: &str, problem: &str, output: &Path) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "more than one line: {err}");
    assert!(err.contains(file), "does not name {file}: {err}");
    assert!(err.contains(problem), "does not say `{problem}`: {err}");
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    assert!(!output.exists(), "{} was written", output.display());
}

#[test]
fn bakes_and_is_deterministic() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let out1 = d.s("a.bank");
    let out2 = d.s("b.bank");
    for out in [&out1, &out2] {
        let o = tilebake(&[
            "bake",
            "--height",
            &h,
            "--texture",
            &t,
            "--tile-size",
            "16",
            "--placement",
            "paper",
            "-o",
            out,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let (a, b) = (std::fs::read(&out1).unwrap(), std::fs::read(&out2).unwrap());
    assert_eq!(a, b, "two bakes of the same inputs differ");
    let bank = bank::parse(&a).unwrap();
    assert_eq!(bank.tile_size(), 16);
    assert!(bank.palette_len() <= 52);
    // 16 tiles cut; the heightmap pattern repeats, so some are duplicates.
    assert!(bank.tile_count() <= 16);
    let inspect = tilebake(&["inspect", &out1]);
    let text = String::from_utf8_lossy(&inspect.stdout);
    assert!(text.contains("16x16 texels") && text.contains("1024^2 px") && text.contains("CRC-32"), "{text}");
    assert!(text.contains("placement: paper") && text.contains("height scale"), "{text}");
}

#[test]
fn every_png_kind_is_accepted_and_16_bit_keeps_precision() {
    let d = Dir::new();
    // 16-bit heightmap whose steps are below 8-bit resolution: 257 apart.
    ImageBuffer::<Luma<u16>, _>::from_fn(32, 32, |x, _| Luma([x as u16 * 2056 + 128])).save(d.path("h16.png")).unwrap();
    RgbaImage::from_fn(32, 32, |x, _| Rgba([x as u8 * 8, 100, 50, 128])).save(d.path("rgba.png")).unwrap();
    // A paletted (indexed) PNG, written with the png crate.
    {
        let f = std::fs::File::create(d.path("indexed.png")).unwrap();
        let mut enc = png::Encoder::new(f, 32, 32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(vec![255, 0, 0, 0, 255, 0, 0, 0, 255]);
        let mut w = enc.write_header().unwrap();
        let data: Vec<u8> = (0..32 * 32).map(|i| (i % 3) as u8).collect();
        w.write_image_data(&data).unwrap();
    }
    for tex in ["rgba.png", "indexed.png"] {
        let out = d.s("out.bank");
        let o = tilebake(&[
            "bake",
            "--height",
            &d.s("h16.png"),
            "--texture",
            &d.s(tex),
            "--tile-size",
            "32",
            "--placement",
            "paper",
            "-o",
            &out,
        ]);
        assert!(o.status.success(), "{tex}: {}", stderr(&o));
        let bytes = std::fs::read(&out).unwrap();
        let bank = bank::parse(&bytes).unwrap();
        // x * 2056 + 128 of 65535 -> round(x * 8.0) in 8 bits.
        let heights: Vec<u8> = (0..32).map(|x| bank.texel(0, x, 0).0).collect();
        let want: Vec<u8> = (0..32u32).map(|x| (((x * 2056 + 128) * 255 + 32767) / 65535) as u8).collect();
        assert_eq!(heights, want, "{tex}");
    }
}

/// A paletted PNG whose pixels name entries past its palette (which the
/// decoder would draw black, silently) is refused, at 8 and 4 bits a pixel.
#[test]
fn palette_indices_past_the_palette_are_refused() {
    let d = Dir::new();
    let (h, _) = pair(&d, 32, 32);
    for (depth, bits, bad) in [(png::BitDepth::Eight, 8, 7u8), (png::BitDepth::Four, 4, 5u8)] {
        let name = format!("indexed{bits}.png");
        let f = std::fs::File::create(d.path(&name)).unwrap();
        let mut enc = png::Encoder::new(f, 32, 32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(depth);
        enc.set_palette(vec![255, 0, 0, 0, 255, 0, 0, 0, 255]);
        let mut w = enc.write_header().unwrap();
        // Pixel (9, 30) names entry `bad`; the rest 0..3.
        let mut pixels: Vec<u8> = (0..32 * 32).map(|i| (i % 3) as u8).collect();
        pixels[30 * 32 + 9] = bad;
        let data: Vec<u8> = if bits == 8 { pixels } else { pixels.chunks(2).map(|p| p[0] << 4 | p[1]).collect() };
        w.write_image_data(&data).unwrap();
        drop(w);
        let out = d.path("out.bank");
        let o = tilebake(&[
            "bake",
            "--height",
            &h,
            "--texture",
            &d.s(&name),
            "--placement",
            "paper",
            "-o",
            &d.s("out.bank"),
        ]);
        fails(&o, &name, &format!("pixel index {bad} is past its palette of 3 colours"), &out);
    }
}

#[test]
fn not_a_png() {
    let d = Dir::new();
    let (h, _) = pair(&d, 32, 32);
    std::fs::write(d.path("fake.png"), b"this is text, not a picture").unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--height", &h, "--texture", &d.s("fake.png"), "-o", &out.display().to_string()]);
    fails(&o, "fake.png", "not a PNG file", &out);
}

#[test]
fn corrupt_and_truncated_png() {
    let d = Dir::new();
    let (h, t) = pair(&d, 32, 32);
    let good = std::fs::read(&t).unwrap();
    std::fs::write(d.path("cut.png"), &good[..good.len() / 2]).unwrap();
    let mut bad = good.clone();
    let n = bad.len();
    for b in &mut bad[n / 2..n / 2 + 16] {
        *b ^= 0x5A;
    }
    std::fs::write(d.path("bad.png"), &bad).unwrap();
    for name in ["cut.png", "bad.png"] {
        let out = d.path("x.bank");
        let o = tilebake(&["bake", "--height", &h, "--texture", &d.s(name), "-o", &out.display().to_string()]);
        fails(&o, name, "corrupt or truncated PNG", &out);
    }
}

#[test]
fn sizes_must_match_and_divide() {
    let d = Dir::new();
    let (h, _) = pair(&d, 64, 64);
    RgbImage::new(32, 64).save(d.path("narrow.png")).unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--height", &h, "--texture", &d.s("narrow.png"), "-o", &out.display().to_string()]);
    fails(&o, "narrow.png", "must be the same size", &out);

    let (h, t) = pair(&d, 48, 48);
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "32", "-o", &out.display().to_string()]);
    fails(&o, "h.png", "not a multiple of the tile size 32", &out);
}

#[test]
fn unsupported_tile_size() {
    let d = Dir::new();
    let (h, t) = pair(&d, 48, 48);
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "24", "-o", &out.display().to_string()]);
    fails(&o, "24", "not supported", &out);
}

#[test]
fn too_many_distinct_tiles() {
    let d = Dir::new();
    // 256 x 256 of noise in 8 px tiles: 1024 distinct tiles.
    let mut x: u32 = 1;
    let noise = GrayImage::from_fn(256, 256, |_, _| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        Luma([x as u8])
    });
    DynamicImage::ImageLuma8(noise).save(d.path("noise.png")).unwrap();
    RgbImage::new(256, 256).save(d.path("t.png")).unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&[
        "bake",
        "--height",
        &d.s("noise.png"),
        "--texture",
        &d.s("t.png"),
        "--tile-size",
        "8",
        "--placement",
        "paper",
        "-o",
        &out.display().to_string(),
    ]);
    fails(&o, "1024 distinct tiles", "try --tile-size 16", &out);
}

#[test]
fn unwritable_output() {
    let d = Dir::new();
    let (h, t) = pair(&d, 32, 32);
    let out = d.path("no/such/dir/x.bank");
    let o =
        tilebake(&["bake", "--height", &h, "--texture", &t, "--placement", "paper", "-o", &out.display().to_string()]);
    // Before the bake's work, naming the missing directory.
    fails(&o, "no/such/dir/x.bank", "cannot write: the directory", &out);
    assert!(stderr(&o).trim_end().ends_with("no/such/dir does not exist"), "{}", stderr(&o));
    // In words, naming the user's file, not the hidden temporary one.
    let err = stderr(&o);
    assert!(!err.contains(".tilebake-") && !err.contains("os error"), "{err}");
}

#[test]
fn unknown_options_and_unpaired_inputs() {
    let o = tilebake(&["bake", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--bogus"), "{}", stderr(&o));
    let d = Dir::new();
    let (h, _) = pair(&d, 32, 32);
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--height", &h, "-o", &out.display().to_string()]);
    fails(&o, "1 heightmap(s)", "give them in pairs", &out);
}

#[test]
fn help_shows_an_example_for_each_subcommand() {
    for sub in ["bake", "inspect", "preview", "pack", "generate", "world", "seams", "relief"] {
        let o = tilebake(&[sub, "--help"]);
        assert!(o.status.success());
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("Example") && text.contains(&format!("tilebake {sub}")), "{sub}: {text}");
    }
}

#[test]
fn inspect_rejects_a_corrupt_bank_by_name() {
    let d = Dir::new();
    let (h, t) = pair(&d, 32, 32);
    let out = d.s("a.bank");
    assert!(tilebake(&["bake", "--height", &h, "--texture", &t, "--placement", "paper", "-o", &out]).status.success());
    let mut bytes = std::fs::read(&out).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 1;
    std::fs::write(d.path("bad.bank"), &bytes).unwrap();
    let o = tilebake(&["inspect", &d.s("bad.bank")]);
    fails(&o, "bad.bank", "checksum mismatch", &d.path("never"));
}

#[test]
fn generate_then_preview() {
    let d = Dir::new();
    let o = tilebake(&["generate", "--seed", "3", "--size", "128", "-o", &d.s("gen")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (h, t) = (d.s("gen/height.png"), d.s("gen/texture.png"));
    assert_eq!(image::open(&h).unwrap().color(), image::ColorType::L16);
    let out = d.s("gen.bank");
    let o =
        tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "32", "--placement", "paper", "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilebake(&["preview", &out, "-o", &d.s("pv"), "--tiles", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let map = image::open(d.path("pv-map.png")).unwrap();
    assert_eq!((map.width(), map.height()), (128, 128));
    assert!(d.path("pv-tiles.png").exists());
    // Same seed, same pictures.
    let o = tilebake(&["generate", "--seed", "3", "--size", "128", "-o", &d.s("gen2")]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(&t).unwrap(), std::fs::read(d.path("gen2/texture.png")).unwrap());
    let o = tilebake(&["generate", "--size", "100", "-o", &d.s("gen3")]);
    fails(&o, "100", "multiple of 128", &d.path("gen3/height.png"));
}

#[test]
fn manifest_errors_name_the_file() {
    let d = Dir::new();
    let out = d.path("x.bank");
    for (text, says) in [
        ("tile_size = 32\nbogus = 1\n", "bogus"),
        // An empty path names the pair and the key, not "": cannot read.
        ("[[pair]]\nheight = \"\"\ntexture = \"t.png\"\n", "pair 1: height is empty"),
        // Options the paper's placement does not use are refused, not ignored.
        ("placement = \"paper\"\nclasses = 2\n", "classes: applies to placement = \"corners\" only"),
        ("placement = \"paper\"\norientations = \"all\"\n", "orientations: applies to placement"),
        // One bracket for the pair's table: say what to type.
        (
            "tile_size = 32\n[pair]\nheight = \"h.png\"\ntexture = \"t.png\"\n",
            "line 2: [pair] is one table; each pair is written [[pair]]",
        ),
    ] {
        std::fs::write(d.path("m.toml"), text).unwrap();
        let o = tilebake(&["bake", "--manifest", &d.s("m.toml"), "-o", &out.display().to_string()]);
        fails(&o, "m.toml", says, &out);
    }
}

/// On the command line too: `--classes` and `--orientations` with the
/// paper's placement are refused (grit's silent ignoring is what we avoid).
#[test]
fn corner_options_with_the_paper_placement_are_refused() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let out = d.path("x.bank");
    for (flag, value) in [("--classes", "2"), ("--orientations", "all")] {
        let o = tilebake(&[
            "bake",
            "--placement",
            "paper",
            flag,
            value,
            "--height",
            &h,
            "--texture",
            &t,
            "-o",
            &d.s("x.bank"),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            format!("tilebake: error: {flag} applies to --placement corners only: drop it or the placement\n")
        );
        assert!(!out.exists());
    }
}

/// A manifest need not give the tile size: 32, as on the command line.
#[test]
fn a_manifest_without_tile_size_bakes_32() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let text = format!("[[pair]]\nheight = {h:?}\ntexture = {t:?}\n");
    std::fs::write(d.path("m.toml"), text).unwrap();
    let o = tilebake(&["bake", "--manifest", &d.s("m.toml"), "-o", &d.s("x.bank")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(bank::parse(&std::fs::read(d.path("x.bank")).unwrap()).unwrap().tile_size(), 32);
}

/// Standard output that cannot take the output (a full disk, a closed pipe)
/// is an error in one line, not a panic; and arguments that are not UTF-8
/// still get the usual usage error.
#[cfg(unix)]
#[test]
fn unwritable_standard_output_and_non_utf8_arguments_are_errors_not_panics() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let bank = small_bank(&d);
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tilebake")).args(["inspect", &bank]).stdout(full).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tilebake: error: standard output: cannot write: the disk is full\n");
    let name = std::ffi::OsStr::from_bytes(b"h\xff.png");
    let o = Command::new(env!("CARGO_BIN_EXE_tilebake")).arg("bake").arg("--height").arg(name).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("tilebake: error: ") && err.contains("--output") && err.trim_end().lines().count() == 1,
        "{err}"
    );
}

#[test]
fn interlaced_pngs_are_accepted() {
    // Adam7 fixtures, written by tests/fixtures/make_interlaced.py.
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let d = Dir::new();
    let out = d.s("i.bank");
    let o = tilebake(&[
        "bake",
        "--height",
        &fixtures.join("interlaced16.png").display().to_string(),
        "--texture",
        &fixtures.join("interlaced.png").display().to_string(),
        "--tile-size",
        "32",
        "--placement",
        "paper",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let bank = bank::parse(&bytes).unwrap();
    let heights: Vec<u8> = (0..32).map(|x| bank.texel(0, x, 5).0).collect();
    let want: Vec<u8> = (0..32u32).map(|x| (((x * 2056 + 128) * 255 + 32767) / 65535) as u8).collect();
    assert_eq!(heights, want, "16-bit interlaced heights decoded in the right places");
}

/// A corner set from a generated map, through the command line: baked, then
/// pictured whole with `world`, and measured by `seams`.
#[test]
fn corner_bake_world_and_seams() {
    let d = Dir::new();
    assert!(tilebake(&["generate", "--seed", "2", "--size", "512", "-o", &d.s("gen")]).status.success());
    let out = d.s("c.bank");
    let o = tilebake(&["bake", "--height", &d.s("gen/height.png"), "--texture", &d.s("gen/texture.png"), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let bank = bank::parse(&bytes).unwrap();
    assert!(matches!(bank.placement(), bank::Placement::Corners(c) if c.classes == 3));
    assert_eq!(bank.tile_count(), 31 * 8);
    let o = tilebake(&["world", &out, "--seed", "5", "--tiles", "6", "-o", &d.s("w")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let height = image::open(d.path("w/height.png")).unwrap();
    let colour = image::open(d.path("w/colour.png")).unwrap();
    assert_eq!((height.width(), height.height(), height.color()), (192, 192, image::ColorType::L8));
    assert_eq!((colour.width(), colour.color()), (192, image::ColorType::Rgb8));
    // The pictures are the world: tile (0, 0) of seed 5 at texel (3, 4).
    let world = terrain::World::for_bank(5, &bank).unwrap();
    let (h, c) = bank.texel(world.tile_at(0, 0) as usize, 3, 4);
    assert_eq!(height.to_luma8().get_pixel(3, 4)[0], h);
    assert_eq!(colour.to_rgb8().get_pixel(3, 4).0, tilebake::preview::rgb(bank.colour(c as usize)).0);
    let o = tilebake(&["seams", &out, "--tiles", "8"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && text.contains("height_step_ratio") && text.contains("neighbour_correlation"),
        "{text}"
    );
}

/// Inputs too small or too flat for a corner set: one line naming them and
/// saying what to do; options out of range are refused.
#[test]
fn corner_sets_need_a_big_enough_varied_source() {
    let d = Dir::new();
    let (h, t) = pair(&d, 32, 32);
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "16", "-o", &out.display().to_string()]);
    fails(&o, "h.png + ", "cannot build a corner tile set", &out);
    assert!(stderr(&o).contains("--tile-size") || stderr(&o).contains("--classes 2"), "{}", stderr(&o));
    // One tile (32 texels at the default size): said as such, not as too
    // little relief, which --classes 2 would not mend.
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "-o", &out.display().to_string()]);
    fails(&o, "h.png + ", "two tiles or more across, and this is one tile of 32 texels", &out);
    assert!(stderr(&o).contains("smaller --tile-size"), "{}", stderr(&o));
    GrayImage::from_pixel(128, 128, Luma([40])).save(d.path("flat.png")).unwrap();
    RgbImage::new(128, 128).save(d.path("t128.png")).unwrap();
    let o = tilebake(&[
        "bake",
        "--height",
        &d.s("flat.png"),
        "--texture",
        &d.s("t128.png"),
        "--tile-size",
        "16",
        "-o",
        &out.display().to_string(),
    ]);
    fails(&o, "flat.png", "relief", &out);
    for (opt, v, msg) in [
        ("--classes", "4", "outside 2..=3"),
        ("--height-scale", "20", "outside"),
        ("--seam-band", "2", "--placement paper"),
    ] {
        let o = tilebake(&["bake", "--height", &h, "--texture", &t, opt, v, "-o", &out.display().to_string()]);
        fails(&o, v, msg, &out);
    }
    let o = tilebake(&["world", "nope.bank", "--tiles", "65", "-o", &d.s("w")]);
    fails(&o, "65", "outside 1..=64", &d.path("w/height.png"));
}

/// Asserts that `dir` holds no temporary file of ours.
fn no_temporaries(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with(".tilebake-"), "temporary file {name} left in {}", dir.display());
    }
}

/// A small paper bank, for the commands that read one.
fn small_bank(d: &Dir) -> String {
    let (h, t) = pair(d, 64, 64);
    let out = d.s("small.bank");
    let o =
        tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "16", "--placement", "paper", "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// `tilebake relief` writes the relief `Relief::build` would make on the
/// GBA, which loads with its own bank and no other; a corrupt bank, or the
/// bank itself as the output, is refused in one line with nothing written.
#[test]
fn relief_files_load_with_their_own_bank_only() {
    use voxel::flight::{Relief, ReliefFileError};
    let d = Dir::new();
    let path = small_bank(&d);
    let out = d.s("small.relief");
    let o = tilebake(&["relief", &path, "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (file, bytes) = (std::fs::read(&out).unwrap(), std::fs::read(&path).unwrap());
    let own = bank::parse(&bytes).unwrap();
    let mut loaded = Relief::new();
    assert_eq!(loaded.load_file(&own, &file), Ok(()));
    let built = Relief::of(&own);
    assert_eq!((loaded.tops(), loaded.top_px(), loaded.slope()), (built.tops(), built.top_px(), built.slope()));
    assert!(built.top_px() > 0, "the test bank has relief");

    let flat = bank::encode(&bank::Contents {
        tile_size: 16,
        palette: &[0, 0x7FFF],
        tiles: &[bank::texel(7, 1); 16 * 16],
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap();
    let other = bank::parse(&flat).unwrap();
    let refused = Relief::new().load_file(&other, &file);
    assert!(matches!(refused, Err(ReliefFileError::OtherBank { .. })), "{refused:?}");
    let mut bad = file.clone();
    bad[0] = b'X';
    assert_eq!(Relief::new().load_file(&own, &bad), Err(ReliefFileError::Magic));

    let mut corrupt = bytes.clone();
    let n = corrupt.len();
    corrupt[n - 3] ^= 1;
    std::fs::write(d.path("bad.bank"), &corrupt).unwrap();
    let o = tilebake(&["relief", &d.s("bad.bank"), "-o", &d.s("bad.relief")]);
    fails(&o, "bad.bank", "checksum mismatch", &d.path("bad.relief"));
    // A relief file given where a bank goes: named for what it is.
    let o = tilebake(&["inspect", &out]);
    fails(&o, "small.relief", "not a tile bank but a relief file", &d.path("never"));
    let o = tilebake(&["relief", &path, "-o", &path]);
    fails(&o, "small.bank", "would overwrite an input", &d.path("never"));
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the bank was overwritten");
    no_temporaries(d.0.path());
}

/// Every numeric option has a range; outside it, one line naming the option
/// and the range, before any work (preview --tiles 100000 used to try to
/// allocate 30 TB; seams --tiles 0 printed a meaningless ratio).
#[test]
fn numeric_options_out_of_range_are_refused_in_one_line() {
    let d = Dir::new();
    let bank = small_bank(&d);
    let (h, t) = pair(&d, 64, 64);
    let (pv, w, g, x) = (d.s("pv"), d.s("w"), d.s("g"), d.s("x.bank"));
    let bake = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["bake", "--height", &h, "--texture", &t, "-o", &x].map(String::from).to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let own = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (own(&["preview", &bank, "-o", &pv, "--tiles", "100000"]), "--tiles 100000", "1..=64"),
        (own(&["preview", &bank, "-o", &pv, "--tiles", "1000"]), "--tiles 1000", "1..=64"),
        (own(&["preview", &bank, "-o", &pv, "--tiles", "0"]), "--tiles 0", "1..=64"),
        (own(&["seams", &bank, "--tiles", "100000"]), "--tiles 100000", "4..=64"),
        (own(&["seams", &bank, "--tiles", "0"]), "--tiles 0", "4..=64"),
        (own(&["world", &bank, "--tiles", "0", "-o", &w]), "--tiles 0", "1..=64"),
        (own(&["generate", "--size", "100000", "-o", &g]), "--size 100000", "128..=4096"),
        (own(&["generate", "--size", "0", "-o", &g]), "--size 0", "128..=4096"),
        (bake(&["--colours", "1"]), "--colours 1", "2..=52"),
        (bake(&["--colours", "53"]), "--colours 53", "2..=52"),
        (bake(&["--tile-size", "4294967295"]), "--tile-size 4294967295", "8, 16, 32, 64 or 128"),
        (bake(&["--classes", "1"]), "--classes 1", "2..=3"),
        (bake(&["--height-scale", "0"]), "--height-scale 0", "0.0625..=8"),
        (bake(&["--height-scale", "NaN"]), "--height-scale NaN", "0.0625..=8"),
        (bake(&["--placement", "paper", "--seam-band", "17"]), "--seam-band 17", "0..=16"),
        (bake(&["--placement", "paper", "--seam-band", "4294967295"]), "--seam-band 4294967295", "0..=16"),
        (bake(&["--placement", "paper", "--tile-size", "8", "--seam-band", "5"]), "--seam-band 5", "0..=4"),
        // Past a u32 either way: the option's own range, the value as typed
        // (not clap's `0..=4294967295`).
        (bake(&["--tile-size", "-8"]), "--tile-size -8", "8, 16, 32, 64 or 128"),
        (bake(&["--tile-size", "99999999999"]), "--tile-size 99999999999", "8, 16, 32, 64 or 128"),
        (bake(&["--colours", "-1"]), "--colours -1", "2..=52"),
        (bake(&["--classes", "4294967296"]), "--classes 4294967296", "2..=3"),
        (bake(&["--placement", "paper", "--seam-band", "-2"]), "--seam-band -2", "0..=16"),
        (own(&["preview", &bank, "-o", &pv, "--tiles", "-3"]), "--tiles -3", "1..=64"),
        (own(&["seams", &bank, "--tiles", "99999999999"]), "--tiles 99999999999", "4..=64"),
        (own(&["world", &bank, "--tiles", "-1", "-o", &w]), "--tiles -1", "1..=64"),
        (own(&["generate", "--size", "-128", "-o", &g]), "--size -128", "128..=4096"),
    ];
    for (args, option, range) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = tilebake(&args);
        for out in [d.path("pv-tiles.png"), d.path("pv-map.png"), d.path("w"), d.path("g"), d.path("x.bank")] {
            fails(&o, option, range, &out);
        }
    }
    // The same ranges in a manifest name the manifest and the key.
    std::fs::write(
        d.path("m.toml"),
        "tile_size = 32\ncolours = 99\n[[pair]]\nheight = \"h.png\"\ntexture = \"t.png\"\n",
    )
    .unwrap();
    let o = tilebake(&["bake", "--manifest", &d.s("m.toml"), "-o", &x]);
    fails(&o, "m.toml: colours = 99", "2..=52", &d.path("x.bank"));
}

/// Two outputs, the second of which cannot be written (a directory has its
/// name): the first is not left behind, nor any temporary file.
#[test]
fn a_failed_command_leaves_no_partial_output() {
    let d = Dir::new();
    let bank = small_bank(&d);
    std::fs::create_dir(d.path("pv-map.png")).unwrap();
    let o = tilebake(&["preview", &bank, "-o", &d.s("pv")]);
    fails(&o, "pv-map.png", "it is a directory", &d.path("pv-tiles.png"));

    std::fs::create_dir_all(d.path("gen/texture.png")).unwrap();
    let o = tilebake(&["generate", "--size", "128", "-o", &d.s("gen")]);
    fails(&o, "texture.png", "it is a directory", &d.path("gen/height.png"));
    assert!(d.path("gen").is_dir(), "a directory the command did not make was removed");

    std::fs::create_dir_all(d.path("w/colour.png")).unwrap();
    let o = tilebake(&["world", &bank, "--tiles", "2", "-o", &d.s("w")]);
    fails(&o, "colour.png", "it is a directory", &d.path("w/height.png"));
    for dir in [d.0.path().to_path_buf(), d.path("gen"), d.path("w")] {
        no_temporaries(&dir);
    }
}

/// A full disk, simulated with a file size limit (works as root, needs no
/// mount): the first write fails, and the directory `generate` made for its
/// outputs is removed again.
#[cfg(unix)]
#[test]
fn a_failed_generate_removes_the_directory_it_made() {
    let d = Dir::new();
    let out = d.path("new/sub");
    // SIGXFSZ ignored, so the write fails with EFBIG instead of killing tilebake;
    // an ignored signal stays ignored across exec.
    let o = Command::new("sh")
        .args(["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_tilebake")])
        .args(["generate", "--size", "128", "-o", &out.display().to_string()])
        .output()
        .unwrap();
    fails(&o, "new/sub/height.png", "cannot write", &d.path("new"));
    assert!(stderr(&o).contains("too large"), "{}", stderr(&o));
    no_temporaries(d.0.path());
}

/// 256 x 256 of noise: 8 px tiles are too many; the advice is a tile size
/// the images divide into and that surely fits.
#[test]
fn too_many_tiles_advice_is_a_size_that_fits() {
    let d = Dir::new();
    noise_heightmap(256, 256).save(d.path("noise.png")).unwrap();
    RgbImage::new(256, 256).save(d.path("t.png")).unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&[
        "bake",
        "--height",
        &d.s("noise.png"),
        "--texture",
        &d.s("t.png"),
        "--tile-size",
        "8",
        "--placement",
        "paper",
        "-o",
        &out.display().to_string(),
    ]);
    fails(&o, "noise.png + ", "try --tile-size 16 (the images make 256 tiles of 16 px)", &out);
}

fn noise_heightmap(w: u32, h: u32) -> GrayImage {
    let mut x: u32 = 1;
    GrayImage::from_fn(w, h, |_, _| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        Luma([x as u8])
    })
}

/// At 128 px, the largest tile size, the advice used to be `--tile-size
/// 128`, the size in use: now smaller images or the corner placement.
#[test]
fn too_many_tiles_at_128_px_advises_what_can_work() {
    let d = Dir::new();
    // 17 x 16 tiles of 128 px, all different.
    noise_heightmap(2176, 2048).save(d.path("noise.png")).unwrap();
    RgbImage::new(2176, 2048).save(d.path("t.png")).unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&[
        "bake",
        "--height",
        &d.s("noise.png"),
        "--texture",
        &d.s("t.png"),
        "--tile-size",
        "128",
        "--placement",
        "paper",
        "-o",
        &out.display().to_string(),
    ]);
    fails(&o, "noise.png + ", "272 distinct tiles of 128 px", &out);
    let err = stderr(&o);
    assert!(!err.contains("--tile-size"), "advises a tile size that cannot help: {err}");
    assert!(err.contains("smaller") && err.contains("leave out --placement paper"), "{err}");
}

/// The paper placement's tile count is checked before the colours are
/// quantised (an 8192^2 refusal took 36 s of quantising first).
#[test]
fn too_many_tiles_are_refused_before_quantising() {
    let d = Dir::new();
    noise_heightmap(256, 256).save(d.path("noise.png")).unwrap();
    RgbImage::from_fn(256, 256, |x, y| Rgb([x as u8, y as u8, (x ^ y) as u8])).save(d.path("t.png")).unwrap();
    let options = tilebake::Options {
        tile_size: 8,
        colours: 52,
        pairs: vec![tilebake::Pair { height: d.path("noise.png"), texture: d.path("t.png") }],
        placement: tilebake::PlacementKind::Paper,
        classes: 3,
        orientations: Default::default(),
        seam_band: 2,
        height_scale: Default::default(),
    };
    let mut stages = Vec::new();
    let e = tilebake::bake(&options, &mut |s, _, _| stages.push(s.to_string())).unwrap_err();
    assert!(matches!(e, tilebake::Error::TooManyTiles { .. }), "{e}");
    assert!(stages.contains(&"counting tiles".to_string()), "{stages:?}");
    assert!(!stages.iter().any(|s| s == "palette" || s == "cutting tiles"), "quantised first: {stages:?}");
}

/// A texture over the quantiser's training sample (2^18 pixels) with more
/// colours than the palette: the sample is fixed, so bakes stay identical,
/// and every palette colour is used.
#[test]
fn sampled_quantiser_is_deterministic_and_its_palette_all_used() {
    const { assert!(640 * 640 > tilebake::bake::MAX_TRAINING_PIXELS) };
    let d = Dir::new();
    GrayImage::from_fn(640, 640, |x, y| Luma([((x / 7 + y / 5) % 256) as u8])).save(d.path("h.png")).unwrap();
    RgbImage::from_fn(640, 640, |x, y| Rgb([(x * 255 / 639) as u8, (y * 255 / 639) as u8, ((x + y) % 256) as u8]))
        .save(d.path("t.png"))
        .unwrap();
    let mut banks = Vec::new();
    for name in ["a.bank", "b.bank"] {
        let o = tilebake(&[
            "bake",
            "--height",
            &d.s("h.png"),
            "--texture",
            &d.s("t.png"),
            "--tile-size",
            "128",
            "--placement",
            "paper",
            "-o",
            &d.s(name),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        banks.push(std::fs::read(d.path(name)).unwrap());
    }
    assert_eq!(banks[0], banks[1], "two bakes of the same inputs differ");
    let bank = bank::parse(&banks[0]).unwrap();
    assert!(bank.palette_len() > 40 && bank.palette_len() <= 52, "{} colours", bank.palette_len());
    assert_eq!(used_colours(&bank), bank.palette_len(), "unused palette colours");
}

/// How many distinct colour indices the bank's texels use.
fn used_colours(bank: &bank::Bank<'_>) -> usize {
    let n = bank.tile_size();
    let mut used = std::collections::BTreeSet::new();
    for t in 0..bank.tile_count() {
        for y in 0..n {
            for x in 0..n {
                used.insert(bank.texel(t, x, y).1);
            }
        }
    }
    used.len()
}

/// Usage errors are one line with where to read more (they were 3 to 7).
#[test]
fn usage_errors_are_one_line() {
    let o = tilebake(&["bake", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tilebake: error: unexpected argument '--bogus' (see tilebake bake --help)\n");
    for (args, says) in [
        (&["bake", "--heigth", "h.png"][..], "'--height'"),
        (&["bake", "--height", "h.png"][..], "--output"),
        (&["bak"][..], "'bake'"),
        (&["preview", "x.bank", "-o", "p", "--tiles", "many"][..], "--tiles"),
    ] {
        let o = tilebake(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tilebake: error: ") && err.contains(says) && err.contains("--help)"), "{err}");
        assert!(!err.contains("Usage:"), "{err}");
    }
}

/// PNGs damaged in ways the decoder describes with Rust debug text (`Chunk
/// ChunkType { type: IHDR, critical: true, .. } must appear at most once`):
/// the message comes out in words.
#[test]
fn decode_errors_are_words() {
    let d = Dir::new();
    let (h, t) = pair(&d, 32, 32);
    let png = std::fs::read(&t).unwrap();
    let chunk = |kind: &[u8], data: &[u8]| {
        let body = [kind, data].concat();
        [&(data.len() as u32).to_be_bytes()[..], &body, &bank::crc32(&body).to_be_bytes()].concat()
    };
    // Every chunk again, the first byte of IDAT data flipped, checksums right.
    let mut zlib = png[..8].to_vec();
    let mut i = 8;
    while i < png.len() {
        let len = u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
        let kind = &png[i + 4..i + 8];
        let mut data = png[i + 8..i + 8 + len].to_vec();
        if kind == b"IDAT" {
            data[0] ^= 0xFF;
        }
        zlib.extend_from_slice(&chunk(kind, &data));
        i += 12 + len;
    }
    std::fs::write(d.path("zlib.png"), &zlib).unwrap();
    // IHDR twice.
    let ihdr_len = u32::from_be_bytes(png[8..12].try_into().unwrap()) as usize;
    let twice = [&png[..8], &png[8..20 + ihdr_len], &png[8..]].concat();
    std::fs::write(d.path("twice.png"), &twice).unwrap();
    // A text chunk before IHDR.
    let early = [&png[..8], &chunk(b"tEXt", b"a\0b"), &png[8..]].concat();
    std::fs::write(d.path("early.png"), &early).unwrap();
    // IDAT's name damaged (a byte past ASCII: the decoder shows it raw).
    let at = png.windows(4).position(|w| w == b"IDAT").unwrap();
    let mut renamed = png.clone();
    renamed[at + 3] = 0xAB;
    std::fs::write(d.path("renamed.png"), &renamed).unwrap();
    for (name, words) in [
        ("zlib.png", "the compressed pixel data is damaged"),
        ("twice.png", "chunk IHDR must appear at most once"),
        ("early.png", "tEXt chunk appeared before IHDR chunk"),
        ("renamed.png", "a chunk this decoder does not know is marked needed (IDA?)"),
    ] {
        let x = d.path("x.bank");
        let o = tilebake(&["bake", "--height", &h, "--texture", &d.s(name), "-o", &x.display().to_string()]);
        fails(&o, name, words, &x);
        let err = stderr(&o);
        assert!(!err.contains('{') && !err.contains("ChunkType") && !err.contains("os error"), "{err}");
    }
}

/// `bake -o x.png --height x.png` used to overwrite its own input.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let before = std::fs::read(&h).unwrap();
    std::fs::create_dir(d.path("sub")).unwrap();
    let roundabout = d.path("sub/../h.png").display().to_string();
    for out in [h.clone(), roundabout] {
        let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--placement", "paper", "-o", &out]);
        fails(&o, &out, "would overwrite an input", &d.path("never"));
        assert_eq!(std::fs::read(&h).unwrap(), before, "the input changed");
    }
    let bank = small_bank(&d);
    let before = std::fs::read(&bank).unwrap();
    let o = tilebake(&["pack", &d.s("rom.gba"), &bank, "-o", &bank]);
    fails(&o, "small.bank", "would overwrite an input", &d.path("never"));
    assert_eq!(std::fs::read(&bank).unwrap(), before);
}

/// A one-colour texture gave 19 colours, 18 of them unused greys: the
/// palette holds only the colours the texels use.
#[test]
fn the_palette_holds_only_used_colours() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    RgbImage::from_pixel(64, 64, Rgb([90, 140, 60])).save(d.path("one.png")).unwrap();
    for (texture, colours) in [(d.s("one.png"), 1), (t, 2)] {
        let out = d.s("x.bank");
        let o = tilebake(&["bake", "--height", &h, "--texture", &texture, "--placement", "paper", "-o", &out]);
        assert!(o.status.success(), "{}", stderr(&o));
        let bytes = std::fs::read(&out).unwrap();
        let bank = bank::parse(&bytes).unwrap();
        assert_eq!(bank.palette_len(), colours, "{texture}");
        assert_eq!(used_colours(&bank), colours);
    }
    // A corner set from a generated map (joins may make colours of their own).
    assert!(tilebake(&["generate", "--seed", "4", "--size", "256", "-o", &d.s("gen")]).status.success());
    let out = d.s("c.bank");
    let o = tilebake(&["bake", "--height", &d.s("gen/height.png"), "--texture", &d.s("gen/texture.png"), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let bank = bank::parse(&bytes).unwrap();
    assert_eq!(used_colours(&bank), bank.palette_len());
}

/// An RGB heightmap is read as its luminance, and tilebake says so.
#[test]
fn a_colour_heightmap_gets_a_note() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let out = d.s("x.bank");
    let o = tilebake(&["bake", "--height", &t, "--texture", &t, "--placement", "paper", "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let note = format!("tilebake: note: {t} is a colour image; heights are its luminance");
    assert!(stderr(&o).contains(&note), "{}", stderr(&o));
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--placement", "paper", "-o", &out]);
    assert!(o.status.success() && !stderr(&o).contains("note"), "{}", stderr(&o));
}

/// A ROM with a valid header and a bank slot: `title` and game `code`.
fn rom(title: &[u8], code: &[u8; 4]) -> Vec<u8> {
    let mut rom = vec![0u8; 0x400];
    rom[0x04..0xA0].copy_from_slice(&gbarom::LOGO);
    rom[0xA0..0xA0 + title.len()].copy_from_slice(title);
    rom[0xAC..0xB0].copy_from_slice(code);
    rom[0xB2] = 0x96;
    rom[0xBD] = rom[0xA0..0xBD].iter().fold(0u8, |c, b| c.wrapping_sub(*b)).wrapping_sub(0x19);
    rom[0x200..0x208].copy_from_slice(b"TBNKSLOT");
    rom
}

/// `pack` took the test ROMs too (they carry the slot): only the product
/// ROM (title TERRAIN, game code ZTRE) is accepted.
#[test]
fn pack_takes_only_the_terrain_rom() {
    let d = Dir::new();
    let bank = small_bank(&d);
    std::fs::write(d.path("terrain.gba"), rom(b"TERRAIN", b"ZTRE")).unwrap();
    let o = tilebake(&["pack", &d.s("terrain.gba"), &bank, "-o", &d.s("mine.gba")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let packed = std::fs::read(d.path("mine.gba")).unwrap();
    assert_eq!(&packed[..0x200], &rom(b"TERRAIN", b"ZTRE")[..0x200], "the header changed");
    for (name, title, code) in [
        ("bench.gba", &b"T-BENCH_TERR"[..], b"ZTRE"),
        ("other.gba", &b"TERRAIN"[..], b"ABCD"),
        ("tx.gba", b"TERRAINX", b"ZTRE"),
    ] {
        std::fs::write(d.path(name), rom(title, code)).unwrap();
        let out = d.path("out.gba");
        let o = tilebake(&["pack", &d.s(name), &bank, "-o", &out.display().to_string()]);
        fails(&o, name, "not the terrain ROM", &out);
    }
    // An output in a directory that does not exist: named as such.
    let out = d.path("nodir/mine.gba");
    let o = tilebake(&["pack", &d.s("terrain.gba"), &bank, "-o", &out.display().to_string()]);
    fails(&o, "mine.gba", "does not exist", &out);
}

/// Packing again replaces the bank packed before (after the slot, followed
/// by nothing or padding); a slot whose numbers point anywhere else (at the
/// slot itself, into the code, past the end) drops nothing.
#[test]
fn repacking_replaces_only_a_bank_packed_before() {
    let d = Dir::new();
    let bank = std::fs::read(small_bank(&d)).unwrap();
    let base = rom(b"TERRAIN", b"ZTRE");
    let path = Path::new("terrain.gba");
    let slot = 0x200;
    let once = tilebake::pack::pack(path, &base, &bank).unwrap();
    // Everything but the slot's two words, as it was.
    let (words, end) = (slot + bank::slot::OFFSET_AT, slot + bank::slot::LEN);
    assert_eq!((&once[..words], &once[end..base.len()]), (&base[..words], &base[end..]));
    // The bank where the slot says, then its relief file, 4-aligned.
    let relief = tilebake::pack::relief_after(&bank).expect("a whole bank");
    let s = bank::slot::Slot::read(&once[slot..]).unwrap();
    let (at, r) = (s.offset as usize, bank::slot::relief_offset(s.offset, s.len) as usize);
    assert_eq!((s.len as usize, &once[at..at + bank.len()], &once[r..]), (bank.len(), &bank[..], &relief[..]));
    assert_eq!(tilebake::pack::pack(path, &once, &bank).unwrap(), once, "the old bank was not replaced");
    // Padded after packing, as flashers do (0xFF or 0x00 to a power of two):
    // the padding goes with the old bank.
    for fill in [0xFF, 0x00] {
        let mut padded = once.clone();
        padded.resize(once.len().next_power_of_two(), fill);
        assert_eq!(tilebake::pack::pack(path, &padded, &bank).unwrap(), once, "padded with {fill:#x}");
    }
    for (offset, len) in [(slot, base.len() - slot), (slot + 0x10, 0x10), (0x100, 0x300), (base.len(), 4)] {
        let mut odd = base.clone();
        let (off_at, len_at) = (slot + bank::slot::OFFSET_AT, slot + bank::slot::LEN_AT);
        odd[off_at..off_at + 4].copy_from_slice(&(offset as u32).to_le_bytes());
        odd[len_at..len_at + 4].copy_from_slice(&(len as u32).to_le_bytes());
        let packed = tilebake::pack::pack(path, &odd, &bank).unwrap();
        assert_eq!(packed.len(), once.len(), "offset {offset:#x}, length {len:#x}");
        assert_eq!(&packed[end..base.len()], &base[end..], "offset {offset:#x}, length {len:#x}");
    }
}

/// A packed bank's relief file may spell the slot marker too (block tops
/// of "TBNKSLOT"): it is no second slot either, and the ROM packs again.
#[test]
fn a_marker_inside_a_packed_relief_is_no_slot() {
    // Tile 0's first eight blocks (8 x 8 texels of 32) topped by the marker's bytes.
    let mut tiles = vec![bank::texel(1, 1); 32 * 32];
    for (i, &b) in bank::slot::MAGIC.iter().enumerate() {
        let (bx, by) = (i % 4, i / 4);
        tiles[(by * 8) * 32 + bx * 8] = bank::texel(b, 1);
    }
    let bytes = bank::encode(&bank::Contents {
        tile_size: 32,
        palette: &[0, 0x7FFF],
        tiles: &tiles,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap();
    let relief = tilebake::pack::relief_after(&bytes).unwrap();
    assert_eq!(&relief[12..20], &bank::slot::MAGIC, "the relief spells the marker");
    let path = Path::new("terrain.gba");
    let once = tilebake::pack::pack(path, &rom(b"TERRAIN", b"ZTRE"), &bytes).unwrap();
    assert_eq!(bank::slot::find(&once).len(), 2);
    assert_eq!(tilebake::pack::find_slots(&once), [0x200]);
    assert_eq!(tilebake::pack::pack(path, &once, &bytes).unwrap(), once);
}

/// A packed ROM may fill the cartridge's 32 MB to the byte, not one more.
#[test]
fn pack_refuses_a_rom_over_32_mb() {
    let d = Dir::new();
    let bank = std::fs::read(small_bank(&d)).unwrap();
    let max = tilebake::pack::MAX_ROM;
    let mut rom = rom(b"TERRAIN", b"ZTRE");
    let path = Path::new("big.gba");
    // What packing adds: the bank and its relief file.
    let added = tilebake::pack::pack(path, &rom, &bank).unwrap().len() - rom.len();
    rom.resize(max - added, 0);
    assert_eq!(tilebake::pack::pack(path, &rom, &bank).unwrap().len(), max);
    rom.resize(max - added + 1, 0); // one byte more: padded to 4, then the bank
    let e = tilebake::pack::pack(path, &rom, &bank).unwrap_err();
    assert!(matches!(e, tilebake::Error::RomTooBig { size, .. } if size == max + 4), "{e}");
}

/// A bank that parses (checksum, thresholds strictly increasing) but whose
/// class thresholds are too close for the world's grid cannot make a world:
/// `world`, `preview` and `seams` refuse it in one line naming it, and write
/// nothing.
#[test]
fn a_bank_that_cannot_make_a_world_is_refused_by_name() {
    let d = Dir::new();
    let configs = [bank::ConfigTiles { first: 0, count: 1 }; bank::CONFIGS];
    let bytes = bank::encode(&bank::Contents {
        tile_size: 8,
        palette: &[0x7FFF],
        tiles: &[bank::texel(3, 0); 64],
        placement: bank::Placement::Corners(bank::Corners { classes: 3, thresholds: [100, 101, 0], configs }),
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap();
    bank::parse(&bytes).expect("the bank itself parses");
    std::fs::write(d.path("close.bank"), &bytes).unwrap();
    let o = tilebake(&["world", &d.s("close.bank"), "-o", &d.s("w")]);
    fails(&o, "close.bank", "cannot make a world", &d.path("w"));
    let o = tilebake(&["preview", &d.s("close.bank"), "-o", &d.s("p")]);
    fails(&o, "close.bank", "cannot make a world", &d.path("p-map.png"));
    assert!(!d.path("p-tiles.png").exists());
    let o = tilebake(&["seams", &d.s("close.bank")]);
    fails(&o, "close.bank", "cannot make a world", &d.path("never"));
    // Nor does `inspect` call it good, or `pack` put it in a ROM the ROM
    // would show its error screen for; the advice is what a bank's author
    // can do.
    let o = tilebake(&["inspect", &d.s("close.bank")]);
    fails(
        &o,
        "close.bank",
        "bake it again (tilebake keeps the classes that wide) or with --classes 2",
        &d.path("never"),
    );
    std::fs::write(d.path("base.gba"), rom(b"TERRAIN", b"ZTRE")).unwrap();
    let o = tilebake(&["pack", &d.s("base.gba"), &d.s("close.bank"), "-o", &d.s("out.gba")]);
    fails(&o, "close.bank", "cannot make a world", &d.path("out.gba"));
}

/// Hostile files and paths: a palette the `png` crate panics on, a header
/// asking for a huge image, a bank with junk after it, a name with a
/// newline, a FIFO as the output, negative numbers. Each gets one line, no
/// panic, and nothing is written or replaced.
#[test]
fn hostile_inputs_get_one_line_and_change_nothing() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let x = d.path("x.bank");
    let xs = x.display().to_string();
    let chunk = |kind: &[u8], data: &[u8]| {
        let body = [kind, data].concat();
        [&(data.len() as u32).to_be_bytes()[..], &body, &bank::crc32(&body).to_be_bytes()].concat()
    };
    let ihdr = |w: u32, h: u32, colour: u8| [&w.to_be_bytes()[..], &h.to_be_bytes(), &[8, colour, 0, 0, 0]].concat();
    let png = |chunks: &[Vec<u8>]| [&b"\x89PNG\r\n\x1a\n"[..], &chunks.concat()].concat();
    let idat = chunk(b"IDAT", &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    let iend = chunk(b"IEND", &[]);
    // A palette of 4 bytes (not whole colours): the decoder would panic.
    let pal = png(&[chunk(b"IHDR", &ihdr(64, 64, 3)), chunk(b"PLTE", &[0; 4]), idat.clone(), iend.clone()]);
    std::fs::write(d.path("pal.png"), pal).unwrap();
    let o = tilebake(&["bake", "--height", &d.s("pal.png"), "--texture", &t, "-o", &xs]);
    fails(&o, "pal.png", "the palette (PLTE chunk) is 4 bytes", &x);
    // 16384 x 16384 pixels claimed by a file of a few bytes: refused before decoding.
    let huge = png(&[chunk(b"IHDR", &ihdr(16384, 16384, 0)), idat, iend]);
    std::fs::write(d.path("huge.png"), huge).unwrap();
    let o = tilebake(&["bake", "--height", &d.s("huge.png"), "--texture", &t, "-o", &xs]);
    fails(&o, "huge.png", "16384 x 16384 pixels is more than tilebake takes", &x);
    // Junk after a bank.
    let bank = small_bank(&d);
    let mut long = std::fs::read(&bank).unwrap();
    long.extend(b"JUNK");
    std::fs::write(d.path("long.bank"), &long).unwrap();
    let o = tilebake(&["inspect", &d.s("long.bank")]);
    fails(&o, "long.bank", "the rest is not part of it", &x);
    // A newline in a name stays on the line, escaped.
    let o = tilebake(&["inspect", &d.s("a\nb.bank")]);
    fails(&o, "a\\nb.bank", "no such file", &x);
    // Negative numbers are values, refused by their range.
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--height-scale", "-2", "-o", &xs]);
    fails(&o, "--height-scale -2", "is outside", &x);
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "-1", "-o", &xs]);
    fails(&o, "--tile-size -1", "use 8, 16, 32, 64 or 128", &x);
    // A FIFO as the output is refused and stays a FIFO.
    let fifo = d.path("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = tilebake(&["bake", "--height", &h, "--texture", &t, "--placement", "paper", "-o", &d.s("fifo")]);
    fails(&o, "fifo", "not a regular file", &x);
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
    no_temporaries(d.0.path());
}

/// `seams --tiles` is bounded by texels too: 64 tiles of 128 texels would
/// measure 8192 x 8192 texels (2.8 GB).
#[test]
fn seams_of_large_tiles_are_bounded() {
    let d = Dir::new();
    let (h, t) = pair(&d, 128, 128);
    let bank = d.s("big.bank");
    let o =
        tilebake(&["bake", "--height", &h, "--texture", &t, "--tile-size", "128", "--placement", "paper", "-o", &bank]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilebake(&["seams", &bank, "--tiles", "64"]);
    fails(&o, "--tiles 64", "is more than 32 tiles of 128 texels", &d.path("never"));
    let o = tilebake(&["seams", &bank, "--tiles", "32"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `preview -o DIR/` writes into the directory, named after the bank, and
/// makes a missing directory.
#[test]
fn preview_into_a_directory() {
    let d = Dir::new();
    let bank = small_bank(&d);
    for (prefix, sheet) in [("out/", "out/small-tiles.png"), ("new/sub/p", "new/sub/p-tiles.png")] {
        let o = tilebake(&["preview", &bank, "-o", &d.s(prefix), "--tiles", "4"]);
        assert!(o.status.success(), "{prefix}: {}", stderr(&o));
        assert!(d.path(sheet).exists(), "{prefix}: no {sheet}");
    }
}

/// A packed bank's own bytes may spell the slot marker (a palette of four
/// chosen colours does): it is not taken for a second slot, and the ROM
/// packs again. A ROM cut short is refused: inside or before its packed
/// bank (packing after it would keep the stub), or shorter than it was
/// built.
#[test]
fn a_marker_inside_a_packed_bank_is_no_slot_and_a_cut_bank_is_refused() {
    let d = Dir::new();
    let mut bank = std::fs::read(small_bank(&d)).unwrap();
    bank[32..40].copy_from_slice(&bank::slot::MAGIC);
    let base = rom(b"TERRAIN", b"ZTRE");
    let path = Path::new("terrain.gba");
    let once = tilebake::pack::pack(path, &base, &bank).unwrap();
    assert_eq!(bank::slot::find(&once).len(), 2, "the bank spells the marker");
    assert_eq!(tilebake::pack::find_slots(&once), [0x200]);
    assert_eq!(tilebake::pack::pack(path, &once, &bank).unwrap(), once);
    // Cut inside its relief file, inside the bank, or before it: the slot
    // says where the bank ended.
    let s = bank::slot::Slot::read(&once[0x200..]).unwrap();
    for cut in [once.len() - 10, (s.offset + s.len) as usize - 10, base.len() - 4] {
        let e = tilebake::pack::pack(path, &once[..cut], &bank).unwrap_err();
        assert!(matches!(e, tilebake::Error::CutShort { .. }), "{e}");
        assert!(e.to_string().contains("cut short"), "{e}");
    }
    // Cut at any byte past the ROM as built: refused as cut short, or (at
    // the bank's start, or in the padding before its relief) packed again
    // as if never packed; never a ROM that keeps a stub.
    for cut in base.len()..once.len() {
        match tilebake::pack::pack(path, &once[..cut], &bank) {
            Ok(again) => assert_eq!(again, once, "cut at {cut}"),
            Err(e) => assert!(matches!(e, tilebake::Error::CutShort { .. }), "cut at {cut}: {e}"),
        }
    }
    // Not packed yet: the slot holds the ROM's length as built (`cargo
    // xtask rom` stamps it), and a shorter file is refused.
    let mut stamped = base.clone();
    assert!(bank::slot::stamp_length(&mut stamped));
    assert!(tilebake::pack::pack(path, &stamped, &bank).is_ok());
    let e = tilebake::pack::pack(path, &stamped[..stamped.len() - 4], &bank).unwrap_err();
    assert!(matches!(e, tilebake::Error::Truncated { built, .. } if built == base.len()), "{e}");
}

/// A height scale the bank's 256ths cannot hold exactly is rounded, with a
/// note saying to what (0.1 became 0.102 silently); an exact one, no note.
#[test]
fn a_rounded_height_scale_gets_a_note() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let bake = |scale: &str| {
        let out = d.s(&format!("s{scale}.bank"));
        let args = ["bake", "--height", &h, "--texture", &t, "--tile-size", "16", "--placement", "paper"];
        let o = tilebake(&[&args[..], &["--height-scale", scale, "-o", &out]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    assert!(bake("0.1").contains("height scale 0.1 is stored as 26/256 = 0.1015625"), "{}", bake("0.1"));
    assert!(!bake("0.5").contains("stored as"));
}

/// One tile of one colour is counted as such ("1 tiles, 1 colours" was
/// printed).
#[test]
fn one_tile_of_one_colour_is_said_in_the_singular() {
    let d = Dir::new();
    GrayImage::from_fn(16, 16, |x, y| Luma([(x + y) as u8])).save(d.path("h.png")).unwrap();
    RgbImage::from_pixel(16, 16, Rgb([20, 120, 40])).save(d.path("t.png")).unwrap();
    let args = ["bake", "--height", &d.s("h.png"), "--texture", &d.s("t.png"), "--tile-size", "16"];
    let o = tilebake(&[&args[..], &["--placement", "paper", "-o", &d.s("one.bank")]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains(": 1 tile stored (1 cut, 0 duplicates merged), 1 colour, "), "{said}");
}

/// `preview -o` names a prefix or a directory: a pipe (as `/dev/null`, a
/// device, would be) is neither, and nothing is written beside it.
#[cfg(unix)]
#[test]
fn preview_refuses_a_pipe_for_a_prefix() {
    let d = Dir::new();
    let bank = small_bank(&d);
    let fifo = d.path("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = tilebake(&["preview", &bank, "-o", &fifo.display().to_string()]);
    fails(&o, "pipe", "not a prefix or a directory", &d.path("pipe-tiles.png"));
    assert!(!d.path("pipe-map.png").exists());
}

/// `generate` and `world` write fixed names (`height.png`, ...) into a
/// directory: each replaces its own earlier pictures, but refuses, with
/// nothing written or changed, to replace any other file there: a picture
/// of the user's, or the other command's (`generate -o .` then `world -o .`
/// once overwrote the heightmap just generated).
#[test]
fn generate_and_world_replace_only_their_own_pictures() {
    let d = Dir::new();
    let generated = d.s("g");
    for seed in ["3", "4"] {
        let o = tilebake(&["generate", "--seed", seed, "--size", "128", "-o", &generated]);
        assert!(o.status.success(), "seed {seed}: {}", stderr(&o));
    }
    let bank = small_bank(&d);
    for seed in ["1", "2"] {
        let o = tilebake(&["world", &bank, "--seed", seed, "--tiles", "2", "-o", &d.s("w")]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The user's own heightmap where each would write; then world into the
    // generated pair's directory (both with other seeds than before: a
    // write would change the other file's bytes).
    let mine = GrayImage::from_fn(128, 128, |x, _| Luma([x as u8]));
    // (args, directory, the file refused, whether it is the user's: else
    // the other command's)
    let cases: [(Vec<&str>, &str, &str, bool); 3] = [
        (vec!["generate", "--seed", "5", "--size", "128", "-o"], "g", "texture.png", true),
        (vec!["world", &bank, "--seed", "6", "--tiles", "2", "-o"], "w", "colour.png", true),
        (vec!["world", &bank, "--seed", "6", "--tiles", "2", "-o"], "g", "height.png", false),
    ];
    for (args, dir, name, users) in cases {
        if users {
            mine.save(d.path(&format!("{dir}/{name}"))).unwrap();
        }
        let path = d.path(&format!("{dir}/{name}"));
        let snapshot = || -> Vec<(String, Vec<u8>)> {
            let mut v: Vec<_> = std::fs::read_dir(d.path(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
                .collect();
            v.sort();
            v
        };
        let before = snapshot();
        let o = tilebake(&[args.as_slice(), &[&d.s(dir)]].concat());
        let err = stderr(&o);
        let command = args[0];
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        let says = format!("not a picture `tilebake {command}` wrote");
        assert!(err.contains(&path.display().to_string()) && err.contains(&says), "{err}");
        assert_eq!(snapshot(), before, "{args:?} changed {dir}/");
    }
    // A FIFO there is no picture either (and is not read: that would block).
    #[cfg(unix)]
    {
        let fifo = d.path("f/height.png");
        std::fs::create_dir(d.path("f")).unwrap();
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let o = tilebake(&["generate", "--size", "128", "-o", &d.s("f")]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not a picture `tilebake generate` wrote"), "{}", stderr(&o));
    }
}

/// Mix-ups named as such: a PNG or a ROM where a bank belongs, `-o -`
/// (standard output in many tools: no file or directory called `-` is
/// made), a file where `world` wants a directory.
#[test]
fn common_mix_ups_are_named() {
    let d = Dir::new();
    let (h, t) = pair(&d, 64, 64);
    let bank = small_bank(&d);
    let rom = d.path("r.gba");
    let mut bytes = vec![0u8; 0xC0];
    gbarom::fix_header(&mut bytes, &gbarom::Header::new("T")).unwrap();
    std::fs::write(&rom, &bytes).unwrap();
    let rom = rom.display().to_string();
    let cases: [(Vec<&str>, &str, &str); 8] = [
        (vec!["inspect", &h], &h, "not a tile bank but a PNG image"),
        (vec!["preview", &rom, "-o", "x"], "r.gba", "not a tile bank but a GBA ROM"),
        (vec!["bake", "--height", &h, "--texture", &t, "-o", "-"], "-", "not standard output"),
        (vec!["relief", &bank, "-o", "-"], "-", "not standard output"),
        (vec!["generate", "--size", "128", "-o", "-"], "-", "not standard output"),
        (vec!["world", &bank, "--tiles", "2", "-o", "-"], "-", "not standard output"),
        (vec!["preview", &bank, "-o", "-"], "-", "not standard output"),
        (vec!["world", &bank, "--tiles", "2", "-o", &bank], "small.bank", "it is a file, not a directory"),
    ];
    for (args, file, words) in cases {
        // In the scratch directory: what a relative `-o` would make lands there.
        let o = Command::new(env!("CARGO_BIN_EXE_tilebake")).args(&args).current_dir(d.0.path()).output().unwrap();
        fails(&o, file, words, &d.path("-"));
        for made in ["x-tiles.png", "x-map.png", "--tiles.png", "--map.png"] {
            assert!(!d.path(made).exists(), "{args:?} wrote {made}");
        }
    }
}
