//! The reader thread: reads a streaming PTY into the output channel, and
//! exits once the PTY is quiet, leaving what it reads with to the gate
//! (see `reader_gate`). The loop starts a new one ([`start`]) when a read
//! of its own brings more than an echo.

use std::io::{ErrorKind, Read};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use filedescriptor::{FileDescriptor, POLLIN};

use super::{OutputChunk, QUIET_HANDOVER, READ_SIZE, wait_within};
use crate::pane::program::reader_gate::{Holder, ReaderGate};

/// The gate of a pane's PTY, and what its reader thread is left.
pub type Gate = ReaderGate<Reading>;

/// What the reader thread works with, from one thread to the next.
pub struct Reading {
    pub reader: Box<dyn Read + Send>,
    /// The PTY, for waiting until it is readable.
    pub ready: FileDescriptor,
    pub output_tx: Sender<OutputChunk>,
    pub recycle_rx: Receiver<OutputChunk>,
    pub drained_tx: Sender<()>,
    pub gate: Arc<Gate>,
    /// The thread's name (with the child's id, for `ps -T`).
    pub name: String,
}

/// How a thread's reading stopped.
enum Stop {
    /// The PTY went quiet (the loop reads it now), or the loop took it.
    Handover { quiet: bool },
    /// The output ended, or the pane is gone.
    Ended,
}

/// Starts a reader thread with `reading`. If no thread can be started, the
/// loop keeps reading the PTY (a flood then comes through the loop's own
/// reads, an echo's size at a time, rather than not at all).
pub fn start(reading: Reading) {
    let gate = Arc::clone(&reading.gate);
    let name = reading.name.clone();
    // The thread takes `reading` from here: a thread that could not start
    // leaves it to be parked again.
    let handed = Arc::new(std::sync::Mutex::new(Some(reading)));
    let taken = Arc::clone(&handed);
    let started = crate::jobs::named(&name, move || {
        let reading = taken
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(reading) = reading {
            read_in_turns(reading);
        }
    });
    if started.is_err() {
        let left = handed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(reading) = left {
            // The loop held it a moment ago; it holds it again.
            let _ = gate.park(reading, true);
        }
    }
}

/// Reads until the output ends, parking at each handover; the thread exits
/// there unless the loop gave the PTY back meanwhile.
fn read_in_turns(mut reading: Reading) {
    loop {
        match read_until_stop(&mut reading) {
            Stop::Handover { quiet } => {
                let gate = Arc::clone(&reading.gate);
                match gate.park(reading, quiet) {
                    Some(back) => reading = back,
                    None => {
                        crate::wake::wake_loop();
                        return;
                    }
                }
            }
            Stop::Ended => {
                reading.gate.end();
                let _ = reading.drained_tx.try_send(());
                crate::wake::wake_loop();
                return;
            }
        }
    }
}

fn read_until_stop(r: &mut Reading) -> Stop {
    // Freed when the thread stops: a quiet pane keeps no read buffer.
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        match r.gate.holder() {
            Holder::Thread => {}
            Holder::Loop => return Stop::Handover { quiet: false },
            Holder::Ended => return Stop::Ended,
        }
        match r.reader.read(&mut buf) {
            // EOF; portable-pty maps EIO (all slave fds closed) to Ok(0).
            Ok(0) => return Stop::Ended,
            Ok(n) => {
                let mut chunk = r.recycle_rx.try_recv().unwrap_or_default();
                chunk.clear();
                chunk.extend_from_slice(&buf[..n]);
                if r.output_tx.send(chunk).is_err() {
                    // The pane is gone.
                    return Stop::Ended;
                }
                // Announced once a second chunk waits, or when the PTY has
                // nothing more (below): a flood's chunks come ~25 µs apart,
                // and waking the loop for each was ~20,000 wake-ups of it
                // per flood benchmark. Waiting longer (half a channel, with
                // the fast-forward cutting every 16 KiB) saved 18-24 % of
                // tilework's CPU there but made the flood 14-22 % slower on
                // an idle two-vCPU VM: the reader then waited on a full
                // channel, and the loop and reader slept more and the
                // writing program paid for waking them. Tried in cc0beee
                // and reverted.
                if r.output_tx.len() >= 2 {
                    crate::wake::wake_loop();
                }
            }
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) if err.kind() == ErrorKind::WouldBlock => {
                // Nothing more for now: whatever was read goes to the loop.
                if !r.output_tx.is_empty() {
                    crate::wake::wake_loop();
                }
                match wait_within(&r.ready, POLLIN, Some(QUIET_HANDOVER)) {
                    Some(true) => {}
                    // Everything read is on the channel: the loop may read
                    // what comes next (see `reader_gate`).
                    Some(false) => return Stop::Handover { quiet: true },
                    None => return Stop::Ended,
                }
            }
            Err(err) => {
                tracing::debug!("PTY read ended: {err}");
                return Stop::Ended;
            }
        }
    }
}
