//! Bookmarks in SRAM survive power-off; blank, corrupt and torn saves are
//! detected and never trusted; an interrupted write keeps the previous one.

use e2e::{fields, rom};
use mgba_test_runner::{KeyScript, RunConfig, RunReport, run};

fn boot(keys: &str, frames: u32, save: Option<Vec<u8>>) -> RunReport {
    let config = RunConfig { frames, keys: keys.parse::<KeyScript>().unwrap(), save, ..Default::default() };
    let report = run(&rom("terrain"), &config).unwrap();
    report.verdict().unwrap();
    report
}

fn line<'a>(report: &'a RunReport, prefix: &str) -> Option<&'a str> {
    report.lines().filter(|l| l.starts_with(prefix)).last()
}

/// The camera and seed words of a `bookmark ...` line.
fn place(line: &str) -> Vec<(String, String)> {
    let f = fields(line);
    ["seed", "x", "y", "z", "heading", "pitch"].iter().map(|k| (k.to_string(), f[k].to_string())).collect()
}

/// Flies, bookmarks (SELECT + START), flies on, and returns the run.
fn fly_and_bookmark(save: Option<Vec<u8>>) -> RunReport {
    boot("1:UP+RIGHT,91:SELECT,95:SELECT+START,99:,101:UP", 140, save)
}

#[test]
fn a_bookmark_survives_power_off() {
    let first = fly_and_bookmark(None);
    let saved = line(&first, "bookmark saved:").expect("saved line");
    assert!(saved.contains("slot 0 sequence 1"), "{saved}");
    assert!(!first.save.is_empty(), "no SRAM came back");
    let second = boot("", 40, Some(first.save.clone()));
    let resumed = line(&second, "bookmark resumed:").expect("resumed line");
    assert!(resumed.contains("slot 0 sequence 1"), "{resumed}");
    assert_eq!(place(saved), place(resumed));
    // The resumed world is the bookmarked one.
    let world = line(&second, "world seed=").unwrap();
    assert_eq!(fields(world)["seed"], fields(saved)["seed"]);
}

#[test]
fn blank_and_garbage_saves_are_ignored() {
    for (what, sram) in [("blank", vec![0xFF; 32768]), ("zeros", vec![0; 32768]), ("garbage", garbage())] {
        let r = boot("", 40, Some(sram));
        assert!(line(&r, "bookmark resumed:").is_none(), "{what}: resumed from nothing");
        let slots = line(&r, "bookmark slots:").unwrap();
        assert!(slots.contains("Err("), "{what}: {slots}");
        assert!(line(&r, "world seed=0x00000001").is_some(), "{what}: not the first world");
    }
}

fn garbage() -> Vec<u8> {
    let mut x: u32 = 0x1234_5678;
    (0..32768)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // A valid magic in slot 0, to reach the checksum check.
            if i < 4 {
                b"TBMK"[i]
            } else if (4..6).contains(&i) {
                [1, 0][i - 4]
            } else {
                x as u8
            }
        })
        .collect()
}

#[test]
fn a_torn_write_keeps_the_previous_bookmark() {
    // Two bookmarks: sequence 1 in slot 0, sequence 2 (after a new world) in slot 1.
    let first = fly_and_bookmark(None);
    let second = boot("1:UP,41:START,45:UP,101:SELECT,105:SELECT+START,109:", 140, Some(first.save.clone()));
    let saved = line(&second, "bookmark saved:").unwrap();
    assert!(saved.contains("slot 1 sequence 2"), "{saved}");
    let newest = boot("", 40, Some(second.save.clone()));
    assert!(line(&newest, "bookmark resumed:").unwrap().contains("slot 1 sequence 2"));
    // Power fails in the middle of writing slot 1: its checksum no longer matches.
    let mut torn = second.save.clone();
    torn[64 + 20] ^= 0x5A;
    let r = boot("", 40, Some(torn));
    let resumed = line(&r, "bookmark resumed:").expect("the older bookmark");
    assert!(resumed.contains("slot 0 sequence 1"), "{resumed}");
    assert!(line(&r, "bookmark slots:").unwrap().contains("Err(Checksum)"));
    assert_eq!(place(resumed), place(line(&first, "bookmark saved:").unwrap()));
}
