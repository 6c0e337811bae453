//! Bringing a saved workspace back: its layout opened as the profile it was
//! saved as, each pane's history read back from its files (damaged or cut
//! records skipped and noted in the log, never a panic) and put above a
//! `── restored from … ──` line, each shell started again in its directory.
//! Commands come back waiting for Enter, as a saved profile's do, except
//! the programs `restore_commands` lists, which start at once.

use std::path::Path;

use anyhow::{Context, Result};

use crate::config::profile::{self, LayoutSpec, PaneSpec, Profile, StartMode};
use crate::config::{Config, MAX_SCROLLBACK_BYTES};
use crate::pane::history::ring_block::SealedBlock;
use crate::pane::history::scrollback::BLOCK_BYTES;
use crate::pane::history::size_log::SizeLog;
use crate::persist::block_file;
use crate::persist::block_file::MAX_SEGMENT_BYTES;
use crate::persist::dirs;
use crate::persist::manifest::{Manifest, SavedPane, damaged};
use crate::persist::marks_file;
use crate::persist::relaunch::{self, Typed};
use crate::persist::size_file;
use crate::persist::tap::panes_in_order;
use crate::workspace::Workspace;

/// A saved workspace read back.
pub struct Restored {
    pub profile: Profile,
    /// Each pane's history in the profile's order (empty when not saved).
    pub histories: Vec<SavedOutput>,
    /// The sizes each history was printed at, when saved (`size_file`;
    /// none for a workspace saved before they were, or a history with gaps).
    pub sizes: Vec<Option<SizeLog>>,
    /// Each history's commands (`marks_file`; empty when none were saved).
    pub marks: Vec<Vec<crate::pane::history::command_marks::Command>>,
    /// When it was saved last, in seconds since the epoch.
    pub saved_at: i64,
    pub active_tab: usize,
    pub zoomed_tabs: Vec<usize>,
    /// What each pane's shell types once it is up: the job it ran (see
    /// `relaunch`), in the profile's order.
    pub typed: Vec<Option<Typed>>,
    /// The panes' and tabs' ids (none in a save older than them).
    pub ids: Option<crate::workspace::stable_ids::SavedIds>,
}

/// Whether workspace `name` is saved (well or not: a damaged save is
/// said so by [`check`] and [`load`], not taken for no save).
pub fn is_saved(name: &str) -> bool {
    dirs::workspace_dir(name)
        .is_ok_and(|dir| std::fs::symlink_metadata(dir.join(dirs::MANIFEST)).is_ok())
}

/// Whether workspace `name` is saved, and its manifest and layout read
/// back: what `attach` checks before starting a workspace for it, so a
/// damaged save is said on the terminal, not by a workspace that ends at
/// once.
pub fn check(name: &str) -> Result<()> {
    dirs::check_state_dirs()?;
    read_layout(name, crate::config::MAX_MAX_PANES).map(|_| ())
}

/// The manifest of saved workspace `name` and the profile its layout is;
/// refused as damaged when either does not read back, or it has more
/// panes than `max_panes`.
fn read_layout(name: &str, max_panes: usize) -> Result<(Manifest, Profile, std::path::PathBuf)> {
    let dir = dirs::workspace_dir(name)?;
    let read = || -> Result<(Manifest, Profile)> {
        let manifest = Manifest::read(&dir).context("manifest")?;
        if manifest.panes.len() > max_panes {
            anyhow::bail!(
                "{} panes; max_panes allows {max_panes}",
                manifest.panes.len()
            );
        }
        let profile = profile::parse(&manifest.layout, Path::new(name))
            .map_err(|err| anyhow::anyhow!("{err}"))
            .context("layout")?;
        Ok((manifest, profile))
    };
    let (manifest, profile) = read().map_err(|err| damaged(name, &err))?;
    Ok((manifest, profile, dir))
}

/// Reads saved workspace `name` as `config` allows: no more panes than
/// `max_panes`, no pane's history over its `scrollback` (whatever the
/// files claim).
pub fn load(name: &str, config: &Config) -> Result<Restored> {
    let started = std::time::Instant::now();
    dirs::check_state_dirs()?;
    let (manifest, mut profile, dir) = read_layout(name, config.max_panes)?;
    dirs::ensure_private_dir(&dir)?;
    let saving = &config.saving;
    let mut typed = Vec::with_capacity(manifest.panes.len());
    let saved_panes = manifest
        .panes
        .iter()
        .map(Some)
        .chain(std::iter::repeat(None));
    for (pane, saved) in profile_panes(&mut profile).into_iter().zip(saved_panes) {
        if let Some(line) = &pane.command
            && saving.restarts_at_once(line)
        {
            pane.start = StartMode::Auto;
        }
        // A shell pane's job is typed at its prompt; a command pane's own
        // command is the job.
        let job = saved
            .and_then(|s| s.job.as_ref())
            .filter(|_| pane.command.is_none());
        typed.push(job.and_then(|job| relaunch::typed_for(job, pane.cwd.as_deref(), saving)));
    }
    let max_budget = config.scrollback_bytes as u64;
    let mut histories = Vec::with_capacity(manifest.panes.len());
    let mut sizes = Vec::with_capacity(manifest.panes.len());
    let mut marks = Vec::with_capacity(manifest.panes.len());
    for pane in &manifest.panes {
        let (saved, first_block) = read_saved_from(&dir, pane, max_budget);
        sizes.push(sizes_of(&dir, pane, first_block, saved.len() as u64));
        marks.push(read_marks(&dir, pane, first_block, saved.len() as u64));
        histories.push(saved);
    }
    tracing::info!(
        panes = histories.len(),
        bytes = histories.iter().map(SavedOutput::len).sum::<usize>(),
        "read saved workspace {name} in {:?}",
        started.elapsed()
    );
    Ok(Restored {
        profile,
        histories,
        sizes,
        marks,
        saved_at: manifest.saved_at,
        active_tab: manifest.active_tab,
        zoomed_tabs: manifest.zoomed_tabs,
        typed,
        ids: manifest.ids,
    })
}

/// Every pane of `profile`, in the order it opens them.
pub fn profile_panes(profile: &mut Profile) -> Vec<&mut PaneSpec> {
    fn walk<'a>(spec: &'a mut LayoutSpec, out: &mut Vec<&'a mut PaneSpec>) {
        match spec {
            LayoutSpec::Pane(pane) => out.push(pane),
            LayoutSpec::Split { children, .. } => {
                for child in children {
                    walk(child, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for tab in &mut profile.tabs {
        walk(&mut tab.layout, &mut out);
        out.extend(tab.floating.iter_mut());
    }
    out
}

/// A tail is less than one block.
const MAX_TAIL_BYTES: usize = 2 * BLOCK_BYTES;

/// Said in place of a block that could not be read.
const LOST: &[u8] = b"\r\n\x1b[m[tilework: some of this pane's history could not be read]\r\n";

/// A pane's saved output as read back.
pub enum SavedOutput {
    /// Whole blocks as they were stored (compressed), one after the other,
    /// oldest first, each `block_len` bytes of output; then the tail.
    Sealed {
        block_len: usize,
        blocks: Vec<SealedBlock>,
        tail: Vec<u8>,
    },
    /// The output as bytes, with a note where blocks were lost.
    Plain(Vec<u8>),
}

impl SavedOutput {
    /// The output as bytes.
    pub fn to_plain(&self) -> Vec<u8> {
        match self {
            Self::Plain(bytes) => bytes.clone(),
            Self::Sealed {
                block_len,
                blocks,
                tail,
            } => {
                let mut out = Vec::with_capacity(blocks.len() * block_len + tail.len());
                let mut scratch = Vec::new();
                for block in blocks {
                    block.read(*block_len, &mut scratch, |b| out.extend_from_slice(b));
                }
                out.extend_from_slice(tail);
                out
            }
        }
    }

    /// Bytes of output it holds.
    pub fn len(&self) -> usize {
        match self {
            Self::Plain(bytes) => bytes.len(),
            Self::Sealed {
                block_len,
                blocks,
                tail,
            } => blocks.len() * block_len + tail.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A pane's saved output: the newest run of blocks within its budget, a
/// note in place of any that are missing, then the tail.
pub fn read_history(dir: &Path, pane: &SavedPane) -> Vec<u8> {
    read_saved(dir, pane).to_plain()
}

/// As [`read_history`], the blocks left compressed when none is missing.
pub fn read_saved(dir: &Path, pane: &SavedPane) -> SavedOutput {
    read_saved_from(dir, pane, MAX_SCROLLBACK_BYTES as u64).0
}

/// [`read_saved`] with the sizes it was printed at, when they were saved
/// and the history has no gap; at most `max_budget` bytes of it.
#[cfg(test)]
fn read_saved_sized(
    dir: &Path,
    pane: &SavedPane,
    max_budget: u64,
) -> (SavedOutput, Option<SizeLog>) {
    let (saved, first_block) = read_saved_from(dir, pane, max_budget);
    let sizes = sizes_of(dir, pane, first_block, saved.len() as u64);
    (saved, sizes)
}

/// The sizes a history of `len` bytes whose first byte was in block
/// `first_block` was printed at, when saved.
fn sizes_of(dir: &Path, pane: &SavedPane, first_block: Option<u64>, len: u64) -> Option<SizeLog> {
    first_block
        .zip(pane.files.as_deref())
        .and_then(|(first, prefix)| size_file::read(dir, prefix)?.restored(first, len))
}

/// The commands saved with a history of `len` bytes read back, in the
/// restored ring's positions (none when there is a gap or no file).
fn read_marks(
    dir: &Path,
    pane: &SavedPane,
    first_block: Option<u64>,
    len: u64,
) -> Vec<crate::pane::history::command_marks::Command> {
    first_block
        .zip(pane.files.as_deref())
        .and_then(|(first, prefix)| Some(marks_file::read(dir, prefix)?.restored(first, len)))
        .unwrap_or_default()
}

/// [`read_saved`], and the index of the block its first byte was in when
/// there is no gap. What is read is bounded whatever the files say: the
/// pane's budget is at most `max_budget`; segments are read newest first
/// until they hold that much output; each file is at most what tilework
/// writes in one (refused whole if larger); a block claiming more output
/// than a ring's block is not believed.
fn read_saved_from(dir: &Path, pane: &SavedPane, max_budget: u64) -> (SavedOutput, Option<u64>) {
    let Some(prefix) = &pane.files else {
        return (SavedOutput::Plain(Vec::new()), None);
    };
    let budget = pane.budget.min(max_budget);
    let mut segments: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                        n.starts_with(&format!("{prefix}-")) && n.ends_with(".blk")
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    segments.sort();
    let mut blocks = std::collections::BTreeMap::new();
    let mut block_len = 0;
    let mut output = 0u64;
    for path in segments.iter().rev() {
        if output >= budget {
            break;
        }
        let bytes = match dirs::read(path, MAX_SEGMENT_BYTES) {
            Ok(bytes) => bytes,
            Err(err) => {
                tracing::warn!("reading {}: {err}; its history is skipped", path.display());
                continue;
            }
        };
        let (read, skipped) = block_file::decode_all_stored(&bytes);
        if skipped > 0 {
            tracing::warn!(
                "{}: {skipped} damaged or cut records skipped",
                path.display()
            );
        }
        for stored in read {
            if stored.plain_len > BLOCK_BYTES {
                tracing::warn!(
                    "{}: a block claims {} bytes",
                    path.display(),
                    stored.plain_len
                );
                continue;
            }
            block_len = block_len.max(stored.plain_len);
            output += stored.plain_len as u64;
            blocks.insert(stored.index, stored);
        }
    }
    let tail = dirs::read(&dir.join(format!("{prefix}.tail")), MAX_TAIL_BYTES)
        .ok()
        .and_then(|bytes| block_file::decode_all(&bytes).0.into_iter().next())
        .filter(|tail| tail.plain.len() <= BLOCK_BYTES);
    let newest = blocks.keys().next_back().copied();
    let budget_blocks = budget.div_ceil(block_len.max(1) as u64).max(1);
    let Some(newest) = newest else {
        let first = tail.as_ref().map(|t| t.index);
        return (
            SavedOutput::Plain(tail.map(|t| t.plain).unwrap_or_default()),
            first,
        );
    };
    let oldest = newest.saturating_sub(budget_blocks - 1);
    let kept = blocks.split_off(&oldest);
    let first = kept.keys().next().copied().unwrap_or(newest);
    // Older than the blocks (left by a kill between writes): not used.
    let tail = tail.filter(|tail| {
        let newer = tail.index > newest;
        if !newer {
            tracing::debug!("{prefix}: the saved tail is older than its blocks");
        }
        newer
    });
    let whole = u64::try_from(kept.len()).is_ok_and(|n| n == newest - first + 1)
        && kept.values().all(|b| b.plain_len == block_len)
        && tail
            .as_ref()
            .is_none_or(|t| t.index == newest + 1 && t.plain.len() < block_len);
    if whole {
        let sealed = SavedOutput::Sealed {
            block_len,
            blocks: kept.into_values().map(|b| b.block).collect(),
            tail: tail.map(|t| t.plain).unwrap_or_default(),
        };
        return (sealed, Some(first));
    }
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    let mut next = first;
    for (&k, stored) in &kept {
        // One note for each run of missing blocks.
        if k != next {
            out.extend_from_slice(LOST);
        }
        stored
            .block
            .read(stored.plain_len, &mut scratch, |b| out.extend_from_slice(b));
        next = k + 1;
    }
    if let Some(tail) = tail {
        // Blocks before it were lost (a cut or damaged file).
        if tail.index > newest + 1 {
            out.extend_from_slice(LOST);
        }
        out.extend_from_slice(&tail.plain);
    }
    (SavedOutput::Plain(out), None)
}

/// The line between the saved history and the new output.
pub fn marker(saved_at: i64) -> Vec<u8> {
    let when = jiff::Timestamp::from_second(saved_at)
        .map(|t| {
            t.to_zoned_datetime(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| "an earlier run".to_string());
    format!("\r\n\x1b[2m── restored from {when} ──\x1b[m\r\n").into_bytes()
}

impl Restored {
    /// Opens the saved layout in `ws` (empty) and puts each pane's history
    /// back.
    pub fn open(&self, ws: &mut Workspace) {
        let started = std::time::Instant::now();
        if let Some(ids) = &self.ids {
            crate::workspace::stable_ids::expect(ws, ids);
        }
        ws.open_profile(&self.profile);
        if let Some(ids) = &self.ids {
            crate::workspace::stable_ids::adopt_tabs(ws, ids);
        }
        let marker = marker(self.saved_at);
        let sizes = self.sizes.iter().cloned().chain(std::iter::repeat(None));
        let mut marks = self.marks.iter();
        for ((id, history), sizes) in panes_in_order(ws)
            .into_iter()
            .zip(&self.histories)
            .zip(sizes)
        {
            let commands = marks.next().cloned().unwrap_or_default();
            let Some(pane) = ws.panes_mut().get_mut(id) else {
                continue;
            };
            pane.history_mut().adopt_commands(commands);
            if let Some(sizes) = sizes {
                pane.history_mut().adopt_size_log(sizes);
            }
            let taken = match history {
                SavedOutput::Sealed {
                    block_len,
                    blocks,
                    tail,
                } => pane.restore_sealed_history(*block_len, blocks.clone(), tail, &marker),
                SavedOutput::Plain(_) => false,
            };
            if !taken {
                pane.restore_history(&history.to_plain(), &marker);
            }
        }
        for (id, typed) in panes_in_order(ws).into_iter().zip(&self.typed) {
            if let Some(typed) = typed {
                ws.panes_mut().type_at_prompt(id, typed.keys());
            }
        }
        for &tab in &self.zoomed_tabs {
            if ws.tabs_mut().select(tab) || ws.tabs().active() == tab {
                ws.apply(crate::config::action::Action::ToggleZoom);
            }
        }
        ws.tabs_mut().select(self.active_tab);
        tracing::info!("reopened the saved workspace in {:?}", started.elapsed());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A pane's files holding blocks `indices` (8 bytes each, `a`, `b`, …
    /// by index) and a tail after the last.
    fn saved(indices: &[u64]) -> (tempfile::TempDir, SavedPane, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let mut segment = Vec::new();
        let mut output = Vec::new();
        for &k in indices {
            let plain = vec![b'a' + k as u8; 8];
            let packed = lz4_flex::block::compress(&plain);
            block_file::encode(k, 8, true, &packed, &mut segment);
            output.extend_from_slice(&plain);
        }
        std::fs::write(dir.path().join("r-p1-000000.blk"), segment).unwrap();
        let mut tail = Vec::new();
        let next = indices.last().map_or(0, |k| k + 1);
        block_file::encode(next, 3, false, b"end", &mut tail);
        std::fs::write(dir.path().join("r-p1.tail"), tail).unwrap();
        output.extend_from_slice(b"end");
        let pane = SavedPane {
            files: Some("r-p1".into()),
            budget: 1 << 20,
            job: None,
        };
        (dir, pane, output)
    }

    #[test]
    fn whole_blocks_come_back_compressed_and_a_gap_as_bytes_with_a_note() {
        let (dir, pane, output) = saved(&[0, 1, 2, 3]);
        let read = read_saved(dir.path(), &pane);
        assert!(
            matches!(&read, SavedOutput::Sealed { block_len: 8, blocks, tail }
                if blocks.len() == 4 && blocks.iter().all(SealedBlock::is_compressed) && tail == b"end"),
            "not handed back as blocks"
        );
        assert_eq!(read.to_plain(), output);

        let (dir, pane, _) = saved(&[0, 1, 3]);
        let read = read_saved(dir.path(), &pane);
        let SavedOutput::Plain(bytes) = read else {
            panic!("a history with a gap handed back as blocks");
        };
        let expected = [&b"aaaaaaaabbbbbbbb"[..], LOST, b"dddddddd", b"end"].concat();
        assert_eq!(bytes, expected);
    }

    #[test]
    fn what_the_files_claim_is_bounded_by_the_budget_and_the_block_size() {
        let dir = tempfile::tempdir().unwrap();
        // Blocks claiming 16 MiB of output each (zeros, a few KiB packed):
        // not believed, none of it taken.
        let mut segment = Vec::new();
        let huge = vec![0u8; 16 << 20];
        let packed = lz4_flex::block::compress(&huge);
        for k in 0..8 {
            block_file::encode(k, huge.len(), true, &packed, &mut segment);
        }
        std::fs::write(dir.path().join("h-p1-000000.blk"), segment).unwrap();
        let pane = |files: &str, budget| SavedPane {
            files: Some(files.into()),
            budget,
            job: None,
        };
        assert_eq!(read_saved(dir.path(), &pane("h-p1", u64::MAX)).len(), 0);
        // Real blocks with a budget claiming everything: no more than the
        // config's scrollback is taken, from the newest segments only.
        for seg in 0..3u64 {
            let mut segment = Vec::new();
            for k in seg * 32..(seg + 1) * 32 {
                let plain = vec![b'a' + (k % 26) as u8; BLOCK_BYTES];
                let packed = lz4_flex::block::compress(&plain);
                block_file::encode(k, BLOCK_BYTES, true, &packed, &mut segment);
            }
            let name = format!("r-p1-{seg:06}.blk");
            std::fs::write(dir.path().join(name), segment).unwrap();
        }
        let (read, first) = read_saved_from(dir.path(), &pane("r-p1", u64::MAX), 1 << 20);
        assert_eq!(read.len(), 1 << 20);
        assert_eq!(first, Some(96 - 16));
        // A segment far larger than tilework writes is not read at all.
        let big = std::fs::File::create(dir.path().join("r-p1-000003.blk")).unwrap();
        big.set_len(300 << 20).unwrap();
        let (read, first) = read_saved_from(dir.path(), &pane("r-p1", 2 << 20), 1 << 30);
        assert_eq!((read.len(), first), (2 << 20, Some(96 - 32)));
    }

    #[test]
    fn fifos_planted_as_history_files_are_skipped_without_waiting() {
        let (dir, pane, _) = saved(&[0, 1]);
        for name in ["r-p1-000001.blk", "r-p1.tail", "r-p1.sizes"] {
            let path = dir.path().join(name);
            let _ = std::fs::remove_file(&path);
            nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        }
        let (tx, rx) = crossbeam_channel::bounded(1);
        let path = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let _ = tx.send(read_saved_sized(&path, &pane, 1 << 20).0.to_plain());
        });
        let read = rx.recv_timeout(std::time::Duration::from_secs(30));
        // A stuck reader is freed by writers, so the test ends either way.
        for name in ["r-p1-000001.blk", "r-p1.tail", "r-p1.sizes"] {
            use std::os::unix::fs::OpenOptionsExt as _;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(nix::libc::O_NONBLOCK)
                .open(dir.path().join(name));
        }
        assert_eq!(read.expect("reading the history hung"), b"aaaaaaaabbbbbbbb");
    }

    #[test]
    fn saved_sizes_come_back_from_the_first_block_read_and_none_without_a_file() {
        use crate::pane::history::size_log::SizeLog;
        use crate::persist::size_file::{self, SavedSizes};
        // Saved before sizes were: replayed at one size, as then.
        let (dir, pane, _) = saved(&[2, 3, 4]);
        assert!(read_saved_sized(dir.path(), &pane, 1 << 20).1.is_none());
        // Printed at 120 columns, then at 60 from position 28 (block 3's
        // fifth byte); restored from block 2 (position 16) on.
        let mut log = SizeLog::new(24, 120);
        log.record(28, 24, 60, 0);
        size_file::write(dir.path(), "r-p1", &SavedSizes::of(&log, 8)).unwrap();
        let (_, sizes) = read_saved_sized(dir.path(), &pane, 1 << 20);
        let stretches = sizes.unwrap().stretches(0, 27);
        let cols: Vec<(u64, u64, u16)> =
            stretches.iter().map(|s| (s.start, s.end, s.cols)).collect();
        assert_eq!(cols, [(0, 12, 120), (12, 27, 60)]);
        // A history with a gap: where its bytes were printed is not known.
        let (dir, pane, _) = saved(&[0, 1, 3]);
        size_file::write(dir.path(), "r-p1", &SavedSizes::of(&log, 8)).unwrap();
        assert!(read_saved_sized(dir.path(), &pane, 1 << 20).1.is_none());
    }
}
