//! Copy mode: a cursor moving through a pane's history, a selection by
//! character, line or rectangle, and regex search with every match known.
//!
//! Positions are absolute rows of the pane's [`History`] (row 0 is the
//! oldest line held) and screen columns. Everything here is pure over a
//! `History`, so it is tested without a terminal.

mod motion;
mod search;

pub use motion::{Find, MAX_COUNT, Motion, Scroll, scroll_rows};
pub use search::Search;

pub use crate::input::row_text::{GlobalMatch, Match, RowText, find_all, find_all_while, snapshot};

use crate::pane::PaneId;
use crate::pane::history::window::Window;
use crate::pane::term::screen::ScreenView;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Point {
    pub row: usize,
    pub col: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectKind {
    Char,
    Line,
    Block,
}

/// The state of copy mode on one pane.
#[derive(Debug)]
pub struct CopyMode {
    pub pane: PaneId,
    pub cursor: Point,
    pub selection: Option<(Point, SelectKind)>,
    pub search: Option<Search>,
    /// The last `f F t T`, for `;` and `,`.
    last_find: Option<Find>,
    /// The replay of history the rows are rows of (`History::generation`).
    pub generation: u64,
}

impl CopyMode {
    /// Starts with the cursor where the program's cursor is, or on the
    /// view's bottom row when the view is scrolled back (`C-b PgUp`), so
    /// the first motion does not jump back to the live screen.
    pub fn new(pane: PaneId, history: &Window) -> Self {
        let (row, col) = history.screen().cursor_position();
        let live = history.len() + usize::from(row);
        let view_bottom = history.top_row() + usize::from(history.screen().size().0.get()) - 1;
        Self {
            pane,
            cursor: Point {
                row: live.min(view_bottom),
                col,
            },
            selection: None,
            search: None,
            last_find: None,
            generation: history.generation,
        }
    }

    /// Moves the cursor by rows/cols within the history, and keeps it in
    /// view.
    pub fn move_by(&mut self, history: &mut Window, rows: isize, cols: i32) {
        let max_row = history.total_rows().saturating_sub(1);
        let width = history.screen().size().1.get();
        self.cursor.row = self.cursor.row.saturating_add_signed(rows).min(max_row);
        let col = i32::from(self.cursor.col) + cols;
        self.cursor.col = u16::try_from(col.clamp(0, i32::from(width) - 1)).unwrap_or(0);
        history.reveal(self.cursor.row);
    }

    pub fn move_to(&mut self, history: &mut Window, point: Point) {
        let max_row = history.total_rows().saturating_sub(1);
        let width = history.screen().size().1.get();
        self.cursor = Point {
            row: point.row.min(max_row),
            col: point.col.min(width.saturating_sub(1)),
        };
        history.reveal(self.cursor.row);
    }

    /// `v`, `V`, `C-v`: start a selection of that kind, change its kind, or
    /// (the same kind again) clear it, like vim.
    pub fn toggle_selection(&mut self, kind: SelectKind) {
        self.selection = match self.selection {
            Some((_, k)) if k == kind => None,
            Some((anchor, _)) => Some((anchor, kind)),
            None => Some((self.cursor, kind)),
        };
    }

    /// Whether the cell at (row, col) is selected.
    pub fn is_selected(&self, row: usize, col: u16) -> bool {
        let Some((anchor, kind)) = self.selection else {
            return false;
        };
        selected(anchor, self.cursor, kind, row, col)
    }

    /// The selected text, rows joined by newlines (wrapped rows joined
    /// without one), trailing blanks trimmed like every terminal does.
    pub fn selected_text(&self, history: &mut Window) -> Option<String> {
        let (anchor, kind) = self.selection?;
        Some(extract(history, anchor, self.cursor, kind))
    }
}

fn selected(anchor: Point, cursor: Point, kind: SelectKind, row: usize, col: u16) -> bool {
    let (start, end) = if anchor <= cursor {
        (anchor, cursor)
    } else {
        (cursor, anchor)
    };
    match kind {
        SelectKind::Line => (start.row..=end.row).contains(&row),
        SelectKind::Block => {
            let (c0, c1) = (anchor.col.min(cursor.col), anchor.col.max(cursor.col));
            (start.row..=end.row).contains(&row) && (c0..=c1).contains(&col)
        }
        SelectKind::Char => {
            if row < start.row || row > end.row {
                false
            } else if start.row == end.row {
                (start.col..=end.col).contains(&col)
            } else if row == start.row {
                col >= start.col
            } else if row == end.row {
                col <= end.col
            } else {
                true
            }
        }
    }
}

/// Text between two points of a history.
pub fn extract(history: &mut Window, a: Point, b: Point, kind: SelectKind) -> String {
    let (start, end) = if a <= b { (a, b) } else { (b, a) };
    let width = history.screen().size().1.get();
    let mut out = String::new();
    for row in start.row..=end.row {
        let (c0, c1) = match kind {
            SelectKind::Line => (0, width),
            SelectKind::Block => (a.col.min(b.col), a.col.max(b.col) + 1),
            SelectKind::Char => (
                if row == start.row { start.col } else { 0 },
                if row == end.row { end.col + 1 } else { width },
            ),
        };
        let (text, wrapped) = history.with_row(row, |screen, r| {
            (
                screen.contents_between(r, c0, r, c1.min(width)),
                screen.row_wrapped(r),
            )
        });
        let joined = kind == SelectKind::Char && wrapped && row != end.row && c1 >= width;
        if joined {
            out.push_str(&text);
        } else {
            out.push_str(text.trim_end());
            if row != end.row {
                out.push('\n');
            }
        }
    }
    out
}

/// Text of a selection on the rows currently on screen (mouse selections
/// never leave the pane they started in, nor the page they started on).
pub fn extract_screen(
    screen: ScreenView<'_>,
    a: (u16, u16),
    b: (u16, u16),
    kind: SelectKind,
) -> String {
    let (start, end) = if a <= b { (a, b) } else { (b, a) };
    let width = screen.size().1.get();
    let mut out = String::new();
    for row in start.0..=end.0 {
        let (c0, c1) = match kind {
            SelectKind::Line => (0, width),
            SelectKind::Block => (a.1.min(b.1), a.1.max(b.1) + 1),
            SelectKind::Char => (
                if row == start.0 { start.1 } else { 0 },
                if row == end.0 { end.1 + 1 } else { width },
            ),
        };
        let text = screen.contents_between(row, c0, row, c1.min(width));
        if kind == SelectKind::Char && screen.row_wrapped(row) && row != end.0 && c1 >= width {
            out.push_str(&text);
        } else {
            out.push_str(text.trim_end());
            if row != end.0 {
                out.push('\n');
            }
        }
    }
    out
}

/// Whether screen cell (row, col) is inside a mouse selection.
pub fn screen_selected(a: (u16, u16), b: (u16, u16), kind: SelectKind, row: u16, col: u16) -> bool {
    let p = |(r, c): (u16, u16)| Point {
        row: usize::from(r),
        col: c,
    };
    selected(p(a), p(b), kind, usize::from(row), col)
}

/// Selection of the word or line at a point, for double and triple clicks.
pub fn word_bounds(screen: ScreenView<'_>, row: u16, col: u16) -> (u16, u16) {
    let text = RowText::from_screen(screen, row);
    let cells: Vec<char> = text.text.chars().collect();
    let col = usize::from(col).min(cells.len().saturating_sub(1));
    let is_word = |c: char| c.is_alphanumeric() || "_-./~:@%+".contains(c);
    if cells.get(col).is_none_or(|&c| !is_word(c)) {
        let c = u16::try_from(col).unwrap_or(0);
        return (c, c);
    }
    let mut a = col;
    while a > 0 && is_word(cells[a - 1]) {
        a -= 1;
    }
    let mut b = col;
    while b + 1 < cells.len() && is_word(cells[b + 1]) {
        b += 1;
    }
    (u16::try_from(a).unwrap_or(0), u16::try_from(b).unwrap_or(0))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::input::search_worker::{Found, SearchReport};
    use crate::pane::RingCopy;
    use crate::pane::history::scrollback::ByteRing;
    use crate::pane::history::window::{Located, ReplayRequest};
    use crate::pane::term::screen::PlainTerminal;
    use crossbeam_channel::Receiver;
    use regex::Regex;
    use std::time::Duration;

    /// `text` (lines joined by CR LF) as a pane's bytes at `rows` x `cols`.
    fn ring(text: &str, rows: u16, cols: u16) -> RingCopy {
        let mut ring = ByteRing::new(1 << 20);
        ring.push(text.replace('\n', "\r\n").as_bytes());
        RingCopy::at_one_size(ring, rows, cols)
    }

    /// A history of `text` (lines joined by CR LF) replayed at `rows` x `cols`
    /// (also for `motion`'s tests).
    pub(super) fn history(text: &str, rows: u16, cols: u16) -> Window {
        let src = ring(text, rows, cols);
        Window::replay(ReplayRequest::from_ring(&src.ring, rows, cols, 1000))
    }

    /// The row of `h` a match found in the whole history begins on.
    fn row_of(h: &Window, m: GlobalMatch) -> usize {
        match h.locate(m.start) {
            Located::At(row) => row,
            other => panic!("{m:?} is {other:?}"),
        }
    }

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn rows_cover_history_and_screen() {
        let mut h = history(&numbered(20), 5, 20);
        let rows = snapshot(&mut h);
        assert_eq!(rows.len(), h.total_rows());
        assert_eq!(rows[0].text.trim_end(), "line 1");
        assert_eq!(rows[19].text.trim_end(), "line 20");
    }

    /// A search of `text` whose results come back on the test's own
    /// channel, and the history it is shown on.
    fn search_of(text: &str, rows: u16, cols: u16) -> (Window, Search, Receiver<SearchReport>) {
        let (tx, rx) = crossbeam_channel::bounded(16);
        let s = Search::new(PaneId(1), ring(text, rows, cols), tx.into());
        (history(text, rows, cols), s, rx)
    }

    /// Waits for the worker's answer to the latest request and applies it.
    fn settle(s: &mut Search, rx: &Receiver<SearchReport>, h: &Window, from: Point) {
        while s.is_searching() {
            let event = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("a search result");
            if let SearchReport::CopyMode(found) = event {
                s.apply(found, h, from);
            }
        }
    }

    fn search_for(
        s: &mut Search,
        rx: &Receiver<SearchReport>,
        h: &Window,
        pattern: &str,
        from: Point,
    ) {
        s.set_pattern(pattern);
        settle(s, rx, h, from);
    }

    #[test]
    fn search_finds_every_match_and_steps_backwards_from_the_cursor() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        search_for(&mut s, &rx, &h, r"line 1\d", Point { row: 29, col: 0 });
        let rows: Vec<usize> = s.matches.iter().map(|m| m.row).collect();
        assert_eq!(rows, (9..19).collect::<Vec<_>>());
        assert_eq!(s.current_match().map(|m| m.row), Some(18));
        assert_eq!(s.status(), "10/10 (any case)");
        assert_eq!(s.step(true).map(|m| row_of(&h, m)), Some(17));
        assert_eq!(s.step(false).map(|m| row_of(&h, m)), Some(18));
        assert_eq!(
            s.step(false).map(|m| row_of(&h, m)),
            Some(9),
            "wraps around"
        );
        let m = s.matches[0];
        assert_eq!((m.start, m.end), (0, 7));
    }

    #[test]
    fn search_case_toggle_and_bad_regex() {
        let (h, mut s, rx) = search_of("Alpha\nalpha\n", 5, 20);
        let from = Point { row: 0, col: 0 };
        search_for(&mut s, &rx, &h, "ALPHA", from);
        assert_eq!(s.matches.len(), 2);
        s.toggle_case();
        settle(&mut s, &rx, &h, from);
        assert_eq!(s.matches.len(), 0);
        assert_eq!(s.status(), "no match (exact case)");
        search_for(&mut s, &rx, &h, "(unclosed", from);
        assert!(s.error.is_some());
        assert!(s.matches.is_empty());
        assert_eq!(s.status(), "error: unclosed group");
    }

    #[test]
    fn a_pattern_too_large_to_compile_says_so() {
        let (h, mut s, rx) = search_of("x\n", 5, 20);
        search_for(&mut s, &rx, &h, r"\w{1000}", Point { row: 0, col: 0 });
        assert!(s.matches.is_empty());
        assert_eq!(s.status(), "pattern too large");
    }

    #[test]
    fn the_prompt_says_searching_until_the_latest_result_lands() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        let from = Point { row: 29, col: 0 };
        search_for(&mut s, &rx, &h, "line 2", from);
        let before = s.matches.clone();
        s.set_pattern("line 1");
        let older = s.searching.unwrap();
        assert_eq!(s.status(), "searching…");
        // Typing on: the earlier request is stale, its answer is dropped.
        s.set_pattern(r"line 1\d");
        let stale = Found {
            pane: PaneId(1),
            generation: older,
            asker: s.asker(),
            outcome: Ok(Vec::new()),
        };
        assert!(!s.apply(stale, &h, from));
        assert_eq!(s.matches, before, "the old highlights stay meanwhile");
        assert_eq!(s.status(), "searching…");
        settle(&mut s, &rx, &h, from);
        assert_eq!(s.matches.len(), 10);
        assert_eq!(s.status(), "10/10 (any case)");
    }

    #[test]
    fn the_answer_of_a_worker_replaced_is_dropped_whatever_its_number() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        let from = Point { row: 29, col: 0 };
        search_for(&mut s, &rx, &h, "line 2", from);
        let replaced = s.asker();
        // The pane was resized: a new worker searches again, numbering its
        // requests afresh.
        let (tx, rx) = crossbeam_channel::bounded(16);
        s.search_again(PaneId(1), ring(&numbered(30), 5, 20), tx.into());
        let late = Found {
            pane: PaneId(1),
            generation: s.searching.unwrap(),
            asker: replaced,
            outcome: Ok(Vec::new()),
        };
        assert!(!s.apply(late, &h, from), "an answer to the old worker");
        settle(&mut s, &rx, &h, from);
        assert_eq!(s.matches.len(), 11);
    }

    #[test]
    fn n_pressed_while_searching_moves_once_the_result_lands() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        s.set_pattern(r"line 1\d");
        assert_eq!(s.step(true), None);
        assert_eq!(s.step(true), None);
        settle(&mut s, &rx, &h, Point { row: 29, col: 0 });
        assert_eq!(s.current_match().map(|m| m.row), Some(16));
    }

    #[test]
    fn enter_on_the_pattern_being_searched_keeps_that_search() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        s.set_pattern("line 2");
        let running = s.searching;
        s.set_pattern("line 2");
        assert_eq!(s.searching, running, "not started over");
        settle(&mut s, &rx, &h, Point { row: 29, col: 0 });
        s.set_pattern("line 2");
        assert!(!s.is_searching(), "a finished search stays done");
        assert_eq!(s.matches.len(), 11);
    }

    #[test]
    fn an_empty_pattern_clears_at_once() {
        let (h, mut s, rx) = search_of(&numbered(30), 5, 20);
        search_for(&mut s, &rx, &h, "line", Point { row: 29, col: 0 });
        assert_eq!(s.matches.len(), 30);
        s.set_pattern("line 1");
        s.set_pattern("");
        assert!(!s.is_searching());
        assert!(s.matches.is_empty());
        assert_eq!(s.status(), "");
    }

    #[test]
    fn matches_map_wide_characters_to_columns() {
        let (h, mut s, rx) = search_of("日本 key\n", 3, 20);
        search_for(&mut s, &rx, &h, "key", Point { row: 9, col: 0 });
        assert_eq!(
            s.matches,
            vec![Match {
                row: 0,
                start: 5,
                end_row: 0,
                end: 8
            }]
        );
    }

    /// The matches of `pattern` in `text` at `rows` x `cols`, as (row,
    /// start, end row, end): the cells a user sees highlighted.
    fn cells_matched(
        text: &str,
        rows: u16,
        cols: u16,
        pattern: &str,
    ) -> Vec<(usize, u16, usize, u16)> {
        let mut h = history(text, rows, cols);
        let regex = Regex::new(pattern).unwrap();
        find_all(&snapshot(&mut h), &regex, cols)
            .iter()
            .map(|m| (m.row, m.start, m.end_row, m.end))
            .collect()
    }

    #[test]
    fn a_pattern_ending_in_dollar_matches_where_the_lines_text_ends() {
        let text = "hit-3\nhit-33\nfiller\n";
        assert_eq!(cells_matched(text, 5, 20, "hit-3$"), [(0, 0, 0, 5)]);
        assert_eq!(cells_matched(text, 5, 20, "^hit-33$"), [(1, 0, 1, 6)]);
        assert_eq!(cells_matched(text, 5, 20, "filler$"), [(2, 0, 2, 6)]);
        // The old workaround still matches, without the blanks after it.
        assert_eq!(cells_matched(text, 5, 20, r"hit-3\s*$"), [(0, 0, 0, 5)]);
        // A line of blanks between two matches has no text to match.
        assert_eq!(cells_matched("a\n\nb\n", 5, 20, "^$").len(), 0);
    }

    #[test]
    fn dollar_keeps_columns_of_blanks_inside_the_line_and_of_wide_characters() {
        assert_eq!(cells_matched("a  b   \n", 5, 20, "b$"), [(0, 3, 0, 4)]);
        assert_eq!(cells_matched("a  b   \n", 5, 20, "a  b$"), [(0, 0, 0, 4)]);
        assert_eq!(cells_matched("日本 key\n", 5, 20, "key$"), [(0, 5, 0, 8)]);
        assert_eq!(
            cells_matched("日本 key\n", 5, 20, "^日本 key$"),
            [(0, 0, 0, 8)]
        );
    }

    #[test]
    fn dollar_matches_at_the_end_of_a_wrapped_line_not_at_the_wrap() {
        // 16 characters on 10 columns: "0123456789" wraps onto "abcdef".
        let text = "0123456789abcdef\n";
        assert_eq!(cells_matched(text, 5, 10, "cdef$"), [(1, 2, 1, 6)]);
        assert_eq!(cells_matched(text, 5, 10, "9$"), []);
        assert_eq!(
            cells_matched(text, 5, 10, "^0123456789abcdef$"),
            [(0, 0, 1, 6)],
            "the whole line, across the wrap"
        );
        // Blanks the line wrapped over are inside it, and stay searchable.
        let spaced = format!("{}x\n", " ".repeat(12));
        assert_eq!(cells_matched(&spaced, 5, 10, "^ +x$"), [(0, 0, 1, 3)]);
    }

    #[test]
    fn finding_stops_as_soon_as_nobody_wants_the_result() {
        let mut h = history(&numbered(30), 5, 20);
        let rows = snapshot(&mut h);
        let regex = Regex::new("line").unwrap();
        let asked = std::cell::Cell::new(0);
        let three_rows = || {
            asked.set(asked.get() + 1);
            asked.get() <= 3
        };
        assert!(find_all_while(&rows, &regex, 20, three_rows).is_none());
        assert_eq!(asked.get(), 4, "asked before each row, stopped at once");
        assert_eq!(find_all(&rows, &regex, 20).len(), 30);
    }

    #[test]
    fn char_line_and_block_selections_extract_the_right_text() {
        let mut h = history("abcdef\nghijkl\nmnopqr\n", 5, 10);
        let a = Point { row: 0, col: 2 };
        let b = Point { row: 2, col: 3 };
        assert_eq!(
            extract(&mut h, a, b, SelectKind::Char),
            "cdef\nghijkl\nmnop"
        );
        assert_eq!(
            extract(&mut h, b, a, SelectKind::Char),
            "cdef\nghijkl\nmnop"
        );
        assert_eq!(
            extract(&mut h, a, b, SelectKind::Line),
            "abcdef\nghijkl\nmnopqr"
        );
        assert_eq!(extract(&mut h, a, b, SelectKind::Block), "cd\nij\nop");
    }

    #[test]
    fn a_wrapped_line_copies_as_one_line() {
        let mut h = history("0123456789abcdef\n", 5, 10);
        let text = extract(
            &mut h,
            Point { row: 0, col: 0 },
            Point { row: 1, col: 9 },
            SelectKind::Char,
        );
        assert_eq!(text, "0123456789abcdef");
    }

    #[test]
    fn selection_membership_matches_extraction() {
        let mut cm = CopyMode::new(PaneId(1), &history("x\n", 5, 10));
        cm.cursor = Point { row: 0, col: 2 };
        cm.toggle_selection(SelectKind::Char);
        cm.cursor = Point { row: 1, col: 1 };
        assert!(cm.is_selected(0, 5) && cm.is_selected(1, 0) && !cm.is_selected(1, 2));
        cm.toggle_selection(SelectKind::Block);
        assert!(!cm.is_selected(0, 5) && cm.is_selected(1, 2));
        cm.toggle_selection(SelectKind::Block);
        assert!(cm.selection.is_none());
    }

    #[test]
    fn moving_the_cursor_scrolls_the_view() {
        let mut h = history(&numbered(50), 5, 20);
        let mut cm = CopyMode::new(PaneId(1), &h);
        cm.move_by(&mut h, -30, 0);
        assert!(h.offset() > 0);
        let top = h.top_row();
        assert!(top <= cm.cursor.row && cm.cursor.row < top + 5);
        cm.move_by(&mut h, 1000, 1000);
        assert_eq!(cm.cursor.row, h.total_rows() - 1);
        assert_eq!(cm.cursor.col, 19);
    }

    #[test]
    fn word_bounds_for_double_click() {
        let mut p = PlainTerminal::new(2, 30);
        p.process(b"cat /etc/hosts now");
        assert_eq!(word_bounds(p.screen(), 0, 6), (4, 13));
        assert_eq!(word_bounds(p.screen(), 0, 3), (3, 3));
    }
}
