//! The panic handler: the message and location go to the mGBA log at Fatal
//! level (the test harness fails on it) and onto the screen.

use crate::text::TextWriter;
use crate::video::{Page, set_palette};
use core::fmt::Write;
use core::panic::PanicInfo;
use gba::prelude::*;

/// Palette index used by the error screens for the background.
pub const ERROR_BG: u8 = 0;
/// Palette index used by the error screens for the text.
pub const ERROR_FG: u8 = 1;

/// Shows a full-screen error: `title` on the first line, then `body`. Used by the
/// panic handler and by the ROM when it meets a bad tile bank.
pub fn error_screen(title: &str, body: core::fmt::Arguments<'_>) {
    DISPCNT.write(DisplayControl::new().with_video_mode(VideoMode::_4).with_show_bg2(true));
    set_palette(ERROR_BG, Color::from_rgb(12, 0, 0));
    set_palette(ERROR_FG, Color::WHITE);
    let page = Page::new(0);
    page.clear(ERROR_BG);
    let mut w = TextWriter::new(page, 0, 0, ERROR_FG, ERROR_BG);
    let _ = writeln!(w, "{title}\n");
    let _ = w.write_fmt(body);
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    IME.write(false);
    crate::log::write(crate::log::Level::Fatal, format_args!("panic: {info}"));
    error_screen("PANIC", format_args!("{info}"));
    loop {
        core::hint::spin_loop();
    }
}
