//! Ten emulated minutes (36,000 frames) of scripted flight with world changes
//! and wraps: no panic, no mGBA memory warning; the frame-time figures are
//! printed at the end (`cargo xtask test` shows them).

use e2e::{fields, run_rom};
use mgba_test_runner::{KeyScript, RunConfig};

/// A 3,000-frame pattern, repeated: cruise, turn, climb, dive, strafe, look
/// around, cycle the views, toggle the HUD, fly with 240 columns, and a new
/// world. It descends as
/// much as it climbs and levels the pitch again, so that the flight stays
/// where the ground is on screen (climbing without end, pitched up, it left
/// the ground below the screen: frames of sky only, which the renderer skips
/// and which made the frame-time figures say little).
fn script(total: u32) -> KeyScript {
    let pattern: &[(u32, &str)] = &[
        (0, "UP"),
        (600, "UP+RIGHT"),
        (700, "UP+A"),
        (900, "UP+LEFT+B"),
        (1000, "UP+L+B"),
        (1200, "SELECT+DOWN"),
        (1230, "UP"),
        (1400, "SELECT"),
        (1404, "UP"),
        (1600, "SELECT"),
        (1604, "UP+R"),
        (1800, "SELECT"),
        (1804, "L+R"),
        (1808, "UP+RIGHT+A"),
        (2000, "DOWN+B"),
        (2100, "L+R"),
        (2104, "SELECT+UP"),
        (2129, "UP"),
        (2400, "SELECT+R"),
        (2404, "UP+RIGHT"),
        (2700, "SELECT+R"),
        (2704, "UP"),
        (2900, "START"),
        (2906, "UP"),
    ];
    let mut s = KeyScript::default();
    let mut base = 0;
    while base < total {
        for (at, keys) in pattern {
            // Harness frames count from 1.
            s = s.then(base + at + 1, keys.parse().unwrap()).unwrap();
        }
        base += 3000;
    }
    s
}

#[test]
fn soak_ten_minutes() {
    let frames = 36_000;
    let start = std::time::Instant::now();
    let report = run_rom("terrain", RunConfig { frames, keys: script(frames), ..Default::default() });
    report.verdict().unwrap();
    assert_eq!(report.frames, frames);
    let lines: Vec<_> = report.lines().filter(|l| l.starts_with("frame n=")).map(fields).collect();
    let worlds = report.lines().filter(|l| l.starts_with("world ")).count();
    assert!(worlds >= 12, "only {worlds} worlds in ten minutes");
    let mut cycles: Vec<u64> = lines.iter().map(|f| f["cycles"].parse().unwrap()).collect();
    let views: std::collections::BTreeSet<&str> = lines.iter().map(|f| f["view"]).collect();
    assert_eq!(views.len(), 3, "every view was shown: {views:?}");
    let columns: std::collections::BTreeSet<&str> = lines.iter().map(|f| f["columns"]).collect();
    assert_eq!(columns.len(), 2, "both column modes were shown: {columns:?}");
    // The camera's x wrapped: it went from near the world's end to near 0.
    let xs: Vec<u64> = lines.iter().map(|f| f["x"].parse().unwrap()).collect();
    let wraps = xs.windows(2).filter(|w| w[0].abs_diff(w[1]) > 8_000 << 8).count();
    assert!(wraps > 0, "no wrap in ten minutes of flight");
    cycles.sort_unstable();
    let p = |q: f64| cycles[((cycles.len() - 1) as f64 * q) as usize];
    println!(
        "soak: {frames} refreshes, {} frames rendered, {worlds} worlds, {wraps} wraps, views {views:?}, \
         columns {columns:?}; \
         cycles per frame median {} p95 {} max {}; {:.1} s of host time",
        cycles.len(),
        p(0.5),
        p(0.95),
        cycles.last().unwrap(),
        start.elapsed().as_secs_f64()
    );
    // The goals differ by column mode (one refresh for 120 columns, two for
    // 240), so the figure over all frames mixes them: each mode and view
    // apart.
    let every_view = std::iter::once(None).chain(views.iter().map(|v| Some(*v)));
    for (cols, view) in columns.iter().flat_map(|c| every_view.clone().map(move |v| (*c, v))) {
        let mut part: Vec<u64> = lines
            .iter()
            .filter(|f| f["columns"] == cols && view.is_none_or(|v| f["view"] == v))
            .map(|f| f["cycles"].parse().unwrap())
            .collect();
        if part.is_empty() {
            continue;
        }
        part.sort_unstable();
        let q = |q: f64| part[((part.len() - 1) as f64 * q) as usize];
        let name = match view {
            None => "every view",
            Some(v) => VIEW_NAMES.get(v.parse::<usize>().unwrap_or(usize::MAX)).unwrap_or(&v),
        };
        println!(
            "soak, {cols} columns, {name}: {} frames, cycles per frame median {} p95 {} max {}",
            part.len(),
            q(0.5),
            q(0.95),
            part.last().unwrap()
        );
    }
}

/// The frame lines' `view` values by name (the ROM's `View`, in its order).
const VIEW_NAMES: [&str; 3] = ["3D view", "boundary view", "map view"];
