//! Corner bakes pinned byte for byte: small generated pairs baked with the
//! corner placement (three and two classes, every orientation option, one and
//! two pairs, a texture with and without baked lighting), each bank's FNV-1a
//! hash, its counts and notes. Any change to how the corner builder picks
//! sources, cuts and joins edges, quantises or stores shows here. After a
//! deliberate change, look at the tiles (`tilebake preview`) and the world
//! (`cargo xtask docs`), then pin the values the failure prints.

use image::{GrayImage, ImageBuffer, Luma, Rgb, RgbImage};
use std::path::Path;
use tilebake::bake::Orientations;
use tilebake::{HeightScale, Options, Pair, PlacementKind, bake};

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// A generated pair (`tilebake generate`: fractal heights, biome colours with
/// baked lighting) of `size` px, as PNGs in `dir`.
fn generated(dir: &Path, seed: u32, size: u32) -> Pair {
    let [height, texture] = tilebake::generate::write(seed, size, &dir.join(format!("gen{seed}"))).unwrap();
    Pair { height, texture }
}

/// A pair without lighting: ridges and valleys from two sines' product (in
/// integers), coloured flat by height band.
fn unlit(dir: &Path, size: u32) -> Pair {
    let h = |x: u32, y: u32| -> u8 {
        let tri = |v: u32, p: u32| (v % p).min(p - v % p) * 255 / (p / 2);
        ((tri(x, 96) * 3 + tri(y + x / 3, 80) * 2) / 5) as u8
    };
    let heights: ImageBuffer<Luma<u8>, Vec<u8>> = GrayImage::from_fn(size, size, |x, y| Luma([h(x, y)]));
    let texture = RgbImage::from_fn(size, size, |x, y| match h(x, y) {
        0..=70 => Rgb([30, 60, 200]),
        71..=150 => Rgb([40, 160, 50]),
        151..=210 => Rgb([120, 100, 60]),
        _ => Rgb([240, 240, 240]),
    });
    let (hp, tp) = (dir.join("unlit-h.png"), dir.join("unlit-t.png"));
    heights.save(&hp).unwrap();
    texture.save(&tp).unwrap();
    Pair { height: hp, texture: tp }
}

/// (hash, tiles cut, tiles stored, colours, notes) of one bake.
type Pinned = (u64, usize, usize, usize, Vec<String>);

/// The bank of `pairs` baked with 24 colours, no seam band, an automatic
/// height scale and the rest as given.
fn baked(
    pairs: Vec<Pair>,
    tile_size: u32,
    placement: PlacementKind,
    classes: u32,
    orientations: Orientations,
) -> tilebake::Baked {
    let options = Options {
        tile_size,
        colours: 24,
        pairs,
        placement,
        classes,
        orientations,
        seam_band: 0,
        height_scale: HeightScale::Auto,
    };
    bake(&options, &mut |_, _, _| {}).unwrap()
}

fn corner_bake(pairs: Vec<Pair>, tile_size: u32, classes: u32, orientations: Orientations) -> Pinned {
    let b = baked(pairs, tile_size, PlacementKind::Corners, classes, orientations);
    (fnv1a(&b.bytes), b.tiles_cut, b.tiles_stored, b.colours, b.notes)
}

#[test]
fn corner_bakes_are_pinned() {
    let d = tempfile::tempdir().unwrap();
    let (g1, g2, flat) = (generated(d.path(), 1, 256), generated(d.path(), 2, 128), unlit(d.path(), 256));
    let got = [
        corner_bake(vec![g1.clone()], 16, 3, Orientations::Auto),
        corner_bake(vec![g1.clone()], 16, 2, Orientations::All),
        corner_bake(vec![g1, g2], 16, 3, Orientations::Upright),
        corner_bake(vec![flat.clone()], 32, 3, Orientations::Auto),
        corner_bake(vec![flat], 8, 2, Orientations::Upright),
    ];
    let lit = "the texture has baked lighting: tiles keep the source's orientation".to_string();
    let missing = |a: &str, b: &str, c: &str| {
        format!(
            "no window of the source has corner classes {a}/{b} (top-left top-right/bottom-left bottom-right, \
             0 = low ground): its tiles are cut from windows of {a}/{c}, their borders still match"
        )
    };
    // 22 colours of 24 (21 with two classes): the quantiser's palette holds
    // a colour no pixel maps to (a neuron left near black), which the blends
    // no longer pick, and colours no tile happens to use are not stored.
    // The corner tiles take each class's typical ground: the source's
    // rarest (highest peaks, deepest pits, their colours) is left out, and
    // the bake says how much.
    let beyond = |share: &str, side: &str, h: u32| {
        let (dir, most) = if side == "above" { ("above", "highest") } else { ("below", "lowest") };
        format!(
            "{share} of the heightmap lies {dir} height {h}, the {most} any corner tile has: that ground is left out"
        )
    };
    let no_colours = |which: &str| {
        format!(
            "no corner tile shows {which}: each tile is cut from the ground typical of its corners' classes, and rare \
             ground is left out (make it more common in the source, or bake --placement paper)"
        )
    };
    let want: [Pinned; 5] = [
        (
            0xef46_eb26_156d_9b4c,
            248,
            248,
            22,
            vec![missing("12", "21", "11"), missing("21", "12", "11"), lit, beyond("8.7%", "above", 195)],
        ),
        // Two classes from a 256-px source: a spot at every vertex of a kind.
        (
            0xa11b_8a17_06ac_f4cd,
            128,
            128,
            21,
            vec![
                no_colours("colour #FFFFFF (4.4% of the texture)"),
                beyond("18.0%", "above", 140),
                "the tiles' shared borders show as a lattice from above (colour lattice 5.7 over 16 x 16 tiles of \
                 world 1; from 5 it shows): see it with `tilebake world`, measure it with `tilebake seams --tiles \
                 16`; a smaller --tile-size cuts more tiles for the borders to choose from, which lowers it (a \
                 larger source of the same land may not)"
                    .to_string(),
            ],
        ),
        // Asked for upright: no note about lighting.
        (0xad72_49ce_26c1_5648, 248, 248, 22, vec![beyond("7.6%", "above", 202)]),
        // No baked lighting: auto cuts every orientation.
        (0xc49f_9621_062b_8210, 248, 248, 4, vec![beyond("7.3%", "below", 48)]),
        (
            0xff99_9a0a_79de_3177,
            128,
            128,
            2,
            vec![
                missing("01", "10", "00"),
                missing("10", "01", "00"),
                no_colours("colours #2139C6 (15.5% of the texture), #EFEFEF (6.7% of the texture)"),
                beyond("18.7%", "below", 78),
                beyond("22.2%", "above", 174),
            ],
        ),
    ];
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "case {i}: all cases {got:#x?}");
    }
}

/// A corner bank's colours are its source's: the blends across the cuts pick
/// the nearest colour some source pixel has, never one only the quantiser's
/// palette holds (it drew black specks along coasts). The paper's bake of
/// the same pair keeps exactly the colours its pixels map to.
#[test]
fn corner_tiles_use_only_the_source_colours() {
    let d = tempfile::tempdir().unwrap();
    let g = generated(d.path(), 1, 256);
    let colours = |b: &[u8]| {
        let b = bank::parse(b).unwrap();
        (0..b.palette_len()).map(|i| b.colour(i)).collect::<std::collections::BTreeSet<u16>>()
    };
    let paper = colours(&baked(vec![g.clone()], 16, PlacementKind::Paper, 3, Orientations::Auto).bytes);
    let corners = colours(&baked(vec![g], 16, PlacementKind::Corners, 3, Orientations::Auto).bytes);
    let extra: Vec<&u16> = corners.difference(&paper).collect();
    assert!(extra.is_empty(), "colours only the corner bake has: {extra:?}");
}

/// `tilebake inspect`'s report and `tilebake preview`'s contact sheet of one
/// corner bank, pinned: the thresholds it lists, the slopes, the storage
/// figures, the sheet's layout and shading.
#[test]
fn inspect_report_and_contact_sheet_are_pinned() {
    let d = tempfile::tempdir().unwrap();
    let baked = baked(vec![unlit(d.path(), 256)], 8, PlacementKind::Corners, 3, Orientations::Upright);
    let path = d.path().join("c.bank");
    std::fs::write(&path, &baked.bytes).unwrap();
    let report = tilebake::inspect::report(&path).unwrap().replace(&path.display().to_string(), "c.bank");
    let want = "\
bank c.bank: 32296 bytes, format version 2
checksum: 0xaa362347 (CRC-32 of the header XOR of the 32268 payload bytes, ok)
tiles: 248 of 8x8 texels
placement: corners, 3 classes (world field thresholds 95, 159), 31 configurations x 8 edge combinations
height scale: 0.359 world px per unit (texels are 4 world px: heights 0..255 span 0..92 px)
slopes inside tiles: mean 0.45, 90th percentile 0.90 world px of rise per world px across
palette: 3 colours (BGR555):
   0x60e4 0x1a65 0x1d8f

tile storage (ROM): ours 31744 bytes (8-bit height + 8-bit colour index per texel);
  the paper's 16-bit height + 16-bit colour would take 63488 bytes

tile reference window (RAM) by view, in the paper's Table 5 form:
  view           refs ours (8-bit) paper (16-bit)
  256^2 px         64           64            128
  512^2 px        256          256            512
  1024^2 px      1024         1024           2048
  2048^2 px      4096         4096           8192
";
    assert_eq!(report, want);
    let bank = bank::parse(&baked.bytes).unwrap();
    let sheet = tilebake::preview::contact_sheet(&bank);
    assert_eq!((sheet.width(), sheet.height(), fnv1a(sheet.as_raw())), (162, 312, 0x4c89_8f3a_912a_b65a));
}

/// `tilebake preview`'s world map of 64-px tiles (shown at half size: every
/// other texel in x and y), pinned.
#[test]
fn world_map_of_large_tiles_is_pinned() {
    let d = tempfile::tempdir().unwrap();
    let baked = baked(vec![unlit(d.path(), 256)], 64, PlacementKind::Paper, 3, Orientations::Upright);
    let bank = bank::parse(&baked.bytes).unwrap();
    let map = tilebake::preview::world_map(&bank, 3, 3).unwrap();
    assert_eq!((map.width(), map.height(), fnv1a(map.as_raw())), (96, 96, 0x3d0f_26bd_d147_7cd4));
}
