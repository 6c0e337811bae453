//! Where the loop's input comes from: the user's terminal, read by the loop
//! itself, or a channel (the loop's own tests, which have no terminal).

use std::os::fd::BorrowedFd;
use std::time::Instant;

use crossbeam_channel::{Receiver, TryRecvError};
use ratatui::crossterm::event::Event;
use rustix::event::PollFlags;

use crate::terminal::key_reader::KeyReader;

pub enum InputSource {
    Terminal(KeyReader),
    /// Events as the terminal would give them, stamped by the sender, who
    /// calls `crate::wake::wake_loop` after each.
    Channel {
        rx: Receiver<(Instant, Event)>,
        closed: bool,
    },
}

impl InputSource {
    #[cfg(test)]
    pub fn channel(rx: Receiver<(Instant, Event)>) -> Self {
        Self::Channel { rx, closed: false }
    }

    /// The next event, without blocking.
    pub fn next_event(&mut self) -> Option<(Instant, Event)> {
        match self {
            Self::Terminal(reader) => reader.next_event(),
            Self::Channel { rx, closed } => match rx.try_recv() {
                Ok(event) => Some(event),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => {
                    *closed = true;
                    None
                }
            },
        }
    }

    /// Whether input is waiting (between pieces of parsing: keys first).
    pub fn keys_waiting(&self) -> bool {
        match self {
            Self::Terminal(reader) => reader.keys_waiting(),
            Self::Channel { rx, .. } => !rx.is_empty(),
        }
    }

    /// Input that the loop's poll would not see: it must not sleep.
    pub fn pending(&self) -> bool {
        match self {
            Self::Terminal(_) => false,
            Self::Channel { rx, closed } => !*closed && !rx.is_empty(),
        }
    }

    /// The descriptor to poll for input, if any.
    pub fn fd(&self) -> Option<BorrowedFd<'static>> {
        match self {
            Self::Terminal(reader) => reader.fd(),
            Self::Channel { .. } => None,
        }
    }

    /// What the loop's poll said about [`Self::fd`].
    pub fn polled(&mut self, revents: PollFlags) {
        if let Self::Terminal(reader) = self {
            reader.polled(revents);
        }
    }

    /// When to look at the input again though nothing arrived (see
    /// `KeyReader::collect_deadline`).
    pub fn deadline(&self) -> Option<Instant> {
        match self {
            Self::Terminal(reader) => reader.collect_deadline(),
            Self::Channel { .. } => None,
        }
    }

    /// The terminal's new size, once per resize.
    pub fn take_resize(&self) -> Option<(u16, u16)> {
        match self {
            Self::Terminal(reader) => reader.take_resize(),
            Self::Channel { .. } => None,
        }
    }

    /// A new terminal was attached: read it.
    pub fn reopen(&mut self) {
        match self {
            Self::Terminal(reader) => reader.reopen(),
            Self::Channel { closed, .. } => *closed = false,
        }
    }
}
