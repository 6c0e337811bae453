//! Notifications programs sent (OSC 9, 777, 99), kept for the status bar
//! until the user looks at the pane: the newest one of a pane that is not
//! focused shows; focusing a pane drops its own. A notification from the
//! focused pane is not kept (the user is looking at it). The workspace's
//! side is `attention`.

use crate::config::Notifications;
use crate::pane::PaneId;

/// At most this many panes' notifications are kept (the newest).
const MAX_KEPT: usize = 16;

/// Each pane's newest notification text, oldest first, and what the config
/// says becomes of notifications.
#[derive(Debug, Default)]
pub struct Notices {
    kept: Vec<(PaneId, String)>,
    pub(super) mode: Notifications,
}

impl Notices {
    /// Keeps `summary` as pane `id`'s notification.
    pub(super) fn note(&mut self, id: PaneId, summary: String) {
        self.kept.retain(|(pane, _)| *pane != id);
        if self.kept.len() >= MAX_KEPT {
            self.kept.remove(0);
        }
        self.kept.push((id, summary));
    }

    /// Keeps only the notifications `keep` says to. Returns whether any
    /// went.
    pub(super) fn retain(&mut self, keep: impl Fn(PaneId) -> bool) -> bool {
        let before = self.kept.len();
        self.kept.retain(|(id, _)| keep(*id));
        self.kept.len() != before
    }

    /// The newest notification waiting, with its pane.
    pub(super) fn newest(&self) -> Option<(PaneId, &str)> {
        self.kept.last().map(|(id, text)| (*id, text.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pane_keeps_its_newest_and_the_newest_shows() {
        let mut n = Notices::default();
        n.note(PaneId(1), "one".into());
        n.note(PaneId(2), "two".into());
        n.note(PaneId(1), "one again".into());
        assert_eq!(n.newest(), Some((PaneId(1), "one again")));
        assert!(n.retain(|id| id != PaneId(1)));
        assert_eq!(n.newest(), Some((PaneId(2), "two")));
        assert!(!n.retain(|_| true));
        for i in 0..40 {
            n.note(PaneId(i), i.to_string());
        }
        assert_eq!(n.kept.len(), MAX_KEPT);
    }
}
