//! End-to-end: a tmux user's habits as the screen shows them: the
//! message for a key bound to nothing after the prefix, `C-b q`'s pane
//! numbers, and the command prompt (`C-b :`).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn ready(tw: &Tilework) {
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

#[test]
fn a_key_bound_to_nothing_after_the_prefix_says_so_and_typing_goes_on() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02t");
    tw.wait_for("the unbound-key message", |s| {
        status_line(s).contains("C-b t: not bound · C-b ? lists the keys")
    });
    assert!(!tw.screen_text().contains("PREFIX"), "the prefix is over");
    tw.type_line("echo still-typing");
    tw.wait_for_text("still-typing");
}

#[test]
fn display_panes_numbers_each_pane_and_a_digit_focuses_it() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%");
    tw.wait_for("two panes, the second focused", |s| {
        status_line(s).contains("pane 2/2")
    });
    tw.send("\x02q");
    tw.wait_for("a number over each pane", |s| {
        let text = s.contents();
        text.contains("│ 1 │") && text.contains("│ 2 │")
    });
    tw.send("1");
    tw.wait_for("the first pane focused and the numbers gone", |s| {
        let text = s.contents();
        status_line(s).contains("pane 1/2") && !text.contains("│ 1 │")
    });
    tw.type_line("echo typed-in-one");
    tw.wait_for_text("typed-in-one");
    assert!(
        !tw.screen_text().contains("1echo"),
        "the digit was not typed"
    );
}

#[test]
fn the_command_prompt_completes_runs_and_says_what_went_wrong() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02:");
    tw.wait_for("the command prompt", |s| {
        status_line(s).contains("command (Tab completes):")
    });
    tw.send("split-r\t");
    tw.wait_for("the name completed", |s| {
        status_line(s).contains("split-right ")
    });
    tw.send("\r");
    tw.wait_for("a second pane", |s| status_line(s).contains("pane 2/2"));
    // Its shell's prompt: keys sent before it are echoed by the terminal
    // ahead of the prompt, and the output then follows the prompt.
    tw.wait_for("the second pane's prompt", |s| {
        s.contents().lines().any(|l| l.contains("┃$ "))
    });

    tw.send("\x02:");
    tw.send("split-sideways\r");
    tw.wait_for("the error in the status bar", |s| {
        status_line(s).contains("unknown command `split-sideways`")
    });

    tw.send("\x02:");
    tw.send("send-keys 'echo from-the-prompt' Enter\r");
    tw.wait_for("the command's output, not just its echo", |s| {
        s.contents().lines().any(|l| l.contains("┃from-the-prompt"))
    });
}

#[test]
fn a_failing_command_pane_backs_off_and_counts_its_failures() {
    let dir = common::TempDir::new("backoff");
    let profile = dir.path().join("fail.toml");
    std::fs::write(
        &profile,
        "[[tab]]\n[tab.layout]\ncommand = \"echo trying; exit 4\"\nrestart = \"on-failure\"\n",
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let tw = Tilework::start(&["--profile", &profile], ROWS, COLS);
    tw.wait_for("the first failure and a 1 s wait", |s| {
        s.contents().contains("exited: 4 · restarting in 1 s")
    });
    tw.wait_for("the second failure counted and a 2 s wait", |s| {
        s.contents()
            .contains("exited: 4 · failed 2× · restarting in 2 s")
    });
}

#[test]
fn a_kept_pane_gives_tilework_its_programs_status() {
    let mut tw = Tilework::start(&["--keep-exited", "--", "sh", "-c", "exit 3"], ROWS, COLS);
    tw.wait_for("the pane kept, its status shown", |s| {
        s.contents().contains("exited: 3")
    });
    tw.send("\x02x");
    assert_eq!(tw.wait_exit().exit_code(), 3);
}

#[test]
fn the_status_bar_says_a_floating_pane_has_the_focus() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02w");
    tw.wait_for("a floating pane focused", |s| {
        status_line(s).contains("floating 1/1")
    });
    tw.send("\x02z");
    tw.wait_for("why it is not zoomed", |s| {
        status_line(s).contains("a floating pane is not zoomed")
    });
    tw.send("\x02o");
    tw.wait_for("the tiled pane focused", |s| {
        status_line(s).contains("pane 1/1")
    });
    tw.send("\x02o");
    tw.wait_for("the floating pane again", |s| {
        status_line(s).contains("floating 1/1")
    });
}

#[test]
fn a_restarted_command_pane_keeps_its_id_in_list_panes() {
    let dir = common::TempDir::new("keepid");
    let profile = dir.path().join("fail.toml");
    std::fs::write(
        &profile,
        "[[tab]]\n[tab.layout]\ncommand = \"echo trying; exit 4\"\nrestart = \"on-failure\"\n",
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let tw = Tilework::start(&["--session", "keepid", "--profile", &profile], ROWS, COLS);
    let ids = || {
        let out = std::process::Command::new(common::binary())
            .args(["list-panes", "--json"])
            .env("XDG_RUNTIME_DIR", tw.runtime_dir())
            .env_remove("TILEWORK")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let panes: Vec<tilework::session::script::PaneInfo> =
            serde_json::from_slice(&out.stdout).unwrap();
        panes.into_iter().map(|p| p.id).collect::<Vec<_>>()
    };
    tw.wait_for("the first failure", |s| {
        s.contents().contains("restarting in 1 s")
    });
    let before = ids();
    tw.wait_for("a restart and a second failure", |s| {
        s.contents().contains("failed 2×")
    });
    assert_eq!(ids(), before);
}
