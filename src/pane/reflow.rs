//! Reflow on resize: when a pane showing the primary screen changes width,
//! its screen is laid out again from the byte ring, as a terminal of the
//! new size would have shown the same output. vt100 cannot rewrap a grid
//! (a line cut at 60 columns stays cut when the pane grows back), but the
//! ring holds the bytes, and a fresh parser fed them at the new size wraps
//! every line where that size wraps it. The program's own SIGWINCH redraw
//! (a shell's prompt) then lands on top, as on any terminal.
//!
//! The replay goes through a fresh [`FastForward`], like live output: the
//! lines that would scroll off are dropped unparsed, so laying out a
//! screen costs little more than scanning the bytes (see
//! `benches/reflow.rs`). It starts at a line start at most
//! [`REFLOW_MAX_BYTES`] back: the live parser keeps no scrollback, and a
//! screen is at most a few hundred thousand cells, so older output cannot
//! show (unless a line is longer than that; then the replay starts inside
//! it). Full-screen programs on the alternate screen draw for the size
//! they are given and are not reflowed; the primary screen under them is
//! laid out again when they leave it (`Pane::primary_cut`), as tmux
//! rewraps a shell's lines after vim quits in a resized window.

use std::ops::ControlFlow;

use crate::pane::fast_forward::FastForward;
use crate::pane::parse_guard::ParserPanicked;
use crate::pane::scrollback::ByteRing;

/// The most output a reflow replays: ~40x the cells of a 300x150 screen,
/// and a bound on the cost of one resize step however costly the output
/// is to parse (vt100 parses escape-heavy output at ~60 MB/s).
pub const REFLOW_MAX_BYTES: u64 = 2 << 20;

/// Whether the ring can lay the screen out again: it holds all output so
/// far, or at least [`REFLOW_MAX_BYTES`] of it. A scrollback smaller than
/// that which has dropped output may no longer hold what the screen shows
/// (a 16-byte one holds less than a prompt), and a replay would blank it:
/// such a pane is resized as vt100 resizes, cut lines and all.
pub fn can_replay(ring: &ByteRing) -> bool {
    ring.start() == 0 || ring.end() - ring.start() >= REFLOW_MAX_BYTES
}

/// Where a reflow replay starts: the oldest line start within
/// [`REFLOW_MAX_BYTES`] of the end.
pub fn replay_start(ring: &ByteRing) -> u64 {
    let first = ring.first_line_start();
    let floor = ring.end().saturating_sub(REFLOW_MAX_BYTES);
    if floor <= first {
        return first;
    }
    let line = ring.line_start_at_or_after(floor);
    // No line starts in the window but at its very end: one huge line.
    if line >= ring.end() { floor } else { line }
}

/// Feeds `parser` (fresh, of the new size) the ring's output from
/// [`replay_start`] on, through `fast_forward` (fresh too), and brings it
/// up to date. The parser's callbacks see everything the replay prints
/// again (titles, query replies): the caller keeps the old ones instead.
pub fn replay<C: vt100::Callbacks + crate::pane::fidelity::answers::Answers>(
    ring: &ByteRing,
    parser: &mut vt100::Parser<C>,
    fast_forward: &mut FastForward,
) -> Result<(), ParserPanicked> {
    // A block at a time, as the ring holds them: the fast-forward drops
    // what will scroll off as it goes, so the replay holds about a
    // screenful. (A copy of the whole window, then held back again by the
    // fast-forward, was up to 4 MiB more resident at each resize.)
    let failed = ring.visit(
        replay_start(ring),
        ring.end(),
        false,
        |_, bytes| match fast_forward.push(parser, bytes) {
            Ok(()) => ControlFlow::Continue(()),
            Err(failure) => ControlFlow::Break(failure),
        },
    );
    if let Some(failure) = failed {
        return Err(failure);
    }
    fast_forward.settle(parser)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_short_history_is_replayed_from_its_first_line() {
        let mut ring = ByteRing::new(1 << 20);
        ring.push(b"one\r\ntwo\r\n");
        assert_eq!(replay_start(&ring), 0);
    }

    #[test]
    fn a_long_history_is_replayed_from_a_line_start_near_the_end() {
        let mut ring = ByteRing::new(8 << 20);
        let line = b"0123456789abcdef0123456789abcdef0123456789abcdef012345678901\r\n";
        for _ in 0..60_000 {
            ring.push(line);
        }
        let start = replay_start(&ring);
        assert!(ring.end() - start <= REFLOW_MAX_BYTES);
        assert!(ring.end() - start > REFLOW_MAX_BYTES - line.len() as u64);
        assert_eq!(ring.copy_range(start - 1, start), b"\n");
    }

    #[test]
    fn one_huge_line_is_replayed_from_inside_it() {
        let mut ring = ByteRing::new(8 << 20);
        ring.push(b"start\r\n");
        ring.push(&vec![b'x'; 3 << 20]);
        assert_eq!(replay_start(&ring), ring.end() - REFLOW_MAX_BYTES);
    }
}
