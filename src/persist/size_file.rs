//! The sizes a pane's saved history was printed at (its `SizeLog`, issue
//! 30), in a small file of its own beside the history, `PREFIX.sizes`,
//! replaced whole with each snapshot that changed it (written before the
//! manifest, as the tails are). A restored history is replayed at those
//! sizes, so a `\r` progress bar printed at another width than the one
//! attached comes back once, not as a row for every redraw.
//!
//! The file is one checksummed record (`block_file`'s) whose bytes are
//! `TWS1`, the ring's block length (u64 LE), then per size, oldest first,
//! the ring position it took effect at (u64 LE), rows and columns (u16 LE
//! each). Positions are the saving ring's: block `k` began at `k ×` block
//! length, which is how a restore knows where its first restored byte was.
//!
//! Workspaces saved before this file existed have none: their history is
//! replayed all at the size attached to, as before. A damaged file is the
//! same as none.

use std::path::Path;

use crate::pane::history::size_log::{MAX_COLS, MAX_ROWS, SizeFrom, SizeLog};
use crate::persist::block_file;
use crate::persist::dirs;

const MAGIC: &[u8; 4] = b"TWS1";
const ENTRY: usize = 8 + 2 + 2;
/// More sizes than a log keeps (`size_log::MAX_CHANGES`) are not ours.
const MAX_SIZES: usize = 64;
/// The file holds one record of at most [`MAX_SIZES`] entries.
const MAX_FILE_BYTES: usize = 4096;

/// The file of the pane whose files start with `prefix`.
pub fn path(dir: &Path, prefix: &str) -> std::path::PathBuf {
    dir.join(format!("{prefix}.sizes"))
}

/// The saved sizes of a ring of blocks of `block_len` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedSizes {
    pub block_len: u64,
    pub sizes: Vec<SizeFrom>,
}

impl SavedSizes {
    pub fn of(log: &SizeLog, block_len: usize) -> Self {
        Self {
            block_len: block_len as u64,
            sizes: log.sizes().collect(),
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(12 + self.sizes.len() * ENTRY);
        payload.extend_from_slice(MAGIC);
        payload.extend_from_slice(&self.block_len.to_le_bytes());
        for size in &self.sizes {
            payload.extend_from_slice(&size.from.to_le_bytes());
            payload.extend_from_slice(&size.rows.to_le_bytes());
            payload.extend_from_slice(&size.cols.to_le_bytes());
        }
        let mut out = Vec::new();
        block_file::encode(0, payload.len(), false, &payload, &mut out);
        out
    }

    /// `None` when `bytes` is not a whole, undamaged file of sizes.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let (records, _) = block_file::decode_all(bytes);
        let payload = records.into_iter().next()?.plain;
        let rest = payload.strip_prefix(MAGIC)?;
        let (block_len, entries) = rest.split_first_chunk::<8>()?;
        if entries.len() % ENTRY != 0 || entries.len() / ENTRY > MAX_SIZES {
            return None;
        }
        let sizes: Vec<SizeFrom> = entries
            .chunks_exact(ENTRY)
            .map(|e| {
                let (from, size) = e.split_at(8);
                SizeFrom {
                    from: u64::from_le_bytes(from.try_into().unwrap_or_default()),
                    rows: u16::from_le_bytes([size[0], size[1]]),
                    cols: u16::from_le_bytes([size[2], size[3]]),
                }
            })
            .collect();
        // A history is replayed at these sizes: one no pane can have (a
        // 65535x65535 grid would take gigabytes) is not ours.
        let fits =
            |s: &SizeFrom| (1..=MAX_ROWS).contains(&s.rows) && (1..=MAX_COLS).contains(&s.cols);
        if !sizes.iter().all(fits) {
            return None;
        }
        Some(Self {
            block_len: u64::from_le_bytes(*block_len),
            sizes,
        })
    }

    /// The log for a restored history whose first byte was in block
    /// `first_block` and that holds `len` bytes.
    pub fn restored(&self, first_block: u64, len: u64) -> Option<SizeLog> {
        let origin = first_block.checked_mul(self.block_len)?;
        SizeLog::from_saved(&self.sizes, origin, len)
    }
}

/// Replaces the pane's file of sizes.
pub fn write(dir: &Path, prefix: &str, sizes: &SavedSizes) -> std::io::Result<()> {
    dirs::write_atomically(&path(dir, prefix), &sizes.encode())
}

/// The pane's saved sizes, if it has a readable file of them.
pub fn read(dir: &Path, prefix: &str) -> Option<SavedSizes> {
    let path = path(dir, prefix);
    let bytes = dirs::read(&path, MAX_FILE_BYTES).ok()?;
    let sizes = SavedSizes::decode(&bytes);
    if sizes.is_none() {
        tracing::warn!(
            "{}: damaged; its history is replayed at one size",
            path.display()
        );
    }
    sizes
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_back_and_a_damaged_file_is_none() {
        let mut log = SizeLog::new(24, 120);
        log.record(70_000, 24, 60, 0);
        let saved = SavedSizes::of(&log, 65_536);
        let bytes = saved.encode();
        assert_eq!(SavedSizes::decode(&bytes), Some(saved.clone()));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert_eq!(SavedSizes::decode(&damaged), None);
        assert_eq!(SavedSizes::decode(&bytes[..bytes.len() - 3]), None);
        // A size no pane can have is not believed.
        let mut huge = SizeLog::new(24, 120);
        huge.record(10, 65535, 65535, 0);
        assert_eq!(
            SavedSizes::decode(&SavedSizes::of(&huge, 65_536).encode()),
            None
        );
        // Restored from block 1 (position 65,536) on.
        let back = saved.restored(1, 10_000).unwrap();
        let stretches = back.stretches(0, 10_000);
        assert_eq!(
            stretches
                .iter()
                .map(|s| (s.start, s.end, s.cols))
                .collect::<Vec<_>>(),
            [(0, 4_464, 120), (4_464, 10_000, 60)]
        );
    }
}
