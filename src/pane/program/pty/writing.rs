//! The writer thread: writes queued input while the program is not taking
//! it. It runs only while input waits (see `InputQueue::claim_writer`):
//! the loop writes a key itself when nothing is queued, so most panes
//! never start one.

use std::io::ErrorKind;
use std::sync::Arc;

use filedescriptor::{FileDescriptor, POLLOUT};

use super::wait_until;
use crate::pane::program::input_queue::InputQueue;

/// What a pane's writer threads write with.
pub struct Writing {
    /// The PTY (non-blocking).
    fd: Arc<FileDescriptor>,
    input: Arc<InputQueue>,
    /// The threads' name (with the child's id, for `ps -T`).
    name: String,
}

impl Writing {
    pub fn new(fd: FileDescriptor, input: Arc<InputQueue>, name: String) -> Self {
        Self {
            fd: Arc::new(fd),
            input,
            name,
        }
    }

    /// Starts a writer thread if input waits and none runs.
    pub fn ensure_running(&self) {
        if !self.input.claim_writer() {
            return;
        }
        let (fd, input) = (Arc::clone(&self.fd), Arc::clone(&self.input));
        if crate::jobs::named(&self.name, move || write_loop(&fd, &input)).is_err() {
            // What waits is written when the next input starts one.
            self.input.writer_failed();
        }
    }
}

fn write_loop(fd: &FileDescriptor, input: &InputQueue) {
    while let Some(bytes) = input.pop() {
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            // An upgrade took the rest (see `InputQueue::take_for_handoff`).
            let Some(written) = input.write_popped(rest, |rest| {
                rustix::io::write(fd, rest).map_err(std::io::Error::from)
            }) else {
                break;
            };
            match written {
                Ok(0) => {
                    tracing::debug!("PTY write ended: wrote nothing");
                    input.close();
                    return;
                }
                Ok(n) => rest = &rest[n..],
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                // The program is not reading: wait without holding anyone.
                Err(err) if err.kind() == ErrorKind::WouldBlock && wait_until(fd, POLLOUT) => {}
                Err(err) => {
                    tracing::debug!("PTY write ended: {err}");
                    input.close();
                    return;
                }
            }
        }
    }
}
