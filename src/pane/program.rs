//! The program side of a pane: the PTY and the process on it.
//!
//! [`spawn`] decides what to run; [`process`] is the seam that starts it
//! (a PTY, or a fake in tests); [`pty`] runs the reader and writer
//! threads, with [`input_queue`] holding what the user typed and
//! [`reader_gate`] letting the loop read a quiet PTY itself; [`unfed`]
//! holds output taken from the reader until the loop feeds it, in pieces
//! against its deadline; [`children`] ends every child on every exit
//! path; [`pipe`] sends a pane's output on to a command
//! (`tilework pipe`).

pub mod children;
pub mod input_queue;
pub mod pipe;
pub mod process;
pub mod pty;
pub mod reader_gate;
pub mod spawn;
pub mod unfed;
