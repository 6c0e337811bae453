//! Messages other threads send to the render loop besides input and pane
//! output. The channel is bounded but roomy: these are rare.

use crate::pane::PaneId;
use crate::pane::history::History;
use crate::pane::pty::ExitInfo;

pub const LOOP_EVENT_CAPACITY: usize = 256;

pub enum LoopEvent {
    /// A pane's program ended (after its last output was read).
    PaneExited(PaneId, ExitInfo),
    /// A scrollback replay finished.
    HistoryReady(PaneId, Box<History>),
    /// A search thread's result: a copy-mode search, or one pane's part of
    /// a search across the tab.
    SearchResult(Box<crate::input::search_worker::SearchReport>),
    /// SIGTERM, SIGHUP or SIGINT arrived.
    Signal(i32),
}
