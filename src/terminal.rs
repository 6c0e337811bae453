//! The user's terminals: [`guard`] puts each into workspace mode and
//! restores it on every exit path, [`output`] is the stream its frames
//! are written to (through [`frame_backend`]), [`input_parser`] turns the bytes it sends into keys,
//! mouse, pastes and focus events (keeping its answers to tilework's own
//! questions out of the keys), [`stdio`] parks the workspace's own fds 0-2
//! (each terminal comes with descriptors of its own), and
//! [`clipboard`] reaches the user's clipboard; [`outbox`] holds the side
//! effects (clipboard, bell, cursor shape) until the next frame.

pub mod clipboard;
pub mod frame_backend;
pub mod frame_sink;
pub mod guard;
pub mod input_parser;
pub mod outbox;
pub mod outer_terminal;
pub mod output;
pub mod stdio;
