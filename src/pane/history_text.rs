//! A pane's history as a text file's contents, for `C-b e` (open it in
//! `$EDITOR`): every row the replay holds, oldest first, a line per line
//! of output (rows a long line wrapped onto are joined again), trailing
//! blanks trimmed. With `ansi`, colours and text attributes stay, as SGR
//! sequences only (`less -R` and `bat` show them; nothing moves a cursor).
//!
//! [`replay_all`] is the one place that knows how a history is replayed;
//! the rest only reads rows of a [`History`].

use std::fmt::Write as _;

use crate::pane::history::{History, ReplayRequest};
use crate::pane::history_window::{self, WINDOW_ROWS};
use crate::pane::screen::{Attrs, CellStyle, CellView, Colour, ScreenView};
use crate::pane::{Pane, max_history_rows};

/// Rows replayed at a time: a few views' worth, as a search reads them
/// (`input::ring_search`), a few MiB of parser rows.
const TEXT_WINDOW_ROWS: usize = 4 * WINDOW_ROWS;

/// Replays `pane`'s whole history, a window at a time, oldest first, on
/// whatever thread runs the returned job, handing each window to `each`:
/// every byte the ring holds, in the memory of one window. (The same walk
/// as `input::ring_search::for_each_window`, which lives above `pane`.)
pub fn replay_all(pane: &Pane) -> impl FnOnce(&mut dyn FnMut(&mut History)) + Send + use<> {
    let source = pane.ring_copy();
    move |each| {
        let (ring, rows, cols) = (&source.ring, source.rows, source.cols);
        let cap = max_history_rows(ring.budget(), cols)
            .max(history_window::most_rows(TEXT_WINDOW_ROWS) + usize::from(rows));
        let mut extent = history_window::top(ring, TEXT_WINDOW_ROWS, cols);
        loop {
            let request = ReplayRequest::window(ring, extent, rows, cols, cap);
            each(&mut History::replay(request));
            if extent.end >= ring.end() {
                return;
            }
            let next = history_window::from(ring, extent.end, TEXT_WINDOW_ROWS, cols);
            if next.end <= extent.end {
                return;
            }
            extent = next;
        }
    }
}

/// `pane`'s history as text, built by the job this returns (slow on a big
/// history: run it off the render loop).
pub fn history_text(pane: &Pane, ansi: bool) -> impl FnOnce() -> String + Send + use<> {
    let replay = replay_all(pane);
    move || {
        let mut out = String::new();
        replay(&mut |history| write_rows(history, ansi, &mut out));
        finish(&mut out);
        out
    }
}

/// The rows of `screen` as text, one line per row (a row a long line
/// wrapped onto included), trailing blanks of each trimmed: what
/// `tilework capture` prints for a pane's screen.
pub fn screen_text(screen: ScreenView<'_>, ansi: bool) -> String {
    let mut out = String::new();
    for row in 0..screen.size().0.get() {
        write_row(screen, row, ansi, &mut out);
        // `write_row` joins a wrapped row to the next; a screen keeps rows.
        if screen.row_wrapped(row) {
            out.push('\n');
        }
    }
    out
}

/// Appends every row `history` holds, oldest first.
fn write_rows(history: &mut History, ansi: bool, out: &mut String) {
    let total = history.total_rows();
    let rows = usize::from(history.screen().size().0.get()).max(1);
    // A screenful at a time: `with_row` scrolls so the page's first row is
    // on screen; the rows after it on screen are the page's.
    for top in (0..total).step_by(rows) {
        history.with_row(top, |screen, first| {
            let last = screen.size().0.get();
            let end = u16::try_from((total - top).min(usize::from(last - first)))
                .map_or(last, |n| first + n);
            for row in first..end {
                write_row(screen, row, ansi, out);
            }
        });
    }
}

/// One screen row; a newline after it unless the line wraps on.
fn write_row(screen: ScreenView<'_>, row: u16, ansi: bool, out: &mut String) {
    let cols = screen.size().1.get();
    let wraps = screen.row_wrapped(row);
    let cells: Vec<CellView<'_>> = (0..cols).filter_map(|col| screen.cell(row, col)).collect();
    // A wrapped row is full; a line's end is where its last visible cell is.
    let keep = if wraps {
        cells.len()
    } else {
        cells
            .iter()
            .rposition(|c| !c.contents().trim().is_empty() || (ansi && c.bg() != Colour::Default))
            .map_or(0, |i| i + 1)
    };
    let mut style = CellStyle::default();
    for cell in &cells[..keep] {
        if cell.is_wide_continuation() {
            continue;
        }
        if ansi {
            let now = cell.style();
            if now != style {
                write_sgr(&now, out);
                style = now;
            }
        }
        match cell.contents() {
            "" => out.push(' '),
            text => out.push_str(text),
        }
    }
    if ansi && style != CellStyle::default() {
        // Each line stands alone: a reader that starts anywhere (an
        // editor's view, `grep`) sees the right colours.
        out.push_str("\x1b[0m");
    }
    if !wraps {
        out.push('\n');
    }
}

/// Blank rows under the last line (the screen below the prompt) go; the
/// text ends with one newline.
fn finish(out: &mut String) {
    let trimmed = out.trim_end_matches('\n').len();
    out.truncate(trimmed);
    out.push('\n');
}

/// `style` whole, from a reset, so no earlier state matters. (Only what
/// vt100 keeps can be set today; the attributes it drops come with the
/// screen overlay.)
fn write_sgr(style: &CellStyle, out: &mut String) {
    out.push_str("\x1b[0");
    for (on, code) in [
        (style.has(Attrs::BOLD), "1"),
        (style.has(Attrs::DIM), "2"),
        (style.has(Attrs::ITALIC), "3"),
        (style.is_underlined(), "4"),
        (style.has(Attrs::INVERSE), "7"),
    ] {
        if on {
            out.push(';');
            out.push_str(code);
        }
    }
    color(style.fg, 30, out);
    color(style.bg, 40, out);
    out.push('m');
}

/// `base` is 30 for the foreground, 40 for the background.
fn color(c: Colour, base: u8, out: &mut String) {
    let _ = match c {
        Colour::Default => Ok(()),
        Colour::Indexed(n) if n < 8 => write!(out, ";{}", base + n),
        Colour::Indexed(n) if n < 16 => write!(out, ";{}", base + 60 + n - 8),
        Colour::Indexed(n) => write!(out, ";{};5;{n}", base + 8),
        Colour::Rgb(r, g, b) => write!(out, ";{};2;{r};{g};{b}", base + 8),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::PaneId;

    /// A detached pane of `rows` x `cols` that was sent `bytes`.
    fn pane_with(rows: u16, cols: u16, bytes: &[u8]) -> Pane {
        let mut pane = Pane::detached(PaneId(1), rows, cols, 16 << 20);
        pane.feed(bytes.to_vec());
        pane.settle();
        pane
    }

    #[test]
    fn every_line_comes_back_once_in_order_with_blank_rows_trimmed() {
        let mut bytes = Vec::new();
        for i in 1..=100 {
            bytes.extend_from_slice(format!("line {i}   \r\n").as_bytes());
        }
        bytes.extend_from_slice(b"$ ");
        let pane = pane_with(7, 30, &bytes);
        let text = history_text(&pane, false)();
        let expected: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        assert_eq!(text, format!("{expected}$\n"));
    }

    #[test]
    fn a_history_of_many_windows_comes_back_whole_without_seams() {
        let n = 5 * TEXT_WINDOW_ROWS;
        let mut bytes = Vec::new();
        for i in 1..=n {
            bytes.extend_from_slice(format!("line {i}\r\n").as_bytes());
            if i % 997 == 0 {
                // Blank lines near window ends stay.
                bytes.extend_from_slice(b"\r\n\r\n");
            }
        }
        let pane = pane_with(6, 24, &bytes);
        let mut windows = 0;
        replay_all(&pane)(&mut |_| windows += 1);
        assert!(windows >= 4, "{windows} windows");
        let text = history_text(&pane, false)();
        let mut expected = String::new();
        for i in 1..=n {
            expected.push_str(&format!("line {i}\n"));
            if i % 997 == 0 {
                expected.push_str("\n\n");
            }
        }
        // The blank rows after the last line are the screen's, trimmed.
        assert_eq!(text, expected.trim_end_matches('\n').to_string() + "\n");
    }

    #[test]
    fn a_wrapped_line_is_one_line_again_and_wide_characters_stay_whole() {
        let long = "x".repeat(25);
        let bytes = format!("{long}\r\n日本語\r\n");
        let pane = pane_with(4, 10, bytes.as_bytes());
        let text = history_text(&pane, false)();
        assert_eq!(text, format!("{long}\n日本語\n"));
    }

    #[test]
    fn colours_stay_as_sgr_only_with_ansi() {
        let bytes = b"plain \x1b[1;31mred\x1b[0m and \x1b[38;5;200;48;2;1;2;3mmore\x1b[m\r\n";
        let pane = pane_with(4, 40, bytes);
        let plain = history_text(&pane, false)();
        assert_eq!(plain, "plain red and more\n");
        let ansi = history_text(&pane, true)();
        assert_eq!(
            ansi,
            "plain \x1b[0;1;31mred\x1b[0m and \x1b[0;38;5;200;48;2;1;2;3mmore\x1b[0m\n"
        );
    }
}
