//! The seam between panes and the operating system: a [`Launcher`] starts a
//! pane's program and hands back a [`PaneProcess`], the handles the loop
//! keeps. The real launcher puts programs on PTYs ([`PtyLauncher`]); tests
//! use [`fake::FakeLauncher`], which starts nothing and lets the test
//! deliver output and exits, so workspace logic runs headless (zellij's
//! `ServerOsApi`, alacritty's `EventedPty`).
//!
//! The hot paths stay direct: the loop takes the process's own output
//! channel (or polls and reads a quiet PTY itself), and a key is one
//! dynamic call to [`PaneProcess::send_input`], which writes to the PTY
//! from the loop's thread as before.

use std::os::fd::BorrowedFd;

use anyhow::Result;
use crossbeam_channel::Receiver;

use crate::graphics::reach::CellPixels;
use crate::pane::PaneId;
use crate::pane::event::{PaneEvent, PaneMailbox};
use crate::pane::program::pty::{OutputChunk, PtyProcess, QuietRead, SpawnSpec};

/// Starts pane programs.
pub trait Launcher: Send {
    /// Starts `spec` for pane `id` on a terminal of `rows` x `cols` cells
    /// of `cell` pixels. When the program ends, after its last output was
    /// delivered, the launcher reports [`PaneEvent::Exited`] for `id`.
    fn launch(
        &self,
        id: PaneId,
        spec: &SpawnSpec,
        rows: u16,
        cols: u16,
        cell: CellPixels,
    ) -> Result<Box<dyn PaneProcess>>;

    /// Ends every program it started, at once (quitting), including those
    /// of panes closed moments ago and still in their grace period.
    fn kill_all(&self);
}

/// A running pane program, as the loop sees it.
pub trait PaneProcess: Send {
    /// The program's output; the loop selects on it.
    fn output(&self) -> &Receiver<OutputChunk>;
    /// Hands a parsed buffer back to the reader for reuse.
    fn recycle(&self, chunk: OutputChunk);
    /// Sends bytes to the program without blocking; false when refused
    /// (see [`PtyProcess::send_input`]).
    fn send_input(&self, bytes: &[u8]) -> bool;
    /// [`Self::send_input`] of a buffer that may be kept as it is.
    fn send_input_owned(&self, bytes: Vec<u8>) -> bool {
        self.send_input(&bytes)
    }
    /// Until when the loop should leave the user's terminal unread (see
    /// [`PtyProcess::input_hold`]).
    fn input_hold(&self) -> Option<std::time::Instant> {
        None
    }
    /// Whether the program's terminal still hands it whole lines
    /// (canonical mode): its query answers wait (see `pane::term::held_replies`).
    fn reads_lines(&self) -> bool {
        false
    }
    /// Tells the program its terminal's new size (cells of `cell` pixels).
    fn resize(&self, rows: u16, cols: u16, cell: CellPixels);
    /// Hangs up on the program and whatever it started (non-blocking).
    fn terminate(&self);
    /// Kills the program's foreground job now (quitting).
    fn kill_now(&self);
    fn pid(&self) -> Option<u32>;
    /// The descriptor the loop polls while the pane is quiet and the loop
    /// reads its output itself (see `reader_gate`); `None` while a reader
    /// thread delivers it on [`Self::output`].
    fn quiet_fd(&self) -> Option<BorrowedFd<'_>> {
        None
    }
    /// Reads quiet output into `buf` (see [`PtyProcess::read_quiet`]).
    fn read_quiet(&self, _buf: &mut [u8]) -> QuietRead {
        QuietRead::Nothing
    }
    /// The PTY's master, to hand to a newer tilework (an upgrade); none
    /// when the program is not on a PTY of ours.
    fn master_fd(&self) -> Option<BorrowedFd<'_>> {
        None
    }
    /// Stops reading the program's output in a thread (see
    /// [`PtyProcess::hold_reader`]); true once nothing reads it.
    fn hold_reader(&self) -> bool {
        true
    }
    /// An upgrade takes the input not yet written (see
    /// [`PtyProcess::take_input_for_handoff`]).
    fn take_input_for_handoff(&self) -> Vec<u8> {
        Vec::new()
    }
    /// The upgrade failed: the input taken is written again, first.
    fn give_back_input(&self, taken: Vec<u8>) {
        self.send_input_owned(taken);
    }
}

/// Programs on pseudo-terminals: what tilework runs.
pub struct PtyLauncher {
    events: PaneMailbox,
}

impl PtyLauncher {
    /// Exits are reported on `events`.
    pub fn new(events: PaneMailbox) -> Self {
        Self { events }
    }
}

impl Launcher for PtyLauncher {
    fn launch(
        &self,
        id: PaneId,
        spec: &SpawnSpec,
        rows: u16,
        cols: u16,
        cell: CellPixels,
    ) -> Result<Box<dyn PaneProcess>> {
        let events = self.events.clone();
        let process = PtyProcess::spawn(spec, rows, cols, cell, move |info| {
            events.post(PaneEvent::Exited(id, info));
        })?;
        Ok(Box::new(process))
    }

    fn kill_all(&self) {
        crate::pane::program::children::kill_all();
    }
}

impl PaneProcess for PtyProcess {
    fn output(&self) -> &Receiver<OutputChunk> {
        &self.output_rx
    }

    fn recycle(&self, chunk: OutputChunk) {
        self.give_back(chunk);
    }

    fn send_input(&self, bytes: &[u8]) -> bool {
        PtyProcess::send_input(self, bytes)
    }

    fn send_input_owned(&self, bytes: Vec<u8>) -> bool {
        PtyProcess::send_input_owned(self, bytes)
    }

    fn input_hold(&self) -> Option<std::time::Instant> {
        PtyProcess::input_hold(self)
    }

    fn resize(&self, rows: u16, cols: u16, cell: CellPixels) {
        PtyProcess::resize(self, rows, cols, cell);
    }

    fn terminate(&self) {
        PtyProcess::terminate(self);
    }

    fn kill_now(&self) {
        PtyProcess::kill_now(self);
    }

    fn pid(&self) -> Option<u32> {
        PtyProcess::pid(self)
    }

    fn quiet_fd(&self) -> Option<BorrowedFd<'_>> {
        PtyProcess::quiet_fd(self)
    }

    fn reads_lines(&self) -> bool {
        PtyProcess::reads_lines(self)
    }

    fn read_quiet(&self, buf: &mut [u8]) -> QuietRead {
        PtyProcess::read_quiet(self, buf)
    }

    fn master_fd(&self) -> Option<BorrowedFd<'_>> {
        Some(PtyProcess::master_fd(self))
    }

    fn hold_reader(&self) -> bool {
        PtyProcess::hold_reader(self)
    }

    fn take_input_for_handoff(&self) -> Vec<u8> {
        PtyProcess::take_input_for_handoff(self)
    }

    fn give_back_input(&self, taken: Vec<u8>) {
        PtyProcess::give_back_input(self, taken);
    }
}

/// A launcher for tests: starts nothing, remembers what it was asked to
/// start, and lets the test play the programs' part.
#[cfg(test)]
pub mod fake {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

    use anyhow::{Result, bail};
    use crossbeam_channel::{Receiver, Sender, bounded};

    use super::{Launcher, PaneProcess};
    use crate::pane::PaneId;
    use crate::pane::event::{PaneEvent, PaneMailbox};
    use crate::pane::program::pty::{ExitInfo, OUTPUT_CHANNEL_CAPACITY, OutputChunk, SpawnSpec};

    /// What a fake program saw, shared between the pane and the test.
    #[derive(Default)]
    struct Seen {
        input: Vec<u8>,
        size: (u16, u16),
        terminated: bool,
    }

    struct Launched {
        spec: SpawnSpec,
        output: Sender<OutputChunk>,
        seen: Arc<Mutex<Seen>>,
    }

    #[derive(Default)]
    struct State {
        launched: BTreeMap<PaneId, Launched>,
        /// Launches in order, by pane.
        order: Vec<PaneId>,
        /// The next launch fails with this message.
        fail_next: Option<String>,
        killed_all: bool,
    }

    /// Cloning shares the record: the workspace owns one, the test another.
    #[derive(Clone)]
    pub struct FakeLauncher {
        events: PaneMailbox,
        state: Arc<Mutex<State>>,
    }

    fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    impl FakeLauncher {
        /// Exits are reported on `events`, as the real launcher does.
        pub fn new(events: PaneMailbox) -> Self {
            Self {
                events,
                state: Arc::default(),
            }
        }

        /// Panes launched so far, in launch order.
        pub fn launched(&self) -> Vec<PaneId> {
            lock(&self.state).order.clone()
        }

        /// What pane `id` was started with.
        pub fn spec(&self, id: PaneId) -> Option<SpawnSpec> {
            lock(&self.state).launched.get(&id).map(|l| l.spec.clone())
        }

        /// The program of pane `id` prints `bytes`.
        pub fn print(&self, id: PaneId, bytes: &[u8]) {
            let state = lock(&self.state);
            if let Some(l) = state.launched.get(&id) {
                let _ = l.output.try_send(bytes.to_vec());
                crate::wake::wake_loop();
            }
        }

        /// The program of pane `id` ends with `code`.
        pub fn exit(&self, id: PaneId, code: i32) {
            let info = ExitInfo {
                code,
                signal: false,
            };
            self.events.post(PaneEvent::Exited(id, info));
        }

        /// The bytes pane `id`'s program was sent.
        pub fn input(&self, id: PaneId) -> Vec<u8> {
            self.seen(id, |s| s.input.clone()).unwrap_or_default()
        }

        /// The terminal size pane `id`'s program was last told.
        pub fn size(&self, id: PaneId) -> Option<(u16, u16)> {
            self.seen(id, |s| s.size)
        }

        /// Whether pane `id`'s program was hung up on.
        pub fn terminated(&self, id: PaneId) -> bool {
            self.seen(id, |s| s.terminated).unwrap_or(false)
        }

        pub fn killed_all(&self) -> bool {
            lock(&self.state).killed_all
        }

        /// The next launch fails with `message`.
        pub fn fail_next(&self, message: &str) {
            lock(&self.state).fail_next = Some(message.to_string());
        }

        fn seen<T>(&self, id: PaneId, f: impl FnOnce(&Seen) -> T) -> Option<T> {
            let state = lock(&self.state);
            let launched = state.launched.get(&id)?;
            Some(f(&lock(&launched.seen)))
        }
    }

    impl Launcher for FakeLauncher {
        fn launch(
            &self,
            id: PaneId,
            spec: &SpawnSpec,
            rows: u16,
            cols: u16,
            _cell: crate::graphics::reach::CellPixels,
        ) -> Result<Box<dyn PaneProcess>> {
            let mut state = lock(&self.state);
            if let Some(message) = state.fail_next.take() {
                bail!("{message}");
            }
            let (output, output_rx) = bounded(OUTPUT_CHANNEL_CAPACITY);
            let seen = Arc::new(Mutex::new(Seen {
                size: (rows, cols),
                ..Seen::default()
            }));
            state.launched.insert(
                id,
                Launched {
                    spec: spec.clone(),
                    output,
                    seen: Arc::clone(&seen),
                },
            );
            state.order.push(id);
            Ok(Box::new(FakeProcess { output_rx, seen }))
        }

        fn kill_all(&self) {
            lock(&self.state).killed_all = true;
        }
    }

    struct FakeProcess {
        output_rx: Receiver<OutputChunk>,
        seen: Arc<Mutex<Seen>>,
    }

    impl PaneProcess for FakeProcess {
        fn output(&self) -> &Receiver<OutputChunk> {
            &self.output_rx
        }

        fn recycle(&self, _chunk: OutputChunk) {}

        fn send_input(&self, bytes: &[u8]) -> bool {
            lock(&self.seen).input.extend_from_slice(bytes);
            true
        }

        fn resize(&self, rows: u16, cols: u16, _cell: crate::graphics::reach::CellPixels) {
            lock(&self.seen).size = (rows, cols);
        }

        fn terminate(&self) {
            lock(&self.seen).terminated = true;
        }

        fn kill_now(&self) {
            lock(&self.seen).terminated = true;
        }

        fn pid(&self) -> Option<u32> {
            None
        }
    }
}
