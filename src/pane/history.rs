//! The history of a pane: every byte its program wrote, and what the pane
//! shows when scrolled back.
//!
//! [`scrollback`] is the raw ring (compressed in [`ring_block`]s), with
//! [`size_log`] recording the size each stretch was printed at. A
//! [`window`] of it is replayed on demand at those sizes ([`anchors`]
//! picks the bytes; [`as_text`] writes all of it out as text) when the
//! pane is scrolled back ([`scroll_view`]). [`reflow`] replays the ring at
//! a new size; a saved history comes back through `restored`.
//! [`command_marks`] finds where each command a shell ran begins and ends
//! (OSC 133), by positions in the ring.

pub mod anchors;
pub mod as_text;
pub mod command_marks;
pub mod reflow;
pub mod ring_block;
pub mod scroll_view;
pub mod scrollback;
pub mod size_log;
pub mod window;
