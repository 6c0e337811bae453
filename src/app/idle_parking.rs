//! Which panes' grids to put away (`pane::term::parked`): those on no
//! attached terminal's screen whose program printed nothing for
//! [`PARK_AFTER`]. A parked grid comes back at the first look (a frame that
//! shows the pane, a capture, output); this part only decides when to put
//! one away. Its one deadline is the next hidden pane due, so an idle
//! workspace whose hidden panes are all parked sleeps without a timeout.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::pane::PaneId;
use crate::workspace::Workspace;

/// How long a hidden pane's program stays quiet before its grid is put
/// away. Short, so that a script opening dozens of tabs in a row reuses
/// the memory of the grids put away for the next ones (glibc keeps freed
/// memory for the process's next allocations rather than giving it back):
/// at one tab every 20 ms, about ten grids live at a time.
pub const PARK_AFTER: Duration = Duration::from_millis(200);

/// A pane whose output brought its grid back soon after it was put away
/// (a clock, a build printing now and then) waits twice as long the next
/// time, up to this: it is not rebuilt and put away over and over.
const LONGEST_WAIT: Duration = Duration::from_secs(10);

/// At most this many grids are put away in one turn (each costs a
/// snapshot and its check, mostly formatting the parser's state once: 20-50 ms
/// apart on the loaded 2-core VM for 200x60 grids, when two were checked
/// each): a hundred panes going quiet together take turns, and keys and
/// frames go between.
const PER_TURN: usize = 1;

#[derive(Default)]
pub struct IdleParking {
    /// The panes drawn on some terminal at the last frame.
    shown: Vec<PaneId>,
    /// Each hidden pane with a live grid: its output count, since when it
    /// has not changed, and whether putting it away was refused at that
    /// count (tried again only after more output).
    quiet: HashMap<PaneId, Quiet>,
    /// When each pane was last put away, and the wait before it.
    parked: HashMap<PaneId, (Instant, Duration)>,
    /// A turn left panes due (more than [`PER_TURN`]).
    more_due: bool,
}

struct Quiet {
    received: u64,
    since: Instant,
    refused: bool,
    /// How long it must stay quiet.
    wait: Duration,
}

impl IdleParking {
    /// The panes a frame just drew, over all attached terminals.
    pub fn drawn(&mut self, shown: Vec<PaneId>) {
        self.shown = shown;
    }

    /// Puts away the grids of hidden panes quiet for [`PARK_AFTER`] by
    /// `now` (all panes are hidden when no terminal is `attached`).
    pub fn sweep(&mut self, ws: &mut Workspace, attached: bool, now: Instant) {
        let mut parked = 0;
        self.more_due = false;
        for pane in ws.panes_mut().iter_mut() {
            let id = pane.id;
            if (attached && self.shown.contains(&id)) || pane.term().is_parked() {
                self.quiet.remove(&id);
                continue;
            }
            let received = pane.term().bytes_received();
            let parked_before = &mut self.parked;
            let quiet = self.quiet.entry(id).or_insert_with(|| Quiet {
                received,
                since: now,
                refused: false,
                wait: next_wait(parked_before.remove(&id), now),
            });
            if quiet.received != received {
                quiet.received = received;
                quiet.since = now;
                quiet.refused = false;
                continue;
            }
            if quiet.refused || now < quiet.since + quiet.wait {
                continue;
            }
            if parked == PER_TURN {
                self.more_due = true;
                continue;
            }
            parked += 1;
            if pane.term_mut().park() {
                tracing::debug!(?id, "a hidden, quiet pane's grid was put away");
                self.parked.insert(id, (now, quiet.wait));
                self.quiet.remove(&id);
            } else {
                tracing::debug!(
                    ?id,
                    "a hidden, quiet pane's grid stays: it cannot be put away exactly"
                );
                quiet.refused = true;
            }
        }
        let alive: Vec<PaneId> = ws.panes().iter().map(|p| p.id).collect();
        self.quiet.retain(|id, _| alive.contains(id));
        self.parked.retain(|id, _| alive.contains(id));
    }

    /// When the next hidden pane is due.
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        if self.more_due {
            return Some(now);
        }
        self.quiet
            .values()
            .filter(|q| !q.refused)
            .map(|q| q.since + q.wait)
            .min()
    }
}

/// The wait before putting a pane away again, given when it was last put
/// away and the wait then: doubled if it came back within ten waits.
fn next_wait(last: Option<(Instant, Duration)>, now: Instant) -> Duration {
    match last {
        Some((at, wait)) if now.saturating_duration_since(at) < wait * 10 => {
            (wait * 2).min(LONGEST_WAIT)
        }
        _ => PARK_AFTER,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pane_that_comes_back_soon_waits_longer_next_time() {
        let now = Instant::now();
        assert_eq!(next_wait(None, now), PARK_AFTER);
        let soon = now + PARK_AFTER;
        assert_eq!(next_wait(Some((now, PARK_AFTER)), soon), PARK_AFTER * 2);
        assert_eq!(
            next_wait(Some((now, LONGEST_WAIT)), now + LONGEST_WAIT),
            LONGEST_WAIT
        );
        let later = now + PARK_AFTER * 10;
        assert_eq!(
            next_wait(Some((now, PARK_AFTER * 4)), later),
            PARK_AFTER * 8
        );
        assert_eq!(next_wait(Some((now, PARK_AFTER)), later), PARK_AFTER);
    }
}
