//! The reader thread: reads a streaming PTY into the output channel, and
//! exits once the PTY is quiet, leaving what it reads with to the gate
//! (see `reader_gate`). The loop starts a new one ([`start`]) when a read
//! of its own brings more than an echo.

use std::io::{ErrorKind, Read};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use filedescriptor::{FileDescriptor, POLLIN};

use super::{CHUNK_BYTES, OutputChunk, QUIET_HANDOVER, wait_within};
use crate::pane::program::reader_gate::{Holder, ReaderGate};

/// The gate of a pane's PTY, and what its reader thread is left.
pub type Gate = ReaderGate<Reading>;

/// The most a PTY hands out in one read (the line discipline's buffer): a
/// chunk with less room left is sent rather than read into again.
const PTY_READ_MOST: usize = 4096;

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
                // The buffers the loop gave back are freed: a quiet pane
                // keeps none (see `PtyProcess::give_back`).
                while reading.recycle_rx.try_recv().is_ok() {}
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
    // What is read goes straight into the chunk sent to the loop: `chunk`
    // is `CHUNK_BYTES` long, its first `filled` bytes read. The thread
    // holds one while it runs: a quiet pane keeps no read buffer.
    let mut chunk = fresh_chunk(r);
    let mut filled = 0;
    loop {
        match r.gate.holder() {
            Holder::Thread => {}
            Holder::Loop => {
                send_read(r, chunk, filled);
                return Stop::Handover { quiet: false };
            }
            Holder::Ended => return Stop::Ended,
        }
        match r.reader.read(&mut chunk[filled..]) {
            // EOF; portable-pty maps EIO (all slave fds closed) to Ok(0).
            Ok(0) => {
                send_read(r, chunk, filled);
                return Stop::Ended;
            }
            Ok(n) => {
                filled += n;
                // A PTY hands out at most ~4 KiB a read. While it has more
                // at once (a flood), the reads go on into one chunk: one
                // send, and one wake-up of the loop at most, for several
                // reads (see `CHUNK_BYTES`).
                if chunk.len() - filled >= PTY_READ_MOST {
                    continue;
                }
                if !send_read(r, chunk, filled) {
                    return Stop::Ended;
                }
                (chunk, filled) = (fresh_chunk(r), 0);
                // Announced once a second chunk waits, or when the PTY has
                // nothing more (below): waking the loop for each chunk of
                // a flood was ~20,000 wake-ups of it per flood benchmark.
                // Waiting longer (half a channel, with the fast-forward
                // cutting every 16 KiB) saved 18-24 % of tilework's CPU
                // there but made the flood 14-22 % slower on an idle
                // two-vCPU VM: the reader then waited on a full channel of
                // one read's chunks, and the loop and reader slept more and
                // the writing program paid for waking them. Tried in
                // cc0beee and reverted.
                if r.output_tx.len() >= 2 {
                    crate::wake::wake_loop();
                }
            }
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) if err.kind() == ErrorKind::WouldBlock => {
                // Nothing more for now: whatever was read goes to the loop.
                if filled > 0 {
                    if !send_read(r, chunk, filled) {
                        return Stop::Ended;
                    }
                    (chunk, filled) = (fresh_chunk(r), 0);
                }
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
                send_read(r, chunk, filled);
                return Stop::Ended;
            }
        }
    }
}

/// A buffer to read into, `CHUNK_BYTES` long: one the loop gave back, or
/// a new one.
fn fresh_chunk(r: &Reading) -> OutputChunk {
    let mut chunk = r
        .recycle_rx
        .try_recv()
        .unwrap_or_else(|_| Vec::with_capacity(CHUNK_BYTES));
    // Zeroes only what the last use did not fill.
    chunk.resize(CHUNK_BYTES, 0);
    chunk
}

/// Sends the first `filled` bytes of `chunk` (if any) to the loop. False
/// when the pane is gone.
fn send_read(r: &Reading, mut chunk: OutputChunk, filled: usize) -> bool {
    if filled == 0 {
        return true;
    }
    chunk.truncate(filled);
    r.output_tx.send(chunk).is_ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::*;
    use crossbeam_channel::bounded;
    use filedescriptor::Pipe;
    use std::io::Write;

    /// A reading over a pipe (read end non-blocking, as a pane's PTY is),
    /// its write end, and the loop's ends of the channels.
    fn over_a_pipe() -> (
        Reading,
        FileDescriptor,
        Receiver<OutputChunk>,
        Sender<OutputChunk>,
    ) {
        let Pipe { mut read, write } = Pipe::new().unwrap();
        read.set_non_blocking(true).unwrap();
        let ready = read.try_clone().unwrap();
        let (output_tx, output_rx) = bounded(64);
        let (recycle_tx, recycle_rx) = bounded(8);
        let (drained_tx, _) = bounded(1);
        let reading = Reading {
            reader: Box::new(read),
            ready,
            output_tx,
            recycle_rx,
            drained_tx,
            gate: Arc::new(Gate::default()),
            name: "test-reader".into(),
        };
        (reading, write, output_rx, recycle_tx)
    }

    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn output_comes_whole_and_in_order_in_chunks_no_bigger_than_a_chunk() {
        let (mut reading, mut write, output, _recycle) = over_a_pipe();
        // Three chunks and a part of one wait in the pipe (under its 64 KiB),
        // then the end.
        let sent = pattern(3 * CHUNK_BYTES + 5_123);
        write.write_all(&sent).unwrap();
        drop(write);
        assert!(matches!(read_until_stop(&mut reading), Stop::Ended));
        let chunks: Vec<OutputChunk> = output.try_iter().collect();
        assert!(
            chunks
                .iter()
                .all(|c| !c.is_empty() && c.len() <= CHUNK_BYTES)
        );
        assert_eq!(chunks[0].len(), CHUNK_BYTES, "what waited fills a chunk");
        assert_eq!(chunks.concat(), sent);
    }

    #[test]
    fn a_reader_that_hands_a_quiet_pipe_over_keeps_no_buffers() {
        let (reading, mut write, output, recycle) = over_a_pipe();
        let gate = Arc::clone(&reading.gate);
        let left = reading.recycle_rx.clone();
        for _ in 0..3 {
            recycle.send(vec![0; CHUNK_BYTES]).unwrap();
        }
        write.write_all(b"$ ").unwrap();
        // The thread ends once it has left the quiet pipe to the loop.
        std::thread::spawn(move || read_in_turns(reading))
            .join()
            .unwrap();
        assert!(gate.thread_parked());
        assert_eq!(output.try_iter().collect::<Vec<_>>(), vec![b"$ ".to_vec()]);
        assert!(left.is_empty(), "the buffers given back were freed");
        assert_eq!(gate.holder(), Holder::Loop);
    }
}
