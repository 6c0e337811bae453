//! The loop's side of saving: each turn it looks (a few integer compares
//! per pane) for blocks the panes' rings sealed and hands them to the
//! saver thread; a second after the workspace last changed it hands a
//! snapshot of the layout and the unsealed tails. Nothing here touches a
//! file or waits: the channel is bounded and what does not fit is handed
//! again next turn. A turn changes nothing while the workspace is idle
//! (no frame drawn, no output), so an idle workspace hands nothing.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use crossbeam_channel::{Sender, TrySendError, bounded};

use crate::config::saving::Saving;
use crate::mailbox::Mailbox;
use crate::pane::PaneId;
use crate::persist::dirs;
use crate::persist::handed::Handed;
use crate::persist::marks_file::SavedMarks;
use crate::persist::saver::{Message, PaneShape, Saver, Snapshot};
use crate::persist::size_file::SavedSizes;
use crate::persist::waiting::Waiting;
use crate::workspace::Workspace;
use crate::workspace::foreground::Job;

/// The layout and the tails are saved once the workspace has not changed
/// for this long (a detach, a command's output ending)...
pub const SNAPSHOT_QUIET: Duration = Duration::from_millis(200);
/// ...or this long after the first change not saved, while changes go on
/// (a flood): at most once a second.
pub const SNAPSHOT_DELAY: Duration = Duration::from_secs(1);

/// Messages waiting for the saver at most. Blocks are bounded by their
/// bytes besides (see `waiting`): blocks the ring lets go before they are
/// handed are not saved (the restored history notes the gap).
const CHANNEL_CAPACITY: usize = 256;

pub struct Tap {
    name: String,
    tx: Sender<Message>,
    history: bool,
    keep_on_quit: bool,
    /// What each pane's blocks, tail, erasure, sizes, marks and job were
    /// when last handed.
    handed: Handed,
    /// The layout last handed, with the active tab, zoomed ones and the
    /// panes' jobs.
    layout: (String, usize, Vec<usize>, Vec<Option<Job>>),
    /// What the workspace looked like at the last turn: frames drawn and
    /// output received.
    seen: (u64, u64, usize),
    /// The first change not saved and the newest, while there are any.
    changed: Option<(Instant, Instant)>,
    saver: Option<std::thread::JoinHandle<()>>,
    /// Tells the saver to drop what is queued (see `Saver::dropping`).
    dropping: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// A new name not yet handed to the saver (the channel was full).
    renaming: Option<String>,
    /// The bytes of blocks handed and not yet written.
    waiting: Waiting,
}

impl Tap {
    /// Starts saving workspace `name` (its directory made private first).
    /// Saving stopping is told to `problems`.
    pub fn start(name: &str, saving: &Saving, problems: Mailbox<String>) -> Result<Self> {
        let dir = dirs::make_workspace_dir(name)?;
        let run = format!(
            "{:x}",
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_micros())
        );
        let (tx, rx) = bounded(CHANNEL_CAPACITY);
        let saver = Saver::new(dir, run, saving.history, problems);
        let dropping = saver.dropping();
        let handle = crate::jobs::named("saver", move || saver.run(rx))
            .context("starting the saver thread")?;
        Ok(Self {
            name: name.to_string(),
            tx,
            history: saving.history,
            keep_on_quit: saving.keep_on_quit,
            handed: Handed::default(),
            layout: Default::default(),
            seen: (u64::MAX, 0, 0),
            changed: None,
            saver: Some(handle),
            dropping,
            renaming: None,
            waiting: Waiting::default(),
        })
    }

    /// When the loop must wake for the next snapshot, if one is due.
    pub fn deadline(&self) -> Option<Instant> {
        self.changed
            .map(|(first, last)| (first + SNAPSHOT_DELAY).min(last + SNAPSHOT_QUIET))
    }

    /// One turn of the loop: hands new sealed blocks over, arms or takes
    /// the snapshot.
    pub fn turn(&mut self, ws: &Workspace, frames: u64, now: Instant) {
        self.hand_rename();
        let output: u64 = ws.panes().iter().map(|p| p.history().ring().end()).sum();
        let seen = (frames, output, ws.panes().iter().count());
        if seen != self.seen || (self.changed.is_none() && self.jobs_changed(ws)) {
            self.seen = seen;
            let first = self.changed.map_or(now, |(first, _)| first);
            self.changed = Some((first, now));
        }
        let all_handed = !self.history || (self.hand_blocks(ws, true) && self.hand_cuts(ws));
        if self.deadline().is_some_and(|due| now >= due) {
            self.changed = None;
            if !all_handed || !self.hand_snapshot(ws, false) {
                // The saver is behind: try again later.
                self.changed = Some((now, now + SNAPSHOT_DELAY));
            }
        }
    }

    /// Whether a pane's job (learnt off the loop, maybe after the last
    /// change) is not the one last handed.
    fn jobs_changed(&self, ws: &Workspace) -> bool {
        ws.panes().iter().any(|pane| {
            ws.panes().job(pane.id) != self.handed.get(pane.id).and_then(|h| h.job.as_ref())
        })
    }

    /// The workspace is called `name` from now on (`C-b $`): the saved
    /// directory is renamed by the saver, in order with what it writes.
    pub fn rename(&mut self, name: &str) {
        self.name = name.to_string();
        self.renaming = Some(name.to_string());
        self.hand_rename();
        // The manifest's layout names the workspace too: saved again soon.
        self.layout = Default::default();
        let now = Instant::now();
        self.changed.get_or_insert((now, now));
    }

    fn hand_rename(&mut self) {
        if let Some(name) = self.renaming.take()
            && let Err(TrySendError::Full(Message::Rename(name))) =
                self.tx.try_send(Message::Rename(name))
        {
            self.renaming = Some(name);
        }
    }

    /// Hands every pane's newly sealed blocks, as many as the bytes
    /// waiting allow; false when some were left (they go on a later turn,
    /// if the ring still holds them). Unbounded at the end: the loop is
    /// over and the ring holds them anyway.
    fn hand_blocks(&mut self, ws: &Workspace, bounded: bool) -> bool {
        for pane in ws.panes().iter().filter(|p| ws.panes().history_saved(p.id)) {
            let ring = pane.history().ring();
            let end = ring.sealed_end();
            let next = &mut self.handed.entry(pane.id).next_block;
            if *next >= end {
                continue;
            }
            // Blocks the ring let go before they were handed are gone.
            let first = (*next).max(ring.start() / ring.block_bytes().max(1) as u64);
            let mut blocks: Vec<_> = (first..end)
                .filter_map(|k| ring.sealed_block(k).map(|b| (k, b)))
                .collect();
            if blocks.is_empty() {
                *next = end;
                continue;
            }
            if bounded {
                let room = self
                    .waiting
                    .room(blocks.iter().map(|(_, b)| b.stored_len()));
                blocks.truncate(room);
            }
            let Some(&(last, _)) = blocks.last() else {
                return false;
            };
            let weight = self
                .waiting
                .weigh(blocks.iter().map(|(_, b)| b.stored_len()).sum());
            let message = Message::Blocks {
                pane: shape(ws, pane),
                blocks,
                weight,
            };
            match self.tx.try_send(message) {
                Ok(()) if last + 1 >= end => *next = end,
                Ok(()) => {
                    *next = last + 1;
                    return false;
                }
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => return false,
            }
        }
        true
    }

    /// Hands each pane's newest erasure (ED 3, `clear-history`) not handed
    /// yet, with its tail as it is now; false when the channel was full.
    fn hand_cuts(&mut self, ws: &Workspace) -> bool {
        for pane in ws.panes().iter().filter(|p| ws.panes().history_saved(p.id)) {
            let ring = pane.history().ring();
            let at = ring.erased();
            if at <= self.handed.get(pane.id).map_or(0, |h| h.cut) {
                continue;
            }
            let message = Message::Cut {
                pane: shape(ws, pane),
                at,
                tail: (ring.sealed_end(), ring.tail().to_vec()),
            };
            match self.tx.try_send(message) {
                Ok(()) => {
                    let handed = self.handed.entry(pane.id);
                    handed.cut = at;
                    // The tail was written with it.
                    handed.tail_end = Some(ring.end());
                }
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => return false,
            }
        }
        true
    }

    /// The workspace as it is now, with the tails that changed since
    /// they were last handed (all of them when `every_tail`).
    fn snapshot(&self, ws: &Workspace, every_tail: bool) -> Snapshot {
        let order = panes_in_order(ws);
        let ids = crate::workspace::stable_ids::SavedIds::of(ws, &order);
        let mut panes = Vec::with_capacity(order.len());
        let mut tails = Vec::new();
        let mut sizes = Vec::new();
        let mut jobs = Vec::with_capacity(order.len());
        let mut marks = Vec::new();
        for id in order {
            let Some(pane) = ws.panes().get(id) else {
                continue;
            };
            panes.push(shape(ws, pane));
            jobs.push(ws.panes().job(id).cloned());
            if !ws.panes().history_saved(id) {
                continue;
            }
            let ring = pane.history().ring();
            let handed = self.handed.get(id);
            let last = handed.and_then(|h| h.tail_end);
            if self.history && (every_tail || last != Some(ring.end())) {
                tails.push((id, ring.sealed_end(), ring.tail().to_vec()));
            }
            let log = SavedSizes::of(pane.history().size_log(), ring.block_bytes());
            if self.history && (every_tail || handed.and_then(|h| h.sizes.as_ref()) != Some(&log)) {
                sizes.push((id, log));
            }
            let commands = pane.history().command_marks();
            if self.history
                && (every_tail || handed.and_then(|h| h.marks) != Some(commands.generation()))
            {
                let saved = SavedMarks {
                    block_len: ring.block_bytes() as u64,
                    commands: commands.commands().cloned().collect(),
                };
                marks.push((id, commands.generation(), saved));
            }
        }
        let zoomed_tabs = (ws.tabs().iter().enumerate())
            .filter(|(_, tab)| tab.zoomed)
            .map(|(i, _)| i)
            .collect();
        Snapshot {
            saved_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
            layout: crate::workspace::profile_save::to_toml_from_lookups(ws, &self.name),
            panes,
            jobs,
            active_tab: ws.tabs().active(),
            zoomed_tabs,
            tails,
            sizes,
            marks: marks.into_iter().map(|(id, _, m)| (id, m)).collect(),
            ids: Some(ids),
        }
    }

    /// Hands the snapshot unless nothing in it changed (the frame that
    /// armed it was a clock's, say). False when the channel was full.
    fn hand_snapshot(&mut self, ws: &Workspace, every_tail: bool) -> bool {
        let snapshot = self.snapshot(ws, every_tail);
        let layout = (
            snapshot.layout.clone(),
            snapshot.active_tab,
            snapshot.zoomed_tabs.clone(),
            snapshot.jobs.clone(),
        );
        let nothing_new =
            snapshot.tails.is_empty() && snapshot.sizes.is_empty() && snapshot.marks.is_empty();
        if !every_tail && nothing_new && layout == self.layout {
            return true;
        }
        let ends: Vec<(PaneId, u64)> = (snapshot.tails.iter())
            .filter_map(|(id, _, _)| Some((*id, ws.panes().get(*id)?.history().ring().end())))
            .collect();
        let logs = snapshot.sizes.clone();
        let marked: Vec<(PaneId, u64)> = (snapshot.marks.iter())
            .filter_map(|(id, _)| {
                Some((
                    *id,
                    ws.panes().get(*id)?.history().command_marks().generation(),
                ))
            })
            .collect();
        if self.tx.try_send(Message::Snapshot(snapshot)).is_err() {
            return false;
        }
        for (id, log) in logs {
            self.handed.entry(id).sizes = Some(log);
        }
        for (id, generation) in marked {
            self.handed.entry(id).marks = Some(generation);
        }
        for (id, end) in ends {
            self.handed.entry(id).tail_end = Some(end);
        }
        self.layout = layout;
        for pane in ws.panes().iter() {
            self.handed.entry(pane.id);
        }
        self.handed.retain(|id| ws.panes().get(id).is_some());
        self.handed.set_jobs(|id| ws.panes().job(id).cloned());
        true
    }

    /// The workspace ends with status `code`. A clean quit (below 128: the
    /// user quit, `tilework kill`, the last pane closed) forgets it unless
    /// `keep_on_quit`; a signal (a shutdown, a reboot) saves it as it is.
    /// Waits a little for the saver (the loop is over), well within the
    /// exit watchdog's 3 s.
    pub fn finish(mut self, ws: &Workspace, code: i32) {
        let forget = code < 128 && !self.keep_on_quit;
        let wait = Duration::from_millis(500);
        if let Some(name) = self.renaming.take()
            && !forget
        {
            let _ = self.tx.send_timeout(Message::Rename(name), wait);
        }
        if forget {
            self.dropping
                .store(true, std::sync::atomic::Ordering::Relaxed);
        } else {
            if self.history {
                self.hand_blocks(ws, false);
                self.hand_cuts(ws);
            }
            let snapshot = self.snapshot(ws, true);
            if let Err(err) = self.tx.send_timeout(Message::Snapshot(snapshot), wait) {
                tracing::warn!("the workspace's last state was not saved: {err}");
            }
        }
        let (done_tx, done) = bounded(1);
        let finish = Message::Finish {
            forget,
            done: done_tx,
        };
        if self.tx.send_timeout(finish, wait).is_ok()
            && done.recv_timeout(2 * wait).is_ok()
            && let Some(saver) = self.saver.take()
        {
            let _ = saver.join();
        }
    }
}

fn shape(ws: &Workspace, pane: &crate::pane::Pane) -> PaneShape {
    let ring = pane.history().ring();
    PaneShape {
        id: pane.id,
        history: ws.panes().history_saved(pane.id),
        budget: ring.budget() as u64,
        block_len: ring.block_bytes(),
    }
}

/// The panes in the order a profile of the workspace opens them: tab by
/// tab, the layout's in reading order, then the floating ones bottom to
/// top (see `workspace::profile_save`).
pub fn panes_in_order(ws: &Workspace) -> Vec<PaneId> {
    ws.tabs()
        .iter()
        .flat_map(|tab| {
            let mut ids = tab.layout.panes();
            ids.extend(tab.floats.iter().map(|f| f.id));
            ids
        })
        .collect()
}
