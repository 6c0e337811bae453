//! What the history's replays take from the terminal: a parser of the
//! same kind as the live one, made here, so that the choice of parser is
//! this room's alone. A replay (a window of history, a reflow, a command's
//! echo) feeds it bytes of the ring through a [`crate::pane::term::fidelity::Fidelity`]
//! or the fast-forward and reads its screen and the rows it drops.

use std::num::NonZeroU16;

use crate::pane::term::emulator::MIN_GRID;

/// A replay's parser, with `C` as what it is told (rows scrolled off).
pub type ReplayParser<C> = vt100::Parser<C>;

/// A replay parser's screen.
pub type ReplayScreen = vt100::Screen;

/// What a replay's parser tells as it goes (rows scrolled off the top).
pub use vt100::Callbacks as ReplayCallbacks;
/// A row a replay's parser dropped off its scrollback, and the state that
/// writes rows out as text with their attributes.
pub use vt100::capture::{BasicFormattedCaptureState, RowContents};

/// A replay parser of `rows` x `cols` (at least [`MIN_GRID`]) keeping
/// `scrollback` rows above its screen, telling `callbacks`.
pub fn replay_parser<C: ReplayCallbacks>(
    rows: u16,
    cols: u16,
    scrollback: usize,
    callbacks: C,
) -> ReplayParser<C> {
    let size = |n: u16| NonZeroU16::new(n.max(MIN_GRID)).unwrap_or(NonZeroU16::MIN);
    vt100::Parser::new_with_callbacks(size(rows), size(cols), scrollback, callbacks)
}

/// A replay parser that tells nothing (a command's echo).
pub fn quiet_replay_parser(rows: u16, cols: u16) -> ReplayParser<()> {
    replay_parser(rows, cols, 0, ())
}
