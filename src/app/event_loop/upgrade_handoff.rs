//! An upgrade on the loop (see `crate::upgrade`). The old process's side:
//! a newer tilework asked for the workspace; every pane's output is held,
//! the state and the descriptors are handed over, and the process exits
//! once the new one is up, or carries on as if nothing happened. The new
//! process's side: the workspace taken over is opened before its loop
//! runs.
//!
//! The handoff runs on the loop and keeps it for its length (at most
//! `wire::UP_DEADLINE`): nothing may be read from a program or a terminal
//! meanwhile, or it would be lost to the new process.

use std::time::{Duration, Instant};

use super::App;
use crate::pane::program::pty::exit_note::ExitNotes;
use crate::persist::tap::panes_in_order;
use crate::session::host::{Arrival, HandoffAsked, SessionEvent};
use crate::terminal::frame_sink::FrameSink;
use crate::upgrade::{reaper, state, take::Taken, wire};
use crate::workspace::Workspace;

/// How long the pane's reader threads may take to stop.
const HOLD_DEADLINE: Duration = Duration::from_secs(1);

impl<B: FrameSink> App<B> {
    /// A newer tilework asks for the workspace. The listener stopped
    /// accepting before this was asked (see `session::host::listener`);
    /// unless the workspace is handed over (and this process exits), it
    /// accepts again.
    pub(super) fn hand_over(&mut self, asked: HandoffAsked) {
        let Some(host) = self.session.as_ref() else {
            return;
        };
        if host.listening_stopped() {
            self.hand_over_held(&asked);
        } else {
            // Another upgrade failed meanwhile and clients are accepted
            // again: one that came now could be lost.
            wire::refuse(&asked.stream, "another upgrade was under way; try again");
        }
        if let Some(host) = self.session.as_ref()
            && let Err(err) = host.listen()
        {
            tracing::error!("accepting clients again: {err:#}");
        }
    }

    /// [`Self::hand_over`], with no client accepted meanwhile.
    fn hand_over_held(&mut self, asked: &HandoffAsked) {
        let Some(host) = self.session.as_ref() else {
            return;
        };
        let format = crate::release::state_format();
        let (oldest, newest) = asked.formats;
        if !(oldest..=newest).contains(&format) {
            let why = format!(
                "workspace {} keeps its state in format {format}; the new tilework reads \
                 formats {oldest} to {newest}: nothing was changed, it keeps running on \
                 tilework {}",
                host.name(),
                crate::release::version()
            );
            tracing::warn!("upgrade refused: {why}");
            wire::refuse(&asked.stream, &why);
            return;
        }
        let started = Instant::now();
        if !hold_every_pane(&mut self.ws) {
            wire::refuse(
                &asked.stream,
                "a pane's output could not be held; try again",
            );
            return;
        }
        let terminals = host.handed_terminals();
        let requests = terminals.iter().map(|t| t.request.to_string()).collect();
        let size = (
            self.clients.frame_area.height,
            self.clients.frame_area.width,
        );
        let (header, body, taken) = state::capture(&mut self.ws, host.name(), size, requests);
        let mut fds = vec![host.listener_fd()];
        for (id, pane) in panes_in_order(&self.ws).into_iter().zip(&header.panes) {
            if pane.pid.is_none() {
                continue;
            }
            match self.ws.panes().get(id).and_then(|p| p.pty_master()) {
                Some(fd) => fds.push(fd),
                None => {
                    wire::refuse(&asked.stream, "a pane's PTY went away meanwhile");
                    state::give_back(&self.ws, taken);
                    return;
                }
            }
        }
        for terminal in &terminals {
            fds.push(terminal.stream);
            fds.extend(terminal.fds);
        }
        let notes = crate::session::dir::runtime_dir()
            .ok()
            .map(|dir| reaper::notes_in(&dir));
        let promised = promise_statuses(notes.as_ref(), &header);
        match wire::give(&asked.stream, &header, &body, &fds) {
            Ok(()) => {
                tracing::info!(
                    panes = header.panes.len(),
                    bytes = body.len(),
                    "handed the workspace over in {:?}; exiting",
                    started.elapsed()
                );
                // Nothing is put back or ended: the terminals, the programs
                // and the socket are the new process's now. The programs
                // this process started stay its children: it waits for
                // them, and only for them.
                match &notes {
                    Some(notes) => reaper::become_reaper(notes),
                    None => std::process::exit(0),
                }
            }
            Err(err) => {
                if let Some(notes) = &notes {
                    promised.iter().for_each(|&pid| notes.withdraw(pid));
                }
                state::give_back(&self.ws, taken);
                tracing::warn!("the upgrade failed: {err:#}; carrying on");
                for client in &mut self.clients.list {
                    client
                        .router
                        .notify(format!("upgrade failed ({err}); still running here"));
                }
            }
        }
    }
}

/// Attaches the terminals taken over after the first, and tells each that
/// the workspace runs this binary now, and why its prefix or copy mode is
/// gone.
pub(super) fn announce<B: FrameSink>(app: &mut App<B>, from: &str, more: Vec<Arrival>) {
    for arrival in more {
        app.session_event(SessionEvent::Attach(arrival));
    }
    let text = format!(
        "upgraded from tilework {from} to {}: prefix and copy mode reset",
        crate::release::version()
    );
    for client in &mut app.clients.list {
        client.router.notify(text.clone());
    }
}

/// Promises (see `reaper`) the status of each program handed over that is
/// this process's child; returns their pids.
fn promise_statuses(notes: Option<&ExitNotes>, header: &state::Header) -> Vec<u32> {
    let (Some(notes), Some(children)) = (notes, crate::os::children_of(std::process::id())) else {
        return Vec::new();
    };
    let mut promised = Vec::new();
    for pid in header.panes.iter().filter_map(|p| p.pid) {
        if !children.contains(&pid) {
            // Adopted here: promised by the process that started it.
            continue;
        }
        match notes.promise(pid) {
            Ok(()) => promised.push(pid),
            Err(err) => tracing::warn!("program {pid}'s status will be lost: {err:#}"),
        }
    }
    promised
}

/// Holds every pane's output (see `Pane::hold_output`); false when a
/// reader thread did not stop in time.
fn hold_every_pane(ws: &mut Workspace) -> bool {
    let deadline = Instant::now() + HOLD_DEADLINE;
    let ids = panes_in_order(ws);
    loop {
        let mut held = true;
        for &id in &ids {
            if let Some(pane) = ws.panes_mut().get_mut(id) {
                held &= pane.hold_output();
            }
        }
        if held {
            return true;
        }
        if Instant::now() > deadline {
            tracing::warn!("a pane's reader did not stop for the upgrade");
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Opens the workspace taken over in `ws` and tells the old process this
/// one is up (exiting here if it does not let go). Returns the terminals
/// attached after the first, for the loop to attach.
pub(super) fn open_taken(mut taken: Taken, name: &str, ws: &mut Workspace) -> Vec<Arrival> {
    let started = Instant::now();
    if let Some(pictures) = taken.header.pictures.take() {
        ws.panes()
            .spawner()
            .pictures()
            .lock()
            .take_carried(pictures, &taken.pixels);
        taken.pixels = Vec::new();
    }
    let input = match taken.header.profile(name) {
        Ok(profile) => {
            let panes = std::mem::take(&mut taken.panes);
            state::open(ws, &taken.header, &profile, panes)
        }
        Err(err) => {
            tracing::error!("{err:#}");
            Vec::new()
        }
    };
    tracing::info!("opened the workspace taken over in {:?}", started.elapsed());
    taken.confirm();
    // Only now: a takeover called off before `go` has written nothing.
    state::write_input(ws, input);
    std::mem::take(&mut taken.terminals)
}
