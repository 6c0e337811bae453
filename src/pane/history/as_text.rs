//! A pane's history as a text file's contents, for `C-b e` (open it in
//! `$EDITOR`): every row the replay holds, oldest first, a line per line
//! of output (rows a long line wrapped onto are joined again), trailing
//! blanks trimmed. With `ansi`, colours and text attributes stay, as SGR
//! sequences only (`less -R` and `bat` show them; nothing moves a cursor).
//!
//! [`replay_all`] is the one place that knows how a history is replayed;
//! the rest only reads rows of a [`History`]. [`write_history`] hands the
//! text out in pieces as it is made (`tilework capture --history`): a
//! history of megabytes of wide rows never sits in memory whole.

use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;

use crate::pane::history::anchors::{self, WINDOW_ROWS};
use crate::pane::history::window::{ReplayRequest, Window};
use crate::pane::term::cell_marks::Link;
use crate::pane::term::screen::{Attrs, CellStyle, CellView, Colour, ScreenView, UnderlineStyle};
use crate::pane::{Pane, max_history_rows};

/// Rows replayed at a time: a few views' worth, as a search reads them
/// (`input::ring_search`), a few MiB of parser rows.
const TEXT_WINDOW_ROWS: usize = 4 * WINDOW_ROWS;

/// Cells of a window: [`TEXT_WINDOW_ROWS`] of 80 columns, ~20 MiB of
/// parser rows. A wide pane replays fewer rows at a time, so a window's
/// memory does not grow with the width (398 columns: ~1,600 rows).
const TEXT_WINDOW_CELLS: usize = TEXT_WINDOW_ROWS * 80;

/// Text handed out at a time by [`write_history`] (a row is never split).
pub const TEXT_PIECE_BYTES: usize = 64 * 1024;

/// Where [`write_history`] hands its pieces.
pub type TextSink<'a> = dyn FnMut(&[u8]) -> io::Result<()> + 'a;

/// What [`replay_all`] hands each window to; `Break` ends the walk.
pub type EachWindow<'a> = dyn FnMut(&mut Window) -> ControlFlow<()> + 'a;

/// The rows a window aims for in a pane `cols` wide.
fn text_window_rows(cols: u16) -> usize {
    (TEXT_WINDOW_CELLS / usize::from(cols.max(1))).clamp(WINDOW_ROWS / 8, TEXT_WINDOW_ROWS)
}

/// Replays `pane`'s whole history, a window at a time, oldest first, on
/// whatever thread runs the returned job, handing each window to `each`
/// (which may stop the walk): every byte the ring holds, in the memory of
/// one window. (The same walk as `input::ring_search::for_each_window`,
/// which lives above `pane`.)
pub fn replay_all(pane: &Pane) -> impl FnOnce(&mut EachWindow<'_>) + Send + use<> {
    let source = pane.history().ring_copy();
    move |each| {
        let (ring, rows, cols) = (&source.ring, source.rows, source.cols);
        let window_rows = text_window_rows(cols);
        let cap = max_history_rows(ring.budget(), cols)
            .max(anchors::most_rows(window_rows) + usize::from(rows));
        let mut extent = anchors::top(ring, window_rows, cols);
        loop {
            let mut request = ReplayRequest::window(ring, &source.sizes, extent, (rows, cols), cap);
            request.reach = source.reach;
            if each(&mut Window::replay(request)).is_break() || extent.end >= ring.end() {
                return;
            }
            let next = anchors::from(ring, extent.end, window_rows, cols);
            if next.end <= extent.end {
                return;
            }
            extent = next;
        }
    }
}

/// `pane`'s history as text, handed to a sink a piece (about
/// [`TEXT_PIECE_BYTES`], whole rows) at a time by the job this returns
/// (slow on a big history: run it off the render loop). It holds one
/// window and one piece, whatever the history's size; the first error
/// from the sink ends it.
pub fn write_history(
    pane: &Pane,
    ansi: bool,
) -> impl FnOnce(&mut TextSink<'_>) -> io::Result<()> + Send + use<> {
    let replay = replay_all(pane);
    move |sink| {
        let mut out = Pieces::new(sink);
        replay(&mut |history| write_rows(history, ansi, &mut out));
        out.finish()
    }
}

/// The text of `pane`'s output in ring positions `[from, to)` (one
/// command's output, see `command_marks`), as [`write_history`] writes a
/// whole history: a window at a time, at the pane's width. Nothing (not
/// even a newline) when the range is empty or no longer held.
pub fn write_range(
    pane: &Pane,
    from: u64,
    to: u64,
    ansi: bool,
) -> impl FnOnce(&mut TextSink<'_>) -> io::Result<()> + Send + use<> {
    let source = pane.history().ring_copy();
    move |sink| {
        let (ring, rows, cols) = (&source.ring, source.rows, source.cols);
        let from = from.max(ring.first_line_start());
        let to = to.min(ring.end());
        if from >= to {
            return Ok(());
        }
        let window_rows = text_window_rows(cols);
        let cap = max_history_rows(ring.budget(), cols)
            .max(anchors::most_rows(window_rows) + usize::from(rows));
        let mut out = Pieces::new(sink);
        let mut start = from;
        let mut written = 0;
        while start < to {
            let end = anchors::from(ring, start, window_rows, cols).end.min(to);
            let extent = anchors::Extent { start, end };
            let mut request = ReplayRequest::window(ring, &source.sizes, extent, (rows, cols), cap);
            request.reach = source.reach;
            let mut history = Window::replay(request);
            // The rows up to the cursor's, and the cursor's when the range
            // ends inside a line.
            let (row, col) = history.screen().cursor_position();
            let total = history.len() + usize::from(row) + usize::from(col > 0);
            written += total;
            if write_first_rows(&mut history, total, ansi, &mut out).is_break() || end <= start {
                break;
            }
            start = end;
        }
        if written == 0 {
            // Output that left no row (a mode set, a `\r`): nothing.
            return Ok(());
        }
        out.finish()
    }
}

/// The first `total` rows `history` holds, as [`write_rows`] writes all.
fn write_first_rows(
    history: &mut Window,
    total: usize,
    ansi: bool,
    out: &mut Pieces<'_, '_>,
) -> ControlFlow<()> {
    for row in 0..total {
        history.with_row(row, |screen, at| {
            write_row(screen, at, ansi, &mut out.text);
        });
        out.row_done()?;
    }
    ControlFlow::Continue(())
}

/// `pane`'s history as one text, built by the job this returns (slow on a
/// big history: run it off the render loop).
pub fn history_text(pane: &Pane, ansi: bool) -> impl FnOnce() -> String + Send + use<> {
    let write = write_history(pane, ansi);
    move || {
        let mut out = String::new();
        // Pieces end at rows' ends: each is whole UTF-8.
        let _ = write(&mut |piece: &[u8]| {
            out.push_str(&String::from_utf8_lossy(piece));
            Ok(())
        });
        out
    }
}

/// Text on its way to a sink: rows gather into a piece, handed on once
/// it is [`TEXT_PIECE_BYTES`] long. Newlines at a piece's end are held
/// back until more text comes: at the history's end they are the blank
/// rows under the last line, which go (the text ends with one newline).
struct Pieces<'s, 'a> {
    sink: &'s mut TextSink<'a>,
    text: String,
    held_newlines: usize,
    failed: Option<io::Error>,
}

impl<'s, 'a> Pieces<'s, 'a> {
    fn new(sink: &'s mut TextSink<'a>) -> Self {
        Self {
            sink,
            text: String::with_capacity(TEXT_PIECE_BYTES + 4096),
            held_newlines: 0,
            failed: None,
        }
    }

    /// After each row: hands the piece on once it is big enough. Break
    /// once the sink failed (nobody takes the rest).
    fn row_done(&mut self) -> ControlFlow<()> {
        if self.text.len() >= TEXT_PIECE_BYTES {
            self.hand_on();
        }
        if self.failed.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn hand_on(&mut self) {
        let kept = self.text.trim_end_matches('\n').len();
        if kept > 0 {
            let newlines = self.held_newlines;
            self.held_newlines = 0;
            self.send_newlines(newlines);
            let piece = std::mem::take(&mut self.text);
            self.send(&piece.as_bytes()[..kept]);
            self.held_newlines = piece.len() - kept;
            self.text = piece;
        } else {
            self.held_newlines += self.text.len();
        }
        self.text.clear();
    }

    fn send_newlines(&mut self, mut n: usize) {
        const NEWLINES: [u8; 4096] = [b'\n'; 4096];
        while n > 0 {
            let now = n.min(NEWLINES.len());
            self.send(&NEWLINES[..now]);
            n -= now;
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        if self.failed.is_none()
            && let Err(err) = (self.sink)(bytes)
        {
            self.failed = Some(err);
        }
    }

    /// The rest, and the one newline the text ends with.
    fn finish(mut self) -> io::Result<()> {
        self.hand_on();
        self.send(b"\n");
        self.failed.map_or(Ok(()), Err)
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

/// Appends every row `history` holds, oldest first; stops early once the
/// pieces' sink failed.
fn write_rows(history: &mut Window, ansi: bool, out: &mut Pieces<'_, '_>) -> ControlFlow<()> {
    let total = history.total_rows();
    let rows = usize::from(history.screen().size().0.get()).max(1);
    // A screenful at a time: `with_row` scrolls so the page's first row is
    // on screen; the rows after it on screen are the page's.
    for top in (0..total).step_by(rows) {
        let flow = history.with_row(top, |screen, first| {
            let last = screen.size().0.get();
            let end = u16::try_from((total - top).min(usize::from(last - first)))
                .map_or(last, |n| first + n);
            for row in first..end {
                write_row(screen, row, ansi, &mut out.text);
                out.row_done()?;
            }
            ControlFlow::Continue(())
        });
        flow?;
    }
    ControlFlow::Continue(())
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
    let mut link = None;
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
            let now = cell.link();
            if now != link {
                write_link(now.as_deref(), out);
                link = now;
            }
        }
        match &*cell.contents() {
            "" => out.push(' '),
            text => out.push_str(text),
        }
    }
    if ansi && style != CellStyle::default() {
        // Each line stands alone: a reader that starts anywhere (an
        // editor's view, `grep`) sees the right colours.
        out.push_str("\x1b[0m");
    }
    if link.is_some() {
        write_link(None, out);
    }
    if !wraps {
        out.push('\n');
    }
}

/// `style` whole, from a reset, so no earlier state matters.
fn write_sgr(style: &CellStyle, out: &mut String) {
    out.push_str("\x1b[0");
    let underline = match style.underline {
        UnderlineStyle::None => "",
        UnderlineStyle::Single => "4",
        UnderlineStyle::Double => "4:2",
        UnderlineStyle::Curly => "4:3",
        UnderlineStyle::Dotted => "4:4",
        UnderlineStyle::Dashed => "4:5",
    };
    for (on, code) in [
        (style.has(Attrs::BOLD), "1"),
        (style.has(Attrs::DIM), "2"),
        (style.has(Attrs::ITALIC), "3"),
        (style.is_underlined(), underline),
        (style.has(Attrs::BLINK), "5"),
        (style.has(Attrs::INVERSE), "7"),
        (style.has(Attrs::CONCEAL), "8"),
        (style.has(Attrs::STRIKETHROUGH), "9"),
        (style.has(Attrs::OVERLINE), "53"),
    ] {
        if on {
            out.push(';');
            out.push_str(code);
        }
    }
    color(style.fg, 30, out);
    color(style.bg, 40, out);
    let _ = match style.underline_colour {
        Colour::Default => Ok(()),
        Colour::Indexed(n) => write!(out, ";58:5:{n}"),
        Colour::Rgb(r, g, b) => write!(out, ";58:2::{r}:{g}:{b}"),
    };
    out.push('m');
}

/// Opens `link` (sanitized when kept), or closes the one open.
fn write_link(link: Option<&Link>, out: &mut String) {
    out.push_str("\x1b]8;");
    if let Some(link) = link {
        if let Some(id) = &link.id {
            out.push_str("id=");
            out.push_str(id);
        }
        out.push(';');
        out.push_str(&link.uri);
    } else {
        out.push(';');
    }
    out.push_str("\x1b\\");
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
#[allow(clippy::unwrap_used)]
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
        replay_all(&pane)(&mut |_| {
            windows += 1;
            ControlFlow::Continue(())
        });
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

    /// The pieces `write_history` hands out for `pane`.
    fn pieces(pane: &Pane) -> Vec<Vec<u8>> {
        let mut pieces = Vec::new();
        write_history(pane, false)(&mut |piece: &[u8]| {
            pieces.push(piece.to_vec());
            Ok(())
        })
        .unwrap();
        pieces
    }

    #[test]
    fn a_wide_history_comes_in_bounded_pieces_of_whole_rows() {
        // The cursor to the last column, one character, the next line: each
        // row is that many cells of text, for ten bytes of output.
        let cols = 398;
        let n = 3000;
        let bytes = b"\x1b[999CX\r\n".repeat(n);
        let pane = pane_with(10, cols, &bytes);
        let pieces = pieces(&pane);
        let line = format!("{}X\n", " ".repeat(usize::from(cols) - 1));
        assert!(pieces.len() > 10, "{} pieces", pieces.len());
        for piece in &pieces {
            assert!(
                piece.len() <= TEXT_PIECE_BYTES + line.len(),
                "{}",
                piece.len()
            );
        }
        assert_eq!(pieces.concat(), line.repeat(n).into_bytes());
        // A wide pane replays fewer rows at a time: its windows' cells
        // stay those of a narrow pane's.
        assert!(text_window_rows(cols) * usize::from(cols) <= TEXT_WINDOW_CELLS);
        assert_eq!(text_window_rows(80), TEXT_WINDOW_ROWS);
    }

    #[test]
    fn styles_and_links_stay_with_ansi_and_go_without() {
        let pane = pane_with(
            4,
            30,
            b"\x1b[9;53;4:3;58:2::1:2:3mS\x1b[m \x1b]8;id=k;https://x.test/\x1b\\link\x1b]8;;\x1b\\.\r\n",
        );
        let ansi = history_text(&pane, true)();
        assert!(
            ansi.starts_with("\x1b[0;4:3;9;53;58:2::1:2:3mS\x1b[0m "),
            "{ansi:?}"
        );
        assert!(
            ansi.contains("\x1b]8;id=k;https://x.test/\x1b\\link\x1b]8;;\x1b\\.\n"),
            "{ansi:?}"
        );
        assert_eq!(history_text(&pane, false)(), "S link.\n");
        assert_eq!(
            screen_text(pane.term().screen(), true).lines().next(),
            ansi.lines().next()
        );
    }

    #[test]
    fn blank_rows_stay_between_lines_and_go_at_the_end_across_pieces() {
        // Runs of blank lines longer than a piece, then blank rows at the
        // end: the first stay, the last go.
        let mut bytes = b"first\r\n".to_vec();
        bytes.extend(b"\r\n".repeat(TEXT_PIECE_BYTES + 10));
        bytes.extend(b"last\r\n");
        bytes.extend(b"\r\n".repeat(TEXT_PIECE_BYTES + 10));
        let pane = pane_with(5, 20, &bytes);
        let text = pieces(&pane).concat();
        let expected = format!("first\n{}last\n", "\n".repeat(TEXT_PIECE_BYTES + 10));
        assert_eq!(text.len(), expected.len());
        assert!(text == expected.as_bytes());
    }

    #[test]
    fn a_sink_that_fails_ends_the_walk() {
        let bytes = b"\x1b[999CX\r\n".repeat(3000);
        let pane = pane_with(10, 398, &bytes);
        let mut calls = 0;
        let err = write_history(&pane, false)(&mut |_: &[u8]| {
            calls += 1;
            Err(io::ErrorKind::BrokenPipe.into())
        })
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(calls, 1);
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
