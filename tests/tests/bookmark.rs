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

/// Whether the message box is on screen: its yellow frame across the middle
/// of rows 132 and 147, and white text between.
fn message_box(frame: &mgba_test_runner::Frame) -> bool {
    let ui = voxel::palette::build(&[], &voxel::palette::Mood::PLAIN);
    let (yellow, white) = (ui[voxel::palette::ui::BOUNDARY as usize], ui[voxel::palette::ui::WHITE as usize]);
    let edges = (100..140).all(|x| frame.pixel(x, 132) == yellow && frame.pixel(x, 147) == yellow);
    let text =
        (136..144).flat_map(|y| (60..180).map(move |x| (x, y))).filter(|&(x, y)| frame.pixel(x, y) == white).count();
    edges && text > 40
}

/// Saving and resuming say so on screen for two seconds (120 refreshes).
#[test]
fn saving_and_resuming_show_a_message() {
    let dir = std::env::temp_dir().join(format!("e2e-bookmark-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shots = |frames: &[u32]| -> Vec<(u32, std::path::PathBuf)> {
        frames.iter().map(|f| (*f, dir.join(format!("{f}.png")))).collect()
    };
    let load = |p: &std::path::Path| mgba_test_runner::Frame::load_png(p).unwrap();
    // SELECT + START at refresh 94: the message until about refresh 214.
    let first_shots = shots(&[90, 110, 200, 240]);
    let config = RunConfig {
        frames: 250,
        keys: "1:UP+RIGHT,91:SELECT,95:SELECT+START,99:,101:UP".parse::<KeyScript>().unwrap(),
        screenshots: first_shots.clone(),
        ..Default::default()
    };
    let first = run(&rom("terrain"), &config).unwrap();
    first.verdict().unwrap();
    assert!(line(&first, "message shown: BOOKMARK SAVED").is_some());
    let seen: Vec<bool> = first_shots.iter().map(|(_, p)| message_box(&load(p))).collect();
    assert_eq!(seen, [false, true, true, false], "message before, during and after the save's two seconds");
    // Power-on with the save: the resume is shown for two seconds of the flight.
    let second_shots = shots(&[30, 120, 200]);
    let config = RunConfig {
        frames: 210,
        save: Some(first.save.clone()),
        screenshots: second_shots.clone(),
        ..Default::default()
    };
    let second = run(&rom("terrain"), &config).unwrap();
    second.verdict().unwrap();
    assert!(line(&second, "message shown: BOOKMARK RESUMED").is_some());
    let seen: Vec<bool> = second_shots.iter().map(|(_, p)| message_box(&load(p))).collect();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(seen, [true, true, false], "the resume's message at boot, for two seconds");
    // Without a bookmark, no message.
    let plain = boot("", 60, None);
    assert!(line(&plain, "message shown").is_none());
}
