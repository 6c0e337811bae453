//! One terminal's view of the workspace (`client_views = "own"`, issue
//! 44): which tab it shows, which pane has its focus in each tab, and
//! what `C-b l` and `C-b ;` go back to. The workspace holds one view at a
//! time (the one its actions and drawing use); the loop saves the view it
//! holds into its terminal's client and shows another's before that
//! terminal's input or frame (`client::own_view`); the view is taken and
//! shown by [`Tabs`](crate::workspace::Tabs).
//!
//! Tabs are known by serial and panes by id, so a view outlives tabs and
//! panes opening, closing and moving: what is gone is skipped.

use crate::pane::PaneId;

/// What one terminal looks at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// The shown tab's serial.
    pub(super) tab: Option<u64>,
    pub(super) last_tab: Option<u64>,
    /// Per tab (by serial): its focused pane and the one before.
    pub(super) focus: Vec<(u64, PaneId, Option<PaneId>)>,
}

impl View {
    /// The serial of the tab this view shows.
    pub fn tab(&self) -> Option<u64> {
        self.tab
    }
}
