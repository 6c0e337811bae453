//! Messages other threads send to the render loop besides input and pane
//! output. The channel is bounded but roomy: these are rare.
//!
//! Each part reports in its own type through a [`Mailbox`]; the mailboxes
//! made here wrap those into a [`LoopEvent`], so the parts never import the
//! loop.

use crossbeam_channel::{Receiver, Sender};

use crate::input::search_worker::{SearchMailbox, SearchReport};
use crate::mailbox::Mailbox;
use crate::pane::event::{PaneEvent, PaneMailbox};

pub const LOOP_EVENT_CAPACITY: usize = 256;

/// The loop's own queue: what it reads each turn, and, in a workspace
/// process, the sender the threads it starts for input report on.
pub struct LoopQueue {
    pub rx: Receiver<LoopEvent>,
    pub tx: Option<Sender<LoopEvent>>,
}

pub enum LoopEvent {
    /// A pane's program ended, or its history replay finished.
    Pane(PaneEvent),
    /// A search thread's result, for the client whose router asked (see
    /// [`search_mailbox`]): a copy-mode search, or one pane's part of a
    /// search across the tab.
    Search(u64, Box<SearchReport>),
    /// The running workspaces, listed for client `client` (its router's
    /// key) as it wanted.
    Workspaces {
        client: u64,
        wanted: crate::input::workspace_chooser::WorkspacesWanted,
        list: Vec<crate::session::workspace_list::WorkspaceEntry>,
    },
    /// The workspace's socket was renamed (`C-b $`, asked by the client
    /// whose router's key this is), or why not.
    Renamed {
        client: Option<u64>,
        renamed: Result<(String, std::path::PathBuf), String>,
    },
    /// A look at what the panes run (for their names) came back.
    Names(crate::workspace::name_lookup::NameReport),
    /// SIGTERM, SIGHUP or SIGINT arrived.
    Signal(i32),
    /// A terminal attaches, its client or terminal has news, `ls` or
    /// `kill` asks (sessions).
    Session(crate::session::host::SessionEvent),
    /// Saving the workspace stopped (a full disk): for the status bar.
    Saving(String),
    /// The config file was read again (`source-config`).
    Reloaded(crate::config::reload::Reloaded),
    /// A status-bar command ran.
    StatusCommand(crate::app::status_commands::CommandReport),
}

/// Where panes report, onto the loop's channel.
pub fn pane_mailbox(tx: &Sender<LoopEvent>) -> PaneMailbox {
    to_loop(tx, LoopEvent::Pane)
}

/// Where searches of the router of client `client` report, onto the
/// loop's channel.
pub fn search_mailbox(tx: &Sender<LoopEvent>, client: u64) -> SearchMailbox {
    to_loop(tx, move |report| {
        LoopEvent::Search(client, Box::new(report))
    })
}

/// Where a list of the workspaces for client `client` reports.
pub fn workspaces_mailbox(
    tx: &Sender<LoopEvent>,
    client: u64,
    wanted: crate::input::workspace_chooser::WorkspacesWanted,
) -> Mailbox<Vec<crate::session::workspace_list::WorkspaceEntry>> {
    to_loop(tx, move |list| LoopEvent::Workspaces {
        client,
        wanted,
        list,
    })
}

/// Where a rename of the workspace (for client `client`) reports.
pub fn rename_mailbox(
    tx: &Sender<LoopEvent>,
    client: Option<u64>,
) -> Mailbox<Result<(String, std::path::PathBuf), String>> {
    to_loop(tx, move |renamed| LoopEvent::Renamed { client, renamed })
}

/// Where the pane-name thread reports, onto the loop's channel.
pub fn names_mailbox(tx: &Sender<LoopEvent>) -> crate::workspace::name_lookup::NameMailbox {
    to_loop(tx, LoopEvent::Names)
}

/// Where the session's threads report, onto the loop's channel.
pub fn session_mailbox(tx: &Sender<LoopEvent>) -> Mailbox<crate::session::host::SessionEvent> {
    to_loop(tx, LoopEvent::Session)
}

/// Where the saver thread reports, onto the loop's channel.
pub fn saving_mailbox(tx: &Sender<LoopEvent>) -> Mailbox<String> {
    to_loop(tx, LoopEvent::Saving)
}

/// Where the config reload thread reports, onto the loop's channel.
pub fn reload_mailbox(tx: &Sender<LoopEvent>) -> Mailbox<crate::config::reload::Reloaded> {
    to_loop(tx, LoopEvent::Reloaded)
}

/// Where status-bar commands report, onto the loop's channel.
pub fn status_commands_mailbox(
    tx: &Sender<LoopEvent>,
) -> Mailbox<crate::app::status_commands::CommandReport> {
    to_loop(tx, LoopEvent::StatusCommand)
}

/// Each message wakes the loop after it is sent (see `crate::wake`).
fn to_loop<T: Send + 'static>(
    tx: &Sender<LoopEvent>,
    wrap: impl Fn(T) -> LoopEvent + Send + Sync + 'static,
) -> Mailbox<T> {
    let tx = tx.clone();
    Mailbox::new(move |message| {
        let sent = tx.send(wrap(message)).is_ok();
        crate::wake::wake_loop();
        sent
    })
}
