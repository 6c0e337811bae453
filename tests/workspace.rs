//! End-to-end: the real binary in a PTY, typed into, read back.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

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

/// Coloured numbered lines, some wider than the pane so they wrap.
const FLOOD: &str = r#"awk 'BEGIN{for(i=1;i<=200000;i++){w=""; if(i%7==0) w=sprintf("%90s","wide"); printf "\033[3%dmline %d\033[m%s\n", i%8, i, w}}'"#;

#[test]
fn a_flood_ends_with_exactly_the_screen_a_reference_parser_shows() {
    let tw = Tilework::start(&["--keep-exited", "-c", FLOOD], ROWS, COLS);
    tw.wait_for("the flood to end", |s| s.contents().contains("exited: 0"));
    // The same bytes, as the PTY delivers them (onlcr: \n -> \r\n).
    let out = std::process::Command::new("sh")
        .args(["-c", FLOOD])
        .output()
        .unwrap();
    let mut bytes = Vec::with_capacity(out.stdout.len() * 2);
    for &b in &out.stdout {
        if b == b'\n' {
            bytes.push(b'\r');
        }
        bytes.push(b);
    }
    // One pane: the border takes a cell on each side, the status bar a row.
    let (rows, cols) = (ROWS - 3, COLS - 2);
    let mut reference = vt100::Parser::new(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        0,
    );
    reference.process(&bytes);
    for r in 0..rows {
        let expected = reference.screen().contents_between(r, 0, r, cols);
        let got = tw.row_text(r + 1, 1, cols + 1);
        assert_eq!(got.trim_end(), expected.trim_end(), "row {r} differs");
    }
    tw.with_screen(|s| {
        // Colours survive too: the last line's first cell.
        let last = (0..rows)
            .rev()
            .find(|&r| {
                !reference
                    .screen()
                    .contents_between(r, 0, r, cols)
                    .trim()
                    .is_empty()
            })
            .unwrap();
        let expected = reference.screen().cell(last, 0).unwrap().fgcolor();
        let got = s.cell(last + 1, 1).unwrap().fgcolor();
        let as_idx = |c: vt100::Color| match c {
            vt100::Color::Idx(i) => Some(i),
            _ => None,
        };
        assert_eq!(as_idx(got), as_idx(expected));
    });
}

#[test]
fn vim_opens_a_file_shows_it_and_quits_cleanly() {
    if !common::require_program("vim") {
        return;
    }
    let dir = common::TempDir::new("vim");
    let file = dir.path().join("poem.txt");
    std::fs::write(&file, "roses are red\nviolets are blue\n").unwrap();
    let file = file.to_string_lossy().into_owned();
    let mut tw = Tilework::start(
        &["--", "vim", "-u", "NONE", "-N", "-i", "NONE", &file],
        ROWS,
        COLS,
    );
    tw.wait_for_text("violets are blue");
    // vim's empty-line markers fill the rest of the pane.
    tw.wait_for("tildes below the text", |s| {
        s.contents().matches('~').count() > 5
    });
    tw.send("ggdd");
    tw.wait_for("the first line deleted", |s| {
        let c = s.contents();
        !c.contains("roses are red") && c.contains("violets are blue")
    });
    tw.send(":q!\r");
    let status = tw.wait_exit();
    assert!(status.success());
    tw.with_screen(|s| {
        assert!(!s.alternate_screen());
        assert!(!s.hide_cursor());
    });
}

#[test]
fn scrollback_shows_earlier_output_and_q_returns() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("seq 1 200 | sed 's/^/n-/'");
    tw.wait_for_text("n-200");
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    tw.send("\x1b[5~\x1b[5~\x1b[5~");
    // Three pages of 20 rows up from the prompt: the copy cursor sits on
    // n-141 at the top of the view.
    tw.wait_for("earlier lines and the offset indicator", |s| {
        let c = s.contents();
        c.contains("lines up") && c.contains("n-141") && !c.contains("n-200")
    });
    tw.send("q");
    tw.wait_for("the live screen again", |s| {
        let c = s.contents();
        c.contains("n-200") && !c.contains("lines up")
    });
}

#[test]
fn the_wheel_scrolls_a_shell_pane() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("seq 1 100 | sed 's/^/w-/'");
    tw.wait_for_text("w-100");
    for _ in 0..5 {
        tw.send("\x1b[<64;10;10M");
    }
    tw.wait_for("history shown after wheel up", |s| {
        let c = s.contents();
        c.contains("lines up") && !c.contains("w-100")
    });
    // Typing goes back to the live screen and reaches the shell.
    tw.type_line("echo back-live");
    tw.wait_for_text("back-live");
}

#[test]
fn help_lists_bindings_from_the_keymap() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02?");
    tw.wait_for("the help overlay", |s| {
        let c = s.contents();
        c.contains("tilework keys") && c.contains("C-b %")
    });
    // Keys scroll and search help; none reaches the program. `q` closes it.
    tw.send("G");
    tw.wait_for("help scrolled to its end", |s| {
        s.contents().contains("quit tilework")
    });
    tw.send("q");
    tw.wait_for("help closed", |s| !s.contents().contains("tilework keys"));
    tw.with_screen(|s| assert!(!s.contents().contains("$ G"), "{}", s.contents()));
}

#[test]
fn zoom_and_close_keep_the_workspace_consistent() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02\"");
    tw.wait_for("two panes stacked", |s| {
        s.contents().matches("$ ").count() >= 2
    });
    tw.send("\x02z");
    tw.wait_for("zoom marker", |s| s.contents().contains("zoom"));
    tw.send("\x02z");
    tw.wait_for("unzoomed", |s| !s.contents().contains("zoom"));
    tw.send("\x02x");
    tw.wait_for("one pane left", |s| s.contents().contains("pane 1/1"));
    tw.type_line("echo still-here");
    tw.wait_for_text("still-here");
}

#[test]
fn a_tiny_terminal_does_not_crash() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%\x02\"");
    // Three shells up before the storm: a shell that is still starting may
    // flush input typed at it.
    tw.wait_for("three prompts", |s| s.contents().matches("$ ").count() >= 3);
    for (r, c) in [(1, 1), (2, 3), (5, 2), (1, 80), (24, 1), (ROWS, COLS)] {
        tw.resize(r, c);
    }
    tw.wait_for("the full-size frame again", |s| {
        s.contents().contains("pane 3/3")
    });
    tw.type_line("echo survived-$((6*7))");
    tw.wait_for_text("survived-42");
}

#[test]
fn ncurses_boxes_draw_as_lines_not_letters() {
    if !common::require_program("dialog") {
        return;
    }
    // dialog draws its box with the terminfo's alternate character set;
    // vt100 has no DEC line drawing, so tilework makes ncurses use Unicode.
    let mut tw = Tilework::start(
        &["--", "dialog", "--msgbox", "boxed-message", "8", "30"],
        ROWS,
        COLS,
    );
    tw.wait_for_text("boxed-message");
    tw.wait_for("a box of line characters", |s| {
        let c = s.contents();
        // Inside the pane (the pane's own border is heavy: ┏━┓).
        c.contains('┌') && c.contains('└') && c.contains('─')
    });
    assert!(!tw.screen_text().contains("lqqq"), "{}", tw.screen_text());
    tw.send("\r");
    tw.wait_exit();
}

#[test]
fn dragging_a_border_resizes_both_panes() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%");
    tw.wait_for("two panes", |s| {
        (1..ROWS - 1).any(|r| s.contents_between(r, COLS / 2, r, COLS).contains("$ "))
    });
    // The border between the panes is at columns 39/40; drag it to 20.
    tw.send("\x1b[<0;41;5M\x1b[<32;30;5M\x1b[<32;21;5M\x1b[<0;21;5m");
    tw.type_line("stty size");
    // The left pane now ends at column 20 (21 wide), so the focused right
    // pane has 80 - 21 - 2 border columns = 57, and the child was told so.
    let expected = format!("{} 57", ROWS - 3);
    tw.wait_for("the right pane's new width from stty", |s| {
        s.contents().contains(&expected)
    });
}

#[test]
fn a_title_set_by_the_program_shows_in_the_border() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line(r"printf '\033]2;my-title\007'");
    tw.wait_for("the title in the top border", |s| {
        s.contents_between(0, 0, 0, COLS).contains("my-title")
    });
}
