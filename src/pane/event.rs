//! What a pane's background work reports to whoever runs the panes (the
//! loop, or a test), through a [`crate::mailbox::Mailbox`].

use crate::pane::PaneId;
use crate::pane::history::window::Window;
use crate::pane::program::pty::ExitInfo;

pub enum PaneEvent {
    /// A pane's program ended (after its last output was read).
    Exited(PaneId, ExitInfo),
    /// A scrollback replay finished.
    HistoryReady(PaneId, Box<Window>),
    /// A pane's history was written to a private file for an editor (`C-b
    /// e`), or could not be. The file goes when the path is dropped.
    HistoryFile(PaneId, anyhow::Result<tempfile::TempPath>),
}

/// Where a pane's background work reports.
pub type PaneMailbox = crate::mailbox::Mailbox<PaneEvent>;
