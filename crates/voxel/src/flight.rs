//! Flying: keypad intents to camera motion, the same per displayed frame
//! whatever the frame rate (motion is scaled by the refreshes elapsed), never
//! below the ground, and following the ground ahead without jumps.
//!
//! **Following the ground.** A [`Relief`] holds the highest texel of every
//! block of every tile (blocks of 8 texels, at most 4 x 4 a tile). From it,
//! each refresh:
//! - the *floor*: over the blocks round the camera, the highest of (block top
//!   minus [`Relief::slope`] times the block's distance), plus [`CLEARANCE`].
//!   It is never below the ground under the camera, and it changes by at most
//!   `slope` world pixels per pixel flown (a maximum of such cones is
//!   Lipschitz), so the camera, held above it, never jumps: it rises at most
//!   [`Relief::max_rise`] per refresh whatever the terrain, flown in any
//!   direction;
//! - the *look-ahead*: along the heading and 30 degrees either side, up to
//!   [`LOOK_AHEAD`] world pixels, the highest of (block top minus a quarter
//!   of the distance), plus [`CLEARANCE`]. The camera eases up towards it (a quarter
//!   of the way a refresh, at most [`RISE`]), so it is already climbing long
//!   before a wall: terrain ahead stays about below a 1 in 4 slope from the
//!   eye, 30 rows above the horizon (which is 60 rows down at level pitch). Descending (B) stops at it.
//!
//! The camera keeps its altitude otherwise (descend with B).

use crate::render::{Camera, Scene};
use crate::trig;

/// What the pilot asks for, each -1, 0 or 1.
///
/// ```
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// use voxel::flight::Controls;
/// // Up and left held on the D-pad.
/// let controls = Controls { forward: 1, turn: -1, ..Default::default() };
/// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 50 << 8, ..Default::default() };
/// land.follow(&camera);
/// land.fly(&mut camera, controls, 1);
/// assert!(camera.heading > 32_768); // turned left: heading 0 less a little
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Controls {
    /// +1 forward (D-pad up), -1 back.
    pub forward: i8,
    /// +1 turn right (D-pad right), -1 left.
    pub turn: i8,
    /// +1 strafe right (R), -1 left (L).
    pub strafe: i8,
    /// +1 climb (A), -1 descend (B).
    pub climb: i8,
    /// +1 look down, -1 look up.
    pub pitch: i8,
}

/// Speed, world pixels per refresh in 24.8 fixed point.
pub const SPEED: i32 = 3 << 8;
/// Turn rate, angle steps per refresh (about 1.4 degrees).
pub const TURN: i32 = 256;
/// Climb rate, world pixels per refresh in 24.8.
pub const CLIMB: i32 = 2 << 8;
/// Clearance above the ground, world pixels.
pub const CLEARANCE: i32 = 12;
/// Highest altitude the pilot can climb to, world pixels (the floor may be
/// higher over very tall banks).
pub const CEILING: i32 = 700;
/// Pitch limit, screen pixels.
pub const PITCH_LIMIT: i16 = 50;
/// Fastest ease towards the look-ahead, world pixels per refresh.
pub const RISE: i32 = 4;
/// The look-ahead's slope, as a shift: a quarter of a world pixel per pixel
/// ahead (terrain on it is seen 30 rows above the horizon: the sky stays).
pub const LOOK_SLOPE_LOG2: u32 = 2;
/// How far the look-ahead reaches, world pixels.
pub const LOOK_AHEAD: i32 = 512;
/// The look-ahead's spacing along each ray near the camera, world pixels
/// (twice that beyond four of them).
pub const LOOK_STEP: i32 = 32;
/// The look-ahead's rays either side of the heading (about 30 degrees).
pub const LOOK_SPREAD: u16 = 5461;
/// Farthest a camera moves in one refresh, world pixels (forward and strafe
/// together: 3 x 1.414, rounded up).
pub const MOVE_MAX: i32 = 5;
/// Most refreshes one [`fly`] call moves for: a longer gap moves as far as
/// this many (the ground is checked at the end of a call only, so one long
/// move could pass through a hill). To replay a longer gap, call [`fly`]
/// once a refresh, as the ROM does.
pub const MAX_REFRESHES: u32 = 8;
/// The floor's reach: blocks farther than this never count (a steeper slope
/// is used for banks so tall that `slope * FLOOR_REACH` is below their top).
pub const FLOOR_REACH: i32 = 192;

/// Blocks a tile side, as a shift: 1, 2 or 4 blocks of at least 8 texels.
///
/// ```
/// use voxel::flight::blocks_log2;
/// assert_eq!([8, 16, 32, 128].map(blocks_log2), [0, 1, 2, 2]);
/// ```
pub const fn blocks_log2(tile_size: usize) -> u32 {
    let l = tile_size.trailing_zeros();
    if l <= 3 {
        0
    } else if l - 3 < 2 {
        l - 3
    } else {
        2
    }
}

/// Block tops per tile in the table (4 x 4, fewer used for small tiles).
pub const PER_TILE: usize = 16;

/// The first bytes of a relief file ([`Relief::file`]).
pub const FILE_MAGIC: [u8; 4] = *b"TRLF";

/// Bytes of a relief file: [`FILE_MAGIC`], the bank's CRC-32, the CRC-32
/// of the tops, and [`PER_TILE`] block tops for each of [`bank::MAX_TILES`]
/// tiles (the CRCs little-endian).
pub const FILE_LEN: usize = FILE_TOPS_AT + bank::MAX_TILES * PER_TILE;

/// Where a relief file's tops start.
const FILE_TOPS_AT: usize = 12;

/// Why [`Relief::load_file`] refused a relief file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReliefFileError {
    /// Not [`FILE_LEN`] bytes: how many there are.
    Length(usize),
    /// It does not start with [`FILE_MAGIC`].
    Magic,
    /// Baked for another bank: the CRC-32 the file names, and the bank's.
    OtherBank { file: u32, bank: u32 },
    /// Its tops are not what it was written with: the CRC-32 it records,
    /// and theirs.
    Corrupt { recorded: u32, found: u32 },
}

impl core::fmt::Display for ReliefFileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReliefFileError::Length(n) => write!(f, "{n} bytes, not a relief file's {FILE_LEN}"),
            ReliefFileError::Magic => write!(f, "not a relief file (it does not start with TRLF)"),
            ReliefFileError::OtherBank { file, bank } => write!(
                f,
                "baked for another bank (CRC-32 {file:08X}, this bank's is {bank:08X}): bake it again from this bank"
            ),
            ReliefFileError::Corrupt { recorded, found } => write!(
                f,
                "corrupt: its tops' CRC-32 is {found:08X}, not the {recorded:08X} it records: write it again from the bank"
            ),
        }
    }
}

impl core::error::Error for ReliefFileError {}

/// The highest texel of each block of each tile of a bank (4 KB + a few
/// words: on the GBA keep it in a `static`).
///
/// ```
/// # let mut tiles = [bank::texel(10, 1); 32 * 32];
/// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// use voxel::flight::Relief;
/// let relief = Relief::of(&b);
/// assert_eq!(relief.top_px(), 200);
/// ```
#[derive(Clone)]
pub struct Relief {
    /// Per tile, `PER_TILE` block tops in height units, row-major.
    tops: [u8; bank::MAX_TILES * PER_TILE],
    /// Per tile, the highest of its block tops, height units: the floor
    /// passes over a tile whose top could not beat what it has found.
    tile_tops: [u8; bank::MAX_TILES],
    /// Blocks a tile side, log2.
    blocks_log2: u32,
    /// A block's side in world pixels, log2.
    block_px_log2: u32,
    /// World pixels per height unit, 8.8.
    height_scale: i32,
    /// 255 minus the highest block top, height units (0 until built or
    /// loaded: any height; zero, so that the relief's static stays in
    /// `.bss`), and the highest block top, world pixels.
    headroom: u8,
    top_px: i32,
    /// The floor's slope, world pixels per pixel, and reach.
    slope: i32,
    /// 65,536 over `slope`, rounded up (0 until built): the floor divides by
    /// the slope with a multiply (ARM code in IWRAM: no call of the division
    /// in ROM).
    slope_inverse: i32,
    reach: i32,
    /// The CRC-32 of the bank the tops are of (its header's), once built
    /// or loaded: what [`Relief::file`] names.
    bank_crc: Option<u32>,
}

impl core::fmt::Debug for Relief {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Relief")
            .field("blocks_log2", &self.blocks_log2)
            .field("top", &self.top())
            .field("top_px", &self.top_px)
            .field("slope", &self.slope)
            .field("reach", &self.reach)
            .finish_non_exhaustive()
    }
}

impl Default for Relief {
    fn default() -> Self {
        Self::new()
    }
}

impl Relief {
    /// An empty relief (everything flat at 0) until [`Relief::build`].
    ///
    /// ```
    /// // On the GBA: a `static` in `.bss` (EWRAM), taken once as `&mut` (the
    /// // ROM's `Static<Relief>`), then `build` or `load_file`.
    /// let relief = voxel::flight::Relief::new();
    /// assert_eq!(relief.top_px(), 0);
    /// ```
    pub const fn new() -> Self {
        Relief {
            tops: [0; bank::MAX_TILES * PER_TILE],
            tile_tops: [0; bank::MAX_TILES],
            blocks_log2: 0,
            block_px_log2: 0,
            height_scale: 0,
            headroom: 0,
            top_px: 0,
            slope: 0,
            slope_inverse: 0,
            reach: 0,
            bank_crc: None,
        }
    }

    /// The relief of `bank`, with the portable [`tile_tops`].
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// let relief = voxel::flight::Relief::of(&b);
    /// // 32-texel tiles: 4 x 4 blocks of 8 texels; the peak is in the first.
    /// assert_eq!(&relief.tops()[..4], &[200, 10, 10, 10]);
    /// ```
    pub fn of(bank: &bank::Bank<'_>) -> Self {
        let mut r = Relief::new();
        r.build(bank, |_, texels, size, out| tile_tops(texels, size, out));
        r
    }

    /// Fills in `bank`'s block tops: `tops(tile, texels, tile_size, out)`
    /// writes one tile's ([`tile_tops`] does, portably; the GBA has a faster
    /// one, and shows progress through it). A bank at an odd address (its
    /// texels not readable as u16 in place) gets its tops from its bytes
    /// instead, without calling `tops`. The tops must be the tiles'
    /// highest texels, not less: the renderer skips what they say it cannot
    /// see ([`Relief::top`]).
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// use voxel::flight::{Relief, tile_tops};
    /// let mut relief = Relief::new();
    /// let mut tiles_done = 0;
    /// relief.build(&b, |_, texels, size, out| {
    ///     tile_tops(texels, size, out);
    ///     tiles_done += 1; // a progress bar here
    /// });
    /// assert_eq!((tiles_done, relief.top_px()), (1, 200));
    /// ```
    pub fn build(&mut self, bank: &bank::Bank<'_>, mut tops: impl FnMut(usize, &[u16], usize, &mut [u8; PER_TILE])) {
        let n = bank.tile_size();
        match bank.texels() {
            Some(texels) => {
                for (t, tile) in texels.chunks_exact(n * n).take(bank::MAX_TILES).enumerate() {
                    tops(t, tile, n, tile_slot(&mut self.tops, t));
                }
            }
            // At an odd address the texels cannot be read as u16 in place:
            // their heights (each texel's low byte), portably, without `tops`.
            None => {
                for (t, tile) in bank.tile_bytes().chunks_exact(2 * n * n).take(bank::MAX_TILES).enumerate() {
                    let rows = tile.chunks_exact(2 * n.max(1));
                    block_tops(rows, n, tile_slot(&mut self.tops, t), |row, from, to| {
                        row[2 * from..2 * to].iter().step_by(2).fold(0, |m, h| m.max(*h))
                    });
                }
            }
        }
        self.finish(bank);
    }

    /// The block tops, [`PER_TILE`] a tile, in height units.
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// use voxel::flight::{PER_TILE, Relief};
    /// let tops = Relief::of(&b).tops().to_vec();
    /// assert_eq!(tops.len(), bank::MAX_TILES * PER_TILE);
    /// ```
    pub fn tops(&self) -> &[u8] {
        &self.tops
    }

    /// This relief as a relief file of the bank it was built (or loaded)
    /// for, to bake ahead of time (`tilebake relief`, or a build script)
    /// and load with [`Relief::load_file`]: [`FILE_MAGIC`], the bank's
    /// CRC-32 (its header's), the CRC-32 of the tops (both little-endian),
    /// then the [`Relief::tops`]; [`FILE_LEN`] bytes. `None` before
    /// [`Relief::build`] or a load: the tops are then no bank's.
    pub fn file(&self) -> Option<[u8; FILE_LEN]> {
        let crc = self.bank_crc?;
        let mut out = [0; FILE_LEN];
        out[..4].copy_from_slice(&FILE_MAGIC);
        out[4..8].copy_from_slice(&crc.to_le_bytes());
        out[8..FILE_TOPS_AT].copy_from_slice(&bank::crc32(&self.tops).to_le_bytes());
        out[FILE_TOPS_AT..].copy_from_slice(&self.tops);
        Some(out)
    }

    /// The relief of `bank` from a relief file ([`Relief::file`]) baked for
    /// it, without reading its tiles (on the GBA, for 248 tiles of 32
    /// texels, the tops' CRC-32 by the portable loop takes 234,000 cycles,
    /// most of the load, against [`Relief::build`]'s 2.9 million; see
    /// [`Relief::load_file_with`]). Refused, with nothing changed,
    /// if the bytes are not a relief file, are another bank's (its CRC-32
    /// differs) or its tops are corrupt (their CRC-32 differs from the one
    /// it records): wrong tops, lower than the bank's, would make the
    /// renderer leave out terrain ([`Relief::top`]).
    ///
    /// ```
    /// # let tile = |h| [bank::texel(h, 1); 32 * 32];
    /// # let bank_of = |tiles: &[u16]| bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (bytes, other) = (bank_of(&tile(200)), bank_of(&tile(100)));
    /// # let (b, other) = (bank::parse(&bytes).unwrap(), bank::parse(&other).unwrap());
    /// use voxel::flight::{Relief, ReliefFileError};
    /// let baked = Relief::of(&b).file().unwrap(); // `tilebake relief my.bank -o my.relief` writes the same
    /// let mut relief = Relief::new();
    /// assert!(relief.file().is_none()); // no bank's yet
    /// assert_eq!(relief.load_file(&b, &baked), Ok(()));
    /// assert_eq!(relief.top_px(), 200);
    /// assert!(matches!(relief.load_file(&other, &baked), Err(ReliefFileError::OtherBank { .. })));
    /// assert_eq!(relief.load_file(&b, &baked[1..]), Err(ReliefFileError::Length(4107)));
    /// let mut flipped = baked;
    /// flipped[100] ^= 1; // a top
    /// assert!(matches!(relief.load_file(&b, &flipped), Err(ReliefFileError::Corrupt { .. })));
    /// ```
    pub fn load_file(&mut self, bank: &bank::Bank<'_>, bytes: &[u8]) -> Result<(), ReliefFileError> {
        self.load_file_with(bank, bytes, &bank::PortableScan)
    }

    /// [`Relief::load_file`], the tops' CRC-32 by `scan`: on the GBA a
    /// faster one than the portable loop, the same CRC (the ROM's,
    /// slicing-by-4 from tables read without wait states, takes about
    /// 33,000 cycles for the tops where the portable loop takes 234,000).
    ///
    /// ```
    /// # let tiles = [bank::texel(90, 1); 32 * 32];
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// # let baked = voxel::flight::Relief::of(&b).file().unwrap();
    /// let mut relief = voxel::flight::Relief::new();
    /// assert_eq!(relief.load_file_with(&b, &baked, &bank::PortableScan), Ok(()));
    /// assert_eq!(relief.top_px(), 90);
    /// ```
    pub fn load_file_with(
        &mut self,
        bank: &bank::Bank<'_>,
        bytes: &[u8],
        scan: &impl bank::Scan,
    ) -> Result<(), ReliefFileError> {
        let bytes: &[u8; FILE_LEN] = bytes.try_into().map_err(|_| ReliefFileError::Length(bytes.len()))?;
        if bytes[..4] != FILE_MAGIC {
            return Err(ReliefFileError::Magic);
        }
        let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        let (file, crc) = (word(4), bank.header().crc32);
        if file != crc {
            return Err(ReliefFileError::OtherBank { file, bank: crc });
        }
        let tops = &bytes[FILE_TOPS_AT..];
        let (recorded, found) = (word(8), scan.crc32(tops));
        if recorded != found {
            return Err(ReliefFileError::Corrupt { recorded, found });
        }
        self.tops.copy_from_slice(tops);
        self.finish(bank);
        Ok(())
    }

    /// The geometry and the floor's slope, from the bank and the tops.
    fn finish(&mut self, bank: &bank::Bank<'_>) {
        self.bank_crc = Some(bank.header().crc32);
        let n = bank.tile_size();
        self.blocks_log2 = blocks_log2(n);
        self.block_px_log2 = crate::render::tile_px_log2(n) - self.blocks_log2;
        self.height_scale = bank.height_scale() as i32;
        for (t, tops) in self.tops.chunks_exact(PER_TILE).enumerate() {
            self.tile_tops[t] = tops.iter().copied().max().unwrap_or(0);
        }
        // The bank's tiles' tops (the rest are not used).
        let top = self.tile_tops[..bank.tile_count().min(bank::MAX_TILES)].iter().copied().max().unwrap_or(0);
        self.headroom = u8::MAX - top;
        self.top_px = (top as i32 * self.height_scale) >> 8;
        // Slope 2 reaching the top of the bank; steeper if that would reach
        // beyond FLOOR_REACH.
        self.slope = 2.max((self.top_px + FLOOR_REACH - 1) / FLOOR_REACH);
        self.reach = (self.top_px + self.slope - 1) / self.slope;
        self.slope_inverse = ((1 << 16) + self.slope - 1) / self.slope;
    }

    /// The highest texel of bank tile `t`, height units (the renderer's
    /// skips: `render::group_tops`).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn tile_top(&self, t: u8) -> u8 {
        self.tile_tops[t as usize]
    }

    /// With `blocks`, the highest block top (height units) of bank tile
    /// `t`, the world's tile `(tx, ty)` (tile coordinates, as they come
    /// before the wrap, of `1 << tile_px_log2` world pixels a side), among
    /// its blocks under the box of world pixels `[x0, x1, y0, y1]`
    /// (inclusive); else, or if no block is under it, or the scene's tiles
    /// are not the relief's size, the tile's top. (A call of its own:
    /// inlined, its loops took 500 bytes more of IWRAM.)
    #[cfg_attr(
        target_arch = "arm",
        instruction_set(arm::a32),
        unsafe(link_section = ".iwram.voxel_top_under"),
        inline(never)
    )]
    pub(crate) fn top_under(
        &self,
        t: u8,
        (tx, ty): (i32, i32),
        bounds: &[i32; 4],
        blocks: bool,
        tile_px_log2: u32,
    ) -> u8 {
        // Blocks only in tiles of the relief's own size (a relief of another
        // bank: its blocks do not line up with the scene's tiles).
        if !blocks || tile_px_log2 != self.block_px_log2 + self.blocks_log2 {
            return self.tile_top(t);
        }
        let [x0, x1, y0, y1] = *bounds;
        let ((bx0, bx1), (by0, by1)) = (self.blocks_inside(x0, x1, tx), self.blocks_inside(y0, y1, ty));
        if bx0 > bx1 || by0 > by1 {
            // The box misses the tile: its top, which bounds every block.
            return self.tile_top(t);
        }
        let (bx0, bx1, by0, by1) = (bx0 as u32, bx1 as u32, by0 as u32, by1 as u32);
        let mut high = 0;
        let mut by = by0;
        while by <= by1 {
            let row = t as usize * PER_TILE + ((by as usize) << self.blocks_log2);
            let mut bx = bx0;
            while bx <= bx1 {
                high = high.max(self.tops[(row + bx as usize) & (self.tops.len() - 1)]);
                bx += 1;
            }
            by += 1;
        }
        high
    }

    /// The blocks of tile `t` (a world tile coordinate along one axis) under
    /// the world pixels `lo ..= hi` along it: the first and the last,
    /// counted from the tile's first block (the first above the last if
    /// none is).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn blocks_inside(&self, lo: i32, hi: i32, t: i32) -> (i32, i32) {
        let first = t << self.blocks_log2;
        let last = first + (1 << self.blocks_log2) - 1;
        ((lo >> self.block_px_log2).max(first) - first, (hi >> self.block_px_log2).min(last) - first)
    }

    /// The floor's slope, world pixels of rise per pixel.
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(voxel::flight::Relief::of(&b).slope(), 2); // the least slope
    /// ```
    pub fn slope(&self) -> i32 {
        self.slope
    }

    /// The highest block top, height units: no texel of the bank is higher,
    /// if the tops are the bank's (255 until [`Relief::build`] or
    /// [`Relief::load_file`]). The renderer passes over the depth slices where
    /// not even a texel this high could show.
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: 2 << 8 }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// let relief = voxel::flight::Relief::of(&b);
    /// assert_eq!((relief.top(), relief.top_px()), (200, 400)); // two world px per unit
    /// assert_eq!(voxel::flight::Relief::new().top(), 255); // not built: any height
    /// # let flat = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(0, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// assert_eq!(voxel::flight::Relief::of(&bank::parse(&flat).unwrap()).top(), 0); // built: all at 0
    /// ```
    pub fn top(&self) -> u8 {
        u8::MAX - self.headroom
    }

    /// The highest block top, world pixels.
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(voxel::flight::Relief::of(&b).top_px(), 200); // height 200, one px per unit
    /// ```
    pub fn top_px(&self) -> i32 {
        self.top_px
    }

    /// The most the camera rises in one refresh, world pixels: the floor
    /// moves at most `slope` per pixel flown; the ease at most [`RISE`], the
    /// pilot at most [`CLIMB`].
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// use voxel::flight::{MOVE_MAX, Relief};
    /// let relief = Relief::of(&b);
    /// assert_eq!(relief.max_rise(), relief.slope() * MOVE_MAX); // 10: more than RISE and CLIMB
    /// ```
    pub fn max_rise(&self) -> i32 {
        (self.slope * MOVE_MAX).max(RISE).max(CLIMB >> 8)
    }

    /// The top of the block under world pixel (`wx`, `wy`), world pixels.
    /// Its tile must be inside the scene's window.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn top_at<const N: usize>(&self, scene: &Scene<'_, N>, wx: u32, wy: u32) -> i32 {
        let mask = scene.world_px() - 1;
        let (wx, wy) = (wx & mask, wy & mask);
        let tpl = scene.tile_px_log2();
        let tile = scene.window().get(wx >> tpl, wy >> tpl) as usize;
        let m = (1u32 << self.blocks_log2) - 1;
        let (bx, by) = ((wx >> self.block_px_log2) & m, (wy >> self.block_px_log2) & m);
        self.px(self.tops[(tile * PER_TILE + ((by << self.blocks_log2) + bx) as usize) & (self.tops.len() - 1)])
    }

    /// The floor at world pixel (`px`, `py`) without the clearance: the
    /// highest block top round it less `slope` times its (Chebyshev) distance.
    ///
    /// On the GBA it is ARM code in IWRAM (about 940 bytes, with its callees
    /// inlined): as Thumb code in ROM the flight took 5,198 cycles a frame on
    /// the bench's route, 3,876 with it in IWRAM (the frame lines' `flight=`
    /// over the route, December 2026).
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// # let relief = Box::new(voxel::flight::Relief::of(&b));
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
    /// # let mut land = voxel::Landscape::new(b, parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// let scene = land.scene();
    /// let relief = scene.relief().unwrap();
    /// assert_eq!(relief.floor(&scene, 21, 21), 200); // on the peak's block (world px 0 ..= 31)
    /// assert_eq!(relief.floor(&scene, 72, 21), 200 - 2 * 41); // 41 px from it, slope 2
    /// ```
    #[cfg_attr(
        target_arch = "arm",
        instruction_set(arm::a32),
        unsafe(link_section = ".iwram.voxel_flight"),
        inline(never)
    )]
    pub fn floor<const N: usize>(&self, scene: &Scene<'_, N>, px: u32, py: u32) -> i32 {
        let mut best = self.top_at(scene, px, py);
        // Only blocks within `far` can beat the camera's own: top_px - slope
        // * d > best needs d <= (lead - 1) / slope, lead = top_px - best.
        // By the rounded-up inverse that is never too few and at most one
        // too many (lead is below 2^16; for the banks' heights and slopes it
        // is exact), and a block one further could not beat `best` (its
        // slope * d is at least lead: the `>` below refuses it), so the
        // floor is the same.
        let lead = self.top_px - best;
        if lead <= 0 || self.slope <= 0 {
            return best;
        }
        let far = self.reach.min(((lead - 1) * self.slope_inverse) >> 16);
        // Tile by tile, positions relative to the camera's tile: a tile whose
        // highest block could not beat `best` at the tile's own distance is
        // passed over, its blocks untested (over the sea, nearly all of them).
        let tpl = scene.tile_px_log2();
        let tp = 1i32 << tpl;
        let world_tiles_mask = (scene.world_px() >> tpl) - 1;
        let (ctx, cty) = (px >> tpl, py >> tpl);
        let (ix, iy) = ((px & (tp as u32 - 1)) as i32, (py & (tp as u32 - 1)) as i32);
        let mut j = (iy - far) >> tpl;
        while j <= (iy + far) >> tpl {
            let dy = axis_distance(j << tpl, tp, iy);
            let ty = (cty as i32).wrapping_add(j) as u32 & world_tiles_mask;
            let mut i = (ix - far) >> tpl;
            while i <= (ix + far) >> tpl {
                let d = axis_distance(i << tpl, tp, ix).max(dy);
                let tx = (ctx as i32).wrapping_add(i) as u32 & world_tiles_mask;
                let tile = scene.window().get(tx, ty) as usize & (bank::MAX_TILES - 1);
                if d <= far && self.px(self.tile_tops[tile]) - self.slope * d > best {
                    best = self.best_in_tile(tile, (i << tpl, j << tpl), (ix, iy), far, best);
                }
                i += 1;
            }
            j += 1;
        }
        best
    }

    /// [`Relief::floor`] over the blocks of `tile`, whose top-left pixel is
    /// `origin` and the camera at `p` (both relative to the camera's tile):
    /// the highest of `best` and each block's top less `slope` times its
    /// distance, over the blocks within `far`.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn best_in_tile(&self, tile: usize, origin: (i32, i32), p: (i32, i32), far: i32, mut best: i32) -> i32 {
        let blk = 1i32 << self.block_px_log2;
        let per = 1usize << self.blocks_log2;
        for by in 0..per {
            let dy = axis_distance(origin.1 + ((by as i32) << self.block_px_log2), blk, p.1);
            for bx in 0..per {
                let d = axis_distance(origin.0 + ((bx as i32) << self.block_px_log2), blk, p.0).max(dy);
                if d <= far {
                    let top = self.tops[(tile * PER_TILE + (by << self.blocks_log2) + bx) & (self.tops.len() - 1)];
                    best = best.max(self.px(top) - self.slope * d);
                }
            }
        }
        best
    }

    /// Height units to world pixels.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn px(&self, h: u8) -> i32 {
        (h as i32 * self.height_scale) >> 8
    }

    /// The look-ahead at (`px`, `py`) facing `heading`, without the
    /// clearance: the highest block top on three rays (the heading and
    /// [`LOOK_SPREAD`] either side) less a quarter of its distance, or 0
    /// (the lowest ground) if that is lower or no block is in reach (a
    /// relief under 4 px).
    ///
    /// On the GBA it is ARM code in IWRAM (about 500 bytes): it reads up to 33
    /// block tops a refresh; as Thumb code in ROM the flight took 9,850
    /// cycles a frame on the bench's route, 7,629 with it in IWRAM (`cargo
    /// xtask bench`, the flight's row, December 2026).
    ///
    /// ```
    /// # let mut tiles = [bank::texel(10, 1); 32 * 32];
    /// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// # let relief = Box::new(voxel::flight::Relief::of(&b));
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
    /// # let mut land = voxel::Landscape::new(b, parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// let scene = land.scene();
    /// let relief = scene.relief().unwrap();
    /// // Facing the next tile's peak (world px 128 ..= 159), 28 px ahead.
    /// let ahead = relief.look_ahead(&scene, 100, 21, 0);
    /// assert!(ahead > 150 && ahead <= 200, "{ahead}");
    /// ```
    #[cfg_attr(
        target_arch = "arm",
        instruction_set(arm::a32),
        unsafe(link_section = ".iwram.voxel_flight"),
        inline(never)
    )]
    pub fn look_ahead<const N: usize>(&self, scene: &Scene<'_, N>, px: u32, py: u32, heading: u16) -> i32 {
        let reach = LOOK_AHEAD.min(self.top_px << LOOK_SLOPE_LOG2);
        // Not below the lowest ground: the floor under the camera is at
        // least that, so the flight is the same, and a look-ahead that reads
        // no block (a relief under 4 px) is no `i32::MIN` for the flight's
        // arithmetic to overflow on.
        let mut best = 0;
        // Not unrolled: on the GBA this is ARM code in IWRAM, and three
        // copies of the ray's loop would take three times the room.
        let rays = core::hint::black_box(3);
        let mut r = 0;
        while r < rays {
            let h = heading.wrapping_add([0, LOOK_SPREAD.wrapping_neg(), LOOK_SPREAD][r % 3]);
            r += 1;
            let (c, s) = (trig::cos(h), trig::sin(h));
            // Half a step first (a block's width at most), then every step,
            // and beyond four steps every other step (a tile is four or more).
            let mut d = LOOK_STEP / 2;
            while d <= reach {
                let fall = d >> LOOK_SLOPE_LOG2;
                if self.top_px - fall <= best {
                    // Nor can any farther on: the fall only grows.
                    break;
                }
                let (x, y) = (px.wrapping_add(((c * d) >> 14) as u32), py.wrapping_add(((s * d) >> 14) as u32));
                best = best.max(self.top_at(scene, x, y) - fall);
                d = if d < LOOK_STEP {
                    LOOK_STEP
                } else if d < 4 * LOOK_STEP {
                    d + LOOK_STEP
                } else {
                    d + 2 * LOOK_STEP
                };
            }
        }
        best
    }
}

/// The distance from pixel `p` to the pixels `lo ..= lo + len - 1` along
/// an axis (0 inside them).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn axis_distance(lo: i32, len: i32, p: i32) -> i32 {
    (lo - p).max(p - (lo + len - 1)).max(0)
}

/// The block tops of one tile (`texels`: `tile_size`^2 texels, rows top to
/// bottom) into `out` (row-major, `1 << blocks_log2(tile_size)` a row); all
/// 0 for a tile size of 0. Texels past `texels`' end count as none.
///
/// ```
/// use voxel::flight::{PER_TILE, tile_tops};
/// let mut texels = [bank::texel(3, 0); 8 * 8];
/// texels[7 * 8 + 7] = bank::texel(90, 0);
/// let mut out = [0; PER_TILE];
/// tile_tops(&texels, 8, &mut out); // 8 texels: one block
/// assert_eq!(out[0], 90);
/// ```
pub fn tile_tops(texels: &[u16], tile_size: usize, out: &mut [u8; PER_TILE]) {
    let rows = texels.chunks_exact(tile_size.max(1));
    block_tops(rows, tile_size, out, |row, from, to| row[from..to].iter().fold(0, |m, t| m.max(*t as u8)));
}

/// Tile `t`'s [`PER_TILE`] tops in `tops`.
fn tile_slot(tops: &mut [u8], t: usize) -> &mut [u8; PER_TILE] {
    (&mut tops[t * PER_TILE..(t + 1) * PER_TILE]).try_into().expect("PER_TILE entries")
}

/// [`tile_tops`] of a tile's rows (top to bottom, at most `tile_size` of
/// them), each block's part of a row measured by `row_max(row, from, to)`:
/// the highest of its texels `from..to`. A block's column range and row are
/// found once a row, not per texel (on the GBA a division is a call).
fn block_tops<R>(
    rows: impl Iterator<Item = R>,
    tile_size: usize,
    out: &mut [u8; PER_TILE],
    row_max: impl Fn(&R, usize, usize) -> u8,
) {
    let bl = blocks_log2(tile_size);
    let side = tile_size >> bl;
    *out = [0; PER_TILE];
    if side == 0 {
        return; // no tile (size 0): no tops
    }
    let per = tile_size / side;
    for (y, row) in rows.take(tile_size).enumerate() {
        let first = (y / side) << bl;
        for bx in 0..per {
            let b = &mut out[(first + bx) & (PER_TILE - 1)];
            *b = (*b).max(row_max(&row, bx * side, (bx + 1) * side));
        }
    }
}

/// Moves `camera` by `controls` held for `refreshes` screen refreshes (at
/// most [`MAX_REFRESHES`]: more move as far as that many), then keeps it
/// above the ground: with a [`Relief`] in the scene, above its floor
/// and easing up to the look-ahead (see the module docs); without, just
/// above the ground under it. Keeps coordinates inside the (wrapping) world.
///
/// ```
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// use voxel::flight::{CLEARANCE, Controls, fly};
/// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 0, ..Default::default() };
/// land.follow(&camera);
/// // Descending into the ground: held at the clearance above it.
/// fly(&mut camera, Controls { climb: -1, ..Default::default() }, 1, &land.scene());
/// assert_eq!(camera.z >> 8, 10 + CLEARANCE);
/// ```
pub fn fly<const N: usize>(camera: &mut Camera, controls: Controls, refreshes: u32, scene: &Scene<'_, N>) {
    // Each control is -1, 0 or +1 (more is taken as +1).
    let controls = Controls {
        forward: controls.forward.signum(),
        turn: controls.turn.signum(),
        strafe: controls.strafe.signum(),
        climb: controls.climb.signum(),
        pitch: controls.pitch.signum(),
    };
    let k = refreshes.min(MAX_REFRESHES) as i32;
    camera.heading = camera.heading.wrapping_add((controls.turn as i32 * TURN * k) as u16);
    let (c, s) = (trig::cos(camera.heading), trig::sin(camera.heading));
    let f = controls.forward as i32 * SPEED * k;
    let r = controls.strafe as i32 * SPEED * k;
    // forward = (c, s), right = (-s, c); 2.14 * 24.8 >> 14 = 24.8.
    let dx = (c * f - s * r) >> 14;
    let dy = (s * f + c * r) >> 14;
    let wrap = (scene.world_px() << 8).wrapping_sub(1);
    camera.x = camera.x.wrapping_add(dx as u32) & wrap;
    camera.y = camera.y.wrapping_add(dy as u32) & wrap;
    let before = camera.z;
    camera.z += controls.climb as i32 * CLIMB * k;
    camera.pitch =
        (camera.pitch as i32 + controls.pitch as i32 * 2 * k).clamp(-PITCH_LIMIT as i32, PITCH_LIMIT as i32) as i16;
    let (px, py) = (camera.x >> 8, camera.y >> 8);
    let floor = match scene.relief() {
        Some(relief) => {
            // Ease up to the look-ahead; descending stops at it.
            let target = (relief.look_ahead(scene, px, py, camera.heading) + CLEARANCE) << 8;
            let eased =
                if before < target { before + ((target - before + 3) / 4).min((RISE << 8) * k) } else { target };
            camera.z = camera.z.max(eased);
            (relief.floor(scene, px, py) + CLEARANCE) << 8
        }
        None => (scene.ground(px, py) + CLEARANCE) << 8,
    };
    camera.z = camera.z.clamp(floor, floor.max(CEILING << 8));
}

/// Puts `camera` at once on or above its floor (with a relief) or the ground
/// (without): for a new world or a camera placed from outside, where the
/// flight's bounded climb does not apply.
///
/// ```
/// # let mut tiles = [bank::texel(10, 1); 32 * 32];
/// # tiles[5 * 32 + 5] = bank::texel(200, 1); // a peak at texel (5, 5) of the tile
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// # let relief = Box::new(voxel::flight::Relief::of(&b));
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
/// # let mut land = voxel::Landscape::new(b, parts, 1).unwrap();
/// use voxel::flight::{CLEARANCE, settle};
/// let mut camera = voxel::Camera { x: 21 << 8, y: 21 << 8, z: 0, ..Default::default() };
/// land.follow(&camera);
/// settle(&mut camera, &land.scene());
/// assert_eq!(camera.z >> 8, 200 + CLEARANCE); // above the peak
/// ```
pub fn settle<const N: usize>(camera: &mut Camera, scene: &Scene<'_, N>) {
    let (px, py) = (camera.x >> 8, camera.y >> 8);
    let floor = match scene.relief() {
        Some(relief) => relief.floor(scene, px, py).max(relief.look_ahead(scene, px, py, camera.heading)),
        None => scene.ground(px, py),
    };
    camera.z = camera.z.max((floor + CLEARANCE) << 8);
}
