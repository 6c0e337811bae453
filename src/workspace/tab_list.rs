//! The workspace's list of tabs: showing, renaming, marking, closing, and
//! moving a pane out of one.

use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::{Axis, Layout};
use crate::workspace::tab::Tab;

/// The list of tabs and which one is shown.
impl Workspace {
    /// Adds `tab` at the end, shown.
    pub(super) fn push_tab(&mut self, tab: Tab) {
        self.tabs.push(tab);
        self.active = self.tabs.len() - 1;
    }

    pub fn select_tab(&mut self, index: usize) -> bool {
        if index >= self.tabs.len() || index == self.active {
            return false;
        }
        self.active = index;
        if let Some(tab) = self.tabs.get_mut(index) {
            tab.activity = false;
            tab.bell = false;
        }
        true
    }

    /// Shows the tab `step` tabs away, round the ends.
    pub(super) fn select_tab_by(&mut self, step: isize) -> bool {
        let n = self.tabs.len().max(1) as isize;
        let index = (self.active as isize + step).rem_euclid(n) as usize;
        self.select_tab(index)
    }

    pub fn rename_tab(&mut self, name: &str) -> bool {
        let name = crate::sanitize::sanitize_title(name.trim().as_bytes());
        self.tab_mut().is_some_and(|tab| tab.rename(name))
    }

    /// Marks a pane's tab for the status bar when it is not the one shown.
    /// Returns whether the tab's markers changed.
    pub fn note_activity(&mut self, id: PaneId, bell: bool) -> bool {
        let active = self.active;
        match self.tabs.iter_mut().enumerate().find(|(_, t)| t.holds(id)) {
            Some((i, tab)) if i != active => tab.mark(bell),
            _ => false,
        }
    }

    /// Which tab holds a pane.
    pub fn tab_of(&self, id: PaneId) -> Option<usize> {
        self.tabs.iter().position(|t| t.holds(id))
    }

    /// Runs `f` on the tab shown; when it reports a change, the tab's
    /// panes follow their new rectangles.
    pub(super) fn with_tab_relayout(&mut self, f: impl FnOnce(&mut Tab) -> bool) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if !f(tab) {
            return false;
        }
        self.relayout_tab(self.active);
        true
    }

    /// Removes tab `index` (its panes are gone already); the tab shown
    /// stays shown, or the one before it is. Returns whether any tab is
    /// left.
    pub(super) fn remove_tab(&mut self, index: usize) -> bool {
        self.tabs.remove(index);
        if self.tabs.is_empty() {
            return false;
        }
        if self.active > index || self.active >= self.tabs.len() {
            self.active = self.active.saturating_sub(1);
        }
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
        if !self.remove_tab(index) {
            self.exit_code = Some(status);
        }
        true
    }

    /// Takes the focused pane out of its tab's layout; `None` if it is
    /// the tab's only pane.
    fn detach_focused(&mut self) -> Option<PaneId> {
        let tab = self.tab_mut()?;
        let id = tab.focus;
        if !tab.take_tiled(id) {
            return None;
        }
        self.relayout_tab(self.active);
        Some(id)
    }

    /// The focused pane gets a tab of its own.
    pub(super) fn break_pane(&mut self) -> bool {
        let Some(id) = self.detach_focused() else {
            return false;
        };
        self.push_tab(Tab::new(None, Layout::new(id), id));
        self.relayout_tab(self.active);
        true
    }

    /// The focused pane joins the next tab, split beside its focus; a tab
    /// left without panes goes.
    pub(super) fn move_pane_to_next_tab(&mut self) -> bool {
        if self.tabs.len() < 2 {
            return false;
        }
        let from = self.active;
        let Some(id) = self.focused_id() else {
            return false;
        };
        let alone = self.tab().is_some_and(|t| t.layout.len() == 1);
        if !alone && self.detach_focused().is_none() {
            return false;
        }
        let mut to = (from + 1) % self.tabs.len();
        if alone {
            self.tabs.remove(from);
            if to > from {
                to -= 1;
            }
        }
        let Some(tab) = self.tabs.get_mut(to) else {
            return false;
        };
        let target = tab.focus;
        tab.layout.split(target, Axis::Horizontal, id);
        tab.focus = id;
        tab.zoomed = false;
        self.active = to;
        self.relayout_tab(to);
        true
    }
}
