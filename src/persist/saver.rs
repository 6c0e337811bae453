//! The saver thread: everything persisting writes is written here, never on
//! the loop's thread. It is handed sealed blocks (shared with the ring, not
//! copied) and debounced snapshots of the layout and the panes' unsealed
//! tails over a bounded channel, and writes only what it is handed: an
//! idle workspace hands nothing, so nothing is written.
//!
//! Each pane's blocks are appended to segment files of
//! [`SEGMENT_BLOCKS`] blocks; a segment whose blocks are all older than
//! the pane's `scrollback` budget is deleted, so the files are a ring like
//! the memory one (at most the budget, compressed, plus one segment). A
//! write that fails (a full disk) stops the saving for this run and says
//! so once; the workspace carries on.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::{Receiver, Sender};

use crate::mailbox::Mailbox;

use crate::pane::PaneId;
use crate::pane::history::ring_block::SealedBlock;
use crate::persist::dirs;
use crate::persist::erase;
use crate::persist::manifest::{Manifest, SavedPane, VERSION};
use crate::persist::size_file::{self, SavedSizes};
use crate::persist::waiting::{self, Weight};
use crate::workspace::foreground::Job;

pub use crate::persist::block_file::SEGMENT_BLOCKS;

/// How long the saver lets blocks gather after writing some. A kill loses
/// the blocks sealed in that time (during a flood ~1 MiB of output; at a
/// shell, at most the one block a command's output sealed, if the kill
/// comes within this time of it) besides the unsealed tail.
pub const BATCH_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

/// A batch's blocks are written once this many of their bytes are
/// gathered. The buffer they gather in lives as long as the thread, at
/// the size of the biggest batch: a whole segment's (~1 MiB of resident
/// memory) when it gathered a flood's blocks before one write.
const WRITE_CHUNK: usize = 128 * 1024;

pub enum Message {
    /// Blocks the pane's ring sealed, oldest first, by index.
    /// `weight` counts their bytes as waiting until they are written.
    Blocks {
        pane: PaneShape,
        blocks: Vec<(u64, SealedBlock)>,
        weight: Weight,
    },
    Snapshot(Snapshot),
    /// The pane's output before `at` was erased (ED 3) or forgotten: it
    /// leaves the disk, and the tail (its block index, its bytes as they
    /// are now) is written again without it.
    Cut {
        pane: PaneShape,
        at: u64,
        tail: (u64, Vec<u8>),
    },
    /// The workspace was renamed (`C-b $`): its directory follows, so a
    /// crash after it comes back under the new name.
    Rename(String),
    /// The workspace ends: forget it, or keep what was written; then say
    /// so on `done`.
    Finish {
        forget: bool,
        done: Sender<()>,
    },
}

/// The workspace as it is now.
pub struct Snapshot {
    pub saved_at: i64,
    pub layout: String,
    /// Every pane in the profile's order.
    pub panes: Vec<PaneShape>,
    /// The job each pane's shell runs, in the same order.
    pub jobs: Vec<Option<Job>>,
    pub active_tab: usize,
    pub zoomed_tabs: Vec<usize>,
    /// Tails that changed: the pane, the index of the block they start,
    /// their bytes.
    pub tails: Vec<(PaneId, u64, Vec<u8>)>,
    /// Size logs that changed (see `size_file`).
    pub sizes: Vec<(PaneId, SavedSizes)>,
    /// Commands that changed (see `marks_file`).
    pub marks: Vec<(PaneId, crate::persist::marks_file::SavedMarks)>,
    /// The panes' and tabs' ids.
    pub ids: Option<crate::workspace::stable_ids::SavedIds>,
}

/// A pane's history ring as the files follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaneShape {
    pub id: PaneId,
    /// Its output is written (not `save = false`, `--no-save`).
    pub history: bool,
    /// Bytes of output kept.
    pub budget: u64,
    /// Bytes of output per block.
    pub block_len: usize,
}

/// The files of one pane's history.
struct PaneFiles {
    prefix: String,
    budget_blocks: u64,
    file: Option<File>,
    in_file: usize,
    next_seq: u64,
    /// Segment files, oldest first.
    segments: VecDeque<Segment>,
    /// Output before this position is not written (see `erase`).
    cut: u64,
}

/// A segment file and the first and newest block index it holds.
struct Segment {
    path: PathBuf,
    first: u64,
    newest: u64,
}

pub struct Saver {
    dir: PathBuf,
    /// Set when the workspace is forgotten: what is still queued is
    /// dropped unwritten.
    dropping: Arc<AtomicBool>,
    run: String,
    /// Whether history is saved at all (`persist_history`).
    history: bool,
    panes: HashMap<PaneId, PaneFiles>,
    /// Files of earlier runs were deleted (once this run's manifest is
    /// written, nothing refers to them).
    cleaned: bool,
    stopped: bool,
    problems: Mailbox<String>,
    scratch: Vec<u8>,
}

impl Saver {
    pub fn new(dir: PathBuf, run: String, history: bool, problems: Mailbox<String>) -> Self {
        Self {
            dir,
            dropping: Arc::default(),
            run,
            history,
            panes: HashMap::new(),
            cleaned: false,
            stopped: false,
            problems,
            scratch: Vec::new(),
        }
    }

    /// Set to drop what is still queued (the workspace is being forgotten).
    pub fn dropping(&self) -> Arc<AtomicBool> {
        self.dropping.clone()
    }

    /// Writes what `rx` hands over until the workspace ends.
    ///
    /// Blocks are written in batches: after a message with blocks the
    /// thread pauses [`BATCH_PAUSE`], then takes everything queued at once,
    /// a pane's consecutive blocks in one write. Woken once per block, as
    /// it was, a flood cost ~1,900 wake-ups (a futex call on the loop's
    /// side, a context switch and crossbeam's yields here) and as many
    /// writes for its ~1,900 blocks.
    pub fn run(mut self, rx: Receiver<Message>) {
        let slowness = waiting::test_slowness();
        while let Ok(first) = rx.recv() {
            if let Some(pause) = slowness {
                std::thread::sleep(pause);
            }
            let mut batch = vec![first];
            batch.extend(rx.try_iter());
            let mut blocks_seen = false;
            let mut pending: Option<Message> = None;
            for message in batch {
                // A pane's consecutive blocks go out together.
                if let Message::Blocks {
                    pane,
                    blocks,
                    weight,
                } = message
                {
                    blocks_seen = true;
                    match &mut pending {
                        Some(Message::Blocks {
                            pane: shape,
                            blocks: queued,
                            weight: queued_weight,
                        }) if *shape == pane => {
                            queued.extend(blocks);
                            queued_weight.absorb(weight);
                        }
                        _ => {
                            let next = Message::Blocks {
                                pane,
                                blocks,
                                weight,
                            };
                            if let Some(queued) = pending.replace(next) {
                                self.handle(queued);
                            }
                        }
                    }
                    continue;
                }
                if let Some(queued) = pending.take() {
                    self.handle(queued);
                }
                if let Message::Finish { forget, done } = message {
                    self.finish(forget);
                    let _ = done.send(());
                    return;
                }
                self.handle(message);
            }
            if let Some(queued) = pending.take() {
                self.handle(queued);
            }
            if blocks_seen {
                std::thread::sleep(BATCH_PAUSE);
            }
        }
    }

    /// Writes one message's worth (a finish is handled by `run`).
    fn handle(&mut self, message: Message) {
        if self.dropping.load(Ordering::Relaxed) {
            return;
        }
        // Even when saving stopped: what was saved goes by the new name.
        if let Message::Rename(name) = &message {
            self.rename(name);
            return;
        }
        if self.stopped {
            return;
        }
        let written = match message {
            Message::Blocks { pane, blocks, .. } => self.append(pane, &blocks),
            Message::Snapshot(snapshot) => self.snapshot(snapshot),
            Message::Cut { pane, at, tail } => self.cut(pane, at, &tail),
            Message::Rename(_) | Message::Finish { .. } => Ok(()),
        };
        if let Err(err) = written {
            self.stop(&err);
        }
    }

    fn stop(&mut self, err: &io::Error) {
        self.stopped = true;
        let why = if err.raw_os_error() == Some(nix::libc::ENOSPC) {
            "the disk is full".to_string()
        } else {
            err.to_string()
        };
        tracing::warn!(
            "saving the workspace in {}: {err}; saving stops",
            self.dir.display()
        );
        self.problems
            .post(format!("workspace no longer saved: {why}"));
    }

    fn rename(&mut self, name: &str) {
        match dirs::rename_workspace_dir(&self.dir, name) {
            Ok(dir) => {
                // Open files moved with it; the paths kept for deleting
                // old segments follow.
                for files in self.panes.values_mut() {
                    for segment in &mut files.segments {
                        if let Some(file) = segment.path.file_name() {
                            segment.path = dir.join(file);
                        }
                    }
                }
                self.dir = dir;
            }
            Err(err) => {
                tracing::warn!("renaming the saved workspace: {err:#}");
                self.problems
                    .post(format!("saved workspace not renamed: {err:#}"));
            }
        }
    }

    fn finish(&mut self, forget: bool) {
        self.panes.clear();
        if forget && let Err(err) = dirs::remove_workspace_dir(&self.dir) {
            tracing::warn!("forgetting {}: {err:#}", self.dir.display());
        }
    }

    fn pane_files(&mut self, pane: PaneShape) -> &mut PaneFiles {
        let run = &self.run;
        self.panes.entry(pane.id).or_insert_with(|| PaneFiles {
            prefix: format!("{run}-p{}", pane.id.0),
            budget_blocks: pane.budget.div_ceil(pane.block_len.max(1) as u64).max(1),
            file: None,
            in_file: 0,
            next_seq: 0,
            segments: VecDeque::new(),
            cut: 0,
        })
    }

    fn append(&mut self, pane: PaneShape, blocks: &[(u64, SealedBlock)]) -> io::Result<()> {
        if !self.history {
            return Ok(());
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let dir = self.dir.clone();
        let files = self.pane_files(pane);
        let result = files.append(&dir, pane.block_len, blocks, &mut scratch);
        self.scratch = scratch;
        result
    }

    /// The pane's output before `at` leaves the disk (see `erase`).
    fn cut(&mut self, pane: PaneShape, at: u64, tail: &(u64, Vec<u8>)) -> io::Result<()> {
        if !self.history {
            return Ok(());
        }
        let dir = self.dir.clone();
        let files = self.pane_files(pane);
        files.cut_before(pane.block_len, at)?;
        let path = dir.join(format!("{}.tail", files.prefix));
        let mut record = Vec::new();
        erase::encode_tail(tail.0, pane.block_len, &tail.1, files.cut, &mut record);
        dirs::write_atomically(&path, &record)
    }

    fn snapshot(&mut self, snapshot: Snapshot) -> io::Result<()> {
        let mut panes = Vec::with_capacity(snapshot.panes.len());
        let jobs = snapshot.jobs.iter().cloned().chain(std::iter::repeat(None));
        for (&pane, job) in snapshot.panes.iter().zip(jobs) {
            let files =
                (self.history && pane.history).then(|| self.pane_files(pane).prefix.clone());
            panes.push(SavedPane {
                files,
                budget: pane.budget,
                job,
            });
        }
        for (id, index, bytes) in &snapshot.tails {
            let shape = snapshot.panes.iter().find(|p| p.id == *id);
            if let (Some(files), Some(shape)) = (self.panes.get(id), shape) {
                self.scratch.clear();
                erase::encode_tail(*index, shape.block_len, bytes, files.cut, &mut self.scratch);
                let path = self.dir.join(format!("{}.tail", files.prefix));
                dirs::write_atomically(&path, &self.scratch)?;
            }
        }
        for (id, sizes) in &snapshot.sizes {
            if let Some(files) = self.panes.get(id) {
                size_file::write(&self.dir, &files.prefix, sizes)?;
            }
        }
        for (id, marks) in &snapshot.marks {
            if let Some(files) = self.panes.get(id) {
                crate::persist::marks_file::write(&self.dir, &files.prefix, marks)?;
            }
        }
        for files in self.panes.values_mut() {
            if let Some(file) = &files.file {
                file.sync_data()?;
            }
        }
        let manifest = Manifest {
            version: VERSION,
            saved_at: snapshot.saved_at,
            layout: snapshot.layout,
            panes,
            active_tab: snapshot.active_tab,
            zoomed_tabs: snapshot.zoomed_tabs,
            ids: snapshot.ids,
        };
        manifest.write(&self.dir)?;
        // Panes that closed: their history goes with them.
        let open: Vec<PaneId> = snapshot.panes.iter().map(|p| p.id).collect();
        let closed: Vec<PaneId> = self
            .panes
            .keys()
            .filter(|id| !open.contains(id))
            .copied()
            .collect();
        for id in closed {
            if let Some(files) = self.panes.remove(&id) {
                let (dot, dash) = (format!("{}.", files.prefix), format!("{}-", files.prefix));
                remove_files(&self.dir, |name| {
                    name.starts_with(&dot) || name.starts_with(&dash)
                });
            }
        }
        if !self.cleaned {
            self.cleaned = true;
            let run = format!("{}-", self.run);
            remove_files(&self.dir, |name| {
                name != dirs::MANIFEST && !name.starts_with(&run)
            });
        }
        Ok(())
    }
}

impl PaneFiles {
    fn append(
        &mut self,
        dir: &Path,
        block_len: usize,
        blocks: &[(u64, SealedBlock)],
        scratch: &mut Vec<u8>,
    ) -> io::Result<()> {
        let Some(&(newest, _)) = blocks.last() else {
            return Ok(());
        };
        scratch.clear();
        for (index, block) in blocks {
            if self.file.is_none() || self.in_file >= SEGMENT_BLOCKS {
                // What the segment being left gets goes in one write.
                self.write_out(scratch)?;
                let path = dir.join(format!("{}-{:06}.blk", self.prefix, self.next_seq));
                self.next_seq += 1;
                self.file = Some(dirs::create_new(&path)?);
                self.in_file = 0;
                self.segments.push_back(Segment {
                    path,
                    first: *index,
                    newest: *index,
                });
            }
            erase::encode_block(*index, block_len, block, self.cut, scratch);
            self.in_file += 1;
            if let Some(last) = self.segments.back_mut() {
                last.newest = *index;
            }
            if scratch.len() >= WRITE_CHUNK {
                self.write_out(scratch)?;
            }
        }
        self.write_out(scratch)?;
        // Segments wholly older than the budget are let go, as the ring
        // lets its blocks go.
        let oldest_kept = newest.saturating_sub(self.budget_blocks);
        while self.segments.len() > 1
            && self
                .segments
                .front()
                .is_some_and(|s| s.newest < oldest_kept)
        {
            if let Some(segment) = self.segments.pop_front() {
                std::fs::remove_file(&segment.path)?;
            }
        }
        Ok(())
    }

    /// Nothing before `at` is kept: segments wholly before it are deleted,
    /// the one it falls in written again without it, and the next block
    /// starts a new segment (the open one may have been replaced).
    fn cut_before(&mut self, block_len: usize, at: u64) -> io::Result<()> {
        self.cut = self.cut.max(at);
        self.file = None;
        let mut kept = VecDeque::with_capacity(self.segments.len());
        for segment in self.segments.drain(..) {
            if erase::before_cut(segment.newest, block_len, self.cut) >= block_len {
                std::fs::remove_file(&segment.path)?;
            } else {
                if erase::before_cut(segment.first, block_len, self.cut) > 0 {
                    erase::cut_segment(&segment.path, block_len, self.cut)?;
                }
                kept.push_back(segment);
            }
        }
        self.segments = kept;
        Ok(())
    }

    /// Appends the records gathered in `scratch` to the open segment.
    fn write_out(&mut self, scratch: &mut Vec<u8>) -> io::Result<()> {
        if let Some(file) = &mut self.file
            && !scratch.is_empty()
        {
            file.write_all(scratch)?;
        }
        scratch.clear();
        Ok(())
    }
}

/// Deletes the files of `dir` whose names `doomed` picks (errors only
/// logged: a file left over is read and dropped next time).
fn remove_files(dir: &Path, doomed: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if let Some(name) = entry.file_name().to_str()
            && doomed(name)
            && let Err(err) = std::fs::remove_file(entry.path())
        {
            tracing::warn!("deleting {}: {err}", entry.path().display());
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_stops_saving_and_says_so_once() {
        let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = told.clone();
        let mailbox = Mailbox::new(move |m| {
            sink.lock().unwrap().push(m);
            true
        });
        let dir = tempfile::tempdir().unwrap();
        let mut saver = Saver::new(dir.path().to_path_buf(), "r".into(), true, mailbox);
        saver.stop(&io::Error::from_raw_os_error(nix::libc::ENOSPC));
        assert!(saver.stopped);
        assert_eq!(
            *told.lock().unwrap(),
            ["workspace no longer saved: the disk is full"]
        );
    }

    #[test]
    fn blocks_gathered_in_one_batch_read_back_whole_and_in_order_per_pane() {
        let dir = tempfile::tempdir().unwrap();
        let saver = Saver::new(
            dir.path().to_path_buf(),
            "r".into(),
            true,
            Mailbox::discarding(),
        );
        let shape = |id| PaneShape {
            id: PaneId(id),
            history: true,
            budget: 1 << 20,
            block_len: 8,
        };
        let text = |id: u32, k: u64| format!("p{id}b{k:04}").into_bytes();
        let block = |id, k| (k, SealedBlock::Plain(std::sync::Arc::new(text(id, k))));
        // Everything queued before the thread starts: one batch, the two
        // panes' blocks interleaved, across segment ends, a snapshot last.
        let (tx, rx) = crossbeam_channel::unbounded();
        let n = SEGMENT_BLOCKS as u64 * 2 + 3;
        for k in 0..n {
            for id in [1, 2] {
                let blocks = vec![block(id, 2 * k), block(id, 2 * k + 1)];
                let pane = shape(id);
                let weight = Weight::default();
                tx.send(Message::Blocks {
                    pane,
                    blocks,
                    weight,
                })
                .unwrap();
            }
        }
        tx.send(Message::Snapshot(Snapshot {
            saved_at: 0,
            layout: String::new(),
            panes: vec![shape(1), shape(2)],
            active_tab: 0,
            zoomed_tabs: Vec::new(),
            jobs: Vec::new(),
            tails: Vec::new(),
            sizes: Vec::new(),
            marks: Vec::new(),
            ids: None,
        }))
        .unwrap();
        let (done_tx, done) = crossbeam_channel::bounded(1);
        tx.send(Message::Finish {
            forget: false,
            done: done_tx,
        })
        .unwrap();
        std::thread::spawn(move || saver.run(rx));
        done.recv().unwrap();
        let manifest = Manifest::read(dir.path()).unwrap();
        for (pane, id) in manifest.panes.iter().zip([1, 2]) {
            let history = crate::persist::restore::read_history(dir.path(), pane);
            let expected: Vec<u8> = (0..2 * n).flat_map(|k| text(id, k)).collect();
            assert_eq!(String::from_utf8(history), String::from_utf8(expected));
        }
    }

    #[test]
    fn a_cut_deletes_the_segments_before_it_and_blanks_the_block_it_falls_in() {
        let dir = tempfile::tempdir().unwrap();
        let mut saver = Saver::new(
            dir.path().to_path_buf(),
            "r".into(),
            true,
            Mailbox::discarding(),
        );
        let pane = PaneShape {
            id: PaneId(1),
            history: true,
            budget: 1 << 20,
            block_len: 8,
        };
        let block = |k: u64| {
            let text = format!("blk{k:05}").into_bytes();
            (k, SealedBlock::Plain(std::sync::Arc::new(text)))
        };
        let n = SEGMENT_BLOCKS as u64 * 2 + 5;
        for k in 0..n {
            saver.append(pane, &[block(k)]).unwrap();
        }
        // Cut 3 bytes into the first block of the second segment.
        let at = SEGMENT_BLOCKS as u64 * 8 + 3;
        let tail = (n, b"tail".to_vec());
        saver.cut(pane, at, &tail).unwrap();
        // The next block goes to a new segment (the open one was replaced).
        saver.append(pane, &[block(n)]).unwrap();
        saver
            .snapshot(Snapshot {
                saved_at: 0,
                layout: String::new(),
                panes: vec![pane],
                jobs: Vec::new(),
                active_tab: 0,
                zoomed_tabs: Vec::new(),
                tails: vec![(pane.id, n + 1, b"end".to_vec())],
                sizes: Vec::new(),
                marks: Vec::new(),
                ids: None,
            })
            .unwrap();
        let manifest = Manifest::read(dir.path()).unwrap();
        let history = crate::persist::restore::read_history(dir.path(), &manifest.panes[0]);
        let first = SEGMENT_BLOCKS as u64;
        let mut expected = [&[0u8; 3][..], b"00032"].concat();
        expected.extend((first + 1..=n).flat_map(|k| format!("blk{k:05}").into_bytes()));
        expected.extend_from_slice(b"end");
        assert_eq!(
            String::from_utf8_lossy(&history),
            String::from_utf8_lossy(&expected)
        );
        assert!(!dir.path().join("r-p1-000000.blk").exists());
    }

    #[test]
    fn the_files_stay_within_the_budget_and_a_closed_pane_takes_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut saver = Saver::new(
            dir.path().to_path_buf(),
            "r".into(),
            true,
            Mailbox::discarding(),
        );
        let pane = PaneShape {
            id: PaneId(1),
            history: true,
            budget: 4 * 8,
            block_len: 8,
        };
        let block = |k: u64| {
            (
                k,
                SealedBlock::Plain(std::sync::Arc::new(vec![b'a' + k as u8; 8])),
            )
        };
        for k in 0..(SEGMENT_BLOCKS as u64 * 3) {
            saver.append(pane, &[block(k)]).unwrap();
        }
        let segments = |dir: &Path| {
            std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "blk"))
                .count()
        };
        // The budget is 4 blocks: the newest segment and the one before.
        assert!(segments(dir.path()) <= 2, "{}", segments(dir.path()));
        let snapshot = |panes| Snapshot {
            saved_at: 0,
            layout: String::new(),
            panes,
            active_tab: 0,
            zoomed_tabs: Vec::new(),
            jobs: Vec::new(),
            tails: Vec::new(),
            sizes: Vec::new(),
            marks: Vec::new(),
            ids: None,
        };
        saver.snapshot(snapshot(vec![pane])).unwrap();
        assert!(segments(dir.path()) > 0);
        saver.snapshot(snapshot(Vec::new())).unwrap();
        assert_eq!(segments(dir.path()), 0);
    }
}
