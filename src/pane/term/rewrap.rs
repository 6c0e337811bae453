//! Rewrapping a grid at a new width, as a terminal that reflows its cells
//! does (tmux's `grid_reflow`): the rows of the scrollback and the screen
//! are joined into logical lines where vt100 marked them wrapped, and each
//! line is written again into a fresh parser of the new size, which wraps
//! it where the new width does. The cursor keeps its place in its line.
//!
//! What a program drew in place (a `\r` progress bar, a right prompt
//! placed with cursor moves, text erased with `CSI K`) is already one
//! line's cells here, so it comes out once, where it is, whatever width it
//! was drawn at: replaying the bytes at the new width instead would have
//! left a copy wherever the old width put the cursor.
//!
//! A cell is written back whole: every codepoint of its contents (combining
//! marks and anything else carried after the first character), with its
//! colours and attributes.

use std::fmt::Write as _;

use crate::pane::term::parse_guard::{self, ParserPanicked};

/// Whether a cell is written back: one with text, or erased or left in a
/// colour or attribute (vt100's "basic formatted" capture writes exactly
/// these, as tmux counts a row's used cells). Cells never touched are not.
fn used(cell: &vt100::Cell) -> bool {
    cell.has_contents()
        || cell.fgcolor() != vt100::Color::Default
        || cell.bgcolor() != vt100::Color::Default
        || cell.bold()
        || cell.dim()
        || cell.italic()
        || cell.underline()
        || cell.inverse()
}

/// Columns from the first to the last used cell of `row` on the screen.
fn used_columns(screen: &vt100::Screen, row: u16) -> usize {
    let cols = screen.size().1.get();
    (0..cols)
        .rev()
        .find(|&col| screen.cell(row, col).is_some_and(used))
        .map_or(0, |col| usize::from(col) + 1)
}

/// Whether row `row` of the screen (as shown, scrollback offset and all)
/// goes on in the next row: vt100 says so, or a wide character that did
/// not fit in the last column moved down. vt100 does not mark that row
/// (its last cell is empty), so a line of CJK text laid out at an odd
/// width would come apart into lines at each such row. The one thing it
/// cannot tell apart: a program that printed exactly the row's width less
/// one, a newline and then a wide character; those rows are joined.
pub fn row_continues(screen: &vt100::Screen, row: u16) -> bool {
    if screen.row_wrapped(row) {
        return true;
    }
    let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
    if cols < 3 || row + 1 >= rows {
        return false;
    }
    let cell = |col| screen.cell(row, col);
    cell(cols - 1).is_some_and(|last| !used(last))
        && cell(cols - 2).is_some_and(|c| used(c) || c.is_wide_continuation())
        && screen.cell(row + 1, 0).is_some_and(vt100::Cell::is_wide)
}

/// The length of the escape sequence `text` starts with (CSI only: the
/// capture writes nothing else).
fn escape_len(text: &[u8]) -> usize {
    text.iter()
        .skip(2)
        .position(|b| (0x40..=0x7e).contains(b))
        .map_or(text.len(), |i| i + 3)
}

/// One logical line: the bytes that print it from column 0 (text and SGR,
/// as vt100 captured it: each SGR changes the look from the line before
/// it) and the width of each of its cells, in order.
#[derive(Debug, Default)]
struct Line<'a> {
    text: &'a str,
    widths: Vec<u8>,
}

impl<'a> Line<'a> {
    fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut widths = Vec::with_capacity(text.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == 0x1b {
                i += escape_len(&bytes[i..]);
                continue;
            }
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            // A character of no width is carried in the cell before it.
            if let Some(w @ 1..) = unicode_width::UnicodeWidthChar::width(c) {
                widths.push(u8::try_from(w.min(2)).unwrap_or(2));
            }
            i += c.len_utf8();
        }
        Self { text, widths }
    }

    /// The line's SGRs alone: what a line not written leaves in force.
    fn escapes(&self, out: &mut String) {
        let bytes = self.text.as_bytes();
        let mut i = 0;
        while let Some(at) = memchr::memchr(0x1b, &bytes[i..]) {
            let len = escape_len(&bytes[i + at..]);
            out.push_str(&self.text[i + at..i + at + len]);
            i += at + len;
        }
    }

    /// Columns the line takes, unwrapped.
    fn columns(&self) -> usize {
        self.widths.iter().map(|&w| usize::from(w)).sum()
    }

    /// Where column `offset` of the line lands at `cols` wide: (row, col).
    /// Past the last row's cells it stays on the last row, as tmux puts it.
    fn place(&self, offset: usize, cols: usize) -> (usize, usize) {
        let (mut row, mut col, mut start) = (0, 0, 0);
        for &w in &self.widths {
            let w = usize::from(w);
            if col + w > cols {
                if offset < start + col {
                    return (row, offset - start);
                }
                row += 1;
                start += col;
                col = 0;
            }
            col += w;
        }
        (row, offset - start)
    }

    /// Rows the line takes at `cols` wide (at least one).
    fn rows(&self, cols: usize) -> usize {
        self.place(self.columns(), cols).0 + 1
    }
}

/// Where the cursor is in the lines: line `line`, `offset` columns in, or
/// at the line's end (`None`: it stood past the row's last used cell).
#[derive(Debug, Clone, Copy)]
struct LineCursor {
    line: usize,
    offset: Option<usize>,
}

/// The grid as logical lines, oldest first, and the cursor among them.
struct Lines<'a> {
    lines: Vec<Line<'a>>,
    cursor: LineCursor,
}

/// Every row the parser holds (its scrollback, then its screen), as
/// vt100 captures them: logical lines, one a line.
/// (`state`: the looks, and whether a line ends, of the rows written
/// before, when the capture goes on from them.)
fn capture(
    screen: &vt100::Screen,
    state: &mut vt100::capture::BasicFormattedCaptureState,
) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = screen.write_contents_formatted_basic(
        &mut text,
        vt100::capture::BasicFormattedCaptureRange::Full(state),
    );
    text
}

/// `captured` (see [`capture`]) as lines, and where `screen`'s cursor is
/// in them.
fn read_lines<'a>(screen: &vt100::Screen, captured: &'a str) -> Lines<'a> {
    let lines: Vec<Line<'a>> = captured.split('\n').map(Line::new).collect();
    let rows = screen.size().0.get();
    let (cursor_row, cursor_col) = screen.cursor_position();
    // The lines after the cursor's begin at the unwrapped rows below it.
    let after = (cursor_row..rows - 1)
        .filter(|&r| !row_continues(screen, r))
        .count();
    let line = lines.len().saturating_sub(1 + after);
    // Its rows above the cursor's (on the screen: a line that began above
    // it counts from the screen's top).
    let ahead: usize = (0..cursor_row)
        .rev()
        .take_while(|&r| row_continues(screen, r))
        .map(|r| used_columns(screen, r))
        .sum();
    let col = usize::from(cursor_col);
    let offset = (col < used_columns(screen, cursor_row)).then_some(ahead + col);
    Lines {
        lines,
        cursor: LineCursor { line, offset },
    }
}

/// The bytes that lay `lines` out on a fresh `rows` x `cols` parser that
/// keeps `kept` rows of scrollback: the newest rows on its screen, the
/// cursor where it was in its line (at the top left when its row went
/// above the screen, as tmux does). Lines wholly above what the parser
/// keeps are not written. `rows_before` rows are already above where the
/// first line goes (the cursor's row on the screen counts them). Where
/// each line written begins in the bytes goes to `starts`.
fn layout(
    lines: &Lines,
    (rows, cols): (usize, usize),
    kept: usize,
    rows_before: usize,
    starts: &mut Vec<usize>,
) -> String {
    let heights: Vec<usize> = lines.lines.iter().map(|l| l.rows(cols)).collect();
    let total: usize = heights.iter().sum();
    let mut skipped = 0;
    let mut first = 0;
    while first + 1 < lines.lines.len() && total - skipped - heights[first] >= rows + kept {
        skipped += heights[first];
        first += 1;
    }
    let written = total - skipped;
    let mut out = String::new();
    for line in &lines.lines[..first] {
        line.escapes(&mut out);
    }
    let mut row_of_line = 0;
    let mut cursor = None;
    for (i, line) in lines.lines.iter().enumerate().skip(first) {
        if i > first {
            out.push_str("\r\n");
        }
        starts.push(out.len());
        out.push_str(line.text);
        if i == lines.cursor.line {
            let offset = lines.cursor.offset.unwrap_or_else(|| line.columns());
            let (r, c) = line.place(offset, cols);
            cursor = Some((row_of_line + r, c));
        }
        row_of_line += heights[i];
    }
    out.push_str("\x1b[0m");
    let scrolled = (rows_before + written).saturating_sub(rows);
    let (row, col) = match cursor {
        Some((row, col)) if rows_before + row >= scrolled => {
            (rows_before + row - scrolled, col.min(cols - 1))
        }
        _ => (0, 0),
    };
    let _ = write!(out, "\x1b[{};{}H", row + 1, col + 1);
    out
}

/// Lays `old`'s grid out again in `new` (fresh, of the size wanted, on its
/// primary screen): the screen's height first changes as vt100 changes it
/// (rows below the cursor go, then rows go into the scrollback; a taller
/// screen takes rows back from it), then its lines are rewrapped at the
/// new width. A program on the alternate screen has that screen cut to
/// the new size, as vt100 resizes it, over the primary rewrapped beneath.
/// The input modes, a hidden cursor and the drawing colours carry over.
pub fn resize_into<C: vt100::Callbacks, D: vt100::Callbacks>(
    old: &mut vt100::Parser<C>,
    new: &mut vt100::Parser<D>,
) -> Result<(), ParserPanicked> {
    let (rows, cols) = new.screen().size();
    let kept = new.screen().scrollback_capacity();
    let bytes = laid_out(old, rows, cols, kept)?;
    parse_guard::process(new, bytes.as_bytes())
}

/// What [`resize_into`] writes into a fresh parser of `rows` x `cols` that
/// keeps `kept` rows of scrollback. Fed to a fresh parser of the same size
/// on the primary screen, it holds the same rows, cursor and modes as
/// `old`: a snapshot to replay from later (see `reflow::Checkpoint`).
pub fn laid_out<C: vt100::Callbacks>(
    old: &mut vt100::Parser<C>,
    rows: std::num::NonZeroU16,
    cols: std::num::NonZeroU16,
    kept: usize,
) -> Result<String, ParserPanicked> {
    Ok(lay_out(old, rows, cols, kept, None)?.bytes)
}

/// A layout written after rows already streamed out of the old parser
/// (see `history_reflow`): the capture goes on from their `state` (its
/// looks are changes from theirs, and the first line goes on with their
/// last one when that one wrapped), and the target's cursor is on
/// absolute row `cursor_row`, at the end of those rows.
pub struct Continuing<'a> {
    pub state: &'a mut vt100::capture::BasicFormattedCaptureState,
    pub cursor_row: usize,
}

/// What [`lay_out`] wrote, and where: for each line of the old grid
/// written, the offset in `bytes` where its text begins, and for each row
/// the old grid held (its scrollback, then its screen, after the height
/// changed), whether it wraps on into the next (so row `i` is in line
/// "rows before `i` that do not wrap").
pub struct LaidOut {
    pub bytes: String,
    pub line_starts: Vec<usize>,
    pub wrapped: Vec<bool>,
}

/// `captured` (lines from the first row `screen` holds) with the lines
/// joined that vt100 left apart where a wide character moved down (see
/// [`row_continues`]). Costs a look at the last cells of each row the
/// parser holds, on a resize only.
fn join_wide_wraps(screen: &mut vt100::Screen, captured: String) -> String {
    let mut line = 0;
    let mut joined = Vec::new();
    // The capture ends a line at each row vt100 did not mark.
    for (vt100_says, goes_on) in rows_wrapping(screen) {
        if !vt100_says {
            if goes_on {
                joined.push(line);
            }
            line += 1;
        }
    }
    if joined.is_empty() {
        return captured;
    }
    let mut out = String::with_capacity(captured.len());
    let mut joined = joined.into_iter().peekable();
    for (i, text) in captured.split('\n').enumerate() {
        if i > 0 && joined.next_if_eq(&(i - 1)).is_none() {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// For each row `screen` holds, its scrollback's first: whether vt100
/// marked it wrapped, and whether it goes on in the next row
/// ([`row_continues`]).
fn rows_wrapping(screen: &mut vt100::Screen) -> Vec<(bool, bool)> {
    let rows = usize::from(screen.size().0.get());
    let held = screen.scrollback_len();
    let total = held + rows;
    let mut out = Vec::with_capacity(total);
    while out.len() < total {
        screen.set_scrollback(held.saturating_sub(out.len()));
        let top = held - screen.scrollback();
        let Ok(first) = u16::try_from(out.len() - top) else {
            break;
        };
        // A window's bottom row is looked at from the next window, where
        // the row below it shows too (but the last row: nothing is below).
        let last = if top + rows == total { rows } else { rows - 1 };
        let last = u16::try_from(last).unwrap_or(u16::MAX);
        if first >= last {
            break;
        }
        let screen = &*screen;
        out.extend((first..last).map(|row| (screen.row_wrapped(row), row_continues(screen, row))));
    }
    screen.set_scrollback(0);
    out
}

/// Whether each row `screen` holds, its scrollback's first, wraps on.
fn wrapped_rows(screen: &mut vt100::Screen) -> Vec<bool> {
    rows_wrapping(screen)
        .into_iter()
        .map(|(_, goes_on)| goes_on)
        .collect()
}

/// [`laid_out`], with where each line went, and written after rows
/// already streamed out of `old` when `continuing`.
pub fn lay_out<C: vt100::Callbacks>(
    old: &mut vt100::Parser<C>,
    rows: std::num::NonZeroU16,
    cols: std::num::NonZeroU16,
    kept: usize,
    continuing: Option<Continuing<'_>>,
) -> Result<LaidOut, ParserPanicked> {
    let old_cols = old.screen().size().1;
    let alternate = old.screen().alternate_screen().then(|| {
        let mut screen = old.screen().clone();
        screen.set_size(rows, cols);
        screen.contents_formatted()
    });
    let modes = format!(
        "{}{}",
        old.screen().input_mode_formatted(),
        if old.screen().hide_cursor() {
            "\x1b[?25l"
        } else {
            ""
        }
    );
    let pen = old.screen().attributes_formatted();
    if alternate.is_some() {
        // Only the parser itself can show its primary grid again.
        parse_guard::process(old, b"\x1b[?47l")?;
    }
    old.screen_mut().set_size(rows, old_cols);
    let mut prefix = "";
    let mut rows_before = 0;
    let mut wrapped = Vec::new();
    let captured = match continuing {
        None => capture(old.screen(), &mut Default::default()),
        Some(Continuing { state, cursor_row }) => {
            wrapped = wrapped_rows(old.screen_mut());
            let text = capture(old.screen(), state);
            rows_before = cursor_row;
            match text.strip_prefix('\n') {
                Some(rest) => {
                    prefix = "\r\n";
                    rows_before += 1;
                    rest.to_owned()
                }
                None => text,
            }
        }
    };
    let captured = join_wide_wraps(old.screen_mut(), captured);
    let lines = read_lines(old.screen(), &captured);
    let size = (usize::from(rows.get()), usize::from(cols.get()));
    let mut line_starts = Vec::new();
    let mut bytes = prefix.to_owned();
    bytes.push_str(&layout(&lines, size, kept, rows_before, &mut line_starts));
    for start in &mut line_starts {
        *start += prefix.len();
    }
    if let Some(alternate) = alternate {
        // The primary's cursor is where leaving with `?1049l` puts it back.
        bytes.push_str("\x1b7\x1b[?47h");
        bytes.push_str(&alternate);
    }
    bytes.push_str(&pen);
    bytes.push_str(&modes);
    Ok(LaidOut {
        bytes,
        line_starts,
        wrapped,
    })
}

/// The replay's grid as the last reflow left it, rows above the screen
/// included: the bytes that lay it out again on a fresh parser of its size,
/// and the ring position it is up to date with. The next reflow starts
/// from it rather than from `reflow::REFLOW_MAX_BYTES` back, so each step of a
/// border drag costs one rewrap, not one for every size the drag went
/// through (each with a prompt redrawn at it).
#[derive(Debug, Clone)]
pub struct Checkpoint {
    pub(in crate::pane) bytes: String,
    pub(in crate::pane) at: u64,
    pub(in crate::pane) rows: u16,
    pub(in crate::pane) cols: u16,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::num::NonZeroU16;

    fn parser(rows: u16, cols: u16, kept: usize) -> vt100::Parser {
        vt100::Parser::new(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
            kept,
        )
    }

    fn rewrapped(old: &mut vt100::Parser, rows: u16, cols: u16) -> vt100::Parser {
        let mut new = parser(rows, cols, 0);
        resize_into(old, &mut new).unwrap();
        new
    }

    #[test]
    fn a_long_line_is_joined_and_wrapped_at_the_new_width() {
        let mut old = parser(4, 10, 10);
        old.process(b"0123456789abcdefghij\r\n$ ");
        let new = rewrapped(&mut old, 4, 15);
        assert_eq!(new.screen().contents(), "0123456789abcdefghij\n$ ");
        assert_eq!(new.screen().cursor_position(), (2, 2));
        assert!(new.screen().row_wrapped(0));
    }

    fn rows_of(parser: &vt100::Parser) -> Vec<String> {
        let cols = parser.screen().size().1.get();
        parser.screen().rows(0, cols).collect()
    }

    #[test]
    fn a_progress_bar_redrawn_with_cr_shows_once() {
        let mut old = parser(4, 40, 10);
        old.process(b"\r\n\r\n");
        for pct in (0..=100).step_by(10) {
            let bar = "#".repeat(pct / 5);
            old.process(format!("\rget [{bar:<20}] {pct:3}%\x1b[K").as_bytes());
        }
        old.process(b"\r\n$ ");
        let new = rewrapped(&mut old, 4, 20);
        assert_eq!(
            rows_of(&new),
            ["", "get [###############", "#####] 100%", "$ "]
        );
        assert!(new.screen().row_wrapped(1));
    }

    #[test]
    fn blank_rows_below_count_as_lines_as_in_tmux() {
        // tmux 3.3a, 40x4 narrowed to 20: the first row goes above the
        // screen although the two below the prompt are blank.
        let mut old = parser(4, 40, 10);
        old.process(b"get [####################] 100%\r\n$ ");
        let new = rewrapped(&mut old, 4, 20);
        assert_eq!(rows_of(&new), ["#####] 100%", "$ ", "", ""]);
        assert_eq!(new.screen().cursor_position(), (1, 2));
    }

    #[test]
    fn colours_wide_characters_and_combining_marks_survive() {
        let mut old = parser(2, 10, 0);
        old.process("\r\n\x1b[1;31mred\x1b[m e\u{301} \u{4e16}x".as_bytes());
        let new = rewrapped(&mut old, 2, 6);
        let screen = new.screen();
        assert_eq!(screen.contents(), "red e\u{301} \u{4e16}x");
        assert!(screen.cell(0, 0).unwrap().bold());
        assert_eq!(screen.cell(0, 2).unwrap().fgcolor(), vt100::Color::Idx(1));
        assert_eq!(screen.cell(0, 3).unwrap().fgcolor(), vt100::Color::Default);
        assert_eq!(screen.cell(0, 4).unwrap().contents(), "e\u{301}");
        assert!(screen.cell(1, 0).unwrap().is_wide());
    }

    /// vt100 leaves a row unmarked where a wide character did not fit in
    /// its last column; the line is still one line at the next width.
    #[test]
    fn a_wide_character_moved_down_by_the_width_keeps_its_line_whole() {
        let mut old = parser(4, 5, 10);
        old.process("\u{4e00}\u{4e01}\u{4e02}x\r\n$ ".as_bytes());
        assert!(!old.screen().row_wrapped(0));
        let new = rewrapped(&mut old, 4, 8);
        assert_eq!(rows_of(&new), ["\u{4e00}\u{4e01}\u{4e02}x", "$ ", "", ""]);
        // One column less and a newline is another line, told apart only
        // when the next one does not start wide.
        let mut old = parser(4, 5, 10);
        old.process("\u{4e00}\u{4e01}\r\nx\r\n$ ".as_bytes());
        let new = rewrapped(&mut old, 4, 8);
        assert_eq!(rows_of(&new), ["\u{4e00}\u{4e01}", "x", "$ ", ""]);
    }

    #[test]
    fn a_taller_screen_takes_rows_back_from_the_scrollback() {
        let mut old = parser(6, 20, 20);
        for i in 1..=10 {
            old.process(format!("line {i}\r\n").as_bytes());
        }
        old.process(b"$ ");
        old.screen_mut()
            .set_size(NonZeroU16::new(3).unwrap(), NonZeroU16::new(20).unwrap());
        let new = rewrapped(&mut old, 6, 20);
        assert_eq!(
            new.screen().contents(),
            "line 6\nline 7\nline 8\nline 9\nline 10\n$ "
        );
    }

    #[test]
    fn the_alternate_screen_is_cut_over_the_rewrapped_primary() {
        let mut old = parser(4, 10, 10);
        old.process(b"0123456789abc\r\n$ vim\x1b[?1049h\x1b[Hvim screen!");
        let mut new = rewrapped(&mut old, 4, 6);
        assert_eq!(new.screen().contents(), "vim sc\n!");
        new.process(b"\x1b[?1049l");
        assert_eq!(rows_of(&new), ["6789ab", "c", "$ vim", ""]);
        assert_eq!(new.screen().cursor_position(), (2, 5));
    }
}
