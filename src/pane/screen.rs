//! What the rest of tilework reads of a pane's screen, in tilework's own
//! types: [`ScreenView`] (the grid, the cursor and the modes the program
//! set), [`CellView`] (one cell) and [`CellStyle`] (a cell's look).
//!
//! vt100 parses the program's output and keeps the grid; only `pane` names
//! it. The view is where attributes vt100 does not keep will join it:
//! underline styles and colour, strikethrough, overline, blink, conceal and
//! hyperlinks will live in an overlay beside vt100's grid that the view
//! reads too. [`CellStyle`] already has room for them ([`Attrs`],
//! [`UnderlineStyle`], `underline_colour`); today only what vt100 knows is
//! filled in.
//!
//! The renderer reads every cell of a flooding pane 60 times a second: the
//! views are borrows, every accessor is `#[inline]`, and reading a cell
//! allocates nothing.

use std::num::NonZeroU16;
use std::ops::{BitOr, BitOrAssign};

/// A colour as the program set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Colour {
    /// The terminal's own foreground or background.
    #[default]
    Default,
    /// One of the 256 palette colours (0-15 are the named ones).
    Indexed(u8),
    Rgb(u8, u8, u8),
}

impl Colour {
    #[inline]
    fn of(colour: vt100::Color) -> Self {
        match colour {
            vt100::Color::Default => Self::Default,
            vt100::Color::Idx(i) => Self::Indexed(i),
            vt100::Color::Rgb(r, g, b) => Self::Rgb(r, g, b),
        }
    }
}

/// A cell's on/off text attributes, as a set of bits. The bits are in the
/// order of ratatui's `Modifier` (SGR's order), so the renderer turns them
/// into one with a mask; bit 3 is free (the underline has its own
/// [`UnderlineStyle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attrs(u16);

impl Attrs {
    pub const BOLD: Self = Self(1);
    pub const DIM: Self = Self(1 << 1);
    pub const ITALIC: Self = Self(1 << 2);
    /// Not kept yet (vt100 drops it); room for the overlay.
    pub const BLINK: Self = Self(1 << 4);
    pub const INVERSE: Self = Self(1 << 6);
    /// Not kept yet (vt100 drops it); room for the overlay.
    pub const CONCEAL: Self = Self(1 << 7);
    /// Not kept yet (vt100 drops it); room for the overlay.
    pub const STRIKETHROUGH: Self = Self(1 << 8);
    /// Not kept yet (vt100 drops it); room for the overlay.
    pub const OVERLINE: Self = Self(1 << 9);

    #[inline]
    pub const fn empty() -> Self {
        Self(0)
    }

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every attribute of `other` is set.
    #[inline]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// `flag` on or off.
    #[inline]
    pub fn set(&mut self, flag: Self, on: bool) {
        if on {
            self.0 |= flag.0;
        } else {
            self.0 &= !flag.0;
        }
    }

    /// `flag` if `on`, else nothing (without a branch: this runs per cell).
    #[inline]
    const fn if_on(flag: Self, on: bool) -> u16 {
        flag.0 * on as u16
    }
}

impl BitOr for Attrs {
    type Output = Self;

    #[inline]
    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl BitOrAssign for Attrs {
    #[inline]
    fn bitor_assign(&mut self, other: Self) {
        self.0 |= other.0;
    }
}

/// How a cell is underlined. vt100 keeps only "underlined or not", which
/// reads as `Single`; the other styles are room for the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UnderlineStyle {
    #[default]
    None,
    Single,
    Double,
    Curly,
    Dotted,
    Dashed,
}

/// A cell's look: colours and attributes. A value, cheap to copy and
/// compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellStyle {
    pub fg: Colour,
    pub bg: Colour,
    pub attrs: Attrs,
    pub underline: UnderlineStyle,
    /// `Default` draws the underline in the text's colour (always so
    /// until the overlay keeps SGR 58).
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
            fg: Colour::of(fg),
            bg: Colour::of(bg),
            attrs: Attrs(attrs),
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
    pub fn contents(self) -> &'a str {
        self.cell.contents()
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
        let c = self.cell;
        CellStyle::of(
            c.fgcolor(),
            c.bgcolor(),
            [c.bold(), c.dim(), c.italic(), c.underline(), c.inverse()],
        )
    }

    #[inline]
    pub fn fg(self) -> Colour {
        Colour::of(self.cell.fgcolor())
    }

    #[inline]
    pub fn bg(self) -> Colour {
        Colour::of(self.cell.bgcolor())
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
        self.screen.contents()
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
        self.screen
            .contents_between(start_row, start_col, end_row, end_col)
    }

    /// Each row's text, top to bottom: blanks between characters as
    /// spaces, none after the last, a wide character once.
    pub fn row_texts(self) -> impl Iterator<Item = String> + 'a {
        self.screen.rows(0, self.screen.size().1.get())
    }

    /// Escape sequences that draw the screen's text and colours from
    /// scratch (what vt100 keeps of them): screens compared in tests.
    pub fn contents_formatted(self) -> String {
        self.screen.contents_formatted()
    }

    /// (row, column) of the cursor.
    #[inline]
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
