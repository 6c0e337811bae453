//! Where the loop's input comes from: the user's terminal, read by the loop
//! itself, or a channel (the loop's own tests, which have no terminal).
//!
//! Input is held back (left unread, in the terminal) while a pane's
//! program is still taking a big paste (see `pane::program::input_queue`): a
//! program that reads gets every byte, however big the paste.

use std::os::fd::{BorrowedFd, OwnedFd};
use std::time::Instant;

use crossbeam_channel::{Receiver, TryRecvError};
use ratatui::crossterm::event::Event;
use rustix::event::PollFlags;

use super::terminal_reader::TerminalInput;
use crate::config::colour::Rgb;
use crate::workspace::Workspace;

pub struct InputSource {
    source: Source,
    /// Input is left unread until then (see [`Self::hold_for`]).
    held_until: Option<Instant>,
}

#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the channel is for the loop's tests")
)]
enum Source {
    /// An attached terminal, read through its own descriptor.
    /// Boxed: the channel is the other choice, a few bytes.
    Own(Box<TerminalInput>),
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
        Self::from(Source::Channel { rx, closed: false })
    }

    fn from(source: Source) -> Self {
        Self {
            source,
            held_until: None,
        }
    }

    /// Leaves input unread while a pane of `ws` has much input waiting
    /// for a program that is taking it; asked each turn and after each
    /// paste. The loop wakes at the hold's end (see [`Self::deadline`]) or
    /// when the pane's queue drains (its writer wakes it).
    pub fn hold_for(&mut self, ws: &Workspace, now: Instant) {
        self.held_until = ws
            .panes()
            .iter()
            .filter_map(|pane| pane.program().input_hold())
            .filter(|&until| until > now)
            .min();
    }

    fn held(&self) -> bool {
        self.held_until.is_some()
    }

    /// The next event, without blocking; none while input is held.
    pub fn next_event(&mut self) -> Option<(Instant, Event)> {
        if self.held() {
            return None;
        }
        match &mut self.source {
            Source::Own(input) => input.next_event(),
            Source::Channel { rx, closed } => match rx.try_recv() {
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
        match &self.source {
            _ if self.held() => false,
            Source::Own(input) => input.keys_waiting(),
            Source::Channel { rx, .. } => !rx.is_empty(),
        }
    }

    /// Input that the loop's poll would not see: it must not sleep.
    pub fn pending(&self) -> bool {
        match &self.source {
            _ if self.held() => false,
            Source::Own(input) => input.pending(),
            Source::Channel { rx, closed } => !*closed && !rx.is_empty(),
        }
    }

    /// The descriptor to poll for input, if any (none while held: it
    /// would stay readable).
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        match &self.source {
            _ if self.held() => None,
            Source::Own(input) => input.fd(),
            Source::Channel { .. } => None,
        }
    }

    /// What the loop's poll said about [`Self::fd`].
    pub fn polled(&mut self, revents: PollFlags) {
        match &mut self.source {
            Source::Own(input) => input.polled(revents),
            Source::Channel { .. } => {}
        }
    }

    /// When to look at the input again though nothing arrived (see
    /// `TerminalInput::deadline`).
    pub fn deadline(&self) -> Option<Instant> {
        match &self.source {
            _ if self.held() => self.held_until,
            Source::Own(input) => input.deadline(),
            Source::Channel { .. } => None,
        }
    }

    /// An attached terminal read through `tty`, a descriptor of its own.
    pub fn terminal_on(tty: OwnedFd) -> std::io::Result<Self> {
        Ok(Self::from(Source::Own(Box::new(TerminalInput::open(tty)?))))
    }

    /// The theme the terminal told since the last call (mode 2031: dark
    /// is `true`).
    pub fn take_theme(&mut self) -> Option<bool> {
        match &mut self.source {
            Source::Own(input) => input.take_theme(),
            Source::Channel { .. } => None,
        }
    }

    /// The clipboard answers (`OSC 52 ; c ; base64`) and notification
    /// clicks (`OSC 99`) since the last call.
    pub fn take_signal_answers(&mut self) -> Vec<(u32, String)> {
        match &mut self.source {
            Source::Own(input) => input.take_signal_answers(),
            Source::Channel { .. } => Vec::new(),
        }
    }

    /// Colours the terminal answered after its client stopped waiting
    /// (slot 0 foreground, 1 background, 2 cursor).
    pub fn take_late_colours(&mut self) -> Vec<(usize, Rgb)> {
        match &mut self.source {
            Source::Own(input) => input.take_colours(),
            Source::Channel { .. } => Vec::new(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    #[test]
    fn held_input_stays_unread_until_the_hold_ends() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut input = InputSource::channel(rx);
        let key = Event::Key(KeyEvent::from(KeyCode::Char('k')));
        tx.send((Instant::now(), key.clone())).unwrap();
        let until = Instant::now() + std::time::Duration::from_secs(60);
        input.held_until = Some(until);
        assert!(input.next_event().is_none());
        assert!(!input.keys_waiting() && !input.pending());
        // The loop wakes at the hold's end to look again.
        assert_eq!(input.deadline(), Some(until));
        input.held_until = None;
        assert!(input.pending());
        assert_eq!(input.next_event().map(|(_, ev)| ev), Some(key));
    }
}
