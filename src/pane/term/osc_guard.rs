//! Caps the length of OSC strings before they reach the parser.
//!
//! vte (under vt100) collects an OSC string in a `Vec` until its
//! terminator, with no limit: a program that prints `ESC ]` and then
//! megabytes without BEL or ST makes tilework's memory grow without bound.
//! The [`EscapeScanner`](crate::pane::term::escape_scanner::EscapeScanner)
//! follows OSC strings across chunks and asks this guard how much of each
//! run of string bytes to pass on: nothing past [`MAX_OSC`]. The terminator
//! still goes through, so the string ends as the program meant
//! (truncated). Everything else passes untouched.

/// Longer than any title or a 768 KB OSC 52 clipboard write.
pub const MAX_OSC: usize = 1024 * 1024 + 64;

#[derive(Debug, Default)]
pub struct OscGuard {
    /// Bytes dropped, for the log.
    pub dropped: u64,
}

impl OscGuard {
    /// How many of the next `run` bytes of an OSC string that already holds
    /// `seen` bytes to pass on.
    pub fn admit(&mut self, seen: usize, run: usize) -> usize {
        let keep = MAX_OSC.saturating_sub(seen).min(run);
        self.dropped += (run - keep) as u64;
        keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_pass_whole_up_to_the_limit_and_not_a_byte_more() {
        let mut g = OscGuard::default();
        assert_eq!(g.admit(0, 100), 100);
        assert_eq!(g.admit(MAX_OSC - 10, 100), 10);
        assert_eq!(g.admit(MAX_OSC + 5, 100), 0);
        assert_eq!(g.dropped, 190);
    }
}
