//! The parser accepts what `encode` writes and rejects everything else with a
//! reason, never a panic.

use bank::{BankError, HEADER_LEN, encode, parse, texel};
use proptest::prelude::*;

fn sample() -> Vec<u8> {
    let palette = [0x001F, 0x03E0, 0x7C00];
    let tiles: Vec<u16> = (0..2 * 8 * 8).map(|i| texel((i * 7) as u8, (i % 3) as u8)).collect();
    encode(8, &palette, &tiles).unwrap()
}

#[test]
fn round_trip() {
    let bytes = sample();
    let bank = parse(&bytes).unwrap();
    assert_eq!((bank.tile_size(), bank.tile_count(), bank.palette_len()), (8, 2, 3));
    assert_eq!(bank.colour(1), 0x03E0);
    assert_eq!(bank.texel(1, 3, 2), (((64 + 19) * 7) as u8, ((64 + 19) % 3) as u8));
}

#[test]
fn each_field_is_checked() {
    let good = sample();
    let with = |at: usize, v: &[u8]| {
        let mut b = good.clone();
        b[at..at + v.len()].copy_from_slice(v);
        b
    };
    assert_eq!(parse(&good[..10]).unwrap_err(), BankError::TooShort { len: 10 });
    assert_eq!(parse(&with(0, b"XBNK")).unwrap_err(), BankError::BadMagic);
    assert_eq!(parse(&with(4, &2u16.to_le_bytes())).unwrap_err(), BankError::Version { found: 2 });
    assert_eq!(parse(&with(6, &12u16.to_le_bytes())).unwrap_err(), BankError::TileSize { found: 12 });
    assert_eq!(parse(&with(8, &0u16.to_le_bytes())).unwrap_err(), BankError::TileCount { found: 0 });
    assert_eq!(parse(&with(10, &53u16.to_le_bytes())).unwrap_err(), BankError::PaletteLen { found: 53 });
    assert_eq!(parse(&with(12, &1u32.to_le_bytes())).unwrap_err(), BankError::Flags { found: 1 });
    assert!(matches!(parse(&with(16, &9u32.to_le_bytes())).unwrap_err(), BankError::PayloadLen { .. }));
    assert!(matches!(parse(&good[..good.len() - 1]).unwrap_err(), BankError::Truncated { .. }));
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert!(matches!(parse(&flipped).unwrap_err(), BankError::Checksum { .. }));
}

#[test]
fn texel_colour_outside_palette_is_rejected() {
    let tiles: Vec<u16> = (0..64).map(|_| texel(1, 5)).collect();
    assert!(matches!(encode(8, &[0, 1], &tiles).unwrap_err(), BankError::ColourIndex { tile: 0, texel: 0, index: 5 }));
}

#[test]
fn palette_bit_15_is_rejected() {
    let tiles: Vec<u16> = vec![texel(0, 0); 64];
    assert_eq!(encode(8, &[0x8000], &tiles).unwrap_err(), BankError::PaletteEntry { index: 0 });
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = parse(&bytes);
    }

    #[test]
    fn mutated_banks_never_panic_and_are_mostly_rejected(at in 0usize..(HEADER_LEN + 300), v: u8) {
        let mut b = sample();
        let at = at % b.len();
        let old = b[at];
        b[at] = v;
        let r = parse(&b);
        if old != v {
            // Any change is caught: the header by its checks, the payload by the CRC.
            prop_assert!(r.is_err(), "byte {} {:#x} -> {:#x} accepted", at, old, v);
        }
    }

    #[test]
    fn truncation_is_always_rejected(cut in 0usize..600) {
        let b = sample();
        let cut = cut % b.len();
        prop_assert!(parse(&b[..cut]).is_err());
    }
}
