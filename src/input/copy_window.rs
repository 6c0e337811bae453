//! Copy mode across windows of history: before a motion needs rows the
//! window shown does not hold, the pane replays the window around the
//! cursor (or the oldest or newest one), and the cursor, selection, view
//! and search highlights are carried over to the new window's rows by their
//! anchors. This is how every motion reaches the oldest byte in the ring
//! while only one window of rows is in memory.
//!
//! A selection reaching beyond the new window is cut at its edge.

use crate::input::copy_mode::{CopyMode, GlobalMatch, Point};
use crate::pane::history::anchors::WINDOW_ROWS;
use crate::pane::history::window::{Located, Window, carry_cell};
use crate::pane::{Pane, RingCopy, WindowTarget};

/// The most rows one motion moves inside one window; a longer one (a count,
/// the wheel) goes in steps, the window following.
pub const STEP_ROWS: usize = WINDOW_ROWS / 4;

/// Rows to keep beyond the cursor and the view besides a motion's own, so
/// a page or half a page always lands inside the window.
fn margin(history: &Window) -> usize {
    history.view_rows() * 3
}

/// Makes sure the window holds `back` rows before the cursor and the view
/// and `fwd` rows after them (or all there are), replaying the window
/// around the cursor when it does not.
pub fn ensure_room(pane: &mut Pane, copy: &mut CopyMode, back: usize, fwd: usize) {
    let Some(history) = pane.history().window() else {
        return;
    };
    let margin = margin(history);
    let top = history.top_row();
    let low = copy.cursor.row.min(top);
    let high = copy.cursor.row.max(top + history.view_rows() - 1);
    let short_back = low < back + margin && !history.at_top;
    let after = history.total_rows().saturating_sub(high + 1);
    let short_fwd = after < fwd + margin && !history.is_tail;
    if short_back || short_fwd {
        let anchor = history.anchor_of(copy.cursor.row);
        shift(pane, copy, WindowTarget::Around(anchor));
    }
}

/// `g`: the window of the oldest rows.
pub fn to_top(pane: &mut Pane, copy: &mut CopyMode) {
    if pane.history().window().is_some_and(|h| !h.at_top) {
        shift(pane, copy, WindowTarget::Top);
    }
}

/// `G`: the window of the newest rows.
pub fn to_tail(pane: &mut Pane, copy: &mut CopyMode) {
    if pane.history().window().is_some_and(|h| !h.is_tail) {
        shift(pane, copy, WindowTarget::Tail);
    }
}

/// Puts the cursor on match `m`, replaying the window around it when it is
/// elsewhere in the history.
pub fn go_to_match(pane: &mut Pane, copy: &mut CopyMode, m: GlobalMatch) {
    let here = pane.history().window().map(|h| h.locate(m.start));
    if !matches!(here, Some(Located::At(_))) {
        shift(pane, copy, WindowTarget::Around(m.start));
    }
    let Some(history) = pane.history_mut().window_mut() else {
        return;
    };
    if let Located::At(row) = history.locate(m.start) {
        copy.move_to(
            history,
            Point {
                row,
                col: m.start_col,
            },
        );
    }
}

/// Shows the window around the line starting at ring position `pos` (a
/// command's mark, see `copy_prompts`) unless the window shown holds it.
pub fn show_line(pane: &mut Pane, copy: &mut CopyMode, pos: u64) {
    let anchor = crate::pane::history::anchors::RowAnchor { pos, sub: 0 };
    shift(pane, copy, WindowTarget::Around(anchor));
}

/// Shows the window `target` names and carries copy mode over to it.
fn shift(pane: &mut Pane, copy: &mut CopyMode, target: WindowTarget) {
    let Some(old) = pane.history_mut().shift_history(target) else {
        return;
    };
    if let Some(new) = pane.history_mut().window_mut() {
        rebase(copy, &old, new);
    }
}

/// Row `row` of `old` as a row of `new` (its first or last row when `new`
/// does not hold it).
fn carry(old: &Window, new: &Window, row: usize) -> usize {
    match new.locate(old.anchor_of(row)) {
        Located::At(row) => row,
        Located::Before => 0,
        Located::After => new.total_rows().saturating_sub(1),
    }
}

fn rebase(copy: &mut CopyMode, old: &Window, new: &mut Window) {
    copy.generation = new.generation;
    let top = carry(old, new, old.top_row());
    copy.cursor.row = carry(old, new, copy.cursor.row);
    if let Some((anchor, _)) = &mut copy.selection {
        anchor.row = carry(old, new, anchor.row);
    }
    new.show_top(top);
    new.reveal(copy.cursor.row);
    if let Some(search) = &mut copy.search {
        search.locate(new);
    }
}

/// The pane was resized while copy mode was open, and its window of
/// history replayed at the new width (`Pane::resize_history`): the cursor,
/// the selection's other end and the view go to the same cells of the
/// text on the rows their lines wrap to now. A search is run again over
/// the history at the new width (its matches were named by rows of the old
/// one); the match the cursor is on stays the current one. Returns the
/// copy of the pane's bytes to search when there is a search.
pub fn follow_resize(pane: &mut Pane, copy: &mut CopyMode) -> Option<RingCopy> {
    let generation = pane.history().window()?.generation;
    if generation == copy.generation {
        return None;
    }
    let new = pane.history_mut().window_mut()?;
    copy.generation = generation;
    let Some(mut old) = new.replaced.take() else {
        // Replaced some other way (nothing to carry from): kept in bounds.
        let cursor = copy.cursor;
        copy.move_to(new, cursor);
        return None;
    };
    let (old_top, scrolled) = (old.top_row(), old.offset() > 0);
    let mut carry = |row: usize, col: u16| {
        let (row, col) = carry_cell(&mut old, new, row, col);
        Point { row, col }
    };
    let top = carry(old_top, 0).row;
    copy.cursor = carry(copy.cursor.row, copy.cursor.col);
    if let Some((anchor, _)) = &mut copy.selection {
        *anchor = carry(anchor.row, anchor.col);
    }
    if scrolled {
        new.show_top(top);
    }
    new.reveal(copy.cursor.row);
    copy.search.is_some().then(|| pane.history().ring_copy())
}
