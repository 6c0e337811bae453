//! End-to-end: floating panes over the tiled layout.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

/// `C-b w` opens a scratch shell floating over the pane, keys go to it,
/// its program gets the float's size; `C-b w` hides and shows it again;
/// when it exits, the tiled pane has the focus back.
#[test]
fn a_scratch_shell_floats_and_hides() {
    let mut tw = Tilework::start(&["--", "sh"], 24, 80);
    tw.wait_for_text("$ ");
    tw.type_line("echo under");
    tw.wait_for_text("under");
    tw.send("\x02w");
    // 4/5 of the 80x23 pane area, centred: a rounded box at (8, 2).
    tw.wait_for("the floating pane", |s| {
        s.contents_between(2, 8, 2, 9) == "╭"
    });
    tw.wait_for("its prompt", |s| {
        s.contents_between(3, 9, 3, 11).starts_with('$')
    });
    tw.type_line("stty size");
    tw.wait_for_text("16 62");
    tw.send("\x02w");
    tw.wait_for("it hidden", |s| !s.contents().contains('╭'));
    tw.type_line("echo tiled");
    tw.wait_for_text("tiled");
    tw.send("\x02w");
    tw.wait_for("it back", |s| s.contents_between(2, 8, 2, 9) == "╭");
    tw.wait_for_text("16 62");
    tw.type_line("exit");
    tw.wait_for("it gone", |s| !s.contents().contains('╭'));
    tw.type_line("echo back");
    tw.wait_for_text("back");
    tw.type_line("exit");
    tw.wait_exit();
}

/// `C-b e` opens the focused pane's whole history (more than a screen) in
/// `$EDITOR`, floating, from a file only the user can read, removed when
/// the editor's pane closes. The "editor" is a script that reports what
/// it was given and waits for Enter.
#[test]
fn the_history_opens_in_the_editor_from_a_private_file() {
    use std::os::unix::fs::PermissionsExt as _;

    let tmp = common::TempDir::new("history-tmp");
    let script = tmp.path().join("editor.sh");
    let report = tmp.path().join("given");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$1\" > '{}'\necho \"lines: $(grep -c '^line-' \"$1\")\"\necho \"first: $(grep -m1 '^line-' \"$1\")\"\nread x\n",
            report.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    let mut tw = Tilework::start_with(
        &["--", "sh"],
        24,
        80,
        &[
            ("EDITOR", script.to_str().unwrap()),
            ("VISUAL", ""),
            ("TMPDIR", files.to_str().unwrap()),
        ],
    );
    tw.wait_for_text("$ ");
    tw.type_line("i=1; while [ $i -le 200 ]; do printf 'line-%03d\\n' $i; i=$((i+1)); done");
    tw.wait_for_text("line-200");
    tw.send("\x02e");
    tw.wait_for("the editor floating", |s| {
        s.contents_between(2, 8, 2, 9) == "╭"
    });
    tw.wait_for_text("lines: 200");
    tw.wait_for_text("first: line-001");
    let path = std::fs::read_to_string(&report).unwrap();
    let path = std::path::Path::new(path.trim_end());
    assert!(path.starts_with(&files), "{}", path.display());
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");

    tw.send("\r");
    tw.wait_for("the editor gone", |s| !s.contents().contains('╭'));
    common::wait_until("the history file removed", || !path.exists());
    assert_eq!(std::fs::read_dir(&files).unwrap().count(), 0);
    tw.type_line("exit");
    tw.wait_exit();
}

/// With Vim as the editor, `C-b e` opens the history at its last line,
/// where the output just seen is (the float shows the end, not line 1).
#[test]
fn vim_opens_the_history_at_its_last_line() {
    if !common::require_program("vim") {
        return;
    }
    let files = common::TempDir::new("history-vim");
    let mut tw = Tilework::start_with(
        &["--", "sh"],
        24,
        80,
        &[
            ("EDITOR", "vim -u NONE -N -n"),
            ("VISUAL", ""),
            ("TMPDIR", files.path().to_str().unwrap()),
        ],
    );
    tw.wait_for_text("$ ");
    tw.type_line("i=1; while [ $i -le 200 ]; do printf 'line-%03d\\n' $i; i=$((i+1)); done");
    tw.wait_for_text("line-200");
    tw.send("\x02e");
    // The float's rows (inside its border, from row 3, column 9) show the
    // end of the history, not its start.
    let float_rows = |s: &vt100::Screen| -> Vec<String> {
        (3..19).map(|r| s.contents_between(r, 9, r, 70)).collect()
    };
    tw.wait_for("vim at the last line", |s| {
        let rows = float_rows(s);
        rows.iter().any(|r| r.starts_with("line-200"))
            && !rows.iter().any(|r| r.starts_with("line-001"))
    });
    tw.send("\x1b:q!\r");
    tw.wait_for("the editor gone", |s| !s.contents().contains('╭'));
    tw.type_line("exit");
    tw.wait_exit();
}

/// `C-b P` pins a floating pane: `C-b w` hides the others but it stays
/// on screen, keys go to the tiled pane, and a click gives it the keys.
#[test]
fn a_pinned_floating_pane_stays_when_the_floats_hide() {
    let mut tw = Tilework::start(&["--", "sh"], 24, 80);
    tw.wait_for_text("$ ");
    tw.send("\x02w");
    tw.wait_for("its prompt", |s| {
        s.contents_between(3, 9, 3, 11).starts_with('$')
    });
    tw.send("\x02P");
    tw.send("\x02w");
    // The tiled shell has the keys; its answer shows left of the float.
    tw.type_line("stty size");
    tw.wait_for_text("21 78");
    assert_eq!(tw.row_text(2, 8, 9), "╭", "the pinned pane stays");
    tw.click(40, 10);
    tw.type_line("stty size");
    tw.wait_for_text("16 62");
    tw.type_line("exit");
    tw.wait_for("it gone", |s| !s.contents().contains('╭'));
    tw.type_line("exit");
    tw.wait_exit();
}

/// A profile's `float = true` pane with the focus opens floating over its
/// tab, keys going to it; `C-b w` hides it like any other.
#[test]
fn a_profile_floats_a_pane() {
    let dir = common::TempDir::new("float-profile");
    let profile = dir.path().join("float.toml");
    std::fs::write(
        &profile,
        "[[tab]]\nlayout = { split = \"right\", panes = [{ }, { float = true, focus = true }] }\n",
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let mut tw = Tilework::start(&["--profile", &profile], 24, 80);
    tw.wait_for("the floating pane", |s| {
        s.contents_between(2, 8, 2, 9) == "╭"
    });
    tw.wait_for("its prompt", |s| {
        s.contents_between(3, 9, 3, 11).starts_with('$')
    });
    tw.type_line("stty size");
    tw.wait_for_text("16 62");
    tw.send("\x02w");
    tw.wait_for("it hidden", |s| !s.contents().contains('╭'));
    tw.type_line("stty size");
    tw.wait_for_text("21 78");
    tw.send("\x02Q");
    tw.wait_exit();
}
