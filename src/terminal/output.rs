//! The stream every frame is written to, and the counters behind `--fps`.
//!
//! The default is a large `BufWriter` over an owned duplicate of fd 1, so a
//! whole frame leaves in one `write(2)`. The other kinds exist to reproduce
//! the stdout-vs-stderr write-up inside the real workspace: they are the
//! std types the post measured, wrapped around the same counting file so
//! the overlay reports the real number of `write(2)` calls.
//!
//! ratatui flushes on its own (cursor show/hide/move use `execute!`), which
//! would split a frame into several writes. [`FrameWriter::flush`] is
//! therefore a no-op and the render loop calls [`FrameWriter::end_frame`]
//! exactly once after each draw.
//!
//! The default writer never blocks the loop ([`FrameQueue`]): a terminal
//! that stops reading without closing (a frozen ssh, a suspended laptop,
//! XOFF) must not stop the workspace. Its descriptor is opened anew, non-
//! blocking (not the one it shares with the client process and the
//! user's shell), each frame goes out whole or not at all, and while the
//! terminal has not taken the last frame's end, new frames are dropped;
//! once it has, the next frame is drawn whole (tmux's way).

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, LineWriter, Write};
use std::os::fd::AsFd;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Larger than the worst frame we measured (484 KB at 300x80), so a frame
/// never splits across two writes.
pub const FRAME_BUFFER_CAPACITY: usize = 1024 * 1024;

/// Begin/end synchronized update (mode 2026): terminals that know it never
/// show half a frame; others ignore it.
pub const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
pub const SYNC_END: &[u8] = b"\x1b[?2026l";

/// Counts the `write(2)` calls and bytes that reach the OS.
#[derive(Debug, Default)]
pub struct WriteCounters {
    writes: AtomicU64,
    bytes: AtomicU64,
    /// Set when the writer is abandoned: what it still holds never reaches
    /// the terminal (see [`FrameWriter::abandon`]).
    discarding: AtomicBool,
}

impl WriteCounters {
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

/// A writer that counts every call that reaches it. Placed directly around
/// the `File`, each `write` call is one `write(2)` syscall.
pub struct Counting<W> {
    inner: W,
    counters: Arc<WriteCounters>,
}

impl<W: Write> Counting<W> {
    pub fn new(inner: W, counters: Arc<WriteCounters>) -> Self {
        Self { inner, counters }
    }
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.counters.discarding.load(Ordering::Relaxed) {
            return Ok(buf.len());
        }
        let n = self.inner.write(buf)?;
        self.counters.writes.fetch_add(1, Ordering::Relaxed);
        self.counters.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Which buffering strategy sits between ratatui and the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WriterKind {
    /// `BufWriter` (1 MiB) over an owned duplicate of fd 1: one write per frame.
    #[default]
    BufWriterRaw,
    /// What `std::io::stdout()` is: a `LineWriter` over fd 1 (a write per line).
    Stdout,
    /// What `std::io::stderr()` is: unbuffered fd 2 (a write per escape sequence).
    Stderr,
    /// `BufWriter` over a `LineWriter` over fd 1, like `BufWriter::new(stdout())`.
    BufWriterStdout,
    /// `LineWriter` over fd 2.
    LineWriterStderr,
    /// Unbuffered fd 1.
    Raw,
}

impl WriterKind {
    pub const ALL: [WriterKind; 6] = [
        WriterKind::BufWriterRaw,
        WriterKind::Stdout,
        WriterKind::Stderr,
        WriterKind::BufWriterStdout,
        WriterKind::LineWriterStderr,
        WriterKind::Raw,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WriterKind::BufWriterRaw => "bufwriter-raw",
            WriterKind::Stdout => "stdout",
            WriterKind::Stderr => "stderr",
            WriterKind::BufWriterStdout => "bufwriter-stdout",
            WriterKind::LineWriterStderr => "linewriter-stderr",
            WriterKind::Raw => "raw",
        }
    }

    /// Which file descriptor this kind writes to.
    pub fn uses_stderr(self) -> bool {
        matches!(self, WriterKind::Stderr | WriterKind::LineWriterStderr)
    }
}

impl fmt::Display for WriterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WriterKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WriterKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = WriterKind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown writer `{s}` (one of: {})", names.join(", "))
            })
    }
}

enum Sink {
    Frames(FrameQueue),
    Buffered(BufWriter<Counting<File>>),
    Line(LineWriter<Counting<File>>),
    BufferedLine(BufWriter<LineWriter<Counting<File>>>),
    Unbuffered(Counting<File>),
}

/// The writer behind ratatui's backend. See the module docs for why `flush`
/// does nothing.
pub struct FrameWriter {
    sink: Sink,
    counters: Arc<WriteCounters>,
}

impl FrameWriter {
    /// Opens the terminal output as `kind`, on an owned duplicate of fd 1
    /// (or fd 2): no `unsafe`, and dropping it does not close the real fd.
    pub fn open(kind: WriterKind) -> io::Result<Self> {
        if kind.uses_stderr() {
            Self::open_on(io::stderr().as_fd(), kind)
        } else {
            Self::open_on(io::stdout().as_fd(), kind)
        }
    }

    /// Opens `fd`, a terminal's output, as `kind`. The frame queue gets a
    /// file description of its own, non-blocking, so a terminal that stops
    /// reading never blocks the loop (nor changes the mode of the
    /// descriptor its shell shares).
    pub fn open_on(fd: std::os::fd::BorrowedFd<'_>, kind: WriterKind) -> io::Result<Self> {
        if kind == WriterKind::BufWriterRaw {
            match crate::os::reopen_nonblocking(fd) {
                Ok(file) => return Ok(Self::queued(file)),
                // Not a terminal, pipe or file: written as before.
                Err(err) => tracing::warn!("frames may block: reopening the output: {err}"),
            }
        }
        Ok(Self::from_file(File::from(fd.try_clone_to_owned()?), kind))
    }

    /// Frames queued whole on `file`, which must be non-blocking (see
    /// [`FrameQueue`]).
    pub fn queued(file: File) -> Self {
        let counters = Arc::new(WriteCounters::default());
        Self {
            sink: Sink::Frames(FrameQueue::new(Counting::new(file, Arc::clone(&counters)))),
            counters,
        }
    }

    /// While the terminal has not taken all of the last frame: its
    /// descriptor, to wait until it can take more.
    pub fn unsent_fd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        match &self.sink {
            Sink::Frames(queue) if !queue.unsent.is_empty() => Some(queue.file.inner.as_fd()),
            _ => None,
        }
    }

    /// Sends what the terminal can take of the last frame. True when it
    /// took everything after frames were dropped: the next frame must be
    /// drawn whole.
    pub fn send_unsent(&mut self) -> io::Result<bool> {
        match &mut self.sink {
            Sink::Frames(queue) => queue.send_unsent(),
            _ => Ok(false),
        }
    }

    /// Wraps any file (a PTY in the examples, `/dev/null` in benches).
    pub fn from_file(file: File, kind: WriterKind) -> Self {
        let counters = Arc::new(WriteCounters::default());
        let counting = Counting::new(file, Arc::clone(&counters));
        let sink = match kind {
            WriterKind::BufWriterRaw => {
                Sink::Buffered(BufWriter::with_capacity(FRAME_BUFFER_CAPACITY, counting))
            }
            WriterKind::Stdout | WriterKind::LineWriterStderr => {
                Sink::Line(LineWriter::new(counting))
            }
            WriterKind::BufWriterStdout => {
                Sink::BufferedLine(BufWriter::new(LineWriter::new(counting)))
            }
            WriterKind::Stderr | WriterKind::Raw => Sink::Unbuffered(counting),
        };
        Self { sink, counters }
    }

    pub fn counters(&self) -> Arc<WriteCounters> {
        Arc::clone(&self.counters)
    }

    /// The terminal this writes to is let go (detach, attach): bytes of a
    /// frame not yet ended are dropped instead of reaching it when the
    /// writer is dropped (a buffered writer flushes on drop, and a clear
    /// written after the terminal was restored would wipe the shell's
    /// screen).
    pub fn abandon(&self) {
        self.counters.discarding.store(true, Ordering::Relaxed);
    }

    /// Pushes everything buffered for this frame to the terminal.
    pub fn end_frame(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Frames(queue) => queue.end_frame(),
            Sink::Buffered(w) => w.flush(),
            Sink::Line(w) => w.flush(),
            Sink::BufferedLine(w) => w.flush(),
            Sink::Unbuffered(w) => w.flush(),
        }
    }
}

impl Write for FrameWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Frames(queue) => {
                queue.frame.extend_from_slice(buf);
                Ok(buf.len())
            }
            Sink::Buffered(w) => w.write(buf),
            Sink::Line(w) => w.write(buf),
            Sink::BufferedLine(w) => w.write(buf),
            Sink::Unbuffered(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Frames(queue) => {
                queue.frame.extend_from_slice(buf);
                Ok(())
            }
            Sink::Buffered(w) => w.write_all(buf),
            Sink::Line(w) => w.write_all(buf),
            Sink::BufferedLine(w) => w.write_all(buf),
            Sink::Unbuffered(w) => w.write_all(buf),
        }
    }

    /// Deliberately empty: ratatui flushes mid-frame; the loop ends frames.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Frames to a terminal that may stop reading: see the module's doc.
pub struct FrameQueue {
    /// Non-blocking.
    file: Counting<File>,
    /// The frame being drawn.
    frame: Vec<u8>,
    /// The end of the last frame sent that the terminal has not taken yet:
    /// at most one frame, so what waits for a stalled terminal is bounded.
    unsent: Vec<u8>,
    /// Frames dropped since the terminal stopped taking them.
    dropped: u64,
    /// The terminal took everything again after frames were dropped, in
    /// the middle of ending a frame: the next [`Self::send_unsent`] says
    /// to draw whole.
    owe_redraw: bool,
}

impl FrameQueue {
    fn new(file: Counting<File>) -> Self {
        Self {
            file,
            frame: Vec::with_capacity(FRAME_BUFFER_CAPACITY),
            unsent: Vec::new(),
            dropped: 0,
            owe_redraw: false,
        }
    }

    /// Sends the frame drawn, in one `write(2)` when the terminal takes it
    /// all; drops it while the last one is not all taken.
    fn end_frame(&mut self) -> io::Result<()> {
        if self.send_unsent()? {
            self.owe_redraw = true;
        }
        if !self.unsent.is_empty() {
            if self.dropped == 0 {
                tracing::warn!("the terminal is not reading: frames are dropped until it does");
            }
            self.dropped += 1;
            self.frame.clear();
            return Ok(());
        }
        let sent = write_some(&mut self.file, &self.frame)?;
        self.unsent.extend_from_slice(&self.frame[sent..]);
        self.frame.clear();
        Ok(())
    }

    /// See [`FrameWriter::send_unsent`].
    fn send_unsent(&mut self) -> io::Result<bool> {
        while !self.unsent.is_empty() {
            let sent = write_some(&mut self.file, &self.unsent)?;
            if sent == 0 {
                return Ok(false);
            }
            self.unsent.drain(..sent);
        }
        if self.dropped > 0 {
            tracing::info!(
                dropped = self.dropped,
                "the terminal reads again: drawing it whole"
            );
            self.dropped = 0;
            return Ok(true);
        }
        Ok(false)
    }
}

/// Writes what the non-blocking `file` takes of `bytes` now (0 when it
/// takes nothing: the terminal is not reading).
fn write_some(file: &mut Counting<File>, bytes: &[u8]) -> io::Result<usize> {
    if bytes.is_empty() {
        return Ok(0);
    }
    loop {
        match file.write(bytes) {
            Ok(n) => return Ok(n),
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => return Ok(0),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::{Read, Seek};

    fn temp_file() -> File {
        let path = std::env::temp_dir().join(format!(
            "tilework-output-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        file
    }

    fn frame_of_lines() -> Vec<u8> {
        (0..50)
            .flat_map(|i| format!("\x1b[{i};1Hline {i}\n").into_bytes())
            .collect()
    }

    fn writes_for(kind: WriterKind) -> (u64, Vec<u8>) {
        let file = temp_file();
        let mut reader = file.try_clone().unwrap();
        let mut w = FrameWriter::from_file(file, kind);
        let frame = frame_of_lines();
        for chunk in frame.chunks(7) {
            w.write_all(chunk).unwrap();
            w.flush().unwrap();
        }
        w.end_frame().unwrap();
        let mut out = Vec::new();
        reader.rewind().unwrap();
        reader.read_to_end(&mut out).unwrap();
        (w.counters().writes(), out)
    }

    #[test]
    fn bufwriter_raw_sends_a_frame_in_one_write_despite_mid_frame_flushes() {
        let (writes, out) = writes_for(WriterKind::BufWriterRaw);
        assert_eq!(writes, 1);
        assert_eq!(out, frame_of_lines());
    }

    #[test]
    fn line_buffered_writes_once_per_line() {
        let (writes, out) = writes_for(WriterKind::Stdout);
        assert_eq!(writes, 50);
        assert_eq!(out, frame_of_lines());
    }

    #[test]
    fn unbuffered_writes_every_call() {
        let (writes, out) = writes_for(WriterKind::Raw);
        assert_eq!(writes as usize, frame_of_lines().len().div_ceil(7));
        assert_eq!(out, frame_of_lines());
    }

    #[test]
    fn an_abandoned_writer_drops_what_it_holds_instead_of_flushing_it() {
        // (Unbuffered kinds hold nothing: their bytes left at once.)
        let buffered = WriterKind::ALL
            .into_iter()
            .filter(|k| !matches!(k, WriterKind::Stderr | WriterKind::Raw));
        for kind in buffered {
            let mut file = temp_file();
            let mut w = FrameWriter::from_file(file.try_clone().unwrap(), kind);
            w.write_all(b"sent").unwrap();
            w.end_frame().unwrap();
            w.write_all(b"\x1b[1;1H\x1b[J").unwrap();
            w.abandon();
            drop(w);
            let mut out = Vec::new();
            file.rewind().unwrap();
            file.read_to_end(&mut out).unwrap();
            assert_eq!(out, b"sent", "{kind}");
        }
    }

    /// A pipe nobody reads stands for a terminal that stopped reading.
    #[test]
    fn a_terminal_that_stops_reading_gets_whole_frames_or_none_and_never_blocks() {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let writer = File::from(std::os::fd::OwnedFd::from(writer));
        rustix::fs::fcntl_setfl(&writer, rustix::fs::OFlags::NONBLOCK).unwrap();
        let mut w = FrameWriter::queued(writer);
        // Frames far larger than the pipe holds: the first is cut, the
        // next ones are dropped, nothing blocks.
        let frame = |tag: u8| vec![tag; 256 * 1024];
        for tag in b"abc" {
            w.write_all(&frame(*tag)).unwrap();
            w.end_frame().unwrap();
        }
        assert!(w.unsent_fd().is_some(), "the rest of the first frame waits");
        assert!(!w.send_unsent().unwrap(), "nothing read yet");
        // The terminal reads again: the first frame arrives whole, then it
        // is told to draw the next one whole.
        let mut got = Vec::new();
        let mut buf = vec![0; 64 * 1024];
        let mut redraw = false;
        while w.unsent_fd().is_some() {
            let n = reader.read(&mut buf).unwrap();
            got.extend_from_slice(&buf[..n]);
            redraw |= w.send_unsent().unwrap();
        }
        assert!(redraw);
        drop(w);
        reader.read_to_end(&mut got).unwrap();
        assert_eq!(got, frame(b'a'), "only the first frame, whole");
    }

    #[test]
    fn counters_count_bytes() {
        let file = temp_file();
        let mut w = FrameWriter::from_file(file, WriterKind::BufWriterRaw);
        w.write_all(b"hello").unwrap();
        w.end_frame().unwrap();
        assert_eq!(w.counters().bytes(), 5);
    }

    #[test]
    fn writer_kinds_round_trip_through_their_names() {
        for kind in WriterKind::ALL {
            assert_eq!(kind.name().parse::<WriterKind>(), Ok(kind));
        }
        assert!("tty".parse::<WriterKind>().is_err());
    }
}
