//! A bracketed paste being read: the text up to `CSI 201 ~`, which may
//! come over many reads. What is held is bounded: a paste longer than
//! [`PASTE_PIECE`] is handed out in pieces of that size (each a paste of
//! its own to the programs), so a paste of any size costs at most one
//! piece and one read.

use std::time::Instant;

use ratatui::crossterm::event::Event;

/// The longest paste handed out whole.
pub const PASTE_PIECE: usize = 4 << 20;

const END: &[u8] = b"\x1b[201~";

#[derive(Debug)]
pub struct Paste {
    text: Vec<u8>,
    /// When the last bytes of it arrived.
    pub last: Instant,
}

impl Paste {
    pub fn new(now: Instant) -> Self {
        Self {
            text: Vec::new(),
            last: now,
        }
    }

    /// Takes `bytes` as paste text up to the end marker. Returns how many
    /// bytes were used and whether the paste ended.
    pub fn take(
        &mut self,
        bytes: &[u8],
        now: Instant,
        out: &mut impl Extend<(Instant, Event)>,
    ) -> (usize, bool) {
        self.last = now;
        // The end marker may have begun in the last read.
        let from = self.text.len().saturating_sub(END.len() - 1);
        self.text.extend_from_slice(bytes);
        if let Some(pos) = memchr::memmem::find(&self.text[from..], END) {
            let end = from + pos;
            let after = self.text.len() - (end + END.len());
            self.text.truncate(end);
            self.finish(now, out);
            return (bytes.len() - after, true);
        }
        while self.text.len() > PASTE_PIECE + END.len() {
            let cut = char_boundary(&self.text, PASTE_PIECE);
            let rest = self.text.split_off(cut);
            let piece = std::mem::replace(&mut self.text, rest);
            out.extend(Some((now, Event::Paste(text_of(piece)))));
        }
        (bytes.len(), false)
    }

    #[cfg(test)]
    pub fn held(&self) -> usize {
        self.text.len()
    }

    /// Hands out what is held as the paste's (last) piece.
    pub fn finish(&mut self, at: Instant, out: &mut impl Extend<(Instant, Event)>) {
        let text = std::mem::take(&mut self.text);
        out.extend(Some((at, Event::Paste(text_of(text)))));
    }
}

/// The last place at or before `at` that does not cut a character.
fn char_boundary(text: &[u8], at: usize) -> usize {
    let continuation = |b: &u8| (0x80..0xc0).contains(b);
    (at.saturating_sub(3)..=at)
        .rev()
        .find(|&i| text.get(i).is_none_or(|b| !continuation(b)))
        .unwrap_or(at)
}

/// The text, without a copy when it is valid UTF-8.
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}
