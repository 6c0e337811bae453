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

use crate::pane::parse_guard::{self, ParserPanicked};

/// A cell's look, as SGR parameters compare it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: vt100::Color,
    bg: vt100::Color,
    bold: bool,
    dim: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
}

impl Pen {
    fn of(cell: &vt100::Cell) -> Self {
        Self {
            fg: cell.fgcolor(),
            bg: cell.bgcolor(),
            bold: cell.bold(),
            dim: cell.dim(),
            italic: cell.italic(),
            underline: cell.underline(),
            inverse: cell.inverse(),
        }
    }

    /// The SGR that sets this look from any other.
    fn write_sgr(self, out: &mut String) {
        out.push_str("\x1b[0");
        for (on, code) in [
            (self.bold, 1),
            (self.dim, 2),
            (self.italic, 3),
            (self.underline, 4),
            (self.inverse, 7),
        ] {
            if on {
                let _ = write!(out, ";{code}");
            }
        }
        for (colour, base) in [(self.fg, 38), (self.bg, 48)] {
            match colour {
                vt100::Color::Default => {}
                vt100::Color::Idx(i) => {
                    let _ = write!(out, ";{base};5;{i}");
                }
                vt100::Color::Rgb(r, g, b) => {
                    let _ = write!(out, ";{base};2;{r};{g};{b}");
                }
            }
        }
        out.push('m');
    }
}

/// Whether a cell was written or erased in a colour: part of its row's
/// line (tmux's "used" cells). Cells never touched are not.
fn used(cell: &vt100::Cell) -> bool {
    cell.has_contents() || cell.bgcolor() != vt100::Color::Default || cell.inverse()
}

/// One logical line: the bytes that print it from column 0 and the width
/// of each of its cells, in order.
#[derive(Debug, Default)]
struct Line {
    text: String,
    widths: Vec<u8>,
    pen: Option<Pen>,
}

impl Line {
    fn push(&mut self, cell: &vt100::Cell) {
        let pen = Pen::of(cell);
        if self.pen != Some(pen) {
            pen.write_sgr(&mut self.text);
            self.pen = Some(pen);
        }
        let contents = cell.contents();
        if contents.is_empty() {
            self.text.push(' ');
        } else {
            self.text.push_str(contents);
        }
        self.widths.push(if cell.is_wide() { 2 } else { 1 });
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
struct Lines {
    lines: Vec<Line>,
    cursor: LineCursor,
}

/// Reads every row the parser holds (its scrollback, then its screen) as
/// logical lines. Leaves the parser scrolled to its live screen.
fn read_lines<C: vt100::Callbacks>(parser: &mut vt100::Parser<C>) -> Lines {
    let (rows, cols) = parser.screen().size();
    let (rows, cols) = (usize::from(rows.get()), cols.get());
    let (cursor_row, cursor_col) = parser.screen().cursor_position();
    parser.screen_mut().set_scrollback(usize::MAX);
    let above = parser.screen().scrollback();
    let mut lines = vec![Line::default()];
    let mut cursor = LineCursor {
        line: 0,
        offset: None,
    };
    let mut ahead = 0;
    // A screenful at a time, scrolled back so each shows: absolute row `r`
    // (0 the oldest) is on screen row `r - (above - offset)`.
    let mut next = 0;
    while next < above + rows {
        let offset = above.saturating_sub(next);
        parser.screen_mut().set_scrollback(offset);
        let top = above - offset;
        let screen = parser.screen();
        while next < (top + rows).min(above + rows) {
            let row = u16::try_from(next - top).unwrap_or(u16::MAX);
            let mut last_used = 0;
            for col in 0..cols {
                if screen.cell(row, col).is_some_and(used) {
                    last_used = col + 1;
                }
            }
            let line = lines.len() - 1;
            if next == above + usize::from(cursor_row) {
                let offset = (cursor_col < last_used).then_some(ahead + usize::from(cursor_col));
                cursor = LineCursor { line, offset };
            }
            let current = &mut lines[line];
            for col in 0..last_used {
                match screen.cell(row, col) {
                    Some(cell) if !cell.is_wide_continuation() => current.push(cell),
                    _ => {}
                }
            }
            ahead += usize::from(last_used);
            next += 1;
            if !screen.row_wrapped(row) && next < above + rows {
                lines.push(Line::default());
                ahead = 0;
            }
        }
    }
    parser.screen_mut().set_scrollback(0);
    Lines { lines, cursor }
}

/// The bytes that lay `lines` out on a fresh `rows` x `cols` parser that
/// keeps `kept` rows of scrollback: the newest rows on its screen, the
/// cursor where it was in its line (at the top left when its row went
/// above the screen, as tmux does). Lines wholly above what the parser
/// keeps are not written.
fn layout(lines: &Lines, rows: usize, cols: usize, kept: usize) -> String {
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
    let mut row_of_line = 0;
    let mut cursor = None;
    for (i, line) in lines.lines.iter().enumerate().skip(first) {
        if i > first {
            out.push_str("\x1b[0m\r\n");
        }
        out.push_str(&line.text);
        if i == lines.cursor.line {
            let offset = lines.cursor.offset.unwrap_or_else(|| line.columns());
            let (r, c) = line.place(offset, cols);
            cursor = Some((row_of_line + r, c));
        }
        row_of_line += heights[i];
    }
    out.push_str("\x1b[0m");
    let scrolled = written.saturating_sub(rows);
    let (row, col) = match cursor {
        Some((row, col)) if row >= scrolled => (row - scrolled, col.min(cols - 1)),
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
    let lines = read_lines(old);
    let kept = new.screen().scrollback_capacity();
    let mut bytes = layout(
        &lines,
        usize::from(rows.get()),
        usize::from(cols.get()),
        kept,
    );
    if let Some(alternate) = alternate {
        // The primary's cursor is where leaving with `?1049l` puts it back.
        bytes.push_str("\x1b7\x1b[?47h");
        bytes.push_str(&alternate);
    }
    bytes.push_str(&pen);
    bytes.push_str(&modes);
    parse_guard::process(new, bytes.as_bytes())
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
