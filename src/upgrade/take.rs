//! The new process's side: asks the old workspace for itself, and builds
//! the parts a workspace starts from out of what came: the listening
//! socket, the attached terminals as arrivals, and a launcher that takes
//! the panes' programs over instead of starting them.

use std::collections::VecDeque;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result, bail};

use super::state::{Header, PaneState};
use super::wire;
use crate::pane::PaneId;
use crate::pane::event::{PaneEvent, PaneMailbox};
use crate::pane::program::process::{Launcher, PaneProcess, PtyLauncher};
use crate::pane::program::pty::{PtyProcess, SpawnSpec};
use crate::session::host::{Arrival, handover};
use crate::session::proto::{AttachMode, Joining, Request};

/// A workspace taken over, before its loop runs.
pub struct Taken {
    pub header: Header,
    pub panes: Vec<PaneState>,
    /// The pictures' pixels (see `Header::pictures`).
    pub pixels: Vec<u8>,
    pub listener: UnixListener,
    /// The attached terminals, oldest first.
    pub terminals: Vec<Arrival>,
    /// Each pane's PTY master and program, in the panes' order (none for a
    /// pane whose program had ended).
    programs: Vec<Option<(OwnedFd, u32)>>,
    /// The conversation with the old process, until it lets go.
    stream: UnixStream,
    /// Where the new process says how it went (`tilework upgrade` reads it).
    report: Option<OwnedFd>,
}

/// Asks the workspace listening on `path` to hand itself over; how it
/// went is written to `report` in the end (see [`Taken::confirm`]).
pub fn take(path: &Path, report: OwnedFd) -> Result<Taken> {
    let stream =
        UnixStream::connect(path).with_context(|| format!("connecting to {}", path.display()))?;
    let (oldest, newest) = crate::release::formats_read();
    (&stream)
        .write_all(Request::Handoff { oldest, newest }.line().as_bytes())
        .context("asking for the workspace")?;
    let received = wire::receive(&stream)?;
    let header = received.header;
    let panes = header.panes(&received.body)?;
    let pixels = header.picture_pixels(&received.body).to_vec();
    let handed = header.panes.iter().filter(|p| p.pid.is_some()).count();
    let expected = 1 + handed + 4 * header.terminals.len();
    if received.fds.len() != expected {
        bail!(
            "{} descriptors came, {expected} expected",
            received.fds.len()
        );
    }
    let mut fds = received.fds.into_iter();
    let mut next = || fds.next().context("a descriptor missing");
    let listener = UnixListener::from(next()?);
    let mut programs = Vec::with_capacity(header.panes.len());
    for pane in &header.panes {
        programs.push(match pane.pid {
            Some(pid) => Some((next()?, pid)),
            None => None,
        });
    }
    let mut terminals = Vec::with_capacity(header.terminals.len());
    for request in &header.terminals {
        let stream = UnixStream::from(next()?);
        let fds = [next()?, next()?, next()?];
        terminals.push(handover::arrival(stream, fds, request)?);
    }
    Ok(Taken {
        header,
        panes,
        pixels,
        listener,
        terminals,
        programs,
        stream,
        report: Some(report),
    })
}

/// A terminal of this process's own, for a workspace no terminal showed
/// (a workspace starts with one): its client is gone at once, so the loop
/// lets it go on its first turn, and the workspace runs detached at
/// `size`, as it did. Its controller is kept open for good, so it never
/// hangs up.
pub fn parked_terminal(size: Option<(u16, u16)>) -> Result<Arrival> {
    let (controller, user) = crate::os::open_pty().context("opening a terminal to start on")?;
    if let Some((rows, cols)) = size {
        let winsize = rustix::termios::Winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        rustix::termios::tcsetwinsize(&controller, winsize).context("sizing the terminal")?;
    }
    std::mem::forget(controller);
    let (ours, theirs) = UnixStream::pair().context("making its connection")?;
    drop(ours);
    let fds = [user.try_clone()?, user.try_clone()?, user];
    Ok(Arrival {
        stream: theirs,
        fds,
        facts: Default::default(),
        joining: Joining {
            mode: AttachMode::Join,
            env: Vec::new(),
            select: None,
        },
    })
}

/// Tells `tilework upgrade` (on `report`) that the takeover failed.
pub fn report_failure(report: OwnedFd, err: &anyhow::Error) {
    let _ = writeln!(std::fs::File::from(report), "error {err:#}");
}

impl Taken {
    /// A launcher that takes the programs over, in the panes' order, then
    /// starts new ones as usual; exits are reported on `events`.
    pub fn launcher(&mut self, events: PaneMailbox) -> Box<dyn Launcher> {
        Box::new(Adopting {
            programs: Mutex::new(std::mem::take(&mut self.programs).into()),
            events: events.clone(),
            usual: PtyLauncher::new(events),
        })
    }

    /// Tells the old process this one is up, and waits for it to let go;
    /// then tells `tilework upgrade`. Call with everything built, before
    /// the loop runs. When the old process does not let go (its deadline
    /// passed, it is gone), this process exits at once: nothing here was
    /// used yet (no byte read from a program or a terminal, nothing
    /// drawn), and the workspace runs on in the old process.
    pub fn confirm(&mut self) {
        let confirmed = wire::confirm(&self.stream);
        let report = self.report.take().map(std::fs::File::from);
        match confirmed {
            Ok(()) => {
                tracing::info!(from = %self.header.version, "took the workspace over");
                if let Some(mut report) = report {
                    let _ = writeln!(report, "up {}", std::process::id());
                }
            }
            Err(err) => {
                tracing::error!("the old workspace did not let go: {err:#}; exiting");
                if let Some(mut report) = report {
                    let _ = writeln!(report, "error {err:#}");
                }
                std::process::exit(1);
            }
        }
    }
}

struct Adopting {
    programs: Mutex<VecDeque<Option<(OwnedFd, u32)>>>,
    events: PaneMailbox,
    usual: PtyLauncher,
}

impl Launcher for Adopting {
    fn launch(
        &self,
        id: PaneId,
        spec: &SpawnSpec,
        rows: u16,
        cols: u16,
        cell: crate::graphics::reach::CellPixels,
    ) -> Result<Box<dyn PaneProcess>> {
        let next = self
            .programs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        match next {
            None => self.usual.launch(id, spec, rows, cols, cell),
            Some(None) => bail!("its program had ended before the upgrade"),
            Some(Some((master, pid))) => {
                let events = self.events.clone();
                let notes = crate::session::dir::runtime_dir()
                    .ok()
                    .map(|dir| super::reaper::notes_in(&dir));
                let process = PtyProcess::adopt(master, pid, notes, move |info| {
                    events.post(PaneEvent::Exited(id, info));
                })?;
                // The same size does not signal the program.
                process.resize(rows, cols, cell);
                Ok(Box::new(process))
            }
        }
    }

    fn kill_all(&self) {
        self.usual.kill_all();
    }
}
