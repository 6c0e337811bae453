//! Caps the length of OSC strings before they reach the parser.
//!
//! vte (under vt100) collects an OSC string in a `Vec` until its
//! terminator, with no limit: a program that prints `ESC ]` and then
//! megabytes without BEL or ST makes tilework's memory grow without bound.
//! This guard follows OSC strings across chunks and drops their bytes past
//! [`MAX_OSC`]; the terminator still goes through, so the string ends as the
//! program meant (truncated). Everything else passes untouched; the scan
//! is `memchr`, so plain floods cost next to nothing.

use memchr::{memchr, memchr3};

/// Longer than any title or a 768 KB OSC 52 clipboard write.
pub const MAX_OSC: usize = 1024 * 1024 + 64;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    #[default]
    Ground,
    /// The previous chunk ended with ESC.
    Escape,
    /// Inside an OSC string; bytes seen so far.
    Osc(usize),
}

#[derive(Debug, Default)]
pub struct OscGuard {
    state: State,
    /// Bytes dropped, for the log.
    pub dropped: u64,
}

impl OscGuard {
    /// Returns `input` unchanged when nothing must be dropped (the common
    /// case, no copy), else the bytes with the over-long part removed.
    pub fn filter<'a>(&mut self, input: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
        let mut i = 0;
        let mut cut: Option<Vec<(usize, usize)>> = None;
        while i < input.len() {
            match self.state {
                State::Ground => match memchr(0x1b, &input[i..]) {
                    None => break,
                    Some(off) => {
                        i += off + 1;
                        self.state = State::Escape;
                    }
                },
                State::Escape => {
                    self.state = if input[i] == b']' {
                        State::Osc(0)
                    } else {
                        State::Ground
                    };
                    if input[i] != 0x1b {
                        i += 1;
                    }
                }
                State::Osc(seen) => {
                    // BEL ends the string; ESC starts ST (or aborts it); CAN
                    // (0x18) is the other abort vte knows.
                    let end = memchr3(0x07, 0x1b, 0x18, &input[i..]);
                    let run = end.unwrap_or(input.len() - i);
                    let keep = MAX_OSC.saturating_sub(seen).min(run);
                    if keep < run {
                        cut.get_or_insert_with(Vec::new).push((i + keep, i + run));
                        self.dropped += (run - keep) as u64;
                    }
                    i += run;
                    match end {
                        Some(_) => {
                            // Let the terminator through to the parser.
                            self.state = if input[i] == 0x1b {
                                State::Escape
                            } else {
                                State::Ground
                            };
                            i += 1;
                        }
                        None => self.state = State::Osc(seen.saturating_add(run)),
                    }
                }
            }
        }
        let Some(cuts) = cut else {
            return input;
        };
        scratch.clear();
        let mut from = 0;
        for (a, b) in cuts {
            scratch.extend_from_slice(&input[from..a]);
            from = b;
        }
        scratch.extend_from_slice(&input[from..]);
        scratch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(guard: &mut OscGuard, input: &[u8]) -> Vec<u8> {
        let mut scratch = Vec::new();
        guard.filter(input, &mut scratch).to_vec()
    }

    #[test]
    fn ordinary_output_passes_untouched() {
        let mut g = OscGuard::default();
        let text = b"plain \x1b[31mred\x1b[m \x1b]0;title\x07 done";
        assert_eq!(run(&mut g, text), text.to_vec());
        assert_eq!(g.dropped, 0);
    }

    #[test]
    fn an_endless_osc_is_cut_at_the_limit_across_chunks() {
        let mut g = OscGuard::default();
        let mut total = run(&mut g, b"\x1b]2;");
        let block = vec![b'x'; 256 * 1024];
        for _ in 0..10 {
            total.extend(run(&mut g, &block));
        }
        assert!(total.len() <= MAX_OSC + 8, "{} bytes passed", total.len());
        assert!(g.dropped > 0);
        // The terminator and what follows still arrive.
        total.extend(run(&mut g, b"\x07after"));
        assert!(total.ends_with(b"\x07after"));
    }

    #[test]
    fn an_esc_split_from_its_bracket_is_followed() {
        let mut g = OscGuard::default();
        run(&mut g, b"text\x1b");
        run(&mut g, b"]0;");
        assert_eq!(g.state, State::Osc(2));
        run(&mut g, b"t\x1b\\");
        assert_eq!(g.state, State::Ground);
    }
}
