//! Several terminals on one workspace (issue 31): `tilework attach` joins
//! the terminals attached already. Each test runs the real binary in real
//! PTYs of different sizes, in a runtime directory of its own.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::Command;

use common::Tilework;

/// A runtime directory shared by the test's terminals; its workspaces are
/// ended when the test is (declare it first: it is dropped last).
struct Runtime(common::TempDir);

impl Runtime {
    fn new() -> Self {
        Self(common::TempDir::new("clients"))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// A `rows` x `cols` terminal running `tilework ARGS` here.
    fn start(&self, args: &[&str], rows: u16, cols: u16, env: &[(&str, &str)]) -> Tilework {
        let runtime = self.path().to_str().unwrap();
        // Saved workspaces are the test's own, never the user's (a test
        // may name another place in `env`).
        let state = self.path().join("state");
        let state = state.to_str().unwrap();
        let mut all = vec![("XDG_RUNTIME_DIR", runtime), ("XDG_STATE_HOME", state)];
        all.extend_from_slice(env);
        Tilework::start_with(args, rows, cols, &all)
    }

    /// `tilework ARGS` as a plain command: its stdout.
    fn run(&self, args: &[&str]) -> String {
        self.run_with(args, &[])
    }

    /// [`Runtime::run`] with more environment.
    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = Command::new(common::binary())
            .args(args)
            .env("XDG_RUNTIME_DIR", self.path())
            .env("XDG_STATE_HOME", self.path().join("state"))
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn kill(&self, name: &str) {
        self.run(&["kill", name]);
    }
}

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

/// The last row of a terminal of `rows` rows and `cols` columns.
fn bottom_row(tw: &Tilework, rows: u16, cols: u16) -> String {
    tw.row_text(rows - 1, 0, cols)
}

#[test]
fn two_terminals_of_different_sizes_both_show_it_and_both_type() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "both"], 24, 80, &[]);
    prompt(&a);
    let mut b = rt.start(&["attach", "both"], 30, 100, &[]);
    prompt(&b);
    // A is still attached: `ls` counts two terminals.
    let ls = rt.run(&["ls"]);
    let row = ls.lines().find(|l| l.starts_with("both ")).unwrap();
    assert_eq!(row.split_whitespace().nth(3), Some("2"), "{ls}");

    b.type_line("echo from-b-$((2*21))");
    b.wait_for_text("from-b-42");
    a.wait_for_text("from-b-42");
    // B typed last: the layout is B's size; A, smaller, shows its top left
    // with the cut marker at the end of its own bar, on its last row.
    a.wait_for("the cut marker on A's bar", |s| {
        s.contents_between(23, 79, 23, 80).contains('…')
    });
    b.wait_for("B's bar on its last row", |s| {
        !s.contents_between(29, 0, 29, 100).trim().is_empty()
    });

    a.type_line("echo from-a-$((3*7))");
    a.wait_for_text("from-a-21");
    b.wait_for_text("from-a-21");
    // Now A's size: the marker is gone, B shows the layout at A's size
    // with its bar still on its own last row.
    a.wait_for("A uncut", |s| {
        !s.contents_between(23, 79, 23, 80).contains('…')
    });
    b.wait_for("B's bar on its last row", |s| {
        !s.contents_between(29, 0, 29, 100).trim().is_empty()
    });
    assert!(!bottom_row(&a, 24, 80).trim().is_empty());
    rt.kill("both");
    assert_eq!(a.wait_exit().exit_code(), 0);
    assert_eq!(b.wait_exit().exit_code(), 0);
    a.assert_terminal_restored();
    b.assert_terminal_restored();
}

/// The paste buffers are the workspace's, as tmux's are: what one
/// terminal copied, another pastes with `C-b ]`.
#[test]
fn a_copy_in_one_terminal_is_pasted_from_another() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "copies"], 24, 80, &[]);
    prompt(&a);
    let mut b = rt.start(&["attach", "copies"], 24, 80, &[]);
    prompt(&b);
    a.type_line("echo shared$((6*7))copy");
    a.wait_for("the echo and a new prompt", |s| {
        let rows: Vec<String> = s
            .contents()
            .lines()
            .map(|l| l.trim_matches(['│', '┃', ' ']).to_string())
            .collect();
        rows.iter()
            .position(|r| r == "shared42copy")
            .is_some_and(|at| rows.get(at + 1).is_some_and(|r| r.starts_with('$')))
    });
    a.send("\x02[");
    a.wait_for("copy mode", |s| s.contents().contains("COPY"));
    a.send("k0v$y");
    a.wait_for("the copy's notice", |s| {
        s.contents().contains("copied 12 characters")
    });
    b.send("\x02]");
    b.wait_for("the copy pasted at the prompt", |s| {
        s.contents().contains("$ shared42copy")
    });
    assert!(
        rt.run(&["buffers", "--session", "copies"])
            .contains("shared42copy")
    );
    rt.kill("copies");
    a.wait_exit();
    b.wait_exit();
}

#[test]
fn a_read_only_terminal_looks_and_detaches_but_types_nothing() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "look"], 24, 80, &[]);
    prompt(&a);
    a.type_line("echo before-$((5*5))");
    a.wait_for_text("before-25");
    let mut r = rt.start(&["attach", "-r", "look"], 24, 80, &[]);
    r.wait_for_text("before-25");
    r.type_line("echo never-typed");
    r.wait_for_text("read-only");
    // A new tab from the read-only terminal is refused too.
    r.send("\x02c");
    a.type_line("echo after-$((6*6))");
    a.wait_for_text("after-36");
    r.wait_for_text("after-36");
    assert!(
        !a.screen_text().contains("never-typed"),
        "{}",
        a.screen_text()
    );
    assert!(
        !r.screen_text().contains("never-typed"),
        "{}",
        r.screen_text()
    );
    assert!(
        !a.screen_text().contains(" 2:"),
        "a tab was opened: {}",
        a.screen_text()
    );
    // Its detach key works, and A stays.
    r.send("\x02d");
    assert_eq!(r.wait_exit().exit_code(), 0);
    r.assert_terminal_restored();
    a.type_line("echo still-$((4*4))");
    a.wait_for_text("still-16");
    rt.kill("look");
    a.wait_exit();
}

#[test]
fn a_terminal_killed_with_sigkill_leaves_the_other_typing() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "kept"], 24, 80, &[]);
    prompt(&a);
    let b = rt.start(&["attach", "kept"], 24, 80, &[]);
    prompt(&b);
    b.signal(nix::sys::signal::Signal::SIGKILL);
    common::wait_until("ls to count one terminal", || {
        let ls = rt.run(&["ls"]);
        ls.lines()
            .any(|l| l.starts_with("kept ") && l.split_whitespace().nth(3) == Some("1"))
    });
    a.type_line("echo alone-$((8*8))");
    a.wait_for_text("alone-64");
    rt.kill("kept");
    a.wait_exit();
}

#[test]
fn the_switch_that_keeps_a_client_waiting_in_place_stays_out_of_the_panes() {
    // scripts/flood-instructions.py sets it for the client it measures; a
    // program in a pane (a `tilework` run there among them) must not see it.
    let rt = Runtime::new();
    let mut tw = rt.start(
        &["--session", "in-place"],
        24,
        80,
        &[("TILEWORK_WAIT_IN_PLACE", "1")],
    );
    prompt(&tw);
    tw.type_line("echo first-pane:${TILEWORK_WAIT_IN_PLACE-unset}");
    tw.wait_for_text("first-pane:unset");
    // A pane opened later starts from the same environment.
    tw.send("\x02%");
    tw.wait_for("a second pane", |s| s.contents().contains("pane 2/2"));
    prompt(&tw);
    tw.type_line("echo second-pane:${TILEWORK_WAIT_IN_PLACE-unset}");
    tw.wait_for_text("second-pane:unset");
    rt.kill("in-place");
    tw.wait_exit();
}

#[test]
fn panes_opened_after_an_attach_get_its_environment() {
    let rt = Runtime::new();
    // Variables no test machine sets, named by the config as tmux's
    // update-environment would name SSH_AUTH_SOCK and DISPLAY.
    let config = rt.path().join("config.toml");
    std::fs::write(
        &config,
        "update_environment = [\"TW_AGENT\", \"TW_DISPLAY\"]\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let mut a = rt.start(
        &["--config", config, "--session", "env"],
        24,
        100,
        &[("TW_AGENT", "/first/agent"), ("TW_DISPLAY", ":1")],
    );
    prompt(&a);
    a.type_line("echo first:$TW_AGENT:${TW_DISPLAY-unset}");
    a.wait_for_text("first:/first/agent::1");
    // B's shell has a new agent socket and no display.
    let mut b = rt.start(
        &["--config", config, "attach", "env"],
        24,
        100,
        &[("TW_AGENT", "/second/agent")],
    );
    prompt(&b);
    // The pane running since keeps its values, as in tmux.
    b.type_line("echo old-pane:$TW_AGENT");
    b.wait_for_text("old-pane:/first/agent");
    // A new pane, opened after B attached.
    b.send("\x02%");
    b.wait_for("a second pane", |s| s.contents().matches("$ ").count() >= 4);
    b.type_line("echo new-pane:$TW_AGENT:${TW_DISPLAY-unset}");
    b.wait_for_text("new-pane:/second/agent:unset");
    rt.kill("env");
    a.wait_exit();
    b.wait_exit();
}

#[test]
fn c_b_s_shows_another_workspace_on_this_terminal_and_c_b_paren_comes_back() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "one"], 24, 80, &[]);
    prompt(&a);
    let mut b = rt.start(&["--session", "two"], 24, 80, &[]);
    prompt(&b);
    b.type_line("echo in-two-$((9*9))");
    b.wait_for_text("in-two-81");
    // The chooser lists both, with their tabs and panes.
    a.send("\x02s");
    a.wait_for_text("workspaces");
    a.wait_for("both workspaces listed", |s| {
        let text = s.contents();
        text.contains("one *") && text.contains("two  (1 tabs, 1 panes, 1 terminal)")
    });
    // one, its tab, its pane, then two.
    a.send("\x1b[B\x1b[B\x1b[B\r");
    a.wait_for_text("in-two-81");
    a.type_line("echo typed-from-a-$((7*7))");
    a.wait_for_text("typed-from-a-49");
    b.wait_for_text("typed-from-a-49");
    common::wait_until("ls to show one detached and two with two terminals", || {
        let ls = rt.run(&["ls"]);
        ls.lines()
            .any(|l| l.starts_with("one ") && l.contains("detached"))
            && ls
                .lines()
                .any(|l| l.starts_with("two ") && l.split_whitespace().nth(3) == Some("2"))
    });
    // C-b ( goes to the previous workspace by name, round: one.
    a.send("\x02(");
    a.wait_for("workspace one again", |s| {
        !s.contents().contains("in-two-81")
    });
    a.type_line("echo back-in-one-$((3*3))");
    a.wait_for_text("back-in-one-9");
    assert!(
        !b.screen_text().contains("back-in-one"),
        "{}",
        b.screen_text()
    );
    rt.kill("one");
    rt.kill("two");
    assert_eq!(a.wait_exit().exit_code(), 0);
    a.assert_terminal_restored();
    b.wait_exit();
}

#[test]
fn a_workspace_left_with_c_b_s_is_waited_for_when_it_ends() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "one"], 24, 80, &[]);
    prompt(&a);
    let launcher = a.pid().unwrap();
    let started = a.workspace_pid();
    let b = rt.start(&["--session", "two"], 24, 80, &[]);
    prompt(&b);
    // C-b ) goes to the next workspace by name: two.
    a.send("\x02)");
    common::wait_until("one to be detached", || {
        rt.run(&["ls"])
            .lines()
            .any(|l| l.starts_with("one ") && l.contains("detached"))
    });
    rt.kill("one");
    // The workspace the launcher started is gone, not a zombie it keeps
    // while it shows another workspace.
    common::wait_until("the workspace left to be waited for", || {
        !common::unwaited_children(launcher).contains(&started)
    });
    rt.kill("two");
    assert_eq!(a.wait_exit().exit_code(), 0);
}

#[test]
fn c_b_dollar_renames_the_workspace_for_ls_and_attach() {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", "before"], 24, 80, &[]);
    prompt(&a);
    // The prompt offers the current name; C-u clears it.
    a.send("\x02$");
    a.wait_for_text("before");
    a.send("\x15after\r");
    a.wait_for_text("workspace renamed to after");
    let ls = rt.run(&["ls"]);
    assert!(ls.lines().any(|l| l.starts_with("after ")), "{ls}");
    assert!(!ls.lines().any(|l| l.starts_with("before ")), "{ls}");
    // Another terminal finds it by its new name.
    let mut b = rt.start(&["attach", "after"], 24, 80, &[]);
    prompt(&b);
    b.type_line("echo renamed-$((5*8))");
    a.wait_for_text("renamed-40");
    rt.kill("after");
    assert_eq!(a.wait_exit().exit_code(), 0);
    b.wait_exit();
    // Its socket went with it: nothing is left under either name.
    let ls = rt.run(&["ls"]);
    assert!(!ls.contains("after") && !ls.contains("before"), "{ls}");
}

#[test]
fn c_b_s_lists_a_saved_workspace_and_brings_it_back_on_this_terminal() {
    let rt = Runtime::new();
    let state = rt.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    let state = state.to_str().unwrap().to_owned();
    let env = [("XDG_STATE_HOME", state.as_str())];
    // A workspace that prints a line and then dies hard (a crash).
    let mut gone = rt.start(&["--session", "gone"], 24, 80, &env);
    prompt(&gone);
    gone.type_line("echo before-the-crash-$((4*11))");
    gone.wait_for_text("before-the-crash-44");
    let pid = gone.workspace_pid();
    // The tail and the layout are written 0.2 s after the output stops:
    // wait for both files.
    let saved = Path::new(&state).join("tilework/saved/gone");
    common::wait_until("the pane's tail and the layout on disk", || {
        saved.join("manifest.json").exists()
            && walk(&saved)
                .iter()
                .any(|f| std::fs::read(f).is_ok_and(|b| contains(&b, b"before-the-crash-44")))
    });
    let pid = nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL).unwrap();
    common::wait_until("gone listed as saved", || {
        rt.run_with(&["ls"], &env)
            .lines()
            .any(|l| l.starts_with("gone ") && l.contains("saved"))
    });
    gone.wait_exit();

    let mut here = rt.start(&["--session", "here"], 24, 80, &env);
    prompt(&here);
    here.send("\x02s");
    here.wait_for_text("gone  (saved, 1 panes");
    // here, its tab, its pane, then gone.
    here.send("\x1b[B\x1b[B\x1b[B\r");
    here.wait_for_text("restored from");
    here.wait_for_text("before-the-crash-44");
    common::wait_until("gone running again", || {
        rt.run_with(&["ls"], &env)
            .lines()
            .any(|l| l.starts_with("gone ") && l.contains("attached"))
    });
    rt.run_with(&["kill", "gone"], &env);
    rt.run_with(&["kill", "here"], &env);
    here.wait_exit();
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files.extend(walk(&path));
            } else {
                files.push(path);
            }
        }
    }
    files
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Runs in A's pane a program that prints (with `cat -v`) every byte it
/// reads, after writing `modes` (mouse reports, the alternate screen,
/// focus events). A read-only terminal R then sends `r_sends` (its wheel
/// over the pane, its focus going) five times, and presses a
/// key (its notice shows once R's earlier input was handled); A sends
/// `a_sends` once, which does arrive as `a_shows`, `times` times: what
/// the program read is that alone (issue 40).
fn read_only_input_reaches_nothing(
    name: &str,
    modes: &str,
    r_sends: &str,
    (a_sends, a_shows, times): (&str, &str, usize),
) {
    let rt = Runtime::new();
    let mut a = rt.start(&["--session", name], 24, 80, &[]);
    prompt(&a);
    let mut r = rt.start(&["attach", "-r", name], 24, 80, &[]);
    prompt(&r);
    a.type_line(&format!(
        "printf '{modes}'; stty raw -echo; echo reading-$((3*4)); cat -v"
    ));
    a.wait_for_text("reading-12");
    r.wait_for_text("reading-12");
    for _ in 0..5 {
        r.send(r_sends);
    }
    r.send("x");
    r.wait_for_text("it does not type");
    a.send(a_sends);
    a.wait_for_text(a_shows);
    let read = a.screen_text();
    assert_eq!(read.matches("^[").count(), times, "{read}");
    rt.kill(name);
}

/// The wheel up and down over the pane, as SGR mouse reports.
const WHEEL: &str = "\x1b[<64;10;5M\x1b[<65;10;5M";

#[test]
fn a_read_only_terminals_wheel_reaches_no_program_that_asked_for_the_mouse() {
    read_only_input_reaches_nothing(
        "wheel-mouse",
        "\\033[?1000h\\033[?1006h",
        WHEEL,
        ("\x1b[<64;10;5M", "^[[<64;", 1),
    );
}

#[test]
fn a_read_only_terminals_wheel_sends_no_arrows_to_a_full_screen_program() {
    read_only_input_reaches_nothing(
        "wheel-arrows",
        "\\033[?1049h",
        WHEEL,
        ("\x1b[<64;10;5M", "^[[A", 3),
    );
}

#[test]
fn a_read_only_terminals_focus_sends_no_focus_events() {
    read_only_input_reaches_nothing(
        "focus",
        "\\033[?1004h",
        // Lost, and not back: coming back in the same turn would
        // report nothing even from a terminal that types.
        "\x1b[O",
        ("\x1b[O", "^[[O", 1),
    );
}

/// The size a pane's programs see (`stty size`), printed under mark `n`.
fn pane_size(tw: &mut Tilework, n: u32) -> String {
    // The marks are computed, so the typed line does not hold them.
    tw.type_line(&format!(
        "echo size$(({n}*7))=$(stty size)=; echo done-$(({n}*11))"
    ));
    tw.wait_for_text(&format!("done-{}", n * 11));
    let text = tw.screen_text();
    let mark = format!("size{}=", n * 7);
    let start = text.find(&mark).unwrap() + mark.len();
    text[start..].split('=').next().unwrap().to_string()
}

/// With `window_size = "smallest"`, a tiny read-only terminal does not
/// shrink the panes: it has no say in sizes (tmux's `ignore-size`), while
/// the same tiny terminal attached to type does (issue 40).
#[test]
fn a_tiny_read_only_terminal_does_not_shrink_the_panes() {
    let rt = Runtime::new();
    let config = rt.path().join("config.toml");
    std::fs::write(&config, "window_size = \"smallest\"\n").unwrap();
    let config = config.to_str().unwrap();
    let mut a = rt.start(&["--config", config, "--session", "tiny"], 24, 80, &[]);
    prompt(&a);
    let before = pane_size(&mut a, 1);
    let mut r = rt.start(&["attach", "-r", "tiny"], 8, 30, &[]);
    r.wait_for_text("done-11");
    // R is drawn on: the workspace took it in (and fitted the layout).
    assert_eq!(
        pane_size(&mut a, 2),
        before,
        "a read-only terminal resized the pane"
    );
    r.send("\x02d");
    assert_eq!(r.wait_exit().exit_code(), 0);
    // The same size attached to type: the pane shrinks (the test sees it).
    let mut b = rt.start(&["attach", "tiny"], 8, 30, &[]);
    prompt(&b);
    let shrunk = pane_size(&mut a, 3);
    assert_ne!(
        shrunk, before,
        "a typing terminal of 8x30 left the pane as it was"
    );
    b.send("\x02d");
    assert_eq!(b.wait_exit().exit_code(), 0);
    rt.kill("tiny");
}
