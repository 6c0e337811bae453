//! What the loop sleeps until: each part of it that wants to be woken at
//! a time of its own says when ([`Deadline`]), and the loop sleeps until
//! the soonest ([`soonest`]). A part with nothing due says `None`: an idle
//! workspace sleeps without a timeout.

use std::time::Instant;

use crate::app::command_watch::CommandWatch;
use crate::app::frame_clock::FrameClock;
use crate::app::status_commands::StatusCommands;
use crate::app::typing_throttle::TypingThrottle;
use crate::client::Client;
use crate::persist::Tap;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::Workspace;

/// Something that wants the loop awake at a time of its own.
pub(super) trait Deadline {
    /// When, seen at `now` (`None`: nothing due, however long the loop
    /// sleeps).
    fn deadline(&self, now: Instant) -> Option<Instant>;
}

/// The soonest of `parts`' deadlines.
pub(super) fn soonest(parts: &[&dyn Deadline], now: Instant) -> Option<Instant> {
    parts.iter().filter_map(|part| part.deadline(now)).min()
}

/// A time set by the loop itself (`--exit-after`, the overlay's last
/// frame, a test's limit).
impl Deadline for Instant {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        Some(*self)
    }
}

impl<T: Deadline> Deadline for Option<T> {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        self.as_ref().and_then(|part| part.deadline(now))
    }
}

impl<T: Deadline> Deadline for [T] {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        self.iter().filter_map(|part| part.deadline(now)).min()
    }
}

impl<T: Deadline> Deadline for Vec<T> {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        self.as_slice().deadline(now)
    }
}

/// The next frame allowed.
impl Deadline for FrameClock {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        FrameClock::deadline(self, now)
    }
}

/// A terminal's key sequences and the router's timers (the prefix, a
/// notice's end, repeat-time).
impl<B: FrameSink> Deadline for Client<B> {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        [self.router.next_deadline(), self.input.deadline()]
            .into_iter()
            .flatten()
            .min()
    }
}

/// When the panes held back while the user types may go on.
impl Deadline for TypingThrottle {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        self.next_deadline(now)
    }
}

/// Restarts, name look-ups, synchronized updates left open and query
/// answers held for a program's raw mode.
impl Deadline for Workspace {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        let panes = self.panes().iter().filter_map(|pane| {
            [
                pane.term().sync_deadline(),
                pane.term().held_replies_check(now),
            ]
            .into_iter()
            .flatten()
            .min()
        });
        [
            self.panes().next_restart(),
            self.panes().names().next_check(),
        ]
        .into_iter()
        .flatten()
        .chain(panes)
        .min()
    }
}

/// The next hidden, quiet pane whose grid is put away.
impl Deadline for crate::app::idle_parking::IdleParking {
    fn deadline(&self, now: Instant) -> Option<Instant> {
        crate::app::idle_parking::IdleParking::deadline(self, now)
    }
}

/// The next save of the workspace.
impl Deadline for Tap {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        Tap::deadline(self)
    }
}

/// The next `"cmd:…"` status segment to run.
impl Deadline for StatusCommands {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        self.next_deadline()
    }
}

/// The next `tilework wait` to give up.
impl Deadline for CommandWatch {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        CommandWatch::deadline(self)
    }
}

/// A clipboard read waiting for the user's answer, or the terminal's.
impl Deadline for crate::app::clipboard_reads::ClipboardReads {
    fn deadline(&self, _now: Instant) -> Option<Instant> {
        crate::app::clipboard_reads::ClipboardReads::deadline(self)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_soonest_deadline_wins_and_none_is_no_deadline() {
        let now = Instant::now();
        let later = now + Duration::from_secs(2);
        let sooner = now + Duration::from_secs(1);
        let nothing: Option<Instant> = None;
        assert_eq!(
            soonest(&[&nothing, &Some(later), &sooner], now),
            Some(sooner)
        );
        assert_eq!(soonest(&[&nothing, &Vec::<Instant>::new()], now), None);
    }
}
