//! Declarations of the C shim in `shim/runner.c`.

use std::ffi::{c_char, c_int, c_void};

#[repr(C)]
pub struct Runner {
    _private: [u8; 0],
}

pub type LogFn = extern "C" fn(ctx: *mut c_void, category: *const c_char, level: c_int, message: *const c_char);

unsafe extern "C" {
    pub fn tr_new(rom: *const c_void, rom_size: usize, log_fn: LogFn, log_ctx: *mut c_void) -> *mut Runner;
    pub fn tr_load_save(runner: *mut Runner, data: *const c_void, size: usize) -> c_int;
    pub fn tr_save_data(runner: *mut Runner, out: *mut *mut c_void) -> usize;
    pub fn tr_free(p: *mut c_void);
    pub fn tr_delete(runner: *mut Runner);
    pub fn tr_set_keys(runner: *mut Runner, keys: u32);
    pub fn tr_run_frame(runner: *mut Runner);
    pub fn tr_frame_counter(runner: *mut Runner) -> u32;
    pub fn tr_width(runner: *mut Runner) -> u32;
    pub fn tr_height(runner: *mut Runner) -> u32;
    pub fn tr_frame_bgr555(runner: *mut Runner, out: *mut u16);
    pub fn tr_read8(runner: *mut Runner, address: u32) -> u32;
    pub fn tr_read16(runner: *mut Runner, address: u32) -> u32;
    pub fn tr_read32(runner: *mut Runner, address: u32) -> u32;
}
