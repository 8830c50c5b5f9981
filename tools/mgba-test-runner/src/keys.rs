//! GBA keys and scripted key timelines such as `1:RIGHT,60:RIGHT+A,120:`.
//!
//! Frames are screen refreshes numbered from 1, as everywhere in the harness.

use std::fmt;
use std::str::FromStr;

/// A set of held GBA keys (bit order of the `KEYINPUT` register, 1 = held).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Keys(u16);

const NAMES: [&str; 10] = ["A", "B", "SELECT", "START", "RIGHT", "LEFT", "UP", "DOWN", "R", "L"];

impl Keys {
    pub const NONE: Keys = Keys(0);
    pub const A: Keys = Keys(1 << 0);
    pub const B: Keys = Keys(1 << 1);
    pub const SELECT: Keys = Keys(1 << 2);
    pub const START: Keys = Keys(1 << 3);
    pub const RIGHT: Keys = Keys(1 << 4);
    pub const LEFT: Keys = Keys(1 << 5);
    pub const UP: Keys = Keys(1 << 6);
    pub const DOWN: Keys = Keys(1 << 7);
    pub const R: Keys = Keys(1 << 8);
    pub const L: Keys = Keys(1 << 9);

    /// The raw bits.
    pub fn bits(self) -> u16 {
        self.0
    }
}

impl std::ops::BitOr for Keys {
    type Output = Keys;
    fn bitor(self, rhs: Keys) -> Keys {
        Keys(self.0 | rhs.0)
    }
}

impl fmt::Display for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = (0..10).filter(|i| self.0 & (1 << i) != 0).map(|i| NAMES[i]).collect();
        f.write_str(&names.join("+"))
    }
}

/// A bad key name or timeline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    #[error("unknown key `{0}` (known: A, B, SELECT, START, RIGHT, LEFT, UP, DOWN, R, L)")]
    UnknownKey(String),
    #[error("`{0}` is not `FRAME:KEYS` (e.g. `60:RIGHT+A`, or `120:` to release all)")]
    BadEntry(String),
    #[error("frame numbers must increase: {0} comes after {1}")]
    NotIncreasing(u32, u32),
    #[error("`{0}`: frames count from 1 (frame 1 is the first screen refresh)")]
    FrameZero(String),
}

impl FromStr for Keys {
    type Err = ScriptError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut keys = Keys::NONE;
        for name in s.split('+').map(str::trim).filter(|n| !n.is_empty()) {
            let upper = name.to_ascii_uppercase();
            let i = NAMES.iter().position(|n| *n == upper).ok_or_else(|| ScriptError::UnknownKey(name.into()))?;
            keys.0 |= 1 << i;
        }
        Ok(keys)
    }
}

/// Keys to hold from given frames on: `1:RIGHT,60:RIGHT+A,120:` holds RIGHT in
/// frames 1 to 59, RIGHT+A in frames 60 to 119, then nothing. Frames are
/// screen refreshes numbered from 1; keys set for frame N are what the ROM reads
/// from the start of frame N (its VBlank) on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyScript {
    steps: Vec<(u32, Keys)>,
}

impl KeyScript {
    /// The keys held during frame `frame` (frames count from 1).
    pub fn keys_at(&self, frame: u32) -> Keys {
        self.steps.iter().take_while(|(f, _)| *f <= frame).last().map(|(_, k)| *k).unwrap_or_default()
    }

    /// Appends a step (frames count from 1 and must increase).
    pub fn then(mut self, frame: u32, keys: Keys) -> Result<Self, ScriptError> {
        if frame == 0 {
            return Err(ScriptError::FrameZero(format!("0:{keys}")));
        }
        if let Some((last, _)) = self.steps.last()
            && frame <= *last
        {
            return Err(ScriptError::NotIncreasing(frame, *last));
        }
        self.steps.push((frame, keys));
        Ok(self)
    }
}

impl FromStr for KeyScript {
    type Err = ScriptError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut script = KeyScript::default();
        for entry in s.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (frame, keys) = entry.split_once(':').ok_or_else(|| ScriptError::BadEntry(entry.into()))?;
            let frame: u32 = frame.trim().parse().map_err(|_| ScriptError::BadEntry(entry.into()))?;
            if frame == 0 {
                return Err(ScriptError::FrameZero(entry.into()));
            }
            script = script.then(frame, keys.parse()?)?;
        }
        Ok(script)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_timeline() {
        let s: KeyScript = "1:RIGHT, 60:right+A,120:".parse().unwrap();
        assert_eq!(s.keys_at(1), Keys::RIGHT);
        assert_eq!(s.keys_at(59), Keys::RIGHT);
        assert_eq!(s.keys_at(60), Keys::RIGHT | Keys::A);
        assert_eq!(s.keys_at(500), Keys::NONE);
        assert_eq!((Keys::RIGHT | Keys::A).to_string(), "A+RIGHT");
    }

    #[test]
    fn rejects_bad_scripts() {
        assert_eq!("1:JUMP".parse::<KeyScript>(), Err(ScriptError::UnknownKey("JUMP".into())));
        assert_eq!("0:UP".parse::<KeyScript>(), Err(ScriptError::FrameZero("0:UP".into())));
        assert!(KeyScript::default().then(0, Keys::A).is_err());
        assert!(matches!("RIGHT".parse::<KeyScript>(), Err(ScriptError::BadEntry(_))));
        assert_eq!("10:A,5:B".parse::<KeyScript>(), Err(ScriptError::NotIncreasing(5, 10)));
    }
}
