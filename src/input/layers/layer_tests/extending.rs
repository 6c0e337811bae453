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

/// Copies `text`'s first row in copy mode: `k0v$y` over a pane that
/// printed it last.
fn copy_line(h: &mut Harness, text: &str) {
    let id = h.focused();
    h.print(id, &format!("{text}\n"));
    h.enter_copy_mode();
    h.type_text("k0v$y");
    assert_eq!(h.router.ui().copy_buffer().as_deref(), Some(text));
}

#[test]
fn choose_buffer_pastes_an_older_copy() {
    let mut h = Harness::new("");
    h.prefix('=');
    assert_eq!(h.notice(), "nothing copied yet");
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::buffer_chooser::BufferChooser>()
            .map(|c| c.at)
            .is_none()
    );
    copy_line(&mut h, "first");
    copy_line(&mut h, "second");
    h.prefix('=');
    assert_eq!(
        h.router
            .popups()
            .get::<crate::input::popups::buffer_chooser::BufferChooser>()
            .map(|c| c.at),
        Some(0),
        "the chooser opens"
    );
    h.key(KeyCode::Char('j'));
    h.key(KeyCode::Enter);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::buffer_chooser::BufferChooser>()
            .map(|c| c.at)
            .is_none()
    );
    assert_eq!(h.sent(), "first");
    // A digit pastes that buffer at once; another key only closes.
    h.prefix('=');
    h.key(KeyCode::Char('0'));
    assert_eq!(h.sent(), "firstsecond");
    h.prefix('=');
    h.key(KeyCode::Char('x'));
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::buffer_chooser::BufferChooser>()
            .map(|c| c.at)
            .is_none()
    );
    assert_eq!(h.sent(), "firstsecond", "nothing pasted, nothing typed");
}
