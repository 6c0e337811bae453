//! A saved history put back into a new pane as the blocks it was saved as:
//! the ring takes them over still compressed, and only the newest screenful
//! is replayed (see `reflow`), so bringing back a pane with megabytes of
//! history costs reading its files, not decompressing and compressing them
//! again. `Pane::restore_history` takes plain bytes instead, for a history
//! read back with gaps.

use crate::pane::Pane;
use crate::pane::history::ring_block::SealedBlock;
use crate::pane::history::size_log::SizeLog;

impl Pane {
    /// Puts `blocks` (sealed by an earlier run, oldest first, each
    /// `block_len` bytes of output) and `tail` in front of this pane's
    /// output, as `restore_history` puts bytes. False, with nothing
    /// changed, when the ring cannot take them as they are (output came
    /// first, or its blocks are of another size).
    pub fn restore_sealed_history(
        &mut self,
        block_len: usize,
        blocks: Vec<SealedBlock>,
        tail: &[u8],
        marker: &[u8],
    ) -> bool {
        if !self.ring.adopt(block_len, blocks, tail) {
            return false;
        }
        self.show_restored(marker);
        true
    }

    /// The sizes this pane's output was printed at (saved with its history).
    pub fn size_log(&self) -> &SizeLog {
        &self.sizes
    }

    /// The sizes a restored history was printed at, before it is put back
    /// (`restore_history`, `restore_sealed_history`), so that it is
    /// replayed at those sizes, without ghosts of redraws (issue 30).
    pub fn adopt_size_log(&mut self, sizes: SizeLog) {
        self.sizes = sizes;
    }
}
