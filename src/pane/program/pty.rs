//! A child program on a pseudo-terminal, and the threads that move its bytes.
//!
//! Blocking rules, a thread for each wait so the render loop never blocks,
//! and no thread for a pane that is quiet (a hundred idle panes' threads
//! were a fifth of their memory, docs/memory.md):
//! - the **reader** blocks in `read(2)` on the PTY and then in `send` on the
//!   bounded output channel. A full channel is the backpressure: the reader
//!   stops reading, the kernel's PTY buffer fills, the child blocks in its
//!   own `write`. Nothing is dropped. Once the PTY is quiet for
//!   [`QUIET_HANDOVER`] it hands the PTY to the loop, which polls it with
//!   everything else and reads the next echo itself, and the thread exits;
//!   a read bringing more than [`ECHO_READ_MAX`] starts a new one (see
//!   `reader_gate`).
//! - the **writer** blocks in `write(2)` to the PTY when the child is not
//!   reading its input; the loop writes keys itself and only queues what
//!   must wait, starting a writer thread then (`writing`).
//! - the **exit watcher**, one thread for every pane (`exit_watch`), polls
//!   each child's pidfd and reports its exit status once the reader has
//!   delivered the last bytes (or a grandchild keeps the PTY open past a
//!   short grace period).

use std::io::{ErrorKind, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use std::sync::{Arc, Mutex, PoisonError};

use crossbeam_channel::{Receiver, Sender, bounded};
use filedescriptor::{FileDescriptor, pollfd};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};

use crate::graphics::reach::CellPixels;
use crate::pane::program::input_queue::InputQueue;
use crate::pane::program::reader_gate::Holder;
use crate::pane::program::{children, exit_watch};
use reading::{Gate, Reading};
use writing::Writing;

/// Taking over a program on a PTY from another tilework (an upgrade).
mod adopt;
pub mod exit_note;
mod reading;
mod writing;

/// The most one chunk from the reader thread holds: up to four of a
/// flood's reads (a PTY hands out at most ~4 KiB a read).
pub const CHUNK_BYTES: usize = 16 * 1024;

/// Messages queued between a pane's reader and the render loop. 16 chunks
/// of up to 16 KiB (a flooding `cat`'s four reads) is up to 256 KiB in
/// flight: enough that the reader rarely waits while the loop draws a
/// frame (~1 ms at 76 MB/s is ~76 KB), small enough that a flood cannot
/// pile up memory.
pub const OUTPUT_CHANNEL_CAPACITY: usize = 16;

/// How long the reader thread waits for more output before it hands a
/// quiet PTY to the loop. Output comes in bursts (a command's lines, a
/// redraw): within one the thread keeps reading, after it the loop waits
/// for the next echo.
pub const QUIET_HANDOVER: Duration = Duration::from_millis(5);

/// What the loop asks for in one read of a quiet PTY: what the kernel
/// hands out at most per read.
pub const QUIET_READ_SIZE: usize = 4096;

/// A read by the loop bigger than this is not an echo: output streams, and
/// the reader thread takes the PTY back.
pub const ECHO_READ_MAX: usize = 1024;

/// How long the waiter lets the reader drain after the child exited before
/// reporting anyway (a grandchild may hold the PTY open forever).
const DRAIN_GRACE: Duration = Duration::from_millis(250);

/// What to run in a pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnSpec {
    /// Program and arguments; run directly, no shell in between.
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// Variables the pane must not get (the attaching terminal had them
    /// unset: see `ChildEnv::refresh`).
    pub unset: Vec<String>,
}

/// The pane's program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitInfo {
    /// Exit code; 128 + signal number when killed by a signal, like a shell.
    pub code: i32,
    pub signal: bool,
}

/// Bytes from the reader. Buffers come back through the recycle channel so
/// a steady flood allocates nothing.
pub type OutputChunk = Vec<u8>;

/// A spawned child and the handles the loop keeps.
pub struct PtyProcess {
    master: Box<dyn MasterPty + Send>,
    /// The PTY (non-blocking) for writing keys from the loop when nothing
    /// is queued (see `send_input`).
    direct: Mutex<FileDescriptor>,
    input: Arc<InputQueue>,
    /// Starts a writer thread when input must wait.
    writing: Writing,
    pid: Option<u32>,
    /// The reader's output; the loop selects on it.
    pub output_rx: Receiver<OutputChunk>,
    /// Where the loop returns parsed buffers for reuse.
    pub recycle_tx: Sender<OutputChunk>,
    /// Whether the loop or the reader thread reads the PTY.
    gate: Arc<Gate>,
    /// The PTY (non-blocking) for the loop's poll and reads while it
    /// holds it.
    quiet: FileDescriptor,
    /// Tells the waiter the output ended, when the loop read the end.
    drained_tx: Sender<()>,
}

/// What a read of a quiet PTY by the loop gave.
#[derive(Debug, PartialEq, Eq)]
pub enum QuietRead {
    /// Bytes (in the buffer passed), the first `n`.
    Bytes(usize),
    /// Nothing yet, or the thread holds the PTY.
    Nothing,
    /// The program's side closed: no more output.
    Ended,
}

impl PtyProcess {
    /// Spawns `spec` on a new PTY of `rows` x `cols` cells of `cell`
    /// pixels. `on_exit` is called from the waiter thread with the exit
    /// status, after the reader drained.
    pub fn spawn(
        spec: &SpawnSpec,
        rows: u16,
        cols: u16,
        cell: CellPixels,
        on_exit: impl FnOnce(ExitInfo) + Send + 'static,
    ) -> Result<Self> {
        let program = spec.argv.first().context("empty command line")?;
        let pair = native_pty_system()
            .openpty(pty_size(rows, cols, cell))
            .context("opening a pseudo-terminal")?;
        let mut cmd = CommandBuilder::new(program);
        cmd.args(&spec.argv[1..]);
        let cwd = match &spec.cwd {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().context("reading the current directory")?,
        };
        cmd.cwd(&cwd);
        // Variables of an outer multiplexer would make programs think they
        // run inside it.
        for var in ["TMUX", "TMUX_PANE", "ZELLIJ", "ZELLIJ_SESSION_NAME", "STY"] {
            cmd.env_remove(var);
        }
        for var in &spec.unset {
            cmd.env_remove(var);
        }
        for (k, v) in &spec.env {
            cmd.env(k, v);
        }
        let mut child = pair
            .slave
            .spawn_command(cmd)
            .with_context(|| format!("starting `{}` in {}", spec.argv.join(" "), cwd.display()))?;
        // Our copy of the slave must go, or the reader never sees EOF.
        drop(pair.slave);
        let pid = child.process_id();

        let reader = pair
            .master
            .try_clone_reader()
            .context("cloning the PTY reader")?;
        // No writer is taken from portable-pty (dropping it would send ^D):
        // the writer thread writes to a descriptor of its own.
        // The PTY is non-blocking, so the loop can write a key itself
        // instead of waking the writer thread (one thread hop less between
        // a key and its echo) and still never block on a program that
        // stopped reading. The reader and writer threads wait in poll(2).
        let master_fd = pair
            .master
            .as_raw_fd()
            .context("the PTY has no file descriptor")?;
        let dup = || FileDescriptor::dup(&master_fd).context("duplicating the PTY descriptor");
        let mut direct = dup()?;
        direct
            .set_non_blocking(true)
            .context("making the PTY non-blocking")?;
        let (read_ready, write_ready, quiet) = (dup()?, dup()?, dup()?);

        let (output_tx, output_rx) = bounded(OUTPUT_CHANNEL_CAPACITY);
        let (recycle_tx, recycle_rx) = bounded(OUTPUT_CHANNEL_CAPACITY + 2);
        let input = Arc::new(InputQueue::default());
        let writing = Writing::new(
            write_ready,
            Arc::clone(&input),
            format!("pty-write-{}", pid.unwrap_or(0)),
        );
        let (drained_tx, drained_rx) = bounded::<()>(1);
        let gate = Arc::new(Gate::default());

        reading::start(Reading {
            reader,
            ready: read_ready,
            output_tx,
            recycle_rx,
            drained_tx: drained_tx.clone(),
            gate: Arc::clone(&gate),
            name: format!("pty-read-{}", pid.unwrap_or(0)),
        });
        let on_gone = move |info| {
            let _ = drained_rx.recv_timeout(DRAIN_GRACE);
            on_exit(info);
        };
        match pid.and_then(watchable) {
            Some((raw_pid, pidfd)) => {
                drop(child);
                exit_watch::watch(
                    pidfd,
                    format!("pty-exit-{raw_pid}"),
                    Box::new(move || on_gone(reap(raw_pid))),
                );
            }
            None => {
                crate::jobs::named(&format!("pty-wait-{}", pid.unwrap_or(0)), move || {
                    let info = match child.wait() {
                        Ok(status) => exit_info(&status),
                        Err(err) => {
                            tracing::warn!("waiting for child: {err}");
                            ExitInfo {
                                code: 1,
                                signal: false,
                            }
                        }
                    };
                    on_gone(info);
                })
                .context("starting the child waiter thread")?;
            }
        }

        if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
            children::register(pid);
        }
        Ok(Self {
            master: pair.master,
            direct: Mutex::new(direct),
            input,
            writing,
            pid,
            output_rx,
            recycle_tx,
            gate,
            quiet,
            drained_tx,
        })
    }

    /// Whether the program's side is in canonical mode (a PTY master's
    /// termios are its slave's on Linux). Unknown counts as raw: answers
    /// are never held on a guess.
    pub fn reads_lines(&self) -> bool {
        rustix::termios::tcgetattr(&self.quiet)
            .is_ok_and(|t| t.local_modes.contains(rustix::termios::LocalModes::ICANON))
    }

    /// The PTY to poll while the loop holds it (see `reader_gate`).
    pub fn quiet_fd(&self) -> Option<BorrowedFd<'_>> {
        (self.gate.holder() == Holder::Loop).then(|| self.quiet.as_fd())
    }

    /// Reads what a quiet PTY has into `buf`, if the loop holds it. A read
    /// of more than [`ECHO_READ_MAX`] hands the PTY back to the thread.
    /// The caller must have emptied the output channel after it saw the
    /// loop hold the PTY (`quiet_fd`), so the bytes come in order.
    pub fn read_quiet(&self, buf: &mut [u8]) -> QuietRead {
        if self.gate.holder() != Holder::Loop {
            return QuietRead::Nothing;
        }
        loop {
            return match rustix::io::read(&self.quiet, &mut *buf) {
                Ok(0) | Err(rustix::io::Errno::IO) => {
                    // The program's side is closed (EIO on Linux).
                    self.gate.end();
                    let _ = self.drained_tx.try_send(());
                    QuietRead::Ended
                }
                Ok(n) => {
                    if n > ECHO_READ_MAX
                        && let Some(reading) = self.gate.to_thread()
                    {
                        reading::start(reading);
                    }
                    QuietRead::Bytes(n)
                }
                Err(rustix::io::Errno::INTR) => continue,
                Err(rustix::io::Errno::AGAIN) => QuietRead::Nothing,
                Err(err) => {
                    tracing::debug!("PTY read by the loop ended: {err}");
                    self.gate.end();
                    let _ = self.drained_tx.try_send(());
                    QuietRead::Ended
                }
            };
        }
    }

    /// Hands a fed chunk's buffer back to the reader thread, while one
    /// runs and has room for it; otherwise it is freed, so a quiet pane
    /// keeps no buffers (its thread let go of those it held when it left).
    pub fn give_back(&self, chunk: OutputChunk) {
        // A buffer that grew past a chunk's size was not the reader's.
        if chunk.capacity() > CHUNK_BYTES || self.gate.holder() != Holder::Thread {
            return;
        }
        // A full recycle channel just means the reader has enough buffers.
        let _ = self.recycle_tx.try_send(chunk);
    }

    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Sends bytes to the child without blocking: written at once when
    /// nothing is queued (a key, usually), else queued for the writer
    /// thread. Returns false when the child has stopped reading and the
    /// queue's byte budget is used up: the bytes are refused rather than
    /// freezing the workspace (see `input_queue`).
    pub fn send_input(&self, bytes: &[u8]) -> bool {
        self.send(bytes, None)
    }

    /// [`Self::send_input`] of a buffer the queue may keep as it is (a
    /// paste: not copied again).
    pub fn send_input_owned(&self, bytes: Vec<u8>) -> bool {
        self.send(&[], Some(bytes))
    }

    fn send(&self, borrowed: &[u8], owned: Option<Vec<u8>>) -> bool {
        let bytes = owned.as_deref().unwrap_or(borrowed);
        let written = self.input.write_if_idle(bytes, |bytes| {
            self.direct
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .write(bytes)
        });
        let start = written.unwrap_or(0);
        if start >= bytes.len() {
            return true;
        }
        let queued = match owned {
            Some(owned) => self.input.push_owned(owned, start),
            None => self.input.push(&borrowed[start..]),
        };
        if !queued {
            tracing::warn!(pid = ?self.pid, "pane input queue full or closed; input refused");
            return false;
        }
        self.writing.ensure_running();
        // Behind a backlog the writer is waiting for the program to read:
        // handing it the CPU would only slow the loop, key by key.
        if written.is_none() {
            return true;
        }
        // The writer thread was just woken, usually onto this thread's CPU
        // (wake-affine). Under load (a flood in another pane keeps both
        // cores busy) it then waited for the render loop's time slice to
        // end: `perf sched` measured 0.2 ms average and 4 ms worst-case
        // delay before the key reached the program. Yielding lets it run
        // now; with a CPU to spare this returns at once.
        std::thread::yield_now();
        true
    }

    /// Until when the loop should leave the user's terminal unread, while
    /// much input waits for a program that takes it (see `input_queue`).
    pub fn input_hold(&self) -> Option<Instant> {
        self.input.hold_until()
    }

    /// An upgrade: every byte of input not yet written, and nothing written
    /// from now on until [`Self::give_back_input`] (see `InputQueue`).
    pub fn take_input_for_handoff(&self) -> Vec<u8> {
        self.input.take_for_handoff()
    }

    /// The upgrade failed: `taken` is written again, first.
    pub fn give_back_input(&self, taken: Vec<u8>) {
        self.input.give_back(taken);
        self.writing.ensure_running();
    }

    /// Bytes of input the child has not read yet.
    pub fn input_queued(&self) -> usize {
        self.input.queued()
    }

    /// Tells the kernel (and so the child, by SIGWINCH) the new size, in
    /// cells of `cell` pixels.
    pub fn resize(&self, rows: u16, cols: u16, cell: CellPixels) {
        if let Err(err) = self.master.resize(pty_size(rows, cols, cell)) {
            tracing::warn!(pid = ?self.pid, "resizing PTY: {err}");
        }
    }

    /// The process group in the PTY's foreground (e.g. `vim` started from the
    /// shell), if different from the child itself.
    pub fn foreground_group(&self) -> Option<i32> {
        self.master.process_group_leader()
    }

    /// Hangs up on the child's session without blocking the caller: SIGHUP
    /// now, SIGKILL a moment later for anything that ignored it. The waiter
    /// thread reaps the child.
    pub fn terminate(&self) {
        if let Some(sid) = self.sid() {
            children::end_session(sid);
        }
        if let Some(fg) = self.foreground_group().filter(|&fg| fg > 0) {
            // A foreground job that moved to its own session is still ours.
            signal_groups(&[fg], Signal::SIGHUP);
        }
    }

    /// SIGKILLs the foreground job now (it may have left the child's
    /// session); the sessions themselves go in one `children::kill_all`.
    pub fn kill_now(&self) {
        if let Some(fg) = self.foreground_group().filter(|&fg| fg > 0) {
            signal_groups(&[fg], Signal::SIGKILL);
        }
    }

    fn sid(&self) -> Option<i32> {
        self.pid.and_then(|p| i32::try_from(p).ok())
    }
}

fn signal_groups(groups: &[i32], signal: Signal) {
    for &group in groups {
        // ESRCH (already gone) is the normal case here.
        let _ = killpg(Pid::from_raw(group), signal);
    }
}

/// The size programs read (TIOCGWINSZ), in pixels too (at `cell`, what
/// the pane's program is told): picture programs (`chafa`, `timg`) size
/// what they draw by it.
fn pty_size(rows: u16, cols: u16, cell: CellPixels) -> PtySize {
    PtySize {
        rows,
        cols,
        pixel_width: cols.saturating_mul(cell.width),
        pixel_height: rows.saturating_mul(cell.height),
    }
}

/// `pid` as a pidfd, when the exit watcher runs to poll it.
fn watchable(pid: u32) -> Option<(rustix::process::RawPid, OwnedFd)> {
    let raw = rustix::process::RawPid::try_from(pid).ok()?;
    let pid = rustix::process::Pid::from_raw(raw)?;
    if !exit_watch::running() {
        return None;
    }
    let pidfd = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty())
        .inspect_err(|err| tracing::debug!("pidfd_open({raw}): {err}"))
        .ok()?;
    Some((raw, pidfd))
}

/// Collects the ended child `pid`'s status (it is gone: this does not
/// wait).
fn reap(pid: rustix::process::RawPid) -> ExitInfo {
    let status = rustix::process::Pid::from_raw(pid)
        .map(|p| rustix::process::waitpid(Some(p), rustix::process::WaitOptions::empty()));
    match status {
        Some(Ok(Some((_, status)))) => match status.terminating_signal() {
            Some(signal) => ExitInfo {
                code: 128 + signal,
                signal: true,
            },
            None => ExitInfo {
                code: status.exit_status().unwrap_or(1),
                signal: false,
            },
        },
        other => {
            tracing::warn!("collecting the status of child {pid}: {other:?}");
            ExitInfo {
                code: 1,
                signal: false,
            }
        }
    }
}

fn exit_info(status: &portable_pty::ExitStatus) -> ExitInfo {
    match status.signal() {
        Some(name) => ExitInfo {
            code: 128 + signal_number(name),
            signal: true,
        },
        None => ExitInfo {
            code: i32::try_from(status.exit_code()).unwrap_or(1),
            signal: false,
        },
    }
}

/// portable-pty reports signals by their description ("Hangup", "Killed").
fn signal_number(name: &str) -> i32 {
    let lower = name.to_ascii_lowercase();
    if lower.contains("hangup") {
        1
    } else if lower.contains("interrupt") {
        2
    } else if lower.contains("kill") {
        9
    } else if lower.contains("segmentation") {
        11
    } else if lower.contains("terminated") {
        15
    } else {
        0
    }
}

/// Waits until `fd` is ready for `events` (POLLIN or POLLOUT), or hung up.
fn wait_until(fd: &FileDescriptor, events: i16) -> bool {
    wait_within(fd, events, None).is_some()
}

/// Waits until `fd` is ready for `events`, at most `limit` if given:
/// `Some(true)` when it is (or hung up), `Some(false)` when the time ran
/// out, `None` if it cannot be polled.
fn wait_within(fd: &FileDescriptor, events: i16, limit: Option<Duration>) -> Option<bool> {
    let mut pfd = [pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    }];
    loop {
        match filedescriptor::poll(&mut pfd, limit) {
            Ok(ready) => return Some(ready > 0),
            // A signal for the process (SIGWINCH on every resize of the
            // outer terminal) can land on this thread; poll(2) is never
            // restarted after it.
            Err(filedescriptor::Error::Poll(err)) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => {
                tracing::warn!("polling the PTY: {err}");
                return None;
            }
        }
    }
}

impl Drop for PtyProcess {
    fn drop(&mut self) {
        // A reader thread waiting for its turn leaves.
        self.gate.end();
        // Lets the writer thread finish; it may still be blocked in write(2)
        // until the child dies, which closing the pane arranges.
        self.input.close();
    }
}
