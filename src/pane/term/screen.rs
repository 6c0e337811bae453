//! What the rest of tilework reads of a pane's screen, in tilework's own
//! types: [`ScreenView`] (the grid, the cursor and the modes the program
//! set), [`CellView`] (one cell) and [`CellStyle`] (a cell's look).
//!
//! vt100 parses the program's output and keeps the grid; only `pane` names
//! it. What vt100 does not keep (underline styles and colour,
//! strikethrough, overline, blink, conceal, hyperlinks) rides in the cells
//! as zero-width markers ([`crate::pane::term::cell_marks`]): the view decodes
//! them into [`CellStyle`] and [`CellView::link`], and strips them from
//! every text it hands out.
//!
//! The renderer reads every cell of a flooding pane 60 times a second: the
//! views are borrows, every accessor is `#[inline]`, and reading a cell
//! allocates nothing.

use std::borrow::Cow;
use std::num::NonZeroU16;
use std::sync::Arc;

use crate::pane::term::cell_marks::{self, Extra, Link};

pub use crate::pane::term::cell_style::{Attrs, Colour, UnderlineStyle};

/// A vt100 colour in tilework's type.
#[inline]
fn colour_of(colour: vt100::Color) -> Colour {
    match colour {
        vt100::Color::Default => Colour::Default,
        vt100::Color::Idx(i) => Colour::Indexed(i),
        vt100::Color::Rgb(r, g, b) => Colour::Rgb(r, g, b),
    }
}

/// A cell's look: colours and attributes. A value, cheap to copy and
/// compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellStyle {
    pub fg: Colour,
    pub bg: Colour,
    pub attrs: Attrs,
    pub underline: UnderlineStyle,
    /// `Default` draws the underline in the text's colour.
    pub underline_colour: Colour,
}

impl CellStyle {
    /// Whether every attribute of `attrs` is set.
    #[inline]
    pub const fn has(&self, attrs: Attrs) -> bool {
        self.attrs.contains(attrs)
    }

    #[inline]
    pub fn is_underlined(&self) -> bool {
        self.underline != UnderlineStyle::None
    }

    /// `extra` joined to what vt100 keeps: its underline style and colour
    /// only where vt100 underlines.
    #[inline]
    fn add(&mut self, extra: Extra) {
        self.attrs |= extra.attrs;
        if self.is_underlined() {
            if extra.underline != UnderlineStyle::None {
                self.underline = extra.underline;
            }
            self.underline_colour = extra.underline_colour;
        }
    }

    #[inline]
    fn of(
        fg: vt100::Color,
        bg: vt100::Color,
        [bold, dim, italic, underline, inverse]: [bool; 5],
    ) -> Self {
        let attrs = Attrs::if_on(Attrs::BOLD, bold)
            | Attrs::if_on(Attrs::DIM, dim)
            | Attrs::if_on(Attrs::ITALIC, italic)
            | Attrs::if_on(Attrs::INVERSE, inverse);
        Self {
            fg: colour_of(fg),
            bg: colour_of(bg),
            attrs: Attrs::from_bits(attrs),
            underline: if underline {
                UnderlineStyle::Single
            } else {
                UnderlineStyle::None
            },
            underline_colour: Colour::Default,
        }
    }
}

/// Which mouse events the program asked to be told of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MouseProtocolMode {
    #[default]
    None,
    /// Presses only (X10).
    Press,
    /// Presses and releases (VT200).
    PressRelease,
    /// Presses, releases, and motion while a button is held.
    ButtonMotion,
    /// Presses, releases, and all motion.
    AnyMotion,
}

/// How mouse reports are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MouseProtocolEncoding {
    /// A byte per coordinate (X10).
    #[default]
    Default,
    Utf8,
    Sgr,
}

/// The cursor shape the program asked for (DECSCUSR).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CursorStyle {
    /// Whatever the user's terminal draws by default.
    #[default]
    Default,
    BlinkBlock,
    SteadyBlock,
    BlinkUnderline,
    SteadyUnderline,
    BlinkVerticalBar,
    SteadyVerticalBar,
}

/// One cell of a screen.
#[derive(Clone, Copy)]
pub struct CellView<'a> {
    cell: &'a vt100::Cell,
}

impl<'a> CellView<'a> {
    /// The cell's text: empty when nothing was written there; at most one
    /// character with a width, plus any combining ones.
    #[inline]
    pub fn contents(self) -> Cow<'a, str> {
        cell_marks::split(self.cell.contents()).0
    }

    /// The text and vt100's style of a cell that holds no marker, told by
    /// the text's length or one look for a byte common text never has: the
    /// renderer's common path, with nothing copied or looked up. `None`:
    /// ask [`Self::text_and_style`].
    #[inline(always)]
    pub fn unmarked(self) -> Option<(&'a str, CellStyle)> {
        let text = self.cell.contents();
        (text.len() < 5 || !cell_marks::may_hold_marker(text)).then(|| (text, self.vt100_style()))
    }

    /// The text and the style at once (the renderer's per-cell read: the
    /// cell's text is looked at once).
    #[inline]
    pub fn text_and_style(self) -> (Cow<'a, str>, CellStyle, Option<u32>) {
        let (text, id) = cell_marks::split(self.cell.contents());
        let mut style = self.vt100_style();
        if let Some(id) = id {
            style.add(cell_marks::extra(id));
        }
        (text, style, id)
    }

    /// The hyperlink the cell is part of.
    pub fn link(self) -> Option<Arc<Link>> {
        let (_, id) = cell_marks::split(self.cell.contents());
        cell_marks::extra(id?).link.and_then(cell_marks::link)
    }

    /// The cell holds a grapheme cluster vt100 could not keep whole
    /// (`cluster_marks`): what the user's terminal draws of it may not be
    /// its width.
    #[inline]
    pub fn is_cluster(self) -> bool {
        crate::pane::term::cluster_marks::holds_mark(self.cell.contents())
    }

    #[inline]
    pub fn has_contents(self) -> bool {
        self.cell.has_contents()
    }

    /// The cell holds a character two columns wide.
    #[inline]
    pub fn is_wide(self) -> bool {
        self.cell.is_wide()
    }

    /// The cell is the right half of the wide character on its left.
    #[inline]
    pub fn is_wide_continuation(self) -> bool {
        self.cell.is_wide_continuation()
    }

    #[inline]
    pub fn style(self) -> CellStyle {
        self.text_and_style().1
    }

    #[inline]
    fn vt100_style(self) -> CellStyle {
        let c = self.cell;
        CellStyle::of(
            c.fgcolor(),
            c.bgcolor(),
            [c.bold(), c.dim(), c.italic(), c.underline(), c.inverse()],
        )
    }

    #[inline]
    pub fn fg(self) -> Colour {
        colour_of(self.cell.fgcolor())
    }

    #[inline]
    pub fn bg(self) -> Colour {
        colour_of(self.cell.bgcolor())
    }
}

/// A pane's screen as shown: the live one, or a history window scrolled
/// back. A borrow, `Copy`.
#[derive(Clone, Copy)]
pub struct ScreenView<'a> {
    screen: &'a vt100::Screen,
}

impl<'a> ScreenView<'a> {
    /// A view of a vt100 screen (tests and benches wrap their own parsers;
    /// the program gets views from `Pane` and `History`).
    #[inline]
    pub fn new(screen: &'a vt100::Screen) -> Self {
        Self { screen }
    }

    /// Rows and columns.
    #[inline]
    pub fn size(self) -> (NonZeroU16, NonZeroU16) {
        self.screen.size()
    }

    /// The cell at (`row`, `col`), if inside the screen.
    #[inline]
    pub fn cell(self, row: u16, col: u16) -> Option<CellView<'a>> {
        self.screen.cell(row, col).map(|cell| CellView { cell })
    }

    /// Whether row `row`'s line goes on in the next row (it was wrapped).
    #[inline]
    pub fn row_wrapped(self, row: u16) -> bool {
        self.screen.row_wrapped(row)
    }

    /// The screen's text, a line per row, trailing blanks trimmed.
    pub fn contents(self) -> String {
        cell_marks::strip(self.screen.contents())
    }

    /// The text from (`start_row`, `start_col`) to (`end_row`, `end_col`),
    /// the end exclusive.
    pub fn contents_between(
        self,
        start_row: u16,
        start_col: u16,
        end_row: u16,
        end_col: u16,
    ) -> String {
        cell_marks::strip(
            self.screen
                .contents_between(start_row, start_col, end_row, end_col),
        )
    }

    /// Each row's text, top to bottom: blanks between characters as
    /// spaces, none after the last, a wide character once.
    pub fn row_texts(self) -> impl Iterator<Item = String> + 'a {
        self.screen
            .rows(0, self.screen.size().1.get())
            .map(cell_marks::strip)
    }

    /// Escape sequences that draw the screen's text and colours from
    /// scratch (what vt100 keeps of them, the cells' markers left in):
    /// screens compared in tests.
    pub fn contents_formatted(self) -> String {
        self.screen.contents_formatted()
    }

    /// (row, column) of the cursor.
    #[inline]
    /// The pictures' anchors on this screen: (row, column, anchor), top
    /// to bottom (see `crate::graphics::anchor`).
    pub fn picture_anchors(self) -> Vec<(u16, u16, crate::graphics::anchor::Anchor)> {
        let (rows, cols) = self.screen.size();
        let mut found = Vec::new();
        for row in 0..rows.get() {
            for col in 0..cols.get() {
                if let Some(cell) = self.screen.cell(row, col)
                    && let Some(anchor) = crate::graphics::anchor::read(cell.contents())
                {
                    found.push((row, col, anchor));
                }
            }
        }
        found
    }

    pub fn cursor_position(self) -> (u16, u16) {
        self.screen.cursor_position()
    }

    /// The program hid the cursor (DECTCEM).
    #[inline]
    pub fn hide_cursor(self) -> bool {
        self.screen.hide_cursor()
    }

    #[inline]
    pub fn cursor_style(self) -> CursorStyle {
        match self.screen.cursor_style() {
            vt100::CursorStyle::Default => CursorStyle::Default,
            vt100::CursorStyle::BlinkBlock => CursorStyle::BlinkBlock,
            vt100::CursorStyle::SteadyBlock => CursorStyle::SteadyBlock,
            vt100::CursorStyle::BlinkUnderline => CursorStyle::BlinkUnderline,
            vt100::CursorStyle::SteadyUnderline => CursorStyle::SteadyUnderline,
            vt100::CursorStyle::BlinkVerticalBar => CursorStyle::BlinkVerticalBar,
            vt100::CursorStyle::SteadyVerticalBar => CursorStyle::SteadyVerticalBar,
        }
    }

    /// The style text written now gets (the current SGR).
    #[inline]
    pub fn pen(self) -> CellStyle {
        let s = self.screen;
        CellStyle::of(
            s.fgcolor(),
            s.bgcolor(),
            [s.bold(), s.dim(), s.italic(), s.underline(), s.inverse()],
        )
    }

    #[inline]
    pub fn alternate_screen(self) -> bool {
        self.screen.alternate_screen()
    }

    /// DECCKM: arrows as SS3.
    #[inline]
    pub fn application_cursor(self) -> bool {
        self.screen.application_cursor()
    }

    /// DECKPAM: the keypad sends escape sequences.
    #[inline]
    pub fn application_keypad(self) -> bool {
        self.screen.application_keypad()
    }

    #[inline]
    pub fn bracketed_paste(self) -> bool {
        self.screen.bracketed_paste()
    }

    #[inline]
    pub fn mouse_protocol_mode(self) -> MouseProtocolMode {
        match self.screen.mouse_protocol_mode() {
            vt100::MouseProtocolMode::None => MouseProtocolMode::None,
            vt100::MouseProtocolMode::Press => MouseProtocolMode::Press,
            vt100::MouseProtocolMode::PressRelease => MouseProtocolMode::PressRelease,
            vt100::MouseProtocolMode::ButtonMotion => MouseProtocolMode::ButtonMotion,
            vt100::MouseProtocolMode::AnyMotion => MouseProtocolMode::AnyMotion,
        }
    }

    #[inline]
    pub fn mouse_protocol_encoding(self) -> MouseProtocolEncoding {
        match self.screen.mouse_protocol_encoding() {
            vt100::MouseProtocolEncoding::Default => MouseProtocolEncoding::Default,
            vt100::MouseProtocolEncoding::Utf8 => MouseProtocolEncoding::Utf8,
            vt100::MouseProtocolEncoding::Sgr => MouseProtocolEncoding::Sgr,
        }
    }

    /// A copy of the screen as it is now, to tell later which rows changed.
    /// Costs a copy of every cell (and of the scrollback, if any).
    pub fn snapshot(self) -> ScreenSnapshot {
        ScreenSnapshot(self.screen.clone())
    }

    /// For each visible row, top to bottom, whether it differs from that
    /// row of `earlier` (a screen of the same size). Changes that do not
    /// show are not told: a blank's foreground colour, for one.
    pub fn rows_changed_since(
        self,
        earlier: &'a ScreenSnapshot,
    ) -> impl Iterator<Item = bool> + 'a {
        let width = self.screen.size().1.get();
        self.screen
            .rows_diff(&earlier.0, 0, width)
            .map(|diff| !diff.is_empty())
    }
}

/// A screen copied at one moment ([`ScreenView::snapshot`]).
pub struct ScreenSnapshot(vt100::Screen);

impl ScreenSnapshot {
    #[inline]
    pub fn size(&self) -> (NonZeroU16, NonZeroU16) {
        self.0.size()
    }
}

/// vt100 with nothing in front of it (no fidelity layer, no guards), for
/// unit tests above `pane` that read bytes back as a terminal shows them.
#[cfg(test)]
pub struct PlainTerminal(vt100::Parser);

#[cfg(test)]
impl PlainTerminal {
    /// # Panics
    /// On a size of 0.
    pub fn new(rows: u16, cols: u16) -> Self {
        let nz = |n| NonZeroU16::new(n).expect("a terminal has rows and columns");
        Self(vt100::Parser::new(nz(rows), nz(cols), 0))
    }

    pub fn process(&mut self, bytes: &[u8]) {
        self.0.process(bytes);
    }

    pub fn screen(&self) -> ScreenView<'_> {
        ScreenView::new(self.0.screen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_reads_the_colours_and_attributes_the_program_set() {
        let mut t = PlainTerminal::new(2, 10);
        t.process(b"\x1b[1;3;4;7;31;48;5;200mA\x1b[0;2;38;2;1;2;3mB\x1b[mC");
        let style = |col| t.screen().cell(0, col).map(CellView::style);
        let a = style(0).unwrap_or_default();
        assert_eq!(a.fg, Colour::Indexed(1));
        assert_eq!(a.bg, Colour::Indexed(200));
        assert!(a.has(Attrs::BOLD | Attrs::ITALIC | Attrs::INVERSE));
        assert!(!a.has(Attrs::DIM));
        assert_eq!(a.underline, UnderlineStyle::Single);
        let b = style(1).unwrap_or_default();
        assert_eq!(b.fg, Colour::Rgb(1, 2, 3));
        assert_eq!(b.attrs, Attrs::DIM);
        assert!(!b.is_underlined());
        assert_eq!(style(2), Some(CellStyle::default()));
        assert_eq!(t.screen().pen(), CellStyle::default());
    }

    #[test]
    fn the_modes_the_program_set_read_back() {
        let mut t = PlainTerminal::new(2, 10);
        let s = t.screen();
        assert_eq!(s.mouse_protocol_mode(), MouseProtocolMode::None);
        assert!(!s.application_cursor() && !s.bracketed_paste());
        t.process(b"\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[4 q\x1b[?1049h");
        let s = t.screen();
        assert!(s.application_cursor() && s.bracketed_paste() && s.alternate_screen());
        assert_eq!(s.mouse_protocol_mode(), MouseProtocolMode::ButtonMotion);
        assert_eq!(s.mouse_protocol_encoding(), MouseProtocolEncoding::Sgr);
        assert_eq!(s.cursor_style(), CursorStyle::SteadyUnderline);
    }

    #[test]
    fn a_snapshot_tells_which_rows_changed() {
        let mut t = PlainTerminal::new(3, 10);
        t.process(b"one\r\ntwo\r\nthree");
        let before = t.screen().snapshot();
        t.process(b"\x1b[2;1HTWO");
        let changed: Vec<bool> = t.screen().rows_changed_since(&before).collect();
        assert_eq!(changed, [false, true, false]);
    }

    #[test]
    fn attributes_set_and_clear_one_at_a_time() {
        let mut attrs = Attrs::BOLD | Attrs::STRIKETHROUGH;
        attrs.set(Attrs::BOLD, false);
        attrs |= Attrs::OVERLINE;
        assert!(attrs.contains(Attrs::STRIKETHROUGH | Attrs::OVERLINE));
        assert!(!attrs.contains(Attrs::BOLD));
        assert!(!attrs.is_empty() && Attrs::empty().is_empty());
    }
}
