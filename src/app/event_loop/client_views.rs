//! The loop's side of `client_views = "own"` (see `client::own_view`): a
//! terminal's own view is shown before its input and its frame, its tab
//! laid out at the size `window_size` picks among the terminals showing
//! that tab, so a tab shown by one terminal alone is sized for it.

use ratatui::layout::Rect;

use super::App;
use crate::client::own_view as views;
use crate::render::frame;
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Shows client `at`'s own view (nothing for a shared one), its tab at
    /// the size of the terminals showing it, and fits its frames to it.
    pub(super) fn show_own_view(&mut self, at: usize) {
        if self.clients.get(at).is_none_or(|c| c.own_view.is_none()) {
            return;
        }
        views::show_for(&mut self.ws, &mut self.clients, at);
        let Some(area) = self.own_area(at) else {
            return;
        };
        let client = &mut self.clients[at];
        if client.frame_area() != area || client.needs_refit() {
            client.refit(area);
        }
        self.ws.set_shown_tab_area(frame::split_screen(area).0);
    }

    /// The size client `at`'s tab is laid out at: `window_size`'s pick
    /// among the terminals that show that tab (a read-only one has no
    /// say, as in the shared view).
    fn own_area(&self, at: usize) -> Option<Rect> {
        let tab = self.clients.get(at)?.own_view.as_ref()?.tab(&self.ws);
        let group: Vec<_> = self
            .clients
            .iter()
            .filter(|c| !c.read_only)
            .filter(|c| c.own_view.as_ref().is_some_and(|v| v.tab(&self.ws) == tab))
            .collect();
        let sizes: Vec<(u16, u16)> = group
            .iter()
            .map(|c| (c.size.width, c.size.height))
            .collect();
        let latest = group
            .iter()
            .find(|c| c.link.is_some() && c.link == self.latest)
            .map(|c| (c.size.width, c.size.height));
        let (cols, rows) = self.window_size.pick(latest, &sizes)?;
        Some(frame::drawable_area(cols, rows))
    }
}
