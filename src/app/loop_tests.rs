//! The whole loop in-process: real panes, keys sent on a channel as the
//! terminal would give them, frames drawn on ratatui's `TestBackend` and read back
//! as text. Waits on conditions (with a generous limit), never on time.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, bounded};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::event_loop::{App, LoopSettings};
use super::loop_event::{LOOP_EVENT_CAPACITY, pane_mailbox, search_mailbox};
use crate::client::Client;
use crate::config::Config;
use crate::input::router::InputRouter;
use crate::pane::program::spawn::ChildEnv;
use crate::render::frame;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

const LIMIT: Duration = Duration::from_secs(30);

/// One workspace at a time: ending one (quit, or the harness dropped)
/// ends every child this process registered, as tilework does on exit.
// why process-wide: test only, it orders the tests of this process.
static ONE_WORKSPACE: Mutex<()> = Mutex::new(());

struct Harness {
    app: App<TestBackend>,
    keys: Sender<(Instant, Event)>,
    _alone: MutexGuard<'static, ()>,
}

/// The loop of a workspace of `cols` x `rows` with one `/bin/sh` pane
/// (prompt `$ `), drawing on `backend`, and where its keys come from.
fn app_on<B: FrameSink>(backend: B, cols: u16, rows: u16) -> (App<B>, Sender<(Instant, Event)>) {
    let size = Rect::new(0, 0, cols, rows);
    let terminal = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(size),
        },
    )
    .expect("a terminal");
    let config = Config::default();
    let settings = WorkspaceSettings {
        env: ChildEnv::new(Some("/bin/sh"), &config.term),
        scrollback_bytes: config.scrollback_bytes,
        keep_exited_panes: false,
    };
    let (events_tx, events_rx) = bounded(LOOP_EVENT_CAPACITY);
    let (pane_area, _) = frame::split_screen(size);
    let mut ws = Workspace::new(settings.clone(), pane_area, pane_mailbox(&events_tx));
    ws.panes_mut()
        .names_mut()
        .look_up_with(crate::workspace::name_lookup::NameLookup::new(
            super::loop_event::names_mailbox(&events_tx),
        ));
    let (mut spec, label) = settings.env.argv(&["/bin/sh".to_string()], None);
    spec.env.push(("PS1".into(), "$ ".into()));
    spec.env.push(("ENV".into(), String::new()));
    ws.open_row(vec![PaneLaunch::new(spec, label)]);
    let router = InputRouter::new(config.keymap.clone(), false, search_mailbox(&events_tx, 0));
    let (keys, input_rx) = bounded(256);
    let loop_settings = LoopSettings {
        frame_interval: Duration::from_secs(1) / config.fps,
        exit_after: None,
        clipboard_from_programs: false,
        clipboard_read: Default::default(),
        writer_name: "test",
        copy_command: None,
        configured_colours: [None; 3],
    };
    let input = crate::client::input_source::InputSource::channel(input_rx);
    // As a config that leaves `hyperlinks` on.
    let configured = crate::render::cell_extras::Features {
        hyperlinks: true,
        ..Default::default()
    };
    let client = Client::new(terminal, input, router, Default::default(), configured);
    (App::new(ws, client, events_rx, &loop_settings), keys)
}

impl Harness {
    /// A workspace of `cols` x `rows` with one `/bin/sh` pane (prompt `$ `).
    fn start(cols: u16, rows: u16) -> Self {
        let alone = ONE_WORKSPACE.lock().unwrap_or_else(PoisonError::into_inner);
        let (app, keys) = app_on(TestBackend::new(cols, rows), cols, rows);
        Self {
            app,
            keys,
            _alone: alone,
        }
    }

    fn screen(&self) -> String {
        let buffer = self.app.clients.list[0].terminal.backend().buffer();
        let area = buffer.area;
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Runs the loop until `cond` holds on the drawn screen.
    fn run_until(&mut self, what: &str, cond: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LIMIT;
        while !cond(&self.screen()) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{}",
                self.screen()
            );
            let exit = self
                .app
                .turn(Some(Instant::now() + Duration::from_millis(50)))
                .expect("a turn of the loop");
            assert_eq!(
                exit,
                None,
                "the workspace ended; screen:\n{}",
                self.screen()
            );
        }
    }

    /// Runs the loop until the workspace ends; returns its exit status.
    fn run_to_exit(&mut self) -> i32 {
        let deadline = Instant::now() + LIMIT;
        loop {
            assert!(Instant::now() < deadline, "the workspace did not end");
            let limit = Some(Instant::now() + Duration::from_millis(50));
            if let Some(code) = self.app.turn(limit).expect("a turn of the loop") {
                return code;
            }
        }
    }

    fn key(&self, code: KeyCode, modifiers: KeyModifiers) {
        let event = Event::Key(KeyEvent::new(code, modifiers));
        self.keys
            .send((Instant::now(), event))
            .expect("the loop's input channel");
        crate::wake::wake_loop();
    }

    fn type_text(&self, text: &str) {
        for c in text.chars() {
            match c {
                '\r' => self.key(KeyCode::Enter, KeyModifiers::NONE),
                c => self.key(KeyCode::Char(c), KeyModifiers::NONE),
            }
        }
    }

    fn prefix(&self, c: char) {
        self.key(KeyCode::Char('b'), KeyModifiers::CONTROL);
        self.key(KeyCode::Char(c), KeyModifiers::NONE);
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.app.ws.panes().kill_all();
    }
}

#[test]
fn the_loop_draws_the_shell_and_the_echo_of_typed_keys() {
    let mut h = Harness::start(60, 12);
    h.run_until("the prompt", |s| s.contains("$ "));
    h.type_text("echo in-process-$((6*7))\r");
    // The output, then the next prompt (the shell prints it a moment
    // after the output: waiting for the output alone raced with it).
    h.run_until("the command's output and the next prompt", |s| {
        s.contains("in-process-42") && s.lines().nth(3).is_some_and(|l| l.starts_with("┃$ "))
    });
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    // The border and the tab name the program until tilework has looked
    // at what it runs (then the directory, see below).
    let expected_top = [
        "┃$ echo in-process-$((6*7))                                ┃",
        "┃in-process-42                                             ┃",
        "┃$                                                         ┃",
    ];
    assert_eq!(lines[1..4], expected_top, "screen:\n{screen}");
    assert!(
        lines[11].starts_with(" 1:") && lines[11].contains("  pane 1/1  "),
        "the status bar names the tab and the pane:\n{screen}"
    );
}

/// ratatui's `Terminal` keeps a second screenful of cells for a diff the
/// painter does instead (~0.3 MB at 106x62): the loop frees it at start and
/// again after the user's terminal changes size, and draws as before.
#[test]
fn the_loop_keeps_no_second_screen_buffer_across_a_resize() {
    let mut h = Harness::start(40, 10);
    h.run_until("the prompt", |s| s.contains("$ "));
    h.app.clients.list[0].terminal.backend_mut().resize(50, 14);
    h.keys
        .send((Instant::now(), Event::Resize(50, 14)))
        .expect("the loop's input channel");
    h.run_until("the bigger screen", |s| {
        s.lines().count() == 14 && s.lines().nth(13).is_some_and(|l| l.contains("pane 1/1"))
    });
    h.type_text("echo after-$((6*7))\r");
    h.run_until("the command's output", |s| s.contains("after-42"));
    // Swapping makes the spare buffer current (and clears the real one:
    // this is the test's last look at the screen).
    h.app.clients.list[0].terminal.swap_buffers();
    assert_eq!(
        h.app.clients.list[0]
            .terminal
            .current_buffer_mut()
            .content
            .len(),
        0
    );
}

/// Real programs, real `/proc`: an idle shell's tab and border say its
/// directory, a program started from it names them instead, and closing
/// the pane while it runs asks first.
#[test]
fn names_follow_the_foreground_program_and_closing_it_asks_first() {
    let mut h = Harness::start(60, 12);
    h.run_until("the prompt", |s| s.contains("$ "));
    let dir = std::env::current_dir().expect("the test's directory");
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let shown_dir = crate::workspace::naming::with_tilde(&dir, home.as_deref());
    let base: String = crate::workspace::naming::PaneName::Dir(shown_dir.clone())
        .short()
        .chars()
        .take(10)
        .collect();
    h.run_until("the tab named after the directory", |s| {
        s.lines()
            .nth(11)
            .is_some_and(|bar| bar.starts_with(&format!(" 1:{base}")))
    });
    if shown_dir.chars().count() < 50 {
        assert!(
            h.screen()
                .lines()
                .next()
                .is_some_and(|top| top.contains(&shown_dir))
        );
    }

    h.type_text("sleep 30\r");
    h.run_until("the tab and border named after the program", |s| {
        s.lines()
            .nth(11)
            .is_some_and(|bar| bar.starts_with(" 1:sleep "))
            && s.lines().next().is_some_and(|top| top.contains(" sleep "))
    });
    h.prefix('x');
    h.run_until("the question", |s| {
        s.lines()
            .nth(11)
            .is_some_and(|bar| bar.contains("close the pane? it stops sleep (y/n)"))
    });
    h.type_text("n");
    h.run_until("the question gone", |s| s.contains("nothing closed"));
    h.prefix('x');
    h.run_until("the question again", |s| s.contains("(y/n)"));
    h.type_text("y");
    assert_eq!(h.run_to_exit(), 0, "the last pane closed");
}

#[test]
fn a_split_by_the_prefix_draws_two_panes_and_quit_ends_the_loop() {
    let mut h = Harness::start(60, 12);
    h.run_until("the prompt", |s| s.contains("$ "));
    h.prefix('%');
    h.run_until("two panes side by side", |s| {
        s.lines()
            .next()
            .is_some_and(|top| top.matches(['┌', '┏']).count() == 2)
    });
    h.prefix('Q');
    assert_eq!(h.run_to_exit(), 0);
}

/// A frame the terminal took only part of goes on as soon as the terminal
/// takes more, on a turn that does not sleep because output is left to
/// parse (issue 30: during a flood poll(2), the only place that used to
/// send the rest, was not reached for 4-15 s under load, and once a
/// `C-b Q` question cut off this way was never shown).
#[test]
fn the_rest_of_a_cut_frame_goes_out_on_a_turn_that_does_not_sleep() {
    use std::io::{Read, Write};
    use std::os::fd::{AsFd, OwnedFd};

    use crate::terminal::frame_backend::FrameBackend;

    use crate::terminal::output::FrameWriter;

    let _alone = ONE_WORKSPACE.lock().unwrap_or_else(PoisonError::into_inner);
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut writer = std::fs::File::from(OwnedFd::from(writer));
    for end in [writer.as_fd(), reader.as_fd()] {
        rustix::fs::fcntl_setfl(end, rustix::fs::OFlags::NONBLOCK).expect("non-blocking");
    }
    // The terminal stopped reading: its pipe is full.
    while writer.write(&[b'.'; 4096]).is_ok() {}
    let queue = FrameWriter::queued(writer.try_clone().expect("the pipe's writing end"));
    let (mut app, _keys) = app_on(FrameBackend::new(queue), 60, 12);
    let limit = Instant::now() + LIMIT;
    while app.clients.list[0].unsent_fd().is_none() {
        assert!(Instant::now() < limit, "no frame was cut");
        app.turn(Some(Instant::now() + Duration::from_millis(50)))
            .expect("a turn of the loop");
    }
    // Far more output than a turn parses: no turn sleeps for a while.
    let pane = app.ws.tabs().focused_id().expect("a pane");
    app.ws
        .panes_mut()
        .get_mut(pane)
        .expect("the pane")
        .program_mut()
        .take_in(b"\x1b[1;1Hx".repeat(2_000_000));
    // The terminal reads again.
    let mut buf = vec![0; 1 << 16];
    while reader.read(&mut buf).is_ok_and(|n| n > 0) {}
    app.turn(Some(Instant::now())).expect("a turn of the loop");
    let output_left = app
        .ws
        .panes()
        .get(pane)
        .is_some_and(|p| p.program().unfed() > 0);
    let frame_sent = app.clients.list[0].unsent_fd().is_none();
    app.ws.panes().kill_all();
    assert!(output_left, "the turn parsed all the output");
    assert!(frame_sent, "the rest of the frame still waits");
}
