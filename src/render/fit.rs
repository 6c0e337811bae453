//! Where a frame drawn at the workspace's size lands on a terminal of
//! another size, when several terminals of different sizes show one
//! workspace (tmux's `window-size`).
//!
//! The frame is drawn once per client at the layout's size; its panes keep
//! their places, the status bar goes to the terminal's own last row. A
//! smaller terminal shows the layout's top left, with a marker at the end
//! of its bar saying part is cut off (as tmux draws dots where a smaller
//! client ends); a larger one shows the rest blank.

use ratatui::buffer::Cell;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};

/// The marker at the end of a cut terminal's status bar.
pub const CUT_MARKER: &str = "…";

/// How frame cells map onto one terminal: `frame` is what is drawn (the
/// layout's drawable area), `terminal` the terminal's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    pub frame: Rect,
    pub terminal: Rect,
}

impl Fit {
    pub fn new(frame: Rect, terminal: Rect) -> Self {
        Self { frame, terminal }
    }

    /// The same size: every cell where it was drawn.
    pub fn is_exact(&self) -> bool {
        self.frame == self.terminal
    }

    /// Some of the frame does not reach the terminal.
    pub fn is_cut(&self) -> bool {
        self.terminal.width < self.frame.width || self.terminal.height < self.frame.height
    }

    /// The frame's status bar row, if it has one.
    fn frame_bar(&self) -> Option<u16> {
        (self.frame.height > 1).then(|| self.frame.bottom() - 1)
    }

    /// The terminal's status bar row, if it has one.
    fn terminal_bar(&self) -> Option<u16> {
        (self.terminal.height > 1).then(|| self.terminal.bottom() - 1)
    }

    /// Where the frame's cell at (x, y) shows on the terminal, if it does.
    pub fn place(&self, x: u16, y: u16) -> Option<(u16, u16)> {
        if self.is_exact() {
            return Some((x, y));
        }
        if x >= self.terminal.width {
            return None;
        }
        if Some(y) == self.frame_bar() {
            return self.terminal_bar().map(|bar| (x, bar));
        }
        let rows = self.terminal_bar().unwrap_or(self.terminal.height);
        (y < rows).then_some((x, y))
    }

    /// Where a terminal's cell at `at` (a click) is in the frame.
    pub fn unplace(&self, at: Position) -> Option<Position> {
        if self.is_exact() {
            return Some(at);
        }
        if at.x >= self.frame.width {
            return None;
        }
        if Some(at.y) == self.terminal_bar() {
            return self.frame_bar().map(|y| Position::new(at.x, y));
        }
        let rows = self.frame_bar().unwrap_or(self.frame.height);
        (at.y < rows).then_some(at)
    }

    /// The cells of `cells` (frame coordinates) that reach the terminal,
    /// at their places there.
    pub fn cells<'a>(
        self,
        cells: impl Iterator<Item = (u16, u16, &'a Cell)>,
    ) -> impl Iterator<Item = (u16, u16, &'a Cell)> {
        cells.filter_map(move |(x, y, cell)| {
            let (x, y) = self.place(x, y)?;
            // A wide character whose second half is cut off would spill
            // past the terminal's edge.
            if !self.is_exact()
                && x + 1 >= self.terminal.width
                && ratatui::buffer::CellWidth::cell_width(cell) > 1
            {
                return Some((x, y, blank()));
            }
            Some((x, y, cell))
        })
    }

    /// On a terminal that shows only part of the frame, puts the cut
    /// marker over the last cell of the bar it shows. Returns the frame
    /// row it drew on.
    pub fn mark_cut(&self, frame: &mut ratatui::buffer::Buffer) -> Option<u16> {
        if !self.is_cut() || self.terminal.width == 0 {
            return None;
        }
        let y = self.frame_bar()?;
        self.terminal_bar()?;
        let cell = frame.cell_mut((self.terminal.width - 1, y))?;
        cell.reset();
        cell.set_symbol(CUT_MARKER);
        cell.set_style(Style::default().add_modifier(Modifier::REVERSED));
        Some(y)
    }
}

fn blank() -> &'static Cell {
    // why process-wide: a constant (ratatui's `Cell::new` is not `const`).
    static BLANK: std::sync::OnceLock<Cell> = std::sync::OnceLock::new();
    BLANK.get_or_init(|| Cell::new(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(w: u16, h: u16) -> Rect {
        Rect::new(0, 0, w, h)
    }

    #[test]
    fn a_smaller_terminal_shows_the_top_left_and_its_own_bar() {
        let fit = Fit::new(rect(100, 30), rect(80, 24));
        assert!(fit.is_cut());
        assert_eq!(fit.place(0, 0), Some((0, 0)));
        assert_eq!(fit.place(79, 22), Some((79, 22)));
        assert_eq!(fit.place(80, 0), None, "past its right edge");
        assert_eq!(fit.place(5, 23), None, "under its bar");
        assert_eq!(fit.place(5, 29), Some((5, 23)), "the bar, on its last row");
        assert_eq!(
            fit.unplace(Position::new(5, 23)),
            Some(Position::new(5, 29))
        );
        assert_eq!(fit.unplace(Position::new(5, 3)), Some(Position::new(5, 3)));
    }

    #[test]
    fn a_larger_terminal_shows_the_rest_blank_with_its_bar_at_the_bottom() {
        let fit = Fit::new(rect(80, 24), rect(100, 30));
        assert!(!fit.is_cut());
        assert_eq!(fit.place(79, 22), Some((79, 22)));
        assert_eq!(fit.place(3, 23), Some((3, 29)));
        assert_eq!(
            fit.unplace(Position::new(90, 3)),
            None,
            "blank, past the layout"
        );
        assert_eq!(
            fit.unplace(Position::new(3, 25)),
            None,
            "blank, below the layout"
        );
        assert_eq!(
            fit.unplace(Position::new(3, 29)),
            Some(Position::new(3, 23))
        );
    }

    #[test]
    fn the_cut_marker_ends_a_cut_terminals_bar() {
        let fit = Fit::new(rect(10, 4), rect(6, 3));
        let mut frame = ratatui::buffer::Buffer::empty(rect(10, 4));
        frame.set_string(0, 3, "abcdefghij", Style::default());
        assert_eq!(fit.mark_cut(&mut frame), Some(3));
        let placed: Vec<(u16, u16, String)> = fit
            .cells(
                frame
                    .content
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i as u16 % 10, i as u16 / 10, c))
                    .filter(|(_, y, _)| *y == 3),
            )
            .map(|(x, y, c)| (x, y, c.symbol().to_string()))
            .collect();
        assert_eq!(placed.len(), 6);
        assert!(placed.iter().all(|(_, y, _)| *y == 2));
        assert_eq!(placed[5].2, CUT_MARKER);
        assert_eq!(placed[4].2, "e");
        let whole = Fit::new(rect(10, 4), rect(10, 4));
        assert_eq!(whole.mark_cut(&mut frame), None);
    }
}
