//! Notifications programs sent (OSC 9, 777, 99), kept for the status bar
//! until the user looks at the pane: the newest one of a pane that is not
//! focused shows; focusing a pane drops its own. A notification from the
//! focused pane is not kept (the user is looking at it). The workspace's
//! side is `attention`.

use crate::config::Notifications;
use crate::pane::PaneId;

/// At most this many panes' notifications are kept (the newest).
const MAX_KEPT: usize = 16;

/// At most this many notifications are kept of one pane (its newest).
const PER_PANE: usize = 4;

/// Each pane's notifications not yet seen, oldest pane first, and what the
/// config says becomes of notifications.
#[derive(Debug, Default)]
pub struct Notices {
    kept: Vec<(PaneId, Vec<String>)>,
    /// The newest pane's, joined: what the status bar shows.
    shown: String,
    pub(super) mode: Notifications,
}

impl Notices {
    /// Keeps `summary` as pane `id`'s notification, after those of the pane
    /// not yet seen (a burst shows whole: `first · second · third`, the
    /// newest [`PER_PANE`]).
    pub(super) fn note(&mut self, id: PaneId, summary: String) {
        let mut summaries = match self.kept.iter().position(|(pane, _)| *pane == id) {
            Some(at) => self.kept.remove(at).1,
            None => Vec::new(),
        };
        if summaries.len() >= PER_PANE {
            summaries.remove(0);
        }
        summaries.push(summary);
        if self.kept.len() >= MAX_KEPT {
            self.kept.remove(0);
        }
        self.kept.push((id, summaries));
        self.shown = self
            .kept
            .last()
            .map(|(_, s)| s.join(" · "))
            .unwrap_or_default();
    }

    /// Keeps only the notifications `keep` says to. Returns whether any
    /// went.
    pub(super) fn retain(&mut self, keep: impl Fn(PaneId) -> bool) -> bool {
        let before = self.kept.len();
        self.kept.retain(|(id, _)| keep(*id));
        self.shown = self
            .kept
            .last()
            .map(|(_, s)| s.join(" · "))
            .unwrap_or_default();
        self.kept.len() != before
    }

    /// The newest pane's notifications waiting, with the pane.
    pub(super) fn newest(&self) -> Option<(PaneId, &str)> {
        self.kept.last().map(|(id, _)| (*id, self.shown.as_str()))
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
        assert_eq!(n.newest(), Some((PaneId(1), "one · one again")));
        assert!(n.retain(|id| id != PaneId(1)));
        assert_eq!(n.newest(), Some((PaneId(2), "two")));
        assert!(!n.retain(|_| true));
        for i in 0..40 {
            n.note(PaneId(i), i.to_string());
        }
        assert_eq!(n.kept.len(), MAX_KEPT);
    }
}
