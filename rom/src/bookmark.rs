//! Bookmarks in battery-backed SRAM: the world (seed) and the camera, kept
//! across power-off.
//!
//! Two 64-byte slots at SRAM 0x0000 and 0x0040, each: magic `TBMK`, version,
//! a sequence number, the bookmark, and an FNV-1a checksum of the 32 bytes
//! before it. A save writes the slot that does not hold the newest valid
//! bookmark, so a write cut short by power-off leaves the previous bookmark
//! intact; at boot the newest valid slot wins, and a blank or corrupt slot is
//! reported and ignored, never trusted. SRAM is read and written a byte at a
//! time (its bus is 8 bits wide).

use voxel::Camera;

/// mGBA and flash carts find the save type by this marker in the ROM.
#[used]
#[unsafe(link_section = ".rodata.save_type")]
pub static SAVE_TYPE: [u8; 12] = *b"SRAM_V113\0\0\0";

const SRAM: usize = 0x0E00_0000;
const SLOT_LEN: usize = 64;
const BODY_LEN: usize = 32;
const MAGIC: [u8; 4] = *b"TBMK";
const VERSION: u16 = 1;

/// A saved world and camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bookmark {
    pub sequence: u32,
    pub seed: u32,
    pub camera: Camera,
}

/// Why a slot holds no bookmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotError {
    /// Never written (or erased): no magic.
    Blank,
    /// A version this ROM does not read.
    Version(u16),
    /// The checksum does not match: a torn or corrupt write.
    Checksum,
}

fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, b| (h ^ *b as u32).wrapping_mul(0x0100_0193))
}

fn read_slot(slot: usize) -> [u8; SLOT_LEN] {
    let mut b = [0u8; SLOT_LEN];
    for (i, v) in b.iter_mut().enumerate() {
        // SAFETY: SRAM is mapped at 0x0E000000 (32 KB); byte reads only.
        *v = unsafe { ((SRAM + slot * SLOT_LEN + i) as *const u8).read_volatile() };
    }
    b
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Decodes slot `slot` (0 or 1).
pub fn load(slot: usize) -> Result<Bookmark, SlotError> {
    let b = read_slot(slot);
    if b[0..4] != MAGIC {
        return Err(SlotError::Blank);
    }
    let version = u16::from_le_bytes([b[4], b[5]]);
    if version != VERSION {
        return Err(SlotError::Version(version));
    }
    if le32(&b, BODY_LEN) != fnv1a(&b[..BODY_LEN]) {
        return Err(SlotError::Checksum);
    }
    Ok(Bookmark {
        sequence: le32(&b, 8),
        seed: le32(&b, 12),
        camera: Camera {
            x: le32(&b, 16),
            y: le32(&b, 20),
            z: le32(&b, 24) as i32,
            heading: u16::from_le_bytes([b[28], b[29]]),
            pitch: i16::from_le_bytes([b[30], b[31]]),
        },
    })
}

/// What each slot held.
pub type Slots = [Result<Bookmark, SlotError>; 2];

/// The newest valid bookmark (with its slot), and what each slot held.
pub fn newest() -> (Option<(usize, Bookmark)>, Slots) {
    let slots = [load(0), load(1)];
    let mut best: Option<(usize, Bookmark)> = None;
    for (i, s) in slots.iter().enumerate() {
        if let Ok(b) = s
            && best.is_none_or(|(_, old)| b.sequence.wrapping_sub(old.sequence) as i32 > 0)
        {
            best = Some((i, *b));
        }
    }
    (best, slots)
}

/// Saves a bookmark into the slot not holding the newest one; returns the slot
/// and the bookmark written.
pub fn save(seed: u32, camera: &Camera) -> (usize, Bookmark) {
    let (newest, _) = newest();
    let (slot, sequence) = match newest {
        Some((i, b)) => (1 - i, b.sequence.wrapping_add(1)),
        None => (0, 1),
    };
    let mut b = [0u8; SLOT_LEN];
    b[0..4].copy_from_slice(&MAGIC);
    b[4..6].copy_from_slice(&VERSION.to_le_bytes());
    b[8..12].copy_from_slice(&sequence.to_le_bytes());
    b[12..16].copy_from_slice(&seed.to_le_bytes());
    b[16..20].copy_from_slice(&camera.x.to_le_bytes());
    b[20..24].copy_from_slice(&camera.y.to_le_bytes());
    b[24..28].copy_from_slice(&camera.z.to_le_bytes());
    b[28..30].copy_from_slice(&camera.heading.to_le_bytes());
    b[30..32].copy_from_slice(&camera.pitch.to_le_bytes());
    let sum = fnv1a(&b[..BODY_LEN]);
    b[BODY_LEN..BODY_LEN + 4].copy_from_slice(&sum.to_le_bytes());
    for (i, v) in b.iter().enumerate() {
        // SAFETY: SRAM is mapped at 0x0E000000 (32 KB); byte writes only.
        unsafe { ((SRAM + slot * SLOT_LEN + i) as *mut u8).write_volatile(*v) };
    }
    (slot, Bookmark { sequence, seed, camera: *camera })
}
