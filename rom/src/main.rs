//! The terrain ROM (first version: the test picture). Boots, logs, draws a test
//! picture into the hidden mode 4 page, moves a cursor with the D-pad and flips
//! pages at VBlank.
#![no_std]
#![no_main]

use gba::prelude::Color;
use terrain_rom::cycles::Cycles;
use terrain_rom::input::{Keys, bit};
use terrain_rom::video::{HEIGHT, Mode4, Page, WIDTH, set_palette};
use terrain_rom::{log, wait_vblank};

/// Palette entries 0..=7: the colour bars; 8: grid; 9: cursor.
const BARS: [Color; 8] = [
    Color::WHITE,
    Color::YELLOW,
    Color::CYAN,
    Color::GREEN,
    Color::MAGENTA,
    Color::RED,
    Color::BLUE,
    Color::BLACK,
];
const GRID: u8 = 8;
const CURSOR: u8 = 9;
/// Cursor side, in pixels.
const CURSOR_SIZE: usize = 16;

fn draw_test_picture(page: Page, cursor: (usize, usize)) {
    let words = page.as_ptr().cast::<u32>();
    for y in 0..HEIGHT {
        for wx in 0..WIDTH / 4 {
            let x = wx * 4;
            let index = if y % 40 == 0 || x % 40 == 0 {
                GRID
            } else {
                (x / 30) as u8
            };
            // SAFETY: 60 words per row, 160 rows: inside the page.
            unsafe {
                words
                    .add(y * WIDTH / 4 + wx)
                    .write_volatile(u32::from_ne_bytes([index; 4]))
            }
        }
    }
    page.fill_rect(cursor.0, cursor.1, CURSOR_SIZE, CURSOR_SIZE, CURSOR);
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    for (i, c) in BARS.iter().enumerate() {
        set_palette(i as u8, *c);
    }
    set_palette(GRID, Color::from_rgb(8, 8, 8));
    set_palette(CURSOR, Color::from_rgb(31, 16, 0));
    let mut screen = Mode4::init();
    log!("terrain-rom {}: boot ok", env!("CARGO_PKG_VERSION"));

    let mut keys = Keys::default();
    let mut cursor = ((WIDTH - CURSOR_SIZE) / 2, (HEIGHT - CURSOR_SIZE) / 2);
    let mut frame: u32 = 0;
    loop {
        keys.poll();
        let held = keys.held_bits();
        if held & bit::LEFT != 0 {
            cursor.0 = cursor.0.saturating_sub(2);
        }
        if held & bit::RIGHT != 0 {
            cursor.0 = (cursor.0 + 2).min(WIDTH - CURSOR_SIZE);
        }
        if held & bit::UP != 0 {
            cursor.1 = cursor.1.saturating_sub(2);
        }
        if held & bit::DOWN != 0 {
            cursor.1 = (cursor.1 + 2).min(HEIGHT - CURSOR_SIZE);
        }
        let t = Cycles::now();
        draw_test_picture(screen.back(), cursor);
        let spent = t.elapsed();
        wait_vblank();
        screen.flip();
        frame = frame.wrapping_add(1);
        if frame == 60 {
            log!("frame 60: test picture drawn in {} cycles", spent);
        }
    }
}
