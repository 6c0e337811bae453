//! The layers headless for issue 33's extensions: copy mode's key table
//! (`[keys.copy]`) and the paste buffers (`C-b =`).

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::Harness;
use crate::input::router::Command;
use crate::input::ui_state::Mode;

/// `h` with the keys (and the rest) of config text `text`, as a reload
/// gives them.
fn configure(h: &mut Harness, text: &str) {
    let config = crate::config::parse(text, std::path::Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    h.router.reconfigure(&config);
}

#[test]
fn keys_copy_rebinds_and_unbinds_copy_mode_keys() {
    let mut h = Harness::new("hello world\n");
    configure(
        &mut h,
        "[keys.copy]\n\"x\" = \"begin-selection\"\n\"v\" = \"none\"\n\"Y\" = \"copy-selection-and-cancel\"\n\"C-n\" = \"cursor-down\"\n",
    );
    h.enter_copy_mode();
    h.type_text("k0");
    h.key(KeyCode::Char('v'));
    assert_eq!(h.notice(), "v: not a copy-mode key · q or Esc leaves");
    assert_eq!(h.mode(), Mode::Copy);
    h.type_text("x$");
    let out = h.key(KeyCode::Char('Y'));
    assert_eq!(out.commands, [Command::Clipboard("hello world".into())]);
    assert_eq!(h.mode(), Mode::Normal);
    // The keys left alone keep their vi meaning; a count still works
    // with a key of the user's own.
    h.enter_copy_mode();
    h.type_text("gx");
    h.press(KeyCode::Char('n'), KeyModifiers::CONTROL);
    h.key(KeyCode::Char('$'));
    let out = h.key(KeyCode::Char('y'));
    assert!(
        matches!(&out.commands[..], [Command::Clipboard(text)] if text.starts_with("hello world")),
        "{:?}",
        out.commands
    );
}
