//! What tilework asks the user's terminal once, at start: its foreground,
//! background and cursor colours (OSC 10/11/12), which programs in panes
//! ask tilework for (editors pick a light or dark theme by them),
//! whether it speaks the kitty keyboard protocol (`CSI ? u`), and whether
//! it draws styled and coloured underlines (XTGETTCAP `Smulx`, `Setulc`).
//!
//! The queries go out together with a primary device attributes query,
//! which every terminal answers, last: its answer ends the wait. A
//! terminal that answers nothing costs [`ASK_TIMEOUT`] once. The replies
//! are read from the terminal directly, before the loop reads it
//! (crossterm does not parse OSC replies); keys typed in those few
//! milliseconds are lost.
//!
//! Call [`ask`] once the terminal is in raw mode (otherwise the replies
//! would be echoed and held until Enter) and before the loop reads the
//! terminal.

use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::config::colour::{Rgb, parse_colour};

/// How long to wait for the answers: a local terminal answers in well
/// under a millisecond, one across `ssh` in a round trip.
pub const ASK_TIMEOUT: Duration = Duration::from_millis(250);

/// XTGETTCAP for `Smulx` (styled underlines) and `Setulc` (underline
/// colours), names in hex: a terminal that does not know the query
/// ignores the DCS.
/// Then a kitty graphics query (`a=q`: a terminal that speaks it answers
/// `OK`; others ignore the APC) and the cell's size in pixels (`CSI 16 t`).
const QUERIES: &[u8] = b"\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\\x1b[?u\x1bP+q536d756c78;536574756c63\x1b\\\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[16t\x1b[c";

/// The kitty keyboard flags tilework asks the user's terminal for:
/// "disambiguate escape codes" alone, so C-i, C-m, C-[ and Alt
/// combinations arrive apart from Tab, Enter and Esc while every other key
/// (and every key release) stays as before.
pub const KITTY_FLAGS_WANTED: u8 = 1;

/// What the user's terminal told.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OuterTerminal {
    /// Foreground, background and cursor colour.
    pub colours: [Option<Rgb>; 3],
    /// It answered `CSI ? u`: it speaks the kitty keyboard protocol.
    pub kitty_keyboard: bool,
    /// XTGETTCAP knew `Smulx`: styled underlines (`4:3`).
    pub styled_underlines: bool,
    /// XTGETTCAP knew `Setulc`: underline colours (`58`).
    pub underline_colours: bool,
    /// It answered the device attributes query: every answer is in.
    pub answered: bool,
    /// The picture protocols it speaks (DA1's `4`: sixel; `OK` to the
    /// kitty graphics query).
    pub pictures: crate::graphics::reach::Speaks,
    /// Its cell's size in pixels (`CSI 6 ; height ; width t`, else the
    /// terminal's size in pixels over its cells).
    pub cell: Option<crate::graphics::reach::CellPixels>,
}

/// Asks the user's terminal (on fds 0 and 1, where the loop reads
/// it and frames go: a detachable workspace has no controlling terminal)
/// and waits at most `timeout` for its answers. Anything that fails gives
/// what was learnt so far.
pub fn ask(timeout: Duration) -> OuterTerminal {
    let mut told = OuterTerminal::default();
    let dup = |fd: std::os::fd::BorrowedFd<'_>| fd.try_clone_to_owned().map(File::from);
    let (Ok(tty), Ok(mut out)) = (
        dup(std::io::stdin().as_fd()),
        dup(std::io::stdout().as_fd()),
    ) else {
        return told;
    };
    if out.write_all(QUERIES).and_then(|()| out.flush()).is_err() {
        return told;
    }
    let deadline = Instant::now() + timeout;
    let mut replies = Vec::new();
    let mut buf = [0u8; 512];
    while !told.answered {
        let left = deadline.saturating_duration_since(Instant::now());
        let wait = PollTimeout::try_from(left).unwrap_or(PollTimeout::ZERO);
        let mut fds = [PollFd::new(tty.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, wait) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
        match nix::unistd::read(tty.as_fd(), &mut buf) {
            Ok(n) if n > 0 => replies.extend_from_slice(&buf[..n]),
            _ => break,
        }
        told = parse_replies(&replies);
        if replies.len() > 64 * 1024 {
            break;
        }
    }
    if told.cell.is_none() {
        told.cell = cell_of_winsize(out.as_fd());
    }
    tracing::info!(?told, "the user's terminal answered");
    told
}

/// The cell's size in pixels by the terminal's size (`TIOCGWINSZ`): its
/// pixels over its cells; `None` when it tells no pixels.
pub fn cell_of_winsize(
    tty: std::os::fd::BorrowedFd<'_>,
) -> Option<crate::graphics::reach::CellPixels> {
    let ws = rustix::termios::tcgetwinsize(tty).ok()?;
    if ws.ws_col == 0 || ws.ws_row == 0 || ws.ws_xpixel < ws.ws_col || ws.ws_ypixel < ws.ws_row {
        return None;
    }
    crate::graphics::reach::CellPixels::claimed(
        u64::from(ws.ws_xpixel / ws.ws_col),
        u64::from(ws.ws_ypixel / ws.ws_row),
        "the terminal's pixel size",
    )
}

/// Turns on the kitty keyboard flags tilework wants, on the screen that is
/// showing. Pushed on the alternate screen (after the guard switched to
/// it), they go away with it: the protocol keeps a stack per screen, so
/// leaving the alternate screen on any exit path gives the shell its keys
/// back as they were.
pub fn push_kitty_flags(out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "\x1b[>{KITTY_FLAGS_WANTED}u")?;
    out.flush()
}

/// Reads the answers in `bytes` (possibly with other bytes between them).
pub fn parse_replies(bytes: &[u8]) -> OuterTerminal {
    let mut told = OuterTerminal::default();
    let mut rest = bytes;
    while let Some(esc) = memchr::memchr(0x1b, rest) {
        rest = &rest[esc..];
        if let Some(body) = rest.strip_prefix(b"\x1b]") {
            // OSC 1x ; colour, ended by BEL or ST.
            let end = body
                .iter()
                .position(|&b| b == 0x07 || b == 0x1b)
                .unwrap_or(body.len());
            if let Ok(text) = std::str::from_utf8(&body[..end])
                && let Some((number, colour)) = text.split_once(';')
                && let Some(slot) = match number {
                    "10" => Some(0),
                    "11" => Some(1),
                    "12" => Some(2),
                    _ => None,
                }
            {
                told.colours[slot] = parse_colour(colour);
            }
            rest = &body[end..];
            if rest.starts_with(b"\x1b\\") {
                rest = &rest[2..];
            } else if rest.first() == Some(&0x07) {
                rest = &rest[1..];
            }
        } else if let Some(body) = rest.strip_prefix(b"\x1bP1+r") {
            // XTGETTCAP: `name=value` pairs in hex, `;` between them.
            let end = memchr::memchr(0x1b, body).unwrap_or(body.len());
            for pair in body[..end].split(|&b| b == b';') {
                let name = pair.split(|&b| b == b'=').next().unwrap_or_default();
                match &name.to_ascii_lowercase()[..] {
                    b"536d756c78" => told.styled_underlines = true,
                    b"536574756c63" => told.underline_colours = true,
                    _ => {}
                }
            }
            rest = &body[end..];
        } else if let Some(body) = rest.strip_prefix(b"\x1b[?") {
            let end = body
                .iter()
                .position(|b| !(b.is_ascii_digit() || *b == b';'))
                .unwrap_or(body.len());
            match body.get(end) {
                Some(b'u') => told.kitty_keyboard = true,
                Some(b'c') => {
                    told.answered = true;
                    // DA1's attributes after the class: `4` is sixel.
                    told.pictures.sixel =
                        body[..end].split(|&b| b == b';').skip(1).any(|p| p == b"4");
                }
                _ => {}
            }
            rest = &body[end.min(body.len())..];
        } else if let Some(body) = rest.strip_prefix(b"\x1b_G") {
            // The kitty graphics query's answer: `i=31;OK`.
            let end = memchr::memchr(0x1b, body).unwrap_or(body.len());
            if body[..end].ends_with(b";OK") {
                told.pictures.kitty = true;
            }
            rest = &body[end..];
        } else if let Some(body) = rest.strip_prefix(b"\x1b[6;") {
            // The cell's size: `CSI 6 ; height ; width t`.
            let end = body
                .iter()
                .position(|b| !(b.is_ascii_digit() || *b == b';'))
                .unwrap_or(body.len());
            if body.get(end) == Some(&b't') {
                let mut numbers = body[..end].split(|&b| b == b';').map(|n| {
                    std::str::from_utf8(n)
                        .ok()
                        .and_then(|n| n.parse::<u64>().ok())
                });
                if let (Some(Some(height)), Some(Some(width))) = (numbers.next(), numbers.next()) {
                    told.cell = crate::graphics::reach::CellPixels::claimed(
                        width,
                        height,
                        "the terminal's `CSI 16 t` answer",
                    );
                }
            }
            rest = &body[end.min(body.len())..];
        } else {
            rest = &rest[1..];
        }
    }
    told
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_whatever_their_terminators_and_order() {
        let told = parse_replies(
            b"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\\x1b]10;rgb:cdcd/d6d6/f4f4\x07\x1b[?1u\x1b[?62;22c",
        );
        assert_eq!(
            told.colours,
            [
                Some(Rgb(0xcdcd, 0xd6d6, 0xf4f4)),
                Some(Rgb(0x1e1e, 0x1e1e, 0x2e2e)),
                None
            ]
        );
        assert!(told.kitty_keyboard && told.answered);
    }

    #[test]
    fn a_terminal_that_only_knows_device_attributes_tells_nothing_else() {
        let told = parse_replies(b"\x1b[?1;2c");
        assert_eq!(
            told,
            OuterTerminal {
                answered: true,
                ..OuterTerminal::default()
            }
        );
        // Cut off before its end: not answered yet.
        assert!(!parse_replies(b"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\\x1b[?1;2").answered);
    }

    #[test]
    fn sixel_kitty_graphics_and_the_cell_size_are_read() {
        let told = parse_replies(b"\x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1b[?62;4;22c");
        assert!(told.pictures.sixel && told.pictures.kitty && told.answered);
        assert_eq!(
            told.cell,
            Some(crate::graphics::reach::CellPixels {
                width: 10,
                height: 20
            })
        );
        // A cell no real terminal has is not believed (issue 40).
        for huge in [
            &b"\x1b[6;60000;60000t"[..],
            b"\x1b[6;65535;65535t",
            b"\x1b[6;0;10t",
        ] {
            assert_eq!(parse_replies(huge).cell, None, "{huge:?}");
        }
        // `4` as the class, or an error to the kitty query: neither.
        let told = parse_replies(b"\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\\x1b[?4;6c");
        assert!(!told.pictures.sixel && !told.pictures.kitty);
    }

    #[test]
    fn xtgettcap_tells_styled_underlines_and_their_colours() {
        let told = parse_replies(
            b"\x1bP1+r536d756c78=5c455b342c25703125643a\x1b\\\x1bP1+r536574756c63=5c45\x1b\\\x1b[?62c",
        );
        assert!(told.styled_underlines && told.underline_colours && told.answered);
        // Not known: `0+r`.
        let told = parse_replies(b"\x1bP0+r536d756c78\x1b\\\x1b[?62c");
        assert!(!told.styled_underlines && !told.underline_colours);
    }
}
