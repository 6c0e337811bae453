//! One key with its modifiers as config files write it (`C-b`, `M-Left`,
//! `PageUp`): parsed, shown and matched against what a terminal reports.
//! Apart from the bindings (`keymap`, `copy_keymap`), which both use it.

use std::fmt;
use std::str::FromStr;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The action name that removes a default binding (in every key table).
pub const UNBIND: &str = "none";

/// One key with its modifiers, as written in config files (`C-b`, `M-Left`).
///
/// Parsing canonicalises what can be canonicalised without losing meaning
/// (`C-B` becomes `C-b`, `S-a` becomes `A`, `S-Tab` becomes `BackTab`), so
/// that displaying a parsed spec and parsing it again gives the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeySpec {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

/// A key spec that is not one tilework knows how to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    /// The whole spec as written, e.g. `C-foo`.
    pub spec: String,
    /// The part that was not understood, e.g. `foo`.
    pub key: String,
}

impl fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.spec.is_empty() {
            f.write_str("empty key")?;
        } else if self.spec == self.key {
            write!(f, "unknown key `{}`", self.key)?;
        } else {
            write!(f, "unknown key `{}` in `{}`", self.key, self.spec)?;
        }
        f.write_str(
            " (expected e.g. `C-b`, `M-h`, `S-Up`, `F5`, `PageUp`, `Space`, or a single character)",
        )
    }
}

impl std::error::Error for UnknownKey {}

/// Named keys accepted by the parser; the first spelling of each is the one
/// [`KeySpec`]'s `Display` writes. Aliases cover tmux's names (`NPage`, `IC`,
/// `BSpace`) so tmux configs translate without a lookup table in the user's head.
const NAMED_KEYS: &[(&[&str], KeyCode)] = &[
    (&["Enter", "Return", "CR"], KeyCode::Enter),
    (&["Esc", "Escape"], KeyCode::Esc),
    (&["Tab"], KeyCode::Tab),
    (&["BackTab", "BTab"], KeyCode::BackTab),
    (&["Backspace", "BSpace", "BS"], KeyCode::Backspace),
    (&["Space", "Spc"], KeyCode::Char(' ')),
    (&["Left"], KeyCode::Left),
    (&["Right"], KeyCode::Right),
    (&["Up"], KeyCode::Up),
    (&["Down"], KeyCode::Down),
    (&["Home"], KeyCode::Home),
    (&["End"], KeyCode::End),
    (&["PageUp", "PgUp", "PPage"], KeyCode::PageUp),
    (&["PageDown", "PgDn", "PgDown", "NPage"], KeyCode::PageDown),
    (&["Insert", "Ins", "IC"], KeyCode::Insert),
    (&["Delete", "Del", "DC"], KeyCode::Delete),
];

/// Modifier prefixes, matched case-insensitively and followed by `-` or `+`.
const MODIFIER_NAMES: &[(&str, KeyModifiers)] = &[
    ("c", KeyModifiers::CONTROL),
    ("ctrl", KeyModifiers::CONTROL),
    ("control", KeyModifiers::CONTROL),
    ("m", KeyModifiers::ALT),
    ("alt", KeyModifiers::ALT),
    ("meta", KeyModifiers::ALT),
    ("s", KeyModifiers::SHIFT),
    ("shift", KeyModifiers::SHIFT),
];

/// Function keys beyond this are not produced by any terminal crossterm reads.
const MAX_FUNCTION_KEY: u8 = 35;

impl KeySpec {
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> KeySpec {
        KeySpec { code, modifiers }
    }

    /// A key with no modifiers.
    pub const fn plain(code: KeyCode) -> KeySpec {
        KeySpec::new(code, KeyModifiers::NONE)
    }

    /// Whether a key event from the terminal is this key.
    ///
    /// Releases never match: with the kitty keyboard protocol a single press
    /// would otherwise trigger a binding twice.
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        matches!(ev.kind, KeyEventKind::Press | KeyEventKind::Repeat)
            && canonical(self.code, self.modifiers) == canonical(ev.code, ev.modifiers)
    }

    /// Whether two specs would match exactly the same key presses, e.g.
    /// `C-\` and `C-4`, which legacy terminals cannot tell apart.
    pub fn same_key(&self, other: &KeySpec) -> bool {
        canonical(self.code, self.modifiers) == canonical(other.code, other.modifiers)
    }
}

/// The form in which a spec and an event are compared.
///
/// Terminals in legacy mode encode Ctrl+key as one control byte, which
/// crossterm decodes to a fixed representative (Ctrl-\ arrives as Ctrl-4,
/// Ctrl-/ and Ctrl-_ as Ctrl-7, Ctrl-i as Tab). Folding every spelling onto
/// one representative makes a binding match whichever of them the terminal
/// (legacy or kitty protocol) sends.
fn canonical(code: KeyCode, modifiers: KeyModifiers) -> (KeyCode, KeyModifiers) {
    let mut mods = modifiers;
    let code = match code {
        KeyCode::Char(c) => {
            // The character already says whether shift was held ('%', 'Z');
            // where it does not (kitty's `n` + SHIFT), shift makes it upper case.
            let c = if mods.contains(KeyModifiers::SHIFT) {
                uppercase(c)
            } else {
                c
            };
            mods.remove(KeyModifiers::SHIFT);
            if mods.contains(KeyModifiers::CONTROL) {
                match c {
                    '4' => KeyCode::Char('\\'),
                    '5' => KeyCode::Char(']'),
                    '6' => KeyCode::Char('^'),
                    '7' | '/' => KeyCode::Char('_'),
                    '2' | '@' => KeyCode::Char(' '),
                    'i' | 'I' => {
                        mods.remove(KeyModifiers::CONTROL);
                        KeyCode::Tab
                    }
                    'm' | 'M' => {
                        mods.remove(KeyModifiers::CONTROL);
                        KeyCode::Enter
                    }
                    '[' => {
                        mods.remove(KeyModifiers::CONTROL);
                        KeyCode::Esc
                    }
                    c => KeyCode::Char(lowercase(c)),
                }
            } else {
                KeyCode::Char(c)
            }
        }
        KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => {
            mods.remove(KeyModifiers::SHIFT);
            KeyCode::BackTab
        }
        KeyCode::BackTab => {
            mods.remove(KeyModifiers::SHIFT);
            KeyCode::BackTab
        }
        other => other,
    };
    (code, mods)
}

/// Lowercases a character when that is a one-to-one mapping; characters like
/// 'İ' whose lowercase is several chars are left alone rather than guessed at.
fn lowercase(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

fn uppercase(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// Splits one leading modifier off `s`, if there is one and a key follows it.
fn split_modifier(s: &str) -> Option<(KeyModifiers, &str)> {
    let sep = s.find(['-', '+'])?;
    let (name, rest) = (&s[..sep], &s[sep + 1..]);
    if rest.is_empty() {
        // `M-` alone, or the key `-` itself: not a modifier.
        return None;
    }
    MODIFIER_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, m)| (m, rest))
}

fn parse_key_name(name: &str) -> Option<KeyCode> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return (!c.is_control()).then_some(KeyCode::Char(c));
    }
    if let Some((_, code)) = NAMED_KEYS
        .iter()
        .find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
    {
        return Some(*code);
    }
    let digits = name.strip_prefix(['f', 'F'])?;
    if digits.starts_with('0') {
        return None;
    }
    match digits.parse::<u8>() {
        Ok(n) if (1..=MAX_FUNCTION_KEY).contains(&n) => Some(KeyCode::F(n)),
        _ => None,
    }
}

impl FromStr for KeySpec {
    type Err = UnknownKey;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let unknown = |key: &str| UnknownKey {
            spec: spec.to_string(),
            key: key.to_string(),
        };
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = spec;
        while let Some((m, tail)) = split_modifier(rest) {
            modifiers |= m;
            rest = tail;
        }
        let mut code = parse_key_name(rest).ok_or_else(|| unknown(rest))?;

        // Canonicalise only what is visible and lossless, so that Display
        // shows what will actually be matched.
        match code {
            KeyCode::Char(c) if modifiers.contains(KeyModifiers::CONTROL) => {
                modifiers.remove(KeyModifiers::SHIFT);
                code = KeyCode::Char(lowercase(c));
            }
            KeyCode::Char(c) if modifiers.contains(KeyModifiers::SHIFT) => {
                modifiers.remove(KeyModifiers::SHIFT);
                code = KeyCode::Char(uppercase(c));
            }
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => {
                modifiers.remove(KeyModifiers::SHIFT);
                code = KeyCode::BackTab;
            }
            KeyCode::BackTab => modifiers.remove(KeyModifiers::SHIFT),
            _ => {}
        }
        Ok(KeySpec { code, modifiers })
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (flag, text) in [
            (KeyModifiers::CONTROL, "C-"),
            (KeyModifiers::ALT, "M-"),
            (KeyModifiers::SHIFT, "S-"),
        ] {
            if self.modifiers.contains(flag) {
                f.write_str(text)?;
            }
        }
        if let Some((names, _)) = NAMED_KEYS.iter().find(|(_, code)| *code == self.code) {
            return f.write_str(names[0]);
        }
        match self.code {
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            // Not producible by parsing; shown for debugging only.
            other => write!(f, "{other:?}"),
        }
    }
}
