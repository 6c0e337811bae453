//! When panes went quiet, for the `silence` hook (tmux's
//! monitor-silence): a pane that printed and then printed nothing for
//! `silence_after` seconds is reported once, until it prints again. Only
//! kept while a `silence` hook is set; its one deadline is the next pane
//! due, so an idle workspace wakes once per silence, not on a timer.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::pane::PaneId;

#[derive(Default)]
pub struct Silence {
    /// Each pane's last output, and whether its silence since was told.
    panes: HashMap<PaneId, (Instant, bool)>,
}

impl Silence {
    /// Pane `id` printed at `now`.
    pub fn output(&mut self, id: PaneId, now: Instant) {
        self.panes.insert(id, (now, false));
    }

    /// The panes quiet for `after` by `now`, each once.
    pub fn due(&mut self, after: Duration, now: Instant) -> Vec<PaneId> {
        let mut due = Vec::new();
        for (id, (last, told)) in &mut self.panes {
            if !*told && *last + after <= now {
                *told = true;
                due.push(*id);
            }
        }
        due.sort_by_key(|id| id.0);
        due
    }

    /// When the next pane is due.
    pub fn deadline(&self, after: Duration) -> Option<Instant> {
        self.panes
            .values()
            .filter(|(_, told)| !told)
            .map(|(last, _)| *last + after)
            .min()
    }

    /// Forgets panes that are gone.
    pub fn retain(&mut self, alive: impl Fn(PaneId) -> bool) {
        self.panes.retain(|id, _| alive(*id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_pane_is_told_once_until_it_prints_again() {
        let mut s = Silence::default();
        let t0 = Instant::now();
        let after = Duration::from_secs(5);
        s.output(PaneId(1), t0);
        assert_eq!(s.deadline(after), Some(t0 + after));
        assert!(s.due(after, t0 + Duration::from_secs(4)).is_empty());
        assert_eq!(s.due(after, t0 + after), vec![PaneId(1)]);
        assert!(s.due(after, t0 + Duration::from_secs(60)).is_empty());
        assert_eq!(s.deadline(after), None, "nothing more to wake for");
        s.output(PaneId(1), t0 + Duration::from_secs(61));
        assert_eq!(s.due(after, t0 + Duration::from_secs(66)), vec![PaneId(1)]);
        s.retain(|_| false);
        assert_eq!(s.deadline(after), None);
    }
}
