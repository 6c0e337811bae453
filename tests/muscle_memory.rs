//! A tmux user's muscle memory (issue 44 §5): copy mode's vi defaults and
//! the copy commands, `C-b =` drawn at typing speed and gone when it
//! closes, `C-b s` as tmux's choose-tree. Real binary, real PTY.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

/// Prints `word`, then copies that line in copy mode with tmux's vi keys:
/// `k` up onto it, `0`, `Space` to begin, `$`, `Enter` to copy and leave.
fn copy_the_line_above(tw: &mut Tilework, word: &str) {
    tw.type_line(&format!("clear; echo {word}"));
    tw.wait_for("the word alone on its line", |s| {
        s.contents()
            .lines()
            .any(|l| l.trim_matches(|c: char| c == '┃' || c == ' ') == word)
    });
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("k0 $\r");
    tw.wait_for("the copy said", |s| {
        status_line(s).contains(&format!("copied {} characters", word.len()))
    });
}

#[test]
fn space_then_enter_in_copy_mode_copies() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    prompt(&tw);
    copy_the_line_above(&mut tw, "grab-me-42");
    assert!(
        !tw.with_screen(|s| status_line(s).contains("COPY")),
        "left copy mode"
    );
    tw.send("\x02]");
    tw.wait_for("the copy pasted at the prompt", |s| {
        s.contents().contains("$ grab-me-42")
    });
}

/// `C-b =` typed at once (no which-key popup in between) draws the
/// chooser; Esc closes it and its frame leaves nothing behind.
#[test]
fn c_b_equals_draws_the_list_at_typing_speed_and_leaves_no_trace() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    prompt(&tw);
    copy_the_line_above(&mut tw, "buffer-one");
    tw.type_line("clear");
    tw.wait_for("a clear screen", |s| !s.contents().contains("buffer-one"));
    tw.send("\x02=");
    tw.wait_for("the chooser drawn", |s| {
        let text = s.contents();
        text.contains("paste buffers") && text.contains("buffer-one")
    });
    tw.send("\x1b");
    tw.wait_for("the chooser gone", |s| {
        let text = s.contents();
        !text.contains("paste buffers") && !text.contains("buffer-one")
    });
    tw.type_line("echo after-$((4*4))");
    tw.wait_for_text("after-16");
    assert!(!tw.screen_text().contains("paste buffers"));
}

/// `C-b s` takes `j`/`k` and shows the chosen workspace's tab as it looks
/// now (tmux's choose-tree preview); Enter goes there.
#[test]
fn c_b_s_previews_the_chosen_workspace_and_takes_j_and_k() {
    let mut a = Tilework::start(&["--session", "one"], ROWS, COLS);
    prompt(&a);
    let mut b = a.start_beside(&["--session", "two"], ROWS, COLS);
    prompt(&b);
    b.type_line("echo in-two-$((9*9))");
    b.wait_for_text("in-two-81");
    a.send("\x02s");
    a.wait_for("the list, on this workspace", |s| {
        s.contents().contains("one *") && s.contents().contains(" one · tab 1 ")
    });
    // one, its tab, its pane, then two.
    a.send("jjj");
    a.wait_for("two's tab previewed", |s| {
        let text = s.contents();
        text.contains(" two · tab 1 ") && text.contains("in-two-81")
    });
    a.send("k");
    a.wait_for("back on one's pane", |s| {
        let text = s.contents();
        text.contains(" one · tab 1 ") && !text.contains("in-two-81")
    });
    a.send("j\r");
    a.wait_for("two shown here", |s| status_line(s).starts_with("[two]"));
}

/// `copy-pipe-and-cancel CMD` copies and pipes the text to the command;
/// `append-selection` adds to the newest copy and stays in copy mode.
#[test]
fn copy_pipe_sends_the_selection_to_a_command_and_append_adds_to_the_copy() {
    let cfg = common::TempDir::new("pipe");
    let out = cfg.path().join("piped.txt");
    let config = cfg.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[keys.copy]\n\"Y\" = \"copy-pipe-and-cancel cat > {}\"\n\"a\" = \"append-selection\"\n",
            out.display()
        ),
    )
    .unwrap();
    let mut tw = Tilework::start(&["--config", config.to_str().unwrap()], ROWS, COLS);
    prompt(&tw);
    tw.type_line("clear; echo piped-word");
    tw.wait_for("the word alone on its line", |s| {
        s.contents()
            .lines()
            .any(|l| l.trim_matches(|c: char| c == '┃' || c == ' ') == "piped-word")
    });
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("k0 $Y");
    common::wait_until("the command to get the text", || {
        std::fs::read_to_string(&out).is_ok_and(|t| t == "piped-word")
    });
    tw.wait_for("copy mode left", |s| !status_line(s).contains("COPY"));
    // Appended: the newest copy grows, copy mode stays.
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("k0 $a");
    tw.wait_for("the append said", |s| {
        status_line(s).contains("appended: the copy has 20 characters")
    });
    assert!(tw.with_screen(|s| status_line(s).contains("COPY")));
}
