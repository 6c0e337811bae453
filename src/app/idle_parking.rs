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

/// Putting grids away stops for the turn once it took this long (after
/// the first): a hundred panes going quiet together take turns, and keys
/// and frames go between. A shell's prompt takes well under a
/// millisecond; a grid whose program set a scroll region or saved the
/// cursor costs its `Debug` text too (~10 ms at 200x60 on a 2-core VM).
const TURN_BUDGET: Duration = Duration::from_millis(2);

/// Hidden grids allowed to wait the whole [`PARK_AFTER`]. Past that (a
/// script opening tabs every few milliseconds, each shown until the next
/// one opens) the waits are cut tenfold, so that a burst of new panes
/// leaves a few live grids behind it rather than dozens: freed grids'
/// memory stays with the process (glibc gives back only the top of its
/// heap), so the most grids ever live at once is what an idle workspace
/// keeps.
const HIDDEN_GRIDS_KEPT: usize = 2;

/// How much shorter the waits are with more hidden grids live.
const CROWDED_CUT: u32 = 10;

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
    /// A turn left panes due (past [`TURN_BUDGET`]).
    more_due: bool,
    /// More than [`HIDDEN_GRIDS_KEPT`] hidden grids were live at the last
    /// sweep: the waits are cut.
    crowded: bool,
}

struct Quiet {
    received: u64,
    since: Instant,
    refused: bool,
    /// How long it must stay quiet.
    wait: Duration,
}

impl Quiet {
    /// When it is due, with the waits cut if `crowded`.
    fn due(&self, crowded: bool) -> Instant {
        let wait = if crowded {
            self.wait / CROWDED_CUT
        } else {
            self.wait
        };
        self.since + wait
    }
}

impl IdleParking {
    /// The panes a frame just drew, over all attached terminals.
    pub fn drawn(&mut self, shown: Vec<PaneId>) {
        self.shown = shown;
    }

    /// Puts away the grids of hidden panes quiet for [`PARK_AFTER`] by
    /// `now` (all panes are hidden when no terminal is `attached`).
    pub fn sweep(&mut self, ws: &mut Workspace, attached: bool, now: Instant) {
        let started = Instant::now();
        let mut parked = 0;
        self.more_due = false;
        // Grids that cannot be put away do not count: they would keep the
        // waits cut for good.
        let mut hidden_live = ws
            .panes()
            .iter()
            .filter(|p| {
                let shown = attached && self.shown.contains(&p.id);
                let refused = self.quiet.get(&p.id).is_some_and(|q| q.refused);
                !(shown || refused || p.term().is_parked())
            })
            .count();
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
            // Cut waits until the grids left are few enough.
            if quiet.refused || now < quiet.due(hidden_live > HIDDEN_GRIDS_KEPT) {
                continue;
            }
            if parked > 0 && started.elapsed() >= TURN_BUDGET {
                self.more_due = true;
                continue;
            }
            parked += 1;
            if pane.term_mut().park() {
                hidden_live -= 1;
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
        self.crowded = hidden_live > HIDDEN_GRIDS_KEPT;
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
            .map(|q| q.due(self.crowded))
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::workspace::fake_workspace;

    /// A workspace of `tabs` tabs of a faked `sh`, the last one shown.
    fn tabs(tabs: usize) -> (Workspace, IdleParking) {
        let (mut ws, _fake) = fake_workspace::one_pane("sh");
        for _ in 1..tabs {
            let tab = fake_workspace::launch(&ws, "sh");
            ws.new_tab_with(tab).unwrap();
        }
        let mut parking = IdleParking::default();
        let last = ws.panes().iter().map(|p| p.id).max().unwrap();
        parking.drawn(vec![last]);
        (ws, parking)
    }

    fn live_hidden(ws: &Workspace) -> usize {
        ws.panes().iter().filter(|p| !p.term().is_parked()).count() - 1
    }

    /// Sweeps at `at` until nothing more is due then.
    fn sweep_all(ws: &mut Workspace, parking: &mut IdleParking, at: Instant) {
        parking.sweep(ws, true, at);
        while parking.deadline(at).is_some_and(|due| due <= at) {
            parking.sweep(ws, true, at);
        }
    }

    #[test]
    fn a_few_hidden_grids_wait_the_whole_time_and_a_burst_of_them_a_tenth() {
        let start = Instant::now();
        let (mut few, mut few_parking) = tabs(1 + HIDDEN_GRIDS_KEPT);
        let (mut burst, mut burst_parking) = tabs(12);
        for (ws, parking) in [
            (&mut few, &mut few_parking),
            (&mut burst, &mut burst_parking),
        ] {
            parking.sweep(ws, true, start);
        }
        let soon = start + PARK_AFTER / CROWDED_CUT;
        sweep_all(&mut few, &mut few_parking, soon);
        sweep_all(&mut burst, &mut burst_parking, soon);
        assert_eq!(
            live_hidden(&few),
            HIDDEN_GRIDS_KEPT,
            "not crowded: they wait"
        );
        assert_eq!(
            live_hidden(&burst),
            HIDDEN_GRIDS_KEPT,
            "a script's burst of tabs keeps a few grids"
        );
        sweep_all(&mut few, &mut few_parking, start + PARK_AFTER);
        assert_eq!(live_hidden(&few), 0);
        // The shown pane keeps its grid.
        assert_eq!(
            few.panes().iter().filter(|p| !p.term().is_parked()).count(),
            1
        );
    }

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
