//! The few changes tmux's commands make that tilework's actions do not
//! say (`crate::tmux_compat` asks for them over the socket): a split of a
//! given pane, before it or at a size, that may leave the focus where it
//! was; a respawn with a new command under the same id; a pane's title; a
//! pane resized to a size.

use crate::config::action::Direction;
use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::Axis;
use crate::workspace::pane_launch::PaneLaunch;

/// How [`Workspace::split_pane`] splits.
#[derive(Debug, Clone, Copy)]
pub struct SplitHow {
    pub axis: Axis,
    /// The new pane goes left of / above the split one.
    pub before: bool,
    /// The new pane's length along the axis, in cells.
    pub cells: Option<u16>,
    /// The focus stays on the pane focused before.
    pub keep_focus: bool,
}

impl Workspace {
    /// Shows pane `id`'s tab and focuses it there. False if there is no
    /// such pane.
    pub fn show_pane(&mut self, id: PaneId) -> bool {
        let Some(index) = self.tabs.index_of(id) else {
            return false;
        };
        self.tabs.select(index);
        self.focus_pane(id);
        true
    }

    /// Splits pane `target` (a tiled one) with a pane running `launch`.
    /// Returns the new pane.
    pub fn split_pane(
        &mut self,
        target: PaneId,
        how: SplitHow,
        launch: PaneLaunch,
    ) -> Option<PaneId> {
        let before = (self.tabs.active, self.tabs.focused_id());
        let index = self.tabs.index_of(target)?;
        // The split happens in the target's tab, shown for it.
        self.tabs.active = index;
        self.focus_pane(target);
        let new = self.split_with(how.axis, launch);
        if let Some(new) = new {
            if how.before {
                self.tabs.shown_mut().map(|t| t.layout.swap(target, new));
            }
            if let Some(cells) = how.cells {
                self.size_pane(new, how.axis, cells);
            }
            self.relayout_tab(index);
        }
        if how.keep_focus || new.is_none() {
            self.tabs.active = before.0.min(self.tabs.len().saturating_sub(1));
            if let Some(old) = before.1 {
                self.focus_pane(old);
            }
        }
        new
    }

    /// Gives pane `id` `cells` cells along `axis` (as near as the layout's
    /// minimum sizes allow).
    pub fn size_pane(&mut self, id: PaneId, axis: Axis, cells: u16) -> bool {
        let Some(index) = self.tabs.index_of(id) else {
            return false;
        };
        let tiles = self.tiling.tiles();
        let Some(rect) = self.tabs.list[index].layout.pane_rect(tiles, id) else {
            return false;
        };
        let now = match axis {
            Axis::Horizontal => rect.width,
            Axis::Vertical => rect.height,
        };
        // The frame's cells count: the pane's content is what tmux sizes.
        let content = self.tiling.content(rect, self.tabs.is_floating(id));
        let frame = match axis {
            Axis::Horizontal => rect.width - content.width,
            Axis::Vertical => rect.height - content.height,
        };
        let want = cells.saturating_add(frame);
        if want == now {
            return false;
        }
        let (grow, shrink) = match axis {
            Axis::Horizontal => (Direction::Right, Direction::Left),
            Axis::Vertical => (Direction::Down, Direction::Up),
        };
        let layout = &mut self.tabs.list[index].layout;
        let mut changed = if want > now {
            layout.resize(tiles, id, grow, want - now)
        } else {
            layout.resize(tiles, id, shrink, now - want)
        };
        let after = layout.pane_rect(tiles, id).map_or(now, |r| match axis {
            Axis::Horizontal => r.width,
            Axis::Vertical => r.height,
        });
        // The pane was at the right (or bottom) edge: moving its far border
        // moved the wrong way; its near border is the one to move.
        if after.abs_diff(want) > now.abs_diff(want) || (after == now && !changed) {
            let layout = &mut self.tabs.list[index].layout;
            if after != now {
                // Undo, then move the other way.
                let (back, len) = if after > now {
                    (shrink, after - now)
                } else {
                    (grow, now - after)
                };
                layout.resize(tiles, id, back, len);
            }
            changed = if want > now {
                layout.resize(tiles, id, shrink, want - now)
            } else {
                layout.resize(tiles, id, grow, now - want)
            };
        }
        self.relayout_tab(index);
        changed
    }

    /// Closes tab `index` and its panes.
    pub fn kill_tab_at(&mut self, index: usize) -> bool {
        let Some(tab) = self.tabs.get(index) else {
            return false;
        };
        let mut ids = tab.layout.panes();
        ids.extend(tab.floats.iter().map(|f| f.id));
        for id in ids {
            self.close_pane(id, None);
        }
        true
    }
}
