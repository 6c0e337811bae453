//! The render loop: one thread that owns the workspace, waits on input, pane
//! output and frame deadlines, and writes each frame in one `write(2)`.
//!
//! It sleeps in one poll(2) over the user's terminal, which it reads itself
//! (`client::terminal_reader`, one per attached terminal), the PTYs of quiet panes (`pane::program::reader_gate`)
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

use crate::app::attached::{Attached, RouterMaker, SPARE_ROUTER};
use crate::app::deadlines;
use crate::app::feed::Feed;
use crate::app::frame_clock::FrameClock;
use crate::app::frame_stats::{Drawn, FrameStats};
use crate::app::loop_event::{
    LOOP_EVENT_CAPACITY, LoopEvent, names_mailbox, pane_mailbox, reload_mailbox, search_mailbox,
    status_commands_mailbox,
};
use crate::app::signals_from_programs::Around;
use crate::app::status_commands::StatusCommands;
use crate::client::Client;
use crate::config::Config;
use crate::diag::stats::StatsFile;
use crate::input::router::InputRouter;
use crate::pane::program::spawn::ChildEnv;
use crate::render::frame;
use crate::terminal::frame_backend::FrameBackend;
use crate::terminal::frame_sink::FrameSink;
use crate::terminal::output::{FrameWriter, WriterKind};
use crate::workspace::name_lookup::NameLookup;
use crate::workspace::pane_frame::PaneFrame;
use crate::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

mod command_answers;
mod config_reload;
mod input_dispatch;
mod loop_mailbox;
mod pane_output;
mod scripting;
mod session_link;
mod tmux_calls;
mod tmux_copy;
mod tmux_moves;
mod upgrade_handoff;

/// Bytes parsed from one pane per wake-up before input is looked at again.
/// ~0.4 ms of parsing at 80 MB/s: a key typed during a flood waits at most
/// about that long before it is handled.
pub const PANE_BYTE_BUDGET: usize = 32 * 1024;

/// The slice other panes get while a key's echo is awaited: ~0.1 ms.
pub const ECHO_WAIT_BUDGET: usize = 8 * 1024;

/// The most time one pane's output is parsed for in one turn, checked
/// between pieces (see `pane::program::unfed`): ordinary output never reaches it,
/// output that is costly per byte (a flood of REP) stops there so the
/// user's keys are read and echoed in between.
pub const PANE_TIME_BUDGET: Duration = Duration::from_millis(2);

/// What to open at start.
pub enum Startup {
    Profile(crate::config::profile::Profile),
    /// `tilework -- CMD ARGS`: one pane running argv directly.
    Argv(Vec<String>),
    /// `tilework -c A -c B`: panes side by side running shell lines.
    Commands(Vec<String>),
    /// `tilework attach NAME` of a saved workspace: it comes back.
    Restore(Box<crate::persist::Restored>),
    /// `tilework upgrade`: the workspace an older tilework ran, its
    /// programs taken over.
    TakeOver(Box<crate::upgrade::take::Taken>),
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
    /// What panes are told so that `tmux` in them reaches this workspace.
    pub tmux: Option<crate::workspace::tmux_env::TmuxIdentity>,
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
        crate::pane::program::children::kill_all();
    });
    // Before the first client is made: what its terminal is told to draw
    // depends on them.
    crate::pane::term::cell_marks::set_keep_links(opts.config.hyperlinks);
    // A workspace taken over accepts clients only once the old process
    // let go: until then they wait in the socket's backlog.
    let listen_now = !matches!(opts.startup, Startup::TakeOver(_));
    let (started, first) = opts.session.begin(
        opts.config.mouse,
        crate::app::loop_event::session_mailbox(&events_tx),
        listen_now,
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
    let configured_features = crate::render::cell_extras::Features::configured(
        &opts.config.terminal_features,
        opts.config.hyperlinks,
    );
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
        configured_features,
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
    env.set_remote(opts.config.remote.clone());
    let settings = WorkspaceSettings {
        env,
        scrollback_bytes: opts.config.scrollback_bytes,
        keep_exited_panes: opts.config.keep_exited_panes,
    };
    let (pane_area, _) = frame::split_screen(size);
    let mut ws = match &mut opts.startup {
        Startup::TakeOver(taken) => {
            let launcher = taken.launcher(pane_mailbox(&events_tx));
            Workspace::with_launcher(
                settings.clone(),
                pane_area,
                pane_mailbox(&events_tx),
                launcher,
            )
        }
        _ => Workspace::new(settings.clone(), pane_area, pane_mailbox(&events_tx)),
    };
    ws.panes()
        .spawner()
        .pictures()
        .lock()
        .set_budget(opts.config.image_memory);
    ws.set_pane_frame(PaneFrame::of(opts.config.appearance.borders));
    ws.panes_mut()
        .names_mut()
        .look_up_with(NameLookup::new(names_mailbox(&events_tx)));
    let spawner = ws.panes_mut().spawner_mut();
    spawner.set_editor_ansi(opts.config.editor_ansi);
    if let Some(identity) = opts.tmux.take() {
        spawner.set_tmux_identity(identity);
    }
    ws.attention_mut()
        .set_notifications(opts.config.notifications);
    ws.panes_mut().set_max_panes(opts.config.max_panes);
    let spawner = ws.panes_mut().spawner_mut();
    spawner.set_update_environment(opts.config.update_environment.clone());
    spawner.update_environment(&first_env);
    let settings = ws.panes().spawner().settings().clone();
    let mut more_terminals = Vec::new();
    let upgraded_from = match &opts.startup {
        Startup::TakeOver(taken) => Some(taken.header.version.clone()),
        _ => None,
    };
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
        Startup::TakeOver(taken) => {
            let name = host.as_ref().map_or("", |h| h.name());
            more_terminals = upgrade_handoff::open_taken(*taken, name, &mut ws);
            if let Some(host) = host.as_ref() {
                host.listen()?;
            }
        }
    }
    let stats = match &opts.stats {
        Some(path) => Some(StatsFile::create(path)?),
        None => None,
    };
    let loop_settings = LoopSettings {
        frame_interval: Duration::from_secs(1) / opts.config.fps.max(1),
        exit_after: opts.exit_after,
        clipboard_from_programs: opts.config.clipboard_from_programs,
        clipboard_read: opts.config.clipboard_read,
        writer_name: opts.writer.name(),
        copy_command: crate::terminal::clipboard::local_command(
            opts.config.copy_command.as_deref(),
        ),
        configured_colours: opts.config.terminal_colours,
    };
    let mut app = App::new(ws, client, events_rx, &loop_settings);
    // The prompt the user waits for is drawn as soon as it comes.
    if let Some(id) = app.ws.tabs().focused_id() {
        app.clock.await_first_output(id);
    }
    app.measures.stats = stats;
    app.session = host.take();
    app.clients.new_router = new_router;
    app.clients.spare_router = (app.clients.new_router)(SPARE_ROUTER);
    app.clients.writer = opts.writer;
    app.clients.configured_features = configured_features;
    app.clients.window_size = opts.config.window_size;
    app.clients.client_views = opts.config.client_views;
    app.clients.give_own_views(&app.ws);
    app.clients.latest = Some(first_link);
    app.signals.progress =
        crate::app::progress_forward::ProgressForward::new(opts.config.terminal_features.progress);
    app.signals.progress.attached(first_link, &first_env);
    if app.clients.theme_from_terminal(0) {
        app.clock.changed_now();
    }
    app.queue.tx = Some(events_tx.clone());
    // The first terminal's frames at its own size.
    app.clients.fit_layout(&mut app.ws);
    if let Some(version) = upgraded_from {
        upgrade_handoff::announce(&mut app, &version, more_terminals);
    }
    app.persist = persist;
    app.reload = config_reload::Reload::new(opts.config_source, reload_mailbox(&events_tx));
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
    app.ws.panes().kill_all();
    *host = app.session.take();
    // Each client's terminal is put back as it was.
    drop(app);
    result
}

/// The loop's state: the workspace and what all clients share, and each
/// attached terminal's [`Client`].
pub(super) struct App<B: FrameSink> {
    pub(super) ws: Workspace,
    /// The attached terminals and what the loop keeps about them.
    pub(super) clients: Attached<B>,
    /// What the loop reads besides input and output, and its sender.
    pub(super) queue: crate::app::loop_event::LoopQueue,
    pub(super) clock: FrameClock,
    pub(super) deadline_exit: Option<Instant>,
    /// The metrics the overlay shows, the `--stats` file.
    pub(super) measures: FrameStats,
    /// How the loop runs (clipboard, colours, frames).
    pub(super) settings: LoopSettings,
    /// Feeding the panes: its buffers, order, throttle, silences and
    /// pipes.
    pub(super) feed: Feed,
    /// Attach and detach (`None`: the terminal is ours for good, as in
    /// the loop's own tests).
    pub(super) session: Option<crate::session::host::Host>,
    /// Saving the workspace for after a crash or reboot (sessions only).
    pub(super) persist: Option<crate::persist::Tap>,
    /// Reading the config again (`source-config`).
    pub(super) reload: config_reload::Reload,
    /// The status bar's command segments.
    pub(super) status_commands: crate::app::status_commands::StatusCommands,
    /// `[hooks]`.
    pub(super) hooks: crate::app::hook_runner::Hooks,
    /// Scripts waiting on panes (`tilework wait`).
    pub(super) command_watch: crate::app::command_watch::CommandWatch,
    /// Programs' clipboard reads, progress and notification clicks.
    pub(super) signals: crate::app::signals_from_programs::LoopSignals,
}

/// How the loop runs, from the config and the command line.
#[derive(Clone)]
pub(super) struct LoopSettings {
    pub frame_interval: Duration,
    /// Quit after this long (`--exit-after`, for benchmarks).
    pub exit_after: Option<Duration>,
    pub clipboard_from_programs: bool,
    pub clipboard_read: crate::config::clipboard_read::ClipboardRead,
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
            clients: Attached::new(client),
            queue: crate::app::loop_event::LoopQueue {
                rx: events_rx,
                tx: None,
            },
            clock: FrameClock::new(settings.frame_interval),
            deadline_exit: settings.exit_after.map(|d| Instant::now() + d),
            measures: FrameStats::new(settings.writer_name),
            settings: settings.clone(),
            feed: Feed::default(),
            session: None,
            persist: None,
            reload: config_reload::Reload::default(),
            status_commands: Default::default(),
            hooks: Default::default(),
            command_watch: Default::default(),
            signals: crate::app::signals_from_programs::LoopSignals {
                clipboard_reads: crate::app::clipboard_reads::ClipboardReads::new(
                    settings.clipboard_read,
                ),
                ..Default::default()
            },
        };
        app.clients
            .tell_colours(&mut app.ws, app.settings.configured_colours);
        app
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
        if self
            .clients
            .follow_sizes(&mut self.ws, self.settings.configured_colours)
        {
            self.clock.changed_now();
        }
        self.hooks
            .tell_silences(&mut self.feed, &self.ws, Instant::now());
        let mut around = Around {
            ws: &mut self.ws,
            clients: &mut self.clients,
            clock: &mut self.clock,
        };
        self.signals
            .clipboard_reads_due(Instant::now(), &mut around);
        self.signals.forward_progress(&mut around);
        self.command_watch.check_in(&self.ws);
        for client in &mut self.clients.list {
            // A read-only terminal's focus is not the programs' business.
            if !client.read_only {
                client.focus.update(&self.ws);
            }
            client.router.follow_resized_history(&mut self.ws);
        }
        self.ws
            .panes_mut()
            .iter_mut()
            .for_each(|p| p.history_mut().forget_replaced_history());
        if let Some(code) = self.ws.ending().code() {
            return Ok(Some(code));
        }
        if self.deadline_exit.is_some_and(|d| Instant::now() >= d) {
            return Ok(Some(0));
        }
        let now = Instant::now();
        if self.measures.overlay_refresh_due(now) {
            self.clock.changed();
        }
        let ticked = self
            .clients
            .list
            .iter_mut()
            .fold(false, |any, c| c.router.tick(now) | any);
        if ticked {
            self.clock.changed_now();
        }
        // A synchronized update a program left open is shown as it is
        // once its time is out (`pane::term::sync_update`).
        if self.ws.panes_mut().iter_mut().fold(false, |any, pane| {
            pane.term_mut().end_overdue_sync(now) | any
        }) {
            self.clock.changed();
        }
        // Query answers held for a program's raw mode (`pane::term::held_replies`).
        for pane in self.ws.panes_mut().iter_mut() {
            pane.release_held_replies(now);
        }
        // Output that never lets the loop sleep would keep poll(2) from
        // saying a terminal takes the rest of a frame again.
        self.send_unsent_frames();
        if self.clock.due(now) {
            self.render(now)?;
        }
        // Tab and border names follow what the panes run, looked up on a
        // thread of their own (`workspace::name_lookup`); asked after the
        // frame.
        if self.ws.panes_mut().check_names(Instant::now()) {
            self.clock.changed();
        }
        // Grids of hidden, quiet panes put away (`app::idle_parking`).
        let attached = !self.clients.list.is_empty();
        self.feed
            .parking
            .sweep(&mut self.ws, attached, Instant::now());
        if let Some(persist) = &mut self.persist {
            persist.turn(&self.ws, self.measures.metrics.frames, Instant::now());
        }
        if more_output {
            return Ok(None);
        }
        let now = Instant::now();
        let silence = self
            .hooks
            .silence_after()
            .and_then(|after| self.feed.silence.deadline(after));
        let deadline = deadlines::soonest(
            &[
                &self.clock,
                &self.deadline_exit,
                &self.measures.overlay_refresh_at,
                &self.clients.list,
                &self.feed.throttle,
                &self.ws,
                &self.persist,
                &self.status_commands,
                &silence,
                &self.feed.parking,
                &self.command_watch,
                &self.signals.clipboard_reads,
                &wait_limit,
            ],
            now,
        );
        self.wait(deadline);
        Ok(None)
    }

    /// Blocks until input, output or an event is ready, or `deadline`.
    fn wait(&mut self, deadline: Option<Instant>) {
        crate::wake::park();
        // Work the poll would not announce: what was sent before the loop
        // parked (senders only write to the wake pipe after).
        let now = Instant::now();
        let waiting = self.clients.list.iter().any(|c| c.input.pending())
            || !self.queue.rx.is_empty()
            || self.feed.output_waiting(&self.ws, now);
        if !waiting {
            let (polled, quiet) = self.feed.quiet_fds(&self.ws, now);
            let (writable, quiet_ready) = self.clients.sleep(&quiet, deadline);
            drop(quiet);
            self.feed.quiet_poll.slept(polled, quiet_ready);
            // From the last: one that fails is let go, which moves those
            // after.
            for at in writable.into_iter().rev() {
                self.terminal_writable(at);
            }
        }
        crate::wake::unpark();
    }

    /// Draws a frame on each attached terminal that is reading. One that
    /// stopped reading is skipped (the loop goes back to sleep; it is drawn
    /// whole when it reads again); one that cannot be written to is let go.
    fn render(&mut self, now: Instant) -> Result<()> {
        let reading = self.clients.list.iter().any(|c| c.unsent_fd().is_none());
        if !reading {
            for client in &mut self.clients.list {
                client.frame_skipped();
            }
            self.clock.begin_frame();
            self.clock.frame_done(now, false);
            return Ok(());
        }
        // Tests of the panic exit path (debug builds only): the terminal must
        // come back and the children must die.
        #[cfg(debug_assertions)]
        if self.measures.metrics.frames >= 2 && std::env::var_os("TILEWORK_DEBUG_PANIC").is_some() {
            panic!("TILEWORK_DEBUG_PANIC is set: panicking on purpose");
        }
        let started = Instant::now();
        let overlay = self
            .clients
            .list
            .iter()
            .any(|c| c.router.ui().fps_shown())
            .then(|| self.measures.overlay_data(&self.ws, started));
        let echo_of = self.clock.begin_frame();
        // A frame drawn early for an echo parses only the echoing pane's
        // held-back output (and the focused one's, whose cursor is shown);
        // the others may show their previous image.
        let focused = self.ws.tabs().focused_id();
        input_dispatch::settle_visible(&mut self.ws, |id| {
            echo_of.is_none_or(|echo| echo == id || Some(id) == focused)
        });
        // With views of their own, each terminal's tab is settled as its
        // frame comes (below).
        let own_views = self.clients.list.iter().any(|c| c.own_view.is_some());
        let mut shown: Vec<crate::pane::PaneId> = Vec::new();
        if !own_views {
            shown.extend(
                self.ws
                    .tiling()
                    .visible(self.ws.tabs().shown())
                    .into_iter()
                    .map(|(id, _)| id),
            );
        }
        // Damage is taken from the panes once, then handed to each client.
        let damage = crate::render::cache::take_damage(self.ws.panes_mut().iter_mut());
        let (mut bytes, mut writes, mut left_stale) = (0, 0, false);
        let mut failed = Vec::new();
        for at in 0..self.clients.list.len() {
            if own_views {
                use crate::client::own_view as views;
                self.clients.show_own_view(&mut self.ws, at);
                let focused = self.ws.tabs().focused_id();
                input_dispatch::settle_visible(&mut self.ws, |id| {
                    echo_of.is_none_or(|echo| echo == id || Some(id) == focused)
                });
                shown.extend(
                    self.ws
                        .tiling()
                        .visible(self.ws.tabs().shown())
                        .into_iter()
                        .map(|(id, _)| id),
                );
                let elsewhere = views::seen_elsewhere(&self.ws, &self.clients.list, at);
                self.clients.list[at]
                    .router
                    .set_tabs_seen_elsewhere(elsewhere);
            }
            let client = &mut self.clients.list[at];
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
        self.feed.parking.drawn(shown);
        // Let go from the last, so the indexes before stay right.
        for (at, err) in failed.into_iter().rev() {
            self.terminal_failed(at, &err);
        }
        let done = Instant::now();
        // A pane drawn from a stale image gets a regular frame soon.
        self.clock.frame_done(done, left_stale);
        let drawn = Drawn {
            started,
            done,
            bytes,
            writes,
            overlay_active: overlay.as_ref().map(|data| data.fps > 0),
        };
        self.measures.frame_done(&self.ws, &drawn);
        Ok(())
    }
}
