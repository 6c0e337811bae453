//! tmux-like dividers: one line between panes instead of a box around
//! each. Every cell of the pane area that no pane's screen covers is a
//! divider (see `workspace::pane_frame`); each is drawn with the line that
//! joins its divider neighbours, so crossings come out as `┼`, `├`, `┬`.
//! The lines around the focused pane take the focus colour.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use crate::config::appearance::Theme;

/// Draws the dividers between `panes` (content rectangles) in `area`.
pub fn draw_dividers(
    buf: &mut Buffer,
    area: Rect,
    panes: &[Rect],
    focus: Option<Rect>,
    theme: &Theme,
) {
    let area = area.intersection(buf.area);
    let (w, h) = (usize::from(area.width), usize::from(area.height));
    if w == 0 || h == 0 {
        return;
    }
    let mut divider = vec![true; w * h];
    for pane in panes {
        let pane = pane.intersection(area);
        for y in pane.top()..pane.bottom() {
            let row = usize::from(y - area.y) * w;
            let from = row + usize::from(pane.x - area.x);
            divider[from..from + usize::from(pane.width)].fill(false);
        }
    }
    let at = |x: i32, y: i32| -> bool {
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
            return false;
        };
        x < w && y < h && divider[y * w + x]
    };
    // The ring of cells around the focused pane.
    let ring = focus.map(|r| Rect {
        x: r.x.saturating_sub(1),
        y: r.y.saturating_sub(1),
        width: r.width.saturating_add(2),
        height: r.height.saturating_add(2),
    });
    for y in 0..h {
        for x in 0..w {
            if !divider[y * w + x] {
                continue;
            }
            let (xi, yi) = (x as i32, y as i32);
            let glyph = line_glyph(
                at(xi, yi - 1),
                at(xi, yi + 1),
                at(xi - 1, yi),
                at(xi + 1, yi),
            );
            let pos = Position {
                x: area.x + x as u16,
                y: area.y + y as u16,
            };
            let style = if ring.is_some_and(|r| r.contains(pos)) {
                theme.focus_border
            } else {
                theme.border
            };
            if let Some(cell) = buf.cell_mut(pos) {
                cell.reset();
                cell.set_symbol(glyph);
                cell.set_style(style);
            }
        }
    }
}

/// The box-drawing line joining a cell to its divider neighbours.
fn line_glyph(up: bool, down: bool, left: bool, right: bool) -> &'static str {
    match (up, down, left, right) {
        (true, true, true, true) => "┼",
        (true, true, false, true) => "├",
        (true, true, true, false) => "┤",
        (false, true, true, true) => "┬",
        (true, false, true, true) => "┴",
        (false, true, false, true) => "┌",
        (false, true, true, false) => "┐",
        (true, false, false, true) => "└",
        (true, false, true, false) => "┘",
        (true, _, false, false) | (_, true, false, false) => "│",
        _ => "─",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect()
            })
            .collect()
    }

    /// Left pane, and the right half split top and bottom: one vertical
    /// line, one horizontal line meeting it in a `├`.
    #[test]
    fn lines_meet_in_junctions() {
        let area = Rect::new(0, 0, 9, 5);
        let mut buf = Buffer::empty(area);
        let panes = [
            Rect::new(0, 0, 4, 5),
            Rect::new(5, 0, 4, 2),
            Rect::new(5, 3, 4, 2),
        ];
        draw_dividers(&mut buf, area, &panes, Some(panes[0]), &Theme::default());
        assert_eq!(
            rows(&buf),
            vec![
                "    │    ",
                "    │    ",
                "    ├────",
                "    │    ",
                "    │    ",
            ]
        );
        // The focused (left) pane's line takes the focus colour; the
        // line between the right panes does not.
        assert_eq!(
            buf[(4, 0)].fg,
            Theme::default().focus_border.fg.unwrap_or_default()
        );
        assert_eq!(
            buf[(7, 2)].fg,
            Theme::default().border.fg.unwrap_or_default()
        );
    }
}
