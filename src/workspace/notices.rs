//! Notifications programs sent (OSC 9, 777, 99), kept for the status bar
//! until the user looks at the pane: the newest one of a pane that is not
//! focused shows; focusing a pane drops its own. A notification from the
//! focused pane is not kept (the user is looking at it).

use crate::config::Notifications;
use crate::pane::PaneId;
use crate::workspace::Workspace;

/// At most this many panes' notifications are kept (the newest).
const MAX_KEPT: usize = 16;

/// Each pane's newest notification text, oldest first.
#[derive(Debug, Default)]
pub struct Notices {
    kept: Vec<(PaneId, String)>,
    mode: Notifications,
}

impl Workspace {
    /// What becomes of notifications (the config's `notifications`).
    pub fn set_notifications(&mut self, mode: Notifications) {
        self.notices.mode = mode;
    }

    pub fn notifications(&self) -> Notifications {
        self.notices.mode
    }

    /// Keeps `summary` (already sanitized) as pane `id`'s notification,
    /// unless the pane is focused. Returns whether the status bar changed.
    pub fn note_notification(&mut self, id: PaneId, summary: String) -> bool {
        if self.focused_id() == Some(id) {
            return false;
        }
        let kept = &mut self.notices.kept;
        kept.retain(|(pane, _)| *pane != id);
        if kept.len() >= MAX_KEPT {
            kept.remove(0);
        }
        kept.push((id, summary));
        true
    }

    /// Drops the focused pane's notification and those of panes gone.
    /// Returns whether the status bar changed.
    pub fn drop_seen_notifications(&mut self) -> bool {
        if self.notices.kept.is_empty() {
            return false;
        }
        let focused = self.focused_id();
        let before = self.notices.kept.len();
        let panes = &self.panes;
        self.notices
            .kept
            .retain(|(id, _)| Some(*id) != focused && panes.contains_key(id));
        self.notices.kept.len() != before
    }

    /// The newest notification waiting, with its pane.
    pub fn notification(&self) -> Option<(PaneId, &str)> {
        self.notices
            .kept
            .last()
            .map(|(id, text)| (*id, text.as_str()))
    }
}
