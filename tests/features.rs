//! End-to-end: tabs, layouts, copy mode, search, sessions, broadcast,
//! command panes, which-key and notifications, as a user drives them.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::time::Duration;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn ready(tw: &Tilework) {
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

fn raw_contains(tw: &Tilework, needle: &[u8]) -> bool {
    tw.raw_tail().windows(needle.len()).any(|w| w == needle)
}

#[test]
fn tabs_new_rename_switch_by_click_and_close() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02c");
    // The new tab's shell is up (its prompt shows) before anything is typed.
    tw.wait_for("a second tab with its prompt", |s| {
        status_line(s).contains("2:") && s.contents().contains("$ ")
    });
    tw.send("\x02,");
    tw.wait_for("the rename prompt", |s| {
        status_line(s).contains("rename tab")
    });
    tw.send("\x15logs\r"); // C-u clears the old name
    tw.wait_for("the renamed tab", |s| status_line(s).contains("2:logs"));
    tw.type_line("echo in-second-tab");
    tw.wait_for_text("in-second-tab");
    // Click the first tab's label in the status bar (after the
    // workspace's name).
    let first_tab = tw.with_screen(|s| status_line(s).find(" 1:").unwrap());
    tw.click(u16::try_from(first_tab).unwrap() + 1, ROWS - 1);
    tw.wait_for("the first tab shown", |s| {
        !s.contents().contains("in-second-tab")
    });
    tw.send("\x02n");
    tw.wait_for_text("in-second-tab");
    tw.send("\x02&");
    tw.wait_for("one tab left", |s| !status_line(s).contains("logs"));
    tw.type_line("echo still-alive");
    tw.wait_for_text("still-alive");
}

#[test]
fn output_in_a_hidden_tab_marks_it() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02c");
    // The new tab's shell is up (its prompt shows) before anything is typed.
    tw.wait_for("a second tab with its prompt", |s| {
        status_line(s).contains("2:") && s.contents().contains("$ ")
    });
    tw.type_line("sleep 1; echo later; printf '\\a'");
    tw.send("\x021");
    // Tab 2 is named after what runs in it (`sleep`, then its directory).
    tw.wait_for("the bell marker on tab 2", |s| {
        status_line(s)
            .split(" 2:")
            .nth(1)
            .is_some_and(|tab| tab.split("  ").next().is_some_and(|t| t.contains(" !")))
    });
    tw.send("\x022");
    tw.wait_for("the marker cleared", |s| !status_line(s).contains('!'));
}

#[test]
fn layout_presets_rearrange_the_panes() {
    let mut tw = Tilework::start(
        &[
            "-c", "exec cat", "-c", "exec cat", "-c", "exec cat", "-c", "exec cat",
        ],
        ROWS,
        COLS,
    );
    tw.wait_for("four panes side by side", |s| {
        s.contents_between(0, 0, 0, COLS)
            .matches("exec cat")
            .count()
            == 4
    });
    // Tiled: two rows of two.
    tw.send("\x02\x1b5");
    tw.wait_for("a 2x2 grid", |s| {
        let top = s.contents_between(0, 0, 0, COLS);
        top.matches("exec cat").count() == 2
            && (1..ROWS - 1).any(|r| {
                s.contents_between(r, 0, r, COLS)
                    .matches("exec cat")
                    .count()
                    == 2
            })
    });
}

#[test]
fn copy_mode_selects_copies_to_osc52_and_pastes_back() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("echo copy-me-please");
    tw.wait_for_text("copy-me-please\r\n$ ".trim_end_matches("\r\n$ "));
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    // Search for the word, select it with v + e-like motion, copy.
    tw.send("/copy-me\r");
    tw.wait_for("the match highlighted", |s| {
        (0..COLS).any(|c| {
            (1..ROWS - 1).any(|r| {
                s.cell(r, c)
                    .is_some_and(|cell| cell.bgcolor() != vt100::Color::Default)
            })
        })
    });
    tw.send("v");
    for _ in 0.."copy-me-please".len() - 1 {
        tw.send("l");
    }
    tw.send("y");
    tw.wait_for("the copy notice", |s| {
        status_line(s).contains("copied 14 characters")
    });
    // base64("copy-me-please")
    assert!(raw_contains(&tw, b"\x1b]52;c;Y29weS1tZS1wbGVhc2U=\x07"));
    // Paste it back into the shell.
    tw.send("echo X");
    tw.send("\x02]");
    tw.send("\r");
    tw.wait_for_text("Xcopy-me-please");
}

#[test]
fn mouse_drag_selects_inside_the_pane_and_copies() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("clear; echo mouse-words here");
    // Not just "contains": the typed command line holds the same words
    // until `clear` has run.
    tw.wait_for("the echo alone on the first content row", |s| {
        s.contents_between(1, 0, 1, COLS)
            .starts_with("┃mouse-words here")
    });
    // Double-click the word "mouse-words" (at content col 0 = screen col 1).
    tw.send("\x1b[<0;4;2M\x1b[<0;4;2m\x1b[<0;4;2M\x1b[<0;4;2m");
    tw.wait_for("the copy notice", |s| {
        status_line(s).contains("copied 11 characters")
    });
    assert!(raw_contains(&tw, b"\x1b]52;c;bW91c2Utd29yZHM=\x07"));
    // Dragging past the right pane border stays inside the pane.
    tw.send("\x02%");
    tw.wait_for("two panes", |s| {
        s.contents_between(0, COLS / 2, 0, COLS).contains("sh")
    });
    tw.send("\x1b[<0;2;2M\x1b[<32;60;2M\x1b[<0;70;2m");
    tw.wait_for("a copy of the left pane's row only", |s| {
        status_line(s).contains("copied")
    });
}

#[test]
fn search_all_panes_lists_matches_per_pane() {
    let mut tw = Tilework::start(
        &[
            "-c",
            "echo needle-one; exec cat",
            "-c",
            "echo nothing here; exec cat",
            "-c",
            "echo needle-two; echo needle-three; exec cat",
        ],
        ROWS,
        COLS,
    );
    tw.wait_for_text("needle-three");
    tw.send("\x02F");
    tw.wait_for("the search prompt", |s| {
        status_line(s).contains("search all panes")
    });
    tw.send("needle\r");
    tw.wait_for("results for every pane", |s| {
        let c = s.contents();
        // Only panes with a match are listed (issue 33); the others counted.
        c.contains("1 matching lines")
            && !c.contains("0 matching lines")
            && c.contains("1 pane without a match")
            && c.contains("2 matching lines")
    });
    tw.send("\x1b");
    tw.wait_for("results closed", |s| {
        !s.contents().contains("matching lines")
    });
}

#[test]
fn search_all_results_name_the_panes_and_enter_opens_the_match_in_copy_mode() {
    let mut tw = Tilework::start(
        &[
            "-c",
            "echo needle-one; exec cat",
            "-c",
            "echo nothing here; exec cat",
            "-c",
            "echo needle-two; echo needle-three; exec cat",
        ],
        ROWS,
        COLS,
    );
    tw.wait_for_text("needle-three");
    tw.send("\x02F");
    tw.wait_for("the search prompt", |s| {
        status_line(s).contains("search all panes")
    });
    tw.send("needle\r");
    tw.wait_for("results naming each pane", |s| {
        let c = s.contents();
        c.contains("tab 1 · pane 1 · 1 matching lines · echo needle-one")
            && !c.contains("tab 1 · pane 2")
            && c.contains("tab 1 · pane 3 · 2 matching lines")
    });
    // The third line listed: pane 3's "needle-three".
    tw.send("\x1b[B\x1b[B\r");
    tw.wait_for("copy mode at the match, the search kept", |s| {
        status_line(s).contains("COPY") && status_line(s).contains("search: 2/2")
    });
    // The cursor is on the match: select to the end of its line, copy.
    tw.send("v$y");
    tw.wait_for("the copy notice", |s| {
        status_line(s).contains("copied 12 characters")
    });
    assert!(raw_contains(&tw, b"\x1b]52;c;bmVlZGxlLXRocmVl\x07")); // "needle-three"
}

/// The text of the row the copy-mode cursor (a reversed cell) is on,
/// inside the pane's borders.
fn cursor_row_text(s: &vt100::Screen) -> Option<String> {
    (1..ROWS - 1)
        .find(|&r| (0..COLS).any(|c| s.cell(r, c).is_some_and(vt100::Cell::inverse)))
        .map(|r| s.contents_between(r, 1, r, COLS - 1).trim().to_string())
}

/// A shell that printed `hit-1` to `hit-5`, each followed by `filler`, the
/// prompt under them. The command's echo holds neither `hit-` nor a line
/// ending in a digit, so only the output matches the searches.
fn five_hits() -> Tilework {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line(r"printf 'h''it-%s\nfiller\n' 1 2 3 4 5");
    tw.wait_for("the output, then the prompt", |s| {
        (1..ROWS - 2).any(|r| {
            s.contents_between(r, 0, r, COLS).starts_with("┃filler")
                && s.contents_between(r + 1, 0, r + 1, COLS).starts_with("┃$ ")
        })
    });
    tw
}

#[test]
fn the_copy_mode_search_counter_follows_n_and_shift_n_and_goes_with_copy_mode() {
    let mut tw = five_hits();
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("/hit\r");
    tw.wait_for("the newest match, counted 5 of 5", |s| {
        status_line(s).contains("search: 5/5") && cursor_row_text(s).as_deref() == Some("hit-5")
    });
    for (key, i) in [("n", 4), ("n", 3), ("n", 2), ("N", 3), ("N", 4)] {
        tw.send(key);
        tw.wait_for(&format!("{key}: hit-{i}, counted {i} of 5"), |s| {
            status_line(s).contains(&format!("search: {i}/5"))
                && cursor_row_text(s) == Some(format!("hit-{i}"))
        });
    }
    // Leaving copy mode takes the counter along. Checked on a frame drawn
    // after the one `q` brought (the echo's), so that a frame read half
    // written cannot fool it; a notice left up would still show then (it
    // lasts 3 s).
    tw.send("q");
    tw.type_line("echo left-$((6*7))");
    tw.wait_for("copy mode left and the echo shown", |s| {
        !status_line(s).contains("COPY") && s.contents().contains("left-42")
    });
    tw.with_screen(|s| {
        assert!(
            !status_line(s).contains("search:"),
            "a counter with no copy mode: {}",
            status_line(s)
        );
    });
}

#[test]
fn a_search_ending_in_dollar_matches_at_the_end_of_the_lines_text() {
    let mut tw = five_hits();
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("/hit-3$\r");
    tw.wait_for("hit-3 found", |s| {
        status_line(s).contains("search: 1/1") && cursor_row_text(s).as_deref() == Some("hit-3")
    });
    // Five lines are `filler` and nothing else; the nearest before the
    // cursor (on hit-3) is the second.
    tw.send("/^filler$\r");
    tw.wait_for("the filler line above hit-3, counted 2 of 5", |s| {
        status_line(s).contains("search: 2/5")
    });
    tw.send("q");
    tw.wait_for("copy mode left", |s| !status_line(s).contains("COPY"));
    // The search across panes reads `$` the same way.
    tw.send("\x02F");
    tw.wait_for("the search prompt", |s| {
        status_line(s).contains("search all panes")
    });
    tw.send("hit-3$\r");
    tw.wait_for("one matching line", |s| {
        s.contents().contains("tab 1 · pane 1 · 1 matching lines")
    });
}

#[test]
fn copy_mode_keeps_keys_it_does_not_use_from_the_program_and_moves_like_vi() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.type_line("seq 1 200");
    tw.wait_for("the end of the output", |s| s.contents().contains("┃200 "));
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    // The first PgUp scrolls the view, not just the cursor.
    tw.send("\x1b[5~");
    tw.wait_for("the view a page back", |s| {
        !s.contents().contains("┃200 ") && s.contents().contains("┃170 ")
    });
    // A vim hand's keys: motions or nothing, never typing into the shell.
    tw.send("eixHL\x05\x19");
    tw.wait_for("the hint for the last unused key", |s| {
        status_line(s).contains("x: not a copy-mode key")
    });
    tw.send("q");
    tw.wait_for("copy mode left", |s| !status_line(s).contains("COPY"));
    tw.type_line("echo clean-$((1+1))");
    tw.wait_for_text("clean-2");
    assert!(
        tw.screen_text().contains("$ echo clean-$((1+1))"),
        "nothing typed before the command: {}",
        tw.screen_text()
    );
    // A count, a find and `$`: from the prompt row, two up, on to the `c`
    // of `echo`, and to the end of that line.
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    tw.send("2k0fcv$y");
    tw.wait_for("the copy notice", |s| {
        status_line(s).contains("copied 18 characters")
    });
    assert!(raw_contains(&tw, b"\x1b]52;c;Y2hvIGNsZWFuLSQoKDErMSkp\x07")); // "cho clean-$((1+1))"
}

/// The `flow-N` numbers on screen, by screen row.
fn flow_rows(s: &vt100::Screen) -> Vec<(u16, u64)> {
    (1..ROWS - 1)
        .filter_map(|r| {
            let text = s.contents_between(r, 0, r, COLS);
            let digits: String = text
                .split("flow-")
                .nth(1)?
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            Some((r, digits.parse().ok()?))
        })
        .collect()
}

/// The screen row of the copy-mode cursor (a reversed cell) and the
/// `flow-N` number on it.
fn flow_under_cursor(s: &vt100::Screen) -> Option<(u16, u64)> {
    let row = (1..ROWS - 1)
        .find(|&r| (0..COLS).any(|c| s.cell(r, c).is_some_and(vt100::Cell::inverse)))?;
    flow_rows(s).into_iter().find(|&(r, _)| r == row)
}

/// `N` of the border's `N/M lines up`.
fn lines_up(s: &vt100::Screen) -> Option<u64> {
    let top = s.contents_between(0, 0, 0, COLS);
    let before = top
        .split(" lines up")
        .next()
        .filter(|b| b.len() < top.len())?;
    let n = before.rsplit('/').nth(1)?;
    let digits: String = n.chars().rev().take_while(char::is_ascii_digit).collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

#[test]
fn copy_mode_holds_the_view_still_while_the_program_prints() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    // Numbered lines, 50 a second, each number also written to a file so
    // the test knows how far the program got while the view is held. The
    // quotes keep the typed command from showing `flow-`.
    let progress = tw.dir.path().join("progress");
    tw.type_line(&format!(
        "i=0; while :; do i=$((i+1)); echo fl''ow-$i; echo $i > {}; sleep 0.02; done",
        progress.display()
    ));
    tw.wait_for("a screenful of output", |s| {
        flow_rows(s).last().is_some_and(|&(_, n)| n >= 40)
    });
    let printed = || -> u64 {
        std::fs::read_to_string(&progress)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0)
    };

    tw.send("\x02[");
    tw.wait_for("copy mode on its history", |s| {
        status_line(s).contains("COPY") && lines_up(s).is_some()
    });
    // Where the cursor starts may already be a line of output: wait for
    // `k` to have moved it, or the cursor read below is the one before `k`.
    let start = tw.with_screen(flow_under_cursor);
    tw.send("k");
    tw.wait_for("the cursor moved up, on a line of output", |s| {
        flow_under_cursor(s).is_some() && flow_under_cursor(s) != start
    });
    let (held, cursor) = tw.with_screen(|s| (flow_rows(s), flow_under_cursor(s)));
    let newest = held.last().unwrap().1;

    // Well past a screenful more output...
    common::wait_until("three screenfuls more output", || {
        printed() > newest + 3 * u64::from(ROWS)
    });
    // ...has reached the pane (the border counts it) but not the view.
    tw.wait_for("the border counting the new rows", |s| {
        lines_up(s).is_some_and(|n| n > 2 * u64::from(ROWS))
    });
    tw.with_screen(|s| {
        assert_eq!(flow_under_cursor(s), cursor, "{}", s.contents());
        let now = flow_rows(s);
        for line in &held {
            assert!(now.contains(line), "{line:?} moved: {}", s.contents());
        }
    });

    // Leaving shows the live screen, with what was printed meanwhile.
    tw.send("q");
    let later = printed();
    tw.wait_for("the live screen's newest lines", |s| {
        !status_line(s).contains("COPY") && flow_rows(s).iter().any(|&(_, n)| n > later)
    });
    tw.send("\x03");
}

#[test]
fn broadcast_types_into_every_pane_of_the_tab() {
    let mut tw = Tilework::start(&["-c", "exec sh", "-c", "exec sh"], ROWS, COLS);
    tw.wait_for("two prompts", |s| s.contents().matches("$ ").count() >= 2);
    tw.send("\x02B");
    tw.wait_for("the broadcast notice", |s| {
        status_line(s).contains("broadcast")
    });
    tw.type_line("echo both-$((40+2))");
    tw.wait_for("the echo in both panes", |s| {
        s.contents().matches("both-42").count() >= 2
    });
    tw.send("\x02B");
    tw.type_line("echo only-one");
    // The typed line and its output, both in the focused (left) pane...
    tw.wait_for("the echo in the focused pane", |s| {
        (1..ROWS - 1)
            .filter(|&r| s.contents_between(r, 0, r, COLS / 2).contains("only-one"))
            .count()
            == 2
    });
    // ...and nothing in the right one.
    tw.with_screen(|s| {
        assert!(
            !(1..ROWS - 1).any(|r| s
                .contents_between(r, COLS / 2, r, COLS)
                .contains("only-one")),
            "{}",
            s.contents()
        );
    });
}

#[test]
fn which_key_pops_up_after_the_prefix() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02");
    tw.wait_for("the which-key popup", |s| {
        s.contents().contains("split right") && s.contents().contains("1-9 go to tab")
    });
    tw.send("\x1b");
    tw.wait_for("the popup gone", |s| !s.contents().contains("split right"));
}

#[test]
fn command_panes_restart_per_policy_and_show_their_status() {
    let dir = common::TempDir::new("cmdpane");
    let counter = dir.path().join("runs");
    let profile = dir.path().join("cmd.toml");
    std::fs::write(
        &profile,
        format!(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\npanes = [\n  {{ command = \"echo run >> {c}; echo runs=$(wc -l < {c}); exit 3\", restart = \"on-failure\" }},\n  {{ command = \"echo done; exit 0\", restart = \"on-failure\" }},\n]\n",
            c = counter.display()
        ),
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let tw = Tilework::start(&["--profile", &profile], ROWS, COLS);
    // The failing one restarts (after a 1 s back-off each time)...
    tw.wait_for("a restarted command", |s| s.contents().contains("runs=3"));
    // ...the successful one stays, showing its status.
    tw.wait_for("exit status in the border", |s| {
        s.contents().contains("exited: 0")
    });
}

#[test]
fn a_command_pane_that_ends_well_keeps_its_output_until_closed() {
    let dir = common::TempDir::new("cmdkeep");
    let profile = dir.path().join("once.toml");
    std::fs::write(
        &profile,
        "[[tab]]\n[tab.layout]\ncommand = \"echo build-output-$((6*7)); exit 0\"\n",
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let mut tw = Tilework::start(&["--profile", &profile], ROWS, COLS);
    // `restart` defaults to "never": the pane stays, output and status shown,
    // and so does tilework (it was the last pane).
    tw.wait_for("the output and the exit status", |s| {
        let c = s.contents();
        c.contains("build-output-42") && c.contains("exited: 0")
    });
    assert!(tw.try_exit().is_none(), "tilework ended with the command");
    // Closing it is the user's call.
    tw.send("\x02x");
    let status = tw.wait_exit();
    assert!(status.success());
}

#[test]
fn a_saved_session_restores_layout_directories_and_commands() {
    let dir = common::TempDir::new("session");
    let profile = dir.path().join("start.toml");
    // A shell pane (focused) and a command pane.
    std::fs::write(
        &profile,
        "[[tab]]\nname = \"work\"\n[tab.layout]\nsplit = \"right\"\nratios = [70, 30]\npanes = [{ focus = true }, { command = \"echo from-command; exec sleep 1000\" }]\n",
    )
    .unwrap();
    let profile = profile.to_string_lossy().into_owned();
    let mut tw = Tilework::start(&["--profile", &profile], ROWS, COLS);
    tw.wait_for_text("from-command");
    ready(&tw);
    let sub = tw.dir.path().join("somewhere");
    std::fs::create_dir_all(&sub).unwrap();
    // Saved from the shell's working directory: wait until the cd is done.
    tw.type_line(&format!("cd {} && echo moved-$((40+2))", sub.display()));
    tw.wait_for_text("moved-42");
    tw.send("\x02S");
    tw.wait_for("the save prompt", |s| {
        status_line(s).contains("save workspace")
    });
    tw.send("mysession\r");
    tw.wait_for("the saved notice", |s| status_line(s).contains("saved"));
    let saved = tw
        .dir
        .path()
        .join("config/tilework/profiles/mysession.toml");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("somewhere"), "{text}");
    assert!(
        // One key per line (issue 33).
        text.contains("command = \"echo from-command; exec sleep 1000\"\nstart = \"manual\"\n"),
        "{text}"
    );
    assert!(text.contains("ratios = [700, 300]"), "{text}");
    tw.send("\x02Q");
    // The command pane still runs: quitting asks first.
    tw.wait_for("the question", |s| {
        status_line(s).contains("quit tilework? it stops")
    });
    tw.send("y");
    tw.wait_exit();

    // Reopen it: the shell is back in its directory, the command waits.
    let config = tw.dir.path().join("config");
    let env = [("XDG_CONFIG_HOME", config.to_str().unwrap())];
    let mut again = Tilework::start_with(&["--profile", "mysession"], ROWS, COLS, &env);
    again.wait_for_text("press Enter to run it");
    again.wait_for("the tab name", |s| status_line(s).contains("1:work"));
    ready(&again);
    again.type_line("pwd");
    again.wait_for_text("somewhere");
    // The command is shown (`$ echo from-command; ...`) but has not run: no
    // row of the right pane holds its output on its own.
    again.with_screen(|s| {
        let ran = (1..ROWS - 1).any(|r| {
            let row = s.contents_between(r, 0, r, COLS);
            row.split(['│', '┃'])
                .any(|cell| cell.trim() == "from-command")
        });
        assert!(!ran, "the command ran by itself:\n{}", s.contents());
    });
}

/// A pattern the regex crate takes a tenth of a second to compile (in a
/// debug build; `\w` is every Unicode word character, seventy times), then
/// alternatives of letters that never occur in `seq`'s output, and last one
/// that matches a single row: 900 keystrokes that each used to re-run the
/// search on the render loop, over a minute in all. (Less than 1 KiB: more
/// in one burst is what issue 10 part 1 is about.)
fn expensive_pattern() -> String {
    let mut state: u32 = 12_345;
    let mut pattern = String::from(r"\w{70}");
    while pattern.len() < 880 {
        pattern.push('|');
        for _ in 0..10 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            pattern.push(char::from(b'a' + u8::try_from((state >> 16) % 26).unwrap()));
        }
    }
    pattern.push_str("|299998");
    pattern
}

#[test]
fn an_expensive_search_pattern_never_blocks_typing() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    // MiBs of output; copy mode searches all of it (13 rows hold 29999).
    tw.type_line("seq 1 300000");
    tw.wait_for_while_programs_write("the end of the output", |s| {
        s.contents().contains("┃300000 ")
    });
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    tw.send("/29999");
    tw.wait_for("a first search done: the history is loaded", |s| {
        status_line(s).contains("/13 (any case)")
    });
    // C-u, then the pattern: the prompt shows it as it is typed, while the
    // searches run (and give way to the next keystroke) elsewhere.
    tw.send(format!("\x15{}", expensive_pattern()));
    tw.wait_for("the whole pattern in the prompt", |s| {
        status_line(s).contains("|299998▏")
    });
    // The latest pattern's result arrives and is applied.
    tw.wait_for("the one match of the last pattern", |s| {
        status_line(s).contains("1/1 (any case)")
    });
    // And the UI goes on answering at once: close the prompt, leave copy
    // mode, type into the shell.
    tw.send("\x1b");
    tw.wait_for("the prompt closed", |s| !status_line(s).contains("search"));
    tw.send("q");
    tw.wait_for("copy mode left", |s| !status_line(s).contains("COPY"));
    tw.type_line("echo alive-$((6*7))");
    tw.wait_for_text("alive-42");
}

/// Not a test: the numbers behind issue 10 part 7, printed, never asserted.
/// `cargo test --release --test features measure_search_typing -- --ignored --nocapture`
#[test]
#[ignore = "a measurement; run it by name"]
fn measure_search_typing() {
    use std::time::{Duration, Instant};
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    // However long a wait takes on a loaded machine, as long as tilework
    // works (the searches run on threads of its own); its CPU time is
    // bounded by the 600 s each wait had.
    let pid = tw.workspace_pid();
    let long = |tw: &Tilework, what: &str, cond: &dyn Fn(&vt100::Screen) -> bool| {
        let mut work = common::progress::CpuWork::new("tilework", Duration::from_secs(600), || {
            common::progress::process_cpu(pid)
        });
        tw.wait_for_while_progressing(what, common::progress::STALL, || work.progress(), cond);
    };
    tw.type_line("seq 1 300000");
    tw.wait_for("the end of the output", |s| {
        s.contents().contains("┃300000 ")
    });
    tw.send("\x02[");
    tw.wait_for_text("COPY");
    tw.send("/29999");
    tw.wait_for("the history loaded", |s| {
        status_line(s).contains("/13 (any case)")
    });
    let started = Instant::now();
    tw.send(format!("\x15{}", expensive_pattern()));
    long(&tw, "the pattern shown", &|s| {
        status_line(s).contains("|299998▏")
    });
    let shown = started.elapsed();
    long(&tw, "its result", &|s| {
        status_line(s).contains("1/1 (any case)")
    });
    eprintln!(
        "\\w{{70}} pattern, {} keys at once: shown after {shown:?}, result after {:?}",
        expensive_pattern().len(),
        started.elapsed()
    );
    let mut keys = Vec::new();
    for _ in 0..5 {
        for (key, tail) in [("\x7f", "|29999▏"), ("8", "|299998▏")] {
            let at = Instant::now();
            tw.send(key);
            long(&tw, "the key shown", &|s| status_line(s).contains(tail));
            keys.push(at.elapsed());
        }
    }
    keys.sort();
    eprintln!(
        "one key with that pattern: median {:?}, max {:?}",
        keys[keys.len() / 2],
        keys[keys.len() - 1]
    );
    // The red-team case: a 300-word alternation typed in, in pieces of
    // under 1 KiB (the measurement was first taken before part 1's fix).
    let mut state: u32 = 7;
    let words: Vec<String> = (0..300)
        .map(|_| {
            (0..10)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    char::from(b'a' + u8::try_from((state >> 16) % 26).unwrap())
                })
                .collect()
        })
        .collect();
    let pattern = words.join("|");
    let started = Instant::now();
    tw.send("\x15");
    for piece in pattern.as_bytes().chunks(825) {
        tw.send(piece);
        let tail = format!("{}▏", String::from_utf8_lossy(&piece[piece.len() - 6..]));
        long(&tw, "the piece shown", &|s| status_line(s).contains(&tail));
    }
    eprintln!(
        "300-word alternation ({} keys) typed in: shown after {:?}",
        pattern.len(),
        started.elapsed()
    );
}

/// A shell at its prompt closes at once; a pane running a program asks
/// `y/n` first, and its tab is named after the program meanwhile. `y`
/// closes it with no leftover `nothing closed` from an earlier `n`.
#[test]
fn closing_a_pane_that_runs_a_program_asks_first() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    tw.send("\x02%");
    tw.wait_for("two panes, the new one at its prompt", |s| {
        status_line(s).contains("pane 2/2") && s.contents().matches("$ ").count() >= 2
    });
    tw.type_line("sleep 100");
    tw.wait_for("the tab named after the program", |s| {
        status_line(s).contains("1:sleep")
    });
    tw.send("\x02x");
    tw.wait_for("the question", |s| {
        status_line(s).contains("close the pane? it stops sleep (y/n)")
    });
    tw.send("n");
    tw.wait_for("nothing closed", |s| {
        status_line(s).contains("nothing closed")
    });
    tw.with_screen(|s| assert!(status_line(s).contains("pane 2/2"), "{}", s.contents()));
    tw.send("\x02x");
    tw.wait_for("the question again", |s| status_line(s).contains("(y/n)"));
    tw.send("y");
    tw.wait_for("one pane left", |s| status_line(s).contains("pane 1/1"));
    // The first answer's notice would read as this one's.
    tw.with_screen(|s| {
        assert!(
            !status_line(s).contains("nothing closed"),
            "{}",
            s.contents()
        );
    });
    // The shell at its prompt closes without a question: tilework ends.
    tw.send("\x02x");
    common::wait_until("tilework to end without asking", || {
        tw.with_screen(|s| assert!(!status_line(s).contains("(y/n)"), "asked"));
        tw.try_exit().is_some()
    });
}

/// The loop reads the terminal itself (issue 14): keys that arrive in one
/// read are all handled with nothing typed after them, and an escape
/// sequence split across two reads is still one key.
#[test]
fn keys_that_arrive_together_or_split_are_read_whole() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    ready(&tw);
    // The prefix, a split and a command for the new pane, in one write.
    tw.send("\x02%echo both-$((20+22))\r");
    tw.wait_for("the split and the command's output in it", |s| {
        status_line(s).contains("pane 2/2") && s.contents().contains("both-42")
    });
    // Prefix, then Left as ESC [ and D in two writes. The pause lets the
    // loop read the first half alone (not a wait for anything: the test
    // holds whether or not the halves arrive apart). Read as Escape, `[`
    // and `D`, the focus would stay and copy mode would open.
    tw.send("\x02\x1b[");
    std::thread::sleep(Duration::from_millis(30));
    tw.send("D");
    tw.wait_for("the focus moved left", |s| {
        status_line(s).contains("pane 1/2")
    });
}
