//! [`Attention`]: what waits for the user. Programs' notifications (kept
//! in `notices`): which are kept, which are dropped once seen, which
//! shows; and the workspace's own notices for the status bar (a command
//! given up on).

use crate::config::Notifications;
use crate::pane::PaneId;
use crate::workspace::notices::Notices;

/// Notifications and notices waiting to be seen.
#[derive(Debug, Default)]
pub struct Attention {
    /// Programs' notifications waiting to be seen.
    kept: Notices,
    /// For the status bar (see [`Attention::take_notices`]).
    notices: Vec<String>,
}

impl Attention {
    /// What becomes of notifications (the config's `notifications`).
    pub fn set_notifications(&mut self, mode: Notifications) {
        self.kept.mode = mode;
    }

    pub fn notifications(&self) -> Notifications {
        self.kept.mode
    }

    /// Keeps `summary` (already sanitized) as pane `id`'s notification,
    /// unless the pane is the `focused` one. Returns whether the status
    /// bar changed.
    pub fn note_notification(
        &mut self,
        id: PaneId,
        summary: String,
        focused: Option<PaneId>,
    ) -> bool {
        if focused == Some(id) {
            return false;
        }
        self.kept.note(id, summary);
        true
    }

    /// The newest notification waiting, with its pane.
    pub fn notification(&self) -> Option<(PaneId, &str)> {
        self.kept.newest()
    }

    /// Drops the notifications of panes not to `keep` (the focused one,
    /// those gone). Returns whether the status bar changed.
    pub(super) fn drop_seen(&mut self, keep: impl Fn(PaneId) -> bool) -> bool {
        self.kept.newest().is_some() && self.kept.retain(keep)
    }

    /// A line for the status bar.
    pub(super) fn push_notice(&mut self, notice: String) {
        self.notices.push(notice);
    }

    /// What the workspace has to tell the user (a command given up on),
    /// for the status bar; taken once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }
}
