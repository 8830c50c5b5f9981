//! Flying: keypad intents to camera motion, the same per displayed frame
//! whatever the frame rate (motion is scaled by the refreshes elapsed), and
//! never below the ground.

use crate::render::{Camera, Scene};
use crate::trig;

/// What the pilot asks for, each -1, 0 or 1.
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
/// Highest altitude, world pixels.
pub const CEILING: i32 = 700;
/// Pitch limit, screen pixels.
pub const PITCH_LIMIT: i16 = 50;

/// Moves `camera` by `controls` held for `refreshes` screen refreshes, then
/// lifts it above the ground; keeps coordinates inside the (wrapping) world.
pub fn fly<const N: usize>(camera: &mut Camera, controls: Controls, refreshes: u32, scene: &Scene<'_, N>) {
    let k = refreshes.min(8) as i32;
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
    camera.z += controls.climb as i32 * CLIMB * k;
    camera.pitch =
        (camera.pitch as i32 + controls.pitch as i32 * 2 * k).clamp(-PITCH_LIMIT as i32, PITCH_LIMIT as i32) as i16;
    let floor = (scene.ground(camera.x >> 8, camera.y >> 8) + CLEARANCE) << 8;
    camera.z = camera.z.clamp(floor, CEILING << 8);
}
