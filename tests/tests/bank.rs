//! Tile banks in the ROM: bake -> pack -> boot, and a corrupt packed bank gets
//! an error screen and a log line, not a crash.

use bank::Scan;
use e2e::{actual_dir, golden, rom, root};
use mgba_test_runner::{GoldenMode, Level, RunConfig, check_golden, run};
use tilebake::Options;

/// The default assets baked with 16-texel tiles instead of 32, 24 colours.
fn other_bank() -> Vec<u8> {
    let mut options = Options::from_manifest(&root().join("assets/terrain.toml")).unwrap();
    options.tile_size = 16;
    options.colours = 24;
    tilebake::bake(&options, &mut |_, _, _| {}).unwrap().bytes
}

#[test]
fn built_in_bank_is_used_by_default() {
    let report = run(&rom("terrain"), &RunConfig { frames: 60, ..Default::default() }).unwrap();
    report.verdict().unwrap();
    let line = report.lines().find(|l| l.starts_with("bank ")).expect("bank line");
    assert!(line.starts_with("bank BuiltIn: 248 tiles of 32 px"), "{line}");
}

#[test]
fn packed_bank_is_found_and_used() {
    let base = rom("terrain");
    let bank = other_bank();
    let packed = tilebake::pack::pack("terrain.gba".as_ref(), &base, &bank).unwrap();
    gbarom::check_header(&packed).unwrap();
    // Packing twice replaces the first bank instead of growing the ROM.
    let again = tilebake::pack::pack("packed.gba".as_ref(), &packed, &bank).unwrap();
    assert_eq!(again, packed);
    let report = run(&packed, &RunConfig { frames: 90, ..Default::default() }).unwrap();
    report.verdict().unwrap();
    let line = report.lines().find(|l| l.starts_with("bank ")).expect("bank line");
    let colours = bank::parse(&bank).unwrap().palette_len();
    assert!(
        line.starts_with("bank Packed(") && line.contains(&format!(": 248 tiles of 16 px, {colours} colours")),
        "{line}"
    );
    // Its relief file, packed after it, is loaded, not built from every texel.
    let slope = voxel::flight::Relief::of(&bank::parse(&bank).unwrap()).slope();
    let line = report.lines().find(|l| l.starts_with("relief:")).expect("relief line");
    assert!(
        line.starts_with("relief: packed, loaded in ") && line.ends_with(&format!("floor slope {slope}")),
        "{line}"
    );
}

/// A relief file after a packed bank that is another bank's (a ROM packed
/// by hand, or a bank swapped in its place) is refused with an error line
/// and the relief built from the bank instead: the flight goes on.
#[test]
fn a_packed_relief_of_another_bank_is_refused_and_built() {
    let bank = other_bank();
    let mut packed = tilebake::pack::pack("terrain.gba".as_ref(), &rom("terrain"), &bank).unwrap();
    let slot = bank::slot::Slot::read(&packed[tilebake::pack::find_slots(&packed)[0]..]).unwrap();
    let at = bank::slot::relief_offset(slot.offset, slot.len) as usize;
    let default_relief = tilebake::pack::relief_after(e2e::default_bank()).unwrap();
    packed[at..].copy_from_slice(&default_relief);
    let report = run(&packed, &RunConfig { frames: 90, ..Default::default() }).unwrap();
    report.verdict().unwrap();
    let err = report.log.iter().find(|l| l.text.starts_with("relief (packed) refused")).expect("refusal");
    assert_eq!(err.level, Level::Error);
    assert!(err.text.contains("another bank"), "{}", err.text);
    let line = report.lines().find(|l| l.starts_with("relief:")).expect("relief line");
    assert!(line.contains(" texels in "), "{line}");
    assert!(report.lines().any(|l| l.starts_with("frame n=")), "no frame drawn");
}

#[test]
fn corrupt_packed_bank_shows_an_error_screen() {
    let base = rom("terrain");
    let mut packed = tilebake::pack::pack("terrain.gba".as_ref(), &base, &other_bank()).unwrap();
    let slot = bank::slot::Slot::read(&packed[tilebake::pack::find_slots(&packed)[0]..]).unwrap();
    let end = (slot.offset + slot.len) as usize;
    packed[end - 100] ^= 0x40; // a texel byte: the CRC no longer matches
    let report = run(&packed, &RunConfig { frames: 90, ..Default::default() }).unwrap();
    report.verdict().expect("no panic, no bad memory access");
    let err = report.log.iter().find(|l| l.text.starts_with("bad tile bank")).expect("error line");
    assert_eq!(err.level, Level::Error);
    assert!(err.text.contains("checksum mismatch"), "{}", err.text);
    let frame = report.last_frame.as_ref().unwrap();
    assert_eq!(frame.pixel(200, 150), 12, "the error screen's red background");
    assert!(!report.lines().any(|l| l.starts_with("world ")), "the ROM went on with a bad bank");
}

/// A packed bank with bytes after it (a file with junk appended, packed by
/// the library, which takes the bytes as given): the slot's length covers
/// them, and the ROM refuses the bank as the host tools do.
#[test]
fn packed_bank_with_bytes_after_it_shows_an_error_screen() {
    let mut junk = other_bank();
    junk.extend(b"JUNKJUNK");
    let packed = tilebake::pack::pack("terrain.gba".as_ref(), &rom("terrain"), &junk).unwrap();
    let report = run(&packed, &RunConfig { frames: 90, ..Default::default() }).unwrap();
    report.verdict().expect("no panic, no bad memory access");
    let err = report.log.iter().find(|l| l.text.starts_with("bad tile bank")).expect("error line");
    assert!(err.text.contains("the rest is not part of it"), "{}", err.text);
    let frame = report.last_frame.as_ref().unwrap();
    assert_eq!(frame.pixel(200, 150), 12, "the error screen's red background");
    assert!(!report.lines().any(|l| l.starts_with("world ")), "the ROM went on with a bad bank");
    // The message wraps between words, not inside them (the golden's text
    // rows: the title, the message, the advice).
    let picture = frame.crop(0, 0, 240, 72);
    check_golden(&picture, &golden("bad-bank.png"), &actual_dir(), GoldenMode::from_env()).unwrap();
}

/// The ROM's fast scans (slicing-by-4 CRC in ARM code, word-at-a-time colour
/// maximum) give what the portable ones give (`bank::crc32`, the `crc` crate;
/// a plain loop) on pseudo-random data at every alignment, in the emulator;
/// and read ROM (the example's first 16 KB) at a few cycles a byte.
#[test]
fn fast_scans_equal_the_portable_ones() {
    let gba = rom("crc_check");
    let config = RunConfig { frames: 600, stop_on: Some("crc check: done".into()), ..Default::default() };
    let report = run(&gba, &config).unwrap();
    report.verdict().unwrap();
    // The example's data: xorshift32 from 0x12345678, one byte a step.
    let mut x: u32 = 0x1234_5678;
    let data: Vec<u8> = (0..70_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let (mut crcs, mut maxima) = (0, 0);
    for line in report.lines() {
        let f = e2e::fields(line);
        let num = |k: &str| f[k].parse::<usize>().unwrap();
        if line.starts_with("crc offset=") {
            let bytes = &data[num("offset")..num("offset") + num("len")];
            assert_eq!(f["value"], format!("{:#010x}", bank::crc32(bytes)), "{line}");
            crcs += 1;
        } else if line.starts_with("colours offset=") {
            let bytes = &data[num("offset")..num("offset") + num("len")];
            assert_eq!(num("max") as u8, bank::PortableScan.max_colour(bytes), "{line}");
            maxima += 1;
        }
    }
    assert_eq!((crcs, maxima), (88, 44));
    let line = report.lines().find(|l| l.starts_with("rom len=16384")).expect("speed line");
    let f = e2e::fields(line);
    assert_eq!(f["crc"], format!("{:#010x}", bank::crc32(&gba[..16_384])), "{line}");
    let per_byte = |k: &str| f[k].parse::<f64>().unwrap();
    // The byte-wise loop this replaced took about 23 cycles a byte for both.
    assert!(per_byte("crc_per_byte") < 8.0 && per_byte("colours_per_byte") < 3.0, "{line}");
}

/// A large packed bank (8 MB: 256 tiles of 128 texels) is checked at a few
/// cycles a byte, with a progress screen meanwhile (not a silent black one),
/// and flown.
#[test]
fn a_large_bank_is_checked_quickly_with_progress_on_screen() {
    // Gentle random hills: a height per 16 texels, and 8 colours.
    let bytes = e2e::large_tile_bank(256, 0x2545_F491, |t, x, y| ((t * 37 + (y / 16) * 11 + (x / 16) * 7) % 64) as u8);
    assert!(bytes.len() > 8 << 20);
    let packed = tilebake::pack::pack("terrain.gba".as_ref(), &rom("terrain"), &bytes).unwrap();
    let dir = std::env::temp_dir().join(format!("e2e-large-bank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shots: Vec<(u32, std::path::PathBuf)> =
        (1..40).map(|k| (k * 25, dir.join(format!("{}.png", k * 25)))).collect();
    let config = RunConfig {
        frames: 1000,
        screenshots: shots.clone(),
        stop_on: Some("frame n=3 ".into()),
        ..Default::default()
    };
    let report = run(&packed, &config).unwrap();
    report.verdict().unwrap();
    let checked = report.log.iter().find(|l| l.text.starts_with("bank Packed(")).expect("bank line");
    let loaded = report.log.iter().find(|l| l.text.starts_with("loading:")).expect("loading line");
    assert!(checked.text.contains(": 256 tiles of 128 px, 8 colours"), "{}", checked.text);
    assert!(loaded.text.ends_with("progress shown true"), "{}", loaded.text);
    // "... checked in N cycles (T cycles per byte: crc C, colours K)".
    let words: Vec<&str> = checked.text.split([' ', '(', ',', ')']).filter(|w| !w.is_empty()).collect();
    let after = |w: &str| words[words.iter().rposition(|x| *x == w).unwrap() + 1].parse::<f64>().unwrap();
    let all = words[words.iter().position(|x| *x == "cycles").unwrap() + 1].parse::<f64>().unwrap();
    let (crc, colours) = (after("crc"), after("colours"));
    println!("{}\n{}", checked.text, loaded.text);
    // The CRC's tables are in object VRAM (about 8.2 cycles a byte; 7.2 from
    // IWRAM, 12.7 from EWRAM).
    assert!(crc < 9.0 && colours < 3.0 && all < 12.0, "{}", checked.text);
    // While loading, the screen shows the progress screen, its bar growing.
    let ui = voxel::palette::build(&[], &voxel::palette::Mood::PLAIN);
    let yellow = ui[voxel::palette::ui::BOUNDARY as usize];
    let mut bars = Vec::new();
    for (f, path) in shots.iter().filter(|(f, _)| *f > 10 && *f < loaded.frame) {
        let frame = mgba_test_runner::Frame::load_png(path).unwrap();
        let lit = frame.pixels().iter().filter(|&&p| p != 0).count();
        assert!(lit > 30_000, "frame {f}: the screen is black while the bank is checked");
        bars.push(frame.pixels().iter().filter(|&&p| p == yellow).count());
    }
    if std::env::var_os("KEEP").is_none() {
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(bars.len() >= 5, "loading took only {} frames", loaded.frame);
    assert!(bars.windows(2).all(|w| w[0] <= w[1]) && bars.last() > bars.first(), "the bar does not grow: {bars:?}");
}
