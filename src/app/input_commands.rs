//! Carrying out what input asked of the loop (`input::outcome::Command`):
//! files written, threads started and the clipboard, kept out of key
//! handling.

use crate::input::router::{Command, InputRouter};
use crate::terminal::clipboard;
use crate::terminal::outbox::Outbox;
use crate::workspace::Workspace;

/// What the commands work on.
pub(super) struct Effects<'a> {
    pub ws: &'a Workspace,
    pub router: &'a mut InputRouter,
    /// The clipboard's OSC 52 goes out with the next frame.
    pub outbox: &'a mut Outbox,
    /// The local clipboard command (wl-copy, xclip), if any.
    pub copy_command: Option<&'a [String]>,
}

impl Effects<'_> {
    pub fn perform(&mut self, commands: Vec<Command>) {
        for command in commands {
            match command {
                Command::SaveProfile(name) => {
                    let saved = crate::workspace::profile_save::save(self.ws, &name);
                    self.router.profile_saved(&name, &saved);
                }
                Command::Clipboard(text) => {
                    self.outbox.set_clipboard(clipboard::osc52(&text));
                    if let Some(argv) = self.copy_command {
                        clipboard::copy_with_command(argv.to_vec(), text);
                    }
                }
                Command::PipeCopy { text, command } => {
                    let argv = vec!["sh".to_string(), "-c".to_string(), command];
                    clipboard::copy_with_command(argv, text);
                }
                // Taken by the loop before the rest (it owns the session).
                Command::Detach
                | Command::ListWorkspaces(_)
                | Command::SwitchWorkspace(_)
                | Command::Script(_)
                | Command::RenameWorkspace(_)
                | Command::SourceConfig => {}
                Command::SearchPanes { pattern, panes } => {
                    for id in panes {
                        if let Some(pane) = self.ws.panes().get(id) {
                            crate::input::search_all::spawn(
                                id,
                                pane.history().ring_copy(),
                                pattern.clone(),
                                self.router.searches(),
                            );
                        }
                    }
                }
            }
        }
    }
}
