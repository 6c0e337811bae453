//! What the mouse holds while a button is down on a border: a split's
//! divider to drag, or a floating pane to move (by its top border) or
//! resize (by its bottom right corner). The grip belongs to the terminal
//! whose mouse holds it (`input::mouse`, in its client); the workspace
//! only finds what is under a press and moves it.

use ratatui::layout::Rect;

use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::BorderHandle;

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

impl Workspace {
    /// What a press at `(x, y)` grabs, if anything (a floating pane it
    /// grabs gets the focus).
    pub fn grab_at(&mut self, x: u16, y: u16) -> Option<Grip> {
        if let Some(grip) = self.float_grab(x, y) {
            return Some(Grip::Float(grip));
        }
        let area = self.tiling.tiles();
        self.tabs
            .shown()
            .filter(|t| !t.zoomed)
            .and_then(|t| t.layout.border_at(area, x, y))
            .map(Grip::Border)
    }

    /// A press on a shown floating pane's top border (move) or bottom
    /// right corner (resize), if that is where `(x, y)` is.
    fn float_grab(&mut self, x: u16, y: u16) -> Option<FloatGrip> {
        let tab = self.tabs.shown_mut()?;
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

    /// The mouse holding `grip` moved to `(x, y)`. Returns whether
    /// anything moved.
    pub fn drag_grip(&mut self, grip: &Grip, x: u16, y: u16) -> bool {
        match grip {
            Grip::Float(grip) => self.drag_float(grip, x, y),
            Grip::Border(handle) => {
                let area = self.tiling.tiles();
                let Some(tab) = self.tabs.shown_mut() else {
                    return false;
                };
                if !tab.layout.drag_border(area, handle, x, y) {
                    return false;
                }
                self.relayout_tab(self.tabs.active);
                true
            }
        }
    }

    fn drag_float(&mut self, grip: &FloatGrip, x: u16, y: u16) -> bool {
        let area = self.tiling.area;
        let (dx, dy) = (
            i32::from(x) - i32::from(grip.from.0),
            i32::from(y) - i32::from(grip.from.1),
        );
        let shift = |v: u16, d: i32| u16::try_from((i32::from(v) + d).max(0)).unwrap_or(v);
        let r = grip.rect;
        let rect = if grip.resize {
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
        };
        let moved = self
            .tabs
            .shown_mut()
            .is_some_and(|t| t.floats.set_rect(grip.id, rect, area));
        if moved {
            self.relayout_tab(self.tabs.active);
        }
        moved
    }
}
