//! The render loop: one thread that owns the workspace, waits on input, pane
//! output and frame deadlines, and writes each frame in one `write(2)`.
//!
//! It sleeps in one poll(2) over the user's terminal, which it reads itself
//! (`client::terminal_input`, one per attached terminal), the PTYs of quiet panes (`pane::reader_gate`)
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

use anyhow::Result;
use crossbeam_channel::{Receiver, bounded};
use ratatui::layout::Rect;

use crate::app::frame_clock::FrameClock;
use crate::app::loop_event::{
    LOOP_EVENT_CAPACITY, LoopEvent, names_mailbox, pane_mailbox, reload_mailbox, search_mailbox,
    status_commands_mailbox,
};
use crate::app::status_commands::StatusCommands;
use crate::app::typing_throttle::TypingThrottle;
use crate::client::Client;
use crate::config::Config;
use crate::diag::metrics::{Metrics, PaneMetrics};
use crate::diag::stats::StatsFile;
use crate::input::router::InputRouter;
use crate::pane::pty::OUTPUT_CHANNEL_CAPACITY;
use crate::pane::spawn::ChildEnv;
use crate::pane::{Pane, PaneId};
use crate::render::fps_overlay::OverlayData;
use crate::render::frame;
use crate::terminal::frame_backend::FrameBackend;
use crate::terminal::frame_sink::FrameSink;
use crate::terminal::output::{FrameWriter, WriterKind};
use crate::workspace::name_lookup::NameLookup;
use crate::workspace::pane_frame::PaneFrame;
use crate::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

mod client_views;
mod command_calls;
mod loop_mailbox;
mod reload;
mod scripting;
mod session_link;
mod terminal_input;
mod tmux_calls;

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
    /// `tilework attach NAME` of a saved workspace: it comes back.
    Restore(Box<crate::persist::Restored>),
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
    /// The session this workspace serves (attach and detach), with its
    /// first terminal.
    pub session: crate::session::host::SessionStart,
}

/// Runs the workspace until the last pane closes, the user quits, or a
/// signal arrives. Returns tilework's exit status. How it ended (or the
/// error) is told to the attached clients, last.
pub fn run(opts: RunOptions) -> Result<i32> {
    let (events_tx, events_rx) = bounded(LOOP_EVENT_CAPACITY);
    // The workspace is saved as it changes (see `persist`).
    let persist = {
        let problems = crate::app::loop_event::saving_mailbox(&events_tx);
        crate::persist::Tap::start(&opts.session.name, &opts.config.saving, problems)
            .inspect_err(|err| tracing::warn!("the workspace will not be saved: {err:#}"))
            .ok()
    };
    let mut host = None;
    let result = run_workspace(opts, &mut host, persist, events_tx, events_rx);
    if let Some(host) = host {
        host.finish(&result);
    }
    result
}

/// `host`: the session, once started (for [`run`] to finish it).
fn run_workspace(
    mut opts: RunOptions,
    host: &mut Option<crate::session::host::Host>,
    persist: Option<crate::persist::Tap>,
    events_tx: crossbeam_channel::Sender<LoopEvent>,
    events_rx: Receiver<LoopEvent>,
) -> Result<i32> {
    super::signals::spawn_signal_thread(events_tx.clone())?;
    crate::diag::panic_guard::clean_up_on_panic(|| {
        let message = crate::diag::panic_guard::last_panic();
        crate::terminal::guard::restore_telling(message.as_deref());
        crate::pane::children::kill_all();
    });
    // Before the first client is made: what its terminal is told to draw
    // depends on them.
    crate::pane::cell_extras::set_keep_links(opts.config.hyperlinks);
    crate::graphics::store::lock().set_budget(opts.config.image_memory);
    crate::render::cell_extras::set_configured(opts.config.terminal_features);
    let (started, first) = opts.session.begin(
        opts.config.mouse,
        crate::app::loop_event::session_mailbox(&events_tx),
    )?;
    *host = Some(started);

    let show_fps = opts.show_fps;
    let new_router: RouterMaker = {
        let config = opts.config.clone();
        let save_profile = opts.save_profile.clone();
        let events_tx = events_tx.clone();
        let copies = crate::input::paste_buffers::SharedCopies::default();
        Box::new(move |client| {
            InputRouter::new(
                config.keymap.clone(),
                show_fps,
                search_mailbox(&events_tx, client),
            )
            .with_paste_buffers(copies.clone())
            .with_session_name(save_profile.clone())
            .with_confirm_close(config.confirm_close)
            .with_repeat_time(config.repeat_time)
            .with_look(config.appearance.clone())
        })
    };
    let first_link = first.link;
    let first_env = first.env.clone();
    let mut router = new_router(first_link).with_read_only(first.read_only);
    router.set_workspace_name(host.as_ref().map(|h| h.name().to_string()));
    let client = Client::<FrameBackend<FrameWriter>>::on_terminal(
        first,
        opts.writer,
        router,
        // Its own size, read by `on_terminal`: see below.
        Rect::new(0, 0, 80, 24),
    )?;
    let size = client.size;

    let mut env = ChildEnv::new(opts.config.shell.as_deref(), &opts.config.term);
    // Panes reach the agent of whichever terminal attached or typed last,
    // through one path that outlives each ssh connection.
    if opts
        .config
        .update_environment
        .iter()
        .any(|n| n == "SSH_AUTH_SOCK")
        && let Some(host) = host.as_ref()
    {
        env.set_agent_socket(host.agent_socket().to_path_buf());
    }
    let settings = WorkspaceSettings {
        env,
        scrollback_bytes: opts.config.scrollback_bytes,
        keep_exited_panes: opts.config.keep_exited_panes,
    };
    let (pane_area, _) = frame::split_screen(size);
    let mut ws = Workspace::new(settings.clone(), pane_area, pane_mailbox(&events_tx));
    ws.set_pane_frame(PaneFrame::of(opts.config.appearance.borders));
    ws.panes_mut()
        .names_mut()
        .look_up_with(NameLookup::new(names_mailbox(&events_tx)));
    ws.panes_mut().set_editor_ansi(opts.config.editor_ansi);
    ws.attention_mut()
        .set_notifications(opts.config.notifications);
    ws.panes_mut().set_max_panes(opts.config.max_panes);
    ws.panes_mut()
        .set_update_environment(opts.config.update_environment.clone());
    ws.panes_mut().update_environment(&first_env);
    let settings = ws.panes().settings().clone();
    match std::mem::replace(&mut opts.startup, Startup::Commands(Vec::new())) {
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
        Startup::Restore(saved) => saved.open(&mut ws),
    }
    let stats = match &opts.stats {
        Some(path) => Some(StatsFile::create(path)?),
        None => None,
    };
    let loop_settings = LoopSettings {
        frame_interval: Duration::from_secs(1) / opts.config.fps.max(1),
        exit_after: opts.exit_after,
        clipboard_from_programs: opts.config.clipboard_from_programs,
        writer_name: opts.writer.name(),
        copy_command: crate::terminal::clipboard::local_command(
            opts.config.copy_command.as_deref(),
        ),
        configured_colours: opts.config.terminal_colours,
    };
    let mut app = App::new(ws, client, events_rx, &loop_settings);
    app.stats = stats;
    app.session = host.take();
    app.new_router = new_router;
    app.spare_router = (app.new_router)(SPARE_ROUTER);
    app.writer = opts.writer;
    app.window_size = opts.config.window_size;
    app.client_views = opts.config.client_views;
    app.give_own_views();
    app.latest = Some(first_link);
    app.loop_tx = Some(events_tx.clone());
    // The first terminal's frames at its own size.
    app.fit_layout();
    app.persist = persist;
    app.reload = reload::Reload::new(opts.config_source, reload_mailbox(&events_tx));
    app.status_commands = StatusCommands::new(status_commands_mailbox(&events_tx));
    app.status_commands
        .configure(&opts.config.appearance.status, Instant::now());
    app.hooks.configure(&opts.config.hooks, &app.ws);
    let mut result = app.run();
    if let Some(persist) = app.persist.take() {
        persist.finish(&app.ws, *result.as_ref().unwrap_or(&1));
    }
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
    // Each client's terminal is put back as it was.
    drop(app);
    result
}

/// Makes the input router of a new client (numbered for its searches'
/// reports).
pub(super) type RouterMaker = Box<dyn Fn(u64) -> InputRouter>;

/// The number of the router that acts for scripts while no terminal is
/// attached.
const SPARE_ROUTER: u64 = u64::MAX;

/// The loop's state: the workspace and what all clients share, and each
/// attached terminal's [`Client`].
pub(super) struct App<B: FrameSink> {
    pub(super) ws: Workspace,
    /// The attached terminals, in the order they attached (none while
    /// detached).
    pub(super) clients: Vec<Client<B>>,
    /// Makes each new client's input router.
    pub(super) new_router: RouterMaker,
    /// Acts for scripts while no terminal is attached.
    pub(super) spare_router: InputRouter,
    /// How frames are written to new clients.
    pub(super) writer: WriterKind,
    /// Whose size the layout takes (`window_size`).
    pub(super) window_size: crate::config::clients::WindowSize,
    /// Whether each terminal has its own view (`client_views`).
    pub(super) client_views: crate::config::clients::ClientViews,
    /// The link of the terminal that typed (or attached) last.
    pub(super) latest: Option<u64>,
    /// The layout's drawable area: every client draws its frames at it.
    pub(super) frame_area: Rect,
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
    /// Attach and detach (`None`: the terminal is ours for good, as in
    /// the loop's own tests).
    pub(super) session: Option<crate::session::host::Host>,
    /// Where threads the loop starts for input report (`C-b s`'s list).
    pub(super) loop_tx: Option<crossbeam_channel::Sender<LoopEvent>>,
    /// The links whose clients said their terminal changed size: see
    /// `follow_terminal_sizes`.
    pub(super) resize_news: Vec<u64>,
    /// Saving the workspace for after a crash or reboot (sessions only).
    pub(super) persist: Option<crate::persist::Tap>,
    /// Reading the config again (`source-config`).
    pub(super) reload: reload::Reload,
    /// The config read again last, for terminals attaching after it.
    pub(super) reloaded_config: Option<Box<Config>>,
    /// The status bar's command segments.
    pub(super) status_commands: crate::app::status_commands::StatusCommands,
    /// `[hooks]`.
    pub(super) hooks: crate::app::hooks::Hooks,
    /// When panes went quiet, for the `silence` hook.
    pub(super) silence: crate::app::silence::Silence,
    /// Panes whose output goes on to a command (`tilework pipe`).
    pub(super) pipes: crate::pane::pipe::PanePipes,
    /// Scripts waiting on panes (`tilework wait`).
    pub(super) command_watch: crate::app::command_watch::CommandWatch,
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
        let frame_area = client.size;
        let spare_router = InputRouter::new(
            crate::config::keymap::Keymap::default(),
            false,
            crate::mailbox::Mailbox::discarding(),
        );
        let mut app = Self {
            ws,
            clients: vec![client],
            new_router: Box::new(|_| {
                InputRouter::new(
                    crate::config::keymap::Keymap::default(),
                    false,
                    crate::mailbox::Mailbox::discarding(),
                )
            }),
            spare_router,
            writer: WriterKind::BufWriterRaw,
            window_size: crate::config::clients::WindowSize::Latest,
            client_views: crate::config::clients::ClientViews::Shared,
            latest: None,
            frame_area,
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
            loop_tx: None,
            resize_news: Vec::new(),
            persist: None,
            reload: reload::Reload::default(),
            reloaded_config: None,
            status_commands: Default::default(),
            hooks: Default::default(),
            silence: Default::default(),
            command_watch: Default::default(),
            pipes: Default::default(),
        };
        app.tell_panes_the_colours();
        app
    }

    /// Programs asking for the terminal's colours are told those of the
    /// terminal that typed last (under the config's).
    pub(super) fn tell_panes_the_colours(&mut self) {
        // A read-only terminal changes nothing programs are told: the
        // colours are the acting terminal's unless it only looks.
        let facts = self
            .acting_client()
            .map(|at| &self.clients[at])
            .filter(|c| !c.read_only)
            .or_else(|| self.clients.iter().rev().find(|c| !c.read_only))
            .map(|c| c.facts)
            .unwrap_or_default();
        let colours = crate::client::facts::answered_colours(self.configured_colours, &facts);
        self.ws.panes_mut().set_terminal_colours(colours);
        crate::client::facts::tell_pictures(self.clients.iter().map(|c| (&c.facts, c.read_only)));
    }

    fn run(&mut self) -> Result<i32> {
        loop {
            if let Some(code) = self.turn(None)? {
                // However it was asked to end (`C-b Q`, the last pane
                // closed, `tilework kill`), the workspace is gone within
                // the watchdog's grace even if its ending cannot finish.
                crate::diag::exit_watchdog::arm(code);
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
        self.follow_terminal_sizes();
        self.tell_silences(Instant::now());
        self.check_waits();
        for client in &mut self.clients {
            // A read-only terminal's focus is not the programs' business.
            if !client.read_only {
                client.focus.update(&self.ws);
            }
            client.router.follow_resized_history(&mut self.ws);
        }
        self.ws
            .panes_mut()
            .iter_mut()
            .for_each(|p| p.forget_replaced_history());
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
        let ticked = self
            .clients
            .iter_mut()
            .fold(false, |any, c| c.router.tick(now) | any);
        if ticked {
            self.clock.changed_now();
        }
        // A synchronized update a program left open is shown as it is
        // once its time is out (`pane::sync_update`).
        if self
            .ws
            .panes_mut()
            .iter_mut()
            .fold(false, |any, pane| pane.end_overdue_sync(now) | any)
        {
            self.clock.changed();
        }
        // Query answers held for a program's raw mode (`pane::held_replies`).
        for pane in self.ws.panes_mut().iter_mut() {
            pane.release_held_replies(now);
        }
        // Output that never lets the loop sleep would keep poll(2) from
        // saying a terminal takes the rest of a frame again.
        self.send_unsent_frames();
        if self.clock.due(now) {
            self.draw_clients(now)?;
        }
        // Tab and border names follow what the panes run, looked up on a
        // thread of their own (`workspace::name_lookup`); asked after the
        // frame.
        if self.ws.panes_mut().check_names(Instant::now()) {
            self.clock.changed();
        }
        if let Some(persist) = &mut self.persist {
            persist.turn(&self.ws, self.metrics.frames, Instant::now());
        }
        if more_output {
            return Ok(None);
        }
        let deadline = self.clock.deadline(Instant::now());
        let clients = self
            .clients
            .iter()
            .fold(None, |soonest: Option<Instant>, c| {
                soonest
                    .min_with(c.router.next_deadline())
                    .min_with(c.input.deadline())
            });
        self.wait(
            deadline
                .min_with(self.deadline_exit)
                .min_with(self.overlay_refresh_at)
                .min_with(clients)
                .min_with(self.throttle.next_deadline(Instant::now()))
                .min_with(self.ws.next_restart())
                .min_with(self.ws.panes().names().next_check())
                .min_with(
                    self.persist
                        .as_ref()
                        .and_then(crate::persist::Tap::deadline),
                )
                .min_with(self.status_commands.next_deadline())
                .min_with(
                    self.hooks
                        .silence_after()
                        .and_then(|after| self.silence.deadline(after)),
                )
                .min_with(self.command_watch.deadline())
                .min_with(self.ws.panes().iter().filter_map(Pane::sync_deadline).min())
                .min_with({
                    let now = Instant::now();
                    self.ws
                        .panes()
                        .iter()
                        .filter_map(|p| p.held_replies_check(now))
                        .min()
                })
                .min_with(wait_limit),
        );
        Ok(None)
    }

    /// Runs the `silence` hook for each pane quiet long enough.
    fn tell_silences(&mut self, now: Instant) {
        let Some(after) = self.hooks.silence_after() else {
            return;
        };
        self.silence.retain(|id| self.ws.panes().get(id).is_some());
        for id in self.silence.due(after, now) {
            let env = crate::app::hooks::pane_env(&self.ws, id);
            self.hooks
                .fire(crate::config::hooks::HookEvent::Silence, env);
        }
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
        self.clients.iter().any(|c| c.input.pending())
            || !self.events_rx.is_empty()
            || self.ws.panes().iter().any(|pane| {
                pane.output().is_some_and(|rx| !rx.is_empty())
                    && !self.throttle.holds_back(pane.id, now)
            })
    }

    /// Sleeps in poll(2) on the terminals, the wake pipe and the quiet
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
        // Each client's input, then (while a frame waits) its output.
        let inputs: Vec<_> = self.clients.iter().map(|c| c.input.fd()).collect();
        let unsent: Vec<_> = self.clients.iter().map(|c| c.unsent_fd()).collect();
        let (_, quiet) = self.quiet_fds(Instant::now());
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(1 + 2 * self.clients.len() + quiet.len());
        fds.extend(wake.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
        for (input, unsent) in inputs.iter().zip(&unsent) {
            fds.extend(input.as_ref().map(|fd| PollFd::new(fd, PollFlags::IN)));
            fds.extend(unsent.as_ref().map(|fd| PollFd::new(fd, PollFlags::OUT)));
        }
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
        drop(fds);
        drop(unsent);
        if woken {
            crate::wake::drain();
        }
        drop(quiet);
        for (at, (input, writable)) in polled.into_iter().enumerate() {
            if let Some(revents) = input
                && let Some(client) = self.clients.get_mut(at)
            {
                client.input.polled(revents);
            }
            if writable {
                self.terminal_writable(at);
            }
        }
    }

    /// Draws a frame for every client whose terminal is reading.
    fn render(&mut self) -> Result<()> {
        // Tests of the panic exit path (debug builds only): the terminal must
        // come back and the children must die.
        #[cfg(debug_assertions)]
        if self.metrics.frames >= 2 && std::env::var_os("TILEWORK_DEBUG_PANIC").is_some() {
            panic!("TILEWORK_DEBUG_PANIC is set: panicking on purpose");
        }
        let started = Instant::now();
        let overlay = self
            .clients
            .iter()
            .any(|c| c.router.ui().fps_shown())
            .then(|| self.overlay_data(started));
        let echo_of = self.clock.begin_frame();
        // A frame drawn early for an echo parses only the echoing pane's
        // held-back output (and the focused one's, whose cursor is shown);
        // the others may show their previous image.
        let focused = self.ws.focused_id();
        self.settle_visible(|id| echo_of.is_none_or(|echo| echo == id || Some(id) == focused));
        // With views of their own, each terminal's tab is settled as its
        // frame comes (below).
        let own_views = self.clients.iter().any(|c| c.own_view.is_some());
        // Damage is taken from the panes once, then handed to each client.
        let damage = crate::render::cache::take_damage(self.ws.panes_mut().iter_mut());
        let (mut bytes, mut writes, mut left_stale) = (0, 0, false);
        let mut failed = Vec::new();
        for at in 0..self.clients.len() {
            if own_views {
                use crate::client::views;
                self.show_own_view(at);
                let focused = self.ws.focused_id();
                self.settle_visible(|id| {
                    echo_of.is_none_or(|echo| echo == id || Some(id) == focused)
                });
                let elsewhere = views::seen_elsewhere(&self.ws, &self.clients, at);
                self.clients[at].router.set_tabs_seen_elsewhere(elsewhere);
            }
            let client = &mut self.clients[at];
            client.render_cache.note_damage(&damage);
            if client.unsent_fd().is_some() {
                // It stopped reading: drawn whole once it reads again.
                client.frame_skipped();
                continue;
            }
            let shown = overlay.as_ref().filter(|_| client.router.ui().fps_shown());
            match client.draw(&self.ws, shown, echo_of) {
                Ok(drawn) => {
                    bytes += drawn.bytes;
                    writes += drawn.writes;
                    left_stale |= drawn.left_stale;
                }
                Err(err) => failed.push((at, err)),
            }
        }
        // Let go from the last, so the indexes before stay right.
        for (at, err) in failed.into_iter().rev() {
            self.terminal_failed(at, &err);
        }
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
                    .iter()
                    .map(|pane| (pane.queued(), pane.bytes_received)),
            );
        }
        Ok(())
    }

    /// Samples per-pane rates and snapshots the metrics for the overlay.
    fn overlay_data(&mut self, now: Instant) -> OverlayData {
        let mut panes = Vec::new();
        for pane in self.ws.panes().iter() {
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
            .retain(|id, _| self.ws.panes().get(PaneId(*id)).is_some());
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
