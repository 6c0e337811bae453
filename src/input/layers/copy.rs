//! Copy mode's keys (see `copy_session`); the prefix still works there.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer};
use crate::input::copy_session::CopyKey;
use crate::input::outcome::{Command, Outcome};
use crate::input::prompt::PromptKind;
use crate::input::ui_state::Mode;

pub struct Copy;

impl Layer for Copy {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if cx.ui.mode != Mode::Copy {
            return Handled::Pass;
        }
        if cx.keymap.is_prefix(key) {
            cx.ui.enter_prefix();
            return Handled::Consumed(Outcome::redraw());
        }
        let mut out = Outcome::redraw();
        match cx.ui.copy.key(cx.ws, key) {
            CopyKey::Moved | CopyKey::Queued => {}
            CopyKey::Leave => cx.ui.leave_copy(cx.ws),
            CopyKey::Yank(text) => {
                cx.ui.copied(&text);
                cx.ui.leave_copy(cx.ws);
                out = out.with(Command::Clipboard(text));
            }
            CopyKey::NothingSelected => cx
                .ui
                .notify("nothing selected: v, V or C-v starts a selection".into()),
            CopyKey::OpenSearch => cx.ui.open_prompt(PromptKind::Search, ""),
            CopyKey::CaseToggled(label) => cx.ui.notify(format!("search {label}")),
            CopyKey::TypeThrough => {
                // Typing returns to the live screen and reaches the program.
                cx.ui.leave_copy(cx.ws);
                out = cx.send_key(key);
            }
        }
        Handled::Consumed(out)
    }
}
