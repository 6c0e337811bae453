//! What the loop needs of the backend a frame goes to, beyond ratatui's
//! `Backend`: bytes around the cells (the synchronized-update brackets, the
//! outbox), exactly one flush per frame, and the write counters behind
//! `--fps`. The real one is a [`FrameBackend`] over a [`FrameWriter`]; tests drive
//! the whole loop in-process over ratatui's `TestBackend`.

use std::io::{self, Write};
use std::os::fd::BorrowedFd;
use std::sync::Arc;

use ratatui::backend::{Backend, TestBackend};

use super::frame_backend::FrameBackend;

use super::output::{FrameWriter, WriteCounters, WriterKind};

pub trait FrameSink: Backend<Error: std::error::Error + Send + Sync + 'static> {
    /// A sink writing to the terminal on `output`, as `kind` says.
    fn open_on(output: BorrowedFd<'_>, kind: WriterKind) -> io::Result<Self>
    where
        Self: Sized;
    /// Writes bytes that are not cells (escape sequences of our own).
    fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Sends the frame to the terminal: the one `write(2)` of the frame.
    fn end_frame(&mut self) -> io::Result<()>;
    /// Bytes and `write(2)` calls so far, where they are counted.
    fn counters(&self) -> Option<Arc<WriteCounters>>;
    /// While the terminal has not taken all of the last frame (it stopped
    /// reading): its descriptor, to wait until it takes more.
    fn unsent_fd(&self) -> Option<BorrowedFd<'_>>;
    /// Sends what the terminal takes now of the last frame; true when it
    /// took all of it after frames were dropped (draw the next one whole).
    fn send_unsent(&mut self) -> io::Result<bool>;
}

impl FrameSink for FrameBackend<FrameWriter> {
    fn open_on(output: BorrowedFd<'_>, kind: WriterKind) -> io::Result<Self> {
        Ok(FrameBackend::new(FrameWriter::open_on(output, kind)?))
    }

    fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.writer_mut().write_all(bytes)
    }

    fn end_frame(&mut self) -> io::Result<()> {
        self.writer_mut().end_frame()
    }

    fn counters(&self) -> Option<Arc<WriteCounters>> {
        Some(self.writer().counters())
    }

    fn unsent_fd(&self) -> Option<BorrowedFd<'_>> {
        self.writer().unsent_fd()
    }

    fn send_unsent(&mut self) -> io::Result<bool> {
        self.writer_mut().send_unsent()
    }
}

/// The cells are what a test reads; the raw sequences have nowhere to go.
impl FrameSink for TestBackend {
    fn open_on(_output: BorrowedFd<'_>, _kind: WriterKind) -> io::Result<Self> {
        Err(io::Error::other("a test backend draws on no terminal"))
    }

    fn write_raw(&mut self, _bytes: &[u8]) -> io::Result<()> {
        Ok(())
    }

    fn end_frame(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn counters(&self) -> Option<Arc<WriteCounters>> {
        None
    }

    fn unsent_fd(&self) -> Option<BorrowedFd<'_>> {
        None
    }

    fn send_unsent(&mut self) -> io::Result<bool> {
        Ok(false)
    }
}

/// A [`FrameSink`]'s raw side as a `Write`, for code that writes into one.
pub struct RawWriter<'a, S: FrameSink>(pub &'a mut S);

impl<S: FrameSink> Write for RawWriter<'_, S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_raw(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
