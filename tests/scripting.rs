//! Scripts driving a running workspace (issue 17): `tilework action`,
//! `send-keys`, `run`, `capture` and `list-panes`, run as a script would
//! run them (plain commands, no terminal), against a workspace started in
//! a PTY with `--session` in the test's own runtime directory.

#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::process::Command;

use common::Tilework;
use tilework::session::script::{self, Call, PaneInfo};

const ROWS: u16 = 24;
const COLS: u16 = 100;

/// A workspace named `name`, its shell at its prompt.
fn start(name: &str) -> Tilework {
    let tw = Tilework::start(&["--session", name], ROWS, COLS);
    prompt(&tw);
    tw
}

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

/// `tilework ARGS` as a script outside the workspace runs it: its
/// stdout, stderr and exit status.
fn cli(tw: &Tilework, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(common::binary())
        .args(args)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        // Not a pane of any workspace (even if the tests run inside one).
        .env_remove("TILEWORK")
        .current_dir(tw.dir.path())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `tilework ARGS`, which must succeed; its stdout.
fn ok(tw: &Tilework, args: &[&str]) -> String {
    let (out, err, code) = cli(tw, args);
    assert_eq!(code, 0, "tilework {args:?} failed: {err}");
    out
}

/// `tilework ARGS`, which must fail; its stderr.
fn fails(tw: &Tilework, args: &[&str]) -> String {
    let (out, err, code) = cli(tw, args);
    assert_ne!(code, 0, "tilework {args:?} succeeded: {out}");
    assert!(!err.trim().is_empty(), "tilework {args:?} failed silently");
    err
}

fn panes(tw: &Tilework) -> Vec<PaneInfo> {
    serde_json::from_str(&ok(tw, &["list-panes", "--json"])).unwrap()
}

/// Waits until `capture ARGS` prints something `cond` accepts; returns it.
fn capture_until(tw: &Tilework, args: &[&str], what: &str, cond: impl Fn(&str) -> bool) -> String {
    let mut argv = vec!["capture"];
    argv.extend_from_slice(args);
    let mut last = String::new();
    common::wait_until(what, || {
        last = ok(tw, &argv);
        cond(&last)
    });
    last
}

#[test]
fn run_split_right_opens_a_pane_that_list_panes_shows() {
    let tw = start("split");
    let before = panes(&tw);
    assert_eq!(before.len(), 1);
    let first = before[0].id;
    assert!(before[0].focused && !before[0].floating);

    let out = ok(&tw, &["run", "--split", "right", "--", "sh"]);
    let new: u32 = out.trim().parse().unwrap_or_else(|_| panic!("{out:?}"));
    tw.wait_for("both panes", |s| s.contents().contains("pane 2/2"));
    let after = panes(&tw);
    assert_eq!(after.len(), 2, "{after:?}");
    let pane = after.iter().find(|p| p.id == new).unwrap();
    assert!(pane.focused && pane.tab == 1 && !pane.floating, "{pane:?}");
    assert_eq!(pane.command, ["sh"]);
    assert!(pane.pid.is_some());
    // Side by side: each about half the width, the same height.
    let old = after.iter().find(|p| p.id == first).unwrap();
    assert!(!old.focused);
    assert_eq!(pane.rows, old.rows);
    assert!(
        pane.cols < COLS / 2 + 2 && old.cols < COLS / 2 + 2,
        "{after:?}"
    );
    // It starts in the script's directory.
    assert_eq!(
        pane.cwd.as_deref().map(std::path::Path::new),
        Some(tw.dir.path()),
        "{pane:?}"
    );
    // The plain table: a header and a row per pane.
    let table = ok(&tw, &["list-panes"]);
    assert_eq!(table.lines().count(), 3, "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{new} ")) && l.contains("focused")),
        "{table}"
    );
}

#[test]
fn send_keys_types_and_capture_shows_the_screen() {
    let tw = start("keys");
    ok(&tw, &["send-keys", "echo hi-$((6*7))", "Enter"]);
    let screen = capture_until(&tw, &[], "the echo in capture", |s| {
        s.lines().any(|l| l.trim() == "hi-42")
    });
    // One line per row of the pane.
    let pane = &panes(&tw)[0];
    assert_eq!(screen.lines().count(), usize::from(pane.rows), "{screen}");
    tw.wait_for_text("hi-42");
    // Keys by name: C-c abandons a typed line; -l sends a key name as text.
    ok(&tw, &["send-keys", "echo never-$((1+1))", "C-c"]);
    // Keys sent before the shell has handled its SIGINT would be thrown
    // away with the abandoned line: wait for the shell's `^C` and the
    // fresh prompt under it.
    capture_until(&tw, &[], "a fresh prompt after C-c", |s| {
        let lines: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        lines
            .iter()
            .position(|l| l.ends_with("^C"))
            .is_some_and(|i| lines.get(i + 1) == Some(&"$"))
    });
    ok(&tw, &["send-keys", "-l", "echo Enter"]);
    ok(&tw, &["send-keys", "Enter"]);
    capture_until(&tw, &[], "the literal word echoed", |s| {
        s.lines().any(|l| l.trim() == "Enter")
    });
    let screen = ok(&tw, &["capture"]);
    assert!(!screen.contains("never-2"), "{screen}");
}

#[test]
fn capture_history_reaches_lines_scrolled_off_the_screen() {
    let tw = start("history");
    ok(&tw, &["send-keys", "seq 1 500 | sed s/^/line-/", "Enter"]);
    let screen = capture_until(&tw, &[], "the last line", |s| {
        s.lines().any(|l| l.trim() == "line-500")
    });
    assert!(!screen.lines().any(|l| l.trim() == "line-1"), "{screen}");
    let history = ok(&tw, &["capture", "--history"]);
    let numbered: Vec<&str> = history.lines().filter(|l| l.starts_with("line-")).collect();
    let expected: Vec<String> = (1..=500).map(|i| format!("line-{i}")).collect();
    assert_eq!(numbered, expected, "every line, once, in order");
    // --ansi keeps colours.
    ok(
        &tw,
        &[
            "send-keys",
            "printf '\\033[31mred-%s\\033[0m\\n' $((2*5))",
            "Enter",
        ],
    );
    let coloured = capture_until(&tw, &["--ansi"], "the red line", |s| s.contains("red-10"));
    assert!(coloured.contains("\x1b[0;31mred-10"), "{coloured:?}");
    let plain = ok(&tw, &["capture"]);
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

#[test]
fn actions_change_what_the_screen_shows() {
    let tw = start("actions");
    ok(&tw, &["action", "new-tab"]);
    prompt(&tw);
    tw.wait_for("the second tab in the status bar", |s| {
        s.contents().contains(" 2:")
    });
    ok(&tw, &["send-keys", "echo in-tab-$((1+1))", "Enter"]);
    tw.wait_for_text("in-tab-2");
    let listed = panes(&tw);
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().any(|p| p.tab == 2 && p.focused), "{listed:?}");
    // An action with its argument apart: back to tab 1, where it is not.
    ok(&tw, &["action", "go-to-tab", "1"]);
    tw.wait_for("tab 1 shown", |s| !s.contents().contains("in-tab-2"));
    // Zoom: the focused pane takes the whole tab.
    ok(&tw, &["run", "--split", "right", "--", "sh"]);
    tw.wait_for("both panes", |s| s.contents().contains("pane 2/2"));
    let narrow = panes(&tw).into_iter().find(|p| p.focused).unwrap();
    ok(&tw, &["action", "toggle-zoom"]);
    common::wait_until("the pane zoomed", || {
        panes(&tw)
            .iter()
            .any(|p| p.focused && p.zoomed && p.cols > narrow.cols + 10)
    });
    // A name that is no action: refused before anything is sent.
    let err = fails(&tw, &["action", "split-sideways"]);
    assert!(
        err.contains("split-sideways") && err.contains("--list"),
        "{err}"
    );
    // One with an argument it does not take: what was typed is quoted.
    let err = fails(&tw, &["action", "resize-left", "5"]);
    assert!(
        err.contains("unknown action `resize-left 5` (read as `resize-left-5`)"),
        "{err}"
    );
    let list = ok(&tw, &["action", "--list"]);
    assert!(
        list.lines().any(|l| l.starts_with("toggle-zoom ")),
        "{list}"
    );
}

#[test]
fn run_float_opens_a_floating_pane_on_top() {
    let tw = start("float");
    let out = ok(
        &tw,
        &[
            "run",
            "--float",
            "--",
            "sh",
            "-c",
            "echo floating-$((3*3)); exec sh",
        ],
    );
    let id: u32 = out.trim().parse().unwrap();
    tw.wait_for_text("floating-9");
    let listed = panes(&tw);
    let pane = listed.iter().find(|p| p.id == id).unwrap();
    assert!(pane.floating && pane.focused, "{pane:?}");
    // Smaller than the screen: it floats over the tiled pane.
    let tiled = listed.iter().find(|p| p.id != id).unwrap();
    assert!(
        pane.cols < tiled.cols && pane.rows < tiled.rows,
        "{listed:?}"
    );
    // Keys go to the focused (floating) pane.
    ok(&tw, &["send-keys", "echo on-top-$((2*2))", "Enter"]);
    capture_until(&tw, &["--pane", &id.to_string()], "the float's echo", |s| {
        s.contains("on-top-4")
    });
}

#[test]
fn send_keys_reaches_a_pane_that_is_not_focused() {
    let tw = start("other");
    let first = panes(&tw)[0].id.to_string();
    let second = ok(&tw, &["run", "--split", "down", "--", "sh"]);
    let second = second.trim();
    tw.wait_for("both panes", |s| s.contents().contains("pane 2/2"));
    ok(
        &tw,
        &[
            "send-keys",
            "--pane",
            &first,
            "echo to-first-$((2+3))",
            "Enter",
        ],
    );
    capture_until(&tw, &["--pane", &first], "the first pane's echo", |s| {
        s.contains("to-first-5")
    });
    tw.wait_for_text("to-first-5");
    let other = ok(&tw, &["capture", "--pane", second]);
    assert!(!other.contains("to-first"), "{other}");
    // The focus stayed where it was.
    let focused = panes(&tw).into_iter().find(|p| p.focused).unwrap();
    assert_eq!(focused.id.to_string(), second);
}

#[test]
fn every_command_works_while_no_terminal_is_attached() {
    let mut tw = start("detached");
    tw.send("\x02d");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.wait_for_text("[detached from workspace detached");
    let id = ok(&tw, &["run", "--tab", "--", "sh"]);
    let id = id.trim();
    ok(
        &tw,
        &["send-keys", "--pane", id, "echo unseen-$((7*6))", "Enter"],
    );
    capture_until(&tw, &["--pane", id], "output while detached", |s| {
        s.contains("unseen-42")
    });
    ok(&tw, &["action", "go-to-tab-1"]);
    let listed = panes(&tw);
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().any(|p| p.tab == 1 && p.focused), "{listed:?}");
    let history = ok(&tw, &["capture", "--history", "--pane", id]);
    assert!(history.contains("unseen-42"), "{history}");
}

#[test]
fn mistakes_are_errors_that_say_what_is_wrong() {
    let tw = start("errors");
    let err = fails(&tw, &["capture", "--pane", "99"]);
    assert!(err.contains("no pane 99"), "{err}");
    let err = fails(&tw, &["send-keys", "--pane", "99", "x"]);
    assert!(err.contains("no pane 99"), "{err}");
    let err = fails(&tw, &["list-panes", "--session", "nope"]);
    assert!(err.contains("no workspace named nope"), "{err}");
    let err = fails(&tw, &["run", "--cwd", "/no/such/dir", "--", "sh"]);
    assert!(err.contains("/no/such/dir"), "{err}");
    let err = fails(&tw, &["run", "--", "/no/such/program"]);
    assert!(err.contains("/no/such/program"), "{err}");
    assert_eq!(
        panes(&tw).len(),
        1,
        "a pane that could not start is not left"
    );
    // No workspace at all in another runtime directory.
    let empty = common::TempDir::new("no-workspaces");
    let out = Command::new(common::binary())
        .args(["capture"])
        .env("XDG_RUNTIME_DIR", empty.path())
        .env_remove("TILEWORK")
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no workspace is running"), "{err}");
}

#[test]
fn a_script_in_a_pane_drives_its_own_workspace() {
    let one = start("one");
    let runtime = one.runtime_dir();
    let two = Tilework::start_with(
        &["--session", "two"],
        ROWS,
        COLS,
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
    );
    prompt(&two);
    // From outside, two workspaces: which one must be said.
    let err = fails(&one, &["list-panes"]);
    assert!(
        err.contains("one, two") && err.contains("--session"),
        "{err}"
    );
    // From inside two's pane ($TILEWORK), no need to say.
    let mut two = two;
    two.type_line(&format!("{} action new-tab", common::binary()));
    common::wait_until("a second tab in two", || {
        ok(&one, &["list-panes", "--json", "--session", "two"]).contains("\"tab\": 2")
    });
    let ones: Vec<PaneInfo> =
        serde_json::from_str(&ok(&one, &["list-panes", "--json", "--session", "one"])).unwrap();
    assert_eq!(ones.len(), 1, "{ones:?}");
}

#[test]
fn a_client_that_never_reads_does_not_stall_the_workspace() {
    let mut tw = start("stall");
    // A history far bigger than a socket's buffer.
    ok(
        &tw,
        &["send-keys", "seq 1 300000; echo done-$((4*4))", "Enter"],
    );
    // However long it takes on a loaded machine, as long as `seq` writes.
    let pid = tw.workspace_pid();
    common::progress::wait_until_while_progressing(
        "the flood's end",
        common::progress::STALL,
        || common::progress::written_by_descendants(pid),
        || ok(&tw, &["capture"]).contains("done-16"),
    );
    let socket = tw.runtime_dir().join("tilework").join("stall");
    let mut stalled = Vec::new();
    for _ in 0..3 {
        let stream = UnixStream::connect(&socket).unwrap();
        script::write_call(
            &stream,
            &Call::Capture {
                pane: None,
                history: true,
                ansi: false,
            },
        )
        .unwrap();
        // Sent, never read.
        stalled.push(stream);
    }
    // Meanwhile the workspace draws and answers others.
    tw.type_line("echo still-drawing-$((5+5))");
    tw.wait_for_text("still-drawing-10");
    ok(
        &tw,
        &["send-keys", "echo still-answering-$((6+6))", "Enter"],
    );
    tw.wait_for_text("still-answering-12");
    let listed = panes(&tw);
    assert_eq!(listed.len(), 1);
    // A client that reads, late, gets the whole history.
    let mut late = stalled.pop().unwrap();
    late.flush().unwrap();
    match script::read_answer(&late).unwrap() {
        script::Answer::Ok(text) => {
            let text = String::from_utf8(text).unwrap();
            assert!(text.lines().any(|l| l == "300000"), "the history's end");
        }
        script::Answer::Error(err) => panic!("{err}"),
    }
}

#[test]
fn a_saved_profile_keeps_a_floating_panes_box() {
    let mut first = Tilework::start(
        &["--session", "saver", "--save-profile", "kept"],
        ROWS,
        COLS,
    );
    prompt(&first);
    let id = ok(&first, &["run", "--float", "--", "sh"]);
    let id: u32 = id.trim().parse().unwrap();
    for action in [
        "resize-left",
        "resize-left",
        "move-floating-left",
        "move-floating-up",
    ] {
        ok(&first, &["action", action]);
    }
    let float = panes(&first).into_iter().find(|p| p.id == id).unwrap();
    assert!(float.floating);
    ok(&first, &["action", "quit"]);
    assert_eq!(first.wait_exit().exit_code(), 0);
    let config = first.dir.path().join("config");
    let saved = std::fs::read_to_string(config.join("tilework/profiles/kept.toml")).unwrap();
    assert!(saved.contains("width = "), "{saved}");

    let second = Tilework::start_with(
        &["--session", "reopened", "--profile", "kept"],
        ROWS,
        COLS,
        &[("XDG_CONFIG_HOME", config.to_str().unwrap())],
    );
    prompt(&second);
    let listed = panes(&second);
    let again = listed.iter().find(|p| p.floating).unwrap();
    assert_eq!(
        (again.cols, again.rows),
        (float.cols, float.rows),
        "{listed:?}"
    );
    assert!(again.focused, "it had the focus: it is shown with it");
}

/// Output that streams, then pauses, by turns: read by the pane's reader
/// thread while it streams and by the loop itself once it is quiet (issue
/// 14, `pane::program::reader_gate`). Every line arrives once, in order.
#[test]
fn output_read_by_turns_by_the_thread_and_the_loop_stays_whole_and_in_order() {
    let tw = start("by-turns");
    // Pauses well past the handover (5 ms); each burst is several reads.
    let line = "i=0; while [ $i -lt 12 ]; do seq $((i*400+1)) $((i*400+400)) | sed s/^/n-/; \
                sleep 0.03; echo q-$i; sleep 0.03; i=$((i+1)); done; echo all-done";
    ok(&tw, &["send-keys", "-l", line]);
    ok(&tw, &["send-keys", "Enter"]);
    capture_until(&tw, &[], "the end of the output", |s| {
        s.lines().any(|l| l.trim() == "all-done")
    });
    let history = ok(&tw, &["capture", "--history"]);
    let got: Vec<&str> = history
        .lines()
        .map(str::trim_end)
        .filter(|l| l.starts_with("n-") || l.starts_with("q-"))
        .collect();
    let mut expected = Vec::new();
    for i in 0..12 {
        expected.extend((i * 400 + 1..=i * 400 + 400).map(|n| format!("n-{n}")));
        expected.push(format!("q-{i}"));
    }
    assert_eq!(got, expected, "every line, once, in order");
}

#[test]
fn list_panes_json_acts_on_no_terminal_yet_says_the_same() {
    let tw = start("hostile");
    // A directory anyone could make: a bidi override, C1 NEL and CSI, DEL.
    let name = "evil\u{202e}txt.exe\u{85}\u{9b}2J\u{7f}";
    let hostile = tw.dir.path().join(name);
    std::fs::create_dir(&hostile).unwrap();
    let dir = hostile.to_str().unwrap();
    ok(&tw, &["run", "--cwd", dir, "--split", "right", "--", "sh"]);
    let out = ok(&tw, &["list-panes", "--json"]);
    let acted_on: Vec<char> = out
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || tilework::sanitize::is_bidi_control(c))
        .collect();
    assert!(acted_on.is_empty(), "{acted_on:?} in {out}");
    // Escaped, not changed: a program reading the JSON gets the name.
    let panes: Vec<PaneInfo> = serde_json::from_str(&out).unwrap();
    assert!(
        panes.iter().any(|p| p.cwd.as_deref() == Some(dir)),
        "{panes:?}"
    );
}

#[test]
fn no_way_of_opening_a_pane_goes_past_max_panes() {
    let config = common::TempDir::new("max-panes");
    let path = config.path().join("config.toml");
    std::fs::write(&path, "max_panes = 3\n").unwrap();
    let mut tw = Tilework::start(
        &["--session", "capped", "--config", path.to_str().unwrap()],
        ROWS,
        COLS,
    );
    prompt(&tw);
    ok(&tw, &["run", "--split", "right", "--", "sh"]);
    ok(&tw, &["run", "--tab", "--", "sh"]);
    // The fourth: refused by every way, with the reason.
    for args in [
        &["run", "--split", "down", "--", "sh"][..],
        &["run", "--float", "--", "sh"],
        &["run", "--tab", "--", "sh"],
        &["action", "new-tab"],
        &["action", "split-right"],
    ] {
        let err = fails(&tw, args);
        assert!(err.contains("max_panes"), "{args:?}: {err}");
    }
    // By a key: the status bar says so.
    tw.send("\x02%");
    tw.wait_for_text("close one first");
    assert_eq!(panes(&tw).len(), 3);
    // At start: refused before the terminal is touched.
    let config_arg = path.to_str().unwrap();
    let mut args = vec!["--config", config_arg];
    args.extend(["-c", "true"].repeat(4));
    let err = fails(&tw, &args);
    assert!(err.contains("4 panes; max_panes allows 3"), "{err}");
    // The limit and its default are in the printed config.
    let (out, _, _) = cli(&tw, &["--print-config"]);
    assert!(out.contains("\n# max_panes = 100\n"), "{out}");
}

#[test]
fn capture_history_of_wide_rows_streams_in_bounded_memory() {
    // Each line: the cursor to the last column, one character, the next
    // line. Ten bytes of output, a row of 398 cells of text.
    const LINES: usize = 30_000;
    let mut tw = Tilework::start(&["--session", "wide"], ROWS, 400);
    prompt(&tw);
    let flood = tw.dir.path().join("flood");
    std::fs::write(&flood, b"\x1b[999CX\r\n".repeat(LINES)).unwrap();
    let workspace = tw.workspace_pid();
    tw.type_line(&format!("cat {}; echo flood-$((2*5))", flood.display()));
    capture_until(&tw, &[], "the flood's end", |s| s.contains("flood-10"));
    let cols = usize::from(panes(&tw)[0].cols);
    let peak_before = common::proc_status_kib(workspace, "VmHWM").unwrap();

    let out = Command::new(common::binary())
        .args(["capture", "--history"])
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let peak_after = common::proc_status_kib(workspace, "VmHWM").unwrap();

    // Every line, whole: the text is that big.
    let line = format!("{}X", " ".repeat(cols - 1));
    let text = String::from_utf8(out.stdout).unwrap();
    let wide = text.lines().filter(|l| *l == line).count();
    assert_eq!(wide, LINES, "{} bytes", text.len());
    // The workspace never held it, nor rows of 398 cells by the thousand:
    // its peak grew by one window of parser rows (~20 MiB, as an 80-column
    // pane's) and a piece. Built whole, the text (12 MB) and a window of
    // 8,000 such rows (100 MB) came on top.
    let grown = usize::try_from(peak_after - peak_before).unwrap() * 1024;
    assert!(
        grown < 40 << 20,
        "the workspace grew {grown} bytes for {} bytes of text",
        text.len()
    );
}

/// `tilework action` takes an answer as `C-b :` does (issue 44):
/// `rename-tab x`, `select-tab 1`, each argument one word.
#[test]
fn action_takes_arguments_as_the_command_prompt_does() {
    let mut tw = start("answers");
    tw.type_line("echo in-tab-one-$((2+3))");
    tw.wait_for_text("in-tab-one-5");
    ok(&tw, &["action", "rename-tab", "x"]);
    tw.wait_for("the tab renamed", |s| {
        s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
            .contains("1:x ")
    });
    ok(&tw, &["action", "rename-tab", "two words"]);
    tw.wait_for("the tab renamed to two words", |s| {
        s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
            .contains("1:two words ")
    });
    ok(&tw, &["action", "new-tab"]);
    tw.wait_for("the second tab", |s| !s.contents().contains("in-tab-one-5"));
    ok(&tw, &["action", "select-tab", "1"]);
    tw.wait_for_text("in-tab-one-5");
}
