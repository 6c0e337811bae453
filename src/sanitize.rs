//! Text a child controls (titles, working directories) is shown only after
//! this: no ESC, no C0/C1 controls, no bidi overrides. A title such as
//! `\e]52;c;...\a` or `\e[2J` must never reach the user's terminal.
//!
//! Error messages quote text from files and the command line; they are
//! printed through [`escape_controls`], which keeps the text readable
//! (`\u{1b}]52;...`) instead of dropping it, so the user can find and fix it.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Longest title we keep; a border cannot show more anyway.
const MAX_TITLE_CHARS: usize = 256;

pub fn sanitize_title(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .chars()
        .filter(|&c| !is_dangerous(c))
        .take(MAX_TITLE_CHARS)
        .collect()
}

/// `text` with every character a terminal would act on written as a Rust
/// escape (`\u{1b}`, `\n`, `\u{202e}`); everything else unchanged. The
/// result holds no control character, so escaping it again changes nothing.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_dangerous) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_dangerous(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// JSON text as `serde_json` writes it, with every character a terminal
/// would act on written as a `\uXXXX` escape: the same JSON to a parser,
/// nothing for a terminal to act on when it is printed. `serde_json`
/// escapes C0 controls in strings but passes DEL, C1 controls and bidi
/// overrides as they are; outside strings JSON has only ASCII, and the
/// whitespace between tokens stays.
pub fn escape_json_text(json: &str) -> Cow<'_, str> {
    let acted_on = |c: char| is_dangerous(c) && !c.is_ascii_whitespace();
    if !json.chars().any(acted_on) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if acted_on(c) {
            // Every such character is in the Basic Multilingual Plane.
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn is_dangerous(c: char) -> bool {
    c.is_control()
        || is_bidi_control(c)
        // line separators and BOM break the border layout
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// Bidi embeddings, overrides, isolates and marks: written to the user's
/// terminal they would reorder the rest of its line (beyond the pane).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn removes_escapes_and_controls() {
        assert_eq!(sanitize_title(b"a\x1b]52;c;Zm9v\x07b"), "a]52;c;Zm9vb");
        assert_eq!(sanitize_title(b"\x1b[2Jclear"), "[2Jclear");
        assert_eq!(sanitize_title("x\u{9b}31m".as_bytes()), "x31m");
        assert_eq!(sanitize_title(b"tab\there\r\n"), "tabhere");
    }

    #[test]
    fn removes_bidi_overrides() {
        assert_eq!(sanitize_title("abc\u{202E}fed".as_bytes()), "abcfed");
    }

    #[test]
    fn keeps_ordinary_unicode() {
        assert_eq!(
            sanitize_title("vim — 日本語 🚀".as_bytes()),
            "vim — 日本語 🚀"
        );
    }

    #[test]
    fn escape_controls_shows_what_it_neutralises() {
        assert_eq!(
            escape_controls("\u{1b}]52;c;Zm9v\u{7}"),
            "\\u{1b}]52;c;Zm9v\\u{7}"
        );
        assert_eq!(escape_controls("a\nb\tc\r"), "a\\nb\\tc\\r");
        // C1 CSI, bidi override, line separator.
        assert_eq!(
            escape_controls("x\u{9b}2J\u{202e}y\u{2028}"),
            "x\\u{9b}2J\\u{202e}y\\u{2028}"
        );
    }

    #[test]
    fn escape_controls_leaves_ordinary_text_alone() {
        let text = "vim — 日本語 🚀 `C-b` \"quoted\" back\\slash";
        assert!(matches!(escape_controls(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn escaping_twice_changes_nothing() {
        let once = escape_controls("\u{1b}[2J\u{7}\u{85}").into_owned();
        assert!(!once.chars().any(char::is_control), "{once:?}");
        assert_eq!(escape_controls(&once), once);
    }

    #[test]
    fn json_keeps_its_meaning_and_loses_what_a_terminal_acts_on() {
        let hostile = "dir\u{202e}\u{85}\u{9b}2J\u{7f}\u{1b}[1m\n\u{2028}\u{feff}日本";
        let json = serde_json::to_string_pretty(&serde_json::json!({ "cwd": hostile })).unwrap();
        let escaped = escape_json_text(&json);
        assert!(
            !escaped
                .chars()
                .any(|c| is_dangerous(c) && c != '\n' && c != ' '),
            "{escaped:?}"
        );
        assert!(escaped.contains("\\u202e") && escaped.contains("\\u0085"));
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back["cwd"], hostile);
        // Pretty printing's lines stay lines.
        assert_eq!(escaped.lines().count(), json.lines().count());
    }

    #[test]
    fn invalid_utf8_becomes_replacement_chars() {
        assert_eq!(sanitize_title(b"a\xffb"), "a\u{FFFD}b");
    }
}
