//! Queries the layer answers because only it (or the user's terminal)
//! knows: XTVERSION, DECRQM for the modes tilework tracks, the kitty
//! keyboard flags, OSC 10/11/12 colour queries (OSC 4 queries are the
//! colour sets'), and what the attached terminals told of pictures (DA1,
//! XTSMGRAPHICS, `CSI 14/16 t`: `picture_queries`).
//!
//! Answers must arrive in the order the queries were sent (programs send a
//! primary device attributes query last and stop waiting at its answer), so
//! the layer parses everything before a query first, then appends its
//! answer to the same queue vt100's callbacks answer into ([`Answers`]).
//!
//! The colours are the user's terminal's own: asked at every attach
//! (`client::facts`) or set in the config, and kept by each pane's layer. When neither
//! knows one, the query gets no answer, as from a terminal that does not
//! support it (programs then keep their default theme).

use std::io::Write as _;

pub use crate::config::colour::{Rgb, parse_colour};
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::term::fidelity::Modes;
use crate::pane::term::picture_queries::{self, PictureQuery};

/// Where the layer's answers go: the queue vt100's callbacks answer into.
pub trait Answers {
    fn answer(&mut self, bytes: &[u8]);
}

/// A parser whose answers go nowhere (a history replay, tests).
impl Answers for () {
    fn answer(&mut self, _: &[u8]) {}
}

/// A query the layer answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// DECRQM: `CSI ? Pm $ p` (private) or `CSI Pm $ p`.
    Mode { private: bool, mode: u16 },
    /// XTVERSION: `CSI > q`.
    Version,
    /// OSC 10, 11 or 12 with `?`: bit i of `asked` is colour `10 + i`.
    Colours { asked: u8, bel: bool },
    /// The kitty keyboard flags: `CSI ? u`.
    KeyboardFlags,
    /// Light or dark: `CSI ? 996 n` (mode 2031's query).
    Theme,
    /// OSC 4 with `?`: the entries asked for are the colour sets' (see
    /// `ColourSets::answer_palette`).
    Palette { bel: bool },
    /// DA1, XTSMGRAPHICS, the sizes in pixels.
    Pictures(PictureQuery),
}

/// Appends the answer to `query`, if there is one (`colours`: the
/// program's own under the attached terminals').
pub fn answer(
    query: Query,
    screen: &vt100::Screen,
    modes: &Modes,
    (keyboard_flags, colours, told): (u8, &[Option<Rgb>; 3], &AttachedFacts),
    out: &mut Vec<u8>,
) {
    // Writing to a Vec cannot fail.
    let _ = match query {
        Query::Version => write!(out, "\x1bP>|tilework {}\x1b\\", env!("CARGO_PKG_VERSION")),
        Query::Mode { private, mode } => {
            let state = mode_state(private, mode, screen, modes);
            let mark = if private { "?" } else { "" };
            write!(out, "\x1b[{mark}{mode};{state}$y")
        }
        Query::KeyboardFlags => write!(out, "\x1b[?{keyboard_flags}u"),
        Query::Theme => {
            if let Some(dark) = super::theme::dark(told.dark, colours[1]) {
                super::theme::report(dark, out);
            }
            Ok(())
        }
        Query::Palette { .. } => Ok(()),
        Query::Pictures(query) => {
            let (rows, cols) = screen.size();
            picture_queries::answer(query, (rows.get(), cols.get()), told.reach, out);
            Ok(())
        }
        Query::Colours { asked, bel } => {
            let end = if bel { "\x07" } else { "\x1b\\" };
            for (i, colour) in colours.iter().enumerate() {
                if asked & (1 << i) != 0
                    && let Some(Rgb(r, g, b)) = colour
                {
                    let _ = write!(out, "\x1b]{};rgb:{r:04x}/{g:04x}/{b:04x}{end}", 10 + i);
                }
            }
            Ok(())
        }
    };
}

/// DECRPM's state: 1 set, 2 reset, 4 permanently reset, 0 not recognised.
fn mode_state(private: bool, mode: u16, screen: &vt100::Screen, modes: &Modes) -> u8 {
    use vt100::{MouseProtocolEncoding as Enc, MouseProtocolMode as Mouse};
    let set = |on: bool| if on { 1 } else { 2 };
    if !private {
        return match mode {
            4 => set(modes.insert),
            // Line feed/new line mode: vt100 never adds the CR.
            20 => 4,
            _ => 0,
        };
    }
    match mode {
        1 => set(screen.application_cursor()),
        6 => set(modes.origin.on(screen.alternate_screen())),
        7 => set(modes.autowrap),
        9 => set(screen.mouse_protocol_mode() == Mouse::Press),
        25 => set(!screen.hide_cursor()),
        47 | 1047 | 1049 => set(screen.alternate_screen()),
        66 => set(screen.application_keypad()),
        1000 => set(screen.mouse_protocol_mode() == Mouse::PressRelease),
        1002 => set(screen.mouse_protocol_mode() == Mouse::ButtonMotion),
        1003 => set(screen.mouse_protocol_mode() == Mouse::AnyMotion),
        1004 => set(modes.focus_events),
        1005 => set(screen.mouse_protocol_encoding() == Enc::Utf8),
        1006 => set(screen.mouse_protocol_encoding() == Enc::Sgr),
        2004 => set(screen.bracketed_paste()),
        2026 => set(modes.synchronized),
        2048 => set(modes.in_band_resize),
        2031 => set(modes.theme_reports),
        _ => 0,
    }
}
