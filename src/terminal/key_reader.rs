//! Reads one terminal's input on the loop's own thread: keys, mouse, paste
//! and focus events, each stamped when read (key-to-frame latency starts
//! there), and the terminal's new size after a SIGWINCH.
//!
//! The loop polls the terminal together with everything else it waits for
//! (see `crate::wake`), so a key costs no thread hop before it is handled.
//! An input thread in between cost a wake-up on every key: 20-35 µs of the
//! echo's median on this project's two-core machine (issue 14).
//!
//! The terminal is read through a descriptor of the reader's own: the
//! terminal opened again, non-blocking, so a read never waits and
//! `O_NONBLOCK` never reaches the user's shell, which shares the original.
//! Each read goes whole to tilework's own parser (`input_parser`), whose
//! events wait here in order; a sequence cut at the end of a read is held
//! by the parser until its rest comes or its deadline passes. Nothing is
//! process-global, so one reader per attached terminal works. (crossterm's
//! reader was one per process, on fd 0, and held events it had parsed where
//! the loop could not see them.)
//!
//! Resizes are taken from our own SIGWINCH flag and the terminal's size.

use std::collections::VecDeque;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ratatui::crossterm::event::Event;
use rustix::event::{PollFd, PollFlags, Timespec};
use signal_hook::consts::SIGWINCH;

use crate::terminal::input_parser::{InputParser, Reply};

/// How often, at most, [`KeyReader::keys_waiting`] asks the kernel: it is
/// asked between pieces of a flood's parsing.
const WAITING_CHECK_INTERVAL: Duration = Duration::from_micros(200);

/// One read's most: a tty hands out at most its 4 KiB line buffer at a
/// time, a paste arrives in many reads whatever this is.
const READ_SIZE: usize = 16 * 1024;

pub struct KeyReader {
    /// The terminal, while it is read; `None` after it failed, until the
    /// next one is attached.
    tty: Option<Tty>,
    parser: InputParser,
    /// Events parsed and not handed out yet.
    events: VecDeque<(Instant, Event)>,
    buf: Box<[u8]>,
    /// The loop's poll just said the terminal had nothing: the turn after
    /// it need not ask again.
    quiet_at_poll: bool,
    /// The last read took everything there was: the loop's next poll (or
    /// turn) says when to read again, not one more read now.
    drained: bool,
    resized: Arc<AtomicBool>,
    /// When the terminal was last polled by `keys_waiting`, and what it said.
    last_check: std::cell::Cell<(Instant, bool)>,
}

struct Tty {
    fd: OwnedFd,
    /// A copy of a blocking descriptor (the terminal could not be opened
    /// again): read only after a poll says it is readable.
    blocking: bool,
}

/// What a zero-timeout poll of the terminal says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Readiness {
    Readable,
    Quiet,
    /// Hung up or failed: reading it would fail, polling it would spin.
    Gone,
}

impl KeyReader {
    /// Reads `tty`, and installs the SIGWINCH handlers (a flag, and a
    /// wake-up of the loop).
    pub fn new(tty: BorrowedFd<'_>) -> Result<Self> {
        let resized = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(SIGWINCH, Arc::clone(&resized))
            .context("installing the SIGWINCH handler")?;
        crate::wake::on_signal(SIGWINCH).context("waking the loop on SIGWINCH")?;
        Ok(Self {
            tty: open(tty),
            parser: InputParser::new(),
            events: VecDeque::new(),
            buf: vec![0; READ_SIZE].into_boxed_slice(),
            quiet_at_poll: false,
            drained: false,
            resized,
            last_check: std::cell::Cell::new((Instant::now(), false)),
        })
    }

    /// The terminal, while it is read: for the loop's poll.
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.tty.as_ref().map(|tty| tty.fd.as_fd())
    }

    /// Reads `tty` from now on (a terminal was attached, or detached and
    /// the parking terminal put in its place); what was parsed of the last
    /// one is dropped.
    pub fn reopen(&mut self, tty: BorrowedFd<'_>) {
        self.tty = open(tty);
        self.parser = InputParser::new();
        self.events.clear();
        self.quiet_at_poll = false;
        self.drained = false;
    }

    /// The loop's poll reported `revents` for [`Self::fd`].
    pub fn polled(&mut self, revents: PollFlags) {
        self.quiet_at_poll = revents.is_empty();
        if revents.contains(PollFlags::IN) {
            self.drained = false;
        }
        if revents.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL)
            && !revents.contains(PollFlags::IN)
        {
            self.close("the terminal hung up");
        }
    }

    /// The terminal's new size, once per SIGWINCH (or `None`). The flag
    /// is cleared before the size is read: a SIGWINCH after the read sets
    /// it again. (A workspace of a session gets no terminal's SIGWINCH:
    /// resizes reach it as session news.)
    pub fn take_resize(&self) -> Option<(u16, u16)> {
        if !self.resized.swap(false, Ordering::SeqCst) {
            return None;
        }
        let size = match &self.tty {
            Some(tty) => rustix::termios::tcgetwinsize(&tty.fd)
                .map(|ws| (ws.ws_col, ws.ws_row))
                .map_err(std::io::Error::from),
            None => crate::terminal::stdio::size(),
        };
        match size {
            Ok(size) => Some(size),
            Err(err) => {
                tracing::warn!("reading the terminal's size: {err}");
                None
            }
        }
    }

    /// Whether a key is waiting to be handled: asked between pieces of
    /// parsing, so the kernel is asked at most every
    /// [`WAITING_CHECK_INTERVAL`].
    pub fn keys_waiting(&self) -> bool {
        if !self.events.is_empty() {
            return true;
        }
        let Some(tty) = &self.tty else {
            return false;
        };
        let (at, answer) = self.last_check.get();
        let now = Instant::now();
        if now.duration_since(at) < WAITING_CHECK_INTERVAL {
            return answer;
        }
        let answer = readiness(tty.fd.as_fd()) == Readiness::Readable;
        self.last_check.set((now, answer));
        answer
    }

    /// Events parsed and not handed out yet (the loop's poll cannot see
    /// them: they were read already).
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// When the loop must look again though nothing arrived: the parser
    /// holds a lone ESC, an unfinished sequence or paste.
    pub fn deadline(&self) -> Option<Instant> {
        self.parser.deadline()
    }

    /// The next input event, without blocking, or `None` when nothing is
    /// left now.
    pub fn next_event(&mut self) -> Option<(Instant, Event)> {
        if let Some(event) = self.events.pop_front() {
            return Some(event);
        }
        let quiet = std::mem::take(&mut self.quiet_at_poll);
        let drained = std::mem::take(&mut self.drained);
        let mut read = false;
        if !quiet && !drained {
            self.read();
            read = true;
        }
        if self.events.is_empty() && self.parser.deadline().is_some_and(|d| d <= Instant::now()) {
            // What the parser holds is due, unless its rest has come
            // meanwhile: that is looked for first, whatever the poll said
            // (a flood's last read may have ended in the middle of it).
            if !read {
                self.read();
            }
            self.parser.flush(Instant::now(), &mut self.events);
        }
        self.events.pop_front()
    }

    /// The terminal's answers to tilework's questions since the last call.
    pub fn take_replies(&mut self) -> Vec<Reply> {
        self.parser.take_replies()
    }

    /// One read of the terminal, parsed.
    fn read(&mut self) {
        let Some(tty) = &self.tty else {
            return;
        };
        if tty.blocking {
            match readiness(tty.fd.as_fd()) {
                Readiness::Readable => {}
                Readiness::Quiet => return,
                Readiness::Gone => return self.close("the terminal hung up"),
            }
        }
        match rustix::io::read(&tty.fd, &mut self.buf[..]) {
            Ok(0) => self.close("the terminal hung up"),
            Ok(n) => {
                self.drained = n < self.buf.len();
                self.parser
                    .feed(&self.buf[..n], Instant::now(), &mut self.events);
            }
            Err(rustix::io::Errno::AGAIN | rustix::io::Errno::INTR) => {}
            Err(err) => self.close(&format!("reading terminal input: {err}")),
        }
    }

    fn close(&mut self, why: &str) {
        tracing::warn!("{why}; waiting for a terminal");
        self.tty = None;
        self.parser = InputParser::new();
    }
}

/// The terminal opened again, non-blocking (see the module's doc), or a
/// copy of its descriptor if it cannot be.
fn open(tty: BorrowedFd<'_>) -> Option<Tty> {
    match crate::os::reopen_nonblocking_for_reading(tty) {
        Ok(file) => Some(Tty {
            fd: file.into(),
            blocking: false,
        }),
        Err(err) => {
            tracing::warn!("reading the terminal through a copy: opening it again: {err}");
            match tty.try_clone_to_owned() {
                Ok(fd) => Some(Tty { fd, blocking: true }),
                Err(err) => {
                    tracing::error!("the terminal's input cannot be read: {err}");
                    None
                }
            }
        }
    }
}

/// Polls `fd` without waiting.
fn readiness(fd: BorrowedFd<'_>) -> Readiness {
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    match rustix::event::poll(&mut fds, Some(&Timespec::default())) {
        Ok(0) => Readiness::Quiet,
        Ok(_) => {
            let revents = fds[0].revents();
            if revents.contains(PollFlags::IN) {
                Readiness::Readable
            } else if revents.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Readiness::Gone
            } else {
                Readiness::Quiet
            }
        }
        Err(rustix::io::Errno::INTR) => Readiness::Quiet,
        Err(_) => Readiness::Gone,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    /// A PTY in raw mode: (the terminal's side, the side tilework reads).
    fn raw_pty() -> (OwnedFd, OwnedFd) {
        let (controller, user_side) = crate::os::open_pty().unwrap();
        let mut termios = rustix::termios::tcgetattr(&user_side).unwrap();
        termios.make_raw();
        rustix::termios::tcsetattr(&user_side, rustix::termios::OptionalActions::Now, &termios)
            .unwrap();
        (controller, user_side)
    }

    fn type_into(terminal: &OwnedFd, bytes: &[u8]) {
        assert_eq!(rustix::io::write(terminal, bytes).unwrap(), bytes.len());
    }

    /// The next event, as the loop would get it (polling as it does).
    fn next(reader: &mut KeyReader) -> Event {
        let give_up = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some((_, event)) = reader.next_event() {
                return event;
            }
            assert!(Instant::now() < give_up, "no event came");
            let revents = match reader.fd() {
                Some(fd) => {
                    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
                    let wait = Timespec {
                        tv_sec: 0,
                        tv_nsec: 1_000_000,
                    };
                    rustix::event::poll(&mut fds, Some(&wait)).unwrap();
                    fds[0].revents()
                }
                None => PollFlags::empty(),
            };
            reader.polled(revents);
        }
    }

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn the_terminal_given_is_read_and_one_replaced_is_let_go() {
        let (terminal_a, user_a) = raw_pty();
        let mut reader = KeyReader::new(user_a.as_fd()).unwrap();
        type_into(&terminal_a, b"\x1b[Ax\x1b[<0;3;4M");
        assert_eq!(next(&mut reader), key(KeyCode::Up));
        assert_eq!(next(&mut reader), key(KeyCode::Char('x')));
        assert!(matches!(next(&mut reader), Event::Mouse(_)));
        // A lone ESC is Esc once its wait is over.
        type_into(&terminal_a, b"\x1b");
        assert_eq!(next(&mut reader), key(KeyCode::Esc));
        // A late colour answer is no key.
        type_into(&terminal_a, b"\x1b]11;rgb:1111/2222/3333\x1b\\y");
        assert_eq!(next(&mut reader), key(KeyCode::Char('y')));
        assert!(matches!(
            reader.take_replies()[..],
            [Reply::Colour { slot: 1, .. }]
        ));
        // Another terminal: the first one's keys are left to whoever
        // reads it next (the user's shell after a detach).
        let (terminal_b, user_b) = raw_pty();
        reader.reopen(user_b.as_fd());
        type_into(&terminal_a, b"a");
        type_into(&terminal_b, b"b");
        assert_eq!(next(&mut reader), key(KeyCode::Char('b')));
        let mut left = [0u8; 8];
        assert_eq!(rustix::io::read(&user_a, &mut left).unwrap(), 1);
        assert_eq!(left[0], b'a');
    }
}
