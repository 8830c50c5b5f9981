//! Depth slices and perspective, all as compile-time tables (no division at
//! run time).
//!
//! 96 slices in six bands; the step doubles-ish with distance (level of
//! detail): 16 slices 2 px apart, then 4, 6, 8, 12, 16 px, reaching 776 px.

/// Depth slices per column.
pub const SLICES: usize = 96;
/// Slices per band.
pub const BAND_LEN: usize = 16;
/// Bands of equal step.
pub const BANDS: usize = SLICES / BAND_LEN;
/// Distance between slices in each band, in world pixels.
pub const BAND_STEP: [u32; BANDS] = [2, 4, 6, 8, 12, 16];
/// Distance of the camera plane to slice 0's predecessor, in world pixels.
pub const Z0: u32 = 8;
/// Focal length in screen pixels: 120 for a 90 degree field of view over 240 px.
pub const FOCAL: u32 = 120;

/// Distance of each slice, in world pixels.
pub static Z: [u32; SLICES] = {
    let mut z = [0u32; SLICES];
    let mut acc = Z0;
    let mut s = 0;
    while s < SLICES {
        acc += BAND_STEP[s / BAND_LEN];
        z[s] = acc;
        s += 1;
    }
    z
};

/// View distance, in world pixels.
pub const VIEW_DISTANCE: u32 = {
    let mut acc = Z0;
    let mut b = 0;
    while b < BANDS {
        acc += BAND_STEP[b] * BAND_LEN as u32;
        b += 1;
    }
    acc
};

/// Table length: slice tables are padded to 128 entries so an index masked
/// with 127 needs no bounds check (the entries past [`SLICES`] are unused).
pub const TABLE: usize = 128;

/// FOCAL / z per slice, 16.16 fixed point: screen offset = height difference *
/// INV_Z >> 16. (On the GBA in IWRAM, as the renderer's other tables: a ROM
/// load costs three times as much.)
#[cfg_attr(target_arch = "arm", unsafe(link_section = ".iwram.voxel_tables"))]
pub static INV_Z: [i32; TABLE] = {
    let mut t = [0i32; TABLE];
    let mut s = 0;
    while s < SLICES {
        t[s] = ((FOCAL << 16) / Z[s]) as i32;
        s += 1;
    }
    t
};

/// Fog level of each band (bands end at 40, 104, 200, 328, 520 and 776 px).
pub const FOG_BY_BAND: [u8; BANDS] = [0, 0, 0, 1, 2, 3];

/// Fog level of each slice (0 = clear .. 3 = most fogged): its band's.
#[cfg_attr(target_arch = "arm", unsafe(link_section = ".iwram.voxel_tables"))]
pub static FOG: [u8; TABLE] = {
    let mut t = [0u8; TABLE];
    let mut s = 0;
    while s < SLICES {
        t[s] = FOG_BY_BAND[s / BAND_LEN];
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_reach_the_required_distance() {
        let distance = VIEW_DISTANCE;
        assert!(distance >= 768, "view distance {distance}");
        assert_eq!(Z[SLICES - 1], VIEW_DISTANCE);
        assert!(Z.windows(2).all(|w| w[0] < w[1]));
        assert!(INV_Z[..SLICES].windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(INV_Z[0], (120 << 16) / 10);
    }

    /// Each slice's fog level is its band's: clear to slice 63, then one
    /// level a band; the padding is 0.
    #[test]
    fn fog_by_slice_is_pinned() {
        assert_eq!((FOG[0], FOG[47], FOG[48], FOG[63], FOG[64], FOG[80], FOG[95], FOG[96]), (0, 0, 1, 1, 2, 3, 3, 0));
        assert_eq!((Z[0], Z[15], Z[16], Z[95], VIEW_DISTANCE), (10, 40, 44, 776, 776));
    }
}
