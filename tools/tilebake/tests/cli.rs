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
    fails(&o, "no/such/dir/x.bank", "cannot write", &out);
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
    for sub in ["bake", "inspect", "preview", "pack", "generate", "world", "seams"] {
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
    std::fs::write(d.path("m.toml"), "tile_size = 32\nbogus = 1\n").unwrap();
    let out = d.path("x.bank");
    let o = tilebake(&["bake", "--manifest", &d.s("m.toml"), "-o", &out.display().to_string()]);
    fails(&o, "m.toml", "bogus", &out);
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
