//! Input translation for panes.
//!
//! The multiplexer reads the user's terminal through crossterm, which decodes
//! bytes into structured events. The program inside a pane never sees those
//! structs: it expects the byte stream an xterm would have written to its PTY.
//! This module re-encodes events into exactly those bytes so that shells,
//! editors and pagers behave as if they ran directly in the outer terminal.
//!
//! Everything here is a pure function that only appends to a caller-owned
//! buffer: it runs on every keystroke and mouse motion, so it must not
//! allocate, and being pure lets the tests pin the output byte for byte.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::pane::term::screen::{MouseProtocolEncoding, MouseProtocolMode};

mod kitty_keys;

const ESC: u8 = 0x1b;

/// Bracketed-paste delimiters (DEC private mode 2004).
const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";
/// The same terminator spelled with the 8-bit C1 CSI (U+009B in UTF-8). Some
/// parsers honour C1 controls, so it is just as able to close the bracket.
const PASTE_END_C1: &[u8] = b"\xc2\x9b201~";

/// Terminal modes of the pane's program that change what keys encode to.
///
/// Kept as a small `Copy` struct (rather than passing the whole pane's
/// screen) so the encoder stays independent of the emulator and trivially
/// testable.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyModes {
    /// DECCKM: full-screen programs (vim, less, readline in some setups) ask
    /// for SS3 arrows so they can tell a keypress from typed-out CSI text.
    pub application_cursor: bool,
    /// The kitty keyboard protocol flags the program asked for (`CSI > n u`;
    /// 0: legacy keys). See [`kitty`].
    pub kitty_flags: u8,
}

/// Appends the bytes for `key` to `out`. Returns false (and appends nothing)
/// when the key sends nothing (e.g. key release events, bare modifier keys,
/// CapsLock, media keys).
///
/// The target is xterm with default resources (modifyOtherKeys off,
/// backarrowKey sends DEL) plus the near-universal "Alt prefixes ESC"
/// convention, because that is what terminfo `xterm-256color` — the TERM
/// panes advertise — describes and what programs are tested against.
///
/// A program that asked for the kitty keyboard protocol gets its keys in
/// the form it asked for ([`kitty`]).
pub fn encode_key(key: &KeyEvent, modes: KeyModes, out: &mut Vec<u8>) -> bool {
    if kitty_keys::applies(modes.kitty_flags) {
        return kitty_keys::encode_key(key, modes, out);
    }
    encode_legacy(key, modes, out)
}

/// The xterm encoding.
fn encode_legacy(key: &KeyEvent, modes: KeyModes, out: &mut Vec<u8>) -> bool {
    // Only presses produce input on a real terminal; releases are reported
    // solely when the kitty protocol is on and would otherwise double keys.
    if key.kind == KeyEventKind::Release {
        return false;
    }
    let mods = key.modifiers;
    // Crossterm reports the kitty protocol's Meta separately from Alt, but for
    // a legacy terminal program both can only mean "ESC prefix".
    let alt = mods.intersects(KeyModifiers::ALT.union(KeyModifiers::META));
    let ctrl = mods.contains(KeyModifiers::CONTROL);
    let shift = mods.contains(KeyModifiers::SHIFT);

    match key.code {
        KeyCode::Char(c) => encode_char(c, shift, alt, ctrl, out),
        KeyCode::Enter => push_prefixed(alt, b'\r', out),
        // Some terminals (kitty protocol) report Shift-Tab as Tab+Shift.
        KeyCode::Tab if shift => push_back_tab(mods, out),
        KeyCode::Tab => push_prefixed(alt, b'\t', out),
        KeyCode::BackTab => push_back_tab(mods, out),
        // backarrowKey: Backspace is DEL, and Ctrl flips it to BS, which is
        // how programs offer "delete word" on Ctrl-Backspace.
        KeyCode::Backspace => push_prefixed(alt, if ctrl { 0x08 } else { 0x7f }, out),
        KeyCode::Esc => push_prefixed(alt, ESC, out),
        KeyCode::Null => push_prefixed(alt, 0x00, out),
        KeyCode::Up => push_cursor(b'A', mods, modes, out),
        KeyCode::Down => push_cursor(b'B', mods, modes, out),
        KeyCode::Right => push_cursor(b'C', mods, modes, out),
        KeyCode::Left => push_cursor(b'D', mods, modes, out),
        KeyCode::Home => push_cursor(b'H', mods, modes, out),
        KeyCode::End => push_cursor(b'F', mods, modes, out),
        // Keypad 5 without NumLock; DECCKM does not cover it (it belongs to
        // the numeric keypad modes, which we do not emulate), so always CSI.
        KeyCode::KeypadBegin => push_csi_letter(b'E', modifier_param(mods), out),
        KeyCode::Insert => push_tilde(2, modifier_param(mods), out),
        KeyCode::Delete => push_tilde(3, modifier_param(mods), out),
        KeyCode::PageUp => push_tilde(5, modifier_param(mods), out),
        KeyCode::PageDown => push_tilde(6, modifier_param(mods), out),
        // xterm maps the Menu key to the VT220 "Do" key.
        KeyCode::Menu => push_tilde(29, modifier_param(mods), out),
        KeyCode::F(n) => return push_function_key(n, mods, out),
        // No byte representation exists for these on an xterm: they only
        // change local state (locks, modifiers) or belong to the desktop.
        KeyCode::CapsLock
        | KeyCode::ScrollLock
        | KeyCode::NumLock
        | KeyCode::PrintScreen
        | KeyCode::Pause
        | KeyCode::Media(_)
        | KeyCode::Modifier(_) => return false,
    }
    true
}

/// Pasted text as the program should receive it: newlines (\r\n, \n) become
/// \r like xterm; when `bracketed` wrap in ESC[200~ ... ESC[201~. Any
/// ESC[201~ inside the text must be removed first so a paste cannot end the
/// bracket early (security).
///
/// Newlines become CR because that is what the Enter key sends; a raw LF
/// would reach line editors as Ctrl-J. The terminator is filtered because
/// otherwise copied text could close the bracket and have the rest of the
/// clipboard executed as typed commands.
pub fn encode_paste(text: &str, bracketed: bool, out: &mut Vec<u8>) {
    if bracketed {
        out.extend_from_slice(PASTE_START);
    }
    let body_start = out.len();
    let mut previous_was_cr = false;
    for &byte in text.as_bytes() {
        // Byte-wise is safe: UTF-8 continuation bytes never equal ASCII.
        match byte {
            b'\n' if previous_was_cr => {}
            b'\n' => out.push(b'\r'),
            _ => out.push(byte),
        }
        previous_was_cr = byte == b'\r';
        if bracketed && byte == b'~' {
            strip_paste_terminator(out, body_start);
        }
    }
    if bracketed {
        out.extend_from_slice(PASTE_END);
    }
}

/// Removes a terminator that the byte just appended completed.
///
/// Checking the tail after every `~` (rather than one search-and-remove pass)
/// also defeats nested payloads like `ESC[20` `ESC[201~` `1~`, whose removal
/// would splice together a fresh terminator: the buffer behaves like a stack,
/// so every state it returns to has already been checked.
fn strip_paste_terminator(out: &mut Vec<u8>, body_start: usize) {
    loop {
        let body_len = out.len().saturating_sub(body_start);
        let cut = [PASTE_END, PASTE_END_C1]
            .into_iter()
            .find(|t| body_len >= t.len() && out.ends_with(t));
        match cut {
            Some(t) => out.truncate(out.len() - t.len()),
            None => break,
        }
    }
}

/// Mouse event forwarded to a program that enabled mouse reporting. `col`,
/// `row` are 0-based, relative to the pane's content area. Encodes per the
/// program's requested protocol mode and encoding: mode None => nothing;
/// Press => only presses (X10 style); PressRelease => presses+releases+wheel;
/// ButtonMotion => plus motion with a button held (Drag); AnyMotion => plus
/// all motion (Moved). Returns false (appending nothing) when the event is
/// not reported in this mode or cannot be represented in this encoding.
///
/// Coordinates come as parameters instead of from `event` because only the
/// caller knows where the pane sits on screen; the program must see
/// positions relative to its own grid.
pub fn encode_mouse(
    event: &MouseEvent,
    col: u16,
    row: u16,
    mode: MouseProtocolMode,
    encoding: MouseProtocolEncoding,
    out: &mut Vec<u8>,
) -> bool {
    let Some((code, release)) = mouse_code(event, mode) else {
        return false;
    };
    let x = u32::from(col) + 1;
    let y = u32::from(row) + 1;
    match encoding {
        MouseProtocolEncoding::Sgr => {
            // SGR keeps the button on release (final `m`), so apps know which
            // button went up, and has no coordinate limit.
            out.extend_from_slice(b"\x1b[<");
            push_decimal(u32::from(code), out);
            out.push(b';');
            push_decimal(x, out);
            out.push(b';');
            push_decimal(y, out);
            out.push(if release { b'm' } else { b'M' });
        }
        MouseProtocolEncoding::Default => {
            // Each value is one byte offset by 32; larger coordinates cannot
            // be expressed, and a clamped position would click the wrong cell.
            let (Ok(cx), Ok(cy)) = (u8::try_from(x + 32), u8::try_from(y + 32)) else {
                return false;
            };
            out.extend_from_slice(b"\x1b[M");
            out.push(32 + legacy_button(code, release));
            out.push(cx);
            out.push(cy);
        }
        MouseProtocolEncoding::Utf8 => {
            // xterm's mode 1005 spends at most two UTF-8 bytes per value.
            const MAX: u32 = 0x7ff;
            if x + 32 > MAX || y + 32 > MAX {
                return false;
            }
            out.extend_from_slice(b"\x1b[M");
            push_utf8_value(u32::from(32 + legacy_button(code, release)), out);
            push_utf8_value(x + 32, out);
            push_utf8_value(y + 32, out);
        }
    }
    true
}

/// The xterm button code (before the +32 offset) and whether it is a release,
/// or `None` when `mode` does not report this kind of event.
fn mouse_code(event: &MouseEvent, mode: MouseProtocolMode) -> Option<(u8, bool)> {
    use MouseProtocolMode as Mode;
    let (reports_release_and_wheel, reports_drag, reports_move) = match mode {
        Mode::None => return None,
        Mode::Press => (false, false, false),
        Mode::PressRelease => (true, false, false),
        Mode::ButtonMotion => (true, true, false),
        Mode::AnyMotion => (true, true, true),
    };
    const MOTION: u8 = 32;
    let (code, release) = match event.kind {
        MouseEventKind::Down(b) => (button_index(b), false),
        MouseEventKind::Up(b) if reports_release_and_wheel => (button_index(b), true),
        MouseEventKind::Drag(b) if reports_drag => (button_index(b) + MOTION, false),
        // "No button" is 3, the same value a legacy release uses.
        MouseEventKind::Moved if reports_move => (3 + MOTION, false),
        MouseEventKind::ScrollUp if reports_release_and_wheel => (64, false),
        MouseEventKind::ScrollDown if reports_release_and_wheel => (65, false),
        MouseEventKind::ScrollLeft if reports_release_and_wheel => (66, false),
        MouseEventKind::ScrollRight if reports_release_and_wheel => (67, false),
        _ => return None,
    };
    // X10 compatibility mode predates modifier reporting; xterm omits them.
    if mode == Mode::Press {
        return Some((code, release));
    }
    let mods = event.modifiers;
    let mut mod_bits = 0;
    if mods.contains(KeyModifiers::SHIFT) {
        mod_bits += 4;
    }
    if mods.intersects(KeyModifiers::ALT.union(KeyModifiers::META)) {
        mod_bits += 8;
    }
    if mods.contains(KeyModifiers::CONTROL) {
        mod_bits += 16;
    }
    Some((code + mod_bits, release))
}

fn button_index(button: MouseButton) -> u8 {
    match button {
        MouseButton::Left => 0,
        MouseButton::Middle => 1,
        MouseButton::Right => 2,
    }
}

/// Legacy encodings cannot say which button was released: the button bits
/// become 3 while the modifier bits survive.
fn legacy_button(code: u8, release: bool) -> u8 {
    if release { (code & !0b11) | 3 } else { code }
}

fn push_utf8_value(value: u32, out: &mut Vec<u8>) {
    // Callers bound `value` to 0x7ff, which is never a surrogate.
    if let Some(c) = char::from_u32(value) {
        push_char(c, out);
    }
}

fn encode_char(c: char, shift: bool, alt: bool, ctrl: bool, out: &mut Vec<u8>) {
    if alt {
        out.push(ESC);
    }
    if ctrl && let Some(byte) = control_byte(c) {
        out.push(byte);
        return;
    }
    // Legacy input already delivers shifted characters; this only matters for
    // protocols that report the base key plus Shift.
    let c = if shift && c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c
    };
    push_char(c, out);
}

/// Ctrl+character as X11's `XLookupString` (and hence xterm) computes it,
/// including the VT220 digit aliases. Crossterm decodes the bytes 0x1c-0x1f
/// as Ctrl-4..Ctrl-7, so those aliases are also what makes Ctrl-\ etc.
/// round-trip through the multiplexer. Characters without a control form
/// return `None` and are sent unchanged, as xterm does.
fn control_byte(c: char) -> Option<u8> {
    match c {
        ' ' | '2' => Some(0x00),
        '3'..='7' => Some(c as u8 - b'3' + 0x1b),
        '8' | '?' => Some(0x7f),
        '/' => Some(0x1f),
        '@'..='~' => Some(c as u8 & 0x1f),
        _ => None,
    }
}

fn push_char(c: char, out: &mut Vec<u8>) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

fn push_prefixed(alt: bool, byte: u8, out: &mut Vec<u8>) {
    if alt {
        out.push(ESC);
    }
    out.push(byte);
}

/// xterm's modifier parameter: 1 + Shift(1) + Alt(2) + Ctrl(4). Super and
/// Hyper are left out because legacy programs do not understand them and
/// would misread the whole sequence.
fn modifier_param(mods: KeyModifiers) -> u8 {
    let mut param = 1;
    if mods.contains(KeyModifiers::SHIFT) {
        param += 1;
    }
    if mods.intersects(KeyModifiers::ALT.union(KeyModifiers::META)) {
        param += 2;
    }
    if mods.contains(KeyModifiers::CONTROL) {
        param += 4;
    }
    param
}

/// Plain Shift-Tab is the bare CBT sequence every terminfo knows; extra
/// modifiers use the CSI parameter form so they are not silently lost.
fn push_back_tab(mods: KeyModifiers, out: &mut Vec<u8>) {
    let param = modifier_param(mods.union(KeyModifiers::SHIFT));
    if param == 2 {
        out.extend_from_slice(b"\x1b[Z");
    } else {
        push_csi_letter(b'Z', param, out);
    }
}

/// Arrows, Home and End: SS3 in application cursor mode, but a modifier can
/// only be expressed as a CSI parameter, so modified keys always use CSI.
fn push_cursor(letter: u8, mods: KeyModifiers, modes: KeyModes, out: &mut Vec<u8>) {
    let param = modifier_param(mods);
    if param == 1 && modes.application_cursor {
        out.extend_from_slice(&[ESC, b'O', letter]);
    } else {
        push_csi_letter(letter, param, out);
    }
}

/// `CSI letter`, or `CSI 1 ; param letter` when modified (the leading 1 is a
/// placeholder so the modifier lands in the second parameter).
fn push_csi_letter(letter: u8, param: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if param > 1 {
        out.extend_from_slice(b"1;");
        push_decimal(u32::from(param), out);
    }
    out.push(letter);
}

/// VT220-style editing and function keys: `CSI code ~` / `CSI code ; param ~`.
fn push_tilde(code: u8, param: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    push_decimal(u32::from(code), out);
    if param > 1 {
        out.push(b';');
        push_decimal(u32::from(param), out);
    }
    out.push(b'~');
}

/// F1-F4 are SS3 P-S (VT100 PF1-PF4), F5-F12 use VT220 codes with their
/// historical gaps. F13-F24 are what X reports for Shift+F1..F12, so they
/// encode as such, matching xterm's terminfo `kf13`..`kf24`.
fn push_function_key(n: u8, mods: KeyModifiers, out: &mut Vec<u8>) -> bool {
    let (n, mods) = match n {
        13..=24 => (n - 12, mods.union(KeyModifiers::SHIFT)),
        _ => (n, mods),
    };
    let param = modifier_param(mods);
    match n {
        1..=4 => {
            let letter = b'P' + (n - 1);
            if param == 1 {
                out.extend_from_slice(&[ESC, b'O', letter]);
            } else {
                push_csi_letter(letter, param, out);
            }
        }
        5..=12 => {
            const CODES: [u8; 8] = [15, 17, 18, 19, 20, 21, 23, 24];
            let code = CODES[usize::from(n - 5)];
            push_tilde(code, param, out);
        }
        _ => return false,
    }
    true
}

fn push_decimal(mut n: u32, out: &mut Vec<u8>) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{MediaKeyCode, ModifierKeyCode};

    const NONE: KeyModifiers = KeyModifiers::NONE;
    const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
    const CTRL: KeyModifiers = KeyModifiers::CONTROL;
    const ALT: KeyModifiers = KeyModifiers::ALT;
    const META: KeyModifiers = KeyModifiers::META;
    const SUPER: KeyModifiers = KeyModifiers::SUPER;
    const CTRL_SHIFT: KeyModifiers = CTRL.union(SHIFT);
    const CTRL_ALT: KeyModifiers = CTRL.union(ALT);
    const ALT_SHIFT: KeyModifiers = ALT.union(SHIFT);
    const CTRL_ALT_SHIFT: KeyModifiers = CTRL_ALT.union(SHIFT);

    const NORMAL: KeyModes = KeyModes {
        application_cursor: false,
        kitty_flags: 0,
    };
    const APP: KeyModes = KeyModes {
        application_cursor: true,
        kitty_flags: 0,
    };

    const fn k(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }
    const fn c(ch: char, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(ch), mods)
    }
    const fn kind(code: KeyCode, mods: KeyModifiers, kind: KeyEventKind) -> KeyEvent {
        KeyEvent::new_with_kind(code, mods, kind)
    }

    /// (description, event, modes, expected bytes); empty = sends nothing.
    #[rustfmt::skip]
    const KEY_CASES: &[(&str, KeyEvent, KeyModes, &[u8])] = &[
        // Enter, Backspace, Tab, Esc
        ("Enter", k(KeyCode::Enter, NONE), NORMAL, b"\r"),
        ("Alt-Enter", k(KeyCode::Enter, ALT), NORMAL, b"\x1b\r"),
        ("Ctrl-Enter", k(KeyCode::Enter, CTRL), NORMAL, b"\r"),
        ("Shift-Enter", k(KeyCode::Enter, SHIFT), NORMAL, b"\r"),
        ("Backspace", k(KeyCode::Backspace, NONE), NORMAL, b"\x7f"),
        ("Shift-Backspace", k(KeyCode::Backspace, SHIFT), NORMAL, b"\x7f"),
        ("Ctrl-Backspace", k(KeyCode::Backspace, CTRL), NORMAL, b"\x08"),
        ("Alt-Backspace", k(KeyCode::Backspace, ALT), NORMAL, b"\x1b\x7f"),
        ("Ctrl-Alt-Backspace", k(KeyCode::Backspace, CTRL_ALT), NORMAL, b"\x1b\x08"),
        ("Tab", k(KeyCode::Tab, NONE), NORMAL, b"\t"),
        ("Alt-Tab", k(KeyCode::Tab, ALT), NORMAL, b"\x1b\t"),
        ("Ctrl-Tab", k(KeyCode::Tab, CTRL), NORMAL, b"\t"),
        ("Shift-Tab as BackTab+Shift", k(KeyCode::BackTab, SHIFT), NORMAL, b"\x1b[Z"),
        ("Shift-Tab as bare BackTab", k(KeyCode::BackTab, NONE), NORMAL, b"\x1b[Z"),
        ("Shift-Tab as Tab+Shift", k(KeyCode::Tab, SHIFT), NORMAL, b"\x1b[Z"),
        ("Ctrl-Shift-Tab", k(KeyCode::BackTab, CTRL_SHIFT), NORMAL, b"\x1b[1;6Z"),
        ("Alt-Shift-Tab", k(KeyCode::BackTab, ALT_SHIFT), NORMAL, b"\x1b[1;4Z"),
        ("Esc", k(KeyCode::Esc, NONE), NORMAL, b"\x1b"),
        ("Alt-Esc", k(KeyCode::Esc, ALT), NORMAL, b"\x1b\x1b"),
        ("Null", k(KeyCode::Null, NONE), NORMAL, b"\x00"),
        // Printable characters
        ("a", c('a', NONE), NORMAL, b"a"),
        ("Shift-A", c('A', SHIFT), NORMAL, b"A"),
        ("A without Shift flag", c('A', NONE), NORMAL, b"A"),
        ("a+Shift (kitty-style base key)", c('a', SHIFT), NORMAL, b"A"),
        ("Shift-5 arrives shifted", c('%', SHIFT), NORMAL, b"%"),
        ("space", c(' ', NONE), NORMAL, b" "),
        ("e-acute", c('é', NONE), NORMAL, "é".as_bytes()),
        ("CJK", c('日', NONE), NORMAL, "日".as_bytes()),
        ("astral emoji", c('🦀', NONE), NORMAL, "🦀".as_bytes()),
        ("Super-x ignores Super", c('x', SUPER), NORMAL, b"x"),
        // Alt prefixes ESC
        ("Alt-x", c('x', ALT), NORMAL, b"\x1bx"),
        ("Alt-Shift-X", c('X', ALT_SHIFT), NORMAL, b"\x1bX"),
        ("Meta-x", c('x', META), NORMAL, b"\x1bx"),
        ("Alt-e-acute", c('é', ALT), NORMAL, b"\x1b\xc3\xa9"),
        ("Alt-.", c('.', ALT), NORMAL, b"\x1b."),
        // Control characters
        ("Ctrl-a", c('a', CTRL), NORMAL, b"\x01"),
        ("Ctrl-c", c('c', CTRL), NORMAL, b"\x03"),
        ("Ctrl-h (also legacy Ctrl-Backspace)", c('h', CTRL), NORMAL, b"\x08"),
        ("Ctrl-i", c('i', CTRL), NORMAL, b"\x09"),
        ("Ctrl-j", c('j', CTRL), NORMAL, b"\x0a"),
        ("Ctrl-m", c('m', CTRL), NORMAL, b"\x0d"),
        ("Ctrl-z", c('z', CTRL), NORMAL, b"\x1a"),
        ("Ctrl-Shift-A", c('A', CTRL_SHIFT), NORMAL, b"\x01"),
        ("Ctrl-Shift-Z", c('Z', CTRL_SHIFT), NORMAL, b"\x1a"),
        ("Ctrl-A without Shift flag", c('A', CTRL), NORMAL, b"\x01"),
        ("Ctrl-Space", c(' ', CTRL), NORMAL, b"\x00"),
        ("Ctrl-@", c('@', CTRL), NORMAL, b"\x00"),
        ("Ctrl-2", c('2', CTRL), NORMAL, b"\x00"),
        ("Ctrl-`", c('`', CTRL), NORMAL, b"\x00"),
        ("Ctrl-[", c('[', CTRL), NORMAL, b"\x1b"),
        ("Ctrl-3", c('3', CTRL), NORMAL, b"\x1b"),
        ("Ctrl-\\", c('\\', CTRL), NORMAL, b"\x1c"),
        ("Ctrl-4 (crossterm's Ctrl-\\)", c('4', CTRL), NORMAL, b"\x1c"),
        ("Ctrl-]", c(']', CTRL), NORMAL, b"\x1d"),
        ("Ctrl-5 (crossterm's Ctrl-])", c('5', CTRL), NORMAL, b"\x1d"),
        ("Ctrl-^", c('^', CTRL), NORMAL, b"\x1e"),
        ("Ctrl-6 (crossterm's Ctrl-^)", c('6', CTRL), NORMAL, b"\x1e"),
        ("Ctrl-~", c('~', CTRL), NORMAL, b"\x1e"),
        ("Ctrl-_", c('_', CTRL), NORMAL, b"\x1f"),
        ("Ctrl-/", c('/', CTRL), NORMAL, b"\x1f"),
        ("Ctrl-7 (crossterm's Ctrl-/ and Ctrl-_)", c('7', CTRL), NORMAL, b"\x1f"),
        ("Ctrl-?", c('?', CTRL), NORMAL, b"\x7f"),
        ("Ctrl-8", c('8', CTRL), NORMAL, b"\x7f"),
        ("Ctrl-1 has no control form", c('1', CTRL), NORMAL, b"1"),
        ("Ctrl-, has no control form", c(',', CTRL), NORMAL, b","),
        ("Ctrl-e-acute has no control form", c('é', CTRL), NORMAL, "é".as_bytes()),
        ("Ctrl-Alt-a", c('a', CTRL_ALT), NORMAL, b"\x1b\x01"),
        ("Ctrl-Alt-Shift-A", c('A', CTRL_ALT_SHIFT), NORMAL, b"\x1b\x01"),
        ("Ctrl-Alt-Space", c(' ', CTRL_ALT), NORMAL, b"\x1b\x00"),
        ("Ctrl-Alt-4", c('4', CTRL_ALT), NORMAL, b"\x1b\x1c"),
        // Cursor keys
        ("Up", k(KeyCode::Up, NONE), NORMAL, b"\x1b[A"),
        ("Down", k(KeyCode::Down, NONE), NORMAL, b"\x1b[B"),
        ("Right", k(KeyCode::Right, NONE), NORMAL, b"\x1b[C"),
        ("Left", k(KeyCode::Left, NONE), NORMAL, b"\x1b[D"),
        ("Home", k(KeyCode::Home, NONE), NORMAL, b"\x1b[H"),
        ("End", k(KeyCode::End, NONE), NORMAL, b"\x1b[F"),
        ("app Up", k(KeyCode::Up, NONE), APP, b"\x1bOA"),
        ("app Down", k(KeyCode::Down, NONE), APP, b"\x1bOB"),
        ("app Right", k(KeyCode::Right, NONE), APP, b"\x1bOC"),
        ("app Left", k(KeyCode::Left, NONE), APP, b"\x1bOD"),
        ("app Home", k(KeyCode::Home, NONE), APP, b"\x1bOH"),
        ("app End", k(KeyCode::End, NONE), APP, b"\x1bOF"),
        ("Ctrl-Up", k(KeyCode::Up, CTRL), NORMAL, b"\x1b[1;5A"),
        ("app Ctrl-Up stays CSI", k(KeyCode::Up, CTRL), APP, b"\x1b[1;5A"),
        ("Shift-Right", k(KeyCode::Right, SHIFT), NORMAL, b"\x1b[1;2C"),
        ("Alt-Left", k(KeyCode::Left, ALT), NORMAL, b"\x1b[1;3D"),
        ("Meta-Left", k(KeyCode::Left, META), NORMAL, b"\x1b[1;3D"),
        ("Alt-Shift-Down", k(KeyCode::Down, ALT_SHIFT), NORMAL, b"\x1b[1;4B"),
        ("Ctrl-Shift-Home", k(KeyCode::Home, CTRL_SHIFT), NORMAL, b"\x1b[1;6H"),
        ("Ctrl-Alt-End", k(KeyCode::End, CTRL_ALT), NORMAL, b"\x1b[1;7F"),
        ("Ctrl-Alt-Shift-Up", k(KeyCode::Up, CTRL_ALT_SHIFT), APP, b"\x1b[1;8A"),
        ("Super-Up ignores Super", k(KeyCode::Up, SUPER), NORMAL, b"\x1b[A"),
        ("KeypadBegin", k(KeyCode::KeypadBegin, NONE), APP, b"\x1b[E"),
        ("Ctrl-KeypadBegin", k(KeyCode::KeypadBegin, CTRL), NORMAL, b"\x1b[1;5E"),
        // Editing keys
        ("Insert", k(KeyCode::Insert, NONE), NORMAL, b"\x1b[2~"),
        ("Delete", k(KeyCode::Delete, NONE), NORMAL, b"\x1b[3~"),
        ("PageUp", k(KeyCode::PageUp, NONE), NORMAL, b"\x1b[5~"),
        ("PageDown", k(KeyCode::PageDown, NONE), NORMAL, b"\x1b[6~"),
        ("app mode leaves Delete alone", k(KeyCode::Delete, NONE), APP, b"\x1b[3~"),
        ("Shift-Delete", k(KeyCode::Delete, SHIFT), NORMAL, b"\x1b[3;2~"),
        ("Ctrl-PageUp", k(KeyCode::PageUp, CTRL), NORMAL, b"\x1b[5;5~"),
        ("Alt-Insert", k(KeyCode::Insert, ALT), NORMAL, b"\x1b[2;3~"),
        ("Ctrl-Alt-Shift-PageDown", k(KeyCode::PageDown, CTRL_ALT_SHIFT), NORMAL, b"\x1b[6;8~"),
        ("Menu", k(KeyCode::Menu, NONE), NORMAL, b"\x1b[29~"),
        // Function keys
        ("F1", k(KeyCode::F(1), NONE), NORMAL, b"\x1bOP"),
        ("F2", k(KeyCode::F(2), NONE), NORMAL, b"\x1bOQ"),
        ("F3", k(KeyCode::F(3), NONE), NORMAL, b"\x1bOR"),
        ("F4", k(KeyCode::F(4), NONE), NORMAL, b"\x1bOS"),
        ("app F1 unchanged", k(KeyCode::F(1), NONE), APP, b"\x1bOP"),
        ("Ctrl-F1", k(KeyCode::F(1), CTRL), NORMAL, b"\x1b[1;5P"),
        ("Shift-F2", k(KeyCode::F(2), SHIFT), NORMAL, b"\x1b[1;2Q"),
        ("Alt-F3", k(KeyCode::F(3), ALT), NORMAL, b"\x1b[1;3R"),
        ("Ctrl-Shift-F4", k(KeyCode::F(4), CTRL_SHIFT), NORMAL, b"\x1b[1;6S"),
        ("F5", k(KeyCode::F(5), NONE), NORMAL, b"\x1b[15~"),
        ("F6", k(KeyCode::F(6), NONE), NORMAL, b"\x1b[17~"),
        ("F7", k(KeyCode::F(7), NONE), NORMAL, b"\x1b[18~"),
        ("F8", k(KeyCode::F(8), NONE), NORMAL, b"\x1b[19~"),
        ("F9", k(KeyCode::F(9), NONE), NORMAL, b"\x1b[20~"),
        ("F10", k(KeyCode::F(10), NONE), NORMAL, b"\x1b[21~"),
        ("F11", k(KeyCode::F(11), NONE), NORMAL, b"\x1b[23~"),
        ("F12", k(KeyCode::F(12), NONE), NORMAL, b"\x1b[24~"),
        ("Ctrl-F5", k(KeyCode::F(5), CTRL), NORMAL, b"\x1b[15;5~"),
        ("Alt-F12", k(KeyCode::F(12), ALT), NORMAL, b"\x1b[24;3~"),
        ("F13 = Shift-F1", k(KeyCode::F(13), NONE), NORMAL, b"\x1b[1;2P"),
        ("F17 = Shift-F5", k(KeyCode::F(17), NONE), NORMAL, b"\x1b[15;2~"),
        ("F24 = Shift-F12", k(KeyCode::F(24), NONE), NORMAL, b"\x1b[24;2~"),
        ("Ctrl-F13", k(KeyCode::F(13), CTRL), NORMAL, b"\x1b[1;6P"),
        ("F0 does not exist", k(KeyCode::F(0), NONE), NORMAL, b""),
        ("F25 has no encoding", k(KeyCode::F(25), NONE), NORMAL, b""),
        // Event kinds
        ("repeat sends", kind(KeyCode::Char('a'), NONE, KeyEventKind::Repeat), NORMAL, b"a"),
        ("repeat Up sends", kind(KeyCode::Up, NONE, KeyEventKind::Repeat), APP, b"\x1bOA"),
        ("release sends nothing", kind(KeyCode::Char('a'), NONE, KeyEventKind::Release), NORMAL, b""),
        ("Enter release sends nothing", kind(KeyCode::Enter, NONE, KeyEventKind::Release), NORMAL, b""),
        ("Up release sends nothing", kind(KeyCode::Up, CTRL, KeyEventKind::Release), NORMAL, b""),
        // Keys with no bytes
        ("CapsLock", k(KeyCode::CapsLock, NONE), NORMAL, b""),
        ("ScrollLock", k(KeyCode::ScrollLock, NONE), NORMAL, b""),
        ("NumLock", k(KeyCode::NumLock, NONE), NORMAL, b""),
        ("PrintScreen", k(KeyCode::PrintScreen, NONE), NORMAL, b""),
        ("Pause", k(KeyCode::Pause, NONE), NORMAL, b""),
        ("media key", k(KeyCode::Media(MediaKeyCode::PlayPause), NONE), NORMAL, b""),
        ("bare Shift", k(KeyCode::Modifier(ModifierKeyCode::LeftShift), SHIFT), NORMAL, b""),
        ("bare Ctrl", k(KeyCode::Modifier(ModifierKeyCode::RightControl), CTRL), NORMAL, b""),
    ];

    #[test]
    fn key_table() {
        let mut failures = Vec::new();
        for &(name, key, modes, expected) in KEY_CASES {
            // A prefix proves the encoder appends rather than overwrites.
            let mut out = b"#".to_vec();
            let sent = encode_key(&key, modes, &mut out);
            let got = &out[1..];
            if got != expected || sent == expected.is_empty() {
                failures.push(format!(
                    "{name}: got {:?} (returned {sent}), expected {:?}",
                    got.escape_ascii().to_string(),
                    expected.escape_ascii().to_string()
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn every_ctrl_letter_in_both_cases() {
        for (i, (lower, upper)) in ('a'..='z').zip('A'..='Z').enumerate() {
            let expected = [i as u8 + 1];
            for event in [c(lower, CTRL), c(upper, CTRL_SHIFT)] {
                let mut out = Vec::new();
                assert!(encode_key(&event, NORMAL, &mut out));
                assert_eq!(out, expected, "{event:?}");
            }
        }
    }

    fn paste(text: &str, bracketed: bool) -> Vec<u8> {
        let mut out = Vec::new();
        encode_paste(text, bracketed, &mut out);
        out
    }

    #[test]
    fn paste_unbracketed_is_raw_text() {
        assert_eq!(paste("echo hi", false), b"echo hi");
        assert_eq!(paste("", false), b"");
        assert_eq!(paste("naïve 日本", false), "naïve 日本".as_bytes());
    }

    #[test]
    fn paste_converts_newlines_to_cr() {
        assert_eq!(paste("a\nb\r\nc\rd\n", false), b"a\rb\rc\rd\r");
        assert_eq!(paste("\n\n", false), b"\r\r");
        assert_eq!(paste("\r\r\n", false), b"\r\r");
        assert_eq!(paste("x\r\ny", true), b"\x1b[200~x\ry\x1b[201~");
    }

    #[test]
    fn paste_bracketed_wraps() {
        assert_eq!(paste("ls", true), b"\x1b[200~ls\x1b[201~");
        assert_eq!(paste("", true), b"\x1b[200~\x1b[201~");
    }

    #[test]
    fn paste_appends_to_existing_output() {
        let mut out = b"prefix".to_vec();
        encode_paste("a\n", true, &mut out);
        assert_eq!(out, b"prefix\x1b[200~a\r\x1b[201~");
    }

    #[test]
    fn paste_cannot_terminate_bracket_early() {
        assert_eq!(
            paste("safe\x1b[201~rm -rf ~\n", true),
            b"\x1b[200~saferm -rf ~\r\x1b[201~"
        );
        assert_eq!(paste("\x1b[201~\x1b[201~x", true), b"\x1b[200~x\x1b[201~");
        // Removing the inner terminator splices the outer one together.
        assert_eq!(paste("a\x1b[20\x1b[201~1~b", true), b"\x1b[200~ab\x1b[201~");
        // 8-bit CSI form.
        assert_eq!(paste("a\u{9b}201~b", true), b"\x1b[200~ab\x1b[201~");
        // Lookalikes survive.
        assert_eq!(
            paste("\x1b[200~\x1b[201\x1b[2010~", true),
            b"\x1b[200~\x1b[200~\x1b[201\x1b[2010~\x1b[201~"
        );
    }

    #[test]
    fn paste_unbracketed_keeps_escape_sequences() {
        // Without a bracket there is nothing to break out of.
        assert_eq!(paste("\x1b[201~", false), b"\x1b[201~");
    }

    fn mouse_event(kind: MouseEventKind, modifiers: KeyModifiers) -> MouseEvent {
        // The event's own position is deliberately bogus: the encoder must use
        // the pane-relative coordinates passed alongside it.
        MouseEvent {
            kind,
            column: 500,
            row: 500,
            modifiers,
        }
    }

    use MouseButton::{Left, Middle, Right};
    use MouseEventKind::{Down, Drag, Moved, ScrollDown, ScrollLeft, ScrollRight, ScrollUp, Up};
    use MouseProtocolEncoding::{Default as X10Enc, Sgr, Utf8};
    use MouseProtocolMode::{AnyMotion, ButtonMotion, Press, PressRelease};

    /// (description, kind, modifiers, col, row, mode, encoding, expected).
    type MouseCase = (
        &'static str,
        MouseEventKind,
        KeyModifiers,
        u16,
        u16,
        MouseProtocolMode,
        MouseProtocolEncoding,
        &'static [u8],
    );

    #[rustfmt::skip]
    const MOUSE_CASES: &[MouseCase] = &[
        // SGR basics
        ("SGR left press", Down(Left), NONE, 5, 2, PressRelease, Sgr, b"\x1b[<0;6;3M"),
        ("SGR left release", Up(Left), NONE, 5, 2, PressRelease, Sgr, b"\x1b[<0;6;3m"),
        ("SGR middle press", Down(Middle), NONE, 0, 0, PressRelease, Sgr, b"\x1b[<1;1;1M"),
        ("SGR right press", Down(Right), NONE, 0, 0, PressRelease, Sgr, b"\x1b[<2;1;1M"),
        ("SGR right release keeps button", Up(Right), NONE, 0, 0, PressRelease, Sgr, b"\x1b[<2;1;1m"),
        ("SGR wheel up", ScrollUp, NONE, 0, 0, PressRelease, Sgr, b"\x1b[<64;1;1M"),
        ("SGR wheel down", ScrollDown, NONE, 0, 0, PressRelease, Sgr, b"\x1b[<65;1;1M"),
        ("SGR wheel left", ScrollLeft, NONE, 0, 0, PressRelease, Sgr, b"\x1b[<66;1;1M"),
        ("SGR wheel right", ScrollRight, NONE, 0, 0, PressRelease, Sgr, b"\x1b[<67;1;1M"),
        ("SGR left drag", Drag(Left), NONE, 3, 4, ButtonMotion, Sgr, b"\x1b[<32;4;5M"),
        ("SGR right drag", Drag(Right), NONE, 3, 4, ButtonMotion, Sgr, b"\x1b[<34;4;5M"),
        ("SGR move", Moved, NONE, 3, 4, AnyMotion, Sgr, b"\x1b[<35;4;5M"),
        ("SGR huge coords", Down(Left), NONE, 1000, u16::MAX, PressRelease, Sgr, b"\x1b[<0;1001;65536M"),
        // Modifiers
        ("Shift press", Down(Left), SHIFT, 0, 0, PressRelease, Sgr, b"\x1b[<4;1;1M"),
        ("Alt press", Down(Left), ALT, 0, 0, PressRelease, Sgr, b"\x1b[<8;1;1M"),
        ("Meta press", Down(Left), META, 0, 0, PressRelease, Sgr, b"\x1b[<8;1;1M"),
        ("Ctrl press", Down(Left), CTRL, 0, 0, PressRelease, Sgr, b"\x1b[<16;1;1M"),
        ("Ctrl-Alt-Shift right press", Down(Right), CTRL_ALT_SHIFT, 0, 0, PressRelease, Sgr, b"\x1b[<30;1;1M"),
        ("Ctrl release", Up(Middle), CTRL, 0, 0, PressRelease, Sgr, b"\x1b[<17;1;1m"),
        ("Ctrl wheel up", ScrollUp, CTRL, 0, 0, PressRelease, Sgr, b"\x1b[<80;1;1M"),
        ("Shift drag", Drag(Left), SHIFT, 0, 0, ButtonMotion, Sgr, b"\x1b[<36;1;1M"),
        ("Alt move", Moved, ALT, 0, 0, AnyMotion, Sgr, b"\x1b[<43;1;1M"),
        ("X10 mode drops modifiers", Down(Left), CTRL_ALT_SHIFT, 5, 2, Press, Sgr, b"\x1b[<0;6;3M"),
        // Mode None
        ("None: press", Down(Left), NONE, 0, 0, MouseProtocolMode::None, Sgr, b""),
        ("None: wheel", ScrollUp, NONE, 0, 0, MouseProtocolMode::None, Sgr, b""),
        ("None: move", Moved, NONE, 0, 0, MouseProtocolMode::None, X10Enc, b""),
        // Mode Press (X10)
        ("Press: press", Down(Right), NONE, 0, 0, Press, X10Enc, b"\x1b[M\x22\x21\x21"),
        ("Press: release", Up(Left), NONE, 0, 0, Press, Sgr, b""),
        ("Press: wheel", ScrollUp, NONE, 0, 0, Press, Sgr, b""),
        ("Press: drag", Drag(Left), NONE, 0, 0, Press, Sgr, b""),
        ("Press: move", Moved, NONE, 0, 0, Press, Sgr, b""),
        // Mode PressRelease
        ("PressRelease: drag", Drag(Left), NONE, 0, 0, PressRelease, Sgr, b""),
        ("PressRelease: move", Moved, NONE, 0, 0, PressRelease, Sgr, b""),
        // Mode ButtonMotion
        ("ButtonMotion: press", Down(Left), NONE, 0, 0, ButtonMotion, Sgr, b"\x1b[<0;1;1M"),
        ("ButtonMotion: release", Up(Left), NONE, 0, 0, ButtonMotion, Sgr, b"\x1b[<0;1;1m"),
        ("ButtonMotion: wheel", ScrollDown, NONE, 0, 0, ButtonMotion, Sgr, b"\x1b[<65;1;1M"),
        ("ButtonMotion: move", Moved, NONE, 0, 0, ButtonMotion, Sgr, b""),
        // Mode AnyMotion
        ("AnyMotion: press", Down(Left), NONE, 0, 0, AnyMotion, Sgr, b"\x1b[<0;1;1M"),
        ("AnyMotion: release", Up(Left), NONE, 0, 0, AnyMotion, Sgr, b"\x1b[<0;1;1m"),
        ("AnyMotion: wheel", ScrollUp, NONE, 0, 0, AnyMotion, Sgr, b"\x1b[<64;1;1M"),
        ("AnyMotion: drag", Drag(Middle), NONE, 0, 0, AnyMotion, Sgr, b"\x1b[<33;1;1M"),
        // Default (X10) encoding: 32 + value, one byte each
        ("X10 left press", Down(Left), NONE, 5, 2, PressRelease, X10Enc, b"\x1b[M &#"),
        ("X10 left release is button 3", Up(Left), NONE, 5, 2, PressRelease, X10Enc, b"\x1b[M#&#"),
        ("X10 right release is button 3", Up(Right), NONE, 5, 2, PressRelease, X10Enc, b"\x1b[M#&#"),
        ("X10 Shift release keeps modifier", Up(Right), SHIFT, 5, 2, PressRelease, X10Enc, b"\x1b[M'&#"),
        ("X10 Ctrl press", Down(Middle), CTRL, 5, 2, PressRelease, X10Enc, b"\x1b[M1&#"),
        ("X10 wheel up", ScrollUp, NONE, 0, 0, PressRelease, X10Enc, b"\x1b[M`!!"),
        ("X10 drag", Drag(Left), NONE, 0, 0, ButtonMotion, X10Enc, b"\x1b[M@!!"),
        ("X10 move", Moved, NONE, 0, 0, AnyMotion, X10Enc, b"\x1b[MC!!"),
        ("X10 largest col", Down(Left), NONE, 222, 0, PressRelease, X10Enc, b"\x1b[M \xff!"),
        ("X10 largest row", Down(Left), NONE, 0, 222, PressRelease, X10Enc, b"\x1b[M !\xff"),
        ("X10 col out of range", Down(Left), NONE, 223, 0, PressRelease, X10Enc, b""),
        ("X10 row out of range", Down(Left), NONE, 0, 223, PressRelease, X10Enc, b""),
        ("X10 release out of range", Up(Left), NONE, 300, 300, PressRelease, X10Enc, b""),
        // UTF-8 encoding: same values, each as a UTF-8 character
        ("UTF-8 small coords match X10", Down(Left), NONE, 5, 2, PressRelease, Utf8, b"\x1b[M &#"),
        ("UTF-8 release is button 3", Up(Left), NONE, 5, 2, PressRelease, Utf8, b"\x1b[M#&#"),
        ("UTF-8 col 94 is last 1-byte", Down(Left), NONE, 94, 0, PressRelease, Utf8, b"\x1b[M \x7f!"),
        ("UTF-8 col 95 needs 2 bytes", Down(Left), NONE, 95, 0, PressRelease, Utf8, b"\x1b[M \xc2\x80!"),
        ("UTF-8 col 222", Down(Left), NONE, 222, 0, PressRelease, Utf8, b"\x1b[M \xc3\xbf!"),
        ("UTF-8 col 223 beyond X10", Down(Left), NONE, 223, 0, PressRelease, Utf8, b"\x1b[M \xc4\x80!"),
        ("UTF-8 largest row", Down(Left), NONE, 0, 2014, PressRelease, Utf8, b"\x1b[M !\xdf\xbf"),
        ("UTF-8 row out of range", Down(Left), NONE, 0, 2015, PressRelease, Utf8, b""),
        ("UTF-8 col out of range", Down(Left), NONE, u16::MAX, 0, PressRelease, Utf8, b""),
    ];

    #[test]
    fn mouse_table() {
        let mut failures = Vec::new();
        for &(name, kind, mods, col, row, mode, encoding, expected) in MOUSE_CASES {
            let mut out = b"#".to_vec();
            let event = mouse_event(kind, mods);
            let sent = encode_mouse(&event, col, row, mode, encoding, &mut out);
            let got = &out[1..];
            if got != expected || sent == expected.is_empty() {
                failures.push(format!(
                    "{name}: got {:?} (returned {sent}), expected {:?}",
                    got.escape_ascii().to_string(),
                    expected.escape_ascii().to_string()
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn mouse_mode_none_never_reports() {
        let kinds = [
            Down(Left),
            Up(Left),
            Drag(Left),
            Moved,
            ScrollUp,
            ScrollDown,
            ScrollLeft,
            ScrollRight,
        ];
        for kind in kinds {
            for encoding in [X10Enc, Utf8, Sgr] {
                let mut out = Vec::new();
                let event = mouse_event(kind, NONE);
                assert!(!encode_mouse(
                    &event,
                    0,
                    0,
                    MouseProtocolMode::None,
                    encoding,
                    &mut out
                ));
                assert!(out.is_empty());
            }
        }
    }

    #[test]
    fn push_decimal_writes_all_widths() {
        for n in [0, 7, 10, 99, 100, 65_536, u32::MAX] {
            let mut out = Vec::new();
            push_decimal(n, &mut out);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
