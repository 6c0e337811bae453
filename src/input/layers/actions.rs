//! What a bound key does: the actions that open UI (help, prompts, copy
//! mode) are done here; the rest are the workspace's.

use ratatui::crossterm::event::KeyEvent;

use std::time::Instant;

use super::{Cx, no_op};
use crate::config::action::Action;
use crate::input::command_line::CommandLine;
use crate::input::outcome::{Command, Outcome};
use crate::input::pane_facts;
use crate::input::popups::buffer_chooser::BufferChooser;
use crate::input::popups::confirm::Confirm;
use crate::input::popups::help::HelpView;
use crate::input::popups::pane_numbers::PaneNumbers;
use crate::input::popups::prompt::{self, Prompt, PromptKind};
use crate::input::popups::workspace_chooser::{WorkspaceChooser, WorkspacesWanted};
use crate::input::ui_state::PANE_NUMBERS_TIME;

pub fn run(cx: &mut Cx<'_>, action: Action) -> Outcome {
    // A notice tells how the last command went: left up for its three
    // seconds it would read as this command's outcome (`nothing closed`
    // under a tab just closed), so each command starts with none and says
    // its own if it has one.
    cx.ui.clear_notice();
    if cx.read_only && !action.only_looks() {
        return cx.refuse_read_only();
    }
    match action {
        Action::ChooseWorkspace => {
            cx.popups.open(WorkspaceChooser::waiting());
            let mut out = Outcome::redraw();
            out.commands
                .push(Command::ListWorkspaces(WorkspacesWanted::Chooser));
            return out;
        }
        Action::PrevWorkspace | Action::NextWorkspace => {
            let step = if action == Action::PrevWorkspace {
                -1
            } else {
                1
            };
            let mut out = Outcome::default();
            out.commands
                .push(Command::ListWorkspaces(WorkspacesWanted::Step(step)));
            return out;
        }
        Action::ToggleHelp => {
            if cx.popups.close::<HelpView>().is_none() {
                cx.popups.open(HelpView::default());
            }
        }
        Action::ToggleFps => cx.ui.show_fps = !cx.ui.show_fps,
        Action::ScrollMode => cx.ui.enter_copy(cx.ws),
        Action::ScrollPageUp => {
            cx.ui.enter_copy(cx.ws);
            cx.ws.apply(action);
        }
        Action::SearchBackward => {
            cx.ui.enter_copy(cx.ws);
            open_prompt(cx, PromptKind::Search, "");
        }
        Action::SearchAllPanes => open_prompt(cx, PromptKind::SearchAll, ""),
        Action::DisplayPanes => cx.popups.open(PaneNumbers {
            until: Instant::now() + PANE_NUMBERS_TIME,
        }),
        Action::PaneInfo => cx.ui.notify(pane_facts::describe(cx.ws, cx.workspace_name)),
        Action::SelectTab => open_prompt(cx, PromptKind::SelectTab, ""),
        Action::MoveTab => open_prompt(cx, PromptKind::MoveTab, ""),
        Action::CommandPrompt => open_prompt(cx, PromptKind::Command, ""),
        Action::RenameWorkspace => {
            let name = cx.workspace_name.unwrap_or_default();
            open_prompt(cx, PromptKind::RenameWorkspace, name);
        }
        Action::RenameTab => {
            let name = cx.ws.tabs().name(cx.ws.tabs().active(), cx.ws.panes());
            open_prompt(cx, PromptKind::RenameTab, &name);
        }
        Action::SaveProfile => {
            let name = cx.session_name.unwrap_or_default();
            open_prompt(cx, PromptKind::SaveProfile, name);
        }
        Action::ChooseBuffer => match BufferChooser::over(&cx.ui.buffers) {
            Some(chooser) => cx.popups.open(chooser),
            None => cx.ui.notify("nothing copied yet".into()),
        },
        Action::PasteBuffer => match cx.ui.buffers.newest() {
            Some(text) => return cx.paste(&text),
            None => cx.ui.notify("nothing copied yet".into()),
        },
        Action::Navigate(dir)
            if cx
                .ws
                .focused()
                .is_some_and(|pane| cx.ws.panes().names().runs_navigator(pane)) =>
        {
            use crate::config::action::Direction;
            use ratatui::crossterm::event::{KeyCode, KeyModifiers};
            let key = match dir {
                Direction::Left => 'h',
                Direction::Down => 'j',
                Direction::Up => 'k',
                Direction::Right => 'l',
            };
            return cx.send_key(&KeyEvent::new(KeyCode::Char(key), KeyModifiers::CONTROL));
        }
        Action::SendPrefix => {
            let prefix = KeyEvent::new(cx.keymap.prefix.code, cx.keymap.prefix.modifiers);
            return cx.send_key(&prefix);
        }
        Action::ToggleBroadcast => {
            cx.ws.apply(action);
            let on = cx.ws.tabs().shown().is_some_and(|t| t.broadcast);
            cx.ui.notify(
                if on {
                    "broadcast on: keys go to every pane of the tab"
                } else {
                    "broadcast off"
                }
                .into(),
            );
        }
        Action::ClosePane | Action::CloseTab | Action::Quit | Action::RestartPane => {
            return close(cx, action);
        }
        Action::Detach => {
            return Outcome {
                commands: vec![Command::Detach],
                ..Outcome::default()
            };
        }
        Action::SourceConfig => return Outcome::default().with(Command::SourceConfig),
        Action::CopyLastOutput => return super::last_output::copy(cx),
        Action::EditLastOutput => return super::last_output::edit(cx),
        other => return workspace_action(cx, other),
    }
    Outcome::redraw()
}

/// Closes the pane or tab, quits, or restarts the pane's command; first
/// asks, in the status bar, when that would stop a program other than a
/// shell at its prompt.
fn close(cx: &mut Cx<'_>, action: Action) -> Outcome {
    if !cx.confirm_close {
        return workspace_action(cx, action);
    }
    let (panes, what) = match action {
        Action::ClosePane => (
            cx.ws.tabs().focused_id().into_iter().collect(),
            "close the pane",
        ),
        Action::RestartPane => (
            cx.ws.tabs().focused_id().into_iter().collect(),
            "restart the pane",
        ),
        Action::CloseTab => (
            cx.ws
                .tabs()
                .shown()
                .map(|t| t.layout.panes())
                .unwrap_or_default(),
            "close the tab",
        ),
        _ => (cx.ws.panes().ids().collect::<Vec<_>>(), "quit tilework"),
    };
    let busy = cx.ws.panes().busy_programs(&panes);
    if busy.is_empty() {
        return workspace_action(cx, action);
    }
    // Help covers the status bar, where the question is.
    cx.popups.close::<HelpView>();
    cx.popups.open(Confirm {
        action,
        question: format!("{what}? it stops {}", running(&busy)),
    });
    Outcome::redraw()
}

/// Opens the one-line prompt for `kind`, `text` typed already.
pub(in crate::input) fn open_prompt(cx: &mut Cx<'_>, kind: PromptKind, text: &str) {
    cx.popups.open(Prompt::new(kind, text));
}

/// Does what a command line asks (`C-b :`, `tilework action rename-tab x`).
pub(super) fn command_line(cx: &mut Cx<'_>, line: CommandLine) -> Outcome {
    match line {
        CommandLine::Action(action) => run(cx, action),
        CommandLine::RenameTab(name) => {
            cx.ws.tabs_mut().rename_shown(&name);
            Outcome::redraw()
        }
        CommandLine::SelectTab(tab) => {
            prompt::select_tab(cx, &tab);
            Outcome::redraw()
        }
        CommandLine::MoveTab(place) => {
            prompt::move_tab(cx, &place);
            Outcome::redraw()
        }
        CommandLine::RenameWorkspace(name) => prompt::rename_workspace(cx, &name),
        CommandLine::Script(call) => Outcome::redraw().with(Command::Script(call)),
        CommandLine::RemoteRun(run) => {
            let call = run.call(cx.ws.panes().spawner().settings().env.remote());
            Outcome::redraw().with(Command::Script(call))
        }
    }
}

/// `vim`, `vim and sleep`, `vim, sleep and 2 more`.
fn running(programs: &[String]) -> String {
    match programs {
        [] => String::new(),
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    }
}

/// Layout, focus, tabs, panes: the workspace's. Copy mode ends when its
/// pane loses the focus.
pub(super) fn workspace_action(cx: &mut Cx<'_>, action: Action) -> Outcome {
    if cx.ws.tabs().opens_pane(action)
        && let Err(why) = cx.ws.panes().room_for_pane()
    {
        cx.ui.notify(why);
        return Outcome::redraw();
    }
    let changed = cx.ws.apply(action);
    if !changed && let Some(why) = no_op::why_nothing(cx.ws, cx.keymap, action) {
        cx.ui.notify(why);
        return Outcome::redraw();
    }
    cx.ui.leave_copy_if_unfocused(cx.ws);
    Outcome::redraw_if(changed)
}
