//! What the workspace does to a whole tab: a change to the shown tab's
//! geometry that its panes follow, and closing a tab with its panes. The
//! list itself is [`Tabs`](crate::workspace::Tabs).

use crate::workspace::Workspace;
use crate::workspace::tab::Tab;

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
        let status = self.ending.quitting(&self.panes);
        let Some(tab) = self.tabs.get(index) else {
            return false;
        };
        for id in tab.pane_ids() {
            if let Some(member) = self.panes.members.remove(&id) {
                member.pane.program().terminate();
            }
        }
        if !self.tabs.remove(index) {
            self.ending.quit(status);
        }
        true
    }
}
