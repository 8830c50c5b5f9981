//! The terrain method of Marshall et al. (CGAIDE 2004) as `no_std` Rust, shared
//! by the ROM, `tilebake` and the host tests.
#![no_std]
