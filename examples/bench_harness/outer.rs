//! The outer terminal: a PTY whose master side we own, a program on the
//! slave side, and a thread that drains the output as fast as it can.
//!
//! The reader thread counts every byte and, when armed with a needle,
//! reports the instant the read that completed the needle returned: that is
//! when a real terminal would have the glyph in hand. Like a real terminal
//! it answers the device attributes query and the colour queries (OSC
//! 10/11/12), which a multiplexer may wait for at start.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use crate::contender::{Contender, TmuxServer};

/// Bytes per `read(2)` on the master: as large as the kernel ever hands out.
const READ_CHUNK: usize = 64 * 1024;

/// What to run in the outer terminal and how big the terminal is.
pub struct Launch {
    pub argv: Vec<String>,
    pub cols: u16,
    pub rows: u16,
    pub env: Vec<(String, String)>,
    pub cwd: Option<std::path::PathBuf>,
}

/// Variables removed from every child's environment: a nested tmux refuses
/// to start, and sizes or locales from the caller would skew the contenders.
const ENV_REMOVE: &[&str] = &[
    "TMUX",
    "TMUX_PANE",
    "TILEWORK",
    "COLUMNS",
    "LINES",
    "LC_ALL",
    "LC_CTYPE",
];

/// The environment every contender gets, whatever the caller's is.
pub fn base_env() -> Vec<(String, String)> {
    vec![
        ("TERM".into(), "xterm-256color".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("SHELL".into(), "/bin/sh".into()),
    ]
}

struct Watch {
    armed: AtomicBool,
    needle: Mutex<Option<Vec<u8>>>,
}

pub struct Outer {
    child: Box<dyn Child + Send + Sync>,
    // Kept alive: dropping the master hangs the terminal up.
    _master: Box<dyn MasterPty + Send>,
    /// Shared with the reader thread, which answers queries.
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    bytes: Arc<AtomicU64>,
    last_read: Arc<AtomicU64>,
    watch: Arc<Watch>,
    hits: Receiver<Instant>,
    reader_done: Receiver<()>,
    _reader: JoinHandle<()>,
}

impl Outer {
    pub fn spawn(launch: &Launch) -> Result<Self> {
        Self::spawn_with(launch, None)
    }

    /// Like `spawn`, armed for `needle` before the program can write a
    /// byte: for timing how soon something first appears.
    pub fn spawn_watching(launch: &Launch, needle: &[u8]) -> Result<Self> {
        Self::spawn_with(launch, Some(needle))
    }

    fn spawn_with(launch: &Launch, needle: Option<&[u8]>) -> Result<Self> {
        let Some((program, args)) = launch.argv.split_first() else {
            bail!("nothing to run in the outer terminal");
        };
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: launch.rows,
                cols: launch.cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .context("opening the outer PTY")?;
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        for var in ENV_REMOVE {
            cmd.env_remove(var);
        }
        for (k, v) in &launch.env {
            cmd.env(k, v);
        }
        if let Some(dir) = &launch.cwd {
            cmd.cwd(dir);
        }
        let child = pair
            .slave
            .spawn_command(cmd)
            .with_context(|| format!("starting {}", launch.argv.join(" ")))?;
        // Only the child holds the slave: its exit (and its children's) ends the stream.
        drop(pair.slave);
        let mut reader = pair
            .master
            .try_clone_reader()
            .context("cloning the PTY reader")?;
        let writer = Arc::new(Mutex::new(
            pair.master.take_writer().context("taking the PTY writer")?,
        ));

        let bytes = Arc::new(AtomicU64::new(0));
        let last_read = Arc::new(AtomicU64::new(0));
        let watch = Arc::new(Watch {
            armed: AtomicBool::new(needle.is_some()),
            needle: Mutex::new(needle.map(<[u8]>::to_vec)),
        });
        let (hits_tx, hits) = unbounded();
        let (done_tx, reader_done) = bounded(1);
        let thread_bytes = Arc::clone(&bytes);
        let thread_last = Arc::clone(&last_read);
        let thread_watch = Arc::clone(&watch);
        let thread_writer = Arc::clone(&writer);
        let reader_thread = std::thread::Builder::new()
            .name("outer-reader".into())
            .spawn(move || {
                drain(
                    &mut *reader,
                    &thread_bytes,
                    &thread_last,
                    &thread_watch,
                    &hits_tx,
                    &thread_writer,
                );
                let _ = done_tx.send(());
            })
            .context("starting the reader thread")?;
        Ok(Self {
            child,
            _master: pair.master,
            writer,
            bytes,
            last_read,
            watch,
            hits,
            reader_done,
            _reader: reader_thread,
        })
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    /// Bytes the program has written to the terminal so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Wall-clock time (seconds since the epoch) of the last read with
    /// bytes in it, comparable with `date +%s.%N` in a pane; 0 before any.
    pub fn last_output_epoch(&self) -> f64 {
        self.last_read.load(Ordering::Relaxed) as f64 / 1e9
    }

    /// Types `bytes` (one write, like a terminal sending one key).
    pub fn type_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write_all(bytes)
            .context("writing to the outer PTY")?;
        Ok(())
    }

    /// The next read that contains `needle` reports its arrival instant.
    pub fn arm(&self, needle: &[u8]) {
        while self.hits.try_recv().is_ok() {}
        *self
            .watch
            .needle
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(needle.to_vec());
        self.watch.armed.store(true, Ordering::Release);
    }

    pub fn disarm(&self) {
        self.watch.armed.store(false, Ordering::Release);
        *self
            .watch
            .needle
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// When the armed needle arrived, or `None` after `timeout`.
    pub fn wait_hit(&self, timeout: Duration) -> Option<Instant> {
        self.hits.recv_timeout(timeout).ok()
    }

    /// Whether the program has exited (reaping it if so).
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends the contender the way a user would have it go (tilework:
    /// SIGTERM to the workspace process, the client's child, which ends
    /// it and its client; a SIGTERM to the client only detaches, and left
    /// a workspace running per run, each answering every later start's
    /// look for a free name; tmux: `kill-server`; a bare program: SIGKILL,
    /// as an interactive shell ignores SIGTERM) and waits for it.
    pub fn shut_down(&mut self, contender: Contender, tmux: Option<TmuxServer>) {
        let signal = |pid: Option<u32>, sig| {
            if let Some(pid) = pid {
                let _ = kill(Pid::from_raw(pid as i32), sig);
            }
        };
        match contender {
            Contender::Bare => signal(self.pid(), Signal::SIGKILL),
            Contender::Tilework => {
                let workspace = self
                    .pid()
                    .and_then(|client| crate::procfs::child_named(client, "tilework"));
                signal(workspace.or(self.pid()), Signal::SIGTERM);
            }
            Contender::Tmux => {
                if let Some(server) = &tmux {
                    server.kill();
                }
            }
        }
        self.wait_exit(Duration::from_secs(5));
    }

    /// Waits up to `timeout` for the program to exit; kills it after that.
    /// Returns whether it exited by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if self.exited() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }

    /// Waits up to `timeout` for the last byte: every holder of the slave
    /// side has closed it.
    pub fn wait_drained(&self, timeout: Duration) -> bool {
        self.reader_done.recv_timeout(timeout).is_ok()
    }
}

impl Drop for Outer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn drain(
    reader: &mut dyn Read,
    bytes: &AtomicU64,
    last_read: &AtomicU64,
    watch: &Watch,
    hits: &Sender<Instant>,
    writer: &Mutex<Box<dyn Write + Send>>,
) {
    let mut buf = vec![0u8; READ_CHUNK];
    // The last bytes of the previous read: a needle may straddle two reads.
    let mut tail: Vec<u8> = Vec::with_capacity(8);
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // EIO: the slave side is closed everywhere.
            Err(_) => break,
        };
        let now = Instant::now();
        let chunk = &buf[..n];
        bytes.fetch_add(n as u64, Ordering::Relaxed);
        if let Ok(epoch) = SystemTime::now().duration_since(UNIX_EPOCH) {
            last_read.store(epoch.as_nanos() as u64, Ordering::Relaxed);
        }
        if watch.armed.load(Ordering::Acquire) {
            let mut needle = watch.needle.lock().unwrap_or_else(PoisonError::into_inner);
            if needle
                .as_deref()
                .is_some_and(|nd| contains_across(&tail, chunk, nd))
            {
                *needle = None;
                watch.armed.store(false, Ordering::Release);
                let _ = hits.send(now);
            }
        }
        answer_queries(chunk, writer);
        tail.extend_from_slice(&chunk[chunk.len() - chunk.len().min(7)..]);
        if tail.len() > 7 {
            tail.drain(..tail.len() - 7);
        }
    }
}

/// Queries a terminal answers, and its answers (a VT220-class terminal
/// with sixel, white text on black): a picture in a pane is drawn to it,
/// so what drawing it costs is measured.
const ANSWERS: &[(&[u8], &[u8])] = &[
    (b"\x1b[c", b"\x1b[?62;4;22c"),
    (b"\x1b[0c", b"\x1b[?62;4;22c"),
    (b"\x1b]10;?", b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"),
    (b"\x1b]11;?", b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
    (b"\x1b]12;?", b"\x1b]12;rgb:ffff/ffff/ffff\x1b\\"),
];

/// Answers the queries in `chunk` (one split across two reads goes
/// unanswered), in the order of the table: the device attributes answer,
/// which programs use to fence their queries, is written last.
fn answer_queries(chunk: &[u8], writer: &Mutex<Box<dyn Write + Send>>) {
    if !chunk.contains(&0x1b) {
        return;
    }
    let mut reply = Vec::new();
    for (query, answer) in ANSWERS.iter().rev() {
        if find(chunk, query) {
            reply.extend_from_slice(answer);
        }
    }
    if !reply.is_empty() {
        let mut w = writer.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = w.write_all(&reply).and_then(|()| w.flush());
    }
}

/// Whether `needle` occurs in `chunk` or across the end of `tail` and the
/// start of `chunk`.
fn contains_across(tail: &[u8], chunk: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    if find(chunk, needle) {
        return true;
    }
    if tail.is_empty() || needle.len() < 2 {
        return false;
    }
    let head = &chunk[..chunk.len().min(needle.len() - 1)];
    let mut seam = Vec::with_capacity(tail.len() + head.len());
    seam.extend_from_slice(tail);
    seam.extend_from_slice(head);
    find(&seam, needle)
}

fn find(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut from = 0;
    while let Some(i) = hay[from..].iter().position(|&b| b == first) {
        let at = from + i;
        if hay[at + 1..].starts_with(rest) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Waits up to `timeout` for `path` to exist.
pub fn wait_for_file(path: &Path, timeout: Duration) -> bool {
    let end = Instant::now() + timeout;
    loop {
        if path.exists() {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_needles_inside_and_across_reads() {
        assert!(contains_across(b"", b"ab\xce\xb1cd", b"\xce\xb1"));
        assert!(contains_across(b"xx\xce", b"\xb1cd", b"\xce\xb1"));
        assert!(!contains_across(b"xx\xce", b"\xb2cd", b"\xce\xb1"));
        assert!(!contains_across(b"", b"\xce", b"\xce\xb1"));
    }
}
