//! Messages other threads send to the render loop besides input and pane
//! output. The channel is bounded but roomy: these are rare.
//!
//! Each part reports in its own type through a [`Mailbox`]; the mailboxes
//! made here wrap those into a [`LoopEvent`], so the parts never import the
//! loop.

use crossbeam_channel::Sender;

use crate::input::search_worker::{SearchMailbox, SearchReport};
use crate::mailbox::Mailbox;
use crate::pane::event::{PaneEvent, PaneMailbox};

pub const LOOP_EVENT_CAPACITY: usize = 256;

pub enum LoopEvent {
    /// A pane's program ended, or its history replay finished.
    Pane(PaneEvent),
    /// A search thread's result: a copy-mode search, or one pane's part of
    /// a search across the tab.
    Search(Box<SearchReport>),
    /// A look at what the panes run (for their names) came back.
    Names(crate::workspace::name_lookup::NameReport),
    /// SIGTERM, SIGHUP or SIGINT arrived.
    Signal(i32),
    /// A terminal attaches, its client or terminal has news, `ls` or
    /// `kill` asks (sessions).
    Session(crate::session::host::SessionEvent),
    /// The config file was read again (`source-config`).
    Reloaded(crate::config::reload::Reloaded),
    /// A status-bar command ran.
    StatusCommand(crate::app::status_commands::CommandReport),
}

/// Where panes report, onto the loop's channel.
pub fn pane_mailbox(tx: &Sender<LoopEvent>) -> PaneMailbox {
    to_loop(tx, LoopEvent::Pane)
}

/// Where searches report, onto the loop's channel.
pub fn search_mailbox(tx: &Sender<LoopEvent>) -> SearchMailbox {
    to_loop(tx, |report| LoopEvent::Search(Box::new(report)))
}

/// Where the pane-name thread reports, onto the loop's channel.
pub fn names_mailbox(tx: &Sender<LoopEvent>) -> crate::workspace::name_lookup::NameMailbox {
    to_loop(tx, LoopEvent::Names)
}

/// Where the session's threads report, onto the loop's channel.
pub fn session_mailbox(tx: &Sender<LoopEvent>) -> Mailbox<crate::session::host::SessionEvent> {
    to_loop(tx, LoopEvent::Session)
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
fn to_loop<T: Send + 'static>(tx: &Sender<LoopEvent>, wrap: fn(T) -> LoopEvent) -> Mailbox<T> {
    let tx = tx.clone();
    Mailbox::new(move |message| {
        let sent = tx.send(wrap(message)).is_ok();
        crate::wake::wake_loop();
        sent
    })
}
