//! The HUD (L+R): three full-width rows at the top; nothing past the right
//! edge (a 5-digit X and the altitude fit), nothing below it (no stray
//! block), the cycle count called CYC. The position row is a golden image.

use e2e::{FrameLog, actual_dir, golden, run_rom};
use mgba_test_runner::{Frame, GoldenMode, KeyScript, RunConfig, check_golden};
use voxel::palette::ui;

/// Runs the ROM until it logs frame `n` and returns that frame's log, its
/// page's palette indices and the palette.
fn page_at(keys: &str, n: u32) -> (FrameLog, Vec<u8>, Vec<u16>) {
    let config = RunConfig {
        frames: 2000,
        keys: keys.parse::<KeyScript>().unwrap(),
        stop_on: Some(format!("frame n={n} ")),
        ..Default::default()
    };
    let report = run_rom("terrain", config);
    report.verdict().unwrap();
    let log = report.lines().filter_map(FrameLog::parse).find(|f| f.n == n).expect("frame line");
    (log, report.vram[log.page * 0xA000..log.page * 0xA000 + 240 * 160].to_vec(), report.palette.clone())
}

#[test]
fn hud_rows_fit_the_screen_and_leave_nothing_behind() {
    // The camera starts near the world's far corner: X and Y have 5 digits.
    let (log, page, palette) = page_at("21:L+R,25:", 30);
    assert!(log.camera.x >> 8 >= 10_000 && log.camera.y >> 8 >= 10_000, "{log:?}");
    let px = |x: usize, y: usize| page[y * 240 + x];
    let hud = |c: u8| c == ui::WHITE || c == ui::HUD_BG;
    // Rows 0..24: the HUD's three bars, text and background only.
    for y in 0..24 {
        for x in 0..240 {
            assert!(hud(px(x, y)), "({x}, {y}) is {} inside the HUD", px(x, y));
        }
    }
    // Each row has text, and none in its last cell: nothing was cut off at the edge.
    for row in 0..3 {
        let text =
            (row * 8..row * 8 + 8).flat_map(|y| (0..240).map(move |x| (x, y))).filter(|&(x, y)| px(x, y) == ui::WHITE);
        assert!(text.clone().count() > 60, "HUD row {row} is empty");
        assert!(text.clone().all(|(x, _)| x < 232), "HUD row {row} reaches the right edge");
    }
    // Below the HUD: the picture, no HUD colours (the old HUD wrapped a cell
    // onto the row below).
    for y in 24..160 {
        for x in 0..240 {
            assert!(!hud(px(x, y)), "({x}, {y}) is {} below the HUD", px(x, y));
        }
    }
    // The position row (X, Y and Z), as a golden: its text is deterministic.
    let row: Vec<u16> =
        (8..16).flat_map(|y| (0..240).map(move |x| (x, y))).map(|(x, y)| palette[px(x, y) as usize]).collect();
    check_golden(&Frame::new(240, 8, row), &golden("hud-position.png"), &actual_dir(), GoldenMode::from_env()).unwrap();
    // The third row starts with the cycle count's label, CYC (not FRAME):
    // its first and third glyphs are the same, the second another.
    let cell = |col: usize, row: usize| -> Vec<u8> {
        (row * 8..row * 8 + 8)
            .flat_map(|y| (col * 8..col * 8 + 8).map(move |x| (x, y)))
            .map(|(x, y)| px(x, y))
            .collect()
    };
    assert_eq!(cell(0, 2), cell(2, 2), "the third row starts with C?C");
    assert_ne!(cell(0, 2), cell(1, 2));
}
