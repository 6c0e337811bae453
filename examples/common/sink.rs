//! What an experiment varies: the writer under ratatui's backend.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;

use tilework::terminal::output::{FrameWriter, WriteCounters};

/// A writer that knows where frames begin and end, like the app's
/// [`FrameWriter`]: its `flush` must be a no-op (ratatui flushes mid-frame
/// from `execute!`), and `end_frame` pushes the frame to the OS.
pub trait FrameOut: Write {
    /// Called before each draw; only the sync experiment needs it.
    fn begin_frame(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Called once after each draw: the frame's real flush.
    fn end_frame(&mut self) -> io::Result<()>;

    /// Counts the `write(2)` calls that reach the file descriptor.
    fn counters(&self) -> Arc<WriteCounters>;
}

impl FrameOut for FrameWriter {
    fn end_frame(&mut self) -> io::Result<()> {
        FrameWriter::end_frame(self)
    }

    fn counters(&self) -> Arc<WriteCounters> {
        FrameWriter::counters(self)
    }
}

/// One of the writers an experiment compares.
pub trait Variant {
    type Out: FrameOut;

    /// The name shown in the status line and the table.
    fn label(&self) -> String;

    /// Output to the user's terminal, opened the way the real app opens it.
    fn open_terminal(&self) -> io::Result<Self::Out>;

    /// Output to any file: the PTY slave in headless runs.
    fn wrap_file(&self, file: File) -> Self::Out;
}
