//! Where the loop's input comes from: the user's terminal, read by the loop
//! itself, or a channel (the loop's own tests, which have no terminal).

use std::os::fd::BorrowedFd;
use std::time::Instant;

use crossbeam_channel::{Receiver, TryRecvError};
use ratatui::crossterm::event::Event;
use rustix::event::PollFlags;

use crate::config::colour::Rgb;
use crate::terminal::key_reader::KeyReader;
use crate::terminal::late_replies::LateReplies;

pub enum InputSource {
    /// The terminal on fd 0, its late answers to tilework's questions
    /// taken out of the keys.
    Terminal(KeyReader, LateReplies),
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
            Self::Terminal(reader, replies) => loop {
                if let Some(event) = replies.next_released() {
                    return Some(event);
                }
                match reader.next_event() {
                    Some((at, event)) => replies.offer(at, event),
                    None => {
                        replies.quiet(Instant::now(), reader.collect_deadline().is_none());
                        return replies.next_released();
                    }
                }
            },
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
            Self::Terminal(reader, _) => reader.keys_waiting(),
            Self::Channel { rx, .. } => !rx.is_empty(),
        }
    }

    /// Input that the loop's poll would not see: it must not sleep.
    pub fn pending(&self) -> bool {
        match self {
            Self::Terminal(..) => false,
            Self::Channel { rx, closed } => !*closed && !rx.is_empty(),
        }
    }

    /// The descriptor to poll for input, if any.
    pub fn fd(&self) -> Option<BorrowedFd<'static>> {
        match self {
            Self::Terminal(reader, _) => reader.fd(),
            Self::Channel { .. } => None,
        }
    }

    /// What the loop's poll said about [`Self::fd`].
    pub fn polled(&mut self, revents: PollFlags) {
        if let Self::Terminal(reader, _) = self {
            reader.polled(revents);
        }
    }

    /// When to look at the input again though nothing arrived (see
    /// `KeyReader::collect_deadline`).
    pub fn deadline(&self) -> Option<Instant> {
        match self {
            Self::Terminal(reader, replies) => {
                match (reader.collect_deadline(), replies.deadline()) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
            Self::Channel { .. } => None,
        }
    }

    /// The terminal's new size, once per resize.
    pub fn take_resize(&self) -> Option<(u16, u16)> {
        match self {
            Self::Terminal(reader, _) => reader.take_resize(),
            Self::Channel { .. } => None,
        }
    }

    /// The terminal read (fd 0).
    pub fn terminal(reader: KeyReader) -> Self {
        Self::Terminal(reader, LateReplies::default())
    }

    /// Colours the terminal answered after its client stopped waiting
    /// (slot 0 foreground, 1 background, 2 cursor).
    pub fn take_late_colours(&mut self) -> Vec<(usize, Rgb)> {
        match self {
            Self::Terminal(_, replies) => replies.take_colours(),
            Self::Channel { .. } => Vec::new(),
        }
    }

    /// A new terminal was attached: read it.
    pub fn reopen(&mut self) {
        match self {
            Self::Terminal(reader, replies) => {
                reader.reopen();
                *replies = LateReplies::default();
            }
            Self::Channel { closed, .. } => *closed = false,
        }
    }
}
