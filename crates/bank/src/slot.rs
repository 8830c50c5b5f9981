//! The bank slot: how a built ROM says where a packed bank is, so that
//! `tilebake pack` can put a bank into a ROM without a Rust toolchain.
//!
//! The ROM holds one [`Slot`] in its read-only data, 4-aligned: the marker
//! [`MAGIC`], then the bank's byte offset in the ROM and its length (u32
//! little-endian each). Offset 0 means "the bank built in"; the length is
//! then the ROM's own, as built ([`stamp_length`]; 0: not known), which
//! `pack` checks a file against, so that a ROM cut short is refused. `pack`
//! finds the marker, appends the bank at the ROM's end and writes the two
//! words; after the bank, at [`relief_offset`], it puts the bank's relief
//! file (`voxel::flight::Relief::file`), which the ROM loads instead of
//! reading every tile at boot (a relief that is not there, or not this
//! bank's, it builds).

/// The marker at the start of a slot.
pub const MAGIC: [u8; 8] = *b"TBNKSLOT";
/// Bytes of a slot.
pub const LEN: usize = core::mem::size_of::<Slot>();
/// Offset of the bank's offset field in a slot.
pub const OFFSET_AT: usize = core::mem::offset_of!(Slot, offset);
/// Offset of the bank's length field in a slot.
pub const LEN_AT: usize = core::mem::offset_of!(Slot, len);

/// Where a packed bank's relief file starts: the first 4-aligned byte
/// offset past the bank at `offset`, `len` bytes long (u32 arithmetic
/// wraps; a slot inside a 32 MB ROM never does).
///
/// ```
/// assert_eq!(bank::slot::relief_offset(0x1000, 0x123), 0x1124);
/// assert_eq!(bank::slot::relief_offset(0x1000, 0x124), 0x1124);
/// ```
pub const fn relief_offset(offset: u32, len: u32) -> u32 {
    offset.wrapping_add(len).wrapping_add(3) & !3
}

/// A slot as it lies in ROM.
///
/// ```
/// use bank::slot::Slot;
/// // In the ROM's read-only data (4-aligned by the type), kept by the linker
/// // even though the code only reads it through volatile loads:
/// #[used]
/// #[unsafe(link_section = ".rodata.bank_slot")]
/// static BANK_SLOT: Slot = Slot::EMPTY;
///
/// // Volatile: the compiler must not assume the zeros it was built with,
/// // since `tilebake pack` writes the offset and length into the ROM.
/// // SAFETY: reads of our own static's fields.
/// let (offset, len) = unsafe {
///     (core::ptr::read_volatile(&raw const BANK_SLOT.offset), core::ptr::read_volatile(&raw const BANK_SLOT.len))
/// };
/// assert_eq!((offset, len), (0, 0)); // not packed: the bank built in
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(4))]
pub struct Slot {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// Byte offset of the packed bank in the ROM, 0 for the built-in one.
    pub offset: u32,
    /// Its length, in bytes.
    pub len: u32,
}

impl Slot {
    /// An empty slot (the bank built in), for a ROM's static.
    pub const EMPTY: Slot = Slot { magic: MAGIC, offset: 0, len: 0 };

    /// The slot at the start of `bytes`, if they start with [`MAGIC`] and
    /// hold a whole slot.
    ///
    /// ```
    /// use bank::slot::{MAGIC, Slot};
    /// let mut rom = [0u8; 20];
    /// rom[..8].copy_from_slice(&MAGIC);
    /// rom[8..12].copy_from_slice(&0x1234u32.to_le_bytes());
    /// assert_eq!(Slot::read(&rom), Some(Slot { magic: MAGIC, offset: 0x1234, len: 0 }));
    /// assert_eq!(Slot::read(&rom[1..]), None);
    /// ```
    pub fn read(bytes: &[u8]) -> Option<Slot> {
        let b = bytes.get(..LEN)?;
        let word = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        (b[..MAGIC.len()] == MAGIC).then(|| Slot { magic: MAGIC, offset: word(OFFSET_AT), len: word(LEN_AT) })
    }
}

const _: () = assert!(LEN == 16 && OFFSET_AT == 8 && LEN_AT == 12, "the slot's layout is part of the format");

/// Writes `rom`'s length into its slot's length field, if it has exactly
/// one 4-aligned slot and that slot holds no packed bank (offset 0): what a
/// ROM's build does once it has the whole image. Returns whether it did.
///
/// ```
/// let mut rom = vec![0u8; 64];
/// rom[20..28].copy_from_slice(&bank::slot::MAGIC);
/// assert!(bank::slot::stamp_length(&mut rom));
/// assert_eq!(bank::slot::Slot::read(&rom[20..]).unwrap().len, 64);
/// ```
pub fn stamp_length(rom: &mut [u8]) -> bool {
    let len = rom.len();
    let (first, second) = {
        let mut slots = positions(rom);
        (slots.next(), slots.next())
    };
    let (Some(at), None) = (first, second) else {
        return false;
    };
    let Ok(len) = u32::try_from(len) else {
        return false;
    };
    match Slot::read(&rom[at..]) {
        Some(s) if s.offset == 0 => {
            rom[at + LEN_AT..at + LEN_AT + 4].copy_from_slice(&len.to_le_bytes());
            true
        }
        _ => false,
    }
}

/// The byte offsets of every 4-aligned slot marker in `rom` with a whole
/// slot after it, in order (`find`, with the `alloc` feature, collects
/// them; this needs no allocation).
///
/// ```
/// let mut rom = [0u8; 64];
/// rom[20..28].copy_from_slice(&bank::slot::MAGIC);
/// assert_eq!(bank::slot::positions(&rom).collect::<Vec<_>>(), [20]);
/// ```
pub fn positions(rom: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..rom.len().saturating_sub(LEN - 1)).step_by(4).filter(|&i| rom[i..i + MAGIC.len()] == MAGIC)
}

/// The byte offsets of every 4-aligned slot marker in `rom`.
///
/// ```
/// let mut rom = vec![0u8; 64];
/// rom[20..28].copy_from_slice(&bank::slot::MAGIC);
/// rom[41..49].copy_from_slice(&bank::slot::MAGIC); // not 4-aligned: not a slot
/// assert_eq!(bank::slot::find(&rom), [20]);
/// ```
#[cfg(feature = "alloc")]
pub fn find(rom: &[u8]) -> alloc::vec::Vec<usize> {
    positions(rom).collect()
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    /// Markers are found at 4-aligned offsets with a whole slot after them.
    #[test]
    fn find_sees_aligned_whole_slots_only() {
        let mut rom = [0u8; 64];
        for at in [0, 10, 20, 48, 56] {
            rom[at..at + MAGIC.len()].copy_from_slice(&MAGIC);
        }
        // 10: not aligned; 56: only 8 bytes left, not a whole slot.
        assert_eq!(find(&rom), [0, 20, 48]);
        assert!(find(&rom[..15]).is_empty());
    }
}
