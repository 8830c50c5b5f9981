//! The command line on a ROM that is not ours: `gbarom::tiny`, a few
//! hand-assembled ARM instructions that paint the screen one colour (blue while
//! A is held), count boots in SRAM and log two lines at boot.

use gbarom::tiny;
use mgba_test_runner::Frame;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch directory holding `tiny.gba`, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("mgba-cli-{}-{name}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tiny.gba"), tiny::rom()).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Runs the harness on `tiny.gba` with `args`.
    fn run(&self, args: &[&str]) -> Output {
        harness(&[&[self.path("tiny.gba").to_str().unwrap()], args].concat())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mgba-test-runner")).args(args).output().expect("run mgba-test-runner")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The single colour of a screenshot (fails if the screen is not one colour).
fn colour_of(png: &Path) -> u16 {
    let frame = Frame::load_png(png).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((frame.width(), frame.height()), (240, 160));
    let first = frame.pixel(0, 0);
    assert!(frame.pixels().iter().all(|p| *p == first), "{} is not one colour", png.display());
    first
}

/// SRAM byte 0 as mGBA starts it without a save file, read from a first run.
fn blank_sram_byte(s: &Scratch) -> u8 {
    let sav = s.path("probe.sav");
    let out = s.run(&["--frames", "2", "--sav", sav.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = std::fs::read(&sav).unwrap()[0];
    std::fs::remove_file(&sav).unwrap();
    after.wrapping_sub(1)
}

#[test]
fn a_foreign_rom_runs_and_its_screen_is_what_it_drew() {
    let s = Scratch::new("screen");
    let shot = s.path("shot.png");
    let out = s.run(&["--frames", "10", "--screenshot", &format!("10:{}", shot.display())]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("screenshot: {}", shot.display())), "{}", stdout(&out));
    assert!(stdout(&out).contains("frames run: 10"), "{}", stdout(&out));
    // No save file given: SRAM starts blank, so the red channel is the blank byte.
    let blank = blank_sram_byte(&s);
    assert_eq!(colour_of(&shot), tiny::colour(blank, false));
}

#[test]
fn keys_and_captures_count_frames_the_same_way() {
    let s = Scratch::new("frames");
    let blank = blank_sram_byte(&s);
    let (green, blue) = (tiny::colour(blank, false), tiny::colour(blank, true));
    let shot = |n: u32| s.path(&format!("f{n}.png"));
    let gif = s.path("a.gif");
    let mut args: Vec<String> = ["--frames", "9", "--keys", "5:A,8:", "--gif"].map(String::from).to_vec();
    args.push(format!("{}:3:9:1", gif.display()));
    for n in [2, 4, 5, 7, 8] {
        args.push("--screenshot".into());
        args.push(format!("{n}:{}", shot(n).display()));
    }
    let out = s.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("gif: {}", gif.display())), "{}", stdout(&out));
    // A is held in frames 5, 6 and 7: the ROM sees it from frame 5's start, so
    // the picture frame 5 ends with is blue, and frame 8's is green again.
    // (Frame 1 is partial: mGBA starts a ROM where the BIOS leaves it, at line 126.)
    for (n, want) in [(2, green), (4, green), (5, blue), (7, blue), (8, green)] {
        assert_eq!(colour_of(&shot(n)), want, "frame {n}");
    }
    // The GIF's frames 3..=9 by the same numbers: green, green, blue x3, green x2.
    let file = std::io::BufReader::new(std::fs::File::open(&gif).unwrap());
    let decoder = image::codecs::gif::GifDecoder::new(file).unwrap();
    use image::AnimationDecoder;
    let frames = decoder.into_frames().collect_frames().unwrap();
    let blues: Vec<bool> = frames
        .iter()
        .map(|f| {
            let p = f.buffer().get_pixel(120, 80).0;
            p[2] > 128 && p[1] < 128
        })
        .collect();
    assert_eq!(blues, [false, false, true, true, true, false, false], "GIF frames 3 to 9: blue while A is held");
}

#[test]
fn log_lines_are_numbered_by_the_frame_they_came_in() {
    let s = Scratch::new("log");
    let out = s.run(&["--frames", "3", "-v"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("[     1] INFO  tiny: hello"), "{}", stderr(&out));
}

#[test]
fn quiet_by_default_every_line_with_v_nothing_with_q() {
    let s = Scratch::new("quiet");
    let default = s.run(&["--frames", "30"]);
    let verbose = s.run(&["--frames", "30", "-v"]);
    let quiet = s.run(&["--frames", "30", "-q"]);
    for out in [&default, &verbose, &quiet] {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    }
    let (d, v, q) = (stderr(&default), stderr(&verbose), stderr(&quiet));
    assert!(!d.contains("tiny: hello"), "default shows info lines: {d}");
    assert!(d.contains("ERROR tiny: an error line"), "default hides errors: {d}");
    assert_eq!(d.lines().count(), 1, "{d}");
    assert!(v.contains("INFO  tiny: hello") && v.contains("ERROR tiny: an error line"), "{v}");
    assert!(q.is_empty(), "-q: {q}");
    assert!(harness(&["x.gba", "-v", "-q"]).status.code() == Some(2), "-v and -q conflict");
}

#[test]
fn sav_loads_sram_and_writes_it_back() {
    let s = Scratch::new("sav");
    let blank = blank_sram_byte(&s);
    let sav = s.path("tiny.sav");
    let shot = s.path("shot.png");
    let args = ["--frames", "5", "--sav", sav.to_str().unwrap(), "--screenshot", &format!("5:{}", shot.display())];
    // First boot: no file yet; it is written at the end with the count bumped.
    let out = s.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("save: {}", sav.display())), "{}", stdout(&out));
    assert_eq!(colour_of(&shot), tiny::colour(blank, false));
    let first = std::fs::read(&sav).unwrap();
    assert_eq!(first[0], blank.wrapping_add(1));
    // Second boot: the ROM reads what the first wrote, and writes one more.
    let out = s.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(colour_of(&shot), tiny::colour(blank.wrapping_add(1), false));
    let second = std::fs::read(&sav).unwrap();
    assert_eq!(second[0], blank.wrapping_add(2));
    assert_eq!(first.len(), second.len());
    assert_eq!(first[1..], second[1..], "only byte 0 changed");
    // Written through a temporary file and a rename: nothing else is left.
    let mut names: Vec<String> =
        std::fs::read_dir(&s.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["shot.png", "tiny.gba", "tiny.sav"]);
}

#[test]
fn bad_inputs_are_one_line_errors_naming_the_file() {
    let s = Scratch::new("bad");
    let not_a_rom = s.path("notes.gba");
    std::fs::write(&not_a_rom, vec![0x55; 4096]).unwrap();
    let big_sav = s.path("big.sav");
    std::fs::write(&big_sav, vec![0; 200_000]).unwrap();
    let missing = s.path("missing.gba");
    let tiny = s.path("tiny.gba");
    let (missing, not_a_rom, tiny, big_sav, dir) = (
        missing.to_str().unwrap(),
        not_a_rom.to_str().unwrap(),
        tiny.to_str().unwrap(),
        big_sav.to_str().unwrap(),
        s.0.to_str().unwrap(),
    );
    let shot_past = format!("11:{dir}/x.png");
    let unwritable = format!("1:{dir}/tiny.gba/x.png");
    for (args, names, says) in [
        (vec![missing], missing, "No such file"),
        (vec![not_a_rom], not_a_rom, "not a GBA ROM"),
        (vec![tiny, "--sav", big_sav], big_sav, "too big"),
        (vec![tiny, "--sav", dir], dir, "not a regular file"),
        (vec![tiny, "--frames", "10", "--screenshot", &shot_past], "x.png", "past the last frame"),
        (vec![tiny, "--screenshot", &unwritable], "x.png", "cannot create"),
    ] {
        let out = harness(&[&args[..], &["-q"]].concat());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
        assert!(err.starts_with("error: ") && err.contains(names) && err.contains(says), "{args:?}: {err}");
    }
    // Outputs that would destroy something: the ROM, a device, a golden,
    // each other; and runs that would never end or fill memory.
    let shot = format!("5:{dir}/shot.png");
    let golden = format!("5:{dir}/shot.png");
    let rom_as_gif = format!("{tiny}.gif");
    std::fs::copy(tiny, &rom_as_gif).unwrap();
    let gif_over_rom = format!("{rom_as_gif}:1:2:1");
    for (args, says) in [
        (vec![rom_as_gif.as_str(), "--gif", gif_over_rom.as_str()], "that is the ROM"),
        (vec![tiny, "--sav", "/dev/zero"], "not a regular file"),
        (vec!["/dev/zero"], "not a regular file"),
        (vec![tiny, "--screenshot", &shot, "--golden", &golden], "one would overwrite the other"),
        (vec![tiny, "--bless"], "there are none"),
    ] {
        let out = harness(&[&args[..], &["-q"]].concat());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.lines().count() == 1 && err.starts_with("error: ") && err.contains(says), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(&rom_as_gif).unwrap(), std::fs::read(tiny).unwrap(), "the ROM is as it was");
    let names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.starts_with("shot")), "nothing written: {names:?}");
    for (args, says) in [
        (vec![tiny, "--frames", "4294967295"], "not in 1..=1000000"),
        (vec![tiny, "--frames", "-1"], "-1 is not in 1..=1000000"),
        (vec![tiny, "--gif", "g.gif:1:20000:1"], "at most 1200"),
        (vec![tiny, "--gif", "g.gif:1:5:4294968"], "at most 3600"),
        (vec![tiny, "--gif", "g.png:1:5:1"], "ending in .gif"),
    ] {
        let out = harness(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{args:?}: {err}");
    }
    // Usage errors (clap's own message) exit 2 too.
    for args in [vec![tiny, "--keys", "0:A"], vec![tiny, "--screenshot", "0:x.png"], vec![tiny, "--keys", "1:JUMP"]] {
        let out = harness(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).lines().next().unwrap().starts_with("error: "), "{}", stderr(&out));
    }
    assert!(stderr(&harness(&[tiny, "--keys", "0:A"])).contains("frames count from 1"));
}

#[test]
fn a_golden_mismatch_exits_1() {
    let s = Scratch::new("golden");
    let golden = s.path("golden.png");
    // A missing golden is written from the run, and the run fails.
    let args = ["--frames", "5", "--golden", &format!("5:{}", golden.display())];
    let out = s.run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("FAILED: golden"), "{}", stderr(&out));
    // Now it matches.
    assert_eq!(s.run(&args).status.code(), Some(0));
    // A frame with A held is blue: it differs.
    let out = s.run(&[&args[..], &["--keys", "1:A"]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("38400 pixels differ"), "{}", stderr(&out));
}

#[test]
fn help_states_the_frame_convention_and_exit_codes() {
    let out = harness(&["--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for needle in ["numbered from 1", "--frames N runs frames 1 to N", "--keys N:KEYS holds KEYS from", "Exit status"] {
        assert!(help.contains(needle), "--help lacks `{needle}`:\n{help}");
    }
}

/// A `--stop-on` that ends the run before a picture's frame is an error
/// naming it, and writes no file for it (an empty GIF was written).
#[test]
fn a_stop_before_a_pictures_frame_is_an_error() {
    let s = Scratch::new("stop");
    let (shot, gif) = (s.path("late.png"), s.path("late.gif"));
    let shot_arg = format!("90:{}", shot.display());
    let gif_arg = format!("{}:50:60:1", gif.display());
    let out =
        s.run(&["--frames", "100", "--stop-on", "tiny: hello", "--screenshot", &shot_arg, "--gif", &gif_arg, "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: the run stopped at frame 1 (--stop-on)"), "{err}");
    assert!(err.contains("late.png: frame 90 never came") && err.contains("late.gif: frame 50 never came"), "{err}");
    assert!(!shot.exists() && !gif.exists());
    // Pictures before the stop are taken, and the run is clean.
    let early = format!("1:{}", shot.display());
    let out = s.run(&["--frames", "100", "--stop-on", "tiny: hello", "--screenshot", &early, "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(shot.exists());
}

/// A terrain ROM cut short (its bank slot says how long it was built, or
/// where its packed bank ends) is refused: it would boot, crash back to its
/// start and log nothing wrong.
#[test]
fn a_rom_shorter_than_its_slot_says_is_refused() {
    let s = Scratch::new("cut");
    let mut rom = tiny::rom();
    rom.resize(rom.len().div_ceil(4) * 4, 0);
    let slot = rom.len();
    rom.extend_from_slice(&bank::slot::MAGIC);
    rom.extend_from_slice(&0u32.to_le_bytes());
    rom.extend_from_slice(&0u32.to_le_bytes());
    assert!(bank::slot::stamp_length(&mut rom));
    let whole = s.path("whole.gba");
    std::fs::write(&whole, &rom).unwrap();
    assert_eq!(harness(&[whole.to_str().unwrap(), "--frames", "2", "-q"]).status.code(), Some(0));
    // The same slot, in a file the stamp says was 8 bytes longer.
    let longer = (rom.len() as u32 + 8).to_le_bytes();
    rom[slot + bank::slot::LEN_AT..slot + bank::slot::LEN].copy_from_slice(&longer);
    let cut = s.path("cut.gba");
    std::fs::write(&cut, &rom).unwrap();
    let out = harness(&[cut.to_str().unwrap(), "--frames", "2", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: ") && err.contains("cut.gba") && err.contains("cut short"), "{err}");
}
