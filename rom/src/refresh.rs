//! Refreshes and the keypad, per refresh: the VBlank interrupt counts screen
//! refreshes and records the keys held at each one. The main loop replays
//! every refresh since its last frame, so the flight depends only on what was
//! held at each refresh, never on how long frames take to draw. It also
//! shows a page the main loop finished ([`show`]: at once in VBlank or while
//! the display draws rows both pages hold alike, else at the next VBlank),
//! so that what the loop does after a frame (the next frame's preparation;
//! in mGBA, its log line) does not hold the page back; and it shows the HUD
//! text the loop handed over ([`crate::hud::on_vblank`]).

use gba::prelude::*;

/// Refreshes remembered (a frame longer than this many refreshes replays the last ones).
pub const KEY_LOG: usize = 16;

static REFRESHES: GbaCell<u32> = GbaCell::new(0);
static KEYS: [GbaCell<u16>; KEY_LOG] = [const { GbaCell::new(0) }; KEY_LOG];
/// The mode 4 page to show at the next VBlank, plus one; 0: none.
static SHOW: GbaCell<u8> = GbaCell::new(0);

extern "C" fn on_irq(bits: IrqBits) {
    if bits.vblank() {
        let n = REFRESHES.read().wrapping_add(1);
        // Pressed keys as 1 bits.
        KEYS[n as usize % KEY_LOG].write(!KEYINPUT.read().to_u16() & 0x03FF);
        REFRESHES.write(n);
        let show = SHOW.read();
        if show != 0 {
            DISPCNT.write(crate::video::showing(show as usize - 1));
            SHOW.write(0);
        }
        crate::hud::on_vblank();
    }
}

/// Installs the interrupt handler (after [`crate::init`]).
pub fn start() {
    RUST_IRQ_HANDLER.write(Some(on_irq));
}

/// Refreshes since [`start`].
pub fn count() -> u32 {
    REFRESHES.read()
}

/// The keys held at refresh `n` (1 bits; one of the last [`KEY_LOG`] refreshes).
pub fn keys_at(n: u32) -> u16 {
    KEYS[n as usize % KEY_LOG].read()
}

/// The last scanline of a refresh: the display draws line 0 after it.
const LAST_LINE: u16 = 227;
/// Lines [`show`] keeps spare (2,464 cycles) between its check and the rows
/// the switch must not reach.
const SPARE_LINES: u16 = 2;

/// True if scanline `line` is in VBlank with at least `spare` lines of it
/// left before the display draws line 0.
fn in_vblank(line: u16, spare: u16) -> bool {
    (crate::video::HEIGHT as u16..=LAST_LINE - spare).contains(&line)
}

/// Shows mode 4 page `page` (0 or 1) as soon as the switch cannot be seen:
/// at once if the display is in VBlank (scanlines 160 to 225, `SPARE_LINES`
/// before the next picture's first line), or if it is still
/// drawing the top `same_rows` rows, those the shown page and `page` hold
/// alike (the sky above both frames' terrain, `voxel::PageSky::sky_rows`),
/// with two lines spare; else at the start of the next VBlank (the interrupt
/// writes the display control, `video::Mode4::flip`). Either way every
/// picture is one page's frame whole. A frame finished in time is shown in
/// the very next picture instead of one refresh later.
pub fn show(page: usize, same_rows: u32) -> Shown {
    // No interrupt between the line's check and the write.
    let enabled = IME.read();
    IME.write(false);
    let line = VCOUNT.read();
    let when = if in_vblank(line, SPARE_LINES) {
        Shown::InVBlank
    } else if ((line + SPARE_LINES) as u32) <= same_rows {
        Shown::OverSky
    } else {
        Shown::AtNextVBlank
    };
    if when == Shown::AtNextVBlank {
        SHOW.write(page as u8 + 1);
    } else {
        DISPCNT.write(crate::video::showing(page));
        SHOW.write(0);
    }
    IME.write(enabled);
    when
}

/// When [`show`] shows a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// At once: the display was in VBlank.
    InVBlank,
    /// At once: the display was drawing the sky rows both pages hold alike.
    OverSky,
    /// At the start of the next VBlank.
    AtNextVBlank,
}

impl Shown {
    /// The word the frame's log line gives it (`shown=`).
    pub fn word(self) -> &'static str {
        match self {
            Shown::InVBlank => "vblank",
            Shown::OverSky => "sky",
            Shown::AtNextVBlank => "next",
        }
    }
}

/// Sleeps until the display is in VBlank with time to spare (scanlines 160
/// to 200; at once if it is): for what must change between two pictures,
/// such as the palette with a page.
pub fn wait_vblank() {
    if !in_vblank(VCOUNT.read(), LAST_LINE - 200) {
        wait_past(REFRESHES.read());
    }
}

/// Sleeps until the refresh count has passed `n` (at once if it has): the
/// VBlank interrupt that counts a refresh also shows a page asked for before.
pub fn wait_past(n: u32) {
    while REFRESHES.read() == n {
        IntrWait(false, IrqBits::VBLANK);
    }
}

/// Sleeps until the page asked for by [`show`] is shown (at once if
/// it is already): the other page is free to draw into. Waits with BIOS
/// `IntrWait` keeping the VBlank flag: a VBlank that came after the check
/// ends the wait at once instead of being missed.
pub fn wait_shown() {
    while SHOW.read() != 0 {
        IntrWait(false, IrqBits::VBLANK);
    }
}
