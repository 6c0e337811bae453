//! Synchronized output (mode 2026, `CSI ? 2026 h` … `CSI ? 2026 l`) around
//! each frame, on and off, through the app's default writer.
//!
//! Expect the headless table to show two nearly identical rows: the
//! brackets add 16 bytes to a frame of hundreds of KB and no `write(2)`.
//! What they change is visual: without them a terminal may paint a frame
//! it has only partly read (tearing: a band of the new frame over the old,
//! even though the frame left in one `write(2)`, because the terminal reads
//! the PTY in chunks). A headless run has no screen to tear, so it cannot
//! show that; run it interactively in a terminal that supports mode 2026
//! (kitty, WezTerm, foot, Alacritty ≥ 0.13, iTerm2, …) and toggle with space.
//!
//! ```text
//! cargo run --release --example sync-output                 # space toggles
//! cargo run --release --example sync-output -- --headless --seconds 2
//! ```

#[path = "common/mod.rs"]
mod common;

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;

use tilework::terminal::output::{FrameWriter, SYNC_BEGIN, SYNC_END, WriteCounters, WriterKind};

#[derive(Clone, Copy)]
enum Mode {
    Plain,
    Synchronized,
}

/// What the app renders through; with it a frame is one `write(2)` either
/// way, so the only difference between the rows is the brackets.
const WRITER: WriterKind = WriterKind::BufWriterRaw;

impl common::Variant for Mode {
    type Out = Bracketed;

    fn label(&self) -> String {
        match self {
            Mode::Plain => "no sync (plain frames)".to_string(),
            Mode::Synchronized => "sync (CSI ? 2026 h/l)".to_string(),
        }
    }

    fn open_terminal(&self) -> io::Result<Bracketed> {
        Ok(Bracketed {
            inner: FrameWriter::open(WRITER)?,
            sync: matches!(self, Mode::Synchronized),
        })
    }

    fn wrap_file(&self, file: File) -> Bracketed {
        Bracketed {
            inner: FrameWriter::from_file(file, WRITER),
            sync: matches!(self, Mode::Synchronized),
        }
    }
}

/// The app's `FrameWriter`, with `SYNC_BEGIN` before and `SYNC_END` after
/// each frame when `sync` is on, exactly where the app's render loop puts
/// them: inside the buffered frame, so they cost no extra syscall.
struct Bracketed {
    inner: FrameWriter,
    sync: bool,
}

impl Write for Bracketed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    /// `FrameWriter::flush` is already a no-op; forwarding keeps it so.
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl common::FrameOut for Bracketed {
    fn begin_frame(&mut self) -> io::Result<()> {
        if self.sync {
            self.inner.write_all(SYNC_BEGIN)?;
        }
        Ok(())
    }

    fn end_frame(&mut self) -> io::Result<()> {
        if self.sync {
            self.inner.write_all(SYNC_END)?;
        }
        self.inner.end_frame()
    }

    fn counters(&self) -> Arc<WriteCounters> {
        self.inner.counters()
    }
}

fn main() -> anyhow::Result<()> {
    common::run(&common::Experiment {
        name: "sync-output",
        about: "Draws a full-screen animation with and without synchronized-output \
                brackets (mode 2026) around each frame",
        column: "mode",
        variants: &[Mode::Plain, Mode::Synchronized],
    })
}
