//! The program side of a pane: the PTY and the process on it.
//!
//! [`spawn`] decides what to run; [`process`] is the seam that starts it
//! (a PTY, or a fake in tests); [`pty`] runs the reader and writer
//! threads, with [`input_queue`] holding what the user typed and
//! [`reader_gate`] letting the loop read a quiet PTY itself; [`unfed`]
//! holds output taken from the reader until the loop feeds it, in pieces
//! against its deadline; [`children`] ends every child on every exit
//! path; [`exit_watch`] sees every program end, on one thread; [`pipe`]
//! sends a pane's output on to a command (`tilework pipe`).

pub mod children;
pub mod exit_watch;
pub mod input_queue;
pub mod pipe;
pub mod process;
pub mod pty;
pub mod reader_gate;
pub mod spawn;
pub mod unfed;

use std::os::fd::BorrowedFd;

use crossbeam_channel::{Receiver, TryRecvError};

use crate::pane::program::process::PaneProcess;
use crate::pane::program::pty::{ExitInfo, OutputChunk, QUIET_READ_SIZE, QuietRead};
use crate::pane::program::unfed::Unfed;

/// A pane's program: the process on its PTY (none when it could not
/// start, or in a detached pane), the output read from it and not fed
/// yet, and how it ended.
pub struct Program {
    process: Option<Box<dyn PaneProcess>>,
    output_closed: bool,
    /// Output taken from the reader, waiting for the loop's next turn.
    pub(in crate::pane) unfed: Unfed,
    /// Set when the program ended and the pane stays open to show it.
    exit: Option<ExitInfo>,
    /// What happens next to an ended command (`restarting in 4 s`), for
    /// its border.
    exit_note: Option<String>,
    /// Why the program could not start, shown in the pane.
    spawn_error: Option<String>,
}

impl Program {
    /// Stops the reader thread before its next read (an upgrade hands the
    /// PTY over). True once it reads no more; call again until then.
    pub fn hold_reader(&self) -> bool {
        self.process.as_ref().is_none_or(|p| p.hold_reader())
    }

    /// The PTY master, to hand over.
    pub fn master_fd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        self.process.as_ref().and_then(|p| p.master_fd())
    }

    /// An upgrade: the input not yet written to the program (a paste it
    /// has not read); nothing more is written until given back.
    pub fn take_input_for_handoff(&self) -> Vec<u8> {
        self.process
            .as_ref()
            .map(|p| p.take_input_for_handoff())
            .unwrap_or_default()
    }

    /// The upgrade failed: `taken` is written again, first.
    pub fn give_back_input(&self, taken: Vec<u8>) {
        if let Some(p) = &self.process {
            p.give_back_input(taken);
        }
    }
    /// `process`, or what `spawn_error` says of why there is none.
    pub(in crate::pane) fn new(
        process: Option<Box<dyn PaneProcess>>,
        spawn_error: Option<String>,
    ) -> Self {
        Self {
            output_closed: process.is_none(),
            process,
            unfed: Unfed::default(),
            exit: None,
            exit_note: None,
            spawn_error,
        }
    }

    /// The channel the render loop selects on; `None` when nothing runs or
    /// the reader has finished (a disconnected channel is always "ready" and
    /// would spin the loop).
    pub fn output(&self) -> Option<&Receiver<OutputChunk>> {
        if self.output_closed {
            return None;
        }
        self.process.as_ref().map(|p| p.output())
    }

    /// The next chunk of output, if one is waiting.
    pub fn try_output(&mut self) -> Option<OutputChunk> {
        if self.output_closed {
            return None;
        }
        match self.process.as_ref()?.output().try_recv() {
            Ok(chunk) => Some(chunk),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.output_closed = true;
                None
            }
        }
    }

    /// The PTY the loop polls while this pane is quiet (see
    /// `reader_gate`), if it does.
    pub fn quiet_fd(&self) -> Option<BorrowedFd<'_>> {
        self.process.as_ref()?.quiet_fd()
    }

    /// Output the loop reads itself from a quiet PTY, as a chunk. Call
    /// only after the output channel came up empty, having seen
    /// [`Self::quiet_fd`] before taking from it: then it is in order.
    pub fn read_quiet(&mut self) -> Option<OutputChunk> {
        let mut buf = [0u8; QUIET_READ_SIZE];
        match self.process.as_ref()?.read_quiet(&mut buf) {
            QuietRead::Bytes(n) => Some(buf[..n].to_vec()),
            QuietRead::Nothing | QuietRead::Ended => None,
        }
    }

    /// Messages waiting in the output channel, for the overlay.
    pub fn queued(&self) -> usize {
        self.process.as_ref().map_or(0, |p| p.output().len())
    }

    /// Takes a chunk of program output to feed with
    /// [`crate::pane::Pane::feed_until`].
    pub fn take_in(&mut self, chunk: OutputChunk) {
        self.unfed.push(chunk);
    }

    /// Output taken in but not fed yet, in bytes.
    pub fn unfed(&self) -> usize {
        self.unfed.len()
    }

    /// Takes whatever the reader already queued (its last bytes) in,
    /// without blocking.
    pub(in crate::pane) fn take_in_pending(&mut self) {
        if let Some(p) = &self.process {
            for chunk in p.output().try_iter() {
                self.unfed.push(chunk);
            }
        }
    }

    /// Hands a fed chunk's buffer back to the reader.
    pub(in crate::pane) fn recycle(&self, chunk: OutputChunk) {
        if let Some(p) = &self.process {
            p.recycle(chunk);
        }
    }

    /// Sends bytes to the program (keys, paste, query answers). Never blocks.
    pub fn send(&self, bytes: &[u8]) -> bool {
        match &self.process {
            Some(p) if self.exit.is_none() => p.send_input(bytes),
            _ => false,
        }
    }

    /// [`Self::send`] of a buffer the program may keep as it is (a paste).
    pub fn send_owned(&self, bytes: Vec<u8>) -> bool {
        match &self.process {
            Some(p) if self.exit.is_none() => p.send_input_owned(bytes),
            _ => false,
        }
    }

    /// Until when the loop should leave the user's terminal unread: much
    /// input waits for this program, which is taking it.
    pub fn input_hold(&self) -> Option<std::time::Instant> {
        self.process.as_ref().and_then(|p| p.input_hold())
    }

    /// Whether the program's terminal is still canonical (it reads lines,
    /// not keys): answers to its queries wait (see `held_replies`).
    pub fn reads_lines(&self) -> bool {
        self.process.as_ref().is_some_and(|p| p.reads_lines())
    }

    /// Tells the PTY the new size, in cells of `cell` pixels.
    pub(in crate::pane) fn resize(
        &self,
        rows: u16,
        cols: u16,
        cell: crate::graphics::reach::CellPixels,
    ) {
        if let Some(p) = &self.process {
            p.resize(rows, cols, cell);
        }
    }

    pub fn exit(&self) -> Option<ExitInfo> {
        self.exit
    }

    pub(in crate::pane) fn set_exit(&mut self, info: ExitInfo) {
        self.exit = Some(info);
    }

    pub fn spawn_error(&self) -> Option<&str> {
        self.spawn_error.as_deref()
    }

    pub fn exit_note(&self) -> Option<&str> {
        self.exit_note.as_deref()
    }

    pub(in crate::pane) fn set_exit_note(&mut self, note: Option<String>) {
        self.exit_note = note;
    }

    /// Hangs up on the program (non-blocking; the waiter thread reaps it).
    pub fn terminate(&self) {
        if let Some(p) = &self.process {
            p.terminate();
        }
    }

    pub fn kill_now(&self) {
        if let Some(p) = &self.process {
            p.kill_now();
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().and_then(|p| p.pid())
    }
}
