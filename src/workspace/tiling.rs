//! [`Tiling`]: where the panes go (the terminal's area less the status
//! bar) and how they are framed there (boxes or dividers, see
//! [`PaneFrame`]): the area a tab's layout tiles, each pane's content
//! area, and fitting a tab's panes (and their PTYs) to them.

use ratatui::layout::Rect;

use crate::pane::PaneId;
use crate::workspace::Panes;
use crate::workspace::pane_frame::{PaneFrame, content_rect};
use crate::workspace::tab::Tab;

/// Where the panes go and how they are framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    /// The whole terminal minus the status bar.
    pub(super) area: Rect,
    /// Boxes or dividers: how much of its rectangle a pane's content gets.
    pub(super) frame: PaneFrame,
}

impl Tiling {
    /// Panes in `area`, framed with boxes.
    pub(super) fn new(area: Rect) -> Self {
        Self {
            area,
            frame: PaneFrame::default(),
        }
    }

    /// Where the panes go: the whole terminal minus the status bar.
    pub fn area(self) -> Rect {
        self.area
    }

    pub fn frame(self) -> PaneFrame {
        self.frame
    }

    /// The area the layouts tile (see [`PaneFrame::layout_area`]).
    pub fn tiles(self) -> Rect {
        self.frame.layout_area(self.area)
    }

    /// The content area of a pane whose rectangle (border included) is
    /// `rect`. Floating panes always have a box.
    pub fn content(self, rect: Rect, floating: bool) -> Rect {
        if floating {
            content_rect(rect)
        } else {
            self.frame.content(rect)
        }
    }

    /// The panes of `tab` (the shown one) on screen and their rectangles
    /// (border included), from the bottom up: the tiled ones, then the
    /// floating ones if shown.
    pub fn visible(self, tab: Option<&Tab>) -> Vec<(PaneId, Rect)> {
        let Some(tab) = tab else {
            return Vec::new();
        };
        let mut out = tab.tiled_rects(self.tiles());
        out.extend(tab.floats.visible().map(|f| (f.id, f.rect)));
        out
    }

    /// The content area of each pane of `tab`: the tiled ones', then the
    /// floating ones'.
    fn contents(self, tab: &Tab) -> Vec<(PaneId, Rect)> {
        let tiled = tab.tiled_rects(self.tiles()).into_iter();
        let tiled = tiled.map(|(id, rect)| (id, self.content(rect, false)));
        let floats = tab.floats.iter().map(|f| (f.id, content_rect(f.rect)));
        tiled.chain(floats).collect()
    }

    /// Fits `tab`'s panes, PTY and parser alike, to their content areas.
    pub(super) fn fit(self, tab: &Tab, panes: &mut Panes) {
        for (id, inner) in self.contents(tab) {
            if let Some(pane) = panes.get_mut(id) {
                pane.resize(inner.height, inner.width);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::layout::{Axis, Layout};

    fn tab() -> Tab {
        let mut layout = Layout::new(PaneId(1));
        layout.split(PaneId(1), Axis::Horizontal, PaneId(2));
        let mut tab = Tab::new(None, layout, PaneId(1));
        tab.floats.push(PaneId(3), Rect::new(10, 5, 20, 10));
        tab
    }

    #[test]
    fn dividers_tile_one_cell_more_and_give_it_back_per_pane() {
        let mut tiling = Tiling::new(Rect::new(0, 0, 80, 23));
        let boxed = tiling.contents(&tab());
        assert_eq!(boxed[0], (PaneId(1), Rect::new(1, 1, 38, 21)));
        tiling.frame = PaneFrame::Dividers;
        assert_eq!(tiling.tiles(), Rect::new(0, 0, 81, 24));
        let divided = tiling.contents(&tab());
        assert_eq!(divided[0].1.height, 23, "the bottom divider is off screen");
        assert_eq!(divided[0].1.x, 0);
        // A floating pane keeps its box whatever the frame.
        assert_eq!(divided[2], (PaneId(3), Rect::new(11, 6, 18, 8)));
        assert_eq!(boxed[2], divided[2]);
    }

    #[test]
    fn a_zoomed_tab_gives_its_focused_pane_every_tile() {
        let tiling = Tiling::new(Rect::new(0, 0, 80, 23));
        let mut zoomed = tab();
        zoomed.zoomed = true;
        let contents = tiling.contents(&zoomed);
        assert_eq!(contents[0], (PaneId(1), Rect::new(1, 1, 78, 21)));
        assert_eq!(contents.len(), 2, "the zoomed pane and the floating one");
    }
}
