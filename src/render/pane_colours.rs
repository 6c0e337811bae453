//! Draws a pane in the colours its program set (`OSC 4`, `OSC 10/11`,
//! kept by the pane's [`ColourSets`]): after a row is drawn, its default
//! foreground and background become the program's, and palette colours the
//! program redefined become those. Other panes, and tilework's own borders
//! and bars, keep the user's terminal's colours.
//!
//! Only panes whose program set a colour pay for this (the caller checks
//! [`ColourSets::is_empty`]); then it is one pass over the row's cells.

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Rect};
use ratatui::style::Color;

use crate::pane::term::fidelity::colour_sets::{BACKGROUND, ColourSets, FOREGROUND, to_rgb8};
// The inverse of `pane_view::map_color` for the 16 named colours.
use crate::terminal::frame_backend::palette_index;

/// Maps the cells of row `row` of a pane drawn at `at` in `buf` (line
/// `at.y + row`, as `render_row` draws it) through `sets`.
pub fn recolour_line(buf: &mut Buffer, at: Rect, row: u16, sets: &ColourSets) {
    let b = buf.area;
    let y = at.y + row;
    if !b.contains(Position::new(at.x, y)) {
        return;
    }
    let start = usize::from(y - b.y) * usize::from(b.width) + usize::from(at.x - b.x);
    let len = usize::from(at.right().min(b.right()) - at.x);
    if let Some(cells) = buf.content.get_mut(start..start + len) {
        recolour(cells, sets);
    }
}

/// Maps each cell's colours through `sets`.
pub fn recolour(cells: &mut [Cell], sets: &ColourSets) {
    let fg = sets.dynamic(FOREGROUND).map(rgb);
    let bg = sets.dynamic(BACKGROUND).map(rgb);
    for cell in cells {
        cell.fg = map(cell.fg, fg, sets);
        cell.bg = map(cell.bg, bg, sets);
    }
}

fn rgb(colour: crate::config::colour::Rgb) -> Color {
    let (r, g, b) = to_rgb8(colour);
    Color::Rgb(r, g, b)
}

/// `colour` as the program's colours show it: the default (`Reset`) as
/// `default` if set, a palette colour as the program redefined it.
#[inline]
fn map(colour: Color, default: Option<Color>, sets: &ColourSets) -> Color {
    let index = match colour {
        Color::Reset => return default.unwrap_or(Color::Reset),
        Color::Rgb(..) => return colour,
        Color::Indexed(i) => i,
        named => match palette_index(named) {
            Some(i) => i,
            None => return colour,
        },
    };
    sets.palette(index).map_or(colour, rgb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::term::screen::Colour;
    use crate::render::pane_view::map_color;

    fn sets(osc: &[&str]) -> ColourSets {
        let mut s = ColourSets::default();
        for text in osc {
            let params: Vec<&[u8]> = text.split(';').map(str::as_bytes).collect();
            s.osc(&params);
        }
        s
    }

    #[test]
    fn named_colours_read_back_as_their_palette_index() {
        for i in 0..=255u8 {
            let drawn = map_color(Colour::Indexed(i));
            let back = match drawn {
                Color::Indexed(j) => Some(j),
                named => palette_index(named),
            };
            assert_eq!(back, Some(i));
        }
    }

    #[test]
    fn defaults_and_redefined_palette_colours_take_the_programs_colours() {
        let s = sets(&["11;#102030", "4;1;#ff8000;200;#000001"]);
        let mut cells = vec![Cell::default(); 4];
        cells[1].fg = Color::Red;
        cells[2].fg = Color::Indexed(200);
        cells[2].bg = Color::Green;
        cells[3].fg = Color::Rgb(9, 9, 9);
        recolour(&mut cells, &s);
        // No foreground was set: the default stays the terminal's.
        assert_eq!(cells[0].fg, Color::Reset);
        assert_eq!(cells[0].bg, Color::Rgb(0x10, 0x20, 0x30));
        assert_eq!(cells[1].fg, Color::Rgb(0xff, 0x80, 0));
        assert_eq!(cells[2].fg, Color::Rgb(0, 0, 1));
        assert_eq!(cells[2].bg, Color::Green, "entry 2 was not redefined");
        assert_eq!(cells[3].fg, Color::Rgb(9, 9, 9));
    }

    #[test]
    fn only_the_panes_own_cells_of_the_line_change() {
        let s = sets(&["11;#ffffff"]);
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 3));
        recolour_line(&mut buf, Rect::new(2, 1, 3, 2), 1, &s);
        let white: Vec<(u16, u16)> = buf
            .content
            .iter()
            .enumerate()
            .filter(|(_, c)| c.bg == Color::Rgb(255, 255, 255))
            .map(|(i, _)| ((i % 10) as u16, (i / 10) as u16))
            .collect();
        assert_eq!(white, [(2, 2), (3, 2), (4, 2)]);
    }
}
