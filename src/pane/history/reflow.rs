//! Reflow on resize: when a pane showing the primary screen changes width
//! (or grows taller), its screen is laid out again from the byte ring as a
//! terminal that reflows its grid (tmux) would show it. The parser cannot
//! rewrap a grid (a line cut at 60 columns stays cut when the pane grows
//! back), and the live parser keeps no rows above its screen, but the ring
//! holds the bytes and [`SizeLog`] the size each stretch of them was
//! printed at. The replay feeds every stretch to a parser of its own size
//! (so a `\r` progress bar or a right prompt placed by cursor moves lands
//! where it landed the first time, once) and, where the size changed,
//! rewraps that parser's logical lines at the next size (`rewrap`); the
//! last rewrap is at the new size. The program's own SIGWINCH redraw (a
//! shell's prompt) then lands on top, as on any terminal. Replaying all
//! of it at the new width instead left a copy of each in-place redraw
//! wherever the new width moved it (issue 30).
//!
//! The replay goes through a [`FastForward`], like live output: the lines
//! that would scroll off are dropped unparsed, but for the rows a rewrap
//! can pull back onto the screen ([`kept_rows`]), so laying out a screen
//! costs little more than scanning the bytes (see `benches/reflow.rs`). It
//! starts at a line start at most [`REFLOW_MAX_BYTES`] back: a screen is at
//! most a few hundred thousand cells, so older output cannot show (unless
//! a line is longer than that; then the replay starts inside it).
//! Full-screen programs on the alternate screen draw for the size they are
//! given and are not reflowed; the primary screen under them is laid out
//! again when they leave it (`Pane::primary_cut`), as tmux rewraps a
//! shell's lines after vim quits in a resized window.
//!
//! Left as it was: a resize that came while a chunk of output ended in the
//! middle of an escape sequence splits that sequence between two replay
//! parsers, and its rest prints as text in the replay (rare: the program
//! is between writes of one sequence at the moment of the resize).

use std::ops::ControlFlow;

use crate::graphics::picture_store::PictureStore;
use crate::pane::history::scrollback::ByteRing;
use crate::pane::history::size_log::SizeLog;
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::term::fast_forward::FastForward;
use crate::pane::term::parse_guard::{self, ParserPanicked};
use crate::pane::term::replay::{ReplayCallbacks, ReplayParser, replay_parser};
use crate::pane::term::rewrap::{self, Checkpoint};

/// The most output a reflow replays: ~40x the cells of a 300x150 screen,
/// and a bound on the cost of one resize step however costly the output
/// is to parse (the parser parses escape-heavy output at ~60 MB/s).
pub const REFLOW_MAX_BYTES: u64 = 2 << 20;

/// Whether the ring can lay the screen out again: it holds all output so
/// far, or at least [`REFLOW_MAX_BYTES`] of it. A scrollback smaller than
/// that which has dropped output may no longer hold what the screen shows
/// (a 16-byte one holds less than a prompt), and a replay would blank it:
/// such a pane is resized as the parser resizes, cut lines and all.
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

/// Rows above the screen each replay parser keeps for the next rewrap:
/// enough to fill the tallest screen even when lines unwrap into fewer
/// rows at a wider size, within a bound on the memory a rewrap takes.
/// `sizes` are the (rows, cols) the replay passes through.
pub fn kept_rows(sizes: impl Iterator<Item = (u16, u16)> + Clone) -> usize {
    let tallest = sizes.clone().map(|s| s.0).max().unwrap_or(1);
    let widest = sizes.clone().map(|s| s.1).max().unwrap_or(1);
    let narrowest = sizes.map(|s| s.1).min().unwrap_or(1).max(1);
    let unwrap = usize::from(widest.div_ceil(narrowest)).clamp(1, 4);
    usize::from(tallest) * unwrap
}

/// A replay parser's callbacks: what the replay prints again (titles,
/// query replies) was seen the first time.
#[derive(Debug, Default)]
pub struct Replayed;

impl ReplayCallbacks for Replayed {}

impl crate::pane::term::fidelity::answers::Answers for Replayed {
    fn answer(&mut self, _: &[u8]) {}
}

fn stretch_parser(rows: u16, cols: u16, kept: usize) -> ReplayParser<Replayed> {
    replay_parser(rows, cols, kept, Replayed)
}

/// Lays the ring's output out again into `parser` (fresh, of the new
/// size, on its primary screen): each stretch of output replayed at the
/// size it was printed at, from `checkpoint` when it still applies, else
/// from [`replay_start`], through a fresh fast-forward that is returned for
/// the pane to carry on with, with the checkpoint for the next reflow.
/// `modes` (the pane's modes, which may be older than the bytes replayed)
/// are set first. The pictures it names are looked up in, or kept in,
/// `pictures` (the pane's); the replay is told `told` of the attached
/// terminals, as the pane is (the cells a picture covers).
pub fn rebuild<C: ReplayCallbacks + crate::pane::term::fidelity::answers::Answers>(
    ring: &ByteRing,
    sizes: &SizeLog,
    modes: &[u8],
    parser: &mut ReplayParser<C>,
    checkpoint: Option<Checkpoint>,
    pictures: &PictureStore,
    told: AttachedFacts,
) -> Result<(FastForward, Option<Checkpoint>), ParserPanicked> {
    let rows = parser.screen().size().0;
    let full_start = replay_start(ring);
    let resumed = checkpoint.filter(|c| c.at >= full_start && c.at <= ring.end());
    let start = resumed.as_ref().map_or(full_start, |c| c.at);
    let stretches = sizes.stretches(start, ring.end());
    let kept = kept_rows(
        stretches
            .iter()
            .map(|s| (s.rows, s.cols))
            .chain(resumed.as_ref().map(|c| (c.rows, c.cols)))
            .chain([(rows.get(), parser.screen().size().1.get())]),
    );
    let mut fast_forward = FastForward::default();
    fast_forward.fidelity_mut().set_pictures(pictures.clone());
    fast_forward.fidelity_mut().set_attached_facts(told);
    fast_forward.keep_history_rows(kept);
    let mut replay: Option<ReplayParser<Replayed>> = None;
    if let Some(checkpoint) = &resumed {
        let mut resumed = stretch_parser(checkpoint.rows, checkpoint.cols, kept);
        parse_guard::process(&mut resumed, checkpoint.bytes.as_bytes())?;
        fast_forward.parse_now(&mut resumed, modes)?;
        replay = Some(resumed);
    }
    for stretch in &stretches {
        let size = |p: &ReplayParser<Replayed>| {
            let (rows, cols) = p.screen().size();
            (rows.get(), cols.get())
        };
        match replay.as_mut() {
            Some(old) if size(old) == (stretch.rows.max(2), stretch.cols.max(2)) => {}
            Some(old) => {
                let mut next = stretch_parser(stretch.rows, stretch.cols, kept);
                fast_forward.settle(old)?;
                rewrap::resize_into(old, &mut next)?;
                fast_forward.parser_replaced(old.screen().size().0.get());
                *old = next;
            }
            None => {
                let mut next = stretch_parser(stretch.rows, stretch.cols, kept);
                fast_forward.parse_now(&mut next, modes)?;
                replay = Some(next);
            }
        }
        let Some(next) = replay.as_mut() else {
            continue;
        };
        let failed = ring.visit(
            stretch.start,
            stretch.end,
            false,
            |_, bytes| match fast_forward.push(next, bytes) {
                Ok(()) => ControlFlow::Continue(()),
                Err(failure) => ControlFlow::Break(failure),
            },
        );
        if let Some(failure) = failed {
            return Err(failure);
        }
    }
    let mut next_checkpoint = None;
    if let Some(old) = replay.as_mut() {
        fast_forward.settle(old)?;
        let (old_rows, cols) = old.screen().size();
        if (old_rows, cols) == parser.screen().size() && !old.screen().alternate_screen() {
            let bytes = rewrap::laid_out(old, old_rows, cols, kept)?;
            parse_guard::process(parser, bytes.as_bytes())?;
            next_checkpoint = Some(Checkpoint {
                bytes,
                at: ring.end(),
                rows: old_rows.get(),
                cols: cols.get(),
            });
        } else {
            rewrap::resize_into(old, parser)?;
        }
        fast_forward.parser_replaced(old_rows.get());
    } else {
        fast_forward.parse_now(parser, modes)?;
    }
    // The live parser keeps no scrollback.
    fast_forward.keep_history_rows(0);
    // An update still open was held for a screen of another size; the
    // program redraws for this one anyway.
    fast_forward.release_sync();
    Ok((fast_forward, next_checkpoint))
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
