//! The attached terminals, each a [`Client`], and what the loop keeps
//! about them together: how a new one's router and frames are made,
//! which typed last, whose size the layout takes (`window_size`), whether
//! each has a view of its own (`client_views`), and the router that acts
//! for scripts while none is attached.

use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use crate::client::Client;
use crate::client::facts::TerminalFacts;
use crate::config::clients::{ClientViews, WindowSize};
use crate::config::colour::Rgb;
use crate::graphics::reach::Reach;
use crate::input::router::InputRouter;
use crate::pane::PaneId;
use crate::render::cell_extras::Features;
use crate::render::frame;
use crate::terminal::frame_sink::FrameSink;
use crate::terminal::output::WriterKind;
use crate::workspace::Workspace;

/// Makes the input router of a new client (numbered for its searches'
/// reports).
pub(super) type RouterMaker = Box<dyn Fn(u64) -> InputRouter>;

/// Without a wake pipe (it could not be made) the loop looks for work
/// this often.
const NO_WAKE_POLL: Duration = Duration::from_millis(5);

/// The number of the router that acts for scripts while no terminal is
/// attached.
pub(super) const SPARE_ROUTER: u64 = u64::MAX;

pub(super) struct Attached<B: FrameSink> {
    /// In the order they attached (none while detached).
    pub(super) list: Vec<Client<B>>,
    /// Makes each new client's input router.
    pub(super) new_router: RouterMaker,
    /// Acts for scripts while no terminal is attached.
    pub(super) spare_router: InputRouter,
    /// How frames are written to new clients.
    pub(super) writer: WriterKind,
    /// Whose size the layout takes (`window_size`).
    pub(super) window_size: WindowSize,
    /// Whether each terminal has its own view (`client_views`).
    pub(super) client_views: ClientViews,
    /// The link of the terminal that typed (or attached) last.
    pub(super) latest: Option<u64>,
    /// The layout's drawable area: every client draws its frames at it.
    pub(super) frame_area: Rect,
    /// The links whose clients said their terminal changed size: see
    /// [`Self::follow_sizes`].
    pub(super) resize_news: Vec<u64>,
    /// The config read again last, for terminals attaching after it.
    pub(super) reloaded_config: Option<Box<crate::config::Config>>,
    /// The cell features the config says every terminal draws (set once
    /// at start).
    pub(super) configured_features: Features,
}

impl<B: FrameSink> Attached<B> {
    /// `first` alone, drawing at its own size, with routers of the
    /// default keymap until the loop sets its own maker.
    pub(super) fn new(first: Client<B>) -> Self {
        let plain_router = |_| {
            InputRouter::new(
                crate::config::keymap::Keymap::default(),
                false,
                crate::mailbox::Mailbox::discarding(),
            )
        };
        Self {
            frame_area: first.size,
            list: vec![first],
            new_router: Box::new(plain_router),
            spare_router: plain_router(SPARE_ROUTER),
            writer: WriterKind::BufWriterRaw,
            window_size: WindowSize::Latest,
            client_views: ClientViews::Shared,
            latest: None,
            resize_news: Vec::new(),
            reloaded_config: None,
            configured_features: Features::default(),
        }
    }

    /// The client that acts for scripts and for what has no terminal of
    /// its own: the one that typed last, else the newest.
    pub(super) fn acting(&self) -> Option<usize> {
        self.list
            .iter()
            .position(|c| c.link.is_some() && c.link == self.latest)
            .or_else(|| self.list.len().checked_sub(1))
    }

    /// The router that acts where no terminal's input asked (a script, a
    /// history that came back): the acting client's, else the spare one.
    pub(super) fn acting_router(&mut self) -> &mut InputRouter {
        match self.acting() {
            Some(at) => &mut self.list[at].router,
            None => &mut self.spare_router,
        }
    }

    /// Client `at`'s router, or the acting one.
    pub(super) fn router_of(&mut self, at: Option<usize>) -> &mut InputRouter {
        match at.filter(|&at| at < self.list.len()) {
            Some(at) => &mut self.list[at].router,
            None => self.acting_router(),
        }
    }

    /// What programs asking for the terminal's colours are told of: the
    /// facts of the terminal that typed last, unless it only looks (a
    /// read-only terminal changes nothing programs are told), else of the
    /// newest that may type.
    pub(super) fn acting_facts(&self) -> TerminalFacts {
        self.acting()
            .map(|at| &self.list[at])
            .filter(|c| !c.read_only)
            .or_else(|| self.list.iter().rev().find(|c| !c.read_only))
            .map(|c| c.facts)
            .unwrap_or_default()
    }

    /// Link `link` changed size: its size is read on the next turn.
    pub(super) fn resize_news(&mut self, link: u64) {
        if !self.resize_news.contains(&link) {
            self.resize_news.push(link);
        }
    }

    /// Terminals that changed size since the last turn: their sizes are
    /// read now, after all of the news (the last size wins), and each is
    /// drawn whole even at the size it had. A terminal may have been
    /// another size in between and cut its screen to it; the frames after
    /// this one only draw what changed, and nothing else would repair it.
    /// A terminal whose cell changed in pixels (a font size change) has
    /// programs told the new one, as an attach would (`configured`: the
    /// config's colours). Returns whether any did (the layout is fitted
    /// again then).
    pub(super) fn follow_sizes(
        &mut self,
        ws: &mut Workspace,
        configured: [Option<Rgb>; 3],
    ) -> bool {
        if self.resize_news.is_empty() {
            return false;
        }
        let mut new_cell = false;
        for link in std::mem::take(&mut self.resize_news) {
            if let Some(client) = self.list.iter_mut().find(|c| c.link == Some(link)) {
                let size = client.read_size().unwrap_or(client.size);
                client.resized(size);
                new_cell |= client.read_cell();
            }
        }
        if !new_cell {
            self.fit_layout(ws);
            return true;
        }
        // The programs hear of the new cell once: with the resize of their
        // pane, or on their own when their pane keeps its size.
        let sizes: Vec<(PaneId, (u16, u16))> =
            ws.panes().iter().map(|p| (p.id, p.term().size())).collect();
        let (colours, reach) = self.told_facts(configured);
        let cell_news = super::tell_panes::terminals_told_before_resize(ws, colours, reach);
        self.fit_layout(ws);
        if cell_news {
            for pane in ws.panes_mut().iter_mut() {
                if sizes.contains(&(pane.id, pane.term().size())) {
                    pane.cell_pixels_changed();
                }
            }
        }
        true
    }

    /// Client `at` typed. Returns its link if it was not the latest to
    /// type before.
    pub(super) fn typed(&mut self, at: usize) -> Option<u64> {
        let link = self.list.get(at).and_then(|c| c.link)?;
        if Some(link) == self.latest {
            return None;
        }
        self.latest = Some(link);
        Some(link)
    }

    /// Link `link`'s client was dropped: the latest is the newest left,
    /// and the layout and the colours programs are told follow the
    /// terminals that stay (`configured`: the config's colours).
    pub(super) fn left(&mut self, link: u64, ws: &mut Workspace, configured: [Option<Rgb>; 3]) {
        if self.latest == Some(link) {
            self.latest = self.list.last().and_then(|c| c.link);
        }
        self.fit_layout(ws);
        self.tell_colours(ws, configured);
    }

    /// Programs asking for the terminal's colours are told those of the
    /// terminal that typed last, under `configured` (the config's); the
    /// pictures programs may send follow what the terminals speak.
    pub(super) fn tell_colours(&self, ws: &mut Workspace, configured: [Option<Rgb>; 3]) {
        let (colours, reach) = self.told_facts(configured);
        super::tell_panes::terminals_told(ws, colours, reach);
    }

    /// The colours and picture reach the attached terminals give the
    /// programs (`configured`: the config's colours).
    fn told_facts(&self, configured: [Option<Rgb>; 3]) -> ([Option<Rgb>; 3], Reach) {
        let colours = crate::client::facts::answered_colours(configured, &self.acting_facts());
        let attached = self.list.iter().map(|c| (&c.facts, c.read_only));
        (colours, crate::client::facts::picture_reach(attached))
    }

    /// The layout takes the size `window_size` picks among the attached
    /// terminals; every client draws its frames at that size (see
    /// `render::fit`). A read-only terminal (`attach -r`) has no say, as
    /// tmux's `ignore-size`: it sees the layout cut or padded, and the
    /// programs never see its size. Without terminals that have a say the
    /// layout keeps its size.
    pub(super) fn fit_layout(&mut self, ws: &mut Workspace) {
        if self.list.iter().any(|c| c.own_view.is_some()) {
            // Each terminal's tab at the size of those showing it.
            for at in 0..self.list.len() {
                self.show_own_view(ws, at);
            }
            return;
        }
        let sizing = || self.list.iter().filter(|c| !c.read_only);
        let sizes: Vec<(u16, u16)> = sizing().map(|c| (c.size.width, c.size.height)).collect();
        let latest = sizing()
            .find(|c| c.link.is_some() && c.link == self.latest)
            .map(|c| (c.size.width, c.size.height));
        let area = match self.window_size.pick(latest, &sizes) {
            Some((cols, rows)) => frame::drawable_area(cols, rows),
            None => self.frame_area,
        };
        for client in &mut self.list {
            if client.frame_area() != area || client.needs_refit() {
                client.refit(area);
            }
        }
        self.frame_area = area;
        ws.set_area(frame::split_screen(area).0);
    }

    /// With `client_views = "own"`, each terminal without a view of its
    /// own gets one, starting where the workspace is now.
    pub(super) fn give_own_views(&mut self, ws: &Workspace) {
        if self.client_views != ClientViews::Own {
            return;
        }
        for client in &mut self.list {
            if client.own_view.is_none() {
                client.own_view = Some(crate::client::own_view::OwnView::starting_at(
                    ws.tabs().view(),
                ));
            }
        }
    }

    /// Shows client `at`'s own view (nothing for a shared one), its tab at
    /// the size of the terminals showing it, and fits its frames to it.
    pub(super) fn show_own_view(&mut self, ws: &mut Workspace, at: usize) {
        if self.list.get(at).is_none_or(|c| c.own_view.is_none()) {
            return;
        }
        crate::client::own_view::show_for(ws, &mut self.list, at);
        let Some(area) = self.own_area(ws, at) else {
            return;
        };
        let client = &mut self.list[at];
        if client.frame_area() != area || client.needs_refit() {
            client.refit(area);
        }
        ws.set_shown_tab_area(frame::split_screen(area).0);
    }

    /// The size client `at`'s tab is laid out at: `window_size`'s pick
    /// among the terminals that show that tab (a read-only one has no
    /// say, as in the shared view).
    fn own_area(&self, ws: &Workspace, at: usize) -> Option<Rect> {
        let tab = self.list.get(at)?.own_view.as_ref()?.tab(ws);
        let group: Vec<_> = self
            .list
            .iter()
            .filter(|c| !c.read_only)
            .filter(|c| c.own_view.as_ref().is_some_and(|v| v.tab(ws) == tab))
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

    /// Says `text` in every terminal's status bar.
    pub(super) fn notify_all(&mut self, text: &str) {
        for client in &mut self.list {
            client.router.notify(text.to_owned());
        }
    }

    /// Client `at`'s terminal is dark (`true`) or light: its theme
    /// follows if it is `auto`. Returns whether it changed (then its
    /// whole frame is drawn anew at once).
    pub(super) fn follow_terminal_theme(&mut self, at: usize, dark: bool) -> bool {
        let Some(client) = self.list.get_mut(at) else {
            return false;
        };
        let changed = client.router.follow_terminal_theme(dark);
        if changed {
            // The theme may colour every cell tilework draws: a whole frame.
            let frame = client.frame_area();
            client.refit(frame);
        }
        changed
    }

    /// Client `at` attached, or the config was read again: an `auto`
    /// theme is light or dark by the background its terminal answered
    /// (a 2031 report may follow). Returns whether it changed.
    pub(super) fn theme_from_terminal(&mut self, at: usize) -> bool {
        let background = self.list.get(at).and_then(|c| c.facts.colours[1]);
        background.is_some_and(|background| {
            let dark = crate::pane::term::fidelity::theme::is_dark(background);
            self.follow_terminal_theme(at, dark)
        })
    }

    /// Sleeps in poll(2) on the terminals, the wake pipe and `quiet` (the
    /// quiet panes' PTYs, see `pane::reader_gate`) until one is ready or
    /// `deadline`. Each terminal's input is told what the poll saw;
    /// returns the clients whose terminal can take more of a frame it
    /// stopped reading, and which of `quiet` are readable (none known if
    /// the poll failed).
    pub(super) fn sleep(
        &mut self,
        quiet: &[BorrowedFd<'_>],
        deadline: Option<Instant>,
    ) -> (Vec<usize>, Option<Vec<bool>>) {
        use rustix::event::{PollFd, PollFlags, Timespec};
        let wake = crate::wake::fd();
        let mut timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if wake.is_none() {
            // No way to be woken: look again soon.
            timeout = Some(timeout.map_or(NO_WAKE_POLL, |t| t.min(NO_WAKE_POLL)));
        }
        let timeout = timeout.map(|t| Timespec {
            tv_sec: i64::try_from(t.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(t.subsec_nanos()),
        });
        // Each client's input, then (while a frame waits) its output.
        let inputs: Vec<_> = self.list.iter().map(|c| c.input.fd()).collect();
        let unsent: Vec<_> = self.list.iter().map(|c| c.unsent_fd()).collect();
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(1 + 2 * self.list.len() + quiet.len());
        fds.extend(wake.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
        for (input, unsent) in inputs.iter().zip(&unsent) {
            fds.extend(input.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
            fds.extend(unsent.as_ref().map(|fd| PollFd::new(fd, PollFlags::OUT)));
        }
        fds.extend(quiet.iter().map(|fd| PollFd::new(fd, PollFlags::IN)));
        let answered = match rustix::event::poll(&mut fds, timeout.as_ref()) {
            Ok(_) => true,
            Err(rustix::io::Errno::INTR) => false,
            Err(err) => {
                tracing::warn!("waiting in poll(2): {err}");
                false
            }
        };
        let mut at = 0;
        let mut next = |present: bool| {
            let revents = present.then(|| fds[at].revents());
            at += usize::from(present);
            revents
        };
        let woken = next(wake.is_some()).is_some_and(|r| !r.is_empty());
        let polled: Vec<_> = inputs
            .iter()
            .zip(&unsent)
            .map(|(input, unsent)| {
                let input = next(input.is_some());
                let writable = next(unsent.is_some()).is_some_and(|r| !r.is_empty());
                (input, writable)
            })
            .collect();
        let quiet_ready = answered.then(|| {
            (0..quiet.len())
                .map(|_| next(true).is_some_and(|r| !r.is_empty()))
                .collect()
        });
        drop(fds);
        drop(unsent);
        drop(inputs);
        if woken {
            crate::wake::drain();
        }
        let mut writable = Vec::new();
        for (at, (input, can_write)) in polled.into_iter().enumerate() {
            if let Some(revents) = input
                && answered
                && let Some(client) = self.list.get_mut(at)
            {
                client.input.polled(revents);
            }
            if can_write {
                writable.push(at);
            }
        }
        (writable, quiet_ready)
    }
}
