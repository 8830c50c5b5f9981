//! The HUD (L+R): three full-width rows of objects at the top; nothing past the right
//! edge (a 5-digit X and the altitude fit), nothing below it (no stray
//! block), the cycle count called CYC. The position row is a golden image.

use e2e::{FrameLog, actual_dir, golden, run_to_frame};
use mgba_test_runner::{Frame, GoldenMode, check_golden};
use voxel::palette::ui;

/// Runs the ROM until it logs frame `n`; returns that frame's log, the
/// screen (BGR555), the two mode 4 pages (palette indices) and the palette.
fn screen_at(keys: &str, n: u32) -> (FrameLog, Frame, [Vec<u8>; 2], Vec<u16>) {
    let report = run_to_frame(keys, n, 2000);
    let log = report.lines().filter_map(FrameLog::parse).find(|f| f.n == n).expect("frame line");
    let pages = [report.vram[..240 * 160].to_vec(), report.vram[0xA000..0xA000 + 240 * 160].to_vec()];
    (log, report.last_frame.clone().expect("a screen"), pages, report.palette.clone())
}

/// The HUD is objects over the picture: on screen in rows 0..24, text and
/// bar only; below them the screen is the page on display, untouched.
#[test]
fn hud_rows_fit_the_screen_and_leave_nothing_behind() {
    // The camera starts near the world's far corner: X and Y have 5 digits.
    let (log, screen, pages, palette) = screen_at("21:L+R,25:", 30);
    assert!(log.camera.x >> 8 >= 10_000 && log.camera.y >> 8 >= 10_000, "{log:?}");
    let px = |x: usize, y: usize| screen.pixel(x, y);
    let (white, bar) = (palette[ui::WHITE as usize], palette[ui::HUD_BG as usize]);
    assert_ne!(white, bar);
    // Rows 0..24: the HUD's three bars, text and background only.
    for y in 0..24 {
        for x in 0..240 {
            assert!(px(x, y) == white || px(x, y) == bar, "({x}, {y}) is {:#06x} inside the HUD", px(x, y));
        }
    }
    // Each row has text, and none in its last cell: nothing was cut off at the edge.
    for row in 0..3 {
        let text =
            (row * 8..row * 8 + 8).flat_map(|y| (0..240).map(move |x| (x, y))).filter(|&(x, y)| px(x, y) == white);
        assert!(text.clone().count() > 60, "HUD row {row} is empty");
        assert!(text.clone().all(|(x, _)| x < 232), "HUD row {row} reaches the right edge");
    }
    // Below the HUD: exactly one of the pages, drawn through the palette
    // (the old HUD wrapped a cell onto the row below).
    let below = |page: &[u8]| (24..160).all(|y| (0..240).all(|x| px(x, y) == palette[page[y * 240 + x] as usize]));
    assert!(below(&pages[0]) || below(&pages[1]), "below the HUD the screen is not a page");
    // The position row (X, Y and Z), as a golden: its text is deterministic.
    check_golden(&screen.crop(0, 8, 240, 8), &golden("hud-position.png"), &actual_dir(), GoldenMode::from_env())
        .unwrap();
    // The third row starts with the cycle count's label, CYC (not FRAME):
    // its first and third glyphs are the same, the second another.
    let cell = |col: usize, row: usize| -> Vec<u16> {
        (row * 8..row * 8 + 8)
            .flat_map(|y| (col * 8..col * 8 + 8).map(move |x| (x, y)))
            .map(|(x, y)| px(x, y))
            .collect()
    };
    assert_eq!(cell(0, 2), cell(2, 2), "the third row starts with C?C");
    assert_ne!(cell(0, 2), cell(1, 2));
}

/// Without the HUD, the whole screen is a page: no object shows.
#[test]
fn without_the_hud_no_object_shows() {
    for keys in ["", "21:L+R,25:,41:L+R,45:"] {
        let (_, screen, pages, palette) = screen_at(keys, 40);
        let whole =
            |page: &[u8]| (0..160).all(|y| (0..240).all(|x| screen.pixel(x, y) == palette[page[y * 240 + x] as usize]));
        assert!(whole(&pages[0]) || whole(&pages[1]), "keys {keys:?}: the screen is not a page");
    }
}

/// The HUD's text follows the flight: the position row a second later is
/// another, whatever the frames' timing (its objects are rewritten in
/// VBlank, never skipped because a frame ends while the display draws them).
#[test]
fn hud_text_follows_the_flight() {
    let keys = "21:L+R,25:UP";
    let (a, screen_a, _, palette) = screen_at(keys, 40);
    let (b, screen_b, _, _) = screen_at(keys, 100);
    assert_ne!((a.camera.x, a.camera.y), (b.camera.x, b.camera.y), "the camera did not move");
    let white = palette[ui::WHITE as usize];
    let row = |s: &Frame| s.crop(0, 8, 240, 8);
    for (n, s) in [(40, &screen_a), (100, &screen_b)] {
        let text = (8..16).flat_map(|y| (0..240).map(move |x| (x, y))).filter(|&(x, y)| s.pixel(x, y) == white);
        assert!(text.count() > 60, "frame {n}: the position row is empty");
    }
    assert_ne!(row(&screen_a), row(&screen_b), "the position row did not change in 60 frames");
}
