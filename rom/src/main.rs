//! The terrain ROM. For now: a seeded world seen from above through the tile
//! reference window (the paper's figures 8 and 9). D-pad scrolls one tile per
//! frame (the window updates only the row or column that scrolls in), START
//! makes a new world.
#![no_std]
#![no_main]

use core::fmt::Write;
use gba::prelude::Color;
use terrain::rng::Rng;
use terrain::{Window, World, WorldParams};
use terrain_rom::cycles::Cycles;
use terrain_rom::input::{Keys, bit};
use terrain_rom::log::Level;
use terrain_rom::panic::error_screen;
use terrain_rom::statics::Static;
use terrain_rom::text::TextWriter;
use terrain_rom::tiles;
use terrain_rom::video::{Mode4, set_palette};
use terrain_rom::{log, map, wait_vblank};

/// Tile references around the camera (4 KB, IWRAM: read by every frame).
const WINDOW: usize = 64;
/// Seed of the first world.
const FIRST_SEED: u32 = 1;

#[unsafe(link_section = ".iwram.world")]
static WORLD: Static<World> = Static::new(World::empty());
#[unsafe(link_section = ".iwram.window")]
static TILE_WINDOW: Static<Window<WINDOW>> = Static::new(Window::new());

const BLACK: u8 = 0;
const WHITE: u8 = 1;
const GREY: u8 = 2;

fn new_world(world: &mut World, window: &mut Window<WINDOW>, seed: u32, params: WorldParams) {
    let t = Cycles::now();
    world.regenerate(seed, params).expect("bank tile counts are 1..=256, the rest is fixed");
    let cycles = t.elapsed();
    window.invalidate();
    log!(
        "world seed={:#010x} tiles={} new_world_cycles={} fingerprint={:#010x}",
        seed,
        params.tile_count,
        cycles,
        world.fingerprint()
    );
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    set_palette(BLACK, Color::BLACK);
    set_palette(WHITE, Color::WHITE);
    set_palette(GREY, Color::from_rgb(6, 6, 8));
    map::load_palette();
    let mut screen = Mode4::init();
    log!("terrain-rom {}: boot ok", env!("CARGO_PKG_VERSION"));

    let t = Cycles::now();
    let (source, parsed) = tiles::load();
    let bank = match parsed {
        Ok(bank) => bank,
        Err(e) => {
            log!(Level::Error, "bad tile bank ({:?}): {}", source, e);
            error_screen("BAD TILE BANK", format_args!("{e}\n\nRebake it with tilebake\nand pack it again."));
            loop {
                wait_vblank();
            }
        }
    };
    log!(
        "bank {:?}: {} tiles of {} px, {} colours, checked in {} cycles",
        source,
        bank.tile_count(),
        bank.tile_size(),
        bank.palette_len(),
        t.elapsed()
    );
    let params = WorldParams { tile_count: bank.tile_count() as u16, ..WorldParams::DEFAULT };

    let world = WORLD.take();
    let window = TILE_WINDOW.take();
    let mut seed = FIRST_SEED;
    new_world(world, window, seed, params);

    let mut keys = Keys::default();
    let (mut cx, mut cy) = (0u32, 0u32);
    let mut last_update = (0u32, 0u32);
    let mut frame: u32 = 0;
    loop {
        keys.poll();
        let held = keys.held_bits();
        if held & bit::LEFT != 0 {
            cx = cx.wrapping_sub(1);
        }
        if held & bit::RIGHT != 0 {
            cx = cx.wrapping_add(1);
        }
        if held & bit::UP != 0 {
            cy = cy.wrapping_sub(1);
        }
        if held & bit::DOWN != 0 {
            cy = cy.wrapping_add(1);
        }
        if keys.pressed_bits() & bit::START != 0 {
            seed = Rng::new(seed ^ frame).next_u32();
            new_world(world, window, seed, params);
        }
        let t = Cycles::now();
        let up = window.recenter(world, cx, cy);
        let cycles = t.elapsed();
        if up.tiles > 0 {
            last_update = (up.tiles, cycles);
            if up.rebuilt {
                log!("window rebuilt: {} tiles in {} cycles", up.tiles, cycles);
            }
        }

        let page = screen.back();
        page.clear(GREY);
        map::draw(page, window, 56, 8);
        let size = world.size_tiles();
        let mut hud = TextWriter::new(page, 0, 18, WHITE, BLACK);
        let _ = write!(hud, "SEED {seed:08X}  X{:<4} Y{:<4}", cx & (size - 1), cy & (size - 1));
        let mut hud = TextWriter::new(page, 0, 19, WHITE, BLACK);
        let _ = write!(hud, "UPDATE {:>4} TILES {:>6} CYC", last_update.0, last_update.1);
        wait_vblank();
        screen.flip();
        frame = frame.wrapping_add(1);
    }
}
