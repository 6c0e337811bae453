//! The one-line prompt over the status bar takes every key while it is
//! open: renaming a tab, naming a profile to save, a copy-mode search
//! (run as the pattern is typed) or a search across panes.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer, actions, search_all};
use crate::input::command_line::{self, CommandLine};
use crate::input::outcome::{Command, Outcome};
use crate::input::prompt::{PromptEvent, PromptKind};

pub struct PromptLayer;

impl Layer for PromptLayer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(prompt) = cx.ui.prompt.as_mut() else {
            return Handled::Pass;
        };
        let event = prompt.handle_key(key);
        let kind = prompt.kind;
        let text = prompt.text.clone();
        let mut out = Outcome::redraw();
        match event {
            PromptEvent::Cancel => {
                cx.ui.prompt = None;
                if kind == PromptKind::Search {
                    cx.ui.copy.clear_search();
                }
            }
            PromptEvent::Submit(text) => {
                cx.ui.prompt = None;
                out = submit(cx, kind, text);
            }
            PromptEvent::Edited if kind == PromptKind::Search => cx.search_copy(&text, false),
            PromptEvent::ToggleCase if kind == PromptKind::Search => cx.search_copy(&text, true),
            PromptEvent::Complete if kind == PromptKind::Command => {
                let (completed, candidates) = command_line::complete(&text);
                if let Some(prompt) = cx.ui.prompt.as_mut() {
                    prompt.text = completed;
                    prompt.status = candidates.join(" ");
                }
            }
            PromptEvent::Edited if kind == PromptKind::Command => {
                if let Some(prompt) = cx.ui.prompt.as_mut() {
                    prompt.status.clear();
                }
            }
            _ => {}
        }
        Handled::Consumed(out)
    }
}

fn submit(cx: &mut Cx<'_>, kind: PromptKind, text: String) -> Outcome {
    match kind {
        PromptKind::RenameTab => {
            cx.ws.rename_tab(&text);
        }
        PromptKind::SaveProfile => return save(cx, text.trim()),
        // The history is still loading: search when it lands.
        PromptKind::Search if !cx.ui.copy.is_active() => cx.ui.copy.search_later(text),
        PromptKind::Search => cx.search_copy(&text, false),
        PromptKind::SearchAll => return search_all::start(cx, &text),
        PromptKind::SelectTab => select_tab(cx, &text),
        PromptKind::MoveTab => move_tab(cx, &text),
        PromptKind::Command => return command(cx, &text),
        PromptKind::RenameWorkspace => return rename_workspace(cx, &text),
    }
    Outcome::redraw()
}

/// `C-b '`: a tab's number, else its name.
fn select_tab(cx: &mut Cx<'_>, text: &str) {
    let text = text.trim();
    let by_number = text
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=cx.ws.tabs().len()).contains(n));
    let by_name = || (0..cx.ws.tabs().len()).find(|&i| cx.ws.tab_name(i) == text);
    match by_number.map(|n| n - 1).or_else(by_name) {
        Some(index) => {
            before_focus_moves(cx, |ws| ws.select_tab(index));
        }
        None if text.is_empty() => {}
        None => cx.ui.notify(format!(
            "no tab {text}: there are {} (a number or a name)",
            cx.ws.tabs().len()
        )),
    }
}

/// `C-b .`: the place (1-based) to move the tab to.
fn move_tab(cx: &mut Cx<'_>, text: &str) {
    let text = text.trim();
    let count = cx.ws.tabs().len();
    match text.parse::<usize>() {
        Ok(n) if (1..=count).contains(&n) => {
            cx.ws.move_tab_to(n - 1);
        }
        _ if text.is_empty() => {}
        _ => cx
            .ui
            .notify(format!("no place {text}: a number from 1 to {count}")),
    }
}

/// Runs `change` on the workspace; copy mode ends if its pane lost the
/// focus.
fn before_focus_moves(
    cx: &mut Cx<'_>,
    change: impl FnOnce(&mut crate::workspace::Workspace) -> bool,
) {
    change(cx.ws);
    cx.ui.leave_copy_if_unfocused(cx.ws);
}

/// `C-b :`: what the line asks, or why not in the status bar.
fn command(cx: &mut Cx<'_>, text: &str) -> Outcome {
    if text.trim().is_empty() {
        return Outcome::redraw();
    }
    match command_line::parse(text) {
        Ok(line) => apply(cx, line),
        Err(why) => {
            cx.ui.notify(why);
            Outcome::redraw()
        }
    }
}

/// Does what a command line asks (`C-b :`, `tilework action rename-tab x`).
pub(super) fn apply(cx: &mut Cx<'_>, line: CommandLine) -> Outcome {
    match line {
        CommandLine::Action(action) => actions::run(cx, action),
        CommandLine::RenameTab(name) => {
            cx.ws.rename_tab(&name);
            Outcome::redraw()
        }
        CommandLine::SelectTab(tab) => {
            select_tab(cx, &tab);
            Outcome::redraw()
        }
        CommandLine::MoveTab(place) => {
            move_tab(cx, &place);
            Outcome::redraw()
        }
        CommandLine::RenameWorkspace(name) => rename_workspace(cx, &name),
        CommandLine::Script(call) => Outcome::redraw().with(Command::Script(call)),
    }
}

/// `C-b $`: the loop renames the workspace's socket.
fn rename_workspace(cx: &mut Cx<'_>, text: &str) -> Outcome {
    let name = text.trim();
    if name.is_empty() || Some(name) == cx.workspace_name {
        return Outcome::redraw();
    }
    Outcome::redraw().with(Command::RenameWorkspace(name.to_string()))
}

/// Asks the loop to save the workspace as profile `name`.
fn save(cx: &mut Cx<'_>, name: &str) -> Outcome {
    if name.is_empty() {
        cx.ui.notify("not saved: a profile needs a name".into());
        return Outcome::redraw();
    }
    Outcome::redraw().with(Command::SaveProfile(name.to_string()))
}
