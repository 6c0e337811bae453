//! Which bytes of the ring a history view replays: a window of a few
//! thousand rows around what the user looks at, so every byte the ring
//! holds can be reached while memory stays proportional to one window.
//!
//! Windows begin and end at *anchors*: for every multiple `k` of
//! [`ANCHOR_SPACING`], the first line start at or after `k ×
//! ANCHOR_SPACING` (and the ring's oldest line start). Anchors depend only
//! on the bytes, so two windows that both hold an anchor agree on it, and a
//! row is named across windows as "`sub` rows after anchor `pos`"
//! ([`RowAnchor`]). A replay begins with a fresh parser at a line start,
//! as the whole-ring replay always did when the ring had wrapped.

use crate::pane::history::scrollback::ByteRing;

/// Distance between anchor boundaries. Small enough that finding the
/// anchors near a position reads a KiB and snapping a window's ends to
/// anchors adds few rows; large enough that a window's list of anchors
/// stays short.
pub const ANCHOR_SPACING: u64 = 1024;

/// Rows a window aims for: what a view replays at a time.
pub const WINDOW_ROWS: usize = 2_000;

/// A row named independently of the window it is read from: `sub` rows
/// after the row where the line starting at ring position `pos` (an
/// anchor) begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowAnchor {
    pub pos: u64,
    pub sub: usize,
}

/// The ring bytes `[start, end)` a window replays. `start` is an anchor;
/// `end` is an anchor or the ring's end (then the window follows new
/// output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    pub start: u64,
    pub end: u64,
}

/// The anchor of boundary `k × ANCHOR_SPACING`.
fn anchor_of_boundary(ring: &ByteRing, boundary: u64) -> u64 {
    if boundary <= ring.start() {
        ring.first_line_start()
    } else {
        ring.line_start_at_or_after(boundary)
    }
}

/// The newest anchor at or before `pos` (the oldest line start when none).
pub fn anchor_at_or_before(ring: &ByteRing, pos: u64) -> u64 {
    let first = ring.first_line_start();
    if pos <= first {
        return first;
    }
    // The newest line start at or before `pos`...
    let Some(line) = ring.last_line_start_in(first, pos) else {
        return first;
    };
    let boundary = line / ANCHOR_SPACING * ANCHOR_SPACING;
    // ...is the anchor of its boundary unless another line starts between
    // the boundary and it; then the first of those is.
    anchor_of_boundary(ring, boundary).min(line).max(first)
}

/// The oldest anchor at or after `pos` (the ring's end when none).
pub fn anchor_at_or_after(ring: &ByteRing, pos: u64) -> u64 {
    let pos = pos.max(ring.first_line_start());
    let boundary = pos / ANCHOR_SPACING * ANCHOR_SPACING;
    let here = anchor_of_boundary(ring, boundary);
    if here >= pos {
        return here.min(ring.end());
    }
    anchor_of_boundary(ring, boundary + ANCHOR_SPACING).min(ring.end())
}

/// Bytes a window may span per row it aims for: `rows` newlines bound a
/// window of short lines, this bounds one of long lines (each
/// `cols`-character row of plain text, with room for colours).
fn byte_span(rows: usize, cols: u16) -> u64 {
    rows as u64 * (u64::from(cols.max(1)) * 2 + 16)
}

/// The most rows a window aiming at `rows` can hold with plain output: its
/// newlines, rows of long lines within its byte span, and a row a byte
/// where its ends were snapped to anchors (lines of just a newline).
pub fn most_rows(rows: usize) -> usize {
    3 * rows + 2 * usize::try_from(ANCHOR_SPACING).unwrap_or(usize::MAX)
}

/// About `rows` rows before `pos`, as a ring position.
fn back(ring: &ByteRing, pos: u64, rows: usize, cols: u16) -> u64 {
    let floor = pos.saturating_sub(byte_span(rows, cols));
    ring.lines_back(pos, rows, floor)
}

/// About `rows` rows after `pos`, as a ring position.
fn forward(ring: &ByteRing, pos: u64, rows: usize, cols: u16) -> u64 {
    let ceil = pos.saturating_add(byte_span(rows, cols));
    ring.lines_forward(pos, rows, ceil)
}

/// The newest rows: the window that ends at the ring's end.
pub fn tail(ring: &ByteRing, rows: usize, cols: u16) -> Extent {
    let end = ring.end();
    Extent {
        start: anchor_at_or_before(ring, back(ring, end, rows, cols)),
        end,
    }
}

/// The oldest rows the ring holds.
pub fn top(ring: &ByteRing, rows: usize, cols: u16) -> Extent {
    let start = ring.first_line_start();
    from(ring, start, rows, cols)
}

/// The window starting at anchor `start`.
pub fn from(ring: &ByteRing, start: u64, rows: usize, cols: u16) -> Extent {
    let end = anchor_at_or_after(ring, forward(ring, start, rows, cols).max(start + 1));
    Extent { start, end }
}

/// A window with about half its rows on either side of `pos`.
pub fn around(ring: &ByteRing, pos: u64, rows: usize, cols: u16) -> Extent {
    let half = rows / 2;
    let start = anchor_at_or_before(ring, back(ring, pos, half, cols));
    let end = anchor_at_or_after(ring, forward(ring, pos, half, cols).max(pos + 1));
    Extent { start, end }
}

/// Roughly where the row `anchor` names begins in the ring: `sub` lines
/// after its anchor (rows of a wrapped line count as lines, so this errs
/// towards newer bytes; it only centres a window).
pub fn approximate_position(ring: &ByteRing, anchor: RowAnchor) -> u64 {
    let limit = anchor_at_or_after(ring, anchor.pos + 1);
    ring.lines_forward(anchor.pos, anchor.sub, limit)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ring_of(text: &str, budget: usize) -> ByteRing {
        let mut ring = ByteRing::new(budget);
        ring.push(text.as_bytes());
        ring
    }

    fn numbered(n: usize) -> String {
        (0..n).map(|i| format!("line {i:05}\n")).collect()
    }

    fn is_line_start(ring: &ByteRing, pos: u64) -> bool {
        pos == 0 || ring.copy_range(pos - 1, pos) == b"\n"
    }

    #[test]
    fn anchors_are_line_starts_found_the_same_from_either_side() {
        let ring = ring_of(&numbered(5000), 1 << 20);
        for pos in (0..ring.end()).step_by(997) {
            let before = anchor_at_or_before(&ring, pos);
            let after = anchor_at_or_after(&ring, pos);
            assert!(before <= pos && pos <= after, "{before} {pos} {after}");
            assert!(is_line_start(&ring, before) && is_line_start(&ring, after));
            // An anchor is its own anchor both ways (the end stands in
            // for one when no line starts after `pos`).
            if after < ring.end() {
                assert_eq!(anchor_at_or_before(&ring, after), after);
            }
            assert_eq!(anchor_at_or_after(&ring, before), before);
            // No anchor between them but at the ends.
            if before != after {
                assert_eq!(
                    anchor_at_or_after(&ring, before + 1),
                    after,
                    "{before} {pos}"
                );
            }
        }
    }

    #[test]
    fn windows_cover_about_the_rows_asked_for() {
        let ring = ring_of(&numbered(20_000), 1 << 20);
        let t = tail(&ring, 1000, 80);
        assert_eq!(t.end, ring.end());
        let lines = ring
            .copy_range(t.start, t.end)
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        assert!((1000..1500).contains(&lines), "{lines}");
        let first = top(&ring, 1000, 80);
        assert_eq!(first.start, 0);
        let a = around(&ring, 100_000, 1000, 80);
        assert!(a.start < 100_000 && 100_000 < a.end);
    }

    #[test]
    fn a_wrapped_ring_starts_at_its_first_whole_line() {
        let mut ring = ring_of(&numbered(20_000), 50_000);
        ring.push(b"tail\n");
        let first = top(&ring, 100, 80).start;
        assert!(first > ring.start() && is_line_start(&ring, first));
        assert_eq!(anchor_at_or_before(&ring, 0), first);
    }

    #[test]
    fn a_position_sub_lines_after_an_anchor_is_found_again() {
        let ring = ring_of(&numbered(100), 1 << 20);
        let pos = approximate_position(&ring, RowAnchor { pos: 0, sub: 3 });
        assert_eq!(pos, 3 * 11);
    }
}
