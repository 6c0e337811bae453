//! What handling one input event did: whether to draw, which pane's echo
//! to wait for, and the work beyond the UI that the loop is to do
//! ([`Command`]s), so key handling itself writes no files and starts no
//! threads of its own.

use crate::pane::PaneId;

/// Work for the loop that follows from input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Save the workspace as the profile of this name, then tell the
    /// router how it went (`InputRouter::profile_saved`).
    SaveProfile(String),
    /// Put this text on the user's clipboard: OSC 52 with the next frame,
    /// and the local copy command if there is one.
    Clipboard(String),
    /// Pipe this text to a shell command (`copy-pipe CMD`), on a thread.
    PipeCopy { text: String, command: String },
    /// Search the history of each of these panes for `pattern` (already
    /// validated), each on its own thread; results come back as loop
    /// events.
    SearchPanes { pattern: String, panes: Vec<PaneId> },
    /// Let the terminal go; the workspace keeps running.
    Detach,
    /// List the running workspaces (on a thread): for `C-b s`'s chooser,
    /// or to step to the previous or next one.
    ListWorkspaces(WorkspacesWanted),
    /// Show this workspace (and its tab or pane) on this terminal instead.
    SwitchWorkspace(WorkspaceTarget),
    /// A `send-keys` or `run` typed at the command prompt (`C-b :`): done
    /// as for a script, an error said in the status bar.
    Script(crate::session::script::Call),
    /// Rename the workspace (`C-b $`): its socket, so `tilework ls` and
    /// `attach` know it by the new name.
    RenameWorkspace(String),
    /// Read the config file again (off the loop) and apply it.
    SourceConfig,
}

/// What handling one input event did, so the loop knows how urgently to draw.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The workspace's own drawing changed (focus, layout, overlays).
    pub redraw: bool,
    /// Bytes went to this pane: its echo should be drawn at once.
    pub sent_to: Option<PaneId>,
    /// For the loop to carry out, in order.
    pub commands: Vec<Command>,
}

impl Outcome {
    /// Only the drawing changed.
    pub fn redraw() -> Self {
        Self {
            redraw: true,
            ..Self::default()
        }
    }

    /// Redraw if `changed`.
    pub fn redraw_if(changed: bool) -> Self {
        Self {
            redraw: changed,
            ..Self::default()
        }
    }

    /// Bytes went to pane `id`; nothing else changed.
    pub fn sent_to(id: PaneId) -> Self {
        Self {
            sent_to: Some(id),
            ..Self::default()
        }
    }

    /// Adds a command for the loop.
    pub fn with(mut self, command: Command) -> Self {
        self.commands.push(command);
        self
    }

    /// Folds in what a later step of the same event did.
    pub fn merge(&mut self, other: Outcome) {
        self.redraw |= other.redraw;
        self.sent_to = other.sent_to.or(self.sent_to);
        self.commands.extend(other.commands);
    }
}

/// Where `C-b s`, `C-b (` or `C-b )` sends this terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceTarget {
    pub name: String,
    /// The tab to show there (from 1, as the status bar numbers them).
    pub tab: Option<usize>,
    /// The pane to focus there (`--pane`'s number).
    pub pane: Option<u32>,
}

/// What a list of the workspaces is wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkspacesWanted {
    /// `C-b s`: the chooser.
    Chooser,
    /// `C-b (` (-1) or `C-b )` (+1): the previous or next by name.
    Step(isize),
}
