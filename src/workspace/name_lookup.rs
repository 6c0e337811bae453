//! Looking up what the panes run, off the loop: their foreground program,
//! directory and git branch come from `/proc` and from files in the
//! panes' directories (`.git/HEAD`), which a program's output can name
//! (OSC 7) and another user can make a FIFO, and a file system can hang
//! on (FUSE, NFS). None of it is read on the loop.
//!
//! The loop hands a [`NameLookup`] the panes to look at; one thread
//! answers through a mailbox, and the workspace takes the answer as it
//! comes (`Workspace::names_found`). One look at a time: while one is out,
//! the next waits; a look out longer than [`LOOK_LIMIT`] is given up (its
//! thread may be stuck in the kernel: it is left behind, and what it
//! reports, if ever, is not shown) and a new thread takes over, at most
//! [`MAX_STUCK`] times, after which names stay as they are.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, bounded};

use crate::mailbox::Mailbox;
use crate::pane::PaneId;
use crate::pane::program::spawn::current_dir;
use crate::workspace::cwd::{PanePlace, place_of};
use crate::workspace::foreground::{self, Foreground, Job};

/// How long one look may take before it is given up.
pub const LOOK_LIMIT: Duration = Duration::from_secs(2);

/// How many stuck threads are left behind before names stop being
/// looked up at all.
pub const MAX_STUCK: usize = 3;

/// What the thread needs to know of one pane.
#[derive(Debug, Clone)]
pub struct NameQuery {
    pub id: PaneId,
    pub pid: Option<u32>,
    /// The directory its program said it is in (OSC 7).
    pub osc7: Option<String>,
}

/// What was found for one pane.
#[derive(Debug, Clone)]
pub struct NameFacts {
    pub id: PaneId,
    pub foreground: Option<Foreground>,
    pub dir: Option<PathBuf>,
    pub place: Option<PanePlace>,
    /// The job its shell runs in the foreground, if any (saved with the
    /// workspace).
    pub job: Option<Job>,
}

/// One look's answer; `look` says which look it answers.
pub struct NameReport {
    pub look: u64,
    pub facts: Vec<NameFacts>,
}

pub type NameMailbox = Mailbox<NameReport>;

/// How one pane is looked at ([`look_at`]; tests stand in for it).
pub type Looker = std::sync::Arc<dyn Fn(&NameQuery) -> NameFacts + Send + Sync>;

/// See the module's doc.
pub struct NameLookup {
    mailbox: NameMailbox,
    looker: Looker,
    limit: Duration,
    /// The thread's queue (`None`: no thread yet, or given up).
    tx: Option<Sender<(u64, Vec<NameQuery>)>>,
    /// The look out now, and when it was asked.
    out: Option<(u64, Instant)>,
    next_look: u64,
    stuck: usize,
}

impl NameLookup {
    pub fn new(mailbox: NameMailbox) -> Self {
        Self::with_looker(mailbox, std::sync::Arc::new(look_at), LOOK_LIMIT)
    }

    /// Looks with `looker`, giving a look up after `limit`.
    pub fn with_looker(mailbox: NameMailbox, looker: Looker, limit: Duration) -> Self {
        Self {
            mailbox,
            looker,
            limit,
            tx: None,
            out: None,
            next_look: 1,
            stuck: 0,
        }
    }

    /// Asks for a look at `panes`. False when it cannot be asked now (the
    /// last look is still out, or names are no longer looked up): the
    /// caller asks again later.
    pub fn ask(&mut self, panes: Vec<NameQuery>, now: Instant) -> bool {
        if let Some((_, asked)) = self.out {
            if now < asked + self.limit {
                return false;
            }
            self.stuck += 1;
            tracing::warn!(
                stuck = self.stuck,
                "looking up pane names took over {:?}: given up",
                self.limit
            );
            self.tx = None;
            self.out = None;
        }
        if self.stuck >= MAX_STUCK {
            return false;
        }
        let look = self.next_look;
        self.next_look += 1;
        if self.tx.is_none() {
            self.tx = self.start();
        }
        let sent = self
            .tx
            .as_ref()
            .is_some_and(|tx| tx.try_send((look, panes)).is_ok());
        if sent {
            self.out = Some((look, now));
        }
        sent
    }

    /// Whether `report` answers the look that is out (a late one from a
    /// thread given up is not).
    pub fn answered(&mut self, report: &NameReport) -> bool {
        match self.out {
            Some((look, _)) if look == report.look => {
                self.out = None;
                true
            }
            _ => false,
        }
    }

    /// When the look out now is given up, if one is out.
    pub fn deadline(&self) -> Option<Instant> {
        self.out.map(|(_, asked)| asked + self.limit)
    }

    fn start(&self) -> Option<Sender<(u64, Vec<NameQuery>)>> {
        let (tx, rx) = bounded::<(u64, Vec<NameQuery>)>(1);
        let mailbox = self.mailbox.clone();
        let looker = std::sync::Arc::clone(&self.looker);
        let started = crate::jobs::named("pane-names", move || {
            for (look, panes) in rx {
                let facts = panes.iter().map(|pane| looker(pane)).collect();
                if !mailbox.post(NameReport { look, facts }) {
                    return;
                }
            }
        });
        // A thread that cannot start is said in the log by `jobs::named`.
        started.ok().map(|_| tx)
    }
}

/// One pane's foreground program, directory and branch, as the system
/// says now.
pub fn look_at(query: &NameQuery) -> NameFacts {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let dir = current_dir(query.osc7.as_deref(), query.pid);
    let foreground = query.pid.and_then(foreground::of_process);
    let job = query
        .pid
        .filter(|_| foreground.as_ref().is_some_and(|f| !f.is_pane_process))
        .and_then(foreground::job_of);
    NameFacts {
        id: query.id,
        job,
        foreground,
        place: dir.as_deref().map(|d| place_of(d, home.as_deref())),
        dir,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crossbeam_channel::Receiver;

    fn query(id: u32) -> Vec<NameQuery> {
        vec![NameQuery {
            id: PaneId(id),
            pid: None,
            osc7: None,
        }]
    }

    fn facts(query: &NameQuery) -> NameFacts {
        NameFacts {
            id: query.id,
            foreground: None,
            dir: Some(PathBuf::from("/somewhere")),
            place: None,
            job: None,
        }
    }

    fn lookup(looker: Looker, limit: Duration) -> (NameLookup, Receiver<NameReport>) {
        let (tx, rx) = bounded(8);
        (NameLookup::with_looker(tx.into(), looker, limit), rx)
    }

    #[test]
    fn a_look_is_answered_from_another_thread() {
        let (mut names, rx) = lookup(std::sync::Arc::new(facts), LOOK_LIMIT);
        assert!(names.ask(query(1), Instant::now()));
        let report = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(names.answered(&report));
        assert_eq!(
            report.facts[0].dir.as_deref(),
            Some(std::path::Path::new("/somewhere"))
        );
    }

    /// A look that never ends (a FIFO, a hung file system) holds up
    /// nothing: asking returns at once, the look is given up after its
    /// limit, and what it reports late is not taken.
    #[test]
    fn a_look_stuck_in_the_kernel_is_given_up_and_never_waited_for() {
        let (release_tx, release_rx) = bounded::<()>(0);
        let stuck: Looker = std::sync::Arc::new(move |q: &NameQuery| {
            if q.id == PaneId(1) {
                let _ = release_rx.recv();
            }
            facts(q)
        });
        let limit = Duration::from_millis(50);
        let (mut names, rx) = lookup(stuck, limit);
        let start = Instant::now();
        assert!(names.ask(query(1), start));
        assert!(!names.ask(query(2), start), "one look at a time");
        // Past the limit: given up, a new thread looks.
        let later = start + limit;
        assert!(names.ask(query(2), later));
        let report = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(report.facts[0].id, PaneId(2));
        assert!(names.answered(&report));
        // The stuck look ends at last: its report is not taken.
        drop(release_tx);
        let late = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(late.facts[0].id, PaneId(1));
        assert!(!names.answered(&late));
    }

    #[test]
    fn after_enough_stuck_threads_names_are_no_longer_looked_up() {
        let (_keep, hold) = bounded::<()>(0);
        let stuck: Looker = std::sync::Arc::new(move |q: &NameQuery| {
            let _ = hold.recv();
            facts(q)
        });
        let limit = Duration::from_millis(1);
        let (mut names, _rx) = lookup(stuck, limit);
        let mut now = Instant::now();
        for _ in 0..MAX_STUCK {
            assert!(names.ask(query(1), now));
            now += limit;
        }
        assert!(!names.ask(query(1), now));
    }
}
