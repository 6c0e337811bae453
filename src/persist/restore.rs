//! Bringing a saved workspace back: its layout opened as the profile it was
//! saved as, each pane's history read back from its files (damaged or cut
//! records skipped and noted in the log, never a panic) and put above a
//! `── restored from … ──` line, each shell started again in its directory.
//! Commands come back waiting for Enter, as a saved profile's do, except
//! the programs `restore_commands` lists, which start at once.

use std::path::Path;

use anyhow::{Context, Result};

use crate::config::profile::{self, LayoutSpec, PaneSpec, Profile, StartMode};
use crate::config::saving::Saving;
use crate::pane::ring_block::SealedBlock;
use crate::pane::size_log::SizeLog;
use crate::persist::block_file;
use crate::persist::manifest::{Manifest, SavedPane};
use crate::persist::marks_file;
use crate::persist::place;
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
    pub marks: Vec<Vec<crate::pane::command_marks::Command>>,
    /// When it was saved last, in seconds since the epoch.
    pub saved_at: i64,
    pub active_tab: usize,
    pub zoomed_tabs: Vec<usize>,
}

/// Whether workspace `name` is saved.
pub fn is_saved(name: &str) -> bool {
    place::workspace_dir(name).is_ok_and(|dir| dir.join(place::MANIFEST).is_file())
}

/// Reads saved workspace `name`.
pub fn load(name: &str, saving: &Saving) -> Result<Restored> {
    let started = std::time::Instant::now();
    let dir = place::workspace_dir(name)?;
    place::ensure_private_dir(&dir)?;
    let manifest = Manifest::read(&dir)?;
    let mut profile = profile::parse(&manifest.layout, Path::new(name))
        .map_err(|err| anyhow::anyhow!("{err}"))
        .with_context(|| format!("reading the layout saved in {}", dir.display()))?;
    for pane in profile_panes(&mut profile) {
        if let Some(line) = &pane.command
            && saving.restarts_at_once(line)
        {
            pane.start = StartMode::Auto;
        }
    }
    let mut histories = Vec::with_capacity(manifest.panes.len());
    let mut sizes = Vec::with_capacity(manifest.panes.len());
    let mut marks = Vec::with_capacity(manifest.panes.len());
    for pane in &manifest.panes {
        let (saved, first_block) = read_saved_from(&dir, pane);
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
    })
}

/// Every pane of `profile`, in the order it opens them.
fn profile_panes(profile: &mut Profile) -> Vec<&mut PaneSpec> {
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
    read_saved_from(dir, pane).0
}

/// [`read_saved`] with the sizes it was printed at, when they were saved
/// and the history has no gap.
#[cfg(test)]
fn read_saved_sized(dir: &Path, pane: &SavedPane) -> (SavedOutput, Option<SizeLog>) {
    let (saved, first_block) = read_saved_from(dir, pane);
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
) -> Vec<crate::pane::command_marks::Command> {
    first_block
        .zip(pane.files.as_deref())
        .and_then(|(first, prefix)| Some(marks_file::read(dir, prefix)?.restored(first, len)))
        .unwrap_or_default()
}

/// [`read_saved`], and the index of the block its first byte was in when
/// there is no gap.
fn read_saved_from(dir: &Path, pane: &SavedPane) -> (SavedOutput, Option<u64>) {
    let Some(prefix) = &pane.files else {
        return (SavedOutput::Plain(Vec::new()), None);
    };
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
    for path in &segments {
        let bytes = match place::read(path) {
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
            block_len = block_len.max(stored.plain_len);
            blocks.insert(stored.index, stored);
        }
    }
    let tail = place::read(&dir.join(format!("{prefix}.tail")))
        .ok()
        .and_then(|bytes| block_file::decode_all(&bytes).0.into_iter().next());
    let newest = blocks.keys().next_back().copied();
    let budget_blocks = pane.budget.div_ceil(block_len.max(1) as u64).max(1);
    let Some(newest) = newest else {
        let first = tail.as_ref().map(|t| t.index);
        return (
            SavedOutput::Plain(tail.map(|t| t.plain).unwrap_or_default()),
            first,
        );
    };
    let oldest = newest.saturating_sub(budget_blocks - 1);
    let first = blocks.range(oldest..).next().map_or(newest, |(k, _)| *k);
    // Older than the blocks (left by a kill between writes): not used.
    let tail = tail.filter(|tail| {
        let newer = tail.index > newest;
        if !newer {
            tracing::debug!("{prefix}: the saved tail is older than its blocks");
        }
        newer
    });
    let whole = (first..=newest).all(|k| blocks.get(&k).is_some_and(|b| b.plain_len == block_len))
        && tail
            .as_ref()
            .is_none_or(|t| t.index == newest + 1 && t.plain.len() < block_len);
    if whole {
        let sealed = SavedOutput::Sealed {
            block_len,
            blocks: (first..=newest)
                .filter_map(|k| blocks.remove(&k).map(|b| b.block))
                .collect(),
            tail: tail.map(|t| t.plain).unwrap_or_default(),
        };
        return (sealed, Some(first));
    }
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    for k in first..=newest {
        match blocks.get(&k) {
            Some(stored) => {
                stored
                    .block
                    .read(stored.plain_len, &mut scratch, |b| out.extend_from_slice(b));
            }
            None => out.extend_from_slice(LOST),
        }
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
        ws.open_profile(&self.profile);
        let marker = marker(self.saved_at);
        let sizes = self.sizes.iter().cloned().chain(std::iter::repeat(None));
        let mut marks = self.marks.iter();
        for ((id, history), sizes) in panes_in_order(ws)
            .into_iter()
            .zip(&self.histories)
            .zip(sizes)
        {
            let commands = marks.next().cloned().unwrap_or_default();
            let Some(pane) = ws.pane_mut(id) else {
                continue;
            };
            pane.adopt_commands(commands);
            if let Some(sizes) = sizes {
                pane.adopt_size_log(sizes);
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
        for &tab in &self.zoomed_tabs {
            if ws.select_tab(tab) || ws.active_index() == tab {
                ws.apply(crate::config::action::Action::ToggleZoom);
            }
        }
        ws.select_tab(self.active_tab);
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
    fn saved_sizes_come_back_from_the_first_block_read_and_none_without_a_file() {
        use crate::pane::size_log::SizeLog;
        use crate::persist::size_file::{self, SavedSizes};
        // Saved before sizes were: replayed at one size, as then.
        let (dir, pane, _) = saved(&[2, 3, 4]);
        assert!(read_saved_sized(dir.path(), &pane).1.is_none());
        // Printed at 120 columns, then at 60 from position 28 (block 3's
        // fifth byte); restored from block 2 (position 16) on.
        let mut log = SizeLog::new(24, 120);
        log.record(28, 24, 60, 0);
        size_file::write(dir.path(), "r-p1", &SavedSizes::of(&log, 8)).unwrap();
        let (_, sizes) = read_saved_sized(dir.path(), &pane);
        let stretches = sizes.unwrap().stretches(0, 27);
        let cols: Vec<(u64, u64, u16)> =
            stretches.iter().map(|s| (s.start, s.end, s.cols)).collect();
        assert_eq!(cols, [(0, 12, 120), (12, 27, 60)]);
        // A history with a gap: where its bytes were printed is not known.
        let (dir, pane, _) = saved(&[0, 1, 3]);
        size_file::write(dir.path(), "r-p1", &SavedSizes::of(&log, 8)).unwrap();
        assert!(read_saved_sized(dir.path(), &pane).1.is_none());
    }
}
