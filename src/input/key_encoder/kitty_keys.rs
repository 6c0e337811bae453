//! Keys for a program that asked for the kitty keyboard protocol
//! (`CSI > flags u`, kept per pane and screen by the fidelity layer).
//!
//! What each flag changes, as the protocol defines it:
//! - 1, disambiguate: Esc, and keys with Ctrl, Alt, Super (any key but
//!   Shift alone on a text key), arrive as `CSI code ; modifiers u`, so
//!   C-i, C-m and C-[ are no longer Tab, Enter and Esc and Alt-x is no
//!   longer Esc then x. Text, and plain Enter, Tab and Backspace, stay as
//!   they were (so a shell still works after a program that forgot to
//!   turn the protocol off).
//! - 2, event types: repeats (`:2`) and releases (`:3`) of the keys sent
//!   as sequences. tilework learns of releases only from a user's terminal
//!   that reports them; tilework asks the user's terminal for flag 1 only,
//!   so in practice presses are all it passes on.
//! - 4, alternate keys: the shifted key after the base key (`97:65`).
//! - 8, all keys as escape codes: text, Enter, Tab and Backspace too.
//! - 16, associated text: with 8, the text a key types as a third field.
//!
//! The key code is the key's base (unshifted) character; what crossterm
//! reports for a shifted symbol (`%` with Shift) is the only key known,
//! so it is sent as it is. Cursor, editing and function keys keep their
//! xterm CSI forms, with the modifiers (and event type) in the parameters;
//! F1-F4 and the cursor keys are CSI even unmodified and in application
//! cursor mode (`CSI P`, `CSI A`), as kitty's own encoder sends them.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::{KeyModes, encode_legacy, push_char, push_decimal};
use crate::pane::term::fidelity::keyboard::{
    DISAMBIGUATE, REPORT_ALL_KEYS, REPORT_ALTERNATE_KEYS, REPORT_EVENT_TYPES, REPORT_TEXT,
};

/// Whether these flags change how any key is encoded (2, 4 and 16 only
/// add to what 1 or 8 send as sequences).
pub(super) fn applies(flags: u8) -> bool {
    flags & (DISAMBIGUATE | REPORT_ALL_KEYS) != 0
}

/// The protocol's modifier bits.
fn modifier_bits(mods: KeyModifiers) -> u32 {
    [
        (KeyModifiers::SHIFT, 1),
        (KeyModifiers::ALT, 2),
        (KeyModifiers::CONTROL, 4),
        (KeyModifiers::SUPER, 8),
        (KeyModifiers::HYPER, 16),
        (KeyModifiers::META, 32),
    ]
    .into_iter()
    .filter(|(m, _)| mods.contains(*m))
    .map(|(_, bit)| bit)
    .sum()
}

const SHIFT_BIT: u32 = 1;

/// One key event's fields in `CSI code[:alternate] ; mods[:event] ; text u`
/// (or with the legacy final byte of a cursor or function key).
struct Fields {
    code: u32,
    alternate: Option<char>,
    mods: u32,
    event: u8,
    text: Option<char>,
}

impl Fields {
    fn new(code: u32, mods: u32, event: u8) -> Self {
        Self {
            code,
            alternate: None,
            mods,
            event,
            text: None,
        }
    }

    /// `CSI code … final`. For a legacy letter key the code is 1 and is
    /// left out when nothing follows.
    fn push(&self, last: u8, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b[");
        let rest = self.mods != 0 || self.event != 1 || self.text.is_some();
        if self.code != 1 || rest || last == b'u' || last == b'~' {
            push_decimal(self.code, out);
        }
        if let Some(alt) = self.alternate {
            out.push(b':');
            push_decimal(u32::from(alt), out);
        }
        if rest {
            out.push(b';');
            // Text alone leaves the modifiers empty (`CSI 97;;97u`), as
            // kitty writes it.
            if self.mods != 0 || self.event != 1 {
                push_decimal(self.mods + 1, out);
            }
            if self.event != 1 {
                out.push(b':');
                push_decimal(u32::from(self.event), out);
            }
        }
        if let Some(text) = self.text {
            out.push(b';');
            push_decimal(u32::from(text), out);
        }
        out.push(last);
    }
}

/// Appends what `key` sends to a program with `modes.kitty_flags` (which
/// [`applies`]). Returns false when it sends nothing.
pub(super) fn encode_key(key: &KeyEvent, modes: KeyModes, out: &mut Vec<u8>) -> bool {
    let flags = modes.kitty_flags;
    let all_keys = flags & REPORT_ALL_KEYS != 0;
    let event = match key.kind {
        KeyEventKind::Press => 1,
        // Without event types a repeat is one more press.
        KeyEventKind::Repeat if flags & REPORT_EVENT_TYPES != 0 => 2,
        KeyEventKind::Repeat => 1,
        KeyEventKind::Release if flags & REPORT_EVENT_TYPES != 0 => 3,
        KeyEventKind::Release => return false,
    };
    let mods = modifier_bits(key.modifiers);
    // Shift alone still types text.
    let types_text = mods & !SHIFT_BIT == 0;
    match key.code {
        KeyCode::Char(c) => {
            let shift = key.modifiers.contains(KeyModifiers::SHIFT);
            let shifted = if shift { c.to_ascii_uppercase() } else { c };
            if !all_keys && types_text {
                // Text as text; its release is not reported.
                if event == 3 {
                    return false;
                }
                push_char(shifted, out);
                return true;
            }
            let base = c.to_ascii_lowercase();
            let mut fields = Fields::new(u32::from(base), mods, event);
            if flags & REPORT_ALTERNATE_KEYS != 0 && shift && shifted != base {
                fields.alternate = Some(shifted);
            }
            if flags & REPORT_TEXT != 0 && types_text && event != 3 {
                fields.text = Some(shifted);
            }
            fields.push(b'u', out);
        }
        KeyCode::Enter | KeyCode::Tab | KeyCode::Backspace
            if !all_keys && mods == 0 && event != 3 =>
        {
            return encode_legacy(key, modes, out);
        }
        KeyCode::Enter => Fields::new(13, mods, event).push(b'u', out),
        KeyCode::Tab => Fields::new(9, mods, event).push(b'u', out),
        KeyCode::Backspace => Fields::new(127, mods, event).push(b'u', out),
        KeyCode::BackTab => Fields::new(9, mods | SHIFT_BIT, event).push(b'u', out),
        KeyCode::Esc => Fields::new(27, mods, event).push(b'u', out),
        // Under the protocol these keys are CSI sequences even without
        // modifiers and in application cursor mode (kitty sends SS3 only
        // when no flag is set).
        KeyCode::Up
        | KeyCode::Down
        | KeyCode::Right
        | KeyCode::Left
        | KeyCode::Home
        | KeyCode::End => {
            let letter = match key.code {
                KeyCode::Up => b'A',
                KeyCode::Down => b'B',
                KeyCode::Right => b'C',
                KeyCode::Left => b'D',
                KeyCode::Home => b'H',
                _ => b'F',
            };
            Fields::new(1, mods, event).push(letter, out);
        }
        KeyCode::F(n @ 1..=4) => {
            // F3 is `CSI 13 ~`: `CSI 1 ; m R` reads as a cursor report.
            match n {
                3 => Fields::new(13, mods, event).push(b'~', out),
                _ => Fields::new(1, mods, event).push(b'P' + (n - 1), out),
            }
        }
        KeyCode::Insert
        | KeyCode::Delete
        | KeyCode::PageUp
        | KeyCode::PageDown
        | KeyCode::F(5..=12)
            if mods != 0 || event != 1 =>
        {
            let code = match key.code {
                KeyCode::Insert => 2,
                KeyCode::Delete => 3,
                KeyCode::PageUp => 5,
                KeyCode::PageDown => 6,
                KeyCode::F(n) => [15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)],
                _ => return false,
            };
            Fields::new(code, mods, event).push(b'~', out);
        }
        _ if event == 3 => return false,
        _ => return encode_legacy(key, modes, out),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: KeyModifiers = KeyModifiers::NONE;
    const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
    const CTRL: KeyModifiers = KeyModifiers::CONTROL;
    const ALT: KeyModifiers = KeyModifiers::ALT;
    const SUPER: KeyModifiers = KeyModifiers::SUPER;
    const CTRL_SHIFT: KeyModifiers = CTRL.union(SHIFT);
    const PRESS: KeyEventKind = KeyEventKind::Press;
    const REPEAT: KeyEventKind = KeyEventKind::Repeat;
    const RELEASE: KeyEventKind = KeyEventKind::Release;

    fn modes(flags: u8) -> KeyModes {
        KeyModes {
            application_cursor: false,
            kitty_flags: flags,
        }
    }

    /// Description, key, modifiers, kind, flags, expected bytes (empty:
    /// nothing is sent).
    type Case = (
        &'static str,
        KeyCode,
        KeyModifiers,
        KeyEventKind,
        u8,
        &'static [u8],
    );

    #[rustfmt::skip]
    const CASES: &[Case] = &[
        // Flag 1: what was ambiguous becomes a CSI u sequence.
        ("Esc", KeyCode::Esc, NONE, PRESS, 1, b"\x1b[27u"),
        ("C-i is not Tab", KeyCode::Char('i'), CTRL, PRESS, 1, b"\x1b[105;5u"),
        ("Tab stays Tab", KeyCode::Tab, NONE, PRESS, 1, b"\t"),
        ("C-m is not Enter", KeyCode::Char('m'), CTRL, PRESS, 1, b"\x1b[109;5u"),
        ("Enter stays CR", KeyCode::Enter, NONE, PRESS, 1, b"\r"),
        ("S-Enter", KeyCode::Enter, SHIFT, PRESS, 1, b"\x1b[13;2u"),
        ("C-Enter", KeyCode::Enter, CTRL, PRESS, 1, b"\x1b[13;5u"),
        ("C-[ is not Esc", KeyCode::Char('['), CTRL, PRESS, 1, b"\x1b[91;5u"),
        ("Backspace stays DEL", KeyCode::Backspace, NONE, PRESS, 1, b"\x7f"),
        ("A-Backspace", KeyCode::Backspace, ALT, PRESS, 1, b"\x1b[127;3u"),
        ("S-Tab", KeyCode::BackTab, SHIFT, PRESS, 1, b"\x1b[9;2u"),
        ("A-x is not Esc x", KeyCode::Char('x'), ALT, PRESS, 1, b"\x1b[120;3u"),
        ("C-S-a keeps Shift", KeyCode::Char('A'), CTRL_SHIFT, PRESS, 1, b"\x1b[97;6u"),
        ("Super-a", KeyCode::Char('a'), SUPER, PRESS, 1, b"\x1b[97;9u"),
        ("text stays text", KeyCode::Char('a'), NONE, PRESS, 1, b"a"),
        ("shifted text stays text", KeyCode::Char('A'), SHIFT, PRESS, 1, b"A"),
        ("a repeat types again", KeyCode::Char('a'), NONE, REPEAT, 1, b"a"),
        ("no releases without flag 2", KeyCode::Esc, NONE, RELEASE, 1, b""),
        ("arrows keep their form", KeyCode::Up, NONE, PRESS, 1, b"\x1b[A"),
        ("C-Up", KeyCode::Up, CTRL, PRESS, 1, b"\x1b[1;5A"),
        ("C-F3 is not a cursor report", KeyCode::F(3), CTRL, PRESS, 1, b"\x1b[13;5~"),
        ("S-F1", KeyCode::F(1), SHIFT, PRESS, 1, b"\x1b[1;2P"),
        ("F1 is CSI P", KeyCode::F(1), NONE, PRESS, 1, b"\x1b[P"),
        ("F2 is CSI Q", KeyCode::F(2), NONE, PRESS, 1, b"\x1b[Q"),
        ("F3 is CSI 13~", KeyCode::F(3), NONE, PRESS, 1, b"\x1b[13~"),
        ("F4 is CSI S", KeyCode::F(4), NONE, PRESS, 1, b"\x1b[S"),
        ("End", KeyCode::End, NONE, PRESS, 1, b"\x1b[F"),
        ("F5", KeyCode::F(5), NONE, PRESS, 1, b"\x1b[15~"),
        ("A-Delete", KeyCode::Delete, ALT, PRESS, 1, b"\x1b[3;3~"),
        // Flag 2: repeats and releases of keys sent as sequences.
        ("C-a repeat", KeyCode::Char('a'), CTRL, REPEAT, 3, b"\x1b[97;5:2u"),
        ("Esc release", KeyCode::Esc, NONE, RELEASE, 3, b"\x1b[27;1:3u"),
        ("Up release", KeyCode::Up, NONE, RELEASE, 3, b"\x1b[1;1:3A"),
        ("Enter release", KeyCode::Enter, NONE, RELEASE, 3, b"\x1b[13;1:3u"),
        ("text release is not reported", KeyCode::Char('a'), NONE, RELEASE, 3, b""),
        // Flag 4: the shifted key.
        ("C-S-a with its shifted key", KeyCode::Char('A'), CTRL_SHIFT, PRESS, 5, b"\x1b[97:65;6u"),
        // Flag 8: every key a sequence.
        ("a", KeyCode::Char('a'), NONE, PRESS, 8, b"\x1b[97u"),
        ("S-a", KeyCode::Char('A'), SHIFT, PRESS, 8, b"\x1b[97;2u"),
        ("S-a with alternate", KeyCode::Char('A'), SHIFT, PRESS, 12, b"\x1b[97:65;2u"),
        ("Enter", KeyCode::Enter, NONE, PRESS, 8, b"\x1b[13u"),
        ("Tab", KeyCode::Tab, NONE, PRESS, 8, b"\x1b[9u"),
        ("Backspace", KeyCode::Backspace, NONE, PRESS, 8, b"\x1b[127u"),
        ("a release", KeyCode::Char('a'), NONE, RELEASE, 10, b"\x1b[97;1:3u"),
        // Flag 16 (with 8): the text typed.
        ("a with its text", KeyCode::Char('a'), NONE, PRESS, 24, b"\x1b[97;;97u"),
        ("S-a with its text", KeyCode::Char('A'), SHIFT, PRESS, 24, b"\x1b[97;2;65u"),
        ("C-a types no text", KeyCode::Char('a'), CTRL, PRESS, 24, b"\x1b[97;5u"),
        // Flags 2, 4 or 16 alone change nothing.
        ("flag 2 alone: legacy Esc", KeyCode::Esc, NONE, PRESS, 2, b"\x1b"),
        ("flag 2 alone: no release", KeyCode::Esc, NONE, RELEASE, 2, b""),
    ];

    #[test]
    fn every_key_encodes_to_the_exact_bytes_the_protocol_defines() {
        for &(what, code, mods, kind, flags, want) in CASES {
            let mut out = Vec::new();
            let key = KeyEvent::new_with_kind(code, mods, kind);
            let sent = super::super::encode_key(&key, modes(flags), &mut out);
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(want),
                "{what} (flags {flags})"
            );
            assert_eq!(sent, !want.is_empty(), "{what}");
        }
    }

    /// Kitty's own encoder sends SS3 cursor keys only with no flag set.
    #[test]
    fn cursor_keys_are_csi_in_application_mode_under_the_protocol() {
        for (code, want) in [
            (KeyCode::Up, &b"\x1b[A"[..]),
            (KeyCode::Left, b"\x1b[D"),
            (KeyCode::Home, b"\x1b[H"),
            (KeyCode::End, b"\x1b[F"),
        ] {
            let mut out = Vec::new();
            let app = KeyModes {
                application_cursor: true,
                kitty_flags: 1,
            };
            super::super::encode_key(&KeyEvent::new(code, NONE), app, &mut out);
            assert_eq!(out, want, "{code:?}");
        }
        let mut out = Vec::new();
        let legacy = KeyModes {
            application_cursor: true,
            kitty_flags: 0,
        };
        super::super::encode_key(&KeyEvent::new(KeyCode::Up, NONE), legacy, &mut out);
        assert_eq!(out, b"\x1bOA");
    }
}
