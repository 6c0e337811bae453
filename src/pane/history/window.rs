//! Scrollback on demand: a window of the pane's raw byte history (see
//! `history_window`) replayed into a parser that does keep scrollback,
//! built off the render thread when the user starts scrolling, kept up to
//! date while the view is open, and replaced by an older or newer window
//! when the user goes past its ends. Rows are named across windows by
//! anchors ([`History::anchor_of`], [`History::locate`]).
//!
//! The bytes are program output, so the parser may panic on them as on the live
//! screen (see `parse_guard`), on a worker thread or on the render loop.
//! Either way the history parser starts over where it failed, with the
//! same notice as the live screen, and a replay always arrives: the pane
//! never waits in "loading" for one that died.
//!
//! Bytes reach the parser through [`Fidelity`], as on the live screen: a
//! REP costs at most a couple of screenfuls to replay, and leaves at most
//! `2 × rows` rows in the history (see `rep_bound`).
//!
//! Output printed at another size than the pane's now is replayed at the
//! size it was printed at and its lines rewrapped (see `sized`), as the
//! live screen is reflowed, so a `\r` progress bar or a right prompt shows
//! once in the history as on the screen.

mod cell_ref;
mod sized;

pub use cell_ref::{LinePlace, carry_cell};

use std::num::NonZeroU16;

use crate::diag::panic_guard::contain;
use crate::graphics::picture_store::PictureStore;
use crate::graphics::reach::Reach;
use crate::pane::history::anchors::{ANCHOR_SPACING, Extent, RowAnchor};
use crate::pane::history::scrollback::ByteRing;
use crate::pane::history::size_log::{SizeLog, Stretch};
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::term::fidelity::Fidelity;
use crate::pane::term::parse_guard::RESET_NOTICE;
use crate::pane::term::replay::{ReplayCallbacks, ReplayParser, RowContents, replay_parser};
use crate::pane::term::screen::ScreenView;

/// A replay parses its bytes in pieces of this size: where the parser panics,
/// the history loses the rest of one piece. (A call costs next to nothing
/// next to parsing 4 KiB.)
const REPLAY_PIECE: usize = 4 * 1024;

/// Everything a replay needs, copied out of the pane so the replay can run
/// on another thread.
pub struct ReplayRequest {
    pub bytes: Vec<u8>,
    /// Absolute ring position of `bytes[0]` (a line start).
    pub start: u64,
    pub rows: u16,
    pub cols: u16,
    /// Most rows of scrollback the parser keeps (a memory bound; windows
    /// are sized well under it).
    pub history_rows: usize,
    /// The bytes begin at the oldest line the ring holds.
    pub at_top: bool,
    /// The bytes run to the ring's end: the history follows new output.
    pub is_tail: bool,
    /// The sizes `bytes` were printed at, oldest first.
    pub sizes: Vec<Stretch>,
    /// Line starts whose rows the history is to know (commands' marks,
    /// see `command_marks`), in order: each gets an anchor of its own.
    pub stops: Vec<u64>,
    /// The pane's pictures: those still kept are anchored again (a store
    /// of its own: none are, each keeps its place blank).
    pub pictures: PictureStore,
    /// What the pane's program was told of pictures (the cells a sixel
    /// picture keeps); `window` leaves the default.
    pub reach: Reach,
    /// Names the window (its [`Window::generation`]): the pane's count of
    /// its windows, 0 for a replay of its own (a search's, a capture's).
    pub generation: u64,
}

impl ReplayRequest {
    /// The whole ring, from its oldest line, all printed at this size.
    pub fn from_ring(ring: &ByteRing, rows: u16, cols: u16, history_rows: usize) -> Self {
        let extent = Extent {
            start: ring.first_line_start(),
            end: ring.end(),
        };
        let sizes = SizeLog::new(rows, cols);
        Self::window(ring, &sizes, extent, (rows, cols), history_rows)
    }

    /// The ring's bytes in `extent`, printed at the sizes `sizes` says,
    /// for a view of `rows` x `cols`.
    pub fn window(
        ring: &ByteRing,
        sizes: &SizeLog,
        extent: Extent,
        (rows, cols): (u16, u16),
        history_rows: usize,
    ) -> Self {
        let start = extent.start.max(ring.first_line_start()).min(ring.end());
        let end = extent.end.clamp(start, ring.end());
        Self {
            bytes: ring.copy_range(start, end),
            start,
            rows,
            cols,
            history_rows,
            at_top: start <= ring.first_line_start(),
            is_tail: end == ring.end(),
            sizes: sizes.stretches(start, end),
            stops: Vec::new(),
            pictures: PictureStore::default(),
            reach: Reach::default(),
            generation: 0,
        }
    }

    /// The same request, showing the pictures `pictures` (the pane's)
    /// still keeps.
    pub fn with_pictures(mut self, pictures: PictureStore) -> Self {
        self.pictures = pictures;
        self
    }

    /// The same request, knowing the rows of `stops` (line starts, in
    /// order; those outside the bytes are left out).
    pub fn with_stops(mut self, stops: Vec<u64>) -> Self {
        let end = self.start + self.bytes.len() as u64;
        self.stops = stops
            .into_iter()
            .filter(|&p| p > self.start && p < end)
            .collect();
        self
    }
}

/// Counts the rows the parser drops off the top of a full scrollback, so rows
/// keep their numbers (and anchors their rows) as the history grows; while
/// output printed at another size is replayed, also keeps them as text
/// (see `sized`). (the parser also tells of every row a full-screen program
/// scrolls off the alternate screen, which has no scrollback: those are
/// not history rows.)
#[derive(Debug, Default)]
pub struct RowsDropped {
    count: usize,
    stream: Option<Box<sized::RowStream>>,
}

impl ReplayCallbacks for RowsDropped {
    fn on_scroll(&mut self, row: RowContents<'_>, alternate_screen: bool) {
        if alternate_screen {
            return;
        }
        if let Some(stream) = &mut self.stream {
            stream.push(&row, self.count);
        }
        self.count += 1;
    }
}

/// A replay's answers to queries go nowhere: the program asked long ago.
impl crate::pane::term::fidelity::answers::Answers for RowsDropped {
    fn answer(&mut self, _: &[u8]) {}
}

/// Where a replay found an anchor: the line starting at ring position
/// `pos` begins on row `row` (counted from the window's first row,
/// dropped rows included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    pos: u64,
    row: usize,
}

/// Where a row named by an anchor is in a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Located {
    /// Older than the window's first row.
    Before,
    At(usize),
    /// Newer than the window's last row.
    After,
}

/// A replayed window of history and the ring position it has seen up to.
pub struct Window {
    parser: ReplayParser<RowsDropped>,
    /// What every byte goes through on its way to the parser.
    rep: Fidelity,
    /// Ring position of the next byte to feed.
    pub fed_to: u64,
    /// Ring position the replay began at.
    pub start: u64,
    /// True when the replay began after the pane's first byte (older output
    /// was dropped by the byte budget, or lies in an older window).
    pub truncated: bool,
    /// The window begins at the oldest line the ring held.
    pub at_top: bool,
    /// The window runs to the ring's end and takes new output; an older
    /// window stays as it is.
    pub is_tail: bool,
    pub history_rows: usize,
    /// The anchors passed, oldest first.
    marks: Vec<Mark>,
    /// The next anchor boundary to look for (see `history_window`).
    next_boundary: u64,
    /// The last byte fed was a newline (or nothing was fed yet).
    at_line_start: bool,
    /// Names this replay: copy mode's rows are rows of one replay.
    pub generation: u64,
    /// The window this one replaced when the pane was resized, until copy
    /// mode has carried its rows over (see `place`).
    pub replaced: Option<Box<Window>>,
    /// Line starts not yet reached that get an anchor of their own (see
    /// [`ReplayRequest::stops`]), soonest last; and those passed.
    stops_ahead: Vec<u64>,
    stops_passed: Vec<u64>,
}

fn size(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n.max(2)).unwrap_or(NonZeroU16::MIN)
}

fn new_parser(rows: u16, cols: u16, history_rows: usize) -> ReplayParser<RowsDropped> {
    replay_parser(rows, cols, history_rows, RowsDropped::default())
}

impl Window {
    /// Replays `req`. Slow (tens of ms per MiB): call from a worker thread
    /// for more than a window. Never panics on the bytes: where the parser
    /// fails, the history starts over; should anything else fail, the
    /// history is empty but for the notice.
    pub fn replay(req: ReplayRequest) -> Self {
        let (rows, cols, history_rows) = (req.rows, req.cols, req.history_rows);
        let (start, end) = (req.start, req.start + req.bytes.len() as u64);
        let (at_top, is_tail, reach) = (req.at_top, req.is_tail, req.reach);
        let generation = req.generation;
        let mut history = contain(|| Self::replay_unguarded(req)).unwrap_or_else(|message| {
            tracing::warn!("replaying a pane's history failed ({message}); it shows none");
            let mut history = Self::empty(start, (rows, cols), history_rows, reach);
            history.at_top = at_top;
            history.is_tail = is_tail;
            history.process(RESET_NOTICE);
            history.fed_to = end;
            history.marks.clear();
            history
        });
        history.generation = generation;
        history
    }

    /// A history of nothing yet, about to be fed from ring position
    /// `start`, told `reach` of pictures.
    fn empty(start: u64, (rows, cols): (u16, u16), history_rows: usize, reach: Reach) -> Self {
        let mut rep = Fidelity::history();
        rep.set_attached_facts(AttachedFacts {
            reach,
            ..AttachedFacts::default()
        });
        Self {
            parser: new_parser(rows, cols, history_rows),
            rep,
            fed_to: start,
            start,
            truncated: start > 0,
            at_top: true,
            is_tail: true,
            history_rows,
            marks: vec![Mark { pos: start, row: 0 }],
            next_boundary: (start / ANCHOR_SPACING + 1) * ANCHOR_SPACING,
            at_line_start: true,
            generation: 0,
            replaced: None,
            stops_ahead: Vec::new(),
            stops_passed: Vec::new(),
        }
    }

    /// Line starts from `stops` (in order) that the replay is to name by
    /// an anchor of their own, when it reaches them.
    pub fn add_stops(&mut self, stops: impl IntoIterator<Item = u64>) {
        let newest = self.stops_ahead.first().copied().unwrap_or(self.fed_to);
        let mut new: Vec<u64> = stops.into_iter().filter(|&p| p > newest).collect();
        if new.is_empty() {
            return;
        }
        new.reverse();
        new.extend_from_slice(&self.stops_ahead);
        self.stops_ahead = new;
        self.next_boundary = self
            .next_boundary
            .min(self.stops_ahead[self.stops_ahead.len() - 1]);
    }

    /// The row the line starting at stop `pos` begins on, when this window
    /// holds it.
    pub fn stop_row(&self, pos: u64) -> Option<usize> {
        if pos != self.start {
            self.stops_passed.binary_search(&pos).ok()?;
        }
        match self.locate(RowAnchor { pos, sub: 0 }) {
            Located::At(row) => Some(row),
            _ => None,
        }
    }

    /// Replays each stretch of output at the size it was printed at, its
    /// lines rewrapped at the pane's size now ([`sized`]), as the live
    /// screen is reflowed (see `reflow`), so history and screen join up.
    /// Output all printed at the pane's size now, or whose sized replay
    /// failed, is replayed at that size at once.
    fn replay_unguarded(req: ReplayRequest) -> Self {
        if sized::needed(&req)
            && let Some(history) = sized::replay(&req)
        {
            return history;
        }
        let mut history = Self::empty(req.start, (req.rows, req.cols), req.history_rows, req.reach);
        history.rep.set_pictures(req.pictures);
        history.at_top = req.at_top;
        history.is_tail = req.is_tail;
        history.add_stops(req.stops.iter().copied());
        history.feed_tracked(&req.bytes);
        history
    }

    /// Feeds bytes that follow `fed_to`, noting where each anchor's line
    /// begins.
    fn feed_tracked(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = if self.fed_to < self.next_boundary {
                usize::try_from(self.next_boundary - self.fed_to).unwrap_or(usize::MAX)
            } else if self.at_line_start {
                self.mark_here();
                continue;
            } else {
                // The anchor is the next line start.
                memchr::memchr(b'\n', bytes).map_or(bytes.len(), |i| i + 1)
            };
            let (now, rest) = bytes.split_at(take.min(bytes.len()));
            for piece in now.chunks(REPLAY_PIECE) {
                self.process(piece);
            }
            self.fed_to += now.len() as u64;
            self.at_line_start = now.last() == Some(&b'\n');
            bytes = rest;
        }
    }

    fn mark_here(&mut self) {
        let row =
            self.dropped() + self.len() + usize::from(self.parser.screen().cursor_position().0);
        if self.marks.last().is_none_or(|m| m.pos != self.fed_to) {
            self.marks.push(Mark {
                pos: self.fed_to,
                row,
            });
        }
        while self.stops_ahead.last().is_some_and(|&p| p <= self.fed_to) {
            if let Some(p) = self.stops_ahead.pop()
                && p == self.fed_to
            {
                self.stops_passed.push(p);
            }
        }
        let boundary = (self.fed_to / ANCHOR_SPACING + 1) * ANCHOR_SPACING;
        self.next_boundary = self
            .stops_ahead
            .last()
            .map_or(boundary, |&p| p.min(boundary));
    }

    /// Rows dropped off the top of the scrollback since the window began.
    fn dropped(&self) -> usize {
        self.parser.callbacks().count
    }

    /// Parses program output; where the parser panics, starts over with a fresh
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
        self.parser = new_parser(rows.get(), cols.get(), self.history_rows);
        self.rep.reset();
        // Rows before the failure are gone: no anchor names a row any more.
        self.marks.clear();
        // A fresh parser and plain text: nothing left to fail.
        let _ = self.rep.process(&mut self.parser, RESET_NOTICE);
    }

    /// Feeds output that arrived after the replay, keeping the view on the
    /// same lines the user is looking at, even at the bottom: the offset
    /// grows by the rows that scrolled in. An older window (not the tail)
    /// stays as it is.
    ///
    /// A history at the bottom is copy mode's (the wheel goes back to the
    /// live screen there), and there, as in tmux, the view must not run
    /// away with a fast log while the user reads or selects in it. Leaving
    /// copy mode shows the live screen again.
    pub fn feed(&mut self, bytes: &[u8]) {
        if !self.is_tail {
            return;
        }
        let before = self.len() + self.dropped();
        let offset = self.parser.screen().scrollback();
        self.feed_tracked(bytes);
        let grown = (self.len() + self.dropped()).saturating_sub(before);
        if offset + grown > 0 {
            self.parser.screen_mut().set_scrollback(offset + grown);
        }
    }

    /// The ring bytes this window replays (the end grows with a tail).
    pub fn extent(&self) -> Extent {
        Extent {
            start: self.start,
            end: self.fed_to,
        }
    }

    /// The row `row` of this window, named so that another window holding
    /// the same bytes finds it.
    pub fn anchor_of(&self, row: usize) -> RowAnchor {
        let abs = self.dropped() + row;
        let i = self.marks.partition_point(|m| m.row <= abs);
        match i.checked_sub(1).and_then(|i| self.marks.get(i)) {
            Some(mark) => RowAnchor {
                pos: mark.pos,
                sub: abs - mark.row,
            },
            None => RowAnchor {
                pos: self.start,
                sub: abs,
            },
        }
    }

    /// Where the row named `anchor` is in this window.
    pub fn locate(&self, anchor: RowAnchor) -> Located {
        let (first, last) = match (self.marks.first(), self.marks.last()) {
            (Some(first), Some(last)) => (first, last),
            _ if anchor.pos < self.start => return Located::Before,
            _ => return Located::After,
        };
        if anchor.pos < first.pos {
            return Located::Before;
        }
        if anchor.pos > last.pos && anchor.pos >= self.fed_to {
            return Located::After;
        }
        // An anchor this window did not pass (it was found in a ring that
        // has since moved on): the nearest older one stands in.
        let i = self.marks.partition_point(|m| m.pos <= anchor.pos) - 1;
        let mark = self.marks[i];
        let sub = if mark.pos == anchor.pos {
            anchor.sub
        } else {
            0
        };
        let abs = mark.row + sub;
        match abs.checked_sub(self.dropped()) {
            None => Located::Before,
            Some(row) if row >= self.total_rows() => Located::After,
            Some(row) => Located::At(row),
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

    pub fn screen(&self) -> ScreenView<'_> {
        ScreenView::new(self.parser.screen())
    }

    /// The rows copy mode moves in (row 0 is the oldest line held): the
    /// history and the screen, or for an older window, the rows up to where
    /// the next window begins.
    pub fn total_rows(&self) -> usize {
        let screen = self.parser.screen();
        if self.is_tail {
            self.len() + usize::from(screen.size().0.get())
        } else {
            (self.len() + usize::from(screen.cursor_position().0)).max(1)
        }
    }

    /// The absolute row shown at the top of the view.
    pub fn top_row(&self) -> usize {
        self.len() - self.offset()
    }

    /// Rows in the view.
    pub fn view_rows(&self) -> usize {
        usize::from(self.parser.screen().size().0.get())
    }

    /// Scrolls so that absolute row `row` is visible, moving as little as
    /// possible.
    pub fn reveal(&mut self, row: usize) {
        let rows = self.view_rows();
        let top = self.top_row();
        let new_top = if row < top {
            row
        } else if row >= top + rows {
            row + 1 - rows
        } else {
            return;
        };
        self.show_top(new_top);
    }

    /// Scrolls so that row `top` is the view's top row (as far as it goes).
    pub fn show_top(&mut self, top: usize) {
        let offset = self.len().saturating_sub(top);
        self.set_offset(offset);
    }

    /// Calls `f` with the screen scrolled so that absolute row `row` is on
    /// screen row `screen_row`, then restores the view.
    pub fn with_row<T>(&mut self, row: usize, f: impl FnOnce(ScreenView<'_>, u16) -> T) -> T {
        let saved = self.offset();
        let len = self.len();
        let (offset, screen_row) = if row < len {
            (len - row, 0)
        } else {
            (0, row - len)
        };
        self.parser.screen_mut().set_scrollback(offset);
        let screen_row = u16::try_from(screen_row).unwrap_or(u16::MAX);
        let out = f(ScreenView::new(self.parser.screen()), screen_row);
        self.parser.screen_mut().set_scrollback(saved);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring_with_lines(n: usize, budget: usize) -> ByteRing {
        let mut ring = ByteRing::new(budget);
        for i in 0..n {
            ring.push(format!("line {i}\r\n").as_bytes());
        }
        ring
    }

    #[test]
    fn replay_holds_the_lines_that_scrolled_off() {
        let ring = ring_with_lines(100, 1 << 20);
        let mut h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        assert!(!h.truncated);
        assert_eq!(h.len(), 96);
        h.set_offset(96);
        assert_eq!(h.screen().contents().lines().next(), Some("line 0"));
    }

    #[test]
    fn replay_of_a_truncated_ring_starts_at_a_whole_line() {
        let ring = ring_with_lines(1000, 100);
        let mut h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
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
        let mut h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        h.set_offset(10);
        let before = h.screen().contents();
        h.feed(b"more 1\r\nmore 2\r\n");
        assert_eq!(h.screen().contents(), before);
        assert_eq!(h.offset(), 12);
    }

    #[test]
    fn feeding_new_output_at_the_bottom_keeps_the_view_too() {
        let ring = ring_with_lines(50, 1 << 20);
        let mut h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 1000));
        assert_eq!(h.offset(), 0);
        assert_eq!(h.screen().contents(), "line 46\nline 47\nline 48\nline 49");
        h.feed(b"more 1\r\nmore 2\r\nmore 3\r\n");
        // The lines shown stay on their rows; the last row, blank where the
        // cursor waited, shows what the program wrote there.
        assert_eq!(
            h.screen().contents(),
            "line 46\nline 47\nline 48\nline 49\nmore 1"
        );
        assert_eq!(h.offset(), 3);
        // Output that scrolls nothing leaves the offset alone.
        h.feed(b"\x1b[Hx");
        assert_eq!(h.offset(), 3);
    }

    #[test]
    fn a_parser_panic_in_a_replay_or_a_feed_starts_the_history_over() {
        let crash = crate::pane::term::parse_guard::DEBUG_FAULT;
        let mut ring = ring_with_lines(50, 1 << 20);
        ring.push(crash);
        // More than the rest of the piece the crash is in.
        for i in 0..1000 {
            ring.push(format!("after {i}\r\n").as_bytes());
        }
        let mut h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 10_000));
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
        let h = Window::replay(ReplayRequest::from_ring(&ring, 5, 20, 100));
        assert_eq!(h.len(), 100);
        // Rows keep their anchors though older ones were dropped.
        let anchor = h.anchor_of(0);
        assert_eq!(h.locate(anchor), Located::At(0));
    }

    #[test]
    fn two_windows_name_the_same_row_alike() {
        use crate::pane::history::anchors::{around, tail};
        let ring = ring_with_lines(20_000, 1 << 20);
        let mut t = Window::replay(ReplayRequest::window(
            &ring,
            &SizeLog::new(5, 20),
            tail(&ring, 500, 20),
            (5, 20),
            10_000,
        ));
        assert!(t.is_tail && !t.at_top);
        let row = 40;
        let anchor = t.anchor_of(row);
        let text = t.with_row(row, |s, r| s.contents_between(r, 0, r, 20));
        let mid = t.start;
        let mut older = Window::replay(ReplayRequest::window(
            &ring,
            &SizeLog::new(5, 20),
            around(&ring, mid, 500, 20),
            (5, 20),
            10_000,
        ));
        assert!(!older.is_tail);
        let Located::At(there) = older.locate(anchor) else {
            panic!("{anchor:?} not in the older window");
        };
        assert_eq!(
            older.with_row(there, |s, r| s.contents_between(r, 0, r, 20)),
            text
        );
        assert_eq!(older.anchor_of(there), anchor);
        // An older window's rows end where the next one begins.
        let last = older.total_rows() - 1;
        let last_text = older.with_row(last, |s, r| s.contents_between(r, 0, r, 20));
        assert!(last_text.starts_with("line "), "{last_text}");
        let next = older.anchor_of(last);
        assert!(matches!(t.locate(next), Located::At(_) | Located::Before));
    }
}
