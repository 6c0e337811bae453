//! Runs the real `tilework` binary in a PTY and reads its output back
//! through a vt100 parser acting as the user's terminal. Tests wait for
//! conditions on that screen; they never sleep for a fixed time and never
//! assert on wall-clock durations.

#![allow(dead_code, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
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
}

pub struct Tilework {
    shared: Arc<(Mutex<Shared>, Condvar)>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    pub dir: TempDir,
    pub rows: u16,
    pub cols: u16,
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

impl Tilework {
    /// Starts tilework with `args` in a `rows` x `cols` terminal. The shell
    /// is `/bin/sh` with a `$ ` prompt and the config dir is empty, so every
    /// test sees the same defaults whatever the machine's user has.
    pub fn start(args: &[&str], rows: u16, cols: u16) -> Self {
        Self::start_with(args, rows, cols, &[])
    }

    pub fn start_with(args: &[&str], rows: u16, cols: u16, env: &[(&str, &str)]) -> Self {
        let dir = TempDir::new("run");
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(binary());
        cmd.args(args);
        cmd.cwd(dir.path());
        cmd.env("TERM", "xterm-256color");
        cmd.env("SHELL", "/bin/sh");
        cmd.env("PS1", "$ ");
        cmd.env("ENV", "");
        cmd.env("HOME", dir.path());
        cmd.env("XDG_CONFIG_HOME", dir.path().join("config"));
        cmd.env("XDG_STATE_HOME", dir.path().join("state"));
        cmd.env_remove("TMUX");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let shared = Arc::new((
            Mutex::new(Shared {
                parser: vt100::Parser::new(
                    NonZeroU16::new(rows).unwrap(),
                    NonZeroU16::new(cols).unwrap(),
                    0,
                ),
                raw: Vec::new(),
                eof: false,
            }),
            Condvar::new(),
        ));
        let reader_shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 65536];
            loop {
                let n = reader.read(&mut buf).unwrap_or(0);
                let (lock, cvar) = &*reader_shared;
                let mut s = lock.lock().unwrap();
                if n == 0 {
                    s.eof = true;
                    cvar.notify_all();
                    break;
                }
                s.parser.process(&buf[..n]);
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
            writer,
            child,
            master: pty.master,
            dir,
            rows,
            cols,
        }
    }

    pub fn send(&mut self, bytes: impl AsRef<[u8]>) {
        self.writer.write_all(bytes.as_ref()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Types a line into the focused pane.
    pub fn type_line(&mut self, line: &str) {
        self.send(format!("{line}\r"));
    }

    /// Waits until `cond` holds on the screen; panics with the screen if not.
    pub fn wait_for(&self, what: &str, mut cond: impl FnMut(&vt100::Screen) -> bool) {
        let (lock, cvar) = &*self.shared;
        let deadline = Instant::now() + TIMEOUT;
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

    /// Waits for tilework to exit and for its output to end.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
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

    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.shared.0.lock().unwrap().parser.set_size(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
        );
        self.rows = rows;
        self.cols = cols;
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
        let _ = self.child.kill();
    }
}
