//! Draws a pane's screen into a ratatui buffer: colours, attributes, wide
//! characters. Reads only; the cursor is placed by the caller, as the real
//! terminal cursor, for the focused pane only.

use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier};
use ratatui::widgets::Widget;

use crate::graphics::kitty::placeholder::PLACEHOLDER_UTF8;
use crate::pane::term::cell_marks;
use crate::pane::term::screen::{Attrs, CellStyle, CellView, Colour, ScreenView};
use crate::render::cell_extras::frame_marker;
use crate::render::cluster_cells as clusters;

pub struct PaneWidget<'a> {
    screen: ScreenView<'a>,
}

impl<'a> PaneWidget<'a> {
    pub fn new(screen: ScreenView<'a>) -> Self {
        Self { screen }
    }
}

/// `Default` maps to `Reset` so the user's own terminal colours show through.
/// The first 16 indices map to named colours, which ratatui writes as the
/// short SGR forms every terminal knows.
#[inline]
pub fn map_color(color: Colour) -> Color {
    match color {
        Colour::Default => Color::Reset,
        Colour::Indexed(i) => match i {
            0 => Color::Black,
            1 => Color::Red,
            2 => Color::Green,
            3 => Color::Yellow,
            4 => Color::Blue,
            5 => Color::Magenta,
            6 => Color::Cyan,
            7 => Color::Gray,
            8 => Color::DarkGray,
            9 => Color::LightRed,
            10 => Color::LightGreen,
            11 => Color::LightYellow,
            12 => Color::LightBlue,
            13 => Color::LightMagenta,
            14 => Color::LightCyan,
            15 => Color::White,
            i => Color::Indexed(i),
        },
        Colour::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

/// The attributes ratatui writes. `Attrs` has `Modifier`'s bit order, so
/// this is a mask (overline has no modifier: it goes with the cell's frame
/// marker, see `render::cell_extras`).
const DRAWN_ATTRS: u16 = Attrs::BOLD.bits()
    | Attrs::DIM.bits()
    | Attrs::ITALIC.bits()
    | Attrs::BLINK.bits()
    | Attrs::INVERSE.bits()
    | Attrs::CONCEAL.bits()
    | Attrs::STRIKETHROUGH.bits();

#[inline]
fn cell_modifier(style: &CellStyle) -> Modifier {
    let mut modifier = Modifier::from_bits_truncate(style.attrs.bits() & DRAWN_ATTRS);
    if style.is_underlined() {
        modifier |= Modifier::UNDERLINED;
    }
    modifier
}

/// What a cell's text becomes on the user's terminal: blanks for empty
/// cells, and never a bidi control (the screen keeps one as a zero-width mark on
/// the previous cell; written out, it would reorder the user's whole line,
/// beyond the pane), nor a kitty Unicode placeholder (the picture it
/// stands for is drawn over a blank, see `render::pictures`). ASCII, the
/// common case, is checked in one pass.
fn symbol_for(contents: &str) -> &str {
    if contents.is_empty() {
        " "
    } else if contents.is_ascii() {
        contents
    } else if contents.as_bytes().starts_with(&PLACEHOLDER_UTF8) {
        " "
    } else if !contents.chars().any(crate::sanitize::is_bidi_control) {
        contents
    } else {
        "\u{FFFD}"
    }
}

/// Copies one cell into a ratatui cell. Fields are assigned directly:
/// `set_style` would patch a `Style` per cell, and this runs for every cell
/// of every visible pane on every frame (always inlined: a call and a
/// `CellStyle` passed in memory cost more than the rest of it).
/// Returns how many cells after this one the user's terminal may have
/// drawn over ([`clusters::fence`]).
#[inline(always)]
fn paint(target: &mut ratatui::buffer::Cell, cell: CellView<'_>, marked: &mut bool) -> u16 {
    // Nearly every cell: no marker, drawn as before styles were kept.
    if let Some((text, style)) = cell.unmarked() {
        target.set_symbol(symbol_for(text));
        target.fg = map_color(style.fg);
        target.bg = map_color(style.bg);
        target.modifier = cell_modifier(&style);
        target.set_diff_option(CellDiffOption::None);
        return 0;
    }
    paint_with_extras(target, cell, marked)
}

/// A cell whose text holds a marker: its style read with its extras.
/// `marked` is set when it gets a frame marker.
#[cold]
#[inline(never)]
fn paint_with_extras(
    target: &mut ratatui::buffer::Cell,
    cell: CellView<'_>,
    marked: &mut bool,
) -> u16 {
    let (text, style, extra) = cell.text_and_style();
    target.fg = map_color(style.fg);
    target.bg = map_color(style.bg);
    target.modifier = cell_modifier(&style);
    target.set_diff_option(CellDiffOption::None);
    let cluster = cell.is_cluster();
    let fenced;
    let text = if cluster {
        fenced = clusters::fence(symbol_for(&text), cell.is_wide());
        &fenced
    } else {
        symbol_for(&text)
    };
    match frame_marker(&style, extra) {
        None => {
            target.set_symbol(text);
        }
        Some(marker) => {
            *marked = true;
            paint_marked(target, text, marker);
        }
    }
    if cluster {
        clusters::fenced(target, cell.is_wide())
    } else {
        0
    }
}

/// A cell with extras ratatui cannot draw: its text and its frame marker
/// (`render::cell_extras` draws the extras, the underline among them).
#[cold]
fn paint_marked(target: &mut ratatui::buffer::Cell, text: &str, marker: u32) {
    target.set_symbol(&format!("{text}{}", cell_marks::marker(marker)));
    target.modifier.remove(Modifier::UNDERLINED);
}

impl Widget for PaneWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        let rows = self.screen.size().0.get();
        for row in 0..area.height.min(rows) {
            render_row(self.screen, row, area, buf);
        }
    }
}

/// Draws screen row `row` into line `area.y + row` of `buf`, writing every
/// cell of the line up to `area.width` (so no reset is needed first).
/// Returns whether a cell got a frame marker (`render::cell_extras`).
pub fn render_row(screen: ScreenView<'_>, row: u16, area: Rect, buf: &mut Buffer) -> bool {
    let width = area.width.min(screen.size().1.get());
    let y = area.y + row;
    let Some(line) = line_mut(buf, area, y) else {
        // The line does not start inside `buf`: only its part that is in
        // `buf`, if any, is blanked.
        for x in area.x..area.right() {
            if let Some(target) = buf.cell_mut((x, y)) {
                target.reset();
            }
        }
        return false;
    };
    // Cells beyond `buf`'s right edge are not drawn.
    let end = width.min(u16::try_from(line.len()).unwrap_or(u16::MAX));
    let mut col = 0;
    // Cells drawn whatever the terminal shows there, up to this column.
    let mut always = 0;
    let mut marked = false;
    while col < end {
        let Some(cell) = screen.cell(row, col) else {
            break;
        };
        let target = &mut line[usize::from(col)];
        if cell.is_wide_continuation() {
            // Drawn by the wide cell on its left (or orphaned by a resize):
            // a blank keeps the grid aligned.
            target.reset();
            col += 1;
            continue;
        }
        let wide = cell.is_wide();
        if wide && col + 1 >= width {
            // Half a wide char does not fit at the pane's right edge.
            target.reset();
            col += 1;
            continue;
        }
        let overflow = paint(target, cell, &mut marked);
        if col < always && target.diff_option == CellDiffOption::None {
            // (A cluster's cell keeps its forced width.)
            target.set_diff_option(CellDiffOption::AlwaysUpdate);
        }
        always = always.max(col + u16::from(wide) + 1 + overflow);
        if wide && let Some(next) = line.get_mut(usize::from(col) + 1) {
            next.reset();
            next.fg = map_color(cell.fg());
            next.bg = map_color(cell.bg());
            col += 2;
        } else {
            col += 1;
        }
    }
    // Columns the screen does not have (a pane wider than its grid).
    for target in line.iter_mut().skip(usize::from(col)) {
        target.reset();
    }
    marked
}

/// The cells of `buf` on line `y` from `area.x` to `area`'s right edge (or
/// `buf`'s), if `(area.x, y)` is in `buf`: found once per row, cheaper than
/// looking up every cell.
fn line_mut(buf: &mut Buffer, area: Rect, y: u16) -> Option<&mut [ratatui::buffer::Cell]> {
    let b = buf.area;
    if !b.contains(Position::new(area.x, y)) {
        return None;
    }
    let start = usize::from(y - b.y) * usize::from(b.width) + usize::from(area.x - b.x);
    let len = usize::from(area.right().min(b.right()) - area.x);
    buf.content.get_mut(start..start + len)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::pane::term::screen::PlainTerminal;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::Style;

    fn screen_of(rows: u16, cols: u16, bytes: &[u8]) -> PlainTerminal {
        let mut p = PlainTerminal::new(rows, cols);
        p.process(bytes);
        p
    }

    fn render(rows: u16, cols: u16, bytes: &[u8]) -> Buffer {
        let parser = screen_of(rows, cols, bytes);
        let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
        terminal
            .draw(|f| f.render_widget(PaneWidget::new(parser.screen()), f.area()))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    #[test]
    fn draws_text_where_the_program_put_it() {
        let buf = render(3, 10, b"hello\r\n\x1b[3;5Hx");
        let mut expected = Buffer::with_lines(["hello     ", "          ", "    x     "]);
        expected.set_style(
            expected.area,
            Style::default().fg(Color::Reset).bg(Color::Reset),
        );
        for cell in expected.content.iter_mut() {
            cell.modifier = Modifier::empty();
        }
        assert_eq!(
            buf.content.iter().map(|c| c.symbol()).collect::<String>(),
            expected
                .content
                .iter()
                .map(|c| c.symbol())
                .collect::<String>()
        );
    }

    #[test]
    fn maps_colours_and_attributes() {
        let buf = render(
            2,
            12,
            b"\x1b[1;31mA\x1b[0;3;4mB\x1b[0;7mC\x1b[38;5;200mD\x1b[38;2;1;2;3;48;2;4;5;6mE\x1b[0;2mF",
        );
        let a = &buf[(0, 0)];
        assert_eq!(a.fg, Color::Red);
        assert!(a.modifier.contains(Modifier::BOLD));
        let b = &buf[(1, 0)];
        assert!(b.modifier.contains(Modifier::ITALIC | Modifier::UNDERLINED));
        assert!(!b.modifier.contains(Modifier::BOLD));
        assert!(buf[(2, 0)].modifier.contains(Modifier::REVERSED));
        assert_eq!(buf[(3, 0)].fg, Color::Indexed(200));
        assert_eq!(buf[(4, 0)].fg, Color::Rgb(1, 2, 3));
        assert_eq!(buf[(4, 0)].bg, Color::Rgb(4, 5, 6));
        assert!(buf[(5, 0)].modifier.contains(Modifier::DIM));
        assert_eq!(buf[(6, 0)].fg, Color::Reset);
    }

    /// `cell_modifier` is a mask: each attribute's bit is its modifier's.
    #[test]
    fn attributes_have_the_bits_of_their_modifiers() {
        for (attr, modifier) in [
            (Attrs::BOLD, Modifier::BOLD),
            (Attrs::DIM, Modifier::DIM),
            (Attrs::ITALIC, Modifier::ITALIC),
            (Attrs::BLINK, Modifier::SLOW_BLINK),
            (Attrs::INVERSE, Modifier::REVERSED),
            (Attrs::CONCEAL, Modifier::HIDDEN),
            (Attrs::STRIKETHROUGH, Modifier::CROSSED_OUT),
        ] {
            assert_eq!(attr.bits(), modifier.bits(), "{modifier:?}");
        }
    }

    #[test]
    fn wide_characters_take_two_cells() {
        let buf = render(1, 8, "日本🚀x".as_bytes());
        assert_eq!(buf[(0, 0)].symbol(), "日");
        assert_eq!(buf[(2, 0)].symbol(), "本");
        assert_eq!(buf[(4, 0)].symbol(), "🚀");
        assert_eq!(buf[(6, 0)].symbol(), "x");
    }

    #[test]
    fn a_wide_char_cut_by_the_edge_becomes_a_blank() {
        let parser = screen_of(1, 4, "ab日".as_bytes());
        let mut buf = Buffer::empty(Rect::new(0, 0, 3, 1));
        PaneWidget::new(parser.screen()).render(Rect::new(0, 0, 3, 1), &mut buf);
        assert_eq!(buf[(2, 0)].symbol(), " ");
    }

    /// A pane reaching past the buffer's right edge is cut there; one that
    /// starts left of the buffer draws nothing but blanks what it covers.
    #[test]
    fn a_pane_partly_outside_the_buffer_draws_only_inside_it() {
        let parser = screen_of(1, 6, "ab日x".as_bytes());
        let mut buf = Buffer::with_lines(["zzzz"]);
        render_row(parser.screen(), 0, Rect::new(2, 0, 6, 1), &mut buf);
        let text: String = (0..4).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert_eq!(text, "zzab");
        let mut buf = Buffer::with_lines(["zzzz"]);
        buf.area.x = 2;
        render_row(parser.screen(), 0, Rect::new(0, 0, 6, 1), &mut buf);
        let text: String = (2..6).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert_eq!(text, "    ");
    }

    #[test]
    fn bidi_controls_never_reach_the_terminal() {
        let buf = render(1, 10, "ab\u{202E}cd".as_bytes());
        let text: String = (0..10).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert!(!text.contains('\u{202E}'), "{text:?}");
        assert!(text.starts_with("a\u{FFFD}cd"), "{text:?}");
    }

    #[test]
    fn a_small_area_shows_the_top_left_part() {
        let parser = screen_of(5, 10, b"abcdefghij\r\nklmno");
        let mut buf = Buffer::empty(Rect::new(0, 0, 3, 2));
        PaneWidget::new(parser.screen()).render(Rect::new(0, 0, 3, 2), &mut buf);
        assert_eq!(buf, Buffer::with_lines(["abc", "klm"]).tap_styles(&buf));
    }

    trait TapStyles {
        fn tap_styles(self, like: &Buffer) -> Self;
    }

    impl TapStyles for Buffer {
        /// Copies styles from `like` so a test compares symbols only.
        fn tap_styles(mut self, like: &Buffer) -> Self {
            for (cell, other) in self.content.iter_mut().zip(like.content.iter()) {
                cell.fg = other.fg;
                cell.bg = other.bg;
                cell.modifier = other.modifier;
            }
            self
        }
    }
}
