//! Running `[hooks]`: each hook has a thread of its own, started at its
//! first run, that runs its command (`shell_job`, killed at `[hooks]
//! timeout`) once per event, in order: never two runs of one hook at
//! once. Events wait in a queue of [`QUEUE`]; past that they are dropped,
//! with a line in the log, so a hook that hangs holds up nothing else.
//! Nothing comes back to the loop: failures go to the log.
//!
//! The loop tells [`Hooks::fire`] what happened; [`Hooks::observe`] turns
//! changes it sees after a turn (the focus moved, a tab opened) into
//! events, so no part of the workspace needs to know about hooks.

use std::time::Duration;

use crossbeam_channel::{Sender, TrySendError, bounded};

use crate::app::feed::Feed;
use crate::config::hooks::{HookEvent, Hooks as HooksConfig};
use crate::pane::PaneId;
use crate::shell_job::{self, Stream};
use crate::workspace::Workspace;

/// Events a hook's thread may have waiting.
pub const QUEUE: usize = 16;
/// How much of a failing hook's stderr the log gets.
const STDERR_LIMIT: usize = 4096;

type Env = Vec<(String, String)>;

struct Runner {
    event: HookEvent,
    tx: Sender<Env>,
    /// Runs are being dropped (said once in the log until one is queued).
    dropping: bool,
}

/// See the module's doc.
#[derive(Default)]
pub struct Hooks {
    config: HooksConfig,
    runners: Vec<Runner>,
    /// What [`Hooks::observe`] saw last.
    focused: Option<PaneId>,
    tabs: usize,
    /// Scripts following the events hooks run on, and pane output
    /// (`tilework subscribe`).
    pub subscribers: crate::app::subscribers::Subscribers,
}

impl Hooks {
    /// How long a command must have run to be told when it finishes
    /// unseen (`None`: never).
    pub fn notify_after(&self) -> Option<std::time::Duration> {
        Some(self.config.notify_after).filter(|d| !d.is_zero())
    }

    /// How long a pane stays quiet before the `silence` hook runs, when
    /// one is set (otherwise output is not even timed).
    pub fn silence_after(&self) -> Option<std::time::Duration> {
        self.config
            .command(HookEvent::Silence)
            .map(|_| self.config.silence_after)
    }

    /// Takes `config`'s hooks; threads of hooks that changed end once
    /// their queue is done.
    pub fn configure(&mut self, config: &HooksConfig, ws: &Workspace) {
        if self.config != *config {
            self.runners.clear();
            self.config = config.clone();
        }
        self.focused = ws.tabs().focused_id();
        self.tabs = ws.tabs().len();
    }

    /// Runs the `silence` hook for each pane `feed` says is quiet long
    /// enough.
    pub(super) fn tell_silences(
        &mut self,
        feed: &mut Feed,
        ws: &Workspace,
        now: std::time::Instant,
    ) {
        let Some(after) = self.silence_after() else {
            return;
        };
        for id in feed.gone_quiet(ws, after, now) {
            self.fire(HookEvent::Silence, pane_env(ws, id));
        }
    }

    /// Runs `event`'s hook, if there is one, with `env` and the facts
    /// every hook gets.
    pub fn fire(&mut self, event: HookEvent, mut env: Env) {
        self.subscribers.hook(event.name(), &env);
        let Some(command) = self.config.command(event) else {
            return;
        };
        env.push(("TILEWORK_HOOK".into(), event.name().into()));
        if !self.runners.iter().any(|r| r.event == event) {
            match start(event, command.to_string(), self.config.timeout) {
                Some(tx) => self.runners.push(Runner {
                    event,
                    tx,
                    dropping: false,
                }),
                None => return,
            }
        }
        let Some(runner) = self.runners.iter_mut().find(|r| r.event == event) else {
            return;
        };
        match runner.tx.try_send(env) {
            Ok(()) => runner.dropping = false,
            Err(TrySendError::Full(_)) => {
                if !std::mem::replace(&mut runner.dropping, true) {
                    tracing::warn!(
                        hook = event.name(),
                        "hook runs dropped: {QUEUE} already wait for the one still running"
                    );
                }
            }
            Err(TrySendError::Disconnected(_)) => {
                tracing::warn!(hook = event.name(), "hook thread gone");
            }
        }
    }

    /// Fires the hooks for what changed since the last look: the focus
    /// moved to another pane, a tab was opened.
    pub fn observe(&mut self, ws: &Workspace) {
        self.subscribers.observe(ws);
        let focused = ws.tabs().focused_id();
        if focused != self.focused {
            self.focused = focused;
            if let Some(id) = focused {
                let env = pane_env(ws, id);
                self.fire(HookEvent::PaneFocused, env);
            }
        }
        let tabs = ws.tabs().len();
        if tabs > self.tabs
            && let Some(id) = focused
        {
            let env = pane_env(ws, id);
            self.fire(HookEvent::TabCreated, env);
        }
        self.tabs = tabs;
    }
}

/// The facts about pane `id` a hook gets.
pub fn pane_env(ws: &Workspace, id: PaneId) -> Env {
    let mut env = vec![("TILEWORK_PANE".to_string(), id.0.to_string())];
    if let Some(tab) = ws.tabs().iter().position(|t| t.holds(id)) {
        env.push(("TILEWORK_TAB".into(), (tab + 1).to_string()));
    }
    if let Some(pane) = ws.panes().get(id) {
        env.push(("TILEWORK_PANE_COMMAND".into(), pane.spec.argv.join(" ")));
    }
    env
}

/// The thread that runs `event`'s hook, one run at a time.
fn start(event: HookEvent, command: String, timeout: Duration) -> Option<Sender<Env>> {
    let (tx, rx) = bounded::<Env>(QUEUE);
    let name = format!("hook-{}", event.name());
    crate::jobs::named(&name, move || {
        for env in rx {
            run_once(event, &command, &env, timeout);
        }
    })
    .ok()
    .map(|_| tx)
}

fn run_once(event: HookEvent, command: &str, env: &Env, timeout: Duration) {
    let hook = event.name();
    match shell_job::run(command, env, Stream::Stderr, STDERR_LIMIT, timeout) {
        Ok(done) => match done.status {
            Some(status) if status.success() => tracing::debug!(hook, "hook ran"),
            Some(status) => tracing::warn!(
                hook,
                %status,
                stderr = %shell_job::last_line(&done.output, 200),
                "hook failed"
            ),
            None => tracing::warn!(hook, "hook killed after {timeout:?}"),
        },
        Err(err) => tracing::warn!(hook, "running the hook: {err}"),
    }
}
