//! The socket's listener thread, and the gate an upgrade closes before it
//! hands the socket over (see `crate::upgrade`).
//!
//! The old and the new workspace process share one listening socket. A
//! connection the old process accepts and has not answered when it exits
//! is reset: so before the socket is given, the old process stops
//! accepting ([`Gate::stop`]) and waits until every conversation it
//! accepted is answered ([`Gate::wait_quiet`]); a client that connects
//! after that waits in the socket's backlog until the new process, which
//! starts accepting only once the old one has let go, takes it (or, when
//! the handoff fails, until the old one accepts again, [`Listening::start`]).
//!
//! The thread waits in poll(2) on the socket and on a wake pipe, never in a
//! blocking accept(2): one blocked there could not be told to stop, and
//! would take a connection meant for the new process.

use std::io::{Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rustix::event::{PollFd, PollFlags};

/// What the listener does with a connection it accepted: `busy` is held
/// until the connection is answered (or handed to the loop for good).
pub type Serve = Arc<dyn Fn(UnixStream, Busy) + Send + Sync>;

/// The listening socket and its thread.
pub struct Listening {
    listener: UnixListener,
    gate: Arc<Gate>,
    serve: Serve,
}

impl Listening {
    pub fn new(
        listener: UnixListener,
        serve: impl Fn(UnixStream, Busy, &Arc<Gate>) + Send + Sync + 'static,
    ) -> Result<Self> {
        let gate = Arc::new(Gate::new()?);
        let for_serve = Arc::clone(&gate);
        let serve: Serve = Arc::new(move |stream, busy| serve(stream, busy, &for_serve));
        Ok(Self {
            listener,
            gate,
            serve,
        })
    }

    /// Starts accepting (again), unless the thread runs already.
    pub fn start(&self) -> Result<()> {
        {
            let mut state = self.gate.lock();
            if state.running {
                return Ok(());
            }
            state.running = true;
            state.stopping = false;
        }
        let started = self
            .listener
            .try_clone()
            .context("keeping the listening socket")
            .and_then(|listener| {
                let gate = Arc::clone(&self.gate);
                let serve = Arc::clone(&self.serve);
                crate::jobs::named("session-listener", move || {
                    listen(&listener, &gate, &serve);
                    gate.lock().running = false;
                    gate.changed.notify_all();
                })
                .context("starting the session listener")
            });
        if started.is_err() {
            self.gate.lock().running = false;
        }
        started.map(drop)
    }

    /// Whether the thread has stopped accepting (an upgrade stopped it).
    pub fn stopped(&self) -> bool {
        !self.gate.lock().running
    }

    /// The listening socket, to hand over.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.listener.as_fd()
    }
}

/// The listener's gate: whether it accepts, and the conversations it
/// accepted that are not answered yet.
pub struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
    wake_rx: std::io::PipeReader,
    wake_tx: std::io::PipeWriter,
}

#[derive(Default)]
struct GateState {
    /// The thread is to stop at its next wake-up.
    stopping: bool,
    /// The thread runs.
    running: bool,
    /// Conversations accepted and not answered yet.
    busy: usize,
}

impl Gate {
    fn new() -> Result<Self> {
        let (wake_rx, wake_tx) = std::io::pipe().context("making the listener's wake pipe")?;
        Ok(Self {
            state: Mutex::new(GateState::default()),
            changed: Condvar::new(),
            wake_rx,
            wake_tx,
        })
    }

    fn lock(&self) -> MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells the thread to stop accepting (it stops within its turn).
    pub fn stop(&self) {
        let mut state = self.lock();
        if state.stopping || !state.running {
            return;
        }
        state.stopping = true;
        // One byte in an empty pipe: never blocks.
        let _ = (&self.wake_tx).write_all(b"s");
    }

    /// Waits until the thread has stopped and every conversation it
    /// accepted is answered; false when `deadline` passed first.
    pub fn wait_quiet(&self, deadline: Instant) -> bool {
        let mut state = self.lock();
        while state.running || state.busy > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                tracing::warn!(
                    running = state.running,
                    busy = state.busy,
                    "the listener did not go quiet in time"
                );
                return false;
            }
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }

    fn enter(self: &Arc<Self>) -> Busy {
        self.lock().busy += 1;
        Busy(Arc::clone(self))
    }

    fn stopping(&self) -> bool {
        self.lock().stopping
    }
}

/// One accepted conversation not answered yet; dropped once it is.
pub struct Busy(Arc<Gate>);

impl Drop for Busy {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.busy = state.busy.saturating_sub(1);
        drop(state);
        self.0.changed.notify_all();
    }
}

/// The listener thread: each connection accepted goes to `serve` with its
/// [`Busy`]. Asleep in poll(2) otherwise: no wake-ups. Returns once told
/// to stop.
fn listen(listener: &UnixListener, gate: &Arc<Gate>, serve: &Serve) {
    // Shared with whichever process takes the socket over: it polls first
    // too. A blocking accept here could not be woken to stop.
    if let Err(err) = listener.set_nonblocking(true) {
        tracing::warn!("making the listening socket non-blocking: {err}");
    }
    loop {
        if gate.stopping() {
            return;
        }
        let (incoming, woken) = {
            let mut fds = [
                PollFd::new(listener, PollFlags::IN),
                PollFd::new(&gate.wake_rx, PollFlags::IN),
            ];
            match rustix::event::poll(&mut fds, None) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(err) => {
                    tracing::warn!("waiting for session clients: {err}");
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            }
            (!fds[0].revents().is_empty(), !fds[1].revents().is_empty())
        };
        if woken {
            // Readable: this read does not block.
            let mut bytes = [0u8; 64];
            let _ = (&gate.wake_rx).read(&mut bytes);
            continue;
        }
        if !incoming || gate.stopping() {
            continue;
        }
        match listener.accept() {
            Ok((stream, _)) => {
                // Counted before the thread can stop: an upgrade waits
                // for it to be answered.
                let busy = gate.enter();
                serve(stream, busy);
            }
            // Taken by the other process sharing the socket.
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(err) => {
                tracing::warn!("accepting a session client: {err}");
                // EMFILE and the like: do not spin on them.
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}
