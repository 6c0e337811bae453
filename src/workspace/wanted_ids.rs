//! The script ids the panes a restore opens take (see `stable_ids`).

use std::collections::VecDeque;

use crate::pane::PaneId;

/// The script ids the panes a restore starts take, in the order it
/// starts them; empty otherwise.
#[derive(Debug, Default)]
pub struct WantedIds {
    panes: VecDeque<u32>,
}

impl WantedIds {
    /// The next panes started take `ids`, in order (none: their own).
    pub(super) fn expect(&mut self, ids: &[u32]) {
        self.panes = ids.iter().copied().collect();
    }

    /// The script id of pane `id`, started now: the saved one while a
    /// restore opens its panes.
    pub(super) fn next_script_id(&mut self, id: PaneId) -> u32 {
        self.panes.pop_front().unwrap_or(id.0)
    }
}
