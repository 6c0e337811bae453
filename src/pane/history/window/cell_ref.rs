//! A cell of a history named by what it shows rather than by the rows it
//! is on at one width: its logical line (counted from an anchor's line)
//! and its offset in that line. A window replayed at another width (the
//! pane was resized while the view was open) finds the same cell on the
//! rows its line wraps to there, so copy mode's cursor, selection and view
//! keep their place across a resize (see `scroll_view::resize_history`).

use super::{Located, Mark, Window};
use crate::pane::history::anchors::RowAnchor;

/// A cell as a place in the text: `cells` cells into the logical line
/// that begins `lines` lines after the line the anchor at ring position
/// `pos` begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinePlace {
    pos: u64,
    lines: usize,
    cells: usize,
}

impl Window {
    /// The rows and columns of the view.
    pub fn size(&self) -> (u16, u16) {
        let (rows, cols) = self.parser.screen().size();
        (rows.get(), cols.get())
    }

    /// Whether row `row` (absolute, as copy mode counts) goes on in the
    /// next one.
    fn row_goes_on(&mut self, row: usize) -> bool {
        self.with_row(row, |screen, r| screen.row_wrapped(r))
    }

    /// The anchor at or before absolute row `row` whose row is still held.
    fn mark_before(&self, row: usize) -> Option<Mark> {
        let abs = self.dropped() + row;
        let i = self.marks.partition_point(|m| m.row <= abs);
        let mark = *self.marks.get(i.checked_sub(1)?)?;
        (mark.row >= self.dropped()).then_some(mark)
    }

    /// Where cell (`row`, `col`) is in the text; `None` when no anchor
    /// before it is held.
    pub fn line_place(&mut self, row: usize, col: u16) -> Option<LinePlace> {
        let mark = self.mark_before(row)?;
        let cols = usize::from(self.size().1);
        let mut lines = 0;
        let from = mark.row - self.dropped();
        let mut line_start = from;
        for r in from..row {
            if !self.row_goes_on(r) {
                lines += 1;
                line_start = r + 1;
            }
        }
        Some(LinePlace {
            pos: mark.pos,
            lines,
            cells: (row - line_start) * cols + usize::from(col),
        })
    }

    /// The cell at `place` in this window (on the last row of its line
    /// when the line is shorter now); `None` when the window does not hold
    /// its anchor.
    pub fn find_line_place(&mut self, place: LinePlace) -> Option<(usize, u16)> {
        let i = self.marks.partition_point(|m| m.pos < place.pos);
        let mark = *self.marks.get(i).filter(|m| m.pos == place.pos)?;
        let mut row = mark.row.checked_sub(self.dropped())?;
        let last = self.total_rows().checked_sub(1)?;
        let mut lines = place.lines;
        while lines > 0 && row < last {
            if !self.row_goes_on(row) {
                lines -= 1;
            }
            row += 1;
        }
        let cols = usize::from(self.size().1);
        let mut cells = place.cells;
        while cells >= cols && row < last && self.row_goes_on(row) {
            cells -= cols;
            row += 1;
        }
        let col = u16::try_from(cells.min(cols - 1)).unwrap_or(0);
        Some((row.min(last), col))
    }
}

/// Cell (`row`, `col`) of `old` as a cell of `new`, the same window of
/// bytes replayed at another size: by its place in the text, or failing
/// that by its anchor (its first or last row when `new` does not hold it).
pub fn carry_cell(old: &mut Window, new: &mut Window, row: usize, col: u16) -> (usize, u16) {
    if let Some(found) = old
        .line_place(row, col)
        .and_then(|place| new.find_line_place(place))
    {
        return found;
    }
    let anchor: RowAnchor = old.anchor_of(row);
    let cols = new.size().1.saturating_sub(1);
    match new.locate(anchor) {
        Located::At(row) => (row, col.min(cols)),
        Located::Before => (0, 0),
        Located::After => (new.total_rows().saturating_sub(1), col.min(cols)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::history::anchors::tail;
    use crate::pane::history::scrollback::ByteRing;
    use crate::pane::history::size_log::SizeLog;
    use crate::pane::history::window::ReplayRequest;

    fn replay(ring: &ByteRing, rows: u16, cols: u16) -> Window {
        Window::replay(ReplayRequest::window(
            ring,
            &SizeLog::new(rows, cols),
            tail(ring, 10_000, cols),
            (rows, cols),
            100_000,
        ))
    }

    fn row_text(h: &mut Window, row: usize) -> String {
        let cols = h.size().1;
        h.with_row(row, |s, r| s.contents_between(r, 0, r, cols))
    }

    #[test]
    fn a_cell_of_a_long_line_is_found_on_the_row_its_line_wraps_to() {
        let mut ring = ByteRing::new(1 << 20);
        for i in 0..400 {
            // Lines of 100 columns: one row at 120, two at 60.
            ring.push(format!("{i:04}{}\r\n", "abcdefghij".repeat(9) + "xyzxyz").as_bytes());
        }
        let mut wide = replay(&ring, 10, 120);
        let mut narrow = replay(&ring, 10, 60);
        let row = (0..wide.total_rows())
            .find(|&r| row_text(&mut wide, r).starts_with("0333"))
            .unwrap_or_default();
        // Column 95 is on the second row of the line at 60 columns.
        let (there, col) = carry_cell(&mut wide, &mut narrow, row, 95);
        assert!(row_text(&mut narrow, there - 1).starts_with("0333"));
        assert_eq!(col, 35);
        // And back.
        let (back, col) = carry_cell(&mut narrow, &mut wide, there, col);
        assert_eq!((back, col), (row, 95));
    }
}
