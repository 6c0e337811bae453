//! The workspace's side of programs' notifications (kept in `notices`):
//! which are kept, which are dropped once seen, which shows.

use crate::config::Notifications;
use crate::pane::PaneId;
use crate::workspace::Workspace;

impl Workspace {
    /// What becomes of notifications (the config's `notifications`).
    pub fn set_notifications(&mut self, mode: Notifications) {
        self.kept_notifications.mode = mode;
    }

    pub fn notifications(&self) -> Notifications {
        self.kept_notifications.mode
    }

    /// Keeps `summary` (already sanitized) as pane `id`'s notification,
    /// unless the pane is focused. Returns whether the status bar changed.
    pub fn note_notification(&mut self, id: PaneId, summary: String) -> bool {
        if self.focused_id() == Some(id) {
            return false;
        }
        self.kept_notifications.note(id, summary);
        true
    }

    /// Drops the focused pane's notification and those of panes gone.
    /// Returns whether the status bar changed.
    pub fn drop_seen_notifications(&mut self) -> bool {
        if self.kept_notifications.newest().is_none() {
            return false;
        }
        let focused = self.focused_id();
        let panes = &self.panes.members;
        self.kept_notifications
            .retain(|id| Some(id) != focused && panes.contains_key(&id))
    }

    /// The newest notification waiting, with its pane.
    pub fn notification(&self) -> Option<(PaneId, &str)> {
        self.kept_notifications.newest()
    }
}
