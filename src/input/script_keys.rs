//! `tilework send-keys`: arguments read as tmux reads them (a key name the
//! keymap knows, `C-c`, `Enter`, `M-x`, `F5`, else literal text), and
//! turned into the bytes the pane's program gets for them, by the same
//! encoder as typed keys (its application-cursor and kitty-keyboard modes
//! included).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::config::keymap::KeySpec;
use crate::input::key_encoder::{KeyModes, encode_key};
use crate::session::script::KeyArg;

/// Appends the bytes for `arg` to `out`, as the pane in `modes` gets them
/// from typed keys. An unknown key name is an error naming it.
pub fn encode(arg: &KeyArg, modes: KeyModes, out: &mut Vec<u8>) -> Result<(), String> {
    match arg {
        KeyArg::Key(name) => {
            let spec: KeySpec = name.parse().map_err(|err| format!("{err}"))?;
            encode_key(&KeyEvent::new(spec.code, spec.modifiers), modes, out);
        }
        KeyArg::Text(text) => {
            for c in text.chars() {
                encode_char(c, modes, out);
            }
        }
    }
    Ok(())
}

/// One character of text, as the key that types it: a newline is Enter,
/// a tab Tab, ESC Escape; other control characters go as they are.
fn encode_char(c: char, modes: KeyModes, out: &mut Vec<u8>) {
    let code = match c {
        '\n' | '\r' => KeyCode::Enter,
        '\t' => KeyCode::Tab,
        '\x1b' => KeyCode::Esc,
        '\x7f' => KeyCode::Backspace,
        c if c.is_control() => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            return;
        }
        c => KeyCode::Char(c),
    };
    encode_key(&KeyEvent::new(code, KeyModifiers::NONE), modes, out);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::session::script::parse_args;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn bytes(list: &[&str], literal: bool, modes: KeyModes) -> Vec<u8> {
        let mut out = Vec::new();
        for arg in parse_args(&args(list), literal) {
            encode(&arg, modes, &mut out).unwrap();
        }
        out
    }

    #[test]
    fn key_names_are_keys_and_the_rest_is_text() {
        assert_eq!(
            parse_args(
                &args(&["echo hi", "Enter", "C-c", "M-x", "F5", "x", "Up"]),
                false
            ),
            vec![
                KeyArg::Text("echo hi".into()),
                KeyArg::Key("Enter".into()),
                KeyArg::Key("C-c".into()),
                KeyArg::Key("M-x".into()),
                KeyArg::Key("F5".into()),
                KeyArg::Key("x".into()),
                KeyArg::Key("Up".into()),
            ]
        );
        // tmux's spellings are the keymap's too.
        assert_eq!(
            parse_args(&args(&["BSpace", "c-C", "NPage"]), false),
            vec![
                KeyArg::Key("Backspace".into()),
                KeyArg::Key("C-c".into()),
                KeyArg::Key("PageDown".into()),
            ]
        );
        // `-l`: everything is text.
        assert_eq!(
            parse_args(&args(&["Enter", "C-c"]), true),
            vec![KeyArg::Text("Enter".into()), KeyArg::Text("C-c".into())]
        );
    }

    #[test]
    fn keys_become_what_a_terminal_sends() {
        let legacy = KeyModes::default();
        assert_eq!(bytes(&["echo hi", "Enter"], false, legacy), b"echo hi\r");
        assert_eq!(
            bytes(&["C-c", "M-x", "Escape"], false, legacy),
            b"\x03\x1bx\x1b"
        );
        assert_eq!(bytes(&["F5", "Up"], false, legacy), b"\x1b[15~\x1b[A");
        // A program in application-cursor mode (vim, less) gets SS3 arrows.
        let app = KeyModes {
            application_cursor: true,
            ..KeyModes::default()
        };
        assert_eq!(bytes(&["Up"], false, app), b"\x1bOA");
        // Literal text keeps its words; a newline in it is Enter.
        assert_eq!(bytes(&["Enter", "a\nb"], true, legacy), b"Entera\rb");
        assert_eq!(bytes(&["a\nb\tc"], true, legacy), b"a\rb\tc");
    }

    #[test]
    fn an_unknown_key_from_the_wire_is_named() {
        let err = encode(
            &KeyArg::Key("C-nope".into()),
            KeyModes::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(err.contains("nope"), "{err}");
    }
}
