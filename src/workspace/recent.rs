//! What was focused before: the tab shown before this one (`C-b l`,
//! tmux's last-window) and, in each tab, the pane focused before this one
//! (`C-b ;`, last-pane); and moving a tab along the list (`C-b < > .`).
//!
//! Tabs are remembered by serial, not place, so moving or closing tabs
//! never makes `last-tab` show a different tab than the one left.

use crate::pane::PaneId;
use crate::workspace::Workspace;

/// The shown tab's serial and its focused pane, before a change.
#[derive(Debug, Clone, Copy)]
pub(super) struct FocusMark {
    tab: u64,
    pane: PaneId,
}

impl Workspace {
    pub(super) fn where_focus_is(&self) -> Option<FocusMark> {
        self.tab().map(|t| FocusMark {
            tab: t.serial,
            pane: t.focus,
        })
    }

    /// After a change: the tab or pane left is the one to go back to.
    /// One that is gone (a tab or pane closed) is not remembered.
    pub(super) fn remember_focus(&mut self, before: Option<FocusMark>) {
        let Some(before) = before else {
            return;
        };
        let tab_left = self.tabs.iter().any(|t| t.serial == before.tab);
        let pane_left = self.panes.members.contains_key(&before.pane);
        let Some(tab) = self.tab_mut() else {
            return;
        };
        if tab.serial != before.tab {
            if tab_left {
                self.last_tab = Some(before.tab);
            }
        } else if tab.focus != before.pane && pane_left && tab.holds(before.pane) {
            tab.last_focus = Some(before.pane);
        }
    }

    /// Shows the tab shown before this one.
    pub(super) fn last_tab(&mut self) -> bool {
        let Some(index) = self
            .last_tab
            .and_then(|serial| self.tabs.iter().position(|t| t.serial == serial))
        else {
            return false;
        };
        self.select_tab(index)
    }

    /// Whether `last-tab` has a tab to go to.
    pub fn has_last_tab(&self) -> bool {
        self.last_tab
            .is_some_and(|serial| self.tabs.iter().any(|t| t.serial == serial))
    }

    /// Focuses the pane of this tab focused before this one (a hidden
    /// floating one is shown).
    pub(super) fn last_pane(&mut self) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        match tab.last_focus {
            Some(id) if id != tab.focus && tab.holds(id) => {
                tab.reveal(id);
                let active = self.active;
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

    /// Moves the shown tab to place `to` (0-based) of the list, still
    /// shown. False when it is there already or `to` is past the end.
    pub fn move_tab_to(&mut self, to: usize) -> bool {
        let from = self.active;
        if to >= self.tabs.len() || to == from {
            return false;
        }
        let tab = self.tabs.remove(from);
        self.tabs.insert(to, tab);
        self.active = to;
        true
    }
}
