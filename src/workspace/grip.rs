//! What the mouse holds while a button is down on a border: a split's
//! divider to drag, or a floating pane to move (by its top border) or
//! resize (by its bottom right corner). The grip belongs to the terminal
//! whose mouse holds it (`input::mouse`, in its client); the workspace
//! only finds what is under a press and moves it.

use ratatui::layout::Rect;

use crate::pane::PaneId;
use crate::workspace::layout::BorderHandle;
use crate::workspace::tab::Tab;
use crate::workspace::{Tabs, Workspace};

/// See the module's doc.
#[derive(Debug, Clone)]
pub enum Grip {
    /// A divider between tiled panes.
    Border(BorderHandle),
    /// A floating pane.
    Float(FloatGrip),
}

/// A floating pane held by the mouse.
#[derive(Debug, Clone)]
pub struct FloatGrip {
    id: PaneId,
    /// Where the button went down.
    from: (u16, u16),
    /// The pane's rectangle then.
    rect: Rect,
    resize: bool,
}

impl FloatGrip {
    /// A press at `(x, y)` on a shown floating pane of `tab`: its top
    /// border (move) or bottom right corner (resize) grips it, and the
    /// pane gets the focus.
    fn take(tab: &mut Tab, x: u16, y: u16) -> Option<FloatGrip> {
        let id = tab.floats.at(x, y)?;
        let rect = tab.floats.rect(id)?;
        let resize = x + 1 == rect.right() && y + 1 == rect.bottom();
        if y != rect.y && !resize {
            return None;
        }
        tab.focus_on(id);
        Some(FloatGrip {
            id,
            from: (x, y),
            rect,
            resize,
        })
    }

    /// The pane's rectangle with the mouse at `(x, y)`: moved, or resized
    /// by its bottom right corner, as far as the mouse moved.
    fn rect_at(&self, x: u16, y: u16) -> Rect {
        let (dx, dy) = (
            i32::from(x) - i32::from(self.from.0),
            i32::from(y) - i32::from(self.from.1),
        );
        let shift = |v: u16, d: i32| u16::try_from((i32::from(v) + d).max(0)).unwrap_or(v);
        let r = self.rect;
        if self.resize {
            Rect {
                width: shift(r.width, dx),
                height: shift(r.height, dy),
                ..r
            }
        } else {
            Rect {
                x: shift(r.x, dx),
                y: shift(r.y, dy),
                ..r
            }
        }
    }
}

impl Tabs {
    /// What a press at `(x, y)` grabs in the shown tab, whose layout tiles
    /// `tiles`, if anything (a floating pane it grabs gets the focus).
    pub fn grab_at(&mut self, tiles: Rect, x: u16, y: u16) -> Option<Grip> {
        let tab = self.shown_mut()?;
        if let Some(grip) = FloatGrip::take(tab, x, y) {
            return Some(Grip::Float(grip));
        }
        Some(tab)
            .filter(|t| !t.zoomed)
            .and_then(|t| t.layout.border_at(tiles, x, y))
            .map(Grip::Border)
    }
}

impl Workspace {
    /// The mouse holding `grip` moved to `(x, y)`. Returns whether
    /// anything moved.
    pub fn drag_grip(&mut self, grip: &Grip, x: u16, y: u16) -> bool {
        let (tiles, area) = (self.tiling.tiles(), self.tiling.area);
        let Some(tab) = self.tabs.shown_mut() else {
            return false;
        };
        let moved = match grip {
            Grip::Float(grip) => tab.floats.set_rect(grip.id, grip.rect_at(x, y), area),
            Grip::Border(handle) => tab.layout.drag_border(tiles, handle, x, y),
        };
        if moved {
            self.relayout_tab(self.tabs.active);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grip(resize: bool) -> FloatGrip {
        FloatGrip {
            id: PaneId(3),
            from: (12, 5),
            rect: Rect::new(10, 5, 20, 10),
            resize,
        }
    }

    #[test]
    fn a_held_top_border_moves_the_pane_and_a_held_corner_resizes_it() {
        assert_eq!(grip(false).rect_at(15, 7), Rect::new(13, 7, 20, 10));
        assert_eq!(grip(true).rect_at(15, 7), Rect::new(10, 5, 23, 12));
        // Past the screen's left edge the pane stops at 0.
        assert_eq!(grip(false).rect_at(0, 5), Rect::new(0, 5, 20, 10));
    }
}
