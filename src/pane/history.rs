//! Scrollback on demand: the pane's raw byte history replayed into a parser
//! that does keep scrollback, built off the render thread when the user
//! starts scrolling and kept up to date while the view is open.
//!
//! The bytes are program output, so vt100 may panic on them as on the live
//! screen (see `parse_guard`), on a worker thread or on the render loop.
//! Either way the history parser starts over where it failed, with the
//! same notice as the live screen, and a replay always arrives: the pane
//! never waits in "loading" for one that died.
//!
//! Bytes reach the parser through [`Fidelity`], as on the live screen: a
//! REP costs at most a couple of screenfuls to replay, and leaves at most
//! `2 × rows` rows in the history (see `rep_bound`).

use std::num::NonZeroU16;

use crate::diag::panic_guard::contain;
use crate::pane::fidelity::Fidelity;
use crate::pane::parse_guard::RESET_NOTICE;
use crate::pane::scrollback::{ByteRing, ResizeMark};

/// Rows of scrollback a first replay keeps. Larger histories are replayed
/// again with four times the rows when the user scrolls past this: memory
/// stays proportional to what the user actually looks at (a vt100 row costs
/// 32 bytes a column).
pub const INITIAL_HISTORY_ROWS: usize = 2_000;

/// A replay parses its bytes in pieces of this size: where vt100 panics,
/// the history loses the rest of one piece. (A call costs next to nothing
/// next to parsing 4 KiB.)
const REPLAY_PIECE: usize = 4 * 1024;

/// Everything a replay needs, copied out of the pane so the replay can run
/// on another thread.
pub struct ReplayRequest {
    pub bytes: Vec<u8>,
    /// Absolute ring position of `bytes[0]`.
    pub start: u64,
    pub resizes: Vec<ResizeMark>,
    pub rows: u16,
    pub cols: u16,
    pub history_rows: usize,
}

impl ReplayRequest {
    pub fn from_ring(ring: &ByteRing, rows: u16, cols: u16, history_rows: usize) -> Self {
        let (start, bytes) = ring.snapshot_from_line_start();
        Self {
            bytes,
            start,
            resizes: ring.resizes().to_vec(),
            rows,
            cols,
            history_rows,
        }
    }
}

/// A replayed history and the ring position it has seen up to.
pub struct History {
    parser: vt100::Parser,
    /// What every byte goes through on its way to the parser.
    rep: Fidelity,
    /// Ring position of the next byte to feed.
    pub fed_to: u64,
    /// True when the replay began after the pane's first byte (older output
    /// was dropped by the byte budget).
    pub truncated: bool,
    /// True when the history holds as many rows as were asked for, so older
    /// rows may exist in the bytes.
    pub full: bool,
    pub history_rows: usize,
}

fn size(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n.max(2)).unwrap_or(NonZeroU16::MIN)
}

impl History {
    /// Replays `req`. Slow (tens of ms per MiB): call from a worker thread.
    /// Never panics on the bytes: where vt100 fails, the history starts
    /// over; should anything else fail, the history is empty but for the
    /// notice.
    pub fn replay(req: ReplayRequest) -> Self {
        let (rows, cols, history_rows) = (req.rows, req.cols, req.history_rows);
        let end = req.start + req.bytes.len() as u64;
        let truncated = req.start > 0;
        contain(|| Self::replay_unguarded(req)).unwrap_or_else(|message| {
            tracing::warn!("replaying a pane's history failed ({message}); it shows none");
            let mut history = Self {
                parser: vt100::Parser::new(size(rows), size(cols), history_rows),
                rep: Fidelity::history(),
                fed_to: end,
                truncated,
                full: false,
                history_rows,
            };
            history.process(RESET_NOTICE);
            history
        })
    }

    fn replay_unguarded(req: ReplayRequest) -> Self {
        let initial = req
            .resizes
            .iter()
            .rev()
            .find(|m| m.position <= req.start)
            .map_or((req.rows, req.cols), |m| (m.rows, m.cols));
        let end = req.start + req.bytes.len() as u64;
        let mut history = Self {
            parser: vt100::Parser::new(size(initial.0), size(initial.1), req.history_rows),
            rep: Fidelity::history(),
            fed_to: end,
            truncated: req.start > 0,
            full: false,
            history_rows: req.history_rows,
        };
        let mut fed = req.start;
        for mark in req.resizes.iter().filter(|m| m.position > req.start) {
            let upto = mark.position.min(end);
            history.process_in_pieces(slice(&req.bytes, req.start, fed, upto));
            fed = upto;
            history.set_size(mark.rows, mark.cols);
        }
        history.process_in_pieces(slice(&req.bytes, req.start, fed, end));
        history.set_size(req.rows, req.cols);
        history.full = history.parser.screen().scrollback_len() >= req.history_rows;
        history
    }

    fn process_in_pieces(&mut self, bytes: &[u8]) {
        for piece in bytes.chunks(REPLAY_PIECE) {
            self.process(piece);
        }
    }

    /// Parses program output; where vt100 panics, starts over with a fresh
    /// parser of the same size. The history before the failure and the rest
    /// of `bytes` are lost; the notice says so where the history resumes.
    fn process(&mut self, bytes: &[u8]) {
        if let Err(failure) = self.rep.process(&mut self.parser, bytes) {
            self.parser_failed(&failure.message);
        }
    }

    fn parser_failed(&mut self, message: &str) {
        tracing::warn!("the history parser panicked ({message}); the history starts over");
        let (rows, cols) = self.parser.screen().size();
        self.parser = vt100::Parser::new(rows, cols, self.history_rows);
        self.rep.reset();
        // A fresh parser and plain text: nothing left to fail.
        let _ = self.rep.process(&mut self.parser, RESET_NOTICE);
    }

    /// Feeds output that arrived after the replay, keeping the view on the
    /// same lines the user is looking at.
    pub fn feed(&mut self, bytes: &[u8]) {
        let before = self.parser.screen().scrollback_len();
        let offset = self.parser.screen().scrollback();
        self.process(bytes);
        let grown = self.parser.screen().scrollback_len().saturating_sub(before);
        if offset > 0 {
            self.parser.screen_mut().set_scrollback(offset + grown);
        }
        self.fed_to += bytes.len() as u64;
        self.full = self.parser.screen().scrollback_len() >= self.history_rows;
    }

    pub fn set_size(&mut self, rows: u16, cols: u16) {
        let old = self.parser.screen().size();
        let new = (size(rows), size(cols));
        // A grid that vt100 left inconsistent (without panicking) could
        // make the resize panic; then the history starts over at the new size.
        match contain(|| self.parser.set_size(new.0, new.1)) {
            // vt100 does nothing for the same size.
            Ok(()) if new == old => {}
            Ok(()) => self.rep.grid_resized(old.0.get(), new.0.get()),
            Err(message) => {
                self.parser = vt100::Parser::new(size(rows), size(cols), self.history_rows);
                self.parser_failed(&message);
            }
        }
    }

    /// Rows scrolled back from the live bottom.
    pub fn offset(&self) -> usize {
        self.parser.screen().scrollback()
    }

    /// Scrolls to `offset` rows back (clamped). Returns the new offset.
    pub fn set_offset(&mut self, offset: usize) -> usize {
        self.parser.screen_mut().set_scrollback(offset);
        self.offset()
    }

    /// How many rows of history are held.
    pub fn len(&self) -> usize {
        self.parser.screen().scrollback_len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    /// Rows of history plus the rows of the screen: the row space copy mode
    /// moves in (row 0 is the oldest line held).
    pub fn total_rows(&self) -> usize {
        self.len() + usize::from(self.parser.screen().size().0.get())
    }

    /// The absolute row shown at the top of the view.
    pub fn top_row(&self) -> usize {
        self.len() - self.offset()
    }

    /// Scrolls so that absolute row `row` is visible, moving as little as
    /// possible.
    pub fn reveal(&mut self, row: usize) {
        let rows = usize::from(self.parser.screen().size().0.get());
        let top = self.top_row();
        let new_top = if row < top {
            row
        } else if row >= top + rows {
            row + 1 - rows
        } else {
            return;
        };
        let offset = self.len().saturating_sub(new_top);
        self.set_offset(offset);
    }

    /// Calls `f` with the screen scrolled so that absolute row `row` is on
    /// screen row `screen_row`, then restores the view.
    pub fn with_row<T>(&mut self, row: usize, f: impl FnOnce(&vt100::Screen, u16) -> T) -> T {
        let saved = self.offset();
        let len = self.len();
        let (offset, screen_row) = if row < len {
            (len - row, 0)
        } else {
            (0, row - len)
        };
        self.parser.screen_mut().set_scrollback(offset);
        let screen_row = u16::try_from(screen_row).unwrap_or(u16::MAX);
        let out = f(self.parser.screen(), screen_row);
        self.parser.screen_mut().set_scrollback(saved);
        out
    }
}

fn slice(bytes: &[u8], base: u64, from: u64, to: u64) -> &[u8] {
    let a = usize::try_from(from.saturating_sub(base))
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    let b = usize::try_from(to.saturating_sub(base))
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    &bytes[a..b.max(a)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring_with_lines(n: usize, budget: usize) -> ByteRing {
        let mut ring = ByteRing::new(budget);
        ring.record_resize(5, 20);
        for i in 0..n {
            ring.push(format!("line {i}\r\n").as_bytes());
        }
        ring
    }

    #[test]
    fn replay_holds_the_lines_that_scrolled_off() {
        let ring = ring_with_lines(100, 1 << 20);
        let mut h = History::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        assert!(!h.truncated);
        assert_eq!(h.len(), 96);
        h.set_offset(96);
        assert_eq!(h.screen().contents().lines().next(), Some("line 0"));
    }

    #[test]
    fn replay_of_a_truncated_ring_starts_at_a_whole_line() {
        let ring = ring_with_lines(1000, 100);
        let mut h = History::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        assert!(h.truncated);
        h.set_offset(usize::MAX);
        let first = h
            .screen()
            .contents()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(first.starts_with("line "), "{first:?}");
        let n: usize = first["line ".len()..].parse().unwrap_or(0);
        assert!(n > 980, "{first}");
    }

    #[test]
    fn feeding_new_output_keeps_the_view_in_place() {
        let ring = ring_with_lines(50, 1 << 20);
        let mut h = History::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        h.set_offset(10);
        let before = h.screen().contents();
        h.feed(b"more 1\r\nmore 2\r\n");
        assert_eq!(h.screen().contents(), before);
        assert_eq!(h.offset(), 12);
    }

    #[test]
    fn a_parser_panic_in_a_replay_or_a_feed_starts_the_history_over() {
        let crash = crate::pane::parse_guard::VT100_PANIC;
        let mut ring = ring_with_lines(50, 1 << 20);
        ring.push(crash);
        // More than the rest of the piece the crash is in.
        for i in 0..1000 {
            ring.push(format!("after {i}\r\n").as_bytes());
        }
        let mut h = History::replay(ReplayRequest::from_ring(&ring, 5, 20, 10_000));
        assert_eq!(h.fed_to, ring.end());
        h.set_offset(usize::MAX);
        let top = h.screen().contents();
        assert!(top.starts_with("tilework: the termin"), "{top}");
        h.set_offset(0);
        assert!(h.screen().contents().contains("after 999"));
        h.feed(crash);
        h.feed(b"later");
        assert!(h.screen().contents().starts_with("tilework: the termin"));
        assert!(h.screen().contents().ends_with("later"));
    }

    #[test]
    fn history_is_capped_at_the_requested_rows() {
        let ring = ring_with_lines(500, 1 << 20);
        let h = History::replay(ReplayRequest::from_ring(&ring, 5, 20, 100));
        assert_eq!(h.len(), 100);
        assert!(h.full);
    }
}
