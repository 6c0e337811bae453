//! What a bound key does: the actions that open UI (help, prompts, copy
//! mode) are done here; the rest are the workspace's.

use ratatui::crossterm::event::KeyEvent;

use super::Cx;
use crate::config::action::Action;
use crate::input::outcome::Outcome;
use crate::input::prompt::PromptKind;

pub fn run(cx: &mut Cx<'_>, action: Action) -> Outcome {
    match action {
        Action::ToggleHelp => cx.ui.show_help = !cx.ui.show_help,
        Action::ToggleFps => cx.ui.show_fps = !cx.ui.show_fps,
        Action::ScrollMode => cx.ui.enter_copy(cx.ws),
        Action::ScrollPageUp => {
            cx.ui.enter_copy(cx.ws);
            cx.ws.apply(action);
        }
        Action::SearchBackward => {
            cx.ui.enter_copy(cx.ws);
            cx.ui.open_prompt(PromptKind::Search, "");
        }
        Action::SearchAllPanes => cx.ui.open_prompt(PromptKind::SearchAll, ""),
        Action::RenameTab => {
            let name = cx.ws.tab().map(|t| t.name.clone()).unwrap_or_default();
            cx.ui.open_prompt(PromptKind::RenameTab, &name);
        }
        Action::SaveSession => {
            let name = cx.session_name.unwrap_or_default();
            cx.ui.open_prompt(PromptKind::SaveSession, name);
        }
        Action::PasteBuffer => match cx.ui.copy_buffer.clone() {
            Some(text) => return cx.paste(&text),
            None => cx.ui.notify("nothing copied yet".into()),
        },
        Action::SendPrefix => {
            let prefix = KeyEvent::new(cx.keymap.prefix.code, cx.keymap.prefix.modifiers);
            return cx.send_key(&prefix);
        }
        Action::ToggleBroadcast => {
            cx.ws.apply(action);
            let on = cx.ws.tab().is_some_and(|t| t.broadcast);
            cx.ui.notify(
                if on {
                    "broadcast on: keys go to every pane of the tab"
                } else {
                    "broadcast off"
                }
                .into(),
            );
        }
        other => return workspace_action(cx, other),
    }
    Outcome::redraw()
}

/// Layout, focus, tabs, panes: the workspace's. Copy mode ends when its
/// pane loses the focus.
fn workspace_action(cx: &mut Cx<'_>, action: Action) -> Outcome {
    let changed = cx.ws.apply(action);
    if cx
        .ui
        .copy
        .pane()
        .is_some_and(|pane| Some(pane) != cx.ws.focused_id())
    {
        cx.ui.leave_copy(cx.ws);
    }
    Outcome::redraw_if(changed)
}
