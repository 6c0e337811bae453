//! Keys from single bytes and from the numbers escape sequences carry:
//! control bytes, xterm's modifier parameter, the kitty keyboard
//! protocol's key codes. Shapes follow crossterm's own parser (C-\ is
//! `Char('4')` with Ctrl, an upper-case letter carries Shift), which the
//! key encoder and the key map were written against.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MediaKeyCode, ModifierKeyCode,
};

/// The key a byte outside any sequence stands for (ESC and the bytes of
/// a multi-byte character excepted).
pub fn from_byte(byte: u8) -> Option<KeyEvent> {
    let ctrl = |c: u8| KeyEvent::new(KeyCode::Char(char::from(c)), KeyModifiers::CONTROL);
    Some(match byte {
        b'\r' => KeyEvent::from(KeyCode::Enter),
        // Raw mode: a line feed is what C-j sends, not Enter.
        b'\t' => KeyEvent::from(KeyCode::Tab),
        0x7f => KeyEvent::from(KeyCode::Backspace),
        0x00 => ctrl(b' '),
        // 0x08 is C-h here, as in crossterm: the key encoder sends it back
        // as 0x08, which is what the terminal sent.
        0x01..=0x1a => ctrl(byte - 0x01 + b'a'),
        0x1c..=0x1f => ctrl(byte - 0x1c + b'4'),
        0x20..=0x7e => from_char(char::from(byte)),
        _ => return None,
    })
}

/// A typed character: upper case carries Shift, as crossterm has it.
pub fn from_char(c: char) -> KeyEvent {
    let modifiers = if c.is_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(KeyCode::Char(c), modifiers)
}

/// The key with Alt added (an ESC before it).
pub fn with_alt(mut key: KeyEvent) -> KeyEvent {
    key.modifiers |= KeyModifiers::ALT;
    key
}

/// xterm's and kitty's modifier parameter: 1 + a bit mask.
pub fn modifiers(param: u32) -> (KeyModifiers, KeyEventState) {
    let mask = param.saturating_sub(1);
    let mut mods = KeyModifiers::NONE;
    for (bit, m) in [
        (1, KeyModifiers::SHIFT),
        (2, KeyModifiers::ALT),
        (4, KeyModifiers::CONTROL),
        (8, KeyModifiers::SUPER),
        (16, KeyModifiers::HYPER),
        (32, KeyModifiers::META),
    ] {
        if mask & bit != 0 {
            mods |= m;
        }
    }
    let mut state = KeyEventState::NONE;
    if mask & 64 != 0 {
        state |= KeyEventState::CAPS_LOCK;
    }
    if mask & 128 != 0 {
        state |= KeyEventState::NUM_LOCK;
    }
    (mods, state)
}

/// The kitty protocol's event type: 1 press, 2 repeat, 3 release.
pub fn kind(code: Option<u32>) -> KeyEventKind {
    match code {
        Some(2) => KeyEventKind::Repeat,
        Some(3) => KeyEventKind::Release,
        _ => KeyEventKind::Press,
    }
}

/// The key a `CSI number ~` stands for.
pub fn from_tilde_number(n: u32) -> Option<KeyCode> {
    Some(match n {
        1 | 7 => KeyCode::Home,
        2 => KeyCode::Insert,
        3 => KeyCode::Delete,
        4 | 8 => KeyCode::End,
        5 => KeyCode::PageUp,
        6 => KeyCode::PageDown,
        11..=15 => KeyCode::F(fkey(n - 10)),
        17..=21 => KeyCode::F(fkey(n - 11)),
        23..=26 => KeyCode::F(fkey(n - 12)),
        28 | 29 => KeyCode::F(fkey(n - 15)),
        31..=34 => KeyCode::F(fkey(n - 17)),
        _ => return None,
    })
}

/// The key a `CSI 1;mods X` or `ESC O X` ends with.
pub fn from_final(byte: u8) -> Option<KeyCode> {
    Some(match byte {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'E' => KeyCode::KeypadBegin,
        b'F' => KeyCode::End,
        b'H' => KeyCode::Home,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'R' => KeyCode::F(3),
        b'S' => KeyCode::F(4),
        _ => return None,
    })
}

fn fkey(n: u32) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// A kitty protocol key code (`CSI code … u`): the key, and whether it is
/// on the keypad.
pub fn from_kitty_code(code: u32, mods: KeyModifiers) -> Option<(KeyCode, KeyEventState)> {
    const KEYPAD: [KeyCode; 29] = [
        KeyCode::Char('0'),
        KeyCode::Char('1'),
        KeyCode::Char('2'),
        KeyCode::Char('3'),
        KeyCode::Char('4'),
        KeyCode::Char('5'),
        KeyCode::Char('6'),
        KeyCode::Char('7'),
        KeyCode::Char('8'),
        KeyCode::Char('9'),
        KeyCode::Char('.'),
        KeyCode::Char('/'),
        KeyCode::Char('*'),
        KeyCode::Char('-'),
        KeyCode::Char('+'),
        KeyCode::Enter,
        KeyCode::Char('='),
        KeyCode::Char(','),
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Insert,
        KeyCode::Delete,
        KeyCode::KeypadBegin,
    ];
    const MEDIA: [MediaKeyCode; 13] = [
        MediaKeyCode::Play,
        MediaKeyCode::Pause,
        MediaKeyCode::PlayPause,
        MediaKeyCode::Reverse,
        MediaKeyCode::Stop,
        MediaKeyCode::FastForward,
        MediaKeyCode::Rewind,
        MediaKeyCode::TrackNext,
        MediaKeyCode::TrackPrevious,
        MediaKeyCode::Record,
        MediaKeyCode::LowerVolume,
        MediaKeyCode::RaiseVolume,
        MediaKeyCode::MuteVolume,
    ];
    const MODIFIER_KEYS: [ModifierKeyCode; 14] = [
        ModifierKeyCode::LeftShift,
        ModifierKeyCode::LeftControl,
        ModifierKeyCode::LeftAlt,
        ModifierKeyCode::LeftSuper,
        ModifierKeyCode::LeftHyper,
        ModifierKeyCode::LeftMeta,
        ModifierKeyCode::RightShift,
        ModifierKeyCode::RightControl,
        ModifierKeyCode::RightAlt,
        ModifierKeyCode::RightSuper,
        ModifierKeyCode::RightHyper,
        ModifierKeyCode::RightMeta,
        ModifierKeyCode::IsoLevel3Shift,
        ModifierKeyCode::IsoLevel5Shift,
    ];
    let index = |first: u32| usize::try_from(code - first).unwrap_or(usize::MAX);
    let plain = |key| Some((key, KeyEventState::NONE));
    match code {
        27 => plain(KeyCode::Esc),
        13 => plain(KeyCode::Enter),
        9 if mods.contains(KeyModifiers::SHIFT) => plain(KeyCode::BackTab),
        9 => plain(KeyCode::Tab),
        127 | 8 => plain(KeyCode::Backspace),
        57358 => plain(KeyCode::CapsLock),
        57359 => plain(KeyCode::ScrollLock),
        57360 => plain(KeyCode::NumLock),
        57361 => plain(KeyCode::PrintScreen),
        57362 => plain(KeyCode::Pause),
        57363 => plain(KeyCode::Menu),
        57376..=57398 => plain(KeyCode::F(fkey(code - 57376 + 13))),
        57399..=57427 => Some((KEYPAD[index(57399)], KeyEventState::KEYPAD)),
        57428..=57440 => plain(KeyCode::Media(MEDIA[index(57428)])),
        57441..=57454 => plain(KeyCode::Modifier(MODIFIER_KEYS[index(57441)])),
        _ => char::from_u32(code).map(|c| (KeyCode::Char(c), KeyEventState::NONE)),
    }
}

/// What a modifier key held alone adds to its own event (crossterm sets
/// it, so a router sees Shift held while Shift is the key).
pub fn modifier_of(key: KeyCode) -> KeyModifiers {
    use ModifierKeyCode as M;
    match key {
        KeyCode::Modifier(M::LeftShift | M::RightShift) => KeyModifiers::SHIFT,
        KeyCode::Modifier(M::LeftControl | M::RightControl) => KeyModifiers::CONTROL,
        KeyCode::Modifier(M::LeftAlt | M::RightAlt) => KeyModifiers::ALT,
        KeyCode::Modifier(M::LeftSuper | M::RightSuper) => KeyModifiers::SUPER,
        KeyCode::Modifier(M::LeftHyper | M::RightHyper) => KeyModifiers::HYPER,
        KeyCode::Modifier(M::LeftMeta | M::RightMeta) => KeyModifiers::META,
        _ => KeyModifiers::NONE,
    }
}
