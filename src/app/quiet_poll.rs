//! What the loop's sleeping poll(2) said of the quiet panes' PTYs (see
//! `pane::program::reader_gate`), kept for the turn it woke: that turn
//! reads the PTYs the poll found readable instead of asking the kernel
//! again with a zero timeout (issue 45: a key's echo cost two such polls,
//! one of them between the echo's arrival and its frame).

use crate::pane::PaneId;

/// The last sleep's answer, until the next turn takes it.
#[derive(Debug, Default)]
pub(super) struct QuietPoll {
    /// The panes whose PTY the sleep polled, in order, and which of them
    /// were readable (or hung up).
    seen: Option<(Vec<PaneId>, Vec<bool>)>,
}

impl QuietPoll {
    /// The sleep polled `polled`'s PTYs and found `readable` (one flag
    /// each); `None` when the poll failed (nothing is known).
    pub(super) fn slept(&mut self, polled: Vec<PaneId>, readable: Option<Vec<bool>>) {
        self.seen = readable
            .filter(|flags| flags.len() == polled.len())
            .map(|flags| (polled, flags));
    }

    /// The readable ones among `quiet` (the panes the loop may read now),
    /// if the last sleep polled exactly those; taken once (a turn that did
    /// not sleep asks the kernel).
    pub(super) fn take_ready(&mut self, quiet: &[PaneId]) -> Option<Vec<PaneId>> {
        let (polled, readable) = self.seen.take()?;
        (polled == quiet).then(|| {
            polled
                .into_iter()
                .zip(readable)
                .filter_map(|(id, ready)| ready.then_some(id))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sleeps_answer_serves_one_turn_over_the_same_panes() {
        let mut poll = QuietPoll::default();
        poll.slept(vec![PaneId(1), PaneId(2)], Some(vec![false, true]));
        assert_eq!(
            poll.take_ready(&[PaneId(1), PaneId(2)]),
            Some(vec![PaneId(2)])
        );
        assert_eq!(poll.take_ready(&[PaneId(1), PaneId(2)]), None, "taken once");
    }

    #[test]
    fn other_panes_or_a_failed_poll_leave_nothing_known() {
        let mut poll = QuietPoll::default();
        poll.slept(vec![PaneId(1), PaneId(2)], Some(vec![true, true]));
        assert_eq!(poll.take_ready(&[PaneId(1)]), None);
        poll.slept(vec![PaneId(1)], None);
        assert_eq!(poll.take_ready(&[PaneId(1)]), None);
    }
}
