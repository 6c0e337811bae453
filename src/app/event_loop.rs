//! The render loop: one thread that owns the workspace, waits on input, pane
//! output and frame deadlines, and writes each frame in one `write(2)`.
//!
//! It sleeps in one poll(2) over the user's terminal, which it reads itself
//! (`terminal::key_reader`), the PTYs of quiet panes (`pane::reader_gate`)
//! and the wake pipe every other thread writes to after handing it work
//! (`crate::wake`).
//!
//! Order of work on every wake-up: input first (so typing is never behind
//! a flood), then at most [`PANE_BYTE_BUDGET`] bytes from each pane, then
//! other events, then a frame if something changed and the frame cap allows
//! — or at once when the change is the echo of a key the user just typed.
//! With nothing changed the loop blocks without a timeout: idle costs no
//! wake-ups.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, bounded};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{Event, MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use crate::app::frame_clock::FrameClock;
use crate::app::input_commands::Effects;
use crate::app::loop_event::{
    LOOP_EVENT_CAPACITY, LoopEvent, names_mailbox, pane_mailbox, reload_mailbox, search_mailbox,
    status_commands_mailbox,
};
use crate::app::status_commands::StatusCommands;
use crate::app::typing_throttle::{TYPING_WINDOW, TypingThrottle};
use crate::client::Client;
use crate::client::input_source::InputSource;
use crate::config::Config;
use crate::config::hooks::HookEvent;
use crate::diag::metrics::{Metrics, PaneMetrics};
use crate::diag::stats::StatsFile;
use crate::input::router::{Command, InputRouter, Outcome};
use crate::pane::event::PaneEvent;
use crate::pane::pty::OUTPUT_CHANNEL_CAPACITY;
use crate::pane::spawn::ChildEnv;
use crate::pane::{Pane, PaneId};
use crate::render::fps_overlay::OverlayData;
use crate::render::frame;
use crate::render::status_bar::tab_at;
use crate::terminal::frame_sink::FrameSink;
use crate::terminal::guard::TerminalGuard;
use crate::terminal::output::{FrameWriter, WriterKind};
use crate::workspace::name_lookup::NameLookup;
use crate::workspace::pane_frame::PaneFrame;
use crate::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

mod reload;
mod scripting;
mod session_link;

/// Bytes parsed from one pane per wake-up before input is looked at again.
/// ~0.4 ms of parsing at 80 MB/s: a key typed during a flood waits at most
/// about that long before it is handled.
pub const PANE_BYTE_BUDGET: usize = 32 * 1024;

/// The slice other panes get while a key's echo is awaited: ~0.1 ms.
pub const ECHO_WAIT_BUDGET: usize = 8 * 1024;

/// The most time one pane's output is parsed for in one turn, checked
/// between pieces (see `pane::unfed`): ordinary output never reaches it,
/// output that is costly per byte (a flood of REP) stops there so the
/// user's keys are read and echoed in between.
pub const PANE_TIME_BUDGET: Duration = Duration::from_millis(2);

/// Without a wake pipe (it could not be made) the loop looks for work
/// this often.
const NO_WAKE_POLL: Duration = Duration::from_millis(5);

/// What to open at start.
pub enum Startup {
    Profile(crate::config::profile::Profile),
    /// `tilework -- CMD ARGS`: one pane running argv directly.
    Argv(Vec<String>),
    /// `tilework -c A -c B`: panes side by side running shell lines.
    Commands(Vec<String>),
}

pub struct RunOptions {
    pub config: Config,
    /// Where `config` came from (`source-config` reads it again).
    pub config_source: crate::config::reload::ConfigSource,
    pub startup: Startup,
    pub show_fps: bool,
    pub writer: WriterKind,
    pub exit_after: Option<Duration>,
    /// Write one JSON line per frame here (`--stats`).
    pub stats: Option<std::path::PathBuf>,
    /// Save the workspace as this profile when tilework quits (and make it
    /// the save prompt's default).
    pub save_profile: Option<String>,
    /// The session this workspace serves (detach and attach), if any.
    pub session: Option<crate::session::host::SessionStart>,
}

/// Runs the workspace until the last pane closes, the user quits, or a
/// signal arrives. Returns tilework's exit status. With a session, how it
/// ended (or the error) is told to the attached client, last.
pub fn run(mut opts: RunOptions) -> Result<i32> {
    let (events_tx, events_rx) = bounded(LOOP_EVENT_CAPACITY);
    let told = opts.session.as_ref().map(|start| start.first_facts);
    let mut host = match opts.session.take() {
        Some(start) => Some(start.begin(
            opts.config.mouse,
            crate::app::loop_event::session_mailbox(&events_tx),
        )?),
        None => None,
    };
    let result = run_workspace(opts, told, &mut host, events_tx, events_rx);
    if let Some(host) = host {
        host.finish(&result);
    }
    result
}

/// `told`: what the first terminal's client learnt of it (without a
/// session, it is asked here, before the loop reads the terminal).
fn run_workspace(
    opts: RunOptions,
    told: Option<crate::client::TerminalFacts>,
    host: &mut Option<crate::session::host::Host>,
    events_tx: crossbeam_channel::Sender<LoopEvent>,
    events_rx: Receiver<LoopEvent>,
) -> Result<i32> {
    let (cols, rows) = ratatui::crossterm::terminal::size()
        .context("reading the terminal size (is stdout a terminal?)")?;
    super::signals::spawn_signal_thread(events_tx.clone())?;

    let guard = TerminalGuard::enter(opts.config.mouse).context("setting up the terminal")?;
    crate::diag::panic_guard::clean_up_on_panic(|| {
        crate::terminal::guard::restore();
        crate::pane::children::kill_all();
    });
    let told = told.unwrap_or_else(|| {
        crate::terminal::outer_terminal::ask(crate::terminal::outer_terminal::ASK_TIMEOUT)
    });
    let input = InputSource::terminal(crate::terminal::key_reader::KeyReader::new()?);

    let writer = FrameWriter::open(opts.writer).context("opening the terminal for output")?;
    let size = frame::drawable_area(cols, rows);
    let terminal = Terminal::with_options(
        CrosstermBackend::new(writer),
        // Fixed: the fullscreen viewport queries /dev/tty's size every frame.
        TerminalOptions {
            viewport: Viewport::Fixed(size),
        },
    )
    .context("creating the ratatui terminal")?;

    let settings = WorkspaceSettings {
        env: ChildEnv::new(opts.config.shell.as_deref(), &opts.config.term),
        scrollback_bytes: opts.config.scrollback_bytes,
        keep_exited_panes: opts.config.keep_exited_panes,
    };
    let (pane_area, _) = frame::split_screen(size);
    let mut ws = Workspace::new(settings.clone(), pane_area, pane_mailbox(&events_tx));
    ws.set_pane_frame(PaneFrame::of(opts.config.appearance.borders));
    ws.look_up_names_with(NameLookup::new(names_mailbox(&events_tx)));
    ws.set_editor_ansi(opts.config.editor_ansi);
    ws.set_max_panes(opts.config.max_panes);
    match opts.startup {
        Startup::Profile(profile) => ws.open_profile(&profile),
        Startup::Argv(argv) => {
            let (spec, label) = settings.env.argv(&argv, None);
            ws.open_row(vec![PaneLaunch::new(spec, label)]);
        }
        Startup::Commands(lines) => {
            let launches = lines
                .iter()
                .map(|line| {
                    let (spec, label) = settings.env.command_line(line, None);
                    PaneLaunch::new(spec, label)
                })
                .collect();
            ws.open_row(launches);
        }
    }
    let router = InputRouter::new(
        opts.config.keymap.clone(),
        opts.show_fps,
        search_mailbox(&events_tx),
    )
    .with_session_name(opts.save_profile.clone())
    .with_confirm_close(opts.config.confirm_close)
    .with_repeat_time(opts.config.repeat_time)
    .with_look(opts.config.appearance.clone());
    let stats = match &opts.stats {
        Some(path) => Some(StatsFile::create(path)?),
        None => None,
    };
    let settings = LoopSettings {
        frame_interval: Duration::from_secs(1) / opts.config.fps.max(1),
        exit_after: opts.exit_after,
        clipboard_from_programs: opts.config.clipboard_from_programs,
        writer_name: opts.writer.name(),
        copy_command: crate::terminal::clipboard::local_command(
            opts.config.copy_command.as_deref(),
        ),
        configured_colours: opts.config.terminal_colours,
    };
    let client = Client::new(terminal, input, router, told);
    let mut app = App::new(ws, client, events_rx, &settings);
    app.stats = stats;
    app.session = host.take();
    app.reload = reload::Reload::new(opts.config_source, reload_mailbox(&events_tx));
    app.status_commands = StatusCommands::new(status_commands_mailbox(&events_tx));
    app.status_commands
        .configure(&opts.config.appearance.status, Instant::now());
    app.hooks.configure(&opts.config.hooks, &app.ws);
    let mut result = app.run();
    if let (Some(name), Ok(_)) = (&opts.save_profile, &result)
        && !app.ws.tabs().is_empty()
    {
        match crate::workspace::profile_save::save(&app.ws, name) {
            Ok(path) => tracing::info!("saved the workspace to {}", path.display()),
            // Told on the terminal once it is restored, and the exit fails.
            Err(err) => result = Err(err.context(format!("the workspace was not saved as {name}"))),
        }
    }
    app.ws.kill_all();
    *host = app.session.take();
    drop(app);
    drop(guard);
    result
}

/// The loop's state: the workspace and what all clients share, and the
/// attached terminal's [`Client`].
pub(super) struct App<B: FrameSink> {
    pub(super) ws: Workspace,
    /// The attached terminal (while detached, the parking PTY's).
    pub(super) client: Client<B>,
    pub(super) events_rx: Receiver<LoopEvent>,
    pub(super) clock: FrameClock,
    pub(super) deadline_exit: Option<Instant>,
    pub(super) metrics: Metrics,
    pub(super) stats: Option<StatsFile>,
    /// With the overlay on, one frame a second after the last one so the
    /// overlay can show that activity stopped (then nothing more).
    pub(super) overlay_refresh_at: Option<Instant>,
    pub(super) started: Instant,
    pub(super) clipboard_from_programs: bool,
    /// The local clipboard command (wl-copy, xclip), if any.
    pub(super) copy_command: Option<Vec<String>>,
    /// The colours programs are told, as the config sets them; what each
    /// attached terminal answers fills in the rest.
    pub(super) configured_colours: [Option<crate::config::colour::Rgb>; 3],
    /// Reused every wake-up: chunks taken from one pane, pane visit order.
    pub(super) batch: Vec<crate::pane::pty::OutputChunk>,
    pub(super) order: Vec<PaneId>,
    /// Where in the pane order this turn's feeding starts.
    pub(super) feed_rotation: usize,
    pub(super) throttle: TypingThrottle,
    /// Detach and attach (`None`: the terminal is ours for good, as in
    /// the loop's own tests).
    pub(super) session: Option<crate::session::host::Host>,
    /// The attached terminal's client said it changed size: see
    /// `follow_terminal_size`.
    pub(super) resize_news: bool,
    /// Reading the config again (`source-config`).
    pub(super) reload: reload::Reload,
    /// The status bar's command segments.
    pub(super) status_commands: crate::app::status_commands::StatusCommands,
    /// `[hooks]`.
    pub(super) hooks: crate::app::hooks::Hooks,
    /// Panes whose output goes on to a command (`tilework pipe`).
    pub(super) pipes: Vec<(PaneId, crate::pane::pipe::PanePipe)>,
}

/// How the loop runs, from the config and the command line.
pub(super) struct LoopSettings {
    pub frame_interval: Duration,
    /// Quit after this long (`--exit-after`, for benchmarks).
    pub exit_after: Option<Duration>,
    pub clipboard_from_programs: bool,
    /// For the overlay: which writer the frames go through.
    pub writer_name: &'static str,
    /// The local clipboard command (wl-copy, xclip), if any.
    pub copy_command: Option<Vec<String>>,
    /// `terminal_foreground`, `terminal_background`, `terminal_cursor`.
    pub configured_colours: [Option<crate::config::colour::Rgb>; 3],
}

impl<B: FrameSink> App<B> {
    pub(super) fn new(
        ws: Workspace,
        client: Client<B>,
        events_rx: Receiver<LoopEvent>,
        settings: &LoopSettings,
    ) -> Self {
        let mut app = Self {
            ws,
            client,
            events_rx,
            clock: FrameClock::new(settings.frame_interval),
            deadline_exit: settings.exit_after.map(|d| Instant::now() + d),
            metrics: Metrics::new(settings.writer_name),
            stats: None,
            overlay_refresh_at: None,
            started: Instant::now(),
            clipboard_from_programs: settings.clipboard_from_programs,
            copy_command: settings.copy_command.clone(),
            configured_colours: settings.configured_colours,
            batch: Vec::with_capacity(64),
            order: Vec::with_capacity(16),
            feed_rotation: 0,
            throttle: TypingThrottle::default(),
            session: None,
            resize_news: false,
            reload: reload::Reload::default(),
            status_commands: Default::default(),
            hooks: Default::default(),
            pipes: Vec::new(),
        };
        app.tell_panes_the_colours();
        app
    }

    /// Programs asking for the terminal's colours are told the attached
    /// terminal's (under the config's).
    pub(super) fn tell_panes_the_colours(&mut self) {
        let colours =
            crate::client::facts::answered_colours(self.configured_colours, &self.client.facts);
        self.ws.set_terminal_colours(colours);
    }

    fn run(&mut self) -> Result<i32> {
        loop {
            if let Some(code) = self.turn(None)? {
                return Ok(code);
            }
        }
    }

    /// One wake-up: input, then pane output, then other events, then a
    /// frame if one is due; then waits for more (at most until
    /// `wait_limit`) unless output is left. Returns the exit status once
    /// the workspace is done.
    pub(super) fn turn(&mut self, wait_limit: Option<Instant>) -> Result<Option<i32>> {
        self.drain_input();
        let more_output = self.drain_panes();
        self.drain_events();
        self.follow_terminal_size();
        self.client.focus.update(&self.ws);
        if let Some(code) = self.ws.exit_code() {
            return Ok(Some(code));
        }
        if self.deadline_exit.is_some_and(|d| Instant::now() >= d) {
            return Ok(Some(0));
        }
        let now = Instant::now();
        if self.overlay_refresh_at.is_some_and(|t| now >= t) {
            self.overlay_refresh_at = None;
            self.clock.changed();
        }
        if self.client.router.tick(now) {
            self.clock.changed_now();
        }
        // A synchronized update a program left open is shown as it is
        // once its time is out (`pane::sync_update`).
        if self
            .ws
            .panes_mut()
            .fold(false, |any, pane| pane.end_overdue_sync(now) | any)
        {
            self.clock.changed();
        }
        if self.clock.due(now) {
            self.draw_if_attached(now)?;
        }
        // Tab and border names follow what the panes run, looked up on a
        // thread of their own (`workspace::name_lookup`); asked after the
        // frame.
        if self.ws.check_names(Instant::now()) {
            self.clock.changed();
        }
        if more_output {
            return Ok(None);
        }
        let deadline = self.clock.deadline(Instant::now());
        self.wait(
            deadline
                .min_with(self.deadline_exit)
                .min_with(self.overlay_refresh_at)
                .min_with(self.client.router.next_deadline())
                .min_with(self.throttle.next_deadline(Instant::now()))
                .min_with(self.ws.next_restart())
                .min_with(self.ws.next_name_check())
                .min_with(self.status_commands.next_deadline())
                .min_with(self.client.input.deadline())
                .min_with(self.ws.panes().filter_map(Pane::sync_deadline).min())
                .min_with(wait_limit),
        );
        Ok(None)
    }

    /// Blocks until input, output or an event is ready, or `deadline`.
    fn wait(&mut self, deadline: Option<Instant>) {
        crate::wake::park();
        if !self.work_waiting(Instant::now()) {
            self.sleep(deadline);
        }
        crate::wake::unpark();
    }

    /// Work the poll would not announce: what was sent before the loop
    /// parked (senders only write to the wake pipe after).
    fn work_waiting(&self, now: Instant) -> bool {
        self.client.input.pending()
            || !self.events_rx.is_empty()
            || self.ws.panes().any(|pane| {
                pane.output().is_some_and(|rx| !rx.is_empty())
                    && !self.throttle.holds_back(pane.id, now)
            })
    }

    /// Sleeps in poll(2) on the terminal, the wake pipe and the quiet
    /// panes' PTYs (see `pane::reader_gate`).
    fn sleep(&mut self, deadline: Option<Instant>) {
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
        let input = self.client.input.fd();
        let unsent = self.client.unsent_fd();
        let (_, quiet) = self.quiet_fds(Instant::now());
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3 + quiet.len());
        fds.extend(input.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
        fds.extend(wake.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
        fds.extend(unsent.as_ref().map(|fd| PollFd::new(fd, PollFlags::OUT)));
        fds.extend(quiet.iter().map(|fd| PollFd::new(fd, PollFlags::IN)));
        match rustix::event::poll(&mut fds, timeout.as_ref()) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(err) => tracing::warn!("waiting in poll(2): {err}"),
        }
        let mut at = 0;
        let mut next = |present: bool| {
            let revents = present.then(|| fds[at].revents());
            at += usize::from(present);
            revents
        };
        let input_revents = next(input.is_some());
        let woken = next(wake.is_some()).is_some_and(|r| !r.is_empty());
        let writable = next(unsent.is_some()).is_some_and(|r| !r.is_empty());
        drop(fds);
        if woken {
            crate::wake::drain();
        }
        drop(quiet);
        if let Some(revents) = input_revents {
            self.client.input.polled(revents);
        }
        if writable {
            self.terminal_writable();
        }
    }

    fn drain_input(&mut self) {
        // A pane still taking a big paste: the terminal keeps the rest.
        self.client.input.hold_for(&self.ws, Instant::now());
        while let Some((at, ev)) = self.client.input.next_event() {
            self.handle_input(at, &ev);
            if matches!(ev, Event::Paste(_)) {
                self.client.input.hold_for(&self.ws, Instant::now());
            }
        }
        let late = self.client.input.take_late_colours();
        if !late.is_empty() {
            for (slot, colour) in late {
                self.client.facts.colours[slot] = Some(colour);
            }
            self.tell_panes_the_colours();
        }
        // After the events: the SIGWINCH the key reader may have raised
        // just now is taken in this turn, not before the next key. (The
        // workspace gets no other SIGWINCH: it is in no terminal's
        // foreground group. A size that differs is followed here at once;
        // every resize of the terminal also comes as session news, see
        // `follow_terminal_size`, which draws it whole.)
        if let Some((cols, rows)) = self.client.input.take_resize() {
            let size = frame::drawable_area(cols, rows);
            if size != self.client.size && cols > 0 && rows > 0 {
                self.apply_size(size);
                self.clock.changed_now();
            }
        }
    }

    fn handle_input(&mut self, at: Instant, ev: &Event) {
        if !self.input_is_current(at) {
            return;
        }
        // Tests of the exit watchdog (debug builds only): F12 makes the
        // loop stuck for good, as a kernel call that never returns would.
        #[cfg(debug_assertions)]
        if matches!(ev, Event::Key(key) if key.code == ratatui::crossterm::event::KeyCode::F(12))
            && std::env::var_os("TILEWORK_DEBUG_HANG").is_some()
        {
            tracing::warn!("TILEWORK_DEBUG_HANG is set: the loop stops here for good");
            loop {
                std::thread::park();
            }
        }
        // Mouse selections read the screens' contents (keys only need
        // modes, always current; copy mode and search read the history).
        if matches!(ev, Event::Mouse(_)) {
            self.settle_visible(|_| true);
        }
        let outcome = match ev {
            Event::Key(key) => {
                // Timed UI changes due before the key arrived come first: a
                // key pressed after the repeat time is not a repeat, even
                // when the loop wakes for the key and the deadline at once.
                if self.client.router.tick(at) {
                    self.clock.changed();
                }
                self.client.router.handle_key(&mut self.ws, key)
            }
            Event::Paste(text) => self.client.router.handle_paste(&mut self.ws, text),
            Event::Mouse(mouse) => {
                let (_, bar) = frame::split_screen(self.client.size);
                if bar.height > 0
                    && mouse.row == bar.y
                    && matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left))
                {
                    let switched = tab_at(
                        &self.ws,
                        self.client.router.view(),
                        self.client.size,
                        mouse.column,
                    )
                    .is_some_and(|i| self.ws.select_tab(i));
                    Outcome::redraw_if(switched)
                } else {
                    self.client.router.handle_mouse(&mut self.ws, mouse)
                }
            }
            Event::Resize(cols, rows) => {
                self.apply_size(frame::drawable_area(*cols, *rows));
                Outcome::redraw()
            }
            Event::FocusGained | Event::FocusLost => {
                self.client
                    .focus
                    .outer_focus(matches!(ev, Event::FocusGained));
                Outcome::default()
            }
        };
        if outcome.redraw || outcome.sent_to.is_some() {
            self.metrics.key_arrived(at);
        }
        if outcome.redraw {
            self.metrics.key_reflected();
        }
        if let Some(id) = outcome.sent_to {
            let now = Instant::now();
            self.clock.typing_until(now + TYPING_WINDOW);
            self.throttle.key_sent(id, now);
        }
        self.follow_outcome(outcome);
    }

    /// What an input's outcome leads to, whoever gave the input (a key, a
    /// script): a redraw, an awaited echo, names to look at, commands.
    pub(super) fn follow_outcome(&mut self, outcome: Outcome) {
        if outcome.redraw {
            self.clock.changed_now();
        }
        if outcome.redraw || outcome.sent_to.is_some() {
            self.ws.names_may_change(Instant::now());
        }
        if let Some(id) = outcome.sent_to {
            self.clock.key_sent(id);
        }
        self.perform(outcome.commands);
    }

    /// The user's terminal is `size` now.
    fn apply_size(&mut self, size: Rect) {
        self.client.resized(size);
        self.ws.set_area(self.client.pane_area());
    }

    /// Does what input left to the loop.
    fn perform(&mut self, mut commands: Vec<Command>) {
        if commands.is_empty() {
            return;
        }
        self.take_session_commands(&mut commands);
        self.take_reload_commands(&mut commands);
        Effects {
            ws: &self.ws,
            router: &mut self.client.router,
            outbox: &mut self.client.outbox,
            copy_command: self.copy_command.as_deref(),
        }
        .perform(commands);
    }

    /// Parses the held-back output of the visible panes `which` picks.
    fn settle_visible(&mut self, which: impl Fn(PaneId) -> bool) {
        for id in self.ws_visible_ids() {
            if which(id)
                && let Some(pane) = self.ws.pane_mut(id)
            {
                pane.settle();
            }
        }
    }

    pub(super) fn ws_visible_ids(&self) -> Vec<PaneId> {
        self.ws.visible().into_iter().map(|(id, _)| id).collect()
    }

    fn drain_events(&mut self) {
        while let Ok(ev) = self.events_rx.try_recv() {
            match ev {
                LoopEvent::Pane(PaneEvent::Exited(id, info)) => {
                    tracing::info!(?id, code = info.code, "pane exited");
                    let mut env = crate::app::hooks::pane_env(&self.ws, id);
                    env.push(("TILEWORK_EXIT_CODE".into(), info.code.to_string()));
                    self.hooks.fire(HookEvent::PaneExited, env);
                    self.ws.pane_exited(id, info, Instant::now());
                    self.clock.changed_now();
                }
                LoopEvent::Pane(PaneEvent::HistoryReady(id, history)) => {
                    if let Some(pane) = self.ws.pane_mut(id) {
                        pane.history_ready(history);
                        let outcome = self.client.router.history_arrived(&mut self.ws);
                        // Keys typed while it loaded may have yanked text.
                        self.perform(outcome.commands);
                        self.clock.changed_now();
                    }
                }
                LoopEvent::Pane(PaneEvent::HistoryFile(id, file)) => {
                    let opened = file.map(|file| self.ws.open_history_editor(id, file));
                    if let Err(err) = opened {
                        tracing::warn!("writing a pane's history for the editor: {err:#}");
                        self.client
                            .router
                            .notify(format!("history not opened: {err:#}"));
                    }
                    self.clock.changed_now();
                }
                LoopEvent::Search(result) => {
                    self.client.router.search_result(&mut self.ws, *result);
                    self.clock.changed_now();
                }
                LoopEvent::Names(report) => {
                    if self.ws.names_found(report) {
                        self.clock.changed();
                    }
                }
                LoopEvent::Signal(sig) => self.on_signal(sig),
                LoopEvent::Session(event) => self.session_event(event),
                LoopEvent::Reloaded(result) => self.reloaded(result),
                LoopEvent::StatusCommand(report) => {
                    self.status_commands.finished(&report, Instant::now());
                    if self
                        .client
                        .router
                        .status_command_ran(&report.command, report.shown)
                    {
                        self.clock.changed();
                    }
                }
            }
        }
        // Command panes whose restart delay is over (the wait's deadline
        // includes the next one).
        if self.ws.run_due_restarts(Instant::now()) {
            self.clock.changed();
        }
        self.status_commands.run_due(Instant::now());
        self.hooks.observe(&self.ws);
        if !self.pipes.is_empty() {
            let ws = &self.ws;
            self.pipes.retain(|(id, _)| ws.pane(*id).is_some());
        }
    }

    fn render(&mut self) -> Result<()> {
        // Tests of the panic exit path (debug builds only): the terminal must
        // come back and the children must die.
        #[cfg(debug_assertions)]
        if self.metrics.frames >= 2 && std::env::var_os("TILEWORK_DEBUG_PANIC").is_some() {
            panic!("TILEWORK_DEBUG_PANIC is set: panicking on purpose");
        }
        let started = Instant::now();
        let overlay = self
            .client
            .router
            .ui()
            .fps_shown()
            .then(|| self.overlay_data(started));
        let echo_of = self.clock.begin_frame();
        // A frame drawn early for an echo parses only the echoing pane's
        // held-back output (and the focused one's, whose cursor is shown);
        // the others may show their previous image.
        let focused = self.ws.focused_id();
        self.settle_visible(|id| echo_of.is_none_or(|echo| echo == id || Some(id) == focused));
        // Damage is taken from the panes once, then handed to each client.
        self.client.render_cache.note_changes(self.ws.panes_mut());
        let drawn = self.client.draw(&self.ws, overlay.as_ref(), echo_of)?;
        let (bytes, writes, left_stale) = (drawn.bytes, drawn.writes, drawn.left_stale);
        let done = Instant::now();
        self.metrics.frame_done(done, done - started, bytes, writes);
        // A pane drawn from a stale image gets a regular frame soon.
        self.clock.frame_done(done, left_stale);
        self.overlay_refresh_at = match &overlay {
            Some(data) if data.fps > 0 || self.metrics.fps.fps(done) > 0 => {
                Some(done + Duration::from_millis(1050))
            }
            _ => None,
        };
        if let Some(stats) = &mut self.stats {
            stats.frame(
                done.duration_since(self.started),
                done - started,
                bytes,
                writes,
                self.metrics.last_key_latency,
                self.ws
                    .panes()
                    .map(|pane| (pane.queued(), pane.bytes_received)),
            );
        }
        Ok(())
    }

    /// Samples per-pane rates and snapshots the metrics for the overlay.
    fn overlay_data(&mut self, now: Instant) -> OverlayData {
        let mut panes = Vec::new();
        for pane in self.ws.panes() {
            let rate = self.metrics.pane_rates.entry(pane.id.0).or_default();
            rate.record(now, pane.bytes_received);
            panes.push(PaneMetrics {
                label: pane.title().to_string(),
                bytes_per_sec: rate.per_second(now),
                queued: pane.queued(),
                capacity: OUTPUT_CHANNEL_CAPACITY,
            });
        }
        self.metrics
            .pane_rates
            .retain(|id, _| self.ws.pane(PaneId(*id)).is_some());
        OverlayData::from_metrics(&mut self.metrics, now, panes)
    }
}

trait MinWith {
    fn min_with(self, other: Option<Instant>) -> Option<Instant>;
}

impl MinWith for Option<Instant> {
    fn min_with(self, other: Option<Instant>) -> Option<Instant> {
        match (self, other) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
