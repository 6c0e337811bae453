//! The one thread that writes every pane pipe's queue to its command, and
//! ends the commands of pipes that are over.
//!
//! It sleeps in one poll(2) over its wake pipe and the commands' stdins
//! (non-blocking: a command that does not read holds up no other), with
//! the nearest ending step as the timeout. The loop hands it pipes and
//! ends through a short list under a mutex and wakes it after each send
//! (an atomic swap unless it sleeps: `wake::Waker`).
//!
//! Ending a pipe, in steps, none of which waits:
//! 1. what is queued is written, for [`GRACE`] at most;
//! 2. the command's stdin closes; once its leader exits (a `cat` at the
//!    end of its input), or [`GRACE`] later, its process group is hung up
//!    on (SIGHUP, SIGTERM);
//! 3. [`GRACE`] later the group is killed (SIGKILL), then the leader is
//!    reaped. The leader stays unreaped until then, so the group's id is
//!    never another's when it is signalled.

use std::io;
use std::process::{Child, ChildStdin};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, TryRecvError};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;
use rustix::event::{PollFd, PollFlags, Timespec};

use crate::pane::program::children;
use crate::wake::Waker;

/// How long each ending step waits for the command.
pub const GRACE: Duration = children::GRACE;
/// How often a killed leader is looked for until it is reaped.
const REAP_EVERY: Duration = Duration::from_millis(20);

/// What the loop hands the thread.
enum Order {
    Add(Box<Flow>),
    End(u64),
    /// The workspace is going: kill every command now and stop.
    Quit,
}

struct Shared {
    orders: Mutex<Vec<Order>>,
    waker: Waker,
}

/// The loop's side of the thread.
pub struct Writer {
    shared: Arc<Shared>,
}

impl Writer {
    pub fn start() -> io::Result<Self> {
        let shared = Arc::new(Shared {
            orders: Mutex::new(Vec::new()),
            waker: Waker::open()?,
        });
        let theirs = Arc::clone(&shared);
        crate::jobs::named("pane-pipes", move || run(&theirs))?;
        Ok(Self { shared })
    }

    pub fn add(&self, flow: Flow) {
        self.order(Order::Add(Box::new(flow)));
    }

    /// Ends the pipe `key` (see the module's steps).
    pub fn end(&self, key: u64) {
        self.order(Order::End(key));
    }

    /// Output was queued: the thread writes it.
    pub fn wake(&self) {
        self.shared.waker.wake();
    }

    fn order(&self, order: Order) {
        self.shared
            .orders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(order);
        self.wake();
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.order(Order::Quit);
    }
}

/// Where a pipe's ending is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Running,
    /// Writing what is queued, until then.
    Flushing(Instant),
    /// Stdin closed; waiting for the leader to exit, until then.
    Closed(Instant),
    /// Hung up on; killed then.
    HungUp(Instant),
    /// Killed; its leader is reaped when it has exited.
    Killed,
}

/// One pipe, as the thread holds it.
pub struct Flow {
    key: u64,
    command: String,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<u8>>,
    /// A chunk partly written, and how far.
    pending: Vec<u8>,
    written: usize,
    child: Child,
    pgid: i32,
    step: Step,
}

impl Flow {
    /// A pipe to `child` (process group `pgid`), whose non-blocking stdin
    /// takes what comes on `rx`.
    pub fn new(
        key: u64,
        command: &str,
        stdin: ChildStdin,
        rx: Receiver<Vec<u8>>,
        child: Child,
        pgid: i32,
    ) -> Self {
        Self {
            key,
            command: command.to_string(),
            stdin: Some(stdin),
            rx,
            pending: Vec::new(),
            written: 0,
            child,
            pgid,
            step: Step::Running,
        }
    }

    /// Something waits to be written.
    fn has_output(&self) -> bool {
        self.stdin.is_some() && (self.written < self.pending.len() || !self.rx.is_empty())
    }

    /// Writes what is queued until the command's pipe is full.
    fn pump(&mut self) {
        let Some(stdin) = &self.stdin else {
            return;
        };
        loop {
            if self.written == self.pending.len() {
                match self.rx.try_recv() {
                    Ok(chunk) => {
                        self.pending = chunk;
                        self.written = 0;
                    }
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
                }
            }
            match rustix::io::write(stdin, &self.pending[self.written..]) {
                Ok(n) => self.written += n,
                Err(rustix::io::Errno::AGAIN) => return,
                Err(rustix::io::Errno::INTR) => {}
                Err(err) => {
                    tracing::info!(command = %self.command, "pane pipe closed: {err}");
                    self.close_input(Instant::now());
                    return;
                }
            }
        }
    }

    /// The command took its last input: what is queued is dropped and the
    /// loop's next send finds the pipe closed.
    fn close_input(&mut self, now: Instant) {
        self.stdin = None;
        self.pending = Vec::new();
        self.written = 0;
        // Dropping the receiver tells the loop's sender.
        let (_, rx) = crossbeam_channel::bounded(0);
        self.rx = rx;
        if matches!(self.step, Step::Running | Step::Flushing(_)) {
            self.step = Step::Closed(now + GRACE);
        }
    }

    fn end(&mut self, now: Instant) {
        if self.step == Step::Running {
            self.step = Step::Flushing(now + GRACE);
        }
    }

    /// Takes the ending's next step if it is due; whether the flow is
    /// done (its leader reaped).
    fn advance(&mut self, now: Instant) -> bool {
        match self.step {
            Step::Running => false,
            Step::Flushing(until) => {
                if !self.has_output() || now >= until {
                    self.close_input(now);
                }
                false
            }
            Step::Closed(until) => {
                if now >= until || self.leader_exited() {
                    self.signal(Signal::SIGHUP);
                    self.signal(Signal::SIGTERM);
                    self.signal(Signal::SIGCONT);
                    self.step = Step::HungUp(now + GRACE);
                }
                false
            }
            Step::HungUp(until) => {
                if now >= until {
                    self.kill();
                }
                false
            }
            Step::Killed => !matches!(self.child.try_wait(), Ok(None)),
        }
    }

    fn kill(&mut self) {
        self.signal(Signal::SIGKILL);
        children::forget_group(self.pgid);
        self.step = Step::Killed;
    }

    /// When the next step is due.
    fn due(&self) -> Option<Instant> {
        match self.step {
            Step::Running => None,
            Step::Flushing(at) | Step::Closed(at) | Step::HungUp(at) => Some(at),
            Step::Killed => Some(Instant::now() + REAP_EVERY),
        }
    }

    /// The leader exited (looked at without reaping it).
    fn leader_exited(&self) -> bool {
        let Ok(pid) = i32::try_from(self.child.id()) else {
            return true;
        };
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        !matches!(
            waitid(Id::Pid(Pid::from_raw(pid)), flags),
            Ok(WaitStatus::StillAlive)
        )
    }

    fn signal(&self, signal: Signal) {
        // ESRCH (the group is gone already) is the usual case.
        let _ = killpg(Pid::from_raw(self.pgid), signal);
    }
}

fn run(shared: &Shared) {
    let mut flows: Vec<Flow> = Vec::new();
    loop {
        shared.waker.unpark();
        shared.waker.drain();
        let orders =
            std::mem::take(&mut *shared.orders.lock().unwrap_or_else(PoisonError::into_inner));
        let now = Instant::now();
        for order in orders {
            match order {
                Order::Add(flow) => flows.push(*flow),
                Order::End(key) => {
                    if let Some(flow) = flows.iter_mut().find(|f| f.key == key) {
                        flow.end(now);
                    }
                }
                Order::Quit => {
                    quit(flows);
                    return;
                }
            }
        }
        for flow in &mut flows {
            flow.pump();
        }
        flows.retain_mut(|flow| !flow.advance(now));
        shared.waker.park();
        // Looked at after parking: a chunk or an order sent from now on
        // wakes the poll; one sent before is seen here.
        let ordered = !shared
            .orders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty();
        let wants: Vec<bool> = flows.iter().map(Flow::has_output).collect();
        let due = flows
            .iter()
            .filter_map(Flow::due)
            .chain(ordered.then(Instant::now))
            .min();
        let timeout = due.map(|d| {
            let t = d.saturating_duration_since(Instant::now());
            Timespec {
                tv_sec: i64::try_from(t.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: i64::from(t.subsec_nanos()),
            }
        });
        let waker = shared.waker.fd();
        let mut fds = vec![PollFd::new(&waker, PollFlags::IN)];
        // Every open stdin is polled, for output or not: POLLERR says its
        // command went away.
        let open: Vec<usize> = (0..flows.len())
            .filter(|&i| flows[i].stdin.is_some())
            .collect();
        for &i in &open {
            if let Some(stdin) = &flows[i].stdin {
                let events = if wants[i] {
                    PollFlags::OUT
                } else {
                    PollFlags::empty()
                };
                fds.push(PollFd::new(stdin, events));
            }
        }
        match rustix::event::poll(&mut fds, timeout.as_ref()) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(err) => {
                tracing::warn!("pane pipes: waiting in poll(2): {err}");
                std::thread::sleep(REAP_EVERY);
            }
        }
        let gone: Vec<usize> = open
            .iter()
            .zip(&fds[1..])
            .filter(|(_, fd)| {
                fd.revents()
                    .intersects(PollFlags::ERR | PollFlags::HUP | PollFlags::NVAL)
            })
            .map(|(&i, _)| i)
            .collect();
        drop(fds);
        let now = Instant::now();
        for i in gone {
            tracing::info!(command = %flows[i].command, "pane pipe's command stopped reading");
            flows[i].close_input(now);
        }
    }
}

/// The workspace is going: every command is killed now and reaped if it
/// is gone (`children::kill_all` does the same on every exit path).
fn quit(flows: Vec<Flow>) {
    for mut flow in flows {
        flow.signal(Signal::SIGHUP);
        flow.kill();
        let _ = flow.child.try_wait();
    }
}
