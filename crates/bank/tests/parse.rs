//! The parser accepts what `encode` writes and rejects everything else with a
//! reason, never a panic.

use bank::{
    BankError, CONFIGS, ConfigTiles, Contents, Corners, HEADER_LEN, HEIGHT_SCALE_ONE, Placement, encode, parse, texel,
};
use proptest::prelude::*;

const PALETTE: [u16; 3] = [0x001F, 0x03E0, 0x7C00];

fn tiles(count: usize) -> Vec<u16> {
    (0..count * 8 * 8).map(|i| texel((i * 7) as u8, (i % 3) as u8)).collect()
}

fn contents<'a>(tiles: &'a [u16], placement: Placement) -> Contents<'a> {
    Contents { tile_size: 8, palette: &PALETTE, tiles, placement, height_scale: HEIGHT_SCALE_ONE }
}

fn corners() -> Placement {
    let mut configs = [ConfigTiles { first: 0, count: 1 }; CONFIGS];
    configs[5] = ConfigTiles { first: 1, count: 8 };
    Placement::Corners(Corners { classes: 3, thresholds: [90, 170, 0], configs })
}

fn sample() -> Vec<u8> {
    encode(&contents(&tiles(2), Placement::Paper)).unwrap()
}

fn sample_corners() -> Vec<u8> {
    encode(&contents(&tiles(9), corners())).unwrap()
}

#[test]
fn round_trip() {
    let bytes = sample();
    let bank = parse(&bytes).unwrap();
    assert_eq!((bank.tile_size(), bank.tile_count(), bank.palette_len()), (8, 2, 3));
    assert_eq!(bank.colour(1), 0x03E0);
    assert_eq!(bank.texel(1, 3, 2), (((64 + 19) * 7) as u8, ((64 + 19) % 3) as u8));
    assert_eq!(bank.placement(), Placement::Paper);
    assert_eq!(bank.height_scale(), 256);
    let bytes = sample_corners();
    let bank = parse(&bytes).unwrap();
    assert_eq!(bank.placement(), corners());
    assert_eq!(bank.tile_count(), 9);
    assert_eq!(bank.texel(2, 0, 0), ((128 * 7) as u8, (128 % 3) as u8));
}

/// The layout is pinned, not only self-consistent: header fields at their
/// documented offsets and the checksum of a known bank.
#[test]
fn layout_is_pinned() {
    let b = sample();
    assert_eq!(&b[0..4], b"TBNK");
    assert_eq!(u16::from_le_bytes([b[4], b[5]]), 2);
    assert_eq!(u16::from_le_bytes([b[6], b[7]]), 8);
    assert_eq!(u16::from_le_bytes([b[8], b[9]]), 2);
    assert_eq!(u16::from_le_bytes([b[10], b[11]]), 3);
    assert_eq!((b[12], b[13]), (0, 0));
    assert_eq!(u16::from_le_bytes([b[14], b[15]]), 256);
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()) as usize, b.len() - HEADER_LEN);
    let crc = u32::from_le_bytes(b[24..28].try_into().unwrap());
    assert_eq!(crc, bank::crc32(&b[..24]) ^ bank::crc32(&b[28..]));
    // Palette right after the header, padded to 4 bytes, then the tiles.
    assert_eq!(u16::from_le_bytes([b[28], b[29]]), 0x001F);
    assert_eq!(&b[34..36], &[0, 0]);
    assert_eq!(u16::from_le_bytes([b[36], b[37]]), texel(0, 0));
    let c = sample_corners();
    assert_eq!((c[12], c[13]), (1, 3));
    assert_eq!(&c[36..40], &[90, 170, 0, 0]);
    assert_eq!(u16::from_le_bytes([c[40 + 10], c[40 + 11]]), 1 | 8 << 8);
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
    assert_eq!(parse(&with(4, &1u16.to_le_bytes())).unwrap_err(), BankError::Version { found: 1 });
    assert_eq!(parse(&with(6, &12u16.to_le_bytes())).unwrap_err(), BankError::TileSize { found: 12 });
    assert_eq!(parse(&with(8, &0u16.to_le_bytes())).unwrap_err(), BankError::TileCount { found: 0 });
    assert_eq!(parse(&with(8, &257u16.to_le_bytes())).unwrap_err(), BankError::TileCount { found: 257 });
    assert_eq!(parse(&with(10, &53u16.to_le_bytes())).unwrap_err(), BankError::PaletteLen { found: 53 });
    assert_eq!(parse(&with(10, &0u16.to_le_bytes())).unwrap_err(), BankError::PaletteLen { found: 0 });
    assert_eq!(parse(&with(12, &[2])).unwrap_err(), BankError::Placement { placement: 2, classes: 0 });
    assert_eq!(parse(&with(13, &[3])).unwrap_err(), BankError::Placement { placement: 0, classes: 3 });
    assert_eq!(parse(&with(12, &[1, 4])).unwrap_err(), BankError::Placement { placement: 1, classes: 4 });
    assert_eq!(parse(&with(12, &[1, 1])).unwrap_err(), BankError::Placement { placement: 1, classes: 1 });
    assert_eq!(parse(&with(14, &15u16.to_le_bytes())).unwrap_err(), BankError::HeightScale { found: 15 });
    assert_eq!(parse(&with(14, &2049u16.to_le_bytes())).unwrap_err(), BankError::HeightScale { found: 2049 });
    assert_eq!(parse(&with(16, &1u32.to_le_bytes())).unwrap_err(), BankError::Flags { found: 1 });
    assert!(matches!(parse(&with(20, &9u32.to_le_bytes())).unwrap_err(), BankError::PayloadLen { .. }));
    assert!(matches!(parse(&good[..good.len() - 1]).unwrap_err(), BankError::Truncated { .. }));
    // Bytes after the bank (a file with junk appended): refused, not ignored.
    let mut long = good.clone();
    long.extend(b"JUNK");
    assert_eq!(parse(&long).unwrap_err(), BankError::TrailingBytes { expected: good.len(), found: good.len() + 4 });
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert!(matches!(parse(&flipped).unwrap_err(), BankError::Checksum { .. }));
}

/// Edits `bank` at `at` and fixes the checksum, so the field check is what fails.
fn resealed(bank: &[u8], at: usize, v: &[u8]) -> Vec<u8> {
    let mut b = bank.to_vec();
    b[at..at + v.len()].copy_from_slice(v);
    let crc = bank::crc32(&b[..24]) ^ bank::crc32(&b[28..]);
    b[24..28].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn corner_tables_are_checked() {
    let good = sample_corners();
    assert!(parse(&resealed(&good, 36, &[0])).is_err_and(|e| e == BankError::Thresholds));
    assert!(parse(&resealed(&good, 36, &[170])).is_err_and(|e| e == BankError::Thresholds));
    assert!(parse(&resealed(&good, 38, &[1])).is_err_and(|e| e == BankError::Thresholds));
    assert!(parse(&resealed(&good, 39, &[1])).is_err_and(|e| e == BankError::Thresholds));
    let e = parse(&resealed(&good, 40 + 2 * 7, &[0, 0])).unwrap_err();
    assert_eq!(e, BankError::Config { config: 7, first: 0, count: 0 });
    let e = parse(&resealed(&good, 40 + 2 * 9, &[2, 8])).unwrap_err();
    assert_eq!(e, BankError::Config { config: 9, first: 2, count: 8 });
    assert_eq!(
        parse(&resealed(&good, 40 + 2 * 9, &[0, 2])).unwrap_err(),
        BankError::Config { config: 9, first: 0, count: 2 }
    );
    // The last tiles are in range.
    assert!(parse(&resealed(&good, 40 + 2 * 9, &[1, 8])).is_ok());
    assert!(parse(&resealed(&good, 40 + 2 * 9, &[8, 1])).is_ok());
    assert_eq!(e.to_string(), "configuration 0x09: tiles 2..10 are not 1 or 8 tiles inside the bank");
}

#[test]
fn texel_colour_outside_palette_is_rejected() {
    let tiles: Vec<u16> = (0..64).map(|_| texel(1, 5)).collect();
    let c = Contents { palette: &[0, 1], ..contents(&tiles, Placement::Paper) };
    assert!(matches!(encode(&c).unwrap_err(), BankError::ColourIndex { tile: 0, texel: 0, index: 5 }));
}

#[test]
fn palette_bit_15_is_rejected() {
    let tiles: Vec<u16> = vec![texel(0, 0); 64];
    let c = Contents { palette: &[0x8000], ..contents(&tiles, Placement::Paper) };
    assert_eq!(encode(&c).unwrap_err(), BankError::PaletteEntry { index: 0 });
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..1200)) {
        let _ = parse(&bytes);
    }

    #[test]
    fn every_mutation_is_rejected(corner in any::<bool>(), at in 0usize..(HEADER_LEN + 900), v: u8) {
        let mut b = if corner { sample_corners() } else { sample() };
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
    fn truncation_is_always_rejected(corner in any::<bool>(), cut in 0usize..2000) {
        let b = if corner { sample_corners() } else { sample() };
        let cut = cut % b.len();
        prop_assert!(parse(&b[..cut]).is_err());
    }
}

/// A trusted parse skips the CRC and the texel scan, nothing else.
#[test]
fn trusted_parse_checks_the_structure_only() {
    let good = sample_corners();
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert!(bank::parse(&flipped).is_err());
    assert!(bank::parse_trusted(&flipped).is_ok());
    assert_eq!(bank::parse_trusted(&good[..good.len() - 1]).unwrap_err(), parse(&good[..good.len() - 1]).unwrap_err());
    let bad_config = resealed(&good, 40 + 2 * 7, &[0, 0]);
    let mut unsealed = bad_config.clone();
    unsealed[24] ^= 0xFF;
    assert!(matches!(bank::parse_trusted(&unsealed).unwrap_err(), BankError::Config { .. }));
}
