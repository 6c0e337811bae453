//! One attached terminal's input, read by the loop itself: the bytes its
//! terminal sends, read without waiting from a descriptor of its own, and
//! parsed by tilework's own parser (`terminal::input_parser`) into keys,
//! mouse, pastes and focus events, with the terminal's answers to
//! tilework's questions kept apart.
//!
//! Each client has one, so several terminals are read side by side (a
//! process-wide reader could read only one).

use std::cell::Cell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::Event;
use rustix::event::{PollFd, PollFlags};

use crate::config::colour::Rgb;
use crate::terminal::input_parser::{InputParser, Reply};

/// How often, at most, [`TerminalInput::keys_waiting`] asks the kernel: it
/// is asked between pieces of a flood's parsing.
const WAITING_CHECK_INTERVAL: Duration = Duration::from_micros(200);

/// The most read from a terminal in one turn before its events are
/// handled: a paste of megabytes is taken in slices, keys between.
const MAX_READ_PER_TURN: usize = 64 * 1024;

pub struct TerminalInput {
    /// The terminal, opened anew non-blocking: a file description of its
    /// own, so the mode does not reach the shell that shares the terminal.
    file: File,
    parser: InputParser,
    events: VecDeque<(Instant, Event)>,
    colours: Vec<(usize, Rgb)>,
    /// The theme the terminal last told (mode 2031: dark is `true`), not
    /// yet taken.
    theme: Option<bool>,
    /// What the terminal said of the loop's signals, oldest first, not
    /// yet taken: the clipboard's contents (`OSC 52`), clicks on
    /// notifications (`OSC 99`); the number and the text after it.
    signal_answers: Vec<(u32, String)>,
    /// The terminal hung up or failed: no longer polled (its link reports
    /// the end).
    gone: bool,
    /// The terminal has bytes to read (the loop's poll, or a look between
    /// pieces of parsing, said so): read before the next event is handed
    /// out.
    ready: Cell<bool>,
    /// When [`Self::keys_waiting`] last asked the kernel, and what it said.
    last_look: Cell<Option<(Instant, bool)>>,
}

impl TerminalInput {
    pub fn open(tty: OwnedFd) -> io::Result<Self> {
        let file = crate::os::reopen_nonblocking_to_read(tty.as_fd())?;
        Ok(Self {
            file,
            parser: InputParser::new(),
            events: VecDeque::new(),
            colours: Vec::new(),
            theme: None,
            signal_answers: Vec::new(),
            gone: false,
            ready: Cell::new(false),
            last_look: Cell::new(None),
        })
    }

    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        (!self.gone).then(|| self.file.as_fd())
    }

    /// What the loop's poll said of the terminal: read what it has. The
    /// answer stands for [`Self::keys_waiting`] as a look of its own (the
    /// turn after a wake-up does not ask the kernel again).
    pub fn polled(&mut self, revents: PollFlags) {
        let readable = revents.intersects(PollFlags::IN | PollFlags::HUP | PollFlags::ERR);
        if readable {
            self.ready.set(true);
        }
        self.last_look.set(Some((Instant::now(), readable)));
    }

    fn read_available(&mut self) {
        self.ready.set(false);
        self.last_look.set(None);
        let mut buf = [0u8; 4096];
        let mut taken = 0;
        while taken < MAX_READ_PER_TURN {
            match self.file.read(&mut buf) {
                Ok(0) => {
                    self.gone = true;
                    break;
                }
                Ok(n) => {
                    taken += n;
                    self.parser
                        .feed(&buf[..n], Instant::now(), &mut self.events);
                    // A read short of the buffer took all the terminal had:
                    // no second read to hear EAGAIN (what comes later, the
                    // poll announces).
                    if n < buf.len() {
                        self.last_look.set(Some((Instant::now(), false)));
                        break;
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                    self.last_look.set(Some((Instant::now(), false)));
                    break;
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    tracing::info!("reading a terminal: {err}");
                    self.gone = true;
                    break;
                }
            }
        }
        self.take_replies();
    }

    fn take_replies(&mut self) {
        for reply in self.parser.take_replies() {
            match reply {
                Reply::Colour { slot, colour } => self.colours.push((slot, colour)),
                Reply::Theme { dark } => self.theme = Some(dark),
                // A clipboard read the user allowed, a click: a few at
                // most between two looks.
                Reply::Osc {
                    number: number @ (52 | 99),
                    text,
                } if self.signal_answers.len() < 8 => {
                    self.signal_answers.push((number, text));
                }
                _ => {}
            }
        }
    }

    /// The next event, without blocking. What the parser held past its
    /// deadline (a lone ESC) is let go first.
    pub fn next_event(&mut self) -> Option<(Instant, Event)> {
        // A loop busy with floods may not sleep in poll(2) for a long time
        // (it always has output left), so it would not learn that keys
        // came: look (at most every `WAITING_CHECK_INTERVAL`).
        if self.events.is_empty() && !self.ready.get() {
            self.keys_waiting();
        }
        if self.events.is_empty() && self.ready.get() && !self.gone {
            self.read_available();
        }
        if self.events.is_empty() && self.parser.deadline().is_some_and(|d| d <= Instant::now()) {
            // What is held is resolved only once a read finds nothing
            // more: its rest may be in the terminal unannounced (the loop
            // did not poll since, busy with a flood).
            if !self.gone {
                self.read_available();
            }
            if self.events.is_empty() {
                self.parser.flush(Instant::now(), &mut self.events);
                self.take_replies();
            }
        }
        self.events.pop_front()
    }

    /// Events parsed and not handed out, or bytes known to wait: the loop
    /// must not sleep.
    pub fn pending(&self) -> bool {
        !self.events.is_empty() || (self.ready.get() && !self.gone)
    }

    /// Whether input is waiting (between pieces of a flood's parsing:
    /// keys first). The kernel is asked at most every
    /// [`WAITING_CHECK_INTERVAL`].
    pub fn keys_waiting(&self) -> bool {
        if self.pending() {
            return true;
        }
        if self.gone {
            return false;
        }
        let now = Instant::now();
        if let Some((at, waiting)) = self.last_look.get()
            && now.duration_since(at) < WAITING_CHECK_INTERVAL
        {
            return waiting;
        }
        let mut fds = [PollFd::new(&self.file, PollFlags::IN)];
        let zero = rustix::event::Timespec::default();
        let waiting = matches!(rustix::event::poll(&mut fds, Some(&zero)), Ok(n) if n > 0);
        self.last_look.set(Some((now, waiting)));
        if waiting {
            self.ready.set(true);
        }
        waiting
    }

    /// When to look again though nothing arrived: a lone ESC becomes the
    /// Esc key then.
    pub fn deadline(&self) -> Option<Instant> {
        self.parser.deadline()
    }

    /// Colours the terminal answered late (slot 0 foreground, 1
    /// background, 2 cursor).
    pub fn take_colours(&mut self) -> Vec<(usize, Rgb)> {
        std::mem::take(&mut self.colours)
    }

    /// The theme the terminal told since the last call (mode 2031).
    pub fn take_theme(&mut self) -> Option<bool> {
        self.theme.take()
    }

    /// The clipboard answers (`OSC 52`) and notification clicks (`OSC
    /// 99`) since the last call.
    pub fn take_signal_answers(&mut self) -> Vec<(u32, String)> {
        std::mem::take(&mut self.signal_answers)
    }
}
