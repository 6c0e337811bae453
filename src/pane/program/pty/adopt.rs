//! A program already running on a PTY, taken over from another tilework
//! process (an upgrade, see `crate::upgrade`): the same threads as a
//! spawned one, around the PTY master that came over the socket.
//!
//! Two things differ from [`PtyProcess::spawn`]:
//! - the program is not this process's child: its end is seen on a pidfd
//!   (`pidfd_open(2)` works on any process), and its exit status is read
//!   from the note its parent, the old process become its reaper, writes
//!   (see [`exit_note`](super::exit_note)); without one (a program taken
//!   from a tilework that leaves no reaper) the pane says status 0;
//! - the reader thread starts parked (the loop holds the PTY): nothing is
//!   read before the loop runs, so a takeover that is called off before
//!   then has taken no byte from the old process.

use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use crossbeam_channel::bounded;
use filedescriptor::FileDescriptor;
use portable_pty::{MasterPty, PtySize};

use super::exit_note::ExitNotes;
use super::reading::{Gate, Reading};
use super::writing::Writing;
use super::{DRAIN_GRACE, ExitInfo, OUTPUT_CHANNEL_CAPACITY, PtyProcess};
use crate::pane::program::input_queue::InputQueue;
use crate::pane::program::{children, exit_watch};

impl PtyProcess {
    /// Takes over program `pid` running on the PTY whose master is
    /// `master`. `on_exit` is called from the waiter thread once the
    /// program is gone and the reader drained.
    pub fn adopt(
        master: OwnedFd,
        pid: u32,
        notes: Option<ExitNotes>,
        on_exit: impl FnOnce(ExitInfo) + Send + 'static,
    ) -> Result<Self> {
        let start = ExitNotes::watch(pid);
        let raw_pid = i32::try_from(pid).context("a process id out of range")?;
        let pidfd = rustix::process::Pid::from_raw(raw_pid)
            .context("process id 0")
            .and_then(|p| {
                rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty())
                    .with_context(|| format!("watching process {pid}"))
            })?;
        let master = AdoptedMaster(master);
        let reader = master.try_clone_reader()?;
        let dup = || FileDescriptor::dup(&master.0).context("duplicating the PTY descriptor");
        let mut direct = dup()?;
        direct
            .set_non_blocking(true)
            .context("making the PTY non-blocking")?;
        let (read_ready, write_ready, quiet) = (dup()?, dup()?, dup()?);

        let (output_tx, output_rx) = bounded(OUTPUT_CHANNEL_CAPACITY);
        let (recycle_tx, recycle_rx) = bounded(OUTPUT_CHANNEL_CAPACITY + 2);
        let input = Arc::new(InputQueue::default());
        let writing = Writing::new(write_ready, Arc::clone(&input), format!("pty-write-{pid}"));
        let (drained_tx, drained_rx) = bounded::<()>(1);
        // Parked until the loop runs: see the module's comment.
        let gate = Arc::new(Gate::default());
        let parked = gate.park(
            Reading {
                reader,
                ready: read_ready,
                output_tx,
                recycle_rx,
                drained_tx: drained_tx.clone(),
                gate: Arc::clone(&gate),
                name: format!("pty-read-{pid}"),
            },
            true,
        );
        debug_assert!(
            parked.is_none(),
            "a quiet reader is always left at the gate"
        );
        let on_gone = move || {
            let info = notes.and_then(|n| n.wait(pid, start));
            let _ = drained_rx.recv_timeout(DRAIN_GRACE);
            on_exit(info.unwrap_or(ExitInfo {
                code: 0,
                signal: false,
            }));
        };
        if exit_watch::running() {
            exit_watch::watch(pidfd, format!("pty-exit-{pid}"), Box::new(on_gone));
        } else {
            crate::jobs::named(&format!("pty-wait-{pid}"), move || {
                wait_gone(&pidfd);
                on_gone();
            })
            .context("starting the process watcher thread")?;
        }
        children::register(raw_pid);
        Ok(Self {
            master: Box::new(master),
            direct: Mutex::new(direct),
            input,
            writing,
            pid: Some(pid),
            output_rx,
            recycle_tx,
            gate,
            quiet,
            drained_tx,
        })
    }

    /// The PTY's master, to hand to another process (an upgrade).
    pub fn master_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.quiet.as_fd()
    }

    /// Stops the reader thread before its next read (the loop holds the
    /// PTY, and reads it only when it polls it). True once the thread reads
    /// nothing more; the caller empties the output channel meanwhile (the
    /// thread may wait to send its last chunk).
    pub fn hold_reader(&self) -> bool {
        self.gate.to_loop();
        self.gate.thread_parked()
    }
}

/// Blocks until process `pidfd` is gone.
fn wait_gone(pidfd: &OwnedFd) {
    use rustix::event::{PollFd, PollFlags, poll};
    loop {
        let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
        match poll(&mut fds, None) {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(_) | Err(_) => return,
        }
    }
}

/// A PTY master known only by its descriptor.
struct AdoptedMaster(OwnedFd);

impl MasterPty for AdoptedMaster {
    fn resize(&self, size: PtySize) -> Result<(), anyhow::Error> {
        let winsize = rustix::termios::Winsize {
            ws_row: size.rows,
            ws_col: size.cols,
            ws_xpixel: size.pixel_width,
            ws_ypixel: size.pixel_height,
        };
        rustix::termios::tcsetwinsize(&self.0, winsize).context("resizing the PTY")
    }

    fn get_size(&self) -> Result<PtySize, anyhow::Error> {
        let w = rustix::termios::tcgetwinsize(&self.0).context("reading the PTY's size")?;
        Ok(PtySize {
            rows: w.ws_row,
            cols: w.ws_col,
            pixel_width: w.ws_xpixel,
            pixel_height: w.ws_ypixel,
        })
    }

    fn try_clone_reader(&self) -> Result<Box<dyn Read + Send>, anyhow::Error> {
        let fd = self.0.try_clone().context("cloning the PTY reader")?;
        Ok(Box::new(std::fs::File::from(fd)))
    }

    fn take_writer(&self) -> Result<Box<dyn Write + Send>, anyhow::Error> {
        let fd = self.0.try_clone().context("taking the PTY writer")?;
        Ok(Box::new(std::fs::File::from(fd)))
    }

    fn process_group_leader(&self) -> Option<i32> {
        rustix::termios::tcgetpgrp(&self.0)
            .ok()
            .map(rustix::process::Pid::as_raw_nonzero)
            .map(std::num::NonZeroI32::get)
    }

    fn as_raw_fd(&self) -> Option<RawFd> {
        Some(self.0.as_raw_fd())
    }

    fn tty_name(&self) -> Option<std::path::PathBuf> {
        None
    }
}
