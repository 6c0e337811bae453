//! What the saver was last handed for each pane, so that a turn hands only
//! what changed since: the next sealed block, the tail's end, the newest
//! erasure, the size log, the commands' generation and the foreground job.

use std::collections::HashMap;

use crate::pane::PaneId;
use crate::persist::size_file::SavedSizes;
use crate::workspace::foreground::Job;

/// One pane's part of what was handed.
#[derive(Debug, Default)]
pub struct HandedPane {
    /// The next block index to hand.
    pub next_block: u64,
    /// The ring's end when the tail was last handed.
    pub tail_end: Option<u64>,
    /// The newest erasure handed (see `Message::Cut`).
    pub cut: u64,
    /// The size log as last handed.
    pub sizes: Option<SavedSizes>,
    /// The commands' generation as last handed.
    pub marks: Option<u64>,
    /// The foreground job as last handed with a snapshot.
    pub job: Option<Job>,
}

/// Every pane's [`HandedPane`], forgotten when the pane goes.
#[derive(Debug, Default)]
pub struct Handed {
    panes: HashMap<PaneId, HandedPane>,
}

impl Handed {
    pub fn get(&self, id: PaneId) -> Option<&HandedPane> {
        self.panes.get(&id)
    }

    pub fn entry(&mut self, id: PaneId) -> &mut HandedPane {
        self.panes.entry(id).or_default()
    }

    /// Forgets the panes for which `live` says no.
    pub fn retain(&mut self, mut live: impl FnMut(PaneId) -> bool) {
        self.panes.retain(|id, _| live(*id));
    }

    /// Every pane's job is `job_of`'s from now on.
    pub fn set_jobs(&mut self, mut job_of: impl FnMut(PaneId) -> Option<Job>) {
        for (id, pane) in &mut self.panes {
            pane.job = job_of(*id);
        }
    }
}
