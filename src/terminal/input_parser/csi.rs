//! What a whole `CSI …` (or `ESC O x`) sequence from the terminal means:
//! a key with xterm's modifiers, a kitty protocol key, an SGR mouse
//! report, focus, the start of a paste, or an answer to a question.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};

use super::answer::Reply;
use super::keys;

/// What a sequence stands for.
#[derive(Debug, PartialEq)]
pub enum Meaning {
    Event(Event),
    Reply(Reply),
    /// `CSI 200 ~`: the text up to `CSI 201 ~` is a paste.
    PasteStart,
    /// Nothing tilework knows: dropped.
    Nothing,
}

/// A CSI sequence: `body` is what lies between `ESC [` and the final byte.
pub fn meaning(body: &[u8], final_byte: u8) -> Meaning {
    let (prefix, rest) = match body.first() {
        Some(&p @ (b'<' | b'=' | b'>' | b'?')) => (Some(p), &body[1..]),
        _ => (None, body),
    };
    let (params, intermediates) = split_intermediates(rest);
    let params = Params(params);
    match (prefix, intermediates, final_byte) {
        (Some(b'<'), b"", b'M' | b'm') => mouse(&params, final_byte == b'm'),
        (Some(b'?'), b"", b'u') => Meaning::Reply(Reply::KittyFlags(params.number(0, 0))),
        (Some(b'?'), b"", b'c') => Meaning::Reply(Reply::PrimaryAttributes),
        (Some(b'?'), b"", b'n') if params.number(0, 0) == 997 => Meaning::Reply(Reply::Theme {
            dark: params.number(1, 0) == 1,
        }),
        (Some(b'>'), b"", b'c') => Meaning::Reply(Reply::SecondaryAttributes),
        (Some(b'?') | None, b"$", b'y') => Meaning::Reply(Reply::Mode {
            mode: params.number(0, 0),
            setting: params.number(1, 0),
        }),
        (None, b"", b'u') => kitty_key(&params),
        (None, b"", b'~') => tilde(&params),
        (None, b"", b'I') if body.is_empty() => Meaning::Event(Event::FocusGained),
        (None, b"", b'O') if body.is_empty() => Meaning::Event(Event::FocusLost),
        (None, b"", b'Z') => {
            let (mods, state, kind) = modifier_param(&params);
            key(KeyCode::BackTab, mods | KeyModifiers::SHIFT, kind, state)
        }
        (None, b"", b'R') if params.number(0, 1) != 1 || params.count() != 2 => {
            // xterm's C-F3 is `CSI 1;5R` too; tilework never asks where
            // the cursor is, so only other rows are taken for answers.
            if params.count() == 2 {
                Meaning::Reply(Reply::CursorPosition {
                    row: params.number(0, 1),
                    column: params.number(1, 1),
                })
            } else if params.count() == 0 {
                key(
                    KeyCode::F(3),
                    KeyModifiers::NONE,
                    KeyEventKind::Press,
                    KeyEventState::NONE,
                )
            } else {
                Meaning::Nothing
            }
        }
        (None, b"", f) => match keys::from_final(f) {
            Some(code) => {
                let (mods, state, kind) = modifier_param(&params);
                key(code, mods, kind, state)
            }
            None => Meaning::Nothing,
        },
        _ => Meaning::Nothing,
    }
}

/// `ESC O x`: a cursor key in application mode, or F1-F4. `None`: not a
/// key (the user typed Alt-O and then `x`).
pub fn ss3_key(final_byte: u8) -> Option<KeyEvent> {
    let code = match final_byte {
        b'A'..=b'D' | b'F' | b'H' | b'P'..=b'S' => keys::from_final(final_byte)?,
        _ => return None,
    };
    Some(KeyEvent::from(code))
}

fn key(code: KeyCode, mods: KeyModifiers, kind: KeyEventKind, state: KeyEventState) -> Meaning {
    Meaning::Event(Event::Key(KeyEvent::new_with_kind_and_state(
        code, mods, kind, state,
    )))
}

/// The parameters (digits, `;`, `:`) and the intermediate bytes after them.
fn split_intermediates(rest: &[u8]) -> (&[u8], &[u8]) {
    let end = rest
        .iter()
        .position(|b| (0x20..=0x2f).contains(b))
        .unwrap_or(rest.len());
    rest.split_at(end)
}

/// A sequence's parameters: `;` between them, `:` between a parameter's
/// parts.
struct Params<'a>(&'a [u8]);

impl<'a> Params<'a> {
    fn count(&self) -> usize {
        if self.0.is_empty() {
            0
        } else {
            self.0.split(|&b| b == b';').count()
        }
    }

    fn param(&self, index: usize) -> Option<&'a [u8]> {
        self.0.split(|&b| b == b';').nth(index)
    }

    /// Part `part` of parameter `index`, if it is there and a number.
    fn part(&self, index: usize, part: usize) -> Option<u32> {
        let field = self.param(index)?.split(|&b| b == b':').nth(part)?;
        number(field)
    }

    /// Parameter `index`'s first part, or `default` when empty or absent.
    fn number(&self, index: usize, default: u32) -> u32 {
        self.part(index, 0).unwrap_or(default)
    }
}

fn number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    }))
}

/// The second parameter, `mods[:event]`, of a key sequence.
fn modifier_param(params: &Params<'_>) -> (KeyModifiers, KeyEventState, KeyEventKind) {
    let (mods, state) = keys::modifiers(params.number(1, 1));
    (mods, state, keys::kind(params.part(1, 1)))
}

/// `CSI number ; mods ~`.
fn tilde(params: &Params<'_>) -> Meaning {
    match params.number(0, 0) {
        200 => Meaning::PasteStart,
        n => match keys::from_tilde_number(n) {
            Some(code) => {
                let (mods, state, kind) = modifier_param(params);
                key(code, mods, kind, state)
            }
            None => Meaning::Nothing,
        },
    }
}

/// The kitty keyboard protocol: `CSI code[:shifted[:base]] ; mods[:event]
/// ; text u`.
fn kitty_key(params: &Params<'_>) -> Meaning {
    let Some(code) = params.part(0, 0) else {
        return Meaning::Nothing;
    };
    let (mut mods, lock_state, kind) = modifier_param(params);
    let Some((mut key_code, key_state)) = keys::from_kitty_code(code, mods) else {
        return Meaning::Nothing;
    };
    mods |= keys::modifier_of(key_code);
    // With "report alternate keys", a shifted key names what Shift made
    // of it: that character, Shift used up.
    if mods.contains(KeyModifiers::SHIFT)
        && let Some(shifted) = params.part(0, 1).and_then(char::from_u32)
    {
        key_code = KeyCode::Char(shifted);
        mods -= KeyModifiers::SHIFT;
    }
    key(key_code, mods, kind, key_state | lock_state)
}

/// SGR mouse: `CSI < button ; column ; row M` (press, drag, wheel) or `m`
/// (release). Columns and rows count from 1.
fn mouse(params: &Params<'_>, release: bool) -> Meaning {
    let (Some(cb), Some(column), Some(row)) =
        (params.part(0, 0), params.part(1, 0), params.part(2, 0))
    else {
        return Meaning::Nothing;
    };
    let Some((kind, modifiers)) = mouse_button(cb, release) else {
        return Meaning::Nothing;
    };
    let coordinate = |n: u32| u16::try_from(n.saturating_sub(1)).unwrap_or(u16::MAX);
    Meaning::Event(Event::Mouse(MouseEvent {
        kind,
        column: coordinate(column),
        row: coordinate(row),
        modifiers,
    }))
}

/// xterm's button byte: button in bits 0-1 and 6-7, Shift 4, Alt 8, Ctrl
/// 16, motion 32.
fn mouse_button(cb: u32, release: bool) -> Option<(MouseEventKind, KeyModifiers)> {
    let button = (cb & 0b11) | ((cb & 0b1100_0000) >> 4);
    let motion = cb & 32 != 0;
    let pressed = |b| {
        if release {
            MouseEventKind::Up(b)
        } else if motion {
            MouseEventKind::Drag(b)
        } else {
            MouseEventKind::Down(b)
        }
    };
    let kind = match button {
        0 => pressed(MouseButton::Left),
        1 => pressed(MouseButton::Middle),
        2 => pressed(MouseButton::Right),
        3 if motion => MouseEventKind::Moved,
        // X10's "released, button unknown".
        3 => MouseEventKind::Up(MouseButton::Left),
        4 => MouseEventKind::ScrollUp,
        5 => MouseEventKind::ScrollDown,
        6 => MouseEventKind::ScrollLeft,
        7 => MouseEventKind::ScrollRight,
        _ => return None,
    };
    let mut modifiers = KeyModifiers::NONE;
    for (bit, m) in [
        (4, KeyModifiers::SHIFT),
        (8, KeyModifiers::ALT),
        (16, KeyModifiers::CONTROL),
    ] {
        if cb & bit != 0 {
            modifiers |= m;
        }
    }
    Some((kind, modifiers))
}

/// X10 mouse: `CSI M` and three bytes, each 32 + a number.
pub fn x10_mouse(bytes: [u8; 3]) -> Option<Event> {
    let [cb, column, row] = bytes.map(|b| u32::from(b.saturating_sub(32)));
    let (kind, modifiers) = mouse_button(cb, false)?;
    let coordinate = |n: u32| u16::try_from(n.saturating_sub(1)).unwrap_or(u16::MAX);
    Some(Event::Mouse(MouseEvent {
        kind,
        column: coordinate(column),
        row: coordinate(row),
        modifiers,
    }))
}
