//! tmux's passthrough, unwrapped: programs that see `$TMUX` (image tools,
//! OSC 52 writers, notifiers) wrap what tmux should hand to the outer
//! terminal as `ESC P tmux; … ESC \`, each ESC inside doubled. tilework
//! is that terminal's stand-in, so the pane gets what is inside, as if the
//! program had written it directly (tmux's `allow-passthrough on`), and
//! it is handled as any other sequence (a kitty picture, a clipboard
//! write as `clipboard_from_programs` allows, a notification).
//!
//! A byte filter before the rest of the pane's intake, keeping its state
//! across reads: a wrapped picture spans many.

use std::borrow::Cow;

const ESC: u8 = 0x1b;
const PREFIX: &[u8] = b"\x1bPtmux;";

/// The most a wrapped sequence may hold: past it, the rest of the wrapper
/// is dropped (a program that never ends it cannot make tilework hold
/// its output without bound).
const MAX_INNER: usize = 64 << 20;

#[derive(Debug, Default)]
pub struct Passthrough {
    state: State,
    /// Bytes of [`PREFIX`] seen at the end of the last read.
    partial: usize,
    /// Inner bytes passed on for the current wrapper.
    inner: usize,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    #[default]
    Outside,
    Inside,
    /// Inside, after an ESC: a doubled ESC, or the closing `ESC \`.
    InsideEsc,
}

impl Passthrough {
    /// `bytes` with every wrapper taken off; borrowed when there is none
    /// (the common case costs one SIMD scan for `ESC P`).
    pub fn unwrap<'a>(&mut self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        if self.state == State::Outside
            && self.partial == 0
            && memchr::memmem::find(bytes, b"\x1bP").is_none()
            && bytes.last() != Some(&ESC)
        {
            return Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        for &b in bytes {
            self.step(b, &mut out);
        }
        Cow::Owned(out)
    }

    fn step(&mut self, b: u8, out: &mut Vec<u8>) {
        match self.state {
            State::Outside => {
                if b == PREFIX[self.partial] {
                    self.partial += 1;
                    if self.partial == PREFIX.len() {
                        self.partial = 0;
                        self.inner = 0;
                        self.state = State::Inside;
                    }
                    return;
                }
                // Not a wrapper after all: what was held goes on as it was.
                out.extend_from_slice(&PREFIX[..self.partial]);
                self.partial = 0;
                if b == PREFIX[0] {
                    self.partial = 1;
                } else {
                    out.push(b);
                }
            }
            State::Inside => {
                if b == ESC {
                    self.state = State::InsideEsc;
                } else {
                    self.pass(b, out);
                }
            }
            State::InsideEsc => match b {
                ESC => {
                    self.pass(ESC, out);
                    self.state = State::Inside;
                }
                b'\\' => self.state = State::Outside,
                // An undoubled ESC: tmux ends the wrapper there too.
                other => {
                    self.state = State::Outside;
                    out.push(ESC);
                    out.push(other);
                }
            },
        }
    }

    fn pass(&mut self, b: u8, out: &mut Vec<u8>) {
        if self.inner < MAX_INNER {
            self.inner += 1;
            out.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]]) -> Vec<u8> {
        let mut p = Passthrough::default();
        chunks
            .iter()
            .flat_map(|c| p.unwrap(c).into_owned())
            .collect()
    }

    #[test]
    fn a_wrapped_sequence_comes_out_as_written() {
        let wrapped = b"a\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\b";
        assert_eq!(run(&[wrapped]), b"a\x1b]52;c;aGk=\x07b");
        let kitty = b"\x1bPtmux;\x1b\x1b_Gf=100;AAAA\x1b\x1b\\\x1b\\";
        assert_eq!(run(&[kitty]), b"\x1b_Gf=100;AAAA\x1b\\");
    }

    #[test]
    fn split_anywhere_across_reads_it_is_the_same() {
        let wrapped: &[u8] = b"x\x1bPtmux;\x1b\x1b]9;hi\x07\x1b\\y\x1bPq#0;2\x1b\\";
        let whole = run(&[wrapped]);
        assert_eq!(whole, b"x\x1b]9;hi\x07y\x1bPq#0;2\x1b\\");
        for cut in 1..wrapped.len() {
            assert_eq!(
                run(&[&wrapped[..cut], &wrapped[cut..]]),
                whole,
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn other_output_is_untouched_and_not_copied() {
        let mut p = Passthrough::default();
        assert!(matches!(p.unwrap(b"plain \x1b[1mbold"), Cow::Borrowed(_)));
        assert_eq!(run(&[b"\x1bPq#0\x1b\\"]), b"\x1bPq#0\x1b\\");
    }
}
