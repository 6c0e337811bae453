//! Text typed into a restored pane's shell once it is up: the job it ran
//! when the workspace was saved, at its prompt, with Enter when
//! `restore_commands` lists the program (tmux-resurrect's way), else
//! waiting for it (zellij's). Typed at the shell's first output, its
//! prompt: typed earlier, a terminal in its cooked mode would echo it
//! before the prompt.

use crate::pane::PaneId;
use crate::workspace::Workspace;

impl Workspace {
    /// Types `text` into pane `id` once its program first prints.
    pub fn type_at_prompt(&mut self, id: PaneId, text: Vec<u8>) {
        if let Some(member) = self.panes.get_mut(&id) {
            member.typed_ahead = Some(text);
        }
    }

    /// Pane `id` printed: what waits to be typed into it is typed.
    pub fn pane_printed(&mut self, id: PaneId) {
        if let Some(member) = self.panes.get_mut(&id)
            && let Some(text) = member.typed_ahead.take()
            && !member.pane.program().send_owned(text)
        {
            tracing::warn!(?id, "the restored job could not be typed");
        }
    }
}
