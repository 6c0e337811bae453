//! The pane focused before this one in the shown tab (`C-b ;`,
//! last-pane), and a zoomed tab's zoom following the focus. The tab shown
//! before this one (`C-b l`) is [`Tabs`](crate::workspace::Tabs)'.

use crate::workspace::Workspace;

impl Workspace {
    /// Focuses the pane of this tab focused before this one (a hidden
    /// floating one is shown).
    pub(super) fn last_pane(&mut self) -> bool {
        let Some(tab) = self.tabs.shown_mut() else {
            return false;
        };
        match tab.last_focus {
            Some(id) if id != tab.focus && tab.holds(id) => {
                tab.reveal(id);
                let active = self.tabs.active;
                self.relayout_if_zoomed(active);
                true
            }
            _ => false,
        }
    }

    /// A zoomed tab keeps its zoom on the newly focused tiled pane.
    pub(super) fn relayout_if_zoomed(&mut self, index: usize) {
        if self.tabs.get(index).is_some_and(|t| t.zoomed) {
            self.relayout_tab(index);
        }
    }
}
