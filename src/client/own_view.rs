//! Each terminal its own view (`client_views = "own"`, issue 44): the
//! workspace holds one [`View`] at a time; before a terminal's input is
//! handled or its frame drawn, the view held is saved into the terminal
//! that had it and this terminal's is shown. Work between turns (a
//! script's `select-tab`, a pane that ends) lands in the view held, the
//! terminal's that went last.

use crate::client::Client;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::Workspace;
use crate::workspace::view::View;

/// A terminal's own view, and whether the workspace holds it now.
#[derive(Debug, Default)]
pub struct OwnView {
    view: View,
    held: bool,
}

impl OwnView {
    /// A view that starts as `view` (what the workspace shows as it
    /// attaches).
    pub fn starting_at(view: View) -> Self {
        Self { view, held: false }
    }

    /// The serial of the tab it shows.
    pub fn tab(&self, ws: &Workspace) -> Option<u64> {
        if self.held {
            ws.tabs().shown_serial()
        } else {
            self.view.tab()
        }
    }
}

/// Makes the workspace show client `at`'s own view (nothing for a
/// client that shares the workspace's). Whether the view changed.
pub fn show_for<B: FrameSink>(ws: &mut Workspace, clients: &mut [Client<B>], at: usize) -> bool {
    if clients
        .get(at)
        .is_none_or(|c| c.own_view.as_ref().is_none_or(|v| v.held))
    {
        return false;
    }
    for client in clients.iter_mut() {
        if let Some(own) = client.own_view.as_mut().filter(|v| v.held) {
            own.view = ws.tabs().view();
            own.held = false;
        }
    }
    if let Some(own) = clients[at].own_view.as_mut() {
        ws.tabs_mut().show_view(&own.view);
        own.held = true;
    }
    true
}

/// The tabs (by serial) other terminals with views of their own show, for
/// client `at`'s status bar.
pub fn seen_elsewhere<B: FrameSink>(ws: &Workspace, clients: &[Client<B>], at: usize) -> Vec<u64> {
    clients
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .filter_map(|(_, c)| c.own_view.as_ref()?.tab(ws))
        .collect()
}
