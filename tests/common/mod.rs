//! Runs the real `tilework` binary in a PTY and reads its output back
//! through a vt100 parser acting as the user's terminal. Tests wait for
//! conditions on that screen; they never sleep for a fixed time and never
//! assert on wall-clock durations.

#![allow(dead_code, clippy::unwrap_used)]

pub mod graphics;
pub mod progress;

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// Generous: CI machines are shared and slow; a passing test returns as soon
/// as its condition holds.
pub const TIMEOUT: Duration = Duration::from_secs(30);

struct Shared {
    parser: vt100::Parser,
    raw: Vec<u8>,
    eof: bool,
    /// Set by [`Tilework::close_terminal`]: the reader lets go of the PTY.
    closing: bool,
    /// How many late answers the terminal has written (see
    /// [`TerminalReplies::late`]).
    late_answers: usize,
    /// Set by [`Tilework::stop_reading`]: the terminal reads nothing, as a
    /// frozen ssh or a suspended laptop.
    not_reading: bool,
    /// Set by [`Tilework::record_frames`]: the screen as each of
    /// tilework's frames left it.
    frames: Option<Vec<String>>,
    /// How much of [`FFFD`] the output read so far ends with.
    fffd_seen: usize,
    /// How much of [`FRAME_END`] the output read so far ends with.
    frame_end_seen: usize,
}

/// U+FFFD in UTF-8. Real terminals draw it in one cell; vt100 drops it
/// (the cursor stays), so the cells tilework writes after it in the same
/// run would land a column to the left, and stay there while later frames
/// change nothing in them. The harness's terminal draws U+FFFC (one byte
/// apart, one cell wide) in its place.
const FFFD: &[u8] = "\u{FFFD}".as_bytes();

/// How tilework ends each frame it writes (it wraps each in a synchronized
/// update).
const FRAME_END: &[u8] = b"\x1b[?2026l";

impl Shared {
    /// Takes what tilework wrote: into the parser, and when frames are
    /// recorded, the screen after each frame's end.
    fn process(&mut self, bytes: &[u8]) {
        let shown = self.as_real_terminals_draw(bytes);
        let bytes = &shown[..];
        if self.frames.is_none() {
            self.parser.process(bytes);
            return;
        }
        let mut from = 0;
        for (i, &b) in bytes.iter().enumerate() {
            self.frame_end_seen = if b == FRAME_END[self.frame_end_seen] {
                self.frame_end_seen + 1
            } else {
                // The end's first byte (ESC) is nowhere else in it.
                usize::from(b == FRAME_END[0])
            };
            if self.frame_end_seen == FRAME_END.len() {
                self.frame_end_seen = 0;
                self.parser.process(&bytes[from..=i]);
                from = i + 1;
                let screen = self.parser.screen().contents();
                self.frames.get_or_insert_with(Vec::new).push(screen);
            }
        }
        self.parser.process(&bytes[from..]);
    }

    /// `bytes` with each U+FFFD made U+FFFC (see [`FFFD`]), also one that
    /// reads cut: only its last byte differs, and vt100 holds the others
    /// until it comes.
    fn as_real_terminals_draw<'b>(&mut self, bytes: &'b [u8]) -> std::borrow::Cow<'b, [u8]> {
        let mut out = std::borrow::Cow::Borrowed(bytes);
        for (i, &b) in bytes.iter().enumerate() {
            self.fffd_seen = if b == FFFD[self.fffd_seen] {
                self.fffd_seen + 1
            } else {
                // Its first byte (0xEF) is nowhere else in it.
                usize::from(b == FFFD[0])
            };
            if self.fffd_seen == FFFD.len() {
                self.fffd_seen = 0;
                out.to_mut()[i] = 0xBC;
            }
        }
        out
    }
}

pub struct Tilework {
    shared: Arc<(Mutex<Shared>, Condvar)>,
    /// `None` once the terminal was closed ([`Tilework::close_terminal`]).
    writer: Option<Box<dyn Write + Send>>,
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    pub dir: TempDir,
    pub rows: u16,
    pub cols: u16,
}

/// How the harness's terminal answers the questions tilework asks it.
/// Every terminal answers the device attributes query; the rest are
/// optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct TerminalReplies {
    /// Answer OSC 11 `?` with this (`rgb:RRRR/GGGG/BBBB`).
    pub background: Option<&'static str>,
    /// Answer the kitty keyboard query (`CSI ? u`): it speaks the protocol.
    pub kitty: bool,
    /// Answer this long after the question, as over a slow link.
    pub late: Option<Duration>,
    /// Answer XTGETTCAP for `Smulx` and `Setulc`: it draws styled and
    /// coloured underlines.
    pub styled_underlines: bool,
    /// Answer the device attributes query with sixel (`4`) and the cell
    /// size query (`CSI 16 t`) with 10 x 20 pixels.
    pub sixel: bool,
    /// Answer the kitty graphics query (`a=q`, id 31) with `OK`, and the
    /// cell size query with 10 x 20 pixels.
    pub kitty_graphics: bool,
    /// Answer the cell size query (`CSI 16 t`) with this many pixels
    /// (width, height) in place of 10 x 20: a broken or hostile terminal.
    pub cell: Option<(u16, u16)>,
}

impl TerminalReplies {
    /// The answers to the questions in `written`, in their order.
    fn to(&self, written: &[u8]) -> Vec<u8> {
        let mut reply = Vec::new();
        let has = |q: &[u8]| written.windows(q.len()).any(|w| w == q);
        if let Some(bg) = self.background
            && has(b"\x1b]11;?")
        {
            reply.extend_from_slice(format!("\x1b]11;{bg}\x1b\\").as_bytes());
        }
        if self.kitty && has(b"\x1b[?u") {
            reply.extend_from_slice(b"\x1b[?0u");
        }
        if self.styled_underlines && has(b"\x1bP+q536d756c78") {
            reply.extend_from_slice(b"\x1bP1+r536d756c78=5c455b342c25703125643a6d\x1b\\");
            reply.extend_from_slice(b"\x1bP1+r536574756c63=5c455b35383a323a3a25703125647d\x1b\\");
        }
        if self.kitty_graphics && has(b"\x1b_Gi=31,") {
            reply.extend_from_slice(b"\x1b_Gi=31;OK\x1b\\");
        }
        if let Some((width, height)) = self.cell
            && has(b"\x1b[16t")
        {
            reply.extend_from_slice(format!("\x1b[6;{height};{width}t").as_bytes());
        } else if (self.sixel || self.kitty_graphics) && has(b"\x1b[16t") {
            reply.extend_from_slice(b"\x1b[6;20;10t");
        }
        if self.sixel && has(b"\x1b[c") {
            reply.extend_from_slice(b"\x1b[?62;4;22c");
        } else if has(b"\x1b[c") {
            reply.extend_from_slice(b"\x1b[?1;2c");
        }
        reply
    }
}

/// A directory removed when the test ends.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("tilework-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_tilework")
}

/// The variable `.ci/run` sets to `1`: there every optional program is
/// installed, so a test that would skip fails instead.
pub const REQUIRE_ALL: &str = "TILEWORK_REQUIRE_ALL";

/// Whether `program`, which the calling test drives inside tilework, is
/// installed; if not, the test should return at once. The README's
/// `cargo test` must pass on a fresh machine that has only Rust, so tests of
/// optional programs (vim, dialog) skip there, saying so on stderr. Under
/// [`REQUIRE_ALL`] a missing program fails the test instead, so CI cannot
/// pass with tests that never ran.
pub fn require_program(program: &str) -> bool {
    let require_all = std::env::var_os(REQUIRE_ALL).is_some_and(|v| v == "1");
    require_program_in(program, require_all)
}

/// [`require_program`] with the CI switch given, for testing it.
pub fn require_program_in(program: &str, require_all: bool) -> bool {
    if which::which(program).is_ok() {
        return true;
    }
    assert!(
        !require_all,
        "{program} is not installed and {REQUIRE_ALL}=1 forbids skipping (.ci/run installs it)"
    );
    // Straight to fd 2: libtest captures `eprintln!` of a passing test, so
    // the line would never be seen.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {program} not installed (install it to run this test)"
    );
    false
}

impl Tilework {
    /// Starts tilework with `args` in a `rows` x `cols` terminal. The shell
    /// is `/bin/sh` with a `$ ` prompt and the config dir is empty, so every
    /// test sees the same defaults whatever the machine's user has.
    pub fn start(args: &[&str], rows: u16, cols: u16) -> Self {
        Self::start_with(args, rows, cols, &[])
    }

    pub fn start_with(args: &[&str], rows: u16, cols: u16, env: &[(&str, &str)]) -> Self {
        Self::start_program(binary(), args, rows, cols, env)
    }

    /// Like [`Tilework::start_with`], but the PTY runs `program` (a shell
    /// that starts tilework some other way, say with a redirection).
    pub fn start_program(
        program: &str,
        args: &[&str],
        rows: u16,
        cols: u16,
        env: &[(&str, &str)],
    ) -> Self {
        Self::start_answering(program, args, rows, cols, env, TerminalReplies::default())
    }

    /// Like [`Tilework::start_program`], in a terminal that answers
    /// tilework's questions as `replies` says.
    pub fn start_answering(
        program: &str,
        args: &[&str],
        rows: u16,
        cols: u16,
        env: &[(&str, &str)],
        replies: TerminalReplies,
    ) -> Self {
        let dir = TempDir::new("run");
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.cwd(dir.path());
        cmd.env("TERM", "xterm-256color");
        cmd.env("SHELL", "/bin/sh");
        cmd.env("PS1", "$ ");
        cmd.env("ENV", "");
        cmd.env("HOME", dir.path());
        cmd.env("XDG_CONFIG_HOME", dir.path().join("config"));
        cmd.env("XDG_STATE_HOME", dir.path().join("state"));
        // Each test's workspaces are its own: `ls` sees only them, and
        // they are ended when the test is (see `Drop`).
        let runtime = dir.path().join("run");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&runtime)
            .unwrap();
        cmd.env("XDG_RUNTIME_DIR", &runtime);
        cmd.env_remove("TMUX");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        // Our own copy of the controlling side, polled with a timeout so
        // that `close_terminal` can make the reader let go of it (the
        // terminal hangs up only when its last copy closes).
        let mut reader = {
            let fd = pty.master.as_raw_fd().unwrap();
            filedescriptor::FileDescriptor::dup(&fd).unwrap()
        };
        // Not `take_writer`: dropping that one types "\n" and ^D into the
        // terminal (portable-pty's way to send EOF), which a closed
        // terminal never does.
        let writer: Box<dyn Write + Send> = Box::new(
            filedescriptor::FileDescriptor::dup(&pty.master.as_raw_fd().unwrap()).unwrap(),
        );
        let shared = Arc::new((
            Mutex::new(Shared {
                parser: vt100::Parser::new(
                    NonZeroU16::new(rows).unwrap(),
                    NonZeroU16::new(cols).unwrap(),
                    0,
                ),
                raw: Vec::new(),
                eof: false,
                closing: false,
                late_answers: 0,
                not_reading: false,
                frames: None,
                fffd_seen: 0,
                frame_end_seen: 0,
            }),
            Condvar::new(),
        ));
        let reader_shared = Arc::clone(&shared);
        // Like a real terminal, the harness answers the questions tilework
        // asks when a terminal is brought to it (the device attributes
        // query last: its answer ends the wait).
        let mut answers =
            filedescriptor::FileDescriptor::dup(&pty.master.as_raw_fd().unwrap()).unwrap();
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 65536];
            loop {
                use std::os::fd::AsRawFd as _;
                {
                    let (lock, cvar) = &*reader_shared;
                    let s = lock.lock().unwrap();
                    if s.not_reading && !s.closing {
                        let _ = cvar.wait_timeout(s, Duration::from_millis(50)).unwrap();
                        continue;
                    }
                }
                let mut pfd = [filedescriptor::pollfd {
                    fd: reader.as_raw_fd(),
                    events: filedescriptor::POLLIN,
                    revents: 0,
                }];
                let _ = filedescriptor::poll(&mut pfd, Some(Duration::from_millis(50)));
                if reader_shared.0.lock().unwrap().closing {
                    let (lock, cvar) = &*reader_shared;
                    lock.lock().unwrap().eof = true;
                    cvar.notify_all();
                    break;
                }
                if pfd[0].revents == 0 {
                    continue;
                }
                let n = match reader.read(&mut buf) {
                    Ok(n) => n,
                    // `send_guarded` makes the shared open file non-blocking
                    // for a while: nothing to read yet is not the end of
                    // tilework's output; the poll above waits for more.
                    Err(err)
                        if matches!(
                            err.kind(),
                            std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                        ) =>
                    {
                        continue;
                    }
                    Err(_) => 0,
                };
                let reply = replies.to(&buf[..n]);
                if !reply.is_empty() {
                    match replies.late {
                        None => {
                            let _ = answers.write_all(&reply);
                        }
                        // A slow link: the answers come after a while,
                        // from a thread of their own, as the terminal's
                        // other output goes on.
                        Some(delay) => {
                            let mut late = answers.try_clone().unwrap();
                            let shared = Arc::clone(&reader_shared);
                            std::thread::spawn(move || {
                                std::thread::sleep(delay);
                                let _ = late.write_all(&reply);
                                let (lock, cvar) = &*shared;
                                lock.lock().unwrap().late_answers += 1;
                                cvar.notify_all();
                            });
                        }
                    }
                }
                let (lock, cvar) = &*reader_shared;
                let mut s = lock.lock().unwrap();
                if n == 0 {
                    s.eof = true;
                    cvar.notify_all();
                    break;
                }
                s.process(&buf[..n]);
                // Keep the tail of the raw stream for mode checks.
                s.raw.extend_from_slice(&buf[..n]);
                if s.raw.len() > 1 << 20 {
                    let cut = s.raw.len() - (1 << 19);
                    s.raw.drain(..cut);
                }
                cvar.notify_all();
            }
        });
        Self {
            shared,
            writer: Some(writer),
            child,
            master: Some(pty.master),
            dir,
            rows,
            cols,
        }
    }

    pub fn send(&mut self, bytes: impl AsRef<[u8]>) {
        let writer = self.writer.as_mut().expect("the terminal is closed");
        writer.write_all(bytes.as_ref()).unwrap();
        writer.flush().unwrap();
    }

    /// Types a line into the focused pane.
    pub fn type_line(&mut self, line: &str) {
        self.send(format!("{line}\r"));
    }

    /// Waits until `cond` holds on the screen; panics with the screen if not.
    pub fn wait_for(&self, what: &str, cond: impl FnMut(&vt100::Screen) -> bool) {
        self.wait_for_within(what, TIMEOUT, cond);
    }

    pub fn wait_for_text(&self, text: &str) {
        self.wait_for(&format!("{text:?} on screen"), |s| {
            s.contents().contains(text)
        });
    }

    pub fn screen_text(&self) -> String {
        self.shared.0.lock().unwrap().parser.screen().contents()
    }

    /// Runs `f` on the current screen.
    pub fn with_screen<T>(&self, f: impl FnOnce(&vt100::Screen) -> T) -> T {
        f(self.shared.0.lock().unwrap().parser.screen())
    }

    /// Row `row` of the screen between columns `from..to`.
    pub fn row_text(&self, row: u16, from: u16, to: u16) -> String {
        self.with_screen(|s| {
            let mut out = String::new();
            for col in from..to {
                let c = s
                    .cell(row, col)
                    .map(|c| c.contents().to_string())
                    .unwrap_or_default();
                out.push_str(if c.is_empty() { " " } else { &c });
            }
            out
        })
    }

    /// Waits for tilework to exit and for its output to end. When a quit
    /// or close asks first (a pane still runs a program, `confirm_close`),
    /// answers `y` once: tests that are not about the question end the
    /// workspace with programs running.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        let mut answered = false;
        loop {
            if !answered && self.with_screen(|s| s.contents().contains("? it stops ")) {
                self.send("y");
                answered = true;
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                let (lock, cvar) = &*self.shared;
                let mut s = lock.lock().unwrap();
                while !s.eof && Instant::now() < deadline {
                    s = cvar.wait_timeout(s, Duration::from_millis(100)).unwrap().0;
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "tilework did not exit; screen:\n{}",
                self.screen_text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn master(&self) -> &(dyn MasterPty + Send) {
        self.master.as_deref().expect("the terminal is closed")
    }

    /// Closes the terminal, as a terminal window closing or an ssh
    /// connection dropping does: the processes in it get SIGHUP, reads
    /// fail. The screen read so far stays.
    pub fn close_terminal(&mut self) {
        self.shared.0.lock().unwrap().closing = true;
        self.writer = None;
        self.master = None;
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    /// Makes the terminal `rows` x `cols`, as a terminal emulator does it:
    /// its own screen first, then the PTY (which signals tilework). Nothing
    /// is read in between, so every byte tilework writes after it learnt
    /// the new size lands on a screen of that size (the other order let a
    /// frame for the new size be parsed at the old one).
    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.resize_in_pixels(rows, cols, 0, 0);
    }

    /// Tells tilework its terminal is `rows` x `cols` without making the
    /// test's own screen that size (a terminal claiming 65535x65535): the
    /// screen read back keeps its size.
    pub fn claim_size(&mut self, rows: u16, cols: u16) {
        self.claim(rows, cols, 0, 0);
    }

    /// Sets the terminal's PTY size (tilework gets a SIGWINCH).
    fn claim(&self, rows: u16, cols: u16, pixel_width: u16, pixel_height: u16) {
        self.master()
            .resize(PtySize {
                rows,
                cols,
                pixel_width,
                pixel_height,
            })
            .unwrap();
    }

    /// The terminal is now `rows` x `cols` cells of `pixel_width` x
    /// `pixel_height` pixels in all, in one change (one SIGWINCH): a window
    /// resized as its font changes, or moved to a screen of another
    /// density.
    pub fn resize_in_pixels(&mut self, rows: u16, cols: u16, pixel_width: u16, pixel_height: u16) {
        let shared = Arc::clone(&self.shared);
        let mut screen = shared.0.lock().unwrap();
        screen.parser.set_size(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
        );
        self.claim(rows, cols, pixel_width, pixel_height);
        drop(screen);
        self.rows = rows;
        self.cols = cols;
    }

    /// The terminal's font changed size: the same rows and columns, now
    /// `pixel_width` x `pixel_height` pixels in all (tilework gets a
    /// SIGWINCH, as from a real terminal).
    pub fn claim_pixels(&mut self, pixel_width: u16, pixel_height: u16) {
        self.claim(self.rows, self.cols, pixel_width, pixel_height);
    }

    /// From now on, keeps the screen as each of tilework's frames leaves
    /// it (see [`Tilework::recorded_frames`]).
    pub fn record_frames(&self) {
        self.shared.0.lock().unwrap().frames = Some(Vec::new());
    }

    /// The screens recorded since [`Tilework::record_frames`], one per
    /// frame tilework wrote, oldest first.
    pub fn recorded_frames(&self) -> Vec<String> {
        self.shared
            .0
            .lock()
            .unwrap()
            .frames
            .clone()
            .unwrap_or_default()
    }

    /// The raw bytes tilework wrote most recently (up to 512 KiB).
    pub fn raw_tail(&self) -> Vec<u8> {
        self.shared.0.lock().unwrap().raw.clone()
    }

    /// An SGR mouse press+release at 0-based (col, row).
    pub fn click(&mut self, col: u16, row: u16) {
        self.send(format!(
            "\x1b[<0;{};{}M\x1b[<0;{};{}m",
            col + 1,
            row + 1,
            col + 1,
            row + 1
        ));
    }
}

impl Drop for Tilework {
    fn drop(&mut self) {
        // A workspace outlives its terminal: end the test's workspaces
        // (and their programs) cleanly, then the terminal's process.
        end_workspaces(&self.runtime_dir());
        let _ = self.child.kill();
    }
}

/// Ends every workspace whose socket is in `runtime_dir`/tilework, with
/// `tilework kill` (which waits until each is gone).
pub fn end_workspaces(runtime_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(runtime_dir.join("tilework")) else {
        return;
    };
    for entry in entries.flatten() {
        let _ = std::process::Command::new(binary())
            .arg("kill")
            .arg(entry.file_name())
            .env("XDG_RUNTIME_DIR", runtime_dir)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }
}

impl Tilework {
    /// `$XDG_RUNTIME_DIR` of this test's workspaces.
    pub fn runtime_dir(&self) -> PathBuf {
        self.dir.path().join("run")
    }

    /// Another terminal, `rows` x `cols`, running `tilework ARGS` beside
    /// this one: it reaches this one's workspaces and saved state.
    pub fn start_beside(&self, args: &[&str], rows: u16, cols: u16) -> Tilework {
        let runtime = self.runtime_dir();
        let state = self.dir.path().join("state");
        Tilework::start_with(
            args,
            rows,
            cols,
            &[
                ("XDG_RUNTIME_DIR", runtime.to_str().unwrap()),
                ("XDG_STATE_HOME", state.to_str().unwrap()),
            ],
        )
    }

    /// The workspace process: the terminal runs a client that started it
    /// (and only waits), so memory, threads and wake-ups are measured
    /// here. Waits until it exists.
    pub fn workspace_pid(&self) -> u32 {
        let parent = self.pid().unwrap();
        let mut found = None;
        wait_until("the workspace process to start", || {
            found = child_pids(parent).into_iter().find(|&p| {
                std::fs::read_to_string(format!("/proc/{p}/comm"))
                    .is_ok_and(|c| c.trim() == "tilework")
            });
            found.is_some()
        });
        found.unwrap()
    }
}

/// SIGKILLs `tw`'s workspace and empties the runtime directory, as a crash
/// and a reboot would leave them.
pub fn crash_and_reboot(tw: &mut Tilework) {
    let pid = tw.workspace_pid();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap()),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    wait_until("the workspace to die", || !alive(pid));
    tw.wait_exit();
    let runtime = tw.runtime_dir().join("tilework");
    // Sockets, and the directory of the `tmux` link panes find first on
    // their PATH (tmux_compat): a reboot leaves none of them.
    for entry in std::fs::read_dir(&runtime).unwrap().flatten() {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            std::fs::remove_dir_all(path).unwrap();
        } else {
            std::fs::remove_file(path).unwrap();
        }
    }
}

/// Live children of `parent`, from /proc/*/stat.
pub fn child_pids(parent: u32) -> Vec<u32> {
    unwaited_children(parent)
        .into_iter()
        .filter(|&p| alive(p))
        .collect()
}

/// Every child of `parent` not yet waited for: live or zombie.
pub fn unwaited_children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(parent)
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Helpers for the robustness tests (issue 5): processes, /proc, signals, the
// outer terminal's modes. Appended; nothing above depends on them.
// ---------------------------------------------------------------------------

/// Polls `cond` (something outside the screen: /proc, a file) until it holds;
/// panics after [`TIMEOUT`]. A passing test returns as soon as it holds.
pub fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `kB` field of /proc/PID/status (`VmRSS`, `VmHWM`, ...), in KiB.
pub fn proc_status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// Resident memory of `pid` in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    proc_status_kib(pid, "VmRSS")
}

/// Threads of `pid`.
pub fn thread_count(pid: u32) -> Option<u64> {
    proc_status_kib(pid, "Threads")
}

/// Open file descriptors of `pid`.
pub fn fd_count(pid: u32) -> Option<usize> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()
        .map(|d| d.count())
}

/// The process exists and is not a zombie. In a container PID 1 may never
/// reap orphans, so a killed grandchild can linger as a zombie: it holds no
/// resources and runs nothing, so it counts as gone.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Live pids whose full command line (arguments joined by spaces) matches
/// the regex `pattern`, as `pgrep -f` finds them, except `exclude` (tilework
/// itself, whose own argv carries every `-c` line). Read from /proc rather
/// than by running `pgrep`, so the tests need no procps.
pub fn pids_matching(pattern: &str, exclude: &[u32]) -> Vec<u32> {
    let pattern = regex::Regex::new(pattern).unwrap();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| !exclude.contains(p) && *p != std::process::id())
        .filter(|&p| command_line(p).is_some_and(|line| pattern.is_match(&line)))
        .filter(|&p| alive(p))
        .collect()
}

/// `/proc/PID/cmdline` with its NUL separators as spaces; `None` for a
/// process that is gone, a zombie or a kernel thread (an empty cmdline).
fn command_line(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let raw = raw.strip_suffix(b"\0").unwrap_or(&raw);
    if raw.is_empty() {
        return None;
    }
    let line: Vec<u8> = raw.iter().map(|&b| if b == 0 { b' ' } else { b }).collect();
    Some(String::from_utf8_lossy(&line).into_owned())
}

/// A `sleep` command with an argument no other process on the machine has,
/// and the [`pids_matching`] pattern that finds exactly it.
pub fn unique_sleep() -> (String, String) {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let secs = 500_000 + (std::process::id() % 10_000) * 40 + n;
    (format!("sleep {secs}"), format!("^sleep {secs}$"))
}

impl Tilework {
    /// Sends `sig` to tilework itself.
    pub fn signal(&self, sig: nix::sys::signal::Signal) {
        let pid = self.pid().unwrap();
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap()), sig)
            .unwrap();
    }

    /// The exit status if tilework has exited, without waiting.
    pub fn try_exit(&mut self) -> Option<portable_pty::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// Whether tilework's recent raw output contains `needle`.
    pub fn raw_contains(&self, needle: &[u8]) -> bool {
        let s = self.shared.0.lock().unwrap();
        s.raw.windows(needle.len()).any(|w| w == needle)
    }

    /// Waits until tilework's recent raw output contains `needle`.
    /// The terminal stops reading what tilework writes (`false`: reads
    /// again), without closing: a frozen ssh, a suspended laptop.
    pub fn stop_reading(&self, stop: bool) {
        let (lock, cvar) = &*self.shared;
        lock.lock().unwrap().not_reading = stop;
        cvar.notify_all();
    }

    /// Waits until the terminal has written `n` late answers
    /// ([`TerminalReplies::late`]).
    pub fn wait_for_late_answers(&self, n: usize) {
        let (lock, cvar) = &*self.shared;
        let deadline = Instant::now() + TIMEOUT;
        let mut s = lock.lock().unwrap();
        while s.late_answers < n {
            let now = Instant::now();
            assert!(now < deadline, "timed out waiting for the late answers");
            s = cvar.wait_timeout(s, deadline - now).unwrap().0;
        }
    }

    pub fn wait_for_raw(&self, needle: &[u8]) {
        let (lock, cvar) = &*self.shared;
        let deadline = Instant::now() + TIMEOUT;
        let mut s = lock.lock().unwrap();
        loop {
            if s.raw.windows(needle.len()).any(|w| w == needle) {
                return;
            }
            let now = Instant::now();
            assert!(
                now < deadline,
                "timed out waiting for {:?} in the raw output",
                String::from_utf8_lossy(needle)
            );
            s = cvar.wait_timeout(s, deadline - now).unwrap().0;
        }
    }

    /// The outer terminal's line discipline as `stty -a` prints it.
    pub fn outer_stty(&self) -> String {
        let tty = self.master().tty_name().unwrap();
        let out = std::process::Command::new("stty")
            .arg("-F")
            .arg(&tty)
            .arg("-a")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Whether the outer terminal is in raw mode (no canonical input, no echo).
    pub fn outer_is_raw(&self) -> bool {
        let stty = self.outer_stty();
        stty.split_whitespace().any(|w| w == "-icanon")
    }

    /// Panics unless the user's terminal is back as it was: main screen,
    /// cursor visible, no mouse reporting, no bracketed paste, cooked mode.
    pub fn assert_terminal_restored(&self) {
        self.with_screen(|s| {
            assert!(!s.alternate_screen(), "still on the alternate screen");
            assert!(!s.hide_cursor(), "cursor left hidden");
            assert_eq!(
                s.mouse_protocol_mode(),
                vt100::MouseProtocolMode::None,
                "mouse reporting left on"
            );
            assert!(!s.bracketed_paste(), "bracketed paste left on");
        });
        assert!(
            !self.outer_is_raw(),
            "terminal left in raw mode: {}",
            self.outer_stty()
        );
    }
}

impl Tilework {
    /// [`Tilework::wait_for`] with a longer limit, for the few tests that
    /// push tens of megabytes through a debug build on a loaded machine.
    pub fn wait_for_within(
        &self,
        what: &str,
        limit: Duration,
        mut cond: impl FnMut(&vt100::Screen) -> bool,
    ) {
        let (lock, cvar) = &*self.shared;
        let deadline = Instant::now() + limit;
        let mut s = lock.lock().unwrap();
        loop {
            if cond(s.parser.screen()) {
                return;
            }
            let now = Instant::now();
            if now >= deadline {
                panic!(
                    "timed out waiting for {what}; screen:\n{}",
                    s.parser.screen().contents()
                );
            }
            s = cvar.wait_timeout(s, deadline - now).unwrap().0;
        }
    }

    /// [`Tilework::wait_for`] while the panes' programs flood: however
    /// long it takes on a loaded machine, as long as they write (they
    /// block when tilework stops reading); fails after
    /// [`progress::STALL`] without a byte written.
    pub fn wait_for_while_programs_write(
        &self,
        what: &str,
        cond: impl FnMut(&vt100::Screen) -> bool,
    ) {
        let pid = self.workspace_pid();
        self.wait_for_while_progressing(
            what,
            progress::STALL,
            || progress::written_by_descendants(pid),
            cond,
        );
    }

    /// [`Tilework::wait_for`] for long work on a loaded machine: fails
    /// only once `cond` has not held and `progress` (what the work has
    /// done, read outside the screen: a program's count of what it wrote)
    /// has not changed for `stall`, however long the whole takes. A quiet
    /// machine that stops moving fails as soon as a fixed limit would.
    pub fn wait_for_while_progressing<P: PartialEq + std::fmt::Debug>(
        &self,
        what: &str,
        stall: Duration,
        mut progress: impl FnMut() -> P,
        mut cond: impl FnMut(&vt100::Screen) -> bool,
    ) {
        let (lock, cvar) = &*self.shared;
        let mut seen = progress();
        let mut moved = Instant::now();
        let mut looked = Instant::now();
        loop {
            let s = lock.lock().unwrap();
            if cond(s.parser.screen()) {
                return;
            }
            // Not on every wake-up by output: reading the measure (/proc
            // walks) would take CPU from the work it measures.
            if looked.elapsed() >= Duration::from_millis(100) {
                looked = Instant::now();
                let now = progress();
                if now != seen {
                    seen = now;
                    moved = Instant::now();
                }
            }
            let still = moved.elapsed();
            if still >= stall {
                panic!(
                    "no progress for {still:?} (at {seen:?}) waiting for {what}; screen:\n{}",
                    s.parser.screen().contents()
                );
            }
            // Woken by output; the progress is looked at every 100 ms.
            drop(cvar.wait_timeout(s, (stall - still).min(Duration::from_millis(100))));
        }
    }

    /// Sends a large input (a paste, a flood of keys). If tilework stops
    /// reading its terminal, a plain write would block the test forever (a
    /// write to a PTY whose reader died never returns either), so the bytes
    /// go through a non-blocking copy of the master and the test fails once
    /// no progress was possible for twice [`TIMEOUT`].
    pub fn send_guarded(&mut self, bytes: &[u8]) {
        use filedescriptor::{FileDescriptor, POLLOUT, pollfd};
        use std::os::fd::AsRawFd;
        let master_fd = self.master().as_raw_fd().unwrap();
        let mut out = FileDescriptor::dup(&master_fd).unwrap();
        // O_NONBLOCK is shared with `self.writer` (one open file): restored below.
        out.set_non_blocking(true).unwrap();
        let deadline = Instant::now() + TIMEOUT * 2;
        let mut rest = bytes;
        while !rest.is_empty() {
            match out.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    assert!(
                        !left.is_zero(),
                        "tilework stopped reading its terminal input ({} of {} bytes unsent)",
                        rest.len(),
                        bytes.len()
                    );
                    let mut pfd = [pollfd {
                        fd: out.as_raw_fd(),
                        events: POLLOUT,
                        revents: 0,
                    }];
                    let _ = filedescriptor::poll(&mut pfd, Some(left));
                }
                Err(err) => panic!("writing to tilework's terminal: {err}"),
            }
        }
        out.set_non_blocking(false).unwrap();
    }
}

/// Kills whatever still matches these [`pids_matching`] patterns when dropped, so
/// a failing test does not leave its hostile children running on the
/// machine.
pub struct Cleanup(pub Vec<String>);

impl Drop for Cleanup {
    fn drop(&mut self) {
        for pattern in &self.0 {
            for pid in pids_matching(pattern, &[]) {
                if let Ok(pid) = i32::try_from(pid) {
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
            }
        }
    }
}

/// Context switches (voluntary and not) of every thread of `pid` so far:
/// each is a wake-up.
pub fn context_switches(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("status")).ok())
        .flat_map(|status| {
            status
                .lines()
                .filter(|l| l.contains("ctxt_switches"))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .sum()
}

// ---------------------------------------------------------------------------
// Shared by the reflow, saving and garbage tests.
// ---------------------------------------------------------------------------

/// How many rows of the terminal show `needle`.
pub fn rows_with(screen: &vt100::Screen, needle: &str) -> usize {
    let cols = screen.size().1.get();
    screen.rows(0, cols).filter(|r| r.contains(needle)).count()
}

/// Whether one row of the terminal shows both `a` and `b`.
pub fn row_has_both(screen: &vt100::Screen, a: &str, b: &str) -> bool {
    let cols = screen.size().1.get();
    screen.rows(0, cols).any(|r| r.contains(a) && r.contains(b))
}

/// Has the shell in `tw` (a pane about 120 columns wide) draw a progress
/// bar for its width, redrawn 21 times with `\r` and `CSI K` (`RDY` once
/// it is done), then 29 lines `filler01`.. and `END`; waits for them. The
/// typed line spells none of what tests look for.
pub fn print_wide_progress_bar(tw: &mut Tilework) {
    tw.type_line(
        "d=download; b=; i=0; while [ $i -le 20 ]; do \
         printf \"\\r${d}ing [%-80s] %3d%% 1.2MB/s\\033[K\" \"$b\" $((i*5)); \
         b=\"$b====\"; i=$((i+1)); done; echo; echo R''DY; \
         seq -f 'fi''ller%02g' 1 29; echo E''ND",
    );
    tw.wait_for("the bar and the lines after it", |s| {
        rows_with(s, "filler29") == 1 && rows_with(s, "END") == 1
    });
}

/// A small deterministic generator (splitmix64): the garbage is the same on
/// every run, so a failure reproduces.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(n + 8);
        while out.len() < n {
            out.extend_from_slice(&self.next().to_le_bytes());
        }
        out.truncate(n);
        out
    }
}
