//! A minimal GBA ROM that is not this project's: 33 hand-assembled ARM
//! instructions behind a header made by [`fix_header`], for
//! testing tools (the mGBA harness, `cargo xtask run --rom`) on foreign code.
//! It is built at run time: no binary is committed.
//!
//! What it does:
//! - at boot it logs `tiny: hello` (Info) and `tiny: an error line` (Error)
//!   through mGBA's debug registers;
//! - it counts boots in battery-backed SRAM byte 0: it reads `n` and writes
//!   `n + 1` (wrapping; the ROM carries the `SRAM_V113` marker);
//! - it turns every layer off, so the whole screen shows the backdrop (palette
//!   entry 0), which it keeps setting to [`colour`]`(n, A held)`.

use crate::{Header, fix_header};

/// The backdrop's green when A is not held (BGR555).
pub const GREEN: u16 = 0x03E0;
/// The backdrop's blue while A is held (BGR555).
pub const BLUE: u16 = 0x7C00;

/// The screen's colour (BGR555) in a boot that found `boots` in SRAM byte 0:
/// its low 5 bits in red, plus [`BLUE`] while A is held, else [`GREEN`].
pub fn colour(boots: u8, a_held: bool) -> u16 {
    (boots & 0x1F) as u16 | if a_held { BLUE } else { GREEN }
}

/// The lines the ROM logs at boot: (mGBA level: 1 error, 3 info; text).
pub const LOG: [(u8, &str); 2] = [(3, "tiny: hello"), (1, "tiny: an error line")];

/// Game title and code in the header.
pub const TITLE: &str = "TINY";
pub const GAME_CODE: [u8; 4] = *b"ZTNY";

/// The code from 0xC0 (checked with `llvm-mc -triple=armv4t-none-eabi` and
/// `llvm-objdump -d`).
const CODE: [u32; 33] = [
    0xE3A0_0301, // c0  mov   r0, #0x04000000      I/O registers
    0xE3A0_1000, // c4  mov   r1, #0
    0xE1C0_10B0, // c8  strh  r1, [r0]             DISPCNT = 0: no layers, the backdrop fills the screen
    0xE59F_4070, // cc  ldr   r4, =0x04FFF780      mGBA debug: enable register
    0xE59F_1070, // d0  ldr   r1, =0xC0DE
    0xE1C4_10B0, // d4  strh  r1, [r4]
    0xE28F_5074, // d8  adr   r5, hello
    0xE59F_6068, // dc  ldr   r6, =0x103           send, level 3 (info)
    0xEB00_000F, // e0  bl    log
    0xE28F_5074, // e4  adr   r5, oops
    0xE59F_6060, // e8  ldr   r6, =0x101           send, level 1 (error)
    0xEB00_000C, // ec  bl    log
    0xE3A0_240E, // f0  mov   r2, #0x0E000000      SRAM byte 0: boots so far
    0xE5D2_7000, // f4  ldrb  r7, [r2]
    0xE287_3001, // f8  add   r3, r7, #1
    0xE5C2_3000, // fc  strb  r3, [r2]
    0xE207_701F, // 100 and   r7, r7, #31          red: the count this boot found
    0xE3A0_8405, // 104 mov   r8, #0x05000000      palette entry 0 (the backdrop)
    0xE280_9E13, // 108 add   r9, r0, #0x130       KEYINPUT
    0xE1D9_10B0, // 10c loop: ldrh r1, [r9]
    0xE311_0001, // 110 tst   r1, #1               A (bit clear = held)
    0x1387_2E3E, // 114 orrne r2, r7, #0x03E0      released: green
    0x0387_2B1F, // 118 orreq r2, r7, #0x7C00      held: blue
    0xE1C8_20B0, // 11c strh  r2, [r8]
    0xEAFF_FFF9, // 120 b     loop
    0xE244_AD06, // 124 log: sub r10, r4, #0x180   0x04FFF600: the message
    0xE4D5_B001, // 128 1: ldrb r11, [r5], #1
    0xE4CA_B001, // 12c strb  r11, [r10], #1
    0xE35B_0000, // 130 cmp   r11, #0
    0x1AFF_FFFB, // 134 bne   1b
    0xE244_A080, // 138 sub   r10, r4, #0x80       0x04FFF700: flags
    0xE1CA_60B0, // 13c strh  r6, [r10]
    0xE12F_FF1E, // 140 bx    lr
];

/// The literal pool after the code (0x144).
const LITERALS: [u32; 4] = [0x04FF_F780, 0x0000_C0DE, 0x0000_0103, 0x0000_0101];

/// The ROM as a `.gba` image with a valid header.
pub fn rom() -> Vec<u8> {
    let mut rom = vec![0u8; 0xC0];
    rom[..4].copy_from_slice(&0xEA00_002Eu32.to_le_bytes()); // b 0xC0
    for w in CODE.iter().chain(&LITERALS) {
        rom.extend_from_slice(&w.to_le_bytes());
    }
    for (i, (_, text)) in LOG.iter().enumerate() {
        // The `adr` instructions above point at 0x154 and 0x160.
        assert_eq!(rom.len(), [0x154, 0x160][i], "string layout");
        rom.extend_from_slice(text.as_bytes());
        rom.push(0);
    }
    rom.resize(rom.len().next_multiple_of(4), 0);
    rom.extend_from_slice(b"SRAM_V113\0\0\0");
    let header = Header { title: TITLE.into(), game_code: GAME_CODE, maker_code: *b"ZZ", version: 0 };
    fix_header(&mut rom, &header).expect("0xC0 bytes and more");
    rom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tiny_rom_has_a_valid_header_and_its_strings_where_the_code_points() {
        let rom = rom();
        assert_eq!(crate::check_header(&rom), Ok(()));
        assert_eq!(&rom[0x154..0x160], b"tiny: hello\0");
        assert_eq!(&rom[0x160..0x174], b"tiny: an error line\0");
        assert!(rom.windows(9).any(|w| w == b"SRAM_V113"));
        assert_eq!(rom, super::rom(), "deterministic");
        assert_eq!(colour(0xFF, false), 0x03FF);
        assert_eq!(colour(1, true), 0x7C01);
    }
}
