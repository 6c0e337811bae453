//! The local terminal between two runs of ssh: the "reconnecting to HOST
//! (3 s)…" screen, and the keys typed meanwhile.
//!
//! Nothing typed while the link is down reaches a program: a key gives up
//! (`q`, `C-c`, `C-d`), tries at once (Enter, `r`, space), or is dropped and
//! counted on the screen. Typing blind into a program that may have moved on
//! is worse than typing again.

use std::io::{self, Write};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rustix::termios::{OptionalActions, Termios};

/// What the user chose while waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The wait ran out, or the user asked to try at once.
    TryNow,
    GiveUp,
}

/// Modes a remote tilework may have left on (it had no chance to turn
/// them off when its link dropped): mouse reports, focus reports, pasting
/// brackets and the kitty keyboard's flags. Then the screen is cleared.
const RESET_MODES: &[u8] =
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[?25l";

/// Back on the main screen with the cursor shown (giving up).
const LEAVE: &[u8] = b"\x1b[?1049l\x1b[?25h";

/// The terminal's line discipline as it was before tilework or ssh touched
/// it: put back before each run of ssh (ssh sets raw mode itself, and puts
/// back what it found) and at the end.
pub struct TerminalState {
    saved: Option<Termios>,
}

impl TerminalState {
    pub fn remember() -> Self {
        Self {
            saved: rustix::termios::tcgetattr(io::stdin().as_fd()).ok(),
        }
    }

    /// The modes it was found in.
    pub fn restore(&self) {
        if let Some(saved) = &self.saved {
            let _ = rustix::termios::tcsetattr(io::stdin().as_fd(), OptionalActions::Now, saved);
        }
    }

    fn raw(&self) {
        if let Some(saved) = &self.saved {
            let mut raw = saved.clone();
            raw.make_raw();
            let _ = rustix::termios::tcsetattr(io::stdin().as_fd(), OptionalActions::Now, &raw);
        }
    }

    /// Leaves the screen a dropped remote tilework left behind (giving up).
    pub fn leave_screen(&self) {
        let mut out = io::stdout();
        let _ = out.write_all(RESET_MODES);
        let _ = out.write_all(LEAVE);
        let _ = out.flush();
        self.restore();
    }
}

/// What the waiting screen says.
pub struct Waiting<'a> {
    pub host: &'a str,
    /// Why the last run ended.
    pub why: &'a str,
    /// Attempts that failed since the link was last up.
    pub failed: u32,
}

/// Shows the waiting screen for `wait`, counting down, and reads the
/// keys typed meanwhile.
pub fn wait(terminal: &TerminalState, waiting: &Waiting<'_>, wait: Duration) -> Result<Choice> {
    terminal.raw();
    let deadline = Instant::now() + wait;
    let mut dropped = 0usize;
    let mut out = io::stdout();
    out.write_all(RESET_MODES)
        .context("drawing the waiting screen")?;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        draw(&mut out, waiting, left, dropped)?;
        if left.is_zero() {
            return Ok(Choice::TryNow);
        }
        // Wake at least once a second to count down.
        let slice = left.min(Duration::from_secs(1));
        let Some(keys) = read_keys(slice)? else {
            continue;
        };
        if keys.is_empty() {
            // The terminal is gone: nobody will ever choose.
            return Ok(Choice::GiveUp);
        }
        for &key in &keys {
            match key {
                b'q' | b'Q' | 0x03 | 0x04 => return Ok(Choice::GiveUp),
                b'\r' | b'\n' | b'r' | b' ' => return Ok(Choice::TryNow),
                _ => dropped += 1,
            }
        }
    }
}

/// Says that ssh is being run again (its own messages follow, if any).
pub fn connecting(terminal: &TerminalState, host: &str) {
    let mut out = io::stdout();
    let _ = write!(
        out,
        "\x1b[H\x1b[2J\x1b[?25h\r\nconnecting to {}…\r\n",
        crate::sanitize::escape_controls(host)
    );
    let _ = out.flush();
    terminal.restore();
}

fn draw(out: &mut impl Write, w: &Waiting<'_>, left: Duration, dropped: usize) -> Result<()> {
    let host = crate::sanitize::escape_controls(w.host);
    let why = crate::sanitize::escape_controls(w.why);
    let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    let mut text = format!(
        "\x1b[H\x1b[2J\r\n  reconnecting to {host} ({secs} s)…\r\n\r\n  \
         the link dropped: {why}; the workspace and its programs run on there\r\n"
    );
    if w.failed > 0 {
        text.push_str(&format!("  attempts that failed since: {}\r\n", w.failed));
    }
    text.push_str("\r\n  Enter: try now · q or C-c: give up\r\n");
    if dropped > 0 {
        text.push_str(&format!(
            "\r\n  {dropped} key(s) dropped: nothing typed while the link is down is sent\r\n"
        ));
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("drawing the waiting screen")
}

/// Keys typed within `timeout`: `None` if none, empty at end of input.
fn read_keys(timeout: Duration) -> Result<Option<Vec<u8>>> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdin = io::stdin();
    let fd = stdin.as_fd();
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let timeout = Timespec::try_from(timeout).context("a wait out of range")?;
    match poll(&mut fds, Some(&timeout)) {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(rustix::io::Errno::INTR) => return Ok(None),
        Err(err) => return Err(err).context("waiting for keys"),
    }
    let mut buf = [0u8; 256];
    match rustix::io::read(fd, &mut buf) {
        Ok(n) => Ok(Some(buf[..n].to_vec())),
        Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => Ok(None),
        // A terminal that hung up reads as end of input.
        Err(_) => Ok(Some(Vec::new())),
    }
}
