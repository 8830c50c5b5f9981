//! Renders one frame on the host (the reference renderer) to a PNG:
//! `cargo run -p e2e --example view -- SEED X Y Z HEADING PITCH OUT.png [boundaries] [240]`
//! (X, Y, Z in world pixels; `240`: 240 columns, one per pixel).
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n = |i: usize| a[i].parse::<i64>().unwrap();
    let log = e2e::FrameLog {
        n: 0,
        page: 0,
        view: if a.iter().skip(7).any(|v| v == "boundaries") { 1 } else { 0 },
        columns: if a.iter().skip(7).any(|v| v == "240") { voxel::Columns::Pixels } else { voxel::Columns::Pairs },
        seed: n(0) as u32,
        camera: voxel::Camera {
            x: (n(1) << 8) as u32,
            y: (n(2) << 8) as u32,
            z: (n(3) << 8) as i32,
            heading: n(4) as u16,
            pitch: n(5) as i16,
        },
    };
    e2e::frame_image(&e2e::reference_frame(&log), log.seed).save(&a[6]).unwrap();
}
