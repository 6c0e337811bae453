//! A pane's life after it started: from when it is taken in, what happens when its program ends (the pane closes,
//! stays showing how it ended, or a command pane starts again
//! [`RESTART_DELAY`] later, twice as long after each failure in a row up
//! to [`MAX_RESTART_DELAY`], and not after [`MAX_FAILURES`]), a restart
//! by hand, closing it, and ending every program at quit.

use std::time::{Duration, Instant};

use crate::config::profile::RestartPolicy;
use crate::pane::PaneId;
use crate::pane::program::pty::ExitInfo;
use crate::workspace::Workspace;
use crate::workspace::pane_launch::PaneLaunch;

/// How long a command pane waits before it is started again, so a command
/// that fails at once cannot spin.
pub const RESTART_DELAY: Duration = Duration::from_secs(1);
/// The longest a failing command waits: 1, 2, 4 … 60 s.
pub const MAX_RESTART_DELAY: Duration = Duration::from_secs(60);
/// After this many failures in a row a command is left ended, with a
/// notice, until `C-b r`.
pub const MAX_FAILURES: u32 = 10;

/// The wait before a restart after `failures` failures in a row.
pub fn restart_delay(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(6);
    (RESTART_DELAY * 2u32.pow(doublings)).min(MAX_RESTART_DELAY)
}

impl Workspace {
    /// Pane `old`'s program ended (if it still ran) and `launch` (else
    /// its own command again) started in a fresh pane in its place (a new
    /// id, so the old program's exit cannot close the new one), which
    /// scripts know by the same id; `failures` in a row behind it (0 by
    /// hand: the count starts again). Returns the fresh pane.
    pub fn respawn_pane(
        &mut self,
        old: PaneId,
        launch: Option<PaneLaunch>,
        failures: u32,
    ) -> Option<PaneId> {
        let tab_index = self.tabs.index_of(old)?;
        let member = self.panes.members.remove(&old)?;
        member.pane.program().terminate();
        let script_id = member.script_id;
        let mut launch = launch.unwrap_or_else(|| member.relaunch());
        let file = member.file;
        let tmux = self.panes.spawner.tmux_identity();
        crate::workspace::tmux_env::set_pane_vars(tmux, &mut launch.spec, script_id);
        let id = self.panes.alloc_id();
        let tiles = self.tiling.tiles();
        let rect = self.tabs.list[tab_index].replace_pane(old, id, tiles);
        let inner = self.tiling.content(rect, self.tabs.is_floating(id));
        self.panes.start(id, launch, inner);
        if let Some(member) = self.panes.members.get_mut(&id) {
            member.file = file;
            member.failures = failures;
            member.script_id = script_id;
        }
        self.relayout_tab(tab_index);
        Some(id)
    }

    /// Removes a pane: kills its program, gives its space to its sibling,
    /// and ends the workspace with `exit` when it was the last one.
    pub fn close_pane(&mut self, id: PaneId, exit: Option<ExitInfo>) {
        // Even when the program already exited: what it left running in its
        // session (background jobs, a grandchild holding the PTY) goes too.
        let mut exit = exit;
        if let Some(member) = self.panes.members.remove(&id) {
            // A pane kept open after its program ended (`--keep-exited`)
            // still ends tilework with that program's status.
            exit = exit.or(member.pane.program().exit());
            member.pane.program().terminate();
        }
        let Some(tab_index) = self.tabs.index_of(id) else {
            return;
        };
        let tab = &mut self.tabs.list[tab_index];
        if tab.take_float(id) {
            return;
        }
        if !tab.take_tiled(id) {
            // The only pane of its tab: the tab goes too.
            if !self.tabs.remove(tab_index) {
                self.ending.quit(exit.map_or(0, |e| e.code));
            }
            return;
        }
        self.relayout_tab(tab_index);
    }

    /// A pane's program ended (at `now`): close the pane, keep it showing
    /// the status, or (command panes) start it again [`RESTART_DELAY`]
    /// later, when the loop calls [`Workspace::run_due_restarts`].
    pub fn pane_exited(&mut self, id: PaneId, info: ExitInfo, now: Instant) {
        let keep_by_default = self.panes.spawner.settings.keep_exited_panes;
        let Some(member) = self.panes.members.get_mut(&id) else {
            // Closed or restarted meanwhile; nothing of it is left to show.
            self.close_pane(id, Some(info));
            return;
        };
        member.pane.drain_pending();
        self.ending.program_ended(info.code);
        // Command panes always show how they ended, like mprocs; so does a
        // command that could not run (126: not executable, 127: not found),
        // or its error would vanish with the pane.
        let keep = member.restart != RestartPolicy::Never
            || (!info.signal && matches!(info.code, 126 | 127))
            || member.keep_open.unwrap_or(keep_by_default);
        if !keep {
            self.close_pane(id, Some(info));
            return;
        }
        member.pane.mark_exited(info);
        if !member.restart.restarts(info.code) {
            return;
        }
        let failed = info.code != 0 || info.signal;
        member.failures = if failed { member.failures + 1 } else { 0 };
        let failures = member.failures;
        if failures >= MAX_FAILURES {
            let note = format!("failed {failures} times in a row: not restarted");
            member.pane.set_exit_note(Some(note.clone()));
            let name = member.pane.label().to_string();
            self.attention
                .push_notice(format!("{name}: {note} (restart-pane runs it again)"));
            return;
        }
        let delay = restart_delay(failures);
        member.restart_at = Some(now + delay);
        let count = if failures > 1 {
            format!("failed {failures}× · ")
        } else {
            String::new()
        };
        member
            .pane
            .set_exit_note(Some(format!("{count}restarting in {} s", delay.as_secs())));
    }

    /// Starts again every command pane whose restart is due at `now`.
    /// Returns whether any did.
    pub fn run_due_restarts(&mut self, now: Instant) -> bool {
        let mut restarted = false;
        for (id, failures) in self.panes.take_due_restarts(now) {
            restarted |= self.respawn_pane(id, None, failures).is_some();
        }
        restarted
    }
}
