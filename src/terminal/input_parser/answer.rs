//! Answers the terminal sends to tilework's own questions (its colours,
//! its device attributes, the kitty flags, modes, termcap entries): never
//! keys. The loop reads them from the parser's side list.

use crate::config::colour::{Rgb, parse_colour};

/// One answer from the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// OSC 10/11/12: slot 0 foreground, 1 background, 2 cursor.
    Colour { slot: usize, colour: Rgb },
    /// Another OSC answer (its number and text).
    Osc { number: u32, text: String },
    /// `CSI ? flags u`: the kitty keyboard flags in force.
    KittyFlags(u32),
    /// DA1 `CSI ? … c`.
    PrimaryAttributes,
    /// DA2 `CSI > … c`.
    SecondaryAttributes,
    /// DECRPM `CSI ? mode ; setting $ y`.
    Mode { mode: u32, setting: u32 },
    /// Mode 2031's theme report `CSI ? 997 ; 1 n` (dark) or `2 n` (light).
    Theme { dark: bool },
    /// A cursor position report `CSI row ; column R`.
    CursorPosition { row: u32, column: u32 },
    /// A DCS answer (XTGETTCAP `1+r…`, DECRQSS `1$r…`, XTVERSION `>|…`):
    /// its text between `ESC P` and the string terminator.
    Dcs(String),
    /// A kitty graphics answer: its text between `ESC _` and the string
    /// terminator (`Gi=31;OK`).
    Graphics(String),
}

/// An OSC answer's body (between `ESC ]` and its terminator).
pub fn from_osc(body: &[u8]) -> Option<Reply> {
    let text = std::str::from_utf8(body).ok()?;
    let (number, rest) = text.split_once(';')?;
    let number: u32 = number.parse().ok()?;
    let slot = match number {
        10 => Some(0),
        11 => Some(1),
        12 => Some(2),
        _ => None,
    };
    if let Some(slot) = slot
        && let Some(colour) = parse_colour(rest)
    {
        return Some(Reply::Colour { slot, colour });
    }
    Some(Reply::Osc {
        number,
        text: rest.to_owned(),
    })
}

/// Whether `byte` may come next in an OSC answer whose body so far is
/// `body`: digits, a `;`, then printable text. Anything else means the
/// user typed Alt-] and more, not an answer.
pub fn fits_osc(body: &[u8], byte: u8) -> bool {
    let after_number = body.contains(&b';');
    if after_number {
        (0x20..=0x7e).contains(&byte)
    } else {
        byte.is_ascii_digit() || (byte == b';' && !body.is_empty())
    }
}

/// Whether `byte` may come next in a DCS answer whose body so far is
/// `body`: answers begin with a digit (`1+r`, `0$r`) or `>` (XTVERSION)
/// or `!` (DECRPTUI), then printable text.
pub fn fits_dcs(body: &[u8], byte: u8) -> bool {
    if body.is_empty() {
        byte.is_ascii_digit() || byte == b'>' || byte == b'!'
    } else {
        (0x20..=0x7e).contains(&byte)
    }
}

/// Whether `byte` may come next in a kitty graphics answer whose body so
/// far is `body`: `G`, then printable text.
pub fn fits_apc(body: &[u8], byte: u8) -> bool {
    if body.is_empty() {
        byte == b'G'
    } else {
        (0x20..=0x7e).contains(&byte)
    }
}

/// A kitty graphics answer's body.
pub fn from_apc(body: &[u8]) -> Reply {
    Reply::Graphics(String::from_utf8_lossy(body).into_owned())
}

/// A DCS answer's body.
pub fn from_dcs(body: &[u8]) -> Reply {
    Reply::Dcs(String::from_utf8_lossy(body).into_owned())
}
