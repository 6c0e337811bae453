//! What a pane's commands (OSC 133 marks, issue 43) lead to each turn:
//! the `command-started` and `command-finished` hooks, and a command that
//! ran longer than `notify_after` and finished in a pane nobody looks at
//! told as a notification (its tab marked, the notification passed on as
//! a program's would be), as ghostty's `notify-on-command-finish` does.

use std::time::Duration;

use super::event_loop::App;
use crate::config::hooks::HookEvent;
use crate::pane::PaneId;
use crate::pane::history::command_marks::CommandEvent;
use crate::pane::term::notifications::{Kind, Notification};
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Handles pane `id`'s command events since the last turn; `shown`:
    /// the pane is on screen. Returns whether its tab is to be marked.
    pub(super) fn command_events(&mut self, id: PaneId, shown: bool) -> bool {
        let Some(pane) = self.ws.panes_mut().get_mut(id) else {
            return false;
        };
        if !pane.history().command_marks().has_events() {
            return false;
        }
        let events: Vec<CommandEvent> = pane
            .history_mut()
            .command_marks_mut()
            .take_events()
            .collect();
        let looked_at = shown && self.ws.tabs().focused_id() == Some(id);
        let mut mark = false;
        for event in events {
            let mut env = crate::app::hook_runner::pane_env(&self.ws, id);
            match event {
                CommandEvent::Started { command_line } => {
                    env.push(("TILEWORK_COMMAND".into(), command_line.unwrap_or_default()));
                    self.hooks.fire(HookEvent::CommandStarted, env);
                }
                CommandEvent::Finished {
                    status,
                    duration_ms,
                } => {
                    let code = status.map(|s| s.to_string()).unwrap_or_default();
                    let took = duration_ms.unwrap_or(0);
                    env.push(("TILEWORK_EXIT_CODE".into(), code.clone()));
                    env.push((
                        "TILEWORK_DURATION".into(),
                        format!("{}.{:03}", took / 1000, took % 1000),
                    ));
                    self.hooks.fire(HookEvent::CommandFinished, env);
                    let long = self
                        .hooks
                        .notify_after()
                        .is_some_and(|after| Duration::from_millis(took) >= after);
                    if long && !looked_at {
                        let number = self.ws.panes().script_id(id);
                        mark |= self.notified(id, &finished_unseen(number, status, took));
                    }
                }
            }
        }
        mark
    }
}

/// A long command of pane `number` finished where nobody looks: told
/// through the workspace's notification path.
fn finished_unseen(number: u32, status: Option<i32>, took_ms: u64) -> Notification {
    let outcome = match status {
        Some(0) => "finished".to_string(),
        Some(s) => format!("failed ({s})"),
        None => "finished".to_string(),
    };
    Notification {
        kind: Kind::Osc9,
        title: format!("pane {number}"),
        body: format!("command {outcome} after {}s", took_ms / 1000),
        kitty_id: None,
    }
}
