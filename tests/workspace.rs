//! End-to-end: the real binary in a PTY, typed into, read back.

mod common;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// The shell prompt inside the first pane has appeared.
fn ready(tw: &Tilework) {
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
}

#[test]
fn echo_shows_its_output_in_the_pane() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("echo hello-$((6*7))");
    tw.wait_for_text("hello-42");
    // Inside the pane's border, not on the border itself.
    tw.with_screen(|s| {
        let row = (0..ROWS)
            .find(|&r| s.contents_between(r, 0, r, COLS).contains("hello-42"))
            .unwrap_or(0);
        assert!(row > 0, "output on the top border row");
        assert_eq!(
            s.cell(row, 0).map(|c| c.contents().to_string()).as_deref(),
            Some("┃")
        );
    });
}

#[test]
fn a_split_shows_two_shells() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%");
    // Two prompts: one in each half.
    tw.wait_for("two prompts side by side", |s| {
        (1..ROWS - 1).any(|r| s.contents_between(r, COLS / 2, r, COLS).contains("$ "))
            && (1..ROWS - 1).any(|r| s.contents_between(r, 0, r, COLS / 2).contains("$ "))
    });
    tw.type_line("echo right-side");
    tw.wait_for("echo in the right pane", |s| {
        (1..ROWS - 1).any(|r| {
            s.contents_between(r, COLS / 2, r, COLS)
                .contains("right-side")
        })
    });
    tw.with_screen(|s| {
        assert!(!(1..ROWS - 1).any(|r| {
            s.contents_between(r, 0, r, COLS / 2 - 1)
                .contains("right-side")
        }));
    });
}

#[test]
fn a_mouse_click_moves_focus() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%");
    tw.wait_for("two prompts", |s| {
        (1..ROWS - 1).any(|r| s.contents_between(r, COLS / 2, r, COLS).contains("$ "))
    });
    // Focus is on the new right pane; click into the left one.
    tw.click(10, 5);
    tw.type_line("echo clicked-left");
    tw.wait_for("echo in the left pane", |s| {
        (1..ROWS - 1).any(|r| {
            s.contents_between(r, 0, r, COLS / 2 - 1)
                .contains("clicked-left")
        })
    });
}

#[test]
fn exit_in_the_last_pane_ends_tilework_and_restores_the_terminal() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.with_screen(|s| assert!(s.alternate_screen()));
    tw.type_line("exit 3");
    let status = tw.wait_exit();
    assert_eq!(status.exit_code(), 3);
    tw.with_screen(|s| {
        assert!(!s.alternate_screen(), "still on the alternate screen");
        assert!(!s.hide_cursor(), "cursor left hidden");
        assert_eq!(s.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
        assert!(!s.bracketed_paste());
    });
}

#[test]
fn a_command_line_pane_runs_with_sh_c() {
    let mut tw = Tilework::start(
        &[
            "-c",
            "echo one-$((1+1)); exec cat",
            "-c",
            "echo two; exec cat",
        ],
        ROWS,
        COLS,
    );
    // Row 0 is the border with the titles: look below it.
    tw.wait_for("each command's output in its own pane", |s| {
        let left = (1..ROWS - 1).any(|r| s.contents_between(r, 0, r, COLS / 2).contains("one-2"));
        let right = (1..ROWS - 1).any(|r| s.contents_between(r, COLS / 2, r, COLS).contains("two"));
        left && right
    });
    // Focus starts on the first pane.
    tw.type_line("typed-into-first");
    tw.wait_for("typed text in the left pane", |s| {
        (1..ROWS - 1).any(|r| {
            s.contents_between(r, 0, r, COLS / 2)
                .contains("typed-into-first")
        })
    });
}
