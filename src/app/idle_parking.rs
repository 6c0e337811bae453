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
/// away: long enough that a pane printing now and then (a build, a clock)
/// is not rebuilt and put away over and over.
pub const PARK_AFTER: Duration = Duration::from_secs(1);

/// At most this many grids are put away in one turn (each costs a
/// snapshot and its check, ~1-3 ms at 200x60): a hundred panes going
/// quiet together take turns, and keys and frames go between.
const PER_TURN: usize = 2;

#[derive(Default)]
pub struct IdleParking {
    /// The panes drawn on some terminal at the last frame.
    shown: Vec<PaneId>,
    /// Each hidden pane with a live grid: its output count, since when it
    /// has not changed, and whether putting it away was refused at that
    /// count (tried again only after more output).
    quiet: HashMap<PaneId, Quiet>,
    /// A turn left panes due (more than [`PER_TURN`]).
    more_due: bool,
}

struct Quiet {
    received: u64,
    since: Instant,
    refused: bool,
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
            let quiet = self.quiet.entry(id).or_insert(Quiet {
                received,
                since: now,
                refused: false,
            });
            if quiet.received != received {
                *quiet = Quiet {
                    received,
                    since: now,
                    refused: false,
                };
                continue;
            }
            if quiet.refused || now < quiet.since + PARK_AFTER {
                continue;
            }
            if parked == PER_TURN {
                self.more_due = true;
                continue;
            }
            parked += 1;
            if pane.term_mut().park() {
                tracing::trace!(?id, "a hidden, quiet pane's grid was put away");
                self.quiet.remove(&id);
            } else {
                quiet.refused = true;
            }
        }
        let alive: Vec<PaneId> = ws.panes().iter().map(|p| p.id).collect();
        self.quiet.retain(|id, _| alive.contains(id));
    }

    /// When the next hidden pane is due.
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        if self.more_due {
            return Some(now);
        }
        self.quiet
            .values()
            .filter(|q| !q.refused)
            .map(|q| q.since + PARK_AFTER)
            .min()
    }
}
