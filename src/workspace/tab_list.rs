//! The workspace's list of tabs: showing, renaming, marking, closing, and
//! moving a pane out of one.

use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::{Axis, Layout};
use crate::workspace::tab::Tab;

/// The list of tabs and which one is shown.
impl Workspace {
    /// Runs `f` on the tab shown; when it reports a change, the tab's
    /// panes follow their new rectangles.
    pub(super) fn with_tab_relayout(&mut self, f: impl FnOnce(&mut Tab) -> bool) -> bool {
        let Some(tab) = self.tabs.shown_mut() else {
            return false;
        };
        if !f(tab) {
            return false;
        }
        self.relayout_tab(self.tabs.active);
        true
    }

    /// Closes tab `index` and ends its panes' programs; the workspace
    /// ends with the last tab.
    pub(super) fn close_tab(&mut self, index: usize) -> bool {
        let status = self.quit_status();
        let Some(tab) = self.tabs.get(index) else {
            return false;
        };
        for id in tab.pane_ids() {
            if let Some(member) = self.panes.members.remove(&id) {
                member.pane.program().terminate();
            }
        }
        if !self.tabs.remove(index) {
            self.exit_code = Some(status);
        }
        true
    }

    /// Takes the focused pane out of its tab's layout; `None` if it is
    /// the tab's only pane.
    fn detach_focused(&mut self) -> Option<PaneId> {
        let tab = self.tabs.shown_mut()?;
        let id = tab.focus;
        if !tab.take_tiled(id) {
            return None;
        }
        self.relayout_tab(self.tabs.active);
        Some(id)
    }

    /// The focused pane gets a tab of its own.
    pub(super) fn break_pane(&mut self) -> bool {
        let Some(id) = self.detach_focused() else {
            return false;
        };
        self.tabs.push(Tab::new(None, Layout::new(id), id));
        self.relayout_tab(self.tabs.active);
        true
    }

    /// The focused pane joins the next tab, split beside its focus; a tab
    /// left without panes goes.
    pub(super) fn move_pane_to_next_tab(&mut self) -> bool {
        if self.tabs.len() < 2 {
            return false;
        }
        let from = self.tabs.active;
        let Some(id) = self.tabs.focused_id() else {
            return false;
        };
        let alone = self.tabs.shown().is_some_and(|t| t.layout.len() == 1);
        if !alone && self.detach_focused().is_none() {
            return false;
        }
        let mut to = (from + 1) % self.tabs.len();
        if alone {
            self.tabs.list.remove(from);
            if to > from {
                to -= 1;
            }
        }
        let Some(tab) = self.tabs.list.get_mut(to) else {
            return false;
        };
        let target = tab.focus;
        tab.layout.split(target, Axis::Horizontal, id);
        tab.focus = id;
        tab.zoomed = false;
        self.tabs.active = to;
        self.relayout_tab(to);
        true
    }
}
