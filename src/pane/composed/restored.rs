//! A saved history put back into a new pane, before any output: as plain
//! bytes (`restore_history`, for a history read back with gaps), or as the
//! blocks it was saved as (`restore_sealed_history`): the ring takes them
//! over still compressed, and only the newest screenful is replayed (see
//! `reflow`), so bringing back a pane with megabytes of history costs
//! reading its files, not decompressing and compressing them again.

use crate::pane::Pane;
use crate::pane::history::ring_block::SealedBlock;
use crate::pane::history::scrollback::ByteRing;

impl Pane {
    /// Puts `saved` (a history saved before a crash or reboot, see
    /// `persist`) in front of this pane's output, its newest screenful on
    /// the screen, then `marker`. Call before any output is fed. What the
    /// replay of `saved` would tell (titles, query replies) was told to
    /// the old program, never to this one.
    pub fn restore_history(&mut self, saved: &[u8], marker: &[u8]) {
        self.history.ring.push(saved);
        self.show_restored(marker);
    }

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
        if !self.history.ring.adopt(block_len, blocks, tail) {
            return false;
        }
        self.show_restored(marker);
        true
    }

    /// The restored history in the ring goes on screen, then `marker`.
    fn show_restored(&mut self, marker: &[u8]) {
        // The saved sizes (if any) end here; what follows is printed now.
        let (rows, cols) = self.term.size();
        self.history.record_size(rows, cols);
        if !self.replay_ring() {
            self.history.ring = ByteRing::new(self.history.ring.budget());
        }
        // A full-screen program was running: the shell comes back on the
        // primary screen.
        let mut notice = Vec::new();
        if self.term.on_alternate_screen() {
            notice.extend_from_slice(b"\x1b[?1049l");
        }
        notice.extend_from_slice(b"\x1b[m\x1b[?25h");
        notice.extend_from_slice(marker);
        self.history.ring.push(&notice);
        self.term.write_notice(&notice);
    }
}
