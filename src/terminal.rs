//! The user's terminal: [`guard`] puts it into workspace mode and restores
//! it on every exit path, [`output`] is the one stream every frame is
//! written to, [`key_reader`] reads keys, mouse and resizes on the loop's
//! thread through [`input_parser`] (which keeps the terminal's answers to
//! tilework's own questions out of the keys), and
//! [`stdio`] swaps the attached terminal in and out (sessions), and
//! [`clipboard`] reaches the user's clipboard; [`outbox`] holds the side
//! effects (clipboard, bell, cursor shape) until the next frame.

pub mod clipboard;
pub mod frame_sink;
pub mod guard;
pub mod input_parser;
pub mod key_reader;
pub mod outbox;
pub mod outer_terminal;
pub mod output;
pub mod stdio;
