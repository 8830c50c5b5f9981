//! Tile banks in the ROM: bake -> pack -> boot, and a corrupt packed bank gets
//! an error screen and a log line, not a crash.

use e2e::{rom, root};
use mgba_test_runner::{Level, RunConfig, run};
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
}

#[test]
fn corrupt_packed_bank_shows_an_error_screen() {
    let base = rom("terrain");
    let mut packed = tilebake::pack::pack("terrain.gba".as_ref(), &base, &other_bank()).unwrap();
    let n = packed.len();
    packed[n - 100] ^= 0x40; // a texel byte: the CRC no longer matches
    let report = run(&packed, &RunConfig { frames: 90, ..Default::default() }).unwrap();
    report.verdict().expect("no panic, no bad memory access");
    let err = report.log.iter().find(|l| l.text.starts_with("bad tile bank")).expect("error line");
    assert_eq!(err.level, Level::Error);
    assert!(err.text.contains("checksum mismatch"), "{}", err.text);
    let frame = report.last_frame.as_ref().unwrap();
    assert_eq!(frame.pixel(200, 150), 12, "the error screen's red background");
    assert!(!report.lines().any(|l| l.starts_with("world ")), "the ROM went on with a bad bank");
}
