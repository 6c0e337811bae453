//! The reader thread: reads a streaming PTY into the output channel, and
//! exits once the PTY is quiet, leaving what it reads with to the gate
//! (see `reader_gate`). The loop starts a new one ([`start`]) when a read
//! of its own brings more than an echo.

use std::io::{ErrorKind, Read};
use std::os::fd::AsFd;
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use filedescriptor::{FileDescriptor, POLLIN};

use super::{OutputChunk, QUIET_HANDOVER, READ_SIZE, wait_within};
use crate::pane::program::reader_gate::{Holder, ReaderGate};

/// Chunks that wait before the reader wakes the loop (or fewer, once the
/// PTY stays empty for [`LINGER`]).
///
/// A PTY hands out at most ~4 KiB per read, and the reader empties it
/// faster than a flooding program refills it, so nearly every read was
/// followed by "nothing more for now", which woke the loop at once: the
/// loop slept and woke ~10,000-18,000 times in the 120 MB flood (one wake
/// per one or two chunks). Each wake-up is a turn of the loop and two
/// context switches. With a wait of up to [`LINGER`] for the PTY to refill
/// and a wake at 4 chunks, the loop wakes ~6,000-7,000 times and its CPU
/// for the flood fell from 0.58-0.62 s to 0.44-0.49 s (muxbench, 3 runs
/// each, per-thread CPU from `/proc`; docs/performance.md, "Flood CPU").
/// The reader itself sleeps as often as before: it polls the PTY between
/// reads either way. (Waking the loop at half a channel without a linger,
/// tried in cc0beee, saved CPU too but made the flood 14-22 % slower: the
/// reader then waited on a full channel. Here 12 of the 16 slots stay
/// free for the loop's wake-up.)
const WAKE_AT: usize = 4;

/// How long the reader waits for a PTY that has just run dry to refill
/// before it tells the loop about fewer than [`WAKE_AT`] chunks. In a
/// flood the kernel refills it in microseconds; at the end of a burst this
/// is what the last chunk waits (well under a frame). Echoes are not
/// delayed: a PTY quiet for [`super::QUIET_HANDOVER`] is read by the loop.
const LINGER: Duration = Duration::from_micros(500);

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
                // Announced once `WAKE_AT` chunks wait, or when the PTY
                // has nothing more (below). See `WAKE_AT` for the numbers.
                if r.output_tx.len() >= WAKE_AT {
                    crate::wake::wake_loop();
                }
            }
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) if err.kind() == ErrorKind::WouldBlock => {
                // Nothing more for now: whatever was read goes to the loop,
                // unless more comes within `LINGER` (a flood refills the
                // PTY in microseconds) and fewer than `WAKE_AT` chunks wait.
                let waiting = r.output_tx.len();
                if waiting > 0 {
                    if waiting < WAKE_AT && readable_within(&r.ready, LINGER) {
                        continue;
                    }
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

/// Whether `fd` becomes readable within `limit` (a PTY that hung up counts
/// as readable: the next read says so). At microsecond precision, which
/// `wait_within`'s poll (whole milliseconds) does not have.
fn readable_within(fd: &FileDescriptor, limit: Duration) -> bool {
    let fd = fd.as_fd();
    let mut fds = [rustix::event::PollFd::new(
        &fd,
        rustix::event::PollFlags::IN,
    )];
    let limit = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: i64::from(limit.subsec_nanos()),
    };
    loop {
        match rustix::event::poll(&mut fds, Some(&limit)) {
            Ok(ready) => return ready > 0,
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return false,
        }
    }
}
