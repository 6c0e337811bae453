//! Where a placement is: an anchor in each cell it covers, carried by the
//! pane's cells.
//!
//! Why in the cells: the parser then moves them with the text for us. A
//! placement scrolls as its rows scroll, a cell of it goes when the cell
//! is erased or written over (`clear`, `ED`, `EL`, a prompt printed over
//! it: as in xterm, the text shows there instead), it is cut where the
//! pane's screen ends, it leaves with the alternate screen, and a replayed
//! history holds the same anchors (the pane's history keeps its place).
//!
//! An anchor is four code points from `U+E0C01..=U+E0FFF` (unassigned,
//! default-ignorable, no width: the parser appends them to the cell as it does
//! combining marks, like [`crate::pane::term::cell_marks`]'s style markers, which
//! skip them): two digits of the placement id, the placement's row and
//! its column. A cell holds a space and one anchor (17 bytes of the parser's
//! 22), written straight to the parser, so no style marker joins it.

use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::graphics::picture_store::{MAX_PLACEMENT_IDS, PlacementId};

/// How many times anchors were made, in any pane (see [`written`]).
// why process-wide: it only moves up and only says "look again"; a second
// workspace in one process (tests) costs a drawer an extra look, no more.
static WRITTEN: AtomicU64 = AtomicU64::new(0);

/// Moves whenever anchors are made for a screen. Only the pictures'
/// intake makes them, so a screen that held none and was only written to
/// since the count last moved holds none now, and a drawer need not look
/// at its cells again. (A program cannot print the anchors' code points
/// itself: the fidelity layer drops them, see `fidelity::forged_marks`.)
pub fn written() -> u64 {
    WRITTEN.load(Ordering::Acquire)
}

/// The first code point of the anchors' range.
const BASE: u32 = 0xE0C01;
/// Values one code point holds.
const DIGIT: u32 = 1023;
/// The most rows or columns a placement can have (one digit).
pub const MAX_ROWS: u16 = DIGIT as u16;
pub const MAX_COLS: u16 = DIGIT as u16;

/// Whether `c` is part of an anchor.
#[inline]
pub fn is_anchor_char(c: char) -> bool {
    (BASE..BASE + DIGIT).contains(&u32::from(c))
}

/// One cell of a placement, found in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchor {
    pub placement: PlacementId,
    /// Which row and column of the placement (0: its top left).
    pub row: u16,
    pub col: u16,
}

/// Appends an anchor.
pub fn push_anchor(out: &mut Vec<u8>, anchor: Anchor) {
    let id = anchor.placement.0 % MAX_PLACEMENT_IDS;
    let mut buf = [0; 4];
    let (row, col) = (u32::from(anchor.row), u32::from(anchor.col));
    for value in [id / DIGIT, id % DIGIT, row % DIGIT, col % DIGIT] {
        if let Some(c) = char::from_u32(BASE + value) {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

/// The anchor in a cell's text (its contents as the parser keeps them), if any.
#[inline]
pub fn read(contents: &str) -> Option<Anchor> {
    // An anchor takes 16 bytes; every one starts with 0xF3.
    if contents.len() < 16 || memchr::memchr(0xF3, contents.as_bytes()).is_none() {
        return None;
    }
    let mut digits = contents
        .chars()
        .skip_while(|c| !is_anchor_char(*c))
        .take_while(|c| is_anchor_char(*c))
        .map(|c| u32::from(c) - BASE);
    let (hi, lo) = (digits.next()?, digits.next()?);
    let (row, col) = (digits.next()?, digits.next()?);
    Some(Anchor {
        placement: PlacementId(hi * DIGIT + lo),
        row: u16::try_from(row).ok()?,
        col: u16::try_from(col).ok()?,
    })
}

/// Where the cursor goes once a placement's anchors are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorAfter {
    /// Back where it was (kitty's `C=1`).
    Stays,
    /// On the placement's last row, in the column it started (xterm's
    /// sixel: an implied graphics carriage return).
    LastRowSameColumn,
    /// On the placement's last row, in the column after it (kitty's
    /// default).
    LastRowAfter,
}

/// The bytes that anchor `placement`, `cols` x `rows` cells, at the
/// cursor of a screen `screen_cols` wide whose cursor is in column
/// `cursor_col`: each cell it covers written as a space with its anchor
/// (a terminal that shows no pictures shows them blank), scrolling at the
/// bottom as text does, cut at the screen's right edge. Written straight
/// to the parser (after the fidelity layer), so the program's pen marks
/// nothing here.
pub fn anchor_bytes(
    placement: PlacementId,
    cols: u16,
    rows: u16,
    cursor_col: u16,
    screen_cols: u16,
    after: CursorAfter,
) -> Vec<u8> {
    WRITTEN.fetch_add(1, Ordering::AcqRel);
    let cursor_col = cursor_col.min(screen_cols.saturating_sub(1));
    let width = cols.min(screen_cols - cursor_col).clamp(1, MAX_COLS);
    let rows = rows.clamp(1, MAX_ROWS);
    let mut out = Vec::with_capacity(usize::from(rows) * (usize::from(width) * 17 + 12) + 16);
    if after == CursorAfter::Stays {
        out.extend_from_slice(b"\x1b7");
    }
    let back_to_start = |out: &mut Vec<u8>| {
        // CR and CUF put the column back whatever newline mode says.
        out.push(b'\r');
        if cursor_col > 0 {
            let _ = write!(out, "\x1b[{cursor_col}C");
        }
    };
    for row in 0..rows {
        if row > 0 {
            // LF scrolls at the region's bottom.
            out.push(b'\n');
            back_to_start(&mut out);
        }
        for col in 0..width {
            out.push(b' ');
            push_anchor(
                &mut out,
                Anchor {
                    placement,
                    row,
                    col,
                },
            );
        }
    }
    match after {
        CursorAfter::Stays => out.extend_from_slice(b"\x1b8"),
        CursorAfter::LastRowSameColumn => back_to_start(&mut out),
        // Past the last column, the parser holds a pending wrap as xterm does.
        CursorAfter::LastRowAfter => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr as _;

    #[test]
    fn anchors_have_no_width_and_read_back() {
        for (id, row) in [(1, 0), (1022, 5), (1023, 1), (MAX_PLACEMENT_IDS - 1, 1022)] {
            let anchor = Anchor {
                placement: PlacementId(id),
                row,
                col: 1022 - row,
            };
            let mut cell = b" ".to_vec();
            push_anchor(&mut cell, anchor);
            let cell = String::from_utf8(cell).unwrap_or_default();
            assert_eq!(cell.width(), 1);
            assert_eq!(read(&cell), Some(anchor), "{id} {row}");
        }
        assert_eq!(read("plain text here"), None);
    }

    #[test]
    fn anchoring_blanks_each_row_and_leaves_the_cursor_as_asked() {
        let mut term = crate::pane::term::screen::PlainTerminal::new(4, 10);
        term.process(b"xxxxxxxxxx\r\nxxxxxxxxxx\r\nab");
        let bytes = anchor_bytes(PlacementId(9), 3, 3, 2, 10, CursorAfter::LastRowSameColumn);
        term.process(&bytes);
        let screen = term.screen();
        // Three rows from row 2: the screen scrolled one row.
        assert_eq!(screen.cursor_position(), (3, 2));
        let anchors = screen.picture_anchors();
        let cells: Vec<(u16, u16, u16, u16)> = anchors
            .iter()
            .map(|(r, c, a)| (*r, *c, a.row, a.col))
            .collect();
        let mut expected = Vec::new();
        for row in 0..3 {
            for col in 0..3 {
                expected.push((row + 1, col + 2, row, col));
            }
        }
        assert_eq!(cells, expected);
        assert!(anchors.iter().all(|a| a.2.placement == PlacementId(9)));
        // The text keeps no trace of the anchors.
        assert_eq!(screen.contents_between(1, 0, 1, 10).trim_end(), "ab");
        assert_eq!(screen.contents_between(0, 0, 0, 10), "xxxxxxxxxx");
    }
}
