//! The loop's state of programs' signals (`program_signals` acts on it).

use crate::pane::PaneId;

/// The loop's state of programs' signals.
#[derive(Default)]
pub struct LoopSignals {
    /// Clipboard reads waiting on the user or a terminal.
    pub clipboard_reads: crate::app::clipboard_reads::ClipboardReads,
    /// Progress, told to the terminals that speak it.
    pub progress: crate::app::progress_forward::ProgressForward,
    /// The kitty notifications (pane, program's id) whose program asked
    /// to hear of a click, oldest first.
    pub clicks_asked: Vec<(PaneId, String)>,
}
