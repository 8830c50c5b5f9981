//! A small game on agb over the terrain engine: fly over an endless tiled
//! landscape in mode 4 (the voxel view drawn into the back page, pages
//! flipped at VBlank) with a craft and its shadow as agb objects.
//!
//! D-pad left/right: turn; up/down: climb/descend (the flight also climbs
//! ahead of hills); START: a new world. The camera always flies forward.
//!
//! The engine is reached only through `land.rs`; the rest is agb and a few
//! display registers agb does not cover (mode 4 and its page flip).
#![no_std]
#![no_main]

extern crate alloc;

mod land;
mod screen;

use agb::display::Palette16;
use agb::display::Rgb15;
use agb::display::object::{DynamicSprite16, Object, PaletteVramSingle, Size, SpriteVram};
use agb::input::{Button, ButtonController, Tri};
use agb::interrupt::VBlank;
use agb::timer::Divider;
use alloc::vec::Vec;
use land::{Camera, Controls, Land, Options};
use screen::Mode4;

/// Seed of the first world.
const FIRST_SEED: u32 = 1;
/// How far ahead of the camera the craft flies, world pixels.
const CRAFT_AHEAD: i32 = 160;
/// How far below the camera the craft flies, world pixels.
const CRAFT_BELOW: i32 = 16;
/// A GBA refresh, in cycles.
const REFRESH_CYCLES: u32 = 280_896;

/// The sprites' colours: 1 outline, 2 body (a magenta no landscape palette
/// has, so the tests can find it), 3 shadow.
static SPRITE_PALETTE: Palette16 = Palette16::new([
    Rgb15::new(0),
    Rgb15::new(0x0842),
    Rgb15::new(0x7C1F),
    Rgb15::new(0x1084),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
    Rgb15::new(0),
]);

/// A delta wing pointing away from the viewer (16 x 16).
fn craft_sprite(palette: &PaletteVramSingle) -> SpriteVram {
    let mut s = DynamicSprite16::new_in(Size::S16x16, agb::ExternalAllocator);
    s.clear(0);
    for y in 2..14 {
        let half = (y - 1) / 2 + 1;
        for x in 8 - half..8 + half {
            let edge = x == 8 - half || x == 7 + half || y == 13;
            s.set_pixel(x, y, if edge { 1 } else { 2 });
        }
    }
    s.to_vram(palette.clone())
}

/// An oval shadow (16 x 16, in its lower half).
fn shadow_sprite(palette: &PaletteVramSingle) -> SpriteVram {
    let mut s = DynamicSprite16::new_in(Size::S16x16, agb::ExternalAllocator);
    s.clear(0);
    for y in 8..14i32 {
        for x in 0..16i32 {
            let (dx, dy) = (2 * x - 15, 2 * (y - 11) * 2 - 1);
            if dx * dx + dy * dy <= 15 * 15 {
                s.set_pixel(x as usize, y as usize, 3);
            }
        }
    }
    s.to_vram(palette.clone())
}

/// In the bitmap modes the screen's second page covers the first half of
/// object tile memory (tiles 0..512), which the display then does not show.
/// agb's sprite allocator starts there, so the game takes that half first
/// (8 x 64 x 64 px of 4 bpp tiles = 16 KB) and keeps it: its sprites then
/// land in tiles 512 and up.
fn reserve_bitmap_half(palette: &PaletteVramSingle) -> Vec<SpriteVram> {
    let block = DynamicSprite16::new_in(Size::S64x64, agb::ExternalAllocator);
    (0..8).map(|_| block.to_vram(palette.clone())).collect()
}

/// Cycles since boot, from timers 2 and 3 cascaded.
struct Clock<'a> {
    timers: agb::timer::Timers<'a>,
}

impl Clock<'_> {
    fn now(&self) -> u32 {
        loop {
            let hi = self.timers.timer3.value();
            let lo = self.timers.timer2.value();
            if self.timers.timer3.value() == hi {
                return ((hi as u32) << 16) | lo as u32;
            }
        }
    }
}

fn controls(input: &ButtonController) -> Controls {
    let climb = input.is_pressed(Button::Up) as i8 - input.is_pressed(Button::Down) as i8;
    let turn = match input.x_tri() {
        Tri::Positive => 1,
        Tri::Negative => -1,
        Tri::Zero => 0,
    };
    Controls { forward: 1, turn, climb, ..Controls::default() }
}

#[agb::entry]
fn main(mut gba: agb::Gba) -> ! {
    let mut timers = gba.timers.timers();
    timers.timer2.set_divider(Divider::Divider1).set_overflow_amount(0).set_enabled(true);
    timers.timer3.set_cascade(true).set_overflow_amount(0).set_enabled(true);
    let clock = Clock { timers };

    let mut gfx = gba.graphics.get();
    let mut input = ButtonController::new();
    let t = clock.now();
    let mut land = Land::new(FIRST_SEED);
    let mut seed = FIRST_SEED;
    screen::set_palette(&land.palette());
    let mut camera = land.start_camera();
    agb::println!("agb-flyover: boot ok, world made in {} cycles", clock.now().wrapping_sub(t));

    let palette = PaletteVramSingle::new(&SPRITE_PALETTE);
    let _bitmap_half = reserve_bitmap_half(&palette);
    let mut craft = Object::new(craft_sprite(&palette));
    let mut shadow = Object::new(shadow_sprite(&palette));

    let mut screen = Mode4::new();
    let mut frame_n: u32 = 0;
    let mut refreshes = 1;
    let mut last = clock.now();
    loop {
        input.update();
        if input.is_just_pressed(Button::Start) {
            seed = seed.wrapping_mul(0x9E37_79B9).wrapping_add(frame_n) | 1;
            land.new_world(seed);
            screen::set_palette(&land.palette());
            land.follow(&camera);
        }
        let c = controls(&input);
        for _ in 0..refreshes {
            land.fly(&mut camera, c);
        }

        let t = clock.now();
        let samples = land.render(&camera, Options::default(), &mut screen.back());
        let render_cycles = clock.now().wrapping_sub(t);
        place_sprites(&land, &camera, &mut craft, &mut shadow);

        let mut frame = gfx.frame();
        craft.show(&mut frame);
        shadow.show(&mut frame);
        // `commit` waits for VBlank only if none came since the last commit:
        // this game's frames take more than a refresh, so it would commit
        // (and flip) in the middle of the screen. Wait for the next VBlank
        // here; `commit` then goes ahead at once, inside it.
        VBlank::get().wait_for_vblank();
        frame.commit();
        screen.flip();
        if frame_n == 0 {
            screen::check_sprites_visible(2);
        }

        let now = clock.now();
        let cycles = now.wrapping_sub(last);
        last = now;
        refreshes = cycles.div_ceil(REFRESH_CYCLES).clamp(1, 8);
        if frame_n.is_multiple_of(16) {
            agb::println!(
                "frame n={} cycles={} render={} samples={} seed={:#010x} x={} y={} z={} heading={}",
                frame_n,
                cycles,
                render_cycles,
                samples,
                seed,
                camera.x >> 8,
                camera.y >> 8,
                camera.z >> 8,
                camera.heading
            );
        }
        frame_n = frame_n.wrapping_add(1);
    }
}

/// The craft ahead of the camera, a little below it; its shadow on the
/// ground under it.
fn place_sprites(land: &Land, camera: &Camera, craft: &mut Object, shadow: &mut Object) {
    let (x, y) = land::ahead(camera, CRAFT_AHEAD);
    let ground = land.ground_height(x, y);
    let craft_row = land::screen_row(camera, (camera.z >> 8) - CRAFT_BELOW, CRAFT_AHEAD);
    let shadow_row = land::screen_row(camera, ground, CRAFT_AHEAD).min(159);
    craft.set_pos((120 - 8, craft_row - 8));
    shadow.set_pos((120 - 8, shadow_row - 11));
}
