//! A pane moving to a newer tilework (an upgrade, see `crate::upgrade`):
//! the old process holds its output and tells its live screen and modes as
//! bytes; the new one builds a pane around the same program and takes the
//! history and the screen over.

use std::os::fd::BorrowedFd;

use super::Pane;
use crate::graphics::kitty::intake::KittyNames;
use crate::pane::history::command_marks::Command;
use crate::pane::history::ring_block::SealedBlock;
use crate::pane::history::size_log::SizeLog;

/// How `modes_to_carry` starts on the alternate screen.
const ENTER_ALTERNATE: &[u8] = b"\x1b[?1049h";

impl Pane {
    /// Stops the program's reader thread before its next read and feeds
    /// what it had queued. True once nothing reads the program's output
    /// but this process's loop (which reads nothing while it hands over);
    /// call again until then, the thread may be waiting to send.
    pub fn hold_output(&mut self) -> bool {
        let parked = self.program.hold_reader();
        self.drain_pending();
        parked
    }

    /// The PTY master of the program, to hand over.
    pub fn pty_master(&self) -> Option<BorrowedFd<'_>> {
        self.program.master_fd()
    }

    /// The live screen and the modes the program set, as bytes that draw
    /// and set them again on a fresh parser of the same size (after the
    /// history's replay, see [`Self::take_over`]).
    pub fn screen_state(&mut self) -> Vec<u8> {
        self.settle();
        let modes = self.term.modes_to_carry();
        let contents = self.term.contents_formatted();
        // Modes first (the alternate screen is one), the contents drawn on
        // the screen they belong to, then the modes again (drawing may show
        // the cursor) but the alternate screen's, which would clear it.
        let again = modes.strip_prefix(ENTER_ALTERNATE).unwrap_or(&modes);
        [&modes[..], contents.as_bytes(), again].concat()
    }

    /// What the program calls its kitty pictures, to carry.
    pub fn kitty_names(&self) -> Option<KittyNames> {
        self.term.fast_forward.kitty.intake.names()
    }

    /// Takes the names of the kitty pictures an older tilework carried
    /// (after [`Self::take_over`], whose replay starts them over).
    pub fn adopt_kitty_names(&mut self, names: KittyNames) {
        self.term.fast_forward.kitty.intake.adopt_names(names);
    }

    /// Takes over a history handed over by an older tilework: `blocks`
    /// (oldest first, `block_len` bytes of output each) and `tail`, the
    /// sizes it was printed at and its commands; then the live screen as
    /// [`Self::screen_state`] told it. Call on a new pane before any output
    /// is fed. False, with nothing changed, when the ring cannot take the
    /// blocks as they are.
    pub fn take_over(
        &mut self,
        block_len: usize,
        blocks: Vec<SealedBlock>,
        tail: &[u8],
        sizes: Option<SizeLog>,
        commands: Vec<Command>,
        screen: &[u8],
    ) -> bool {
        if !self.history.ring.adopt(block_len, blocks, tail) {
            return false;
        }
        if let Some(sizes) = sizes {
            self.history.sizes = sizes;
        }
        self.history.marks.adopt(commands);
        let (rows, cols) = self.term.size();
        self.history.record_size(rows, cols);
        // The replay lays out the primary screen under a full-screen
        // program and the checkpoint later resizes reflow from; the screen
        // itself is the one the old process showed.
        if !self.replay_ring() {
            tracing::warn!(id = ?self.id, "the handed-over history did not replay");
        }
        self.term.write_notice(screen);
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::pane::PaneId;

    /// What `ring` holds: its sealed blocks, then its tail.
    fn blocks_of(pane: &Pane) -> (usize, Vec<SealedBlock>, Vec<u8>) {
        let ring = pane.history().ring();
        let first = ring.start() / ring.block_bytes() as u64;
        let blocks = (first..ring.sealed_end())
            .filter_map(|k| ring.sealed_block(k))
            .collect();
        (ring.block_bytes(), blocks, ring.tail().to_vec())
    }

    #[test]
    fn a_full_screen_program_s_screen_and_modes_come_across() {
        let mut old = Pane::detached(PaneId(1), 10, 40, 1 << 20);
        old.feed(b"$ vim\r\n\x1b[?1049h\x1b[?1h\x1b[H\x1b[2Jkept-unsaved\r\n~\r\n~".to_vec());
        old.settle();
        let screen = old.screen_state();
        let (block_len, blocks, tail) = blocks_of(&old);
        let mut new = Pane::detached(PaneId(1), 10, 40, 1 << 20);
        assert!(new.take_over(block_len, blocks, &tail, None, Vec::new(), &screen));
        new.settle();
        let shown = new.term().screen();
        assert!(shown.alternate_screen());
        assert!(shown.application_cursor());
        assert!(
            shown.contents().starts_with("kept-unsaved\n~\n~"),
            "{:?}",
            shown.contents()
        );
        assert_eq!(
            shown.cursor_position(),
            old.term().screen().cursor_position()
        );
    }
}
