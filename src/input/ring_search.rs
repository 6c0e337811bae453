//! Searching a pane's whole byte history: the ring is replayed one window
//! at a time (see `history_window`), oldest first, each window searched and
//! dropped before the next, so a search reaches every byte held while its
//! memory stays that of one window. Runs on a search thread.

use regex::Regex;

use crate::input::command_search::CommandLines;
use crate::input::copy_mode::{GlobalMatch, RowText, find_all_while, snapshot};
use crate::pane::history::anchors::{self, WINDOW_ROWS};
use crate::pane::history::window::{ReplayRequest, Window};
use crate::pane::{RingCopy, max_history_rows};

/// Rows a search replays at a time: fewer, larger windows than a view's
/// (it reads them all), still a few MiB of parser rows.
pub const SEARCH_WINDOW_ROWS: usize = 4 * WINDOW_ROWS;

/// Calls `f` with each window of `source`'s history in turn, oldest first;
/// stops (returning `None`) as soon as `f` does or `keep_going` says no.
/// The line starts in `stops` get row anchors of their own.
pub fn for_each_window(
    source: &RingCopy,
    keep_going: &impl Fn() -> bool,
    stops: &[u64],
    mut f: impl FnMut(&mut Window) -> Option<()>,
) -> Option<()> {
    let ring = &source.ring;
    let cols = source.cols;
    let cap = max_history_rows(ring.budget(), cols)
        .max(anchors::most_rows(SEARCH_WINDOW_ROWS) + usize::from(source.rows));
    let mut extent = anchors::top(ring, SEARCH_WINDOW_ROWS, cols);
    loop {
        if !keep_going() {
            return None;
        }
        let size = (source.rows, cols);
        let mut request = ReplayRequest::window(ring, &source.sizes, extent, size, cap);
        request.reach = source.reach;
        if !stops.is_empty() {
            request = request.with_stops(stops.to_vec());
        }
        let mut history = Window::replay(request);
        f(&mut history)?;
        if extent.end >= ring.end() {
            return Some(());
        }
        let next = anchors::from(ring, extent.end, SEARCH_WINDOW_ROWS, cols);
        if next.end <= extent.end {
            return Some(());
        }
        extent = next;
    }
}

/// Every match of `regex` in the history, oldest first, or `None` when
/// `keep_going` said no on the way.
pub fn find(
    source: &RingCopy,
    regex: &Regex,
    keep_going: impl Fn() -> bool,
) -> Option<Vec<GlobalMatch>> {
    find_in(source, regex, keep_going, None)
}

/// [`find`], only the matches on command lines with `in_commands`.
pub fn find_in(
    source: &RingCopy,
    regex: &Regex,
    keep_going: impl Fn() -> bool,
    in_commands: Option<&CommandLines>,
) -> Option<Vec<GlobalMatch>> {
    let mut out = Vec::new();
    let stops = in_commands.map(CommandLines::stops).unwrap_or_default();
    for_each_window(source, &keep_going, &stops, |history| {
        let rows = snapshot(history);
        let cols = history.screen().size().1.get();
        for m in find_all_while(&rows, regex, cols, &keep_going)? {
            let found = GlobalMatch::of(history, &m);
            if in_commands.is_none_or(|lines| lines.hold(&found)) {
                out.push(found);
            }
        }
        Some(())
    })?;
    Some(out)
}

/// Rows with a match, each once, oldest first: the text of the row where
/// the match begins.
pub fn matching_rows(
    source: &RingCopy,
    regex: &Regex,
    mut on_row: impl FnMut(&RowText),
) -> Option<()> {
    for_each_window(source, &|| true, &[], |history| {
        let rows = snapshot(history);
        let cols = history.screen().size().1.get();
        let mut last = None;
        for m in find_all_while(&rows, regex, cols, || true)? {
            if last != Some(m.row) {
                last = Some(m.row);
                if let Some(row) = rows.get(m.row) {
                    on_row(row);
                }
            }
        }
        Some(())
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::pane::history::scrollback::ByteRing;

    fn source(lines: usize, rows: u16, cols: u16) -> RingCopy {
        let mut ring = ByteRing::new(8 << 20);
        for i in 1..=lines {
            ring.push(format!("line {i}\r\n").as_bytes());
        }
        RingCopy::at_one_size(ring, rows, cols)
    }

    #[test]
    fn finds_every_line_of_a_history_many_windows_long() {
        let src = source(50_000, 24, 80);
        let regex = Regex::new(r"^line \d+$").unwrap();
        let found = find(&src, &regex, || true).unwrap();
        assert_eq!(found.len(), 50_000);
        let mut sorted = found.clone();
        sorted.sort();
        assert_eq!(sorted, found, "oldest first");
        sorted.dedup_by_key(|m| m.start);
        assert_eq!(sorted.len(), 50_000, "each row named once");
        let first = find(&src, &Regex::new(r"^line 1$").unwrap(), || true).unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].start.pos, 0);
    }

    #[test]
    fn a_whole_line_pinned_by_caret_and_dollar_is_found_in_seq_1_100000() {
        // `seq 1 100000` on a 24 x 80 pane: what a user searches with
        // `/^4242$`, or `C-b F`.
        let mut ring = ByteRing::new(8 << 20);
        for i in 1..=100_000 {
            ring.push(format!("{i}\r\n").as_bytes());
        }
        let src = RingCopy::at_one_size(ring, 24, 80);
        let found = find(&src, &Regex::new("^4242$").unwrap(), || true).unwrap();
        assert_eq!(found.len(), 1, "4242 alone, not 14242 or 42420");
        let m = found[0];
        assert_eq!((m.start_col, m.end_col), (0, 4));
        assert_eq!(m.start, m.end, "on one row");
    }

    #[test]
    fn a_match_split_by_the_wrap_is_found() {
        let mut ring = ByteRing::new(1 << 20);
        ring.push(b"0123456789abcdef\r\nnext\r\n");
        let src = RingCopy::at_one_size(ring, 5, 10);
        let found = find(&src, &Regex::new("789abc").unwrap(), || true).unwrap();
        assert_eq!(found.len(), 1);
        let m = found[0];
        assert_eq!(
            (m.start.sub, m.start_col, m.end.sub, m.end_col),
            (0, 7, 1, 3)
        );
    }

    #[test]
    fn a_search_nobody_wants_stops() {
        let src = source(1000, 24, 80);
        assert!(find(&src, &Regex::new("line").unwrap(), || false).is_none());
    }
}
