//! One terminal's view of the workspace (`client_views = "own"`, issue
//! 44): which tab it shows, which pane has its focus in each tab, and
//! what `C-b l` and `C-b ;` go back to. The workspace holds one view at a
//! time (the one its actions and drawing use); the loop saves the view it
//! holds into its terminal's client and shows another's before that
//! terminal's input or frame (`client::own_view`).
//!
//! Tabs are known by serial and panes by id, so a view outlives tabs and
//! panes opening, closing and moving: what is gone is skipped.

use crate::pane::PaneId;
use crate::workspace::Workspace;

/// What one terminal looks at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// The shown tab's serial.
    tab: Option<u64>,
    last_tab: Option<u64>,
    /// Per tab (by serial): its focused pane and the one before.
    focus: Vec<(u64, PaneId, Option<PaneId>)>,
}

impl View {
    /// The serial of the tab this view shows.
    pub fn tab(&self) -> Option<u64> {
        self.tab
    }
}

impl Workspace {
    /// The view the workspace holds now.
    pub fn view(&self) -> View {
        View {
            tab: self.tab().map(|t| t.serial),
            last_tab: self.last_tab,
            focus: self
                .tabs
                .iter()
                .map(|t| (t.serial, t.focus, t.last_focus))
                .collect(),
        }
    }

    /// Shows `view`: its tab (if still open) and, in each tab still open,
    /// its focused pane (if still in that tab). Sizes do not change.
    pub fn show_view(&mut self, view: &View) {
        if let Some(at) = view
            .tab
            .and_then(|serial| self.tabs.iter().position(|t| t.serial == serial))
        {
            self.active = at;
        }
        self.last_tab = view.last_tab;
        for &(serial, focus, last) in &view.focus {
            if let Some(tab) = self.tabs.iter_mut().find(|t| t.serial == serial) {
                if tab.holds(focus) {
                    tab.focus = focus;
                }
                tab.last_focus = last.filter(|id| tab.holds(*id));
            }
        }
    }

    /// The shown tab laid out at `area` (`client_views = "own"`: each tab
    /// at the size of the terminals showing it); the other tabs keep the
    /// sizes they were last shown at. Panes already at their size are not
    /// touched.
    pub fn set_shown_tab_area(&mut self, area: ratatui::layout::Rect) {
        self.area = area;
        let active = self.active;
        if let Some(tab) = self.tabs.get_mut(active) {
            tab.floats.fit(area);
        }
        self.relayout_tab(active);
    }

    /// The serial of the tab shown now.
    pub fn shown_tab_serial(&self) -> Option<u64> {
        self.tab().map(|t| t.serial)
    }

    /// The place in the list of the tab with `serial`.
    pub fn tab_index_of(&self, serial: u64) -> Option<usize> {
        self.tabs.iter().position(|t| t.serial == serial)
    }
}
