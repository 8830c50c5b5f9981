//! The ARM kernels against their portable Rust twins, on random inputs, in
//! the emulator (`rom/src/bin/kernels/`, `rom/src/bin/window_kernels/`):
//! window fills of both placements and two window sizes, lines of the
//! window, the column march through the texel cache, and the HUD's and the
//! log's number writers against `core::fmt`.

use e2e::run_checks;

#[test]
fn arm_kernels_equal_their_portable_twins() {
    let (report, done) = run_checks("kernels", &e2e::rom("kernels"), "kernels: done", 20_000);
    // Every case ran: 6 worlds of 12 moves, 24 frames, 64 numbers in 5 forms.
    assert!(done.contains("72 window moves, 24 frames ("), "{done}");
    assert!(done.contains("), 320 HUD numbers, 256 pixels written into VRAM pairs, 256 texel copies,"), "{done}");
    // The march passed over some groups of slices with the bank's relief
    // (and drew the same frames).
    let skipped: u32 = done.split(" frames (").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(skipped > 0, "{done}");
    // The low, steep frames of 240 columns had pairs filled to the top in one
    // pixel only, each way: the odd pixel's sky from row 0 (the even one
    // full), and its early exit (the odd one full).
    let one_full = done.split("one pixel only: ").nth(1).unwrap();
    let even: u32 = one_full.split(' ').next().unwrap().parse().unwrap();
    let odd: u32 = one_full.split(" even, ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(even > 0 && odd > 0, "{done}");
    // The flight over a page that remembers its sky: most frames repainted
    // some rows (the page equal to a frame drawn whole each time), and the
    // pitch's moves made it fill the sky first now and then, the whole page
    // (the first frame) and part of it.
    // "48 frames on a page that remembers its sky (42 repainted 5756 rows, 1 filled it whole, 5 filled part of it)"
    // Some frames' columns stepped past hidden bands at once, on into a near
    // band and into a far one (the march's entry past the near bands):
    // "6 frames stepped past them into a near band, 6 into a far one, 0 past all".
    let hidden = report.lines().find(|l| l.starts_with("kernels: hidden bands: ")).expect("the hidden bands' line");
    let n: Vec<u32> =
        hidden.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect();
    assert!(n.len() == 3 && n[0] > 0 && n[1] > 0, "{hidden}");
    // Most frames of 120 columns were interrupted inside the render by a
    // timer interrupt that rendered too (and drew nothing: else FAILED).
    let irq = report.lines().find(|l| l.starts_with("kernels: interrupts: ")).expect("the interrupts' line");
    let n: Vec<u32> =
        irq.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect();
    assert!(n.len() == 3 && n[0] > 0 && 2 * n[0] > n[1], "{irq}");
    let sky = report.lines().find(|l| l.starts_with("kernels: sky: ")).expect("the sky's line");
    assert!(sky.contains(" frames on a page that remembers its sky ("), "{sky}");
    let n: Vec<u32> =
        sky.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect();
    let (frames, repainting, rows, fills, partial) = (n[0], n[1], n[2], n[3], n[4]);
    assert_eq!((n.len(), frames), (5, 48), "{sky}");
    assert!(repainting >= frames / 2 && rows > repainting && fills >= 1 && partial >= 1, "{sky}");
    // The log's line writer (the product's line of every frame) wrote what
    // `core::fmt` writes, value for value.
    let ours: Vec<&str> = report.lines().filter_map(|l| l.strip_prefix("kernels: line ours ")).collect();
    let fmt: Vec<&str> = report.lines().filter_map(|l| l.strip_prefix("kernels: line fmt ")).collect();
    assert_eq!(ours.len(), 16);
    assert_eq!(ours, fmt);
    // A line longer than mGBA's buffer: sent in messages of 255 bytes, the
    // first marked as followed, which the harness joins: the whole line,
    // and nothing of it after.
    let long = ["kernels: long".to_string()].into_iter().chain((1000..1055).map(|n| n.to_string())).collect::<Vec<_>>();
    let long = long.join(" ");
    assert_eq!(long.len(), 288);
    let at = report.lines().position(|l| l.starts_with("kernels: long ")).expect("the long line");
    assert_eq!(report.lines().nth(at).unwrap(), long);
    let next = report.lines().nth(at + 1).unwrap_or("");
    assert!(!next.starts_with(&long[254..257]) && !next.contains(mgba_test_runner::CONTINUED), "{next:?}");
}

/// The window fills in windows of 16 tiles a side, in their own ROM.
#[test]
fn window_fills_equal_the_lookup_in_small_windows() {
    let (_, done) = run_checks("window_kernels", &e2e::rom("window_kernels"), "window_kernels: done", 20_000);
    // Every case ran: 12 worlds of 12 moves.
    assert_eq!(done, "window_kernels: done, 144 window moves, checks ok");
}

/// The same kernels over a packed bank of the largest tiles (128 texels, 512
/// world px): in the near bands a tile is a whole field of the march's
/// packed position (`voxel::render::pack`), and the texel cache's lines
/// cross fewest tiles. The march, boundaries on and off (the cache's marks
/// a tile's first two lines of 128), draws what the portable renderer
/// draws.
#[test]
fn arm_kernels_equal_their_twins_over_the_largest_tiles() {
    // Hills a tile across, 16 tiles of them at other heights.
    let bytes = e2e::large_tile_bank(16, 0x9E37_79B9, |t, x, y| {
        let hill = 60 - ((x as i32 - 64).abs() + (y as i32 - 64).abs()) * 60 / 128;
        (hill + (t as i32 * 7) % 40) as u8
    });
    // Into its bank slot as `tilebake pack` packs the product ROM (which it
    // alone accepts).
    let packed = tilebake::pack::pack_into_slot("kernels.gba".as_ref(), &e2e::rom("kernels"), &bytes).unwrap();
    let (_, done) = run_checks("kernels (packed)", &packed, "kernels: done", 40_000);
    assert!(done.contains(" 24 frames ("), "{done}");
}

/// The same kernels over a packed bank of the smallest tiles (8 texels, 32
/// world px): the texel cache's lines cross a tile every 8 texels near and
/// every 4 entries far (its runs' shortest), and a near band's ground spans
/// more tiles than `group_tops` reads (its groups keep the relief's top).
/// The march, boundaries on and off, draws what the portable renderer draws,
/// and both rings hold the world's texels.
#[test]
fn arm_kernels_equal_their_twins_over_the_smallest_tiles() {
    // Ridges across the tiles, 64 tiles of them at other heights.
    let bytes = e2e::tile_bank(8, 64, 0x7F4A_7C15, |t, x, y| ((t * 29 + x * 9 + y * 5) % 120) as u8);
    let packed = tilebake::pack::pack_into_slot("kernels.gba".as_ref(), &e2e::rom("kernels"), &bytes).unwrap();
    let (_, done) = run_checks("kernels (packed, 8-texel tiles)", &packed, "kernels: done", 40_000);
    assert!(done.contains(" 24 frames ("), "{done}");
}
