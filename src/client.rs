//! One attached terminal: everything that belongs to one user's terminal
//! rather than to the workspace it shows (tmux's `struct client` with its
//! `struct tty`).
//!
//! A [`Client`] owns the frame stream to its terminal and what makes each
//! frame cheap (the painter's last picture, the render cache), where its
//! input comes from, its own input state (prefix, copy mode, prompts,
//! popups: the [`InputRouter`]), what it shows of the workspace (its
//! size), its side effects waiting for the next frame (clipboard, bell,
//! cursor shape), the focus it reports to programs, and what the terminal
//! told about itself when it attached ([`TerminalFacts`]).
//!
//! The loop (`crate::app`) keeps only what all clients share: the
//! workspace and its panes, the frame clock, metrics. Its turn is input
//! from each client, then the panes' output, then events, then a frame for
//! each client that is due.
//!
//! - [`input_source`]: the terminal read on the loop's thread, or a channel
//!   in the loop's own tests.
//! - [`facts`]: what the terminal told about itself, asked at every attach.
//! - [`terminal_reader`]: its bytes read without waiting and parsed into
//!   keys, mouse, pastes and the terminal's answers.
//! - [`own_view`]: its own tab and focus (`client_views = "own"`).
//! - [`cell_watch`]: its cell size in pixels, followed at each resize.

pub mod cell_watch;
pub mod facts;
pub mod input_source;
pub mod own_view;
pub mod terminal_reader;

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use anyhow::{Context, Result};
use ratatui::layout::{Position, Rect};
use ratatui::{Terminal, TerminalOptions, Viewport};

pub use facts::TerminalFacts;
use input_source::InputSource;

use crate::input::focus_events::FocusReporter;
use crate::input::router::InputRouter;
use crate::pane::PaneId;
use crate::render::cache::RenderCache;
use crate::render::cell_extras::Features;
use crate::render::fit::Fit;
use crate::render::fps_overlay::OverlayData;
use crate::render::frame;
use crate::render::painter::Painter;
use crate::session::host::Joined;
use crate::terminal::frame_sink::{FrameSink, RawWriter};
use crate::terminal::guard::TerminalModes;
use crate::terminal::outbox::Outbox;
use crate::terminal::output::WriterKind;
use crate::terminal::output::{SYNC_BEGIN, SYNC_END};
use crate::workspace::Workspace;

/// What drawing a frame cost, and whether a pane was drawn from a stale
/// image (it gets a regular frame soon).
pub struct Drawn {
    pub bytes: u64,
    pub writes: u64,
    pub left_stale: bool,
}

/// An attached terminal's own descriptor, and the modes that keep it in
/// workspace mode: dropped with the client, the terminal is put back as it
/// was.
struct Tty {
    _modes: TerminalModes,
    /// To read its size.
    fd: OwnedFd,
    cell: cell_watch::CellWatch,
}

/// The area frames are drawn at, and what makes the next one whole.
struct Fitting {
    /// The workspace's layout's size.
    frame: Rect,
    /// Its size changed and frames are not fitted to it yet.
    stale: bool,
    /// The next frame clears the whole screen first (the frame does not
    /// cover all of it).
    clear_first: bool,
    /// Frames were not drawn while the terminal was not reading: the
    /// next one, once it reads again, is drawn whole.
    frames_skipped: bool,
}

impl Fitting {
    fn at(frame: Rect) -> Self {
        Self {
            frame,
            stale: false,
            clear_first: false,
            frames_skipped: false,
        }
    }
}

/// One user's terminal attached to the workspace.
pub struct Client<B: FrameSink> {
    /// Frames go here: the one `write(2)` per frame. Its buffer is the
    /// frame's area (the layout's size, which may differ from this
    /// terminal's own when several are attached: see `render::fit`).
    pub terminal: Terminal<B>,
    /// The terminal's drawable area, as last reported.
    pub size: Rect,
    /// The area frames are drawn at, and when the next is drawn whole.
    fitting: Fitting,
    /// Its session link (`None`: the loop's own tests).
    pub link: Option<u64>,
    /// Attached with `attach -r`: its keys only scroll its view and
    /// detach.
    pub read_only: bool,
    /// Its terminal, held in workspace mode (`None`: the loop's own
    /// tests).
    tty: Option<Tty>,
    /// Where its keys, mouse and resizes come from.
    pub input: InputSource,
    /// Its modal input state and what the screen shows of it.
    pub router: InputRouter,
    /// Only the rows that changed since its last frame are written.
    pub painter: Painter,
    /// Pane images kept between its frames.
    pub render_cache: RenderCache,
    /// Clipboard, bell and cursor shape, written with its next frame.
    pub outbox: Outbox,
    /// Focus events for the panes that ask, as this terminal's focus goes.
    pub focus: FocusReporter,
    /// What the terminal said about itself when it attached.
    pub facts: TerminalFacts,
    /// The panes' pictures drawn to it (issue 34).
    pictures: crate::render::pictures::PictureDrawer,
    /// Its own tab and focus (`client_views = "own"`); `None`: it shares
    /// the workspace's.
    pub own_view: Option<own_view::OwnView>,
}

impl<B: FrameSink> Client<B> {
    /// A client drawing on `terminal`, whose current buffer's area is its
    /// size.
    pub fn new(
        mut terminal: Terminal<B>,
        input: InputSource,
        router: InputRouter,
        facts: TerminalFacts,
        configured: Features,
    ) -> Self {
        let size = terminal.current_buffer_mut().area;
        frame::release_back_buffer(&mut terminal);
        let mut client = Self {
            terminal,
            size,
            fitting: Fitting::at(size),
            link: None,
            read_only: false,
            tty: None,
            input,
            router,
            painter: Painter::new(size),
            render_cache: RenderCache::default(),
            outbox: Outbox::default(),
            focus: FocusReporter::default(),
            facts: TerminalFacts::default(),
            pictures: Default::default(),
            own_view: None,
        };
        client.told(facts, configured);
        client
    }

    /// The terminal attached anew (or another one in its place) and told
    /// `facts`: what it understands (with the config's word,
    /// `configured`) is set up again with its next frame.
    pub fn told(&mut self, facts: TerminalFacts, configured: Features) {
        self.outbox.terminal_changed();
        if facts.kitty_keyboard {
            // Written after the guard switched to the alternate screen,
            // where the flags live and go away with it.
            self.outbox.push_kitty_keyboard();
        }
        self.painter.set_features(Features::of(&facts, configured));
        self.pictures = Default::default();
        self.facts = facts;
    }

    /// A client on the terminal a session took (see
    /// `session::host::Joined`): frames drawn at `frame`, written as
    /// `writer` says; `configured`: the cell features the config says
    /// every terminal draws.
    pub fn on_terminal(
        joined: Joined,
        writer: WriterKind,
        router: InputRouter,
        frame: Rect,
        configured: Features,
    ) -> Result<Self> {
        let frames_to = if writer.uses_stderr() {
            joined.errors.as_fd()
        } else {
            joined.output.as_fd()
        };
        let backend = B::open_on(frames_to, writer).context("opening the terminal for output")?;
        let (cols, rows) =
            terminal_size(joined.output.as_fd()).context("reading the terminal's size")?;
        let terminal = Terminal::with_options(
            backend,
            // Fixed: the fullscreen viewport asks the terminal its size
            // every frame.
            TerminalOptions {
                viewport: Viewport::Fixed(frame),
            },
        )
        .context("creating the ratatui terminal")?;
        let input = InputSource::terminal_on(joined.input).context("reading the terminal")?;
        let mut client = Self::new(terminal, input, router, joined.facts, configured);
        client.link = Some(joined.link);
        client.read_only = joined.read_only;
        client.tty = Some(Tty {
            _modes: joined.modes,
            cell: cell_watch::CellWatch::new(joined.output.as_fd()),
            fd: joined.output,
        });
        client.size = frame::drawable_area(cols, rows);
        client.refit(frame);
        Ok(client)
    }

    /// The terminal's own size, read now (`None` when it cannot be read
    /// or says 0).
    pub fn read_size(&self) -> Option<Rect> {
        let fd = &self.tty.as_ref()?.fd;
        match terminal_size(fd.as_fd()) {
            Ok((cols, rows)) if cols > 0 && rows > 0 => Some(frame::drawable_area(cols, rows)),
            Ok(_) => None,
            Err(err) => {
                tracing::warn!("reading a terminal's size: {err}");
                None
            }
        }
    }

    /// The terminal resized: whether its cell's size in pixels changed
    /// with it (its facts say the new one then).
    pub fn read_cell(&mut self) -> bool {
        let Some(tty) = self.tty.as_mut() else {
            return false;
        };
        let Some(cell) = tty.cell.resized(tty.fd.as_fd()) else {
            return false;
        };
        tracing::info!(?cell, "a terminal's cell size in pixels changed");
        self.facts.cell = Some(cell);
        true
    }

    /// The terminal's size is `size` now: the next frame is whole.
    /// The caller fits the layout next (`App::fit_layout`), which refits
    /// this client ([`Self::needs_refit`]): refitting here, at the old
    /// frame's size, would clear its screen once more for nothing.
    pub fn resized(&mut self, size: Rect) {
        self.size = size;
        self.fitting.stale = true;
    }

    /// Its terminal changed size since frames were last fitted to it.
    pub fn needs_refit(&self) -> bool {
        self.fitting.stale
    }

    /// Frames are drawn at `frame` now (the layout's size), or the
    /// terminal's screen must be drawn whole again: the screen is cleared
    /// and the next frame is whole.
    pub fn refit(&mut self, frame: Rect) {
        self.fitting.frame = frame;
        self.fitting.stale = false;
        if let Err(err) = self.terminal.resize(frame) {
            tracing::warn!("resizing the terminal: {err}");
        }
        frame::release_back_buffer(&mut self.terminal);
        let fit = Fit::new(frame, self.size);
        if !fit.is_exact() {
            // ratatui clears only the frame's rows; the rest of a larger
            // terminal, and its own bar row, are cleared here.
            // Inside the next frame's synchronized update, so the terminal
            // never shows the cleared screen alone.
            self.fitting.clear_first = true;
        }
        self.painter.refitted(fit);
        // The screen is drawn whole again: so are its pictures.
        self.pictures = Default::default();
    }

    /// Which client a search report is for (see
    /// `app::loop_event::search_mailbox`).
    pub fn router_key(&self) -> u64 {
        self.link.unwrap_or(0)
    }

    /// The area frames are drawn at.
    pub fn frame_area(&self) -> Rect {
        self.fitting.frame
    }

    /// Where a click on this terminal is in the frame.
    pub fn unplace(&self, at: Position) -> Option<Position> {
        Fit::new(self.fitting.frame, self.size).unplace(at)
    }

    /// Draws one frame of `ws` for this terminal, in one synchronized
    /// update and one `write(2)`, with what its outbox holds.
    pub fn draw(
        &mut self,
        ws: &Workspace,
        overlay: Option<&OverlayData>,
        echo_of: Option<PaneId>,
    ) -> Result<Drawn> {
        let counters = self.terminal.backend().counters();
        let count = || {
            counters
                .as_ref()
                .map_or((0, 0), |c| (c.bytes(), c.writes()))
        };
        let (bytes_before, writes_before) = count();
        self.render_cache.sweep(|id| ws.panes().get(id).is_some());
        let backend = self.terminal.backend_mut();
        backend
            .write_raw(SYNC_BEGIN)
            .context("writing to the terminal")?;
        if std::mem::take(&mut self.fitting.clear_first) {
            backend
                .write_raw(CLEAR_SCREEN)
                .context("writing to the terminal")?;
        }
        let left_stale = frame::render_frame(
            &mut self.terminal,
            &mut self.painter,
            &mut self.render_cache,
            ws,
            self.router.view(),
            overlay,
            echo_of,
        )
        .context("drawing a frame")?;
        let ui = self.router.view();
        let covered = || frame::frame_shape(ws, ui, overlay.is_some()).overlays || ui.popup_shown();
        let pictures_left = self
            .pictures
            .draw(
                ws,
                crate::render::pictures::Terminal {
                    speaks: self.facts.pictures,
                    cell: self.facts.cell,
                    covered,
                },
                &mut self.painter,
                self.terminal.backend_mut(),
                |backend, bytes| backend.write_raw(bytes),
                echo_of.is_some(),
            )
            .context("drawing pictures")?;
        self.outbox.title(self.title(ws));
        self.outbox.cursor_style(frame::cursor_style_sequence(ws));
        self.outbox.cursor_colour(focused_cursor_colour(ws));
        let backend = self.terminal.backend_mut();
        self.outbox
            .write_to(&mut RawWriter(&mut *backend))
            .and_then(|()| backend.write_raw(SYNC_END))
            .context("writing to the terminal")?;
        backend
            .end_frame()
            .context("writing a frame to the terminal")?;
        let (bytes_after, writes_after) = count();
        // Frames were dropped before this one (its terminal had stopped
        // reading): this one was drawn over a picture the terminal never
        // got; the next, due soon, is drawn whole.
        let owed = self.terminal_writable()?;
        Ok(Drawn {
            bytes: bytes_after - bytes_before,
            writes: writes_after - writes_before,
            left_stale: left_stale || owed || pictures_left,
        })
    }

    /// The title its terminal is given (`[status] set_titles`).
    fn title(&self, ws: &Workspace) -> Option<String> {
        let view = self.router.view();
        let status = &view.look.status;
        status.set_titles.then(|| {
            crate::render::terminal_title::expand(
                &status.titles_string,
                ws,
                ws.tabs().active(),
                view.facts.workspace.as_deref(),
                &view.facts.host,
            )
        })
    }

    /// The terminal's descriptor while it has not taken all of the last
    /// frame: the loop waits for it to take more, with everything else.
    pub fn unsent_fd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        self.terminal.backend().unsent_fd()
    }

    /// A frame was due but not drawn: the terminal is not reading.
    pub fn frame_skipped(&mut self) {
        self.fitting.frames_skipped = true;
    }

    /// The terminal can take more: sends it what waits. True when it took
    /// everything after frames were dropped: the next frame (due now) is
    /// drawn whole.
    pub fn terminal_writable(&mut self) -> Result<bool> {
        let dropped = self
            .terminal
            .backend_mut()
            .send_unsent()
            .context("writing to the terminal")?;
        let drained = self.unsent_fd().is_none();
        let redraw = drained && (dropped || std::mem::take(&mut self.fitting.frames_skipped));
        if redraw {
            // As after a resize: the screen is cleared and drawn whole.
            self.refit(self.fitting.frame);
        }
        Ok(redraw)
    }

    /// The part of the frame the panes are drawn on (the rest is the
    /// status bar).
    pub fn pane_area(&self) -> Rect {
        frame::split_screen(self.fitting.frame).0
    }
}

/// Clears a whole screen (`ED 2`), cursor home first.
const CLEAR_SCREEN: &[u8] = b"\x1b[H\x1b[2J";

/// A terminal's size: (columns, rows).
fn terminal_size(fd: BorrowedFd<'_>) -> std::io::Result<(u16, u16)> {
    let ws = rustix::termios::tcgetwinsize(fd)?;
    Ok((ws.ws_col, ws.ws_row))
}

/// The cursor colour the focused pane's program set (OSC 12), if any.
fn focused_cursor_colour(ws: &Workspace) -> Option<(u8, u8, u8)> {
    use crate::pane::term::fidelity::colour_sets::{CURSOR, to_rgb8};
    let pane = ws.focused()?;
    pane.term().colour_sets().dynamic(CURSOR).map(to_rgb8)
}
