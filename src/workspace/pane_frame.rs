//! How much of a pane's rectangle its frame takes, which decides the size
//! of its content (and so of its PTY).
//!
//! Boxed panes draw a border on all four sides. With dividers (tmux's look)
//! neighbouring panes share one line between them: the layout tiles an area
//! one column and one row larger than the screen, and each pane's content
//! is its rectangle less the last column and row. Between two panes that
//! column (or row) is the divider; at the screen's right and bottom edges it
//! falls outside the screen. A lone pane gets the whole pane area.

use ratatui::layout::Rect;

use crate::config::appearance::BorderStyle;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PaneFrame {
    #[default]
    Boxed,
    Dividers,
}

impl PaneFrame {
    /// The frame panes get with `borders` (`[theme] borders`).
    pub fn of(borders: BorderStyle) -> Self {
        match borders {
            BorderStyle::Dividers => PaneFrame::Dividers,
            BorderStyle::Box | BorderStyle::Rounded | BorderStyle::Double => PaneFrame::Boxed,
        }
    }

    /// The area the layout tiles, for panes shown in `area`.
    pub fn layout_area(self, area: Rect) -> Rect {
        match self {
            PaneFrame::Boxed => area,
            PaneFrame::Dividers => Rect {
                width: area.width.saturating_add(1),
                height: area.height.saturating_add(1),
                ..area
            },
        }
    }

    /// A pane's content area: its rectangle less its frame.
    pub fn content(self, rect: Rect) -> Rect {
        match self {
            PaneFrame::Boxed => content_rect(rect),
            PaneFrame::Dividers => Rect {
                width: rect.width.saturating_sub(1),
                height: rect.height.saturating_sub(1),
                ..rect
            },
        }
    }
}

/// A pane's content area: its rectangle minus the border.
pub fn content_rect(rect: Rect) -> Rect {
    Rect {
        x: rect.x.saturating_add(1),
        y: rect.y.saturating_add(1),
        width: rect.width.saturating_sub(2),
        height: rect.height.saturating_sub(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::PaneId;
    use crate::workspace::layout::{Axis, Layout};

    /// Two panes side by side in 80x23: boxes take 4 columns and 2 rows,
    /// dividers one column between them and nothing else.
    #[test]
    fn dividers_give_back_two_columns_and_two_rows() {
        let area = Rect::new(0, 0, 80, 23);
        let layout = Layout::even(Axis::Horizontal, &[PaneId(1), PaneId(2)])
            .unwrap_or_else(|| unreachable!("two panes make a layout"));
        let widths = |frame: PaneFrame| -> Vec<(u16, u16, u16)> {
            layout
                .rects(frame.layout_area(area))
                .into_iter()
                .map(|(_, r)| {
                    let c = frame.content(r);
                    (c.x, c.width, c.height)
                })
                .collect()
        };
        assert_eq!(widths(PaneFrame::Boxed), vec![(1, 38, 21), (41, 38, 21)]);
        // 40 + 1 divider + 39 columns; every row.
        assert_eq!(widths(PaneFrame::Dividers), vec![(0, 40, 23), (41, 39, 23)]);
        let lone = Layout::new(PaneId(1));
        let (_, r) = lone.rects(PaneFrame::Dividers.layout_area(area))[0];
        assert_eq!(PaneFrame::Dividers.content(r), area);
    }
}
