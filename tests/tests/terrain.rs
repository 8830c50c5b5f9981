//! The terrain core on the GBA: the same seed gives the same world on the host
//! and on the GBA, bit for bit; the GBA's window agrees with its lookup.

use e2e::run_rom;
use mgba_test_runner::{KeyScript, RunConfig};
use terrain::World;

/// `(seed, tiles, fingerprint)` from the ROM's `world seed=0x... tiles=N ... fingerprint=0x...` lines.
fn worlds(lines: &[String]) -> Vec<(u32, u16, u32)> {
    let hex = |line: &str, key: &str| -> Option<u32> {
        let v = line.split_whitespace().find_map(|w| w.strip_prefix(key))?;
        u32::from_str_radix(v.trim_start_matches("0x"), 16).ok()
    };
    lines
        .iter()
        .filter(|l| l.starts_with("world "))
        .map(|l| {
            let tiles = l.split_whitespace().find_map(|w| w.strip_prefix("tiles=")).expect("tiles").parse().unwrap();
            (hex(l, "seed=").expect("seed"), tiles, hex(l, "fingerprint=").expect("fingerprint"))
        })
        .collect()
}

#[test]
fn gba_worlds_equal_host_worlds() {
    // START twice: three worlds, the later seeds chosen by the ROM.
    let keys: KeyScript = "1:,21:START,25:,41:START,45:".parse().unwrap();
    let report = run_rom("terrain", RunConfig { frames: 70, keys, ..Default::default() });
    report.verdict().unwrap();
    let lines: Vec<String> = report.lines().map(str::to_string).collect();
    let seen = worlds(&lines);
    assert_eq!(seen.len(), 3, "expected three worlds in {lines:?}");
    assert_eq!(seen[0].0, 1, "first seed");
    let bank = bank::parse(e2e::default_bank()).expect("default bank");
    for (seed, tiles, gba) in seen {
        assert_eq!(tiles as usize, bank.tile_count());
        let host = World::for_bank(seed, &bank).unwrap().fingerprint();
        assert_eq!(gba, host, "seed {seed:#x}: GBA fingerprint {gba:#x}, host {host:#x}");
    }
}

#[test]
fn bench_rom_checks_pass_and_speed_has_not_collapsed() {
    let (report, _) = e2e::run_checks("bench_terrain", &e2e::rom("bench_terrain"), "bench terrain: done", 20_000);
    let cycles = |pattern: &str| -> u64 {
        let line = report.lines().find(|l| l.contains(pattern)).unwrap_or_else(|| panic!("no line with {pattern}"));
        let v = line.split_whitespace().find_map(|w| w.strip_prefix("cycles=")).unwrap();
        v.parse().unwrap()
    };
    // Generous guards (about 4x the measured figures in BENCHMARKS.md): they
    // catch a hot loop falling out of IWRAM/ARM, not small regressions.
    assert!(cycles("impl=ours name=rebuild tile_size=16 ") < 250_000);
    assert!(cycles("impl=ours name=row ") < 6_000);
    assert!(cycles("impl=ours name=column ") < 8_000);
    assert!(cycles("impl=corners name=rebuild tile_size=16 ") < 600_000);
    assert!(cycles("impl=corners name=row ") < 10_000);
    assert!(cycles("impl=corners name=column ") < 10_000);
}

/// Flying across tiles in the map view: the window scrolls a row or a column
/// at a time (never a rebuild), and the map on screen moves with it.
#[test]
fn flying_scrolls_the_window_incrementally() {
    let keys: KeyScript = "21:SELECT,25:,29:SELECT,33:UP".parse().unwrap();
    let report = run_rom("terrain", RunConfig { frames: 400, keys, ..Default::default() });
    report.verdict().unwrap();
    let frames: Vec<_> = report.lines().filter(|l| l.starts_with("frame n=")).map(e2e::fields).collect();
    let updates: Vec<u32> = frames.iter().map(|f| f["window_tiles"].parse().unwrap()).filter(|t| *t > 0).collect();
    assert!(updates.len() >= 3, "only {} window updates in the flight", updates.len());
    assert!(updates.iter().all(|t| t % 64 == 0 && *t < 64 * 64), "a rebuild or a partial update: {updates:?}");
    assert!(frames.last().unwrap()["view"] == "2", "the flight ends in the map view");
    let keys: KeyScript = "21:SELECT,25:,29:SELECT,33:".parse().unwrap();
    let still = run_rom("terrain", RunConfig { frames: 400, keys, ..Default::default() });
    let (differing, _) = report.last_frame.unwrap().diff(&still.last_frame.unwrap());
    assert!(differing > 1000, "only {differing} pixels of the map moved");
}
