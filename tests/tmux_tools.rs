//! The tools built for tmux, driving tilework (issue 42): each flow runs
//! as the tool runs it, inside a pane, with the `tmux` it finds on `PATH`
//! there (tilework's, by `$TMUX`), and is checked through tilework's own
//! `list-panes --json` and `capture`.

#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

use common::Tilework;
use tilework::session::script::PaneInfo;

const ROWS: u16 = 40;
const COLS: u16 = 160;

/// A workspace named `name`, its shell at its prompt.
fn start(name: &str) -> Tilework {
    let tw = Tilework::start(&["--session", name], ROWS, COLS);
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    tw
}

/// `tilework ARGS` from outside; must succeed; its stdout.
fn ok(tw: &Tilework, args: &[&str]) -> String {
    let out = Command::new(common::binary())
        .args(args)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .env_remove("TMUX")
        .current_dir(tw.dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tilework {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn panes(tw: &Tilework) -> Vec<PaneInfo> {
    serde_json::from_str(&ok(tw, &["list-panes", "--json"])).unwrap()
}

/// Writes `script` to a file and runs it in the focused pane's shell,
/// its output to `NAME.out`; waits until it wrote `NAME.done`, and
/// returns its output (stdout and stderr).
fn run_in_pane(tw: &mut Tilework, name: &str, script: &str) -> String {
    let dir = tw.dir.path().to_path_buf();
    std::fs::write(dir.join(format!("{name}.sh")), script).unwrap();
    tw.type_line(&format!(
        "sh {name}.sh > {name}.out 2>&1; echo $? > {name}.done"
    ));
    let done = dir.join(format!("{name}.done"));
    common::wait_until("the script to finish", || done.exists());
    common::wait_until("its status", || {
        std::fs::read_to_string(&done).is_ok_and(|s| s.ends_with('\n'))
    });
    let out = std::fs::read_to_string(dir.join(format!("{name}.out"))).unwrap();
    let status = std::fs::read_to_string(&done).unwrap();
    assert_eq!(status.trim(), "0", "{name}.sh failed:\n{out}");
    out
}

/// The agent-teams flow (Claude Code's, and the MCP servers'): three
/// panes split off with `cat`, each respawned with a command, typed into,
/// read back by `%N`, titled, listed, and killed.
#[test]
fn an_agent_teams_script_creates_three_panes_reads_each_back_and_kills_them() {
    let mut tw = start("agents");
    let out = run_in_pane(
        &mut tw,
        "agents",
        r#"set -e
tmux -V
tmux has-session
test -n "$TMUX" && test -n "$TMUX_PANE"
me=$(tmux display-message -p '#{pane_id}')
test "$me" = "$TMUX_PANE"
echo "leader $me in $(tmux display-message -p '#{session_name}')"
ids=""
for i in 1 2 3; do
    id=$(tmux split-window -h -d -t "$me" -P -F '#{pane_id}' -- cat)
    tmux respawn-pane -k -t "$id" "echo worker-$i-\$((6*7)); exec cat"
    tmux select-pane -T "worker-$i" -t "$id"
    ids="$ids $id"
done
for id in $ids; do
    until tmux capture-pane -p -t "$id" | grep -q 'worker-.-42'; do sleep 0.02; done
    tmux send-keys -t "$id" "typed into $id" Enter
    until tmux capture-pane -p -t "$id" | grep -q "typed into $id"; do sleep 0.02; done
    echo "read $id: $(tmux capture-pane -p -t "$id" | grep -m1 'worker-')"
done
tmux list-panes -F '#{pane_id} #{pane_title} #{pane_current_command}'
for id in $ids; do tmux kill-pane -t "$id"; done
echo "after: $(tmux list-panes -F '#{pane_id}' | tr '\n' ' ')"
tmux kill-pane -t %999 2>&1 || echo "exit $?"
"#,
    );
    assert!(out.starts_with("tmux 3.3a\n"), "{out}");
    assert!(out.contains("leader %1 in agents"), "{out}");
    let mut ids = Vec::new();
    for i in 1..=3 {
        // Each pane's own output, read back by its id.
        let id = out
            .lines()
            .find_map(|l| {
                l.strip_prefix("read ")?
                    .strip_suffix(&format!(": worker-{i}-42"))
            })
            .unwrap_or_else(|| panic!("worker {i} not read back: {out}"));
        assert!(
            out.lines().any(|l| l == format!("{id} worker-{i} cat")),
            "{out}"
        );
        ids.push(id.to_string());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "{out}");
    assert!(out.contains("after: %1 \n"), "{out}");
    assert!(out.contains("can't find pane: %999\nexit 1"), "{out}");
    // tilework's own view: the three are gone, the leader kept the focus.
    let left = panes(&tw);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].focused && left[0].id == 1);
}

/// vim-slime's tmux target: the text goes to a named buffer with
/// `load-buffer`, then into another pane with `paste-buffer -d`, which
/// deletes the buffer.
#[test]
fn vim_slime_loads_a_buffer_and_pastes_it_into_another_pane() {
    let mut tw = start("slime");
    let dir = tw.dir.path().to_path_buf();
    std::fs::write(dir.join("region.txt"), "print-one\nprint-two\n").unwrap();
    let out = run_in_pane(
        &mut tw,
        "slime",
        r#"set -e
repl=$(tmux split-window -v -d -P -F '#{pane_id}' -- cat)
tmux load-buffer -b slime region.txt
tmux list-buffers -F '#{buffer_name} #{buffer_size}'
tmux paste-buffer -d -b slime -t "$repl"
until [ "$(tmux capture-pane -p -t "$repl" | grep -c '^print-')" = 4 ]; do sleep 0.02; done
echo "buffers after: $(tmux list-buffers | wc -l)"
echo "repl $repl"
"#,
    );
    assert!(out.contains("slime 20\n"), "{out}");
    assert!(out.contains("buffers after: 0"), "{out}");
    let repl: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("repl %"))
        .unwrap()
        .parse()
        .unwrap();
    // What tilework itself shows of the other pane: cat echoed each line
    // as typed and printed it back.
    let screen = ok(&tw, &["capture", "--pane", &repl.to_string()]);
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    assert_eq!(
        lines.iter().filter(|l| **l == "print-one").count(),
        2,
        "{screen}"
    );
    assert_eq!(
        lines.iter().filter(|l| **l == "print-two").count(),
        2,
        "{screen}"
    );
}

/// tmuxp (PyPI), unmodified: `tmuxp load -d` of a three-window file with
/// `start_directory` and `shell_command`s builds its session as a new,
/// detached workspace: the windows are tabs with their names, each pane
/// in its directory, each command run there.
#[test]
fn tmuxp_load_builds_three_windows_with_their_directories_and_commands() {
    if !common::require_program("tmuxp") {
        return;
    }
    let tw = start("host");
    let base = tw.dir.path().to_path_buf();
    for dir in ["a", "b", "c"] {
        std::fs::create_dir_all(base.join(dir)).unwrap();
    }
    let yaml = format!(
        "session_name: proj
windows:
  - window_name: editor
    start_directory: {base}/a
    panes:
      - shell_command: echo in-editor-$((1+1))
  - window_name: server
    start_directory: {base}/b
    layout: even-horizontal
    panes:
      - shell_command: echo srv-$((2+1))
      - shell_command:
          - echo srv-$((3+1))
  - window_name: logs
    start_directory: {base}/c
    panes:
      - echo logs-$((4+1))
",
        base = base.display()
    );
    std::fs::write(base.join("proj.yaml"), yaml).unwrap();
    // tmuxp finds `tmux` on PATH: tilework's, by its name.
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(common::binary(), bin.join("tmux")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new("tmuxp")
        .args(["load", "-d", "-y", "proj.yaml"])
        .current_dir(&base)
        .env("PATH", path)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env("XDG_CONFIG_HOME", base.join("config"))
        .env("XDG_STATE_HOME", base.join("state"))
        .env("HOME", &base)
        .env("SHELL", "/bin/sh")
        .env("PS1", "$ ")
        .env("ENV", "")
        .env_remove("TMUX")
        .env_remove("TMUX_PANE")
        .env_remove("TILEWORK")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "tmuxp failed: {said}");
    let json = ok(&tw, &["--session", "proj", "list-panes", "--json"]);
    let panes: Vec<PaneInfo> = serde_json::from_str(&json).unwrap();
    let layout: Vec<(usize, &str, String)> = panes
        .iter()
        .map(|p| {
            (
                p.tab,
                p.tab_name.as_str(),
                p.cwd.clone().unwrap_or_default(),
            )
        })
        .collect();
    let dir = |d: &str| base.join(d).display().to_string();
    assert_eq!(
        layout,
        [
            (1, "editor", dir("a")),
            (2, "server", dir("b")),
            (2, "server", dir("b")),
            (3, "logs", dir("c")),
        ],
        "{said}"
    );
    for (pane, printed) in panes
        .iter()
        .zip(["in-editor-2", "srv-3", "srv-4", "logs-5"])
    {
        common::wait_until(&format!("{printed} in pane {}", pane.id), || {
            ok(
                &tw,
                &[
                    "--session",
                    "proj",
                    "capture",
                    "--pane",
                    &pane.id.to_string(),
                ],
            )
            .lines()
            .any(|l| l.trim_end() == printed)
        });
    }
}

/// A program that sees `$TMUX` wraps sequences for the outer terminal in
/// tmux's passthrough (`ESC P tmux; …`, ESCs doubled): tilework takes the
/// wrapper off and acts on what is inside, here a title.
#[test]
fn a_sequence_wrapped_in_tmux_passthrough_is_acted_on() {
    let mut tw = start("wrapped");
    // `\164` is `t`: the typed line itself does not show `tmux;`.
    tw.type_line(r"printf '\033P\164mux;\033\033]2;wrapped-title\007\033\\'; echo printed");
    tw.wait_for_text("printed");
    common::wait_until("the wrapped title", || {
        panes(&tw)[0].title == "wrapped-title"
    });
    // Nothing of the wrapper reached the screen.
    assert!(!tw.screen_text().contains("tmux;"), "{}", tw.screen_text());
}

/// `display-message` without `-p` shows its text in the status bar of the
/// terminal attached (tmux's status line), expanded; with `-p` it prints.
#[test]
fn display_message_shows_in_the_status_bar_and_prints_with_p() {
    let mut tw = start("said");
    tw.type_line("tmux display-message 'said-#{session_name}-#{window_index}'");
    tw.wait_for("the message in the status bar", |s| {
        let (rows, cols) = (s.size().0.get(), s.size().1.get());
        s.contents_between(rows - 1, 0, rows - 1, cols)
            .contains("said-said-0")
    });
    tw.type_line("tmux display -p 'printed-#{pane_id}'");
    tw.wait_for_text("printed-%1");
}

/// tmux's ids outlive a crash (issue 42 §1): the `%N` and `@N` a tool
/// kept before the workspace was SIGKILLed name the same panes and
/// windows after `attach`, the restored shells' `$TMUX_PANE` included,
/// and a pane made afterwards gets an id no pane had before.
#[test]
fn pane_and_window_ids_come_back_the_same_after_a_kill_and_attach() {
    let mut tw = start("kept");
    let listing = "tmux list-panes -a -F '#{window_id} #{pane_id} #{pane_title}'";
    let before = run_in_pane(
        &mut tw,
        "ids",
        &format!(
            r#"set -e
gone=$(tmux split-window -h -d -P -F '#{{pane_id}}')
right=$(tmux split-window -h -d -P -F '#{{pane_id}}')
tmux kill-pane -t "$gone"
tmux select-pane -T right -t "$right"
tmux new-window -d -n second -P -F '#{{window_id}} #{{pane_id}}' > /dev/null
second=$(tmux list-panes -t :1 -F '#{{pane_id}}')
tmux select-pane -T second -t "$second"
tmux select-pane -T leader -t "$TMUX_PANE"
{listing}
"#
        ),
    );
    let lines: Vec<&str> = before.lines().collect();
    assert_eq!(lines.len(), 3, "{before}");
    // The panes' ids have a gap (the killed one) for the restore to keep.
    assert!(lines.iter().all(|l| !l.contains(" %2 ")), "{before}");
    let saved = tw.dir.path().join("state/tilework/saved/kept");
    common::wait_until("the ids and titles to be saved", || {
        tilework::persist::manifest::Manifest::read(&saved).is_ok_and(|m| {
            m.ids.is_some_and(|ids| ids.panes.len() == 3) && m.layout.contains("second")
        })
    });
    common::crash_and_reboot(&mut tw);

    let mut back = tw.start_beside(&["attach", "kept"], ROWS, COLS);
    back.wait_for("the restored shell's prompt", |s| {
        s.contents().contains("$ ")
    });
    // The restored shell is in the first terminal's directory.
    let here = back.dir.path().display().to_string();
    back.type_line(&format!("cd {here}"));
    let after = run_in_pane(
        &mut back,
        "ids-after",
        &format!(
            r#"set -e
{listing}
echo "own $TMUX_PANE $(tmux display -p '#{{pane_id}}')"
tmux split-window -d -P -F 'new #{{pane_id}}'
tmux new-window -d -P -F 'new #{{window_id}}'
"#
        ),
    );
    assert!(
        after.starts_with(&before),
        "before:\n{before}after:\n{after}"
    );
    let leader = lines[0].split_whitespace().nth(1).unwrap();
    assert!(
        after.contains(&format!("own {leader} {leader}\n")),
        "{after}"
    );
    // New ids are past every id handed out before the crash.
    let number = |l: &str| -> u64 { l[1..].parse().unwrap() };
    let new: Vec<u64> = after
        .lines()
        .filter_map(|l| l.strip_prefix("new "))
        .map(number)
        .collect();
    assert_eq!(new.len(), 2, "{after}");
    let old_panes: Vec<u64> = lines
        .iter()
        .map(|l| number(l.split_whitespace().nth(1).unwrap()))
        .collect();
    let old_windows: Vec<u64> = lines
        .iter()
        .map(|l| number(l.split_whitespace().next().unwrap()))
        .collect();
    assert!(
        new[0] > *old_panes.iter().max().unwrap() + 1,
        "new pane %{} among or next to the killed one: {before}",
        new[0]
    );
    assert!(
        new[1] > *old_windows.iter().max().unwrap(),
        "new window @{}: {before}",
        new[1]
    );
}

/// tmux's marked pane as keys (issue 44 §5): `C-b m` marks the focused
/// pane (its border says so), and `join-pane` with no `-s`, typed in a
/// pane of another tab, brings the marked pane beside it there; the tab
/// it leaves, empty, goes. `C-b M` clears a mark.
#[test]
fn c_b_m_marks_a_pane_that_join_pane_brings_from_another_tab() {
    let mut tw = start("marks");
    let out = run_in_pane(
        &mut tw,
        "mark-setup",
        r#"set -e
tmux new-window -d -P -F '#{pane_id}' -- cat
"#,
    );
    let far = out.trim().to_string();
    tw.send("\x02n");
    tw.wait_for("the second tab shown", |s| {
        s.contents().contains("pane 1/1") && !s.contents().contains("mark-setup")
    });
    tw.send("\x02m");
    tw.wait_for("the mark on the pane's border", |s| {
        s.contents()
            .lines()
            .next()
            .is_some_and(|l| l.contains("marked"))
    });
    tw.send("\x02M");
    tw.wait_for("the mark cleared", |s| {
        !s.contents()
            .lines()
            .next()
            .is_some_and(|l| l.contains("marked"))
    });
    tw.send("\x02m");
    tw.wait_for("the mark on the pane's border again", |s| {
        s.contents()
            .lines()
            .next()
            .is_some_and(|l| l.contains("marked"))
    });
    tw.send("\x02p");
    tw.wait_for("the first tab again", |s| {
        s.contents().contains("mark-setup")
    });
    let out = run_in_pane(
        &mut tw,
        "join",
        r#"set -e
tmux display -p 'marked #{pane_marked_set} #{window_marked_flag}'
tmux list-panes -a -F '#{pane_id} #{pane_marked}' | grep ' 1$'
tmux join-pane -h
tmux list-panes -a -F 'after #{window_index} #{pane_id} #{pane_active} #{pane_marked}'
tmux list-windows | wc -l
"#,
    );
    assert!(out.starts_with("marked 1 0\n"), "{out}");
    assert!(out.contains(&format!("\n{far} 1\n")), "{out}");
    // One window left: the leader, and the marked pane beside it,
    // focused (no -d) and still marked.
    assert!(out.contains("after 0 %1 0 0\n"), "{out}");
    assert!(out.contains(&format!("after 0 {far} 1 1\n")), "{out}");
    assert!(out.ends_with("1\n"), "{out}");
    let left = panes(&tw);
    assert_eq!(left.len(), 2, "{left:?}");
    tw.wait_for("both panes side by side, the mark on the joined one", |s| {
        let top = s.contents().lines().next().unwrap_or_default().to_string();
        top.matches("marked").count() == 1 && top.find("marked") > Some(top.len() / 3)
    });
}

/// `swap-window` and `break-pane` (issue 44 §5): two windows change
/// places, the status bar follows; a pane broken out with `-d -n -P -F`
/// gets a named window of its own, printed, while the focus stays.
#[test]
fn swap_window_and_break_pane_move_windows_and_panes() {
    let mut tw = start("swaps");
    let out = run_in_pane(
        &mut tw,
        "swaps",
        r#"set -e
tmux rename-window first
tmux new-window -d -n second -- cat
tmux swap-window -d -s :0 -t :1
tmux list-windows -F 'swapped #{window_index} #{window_name} #{window_active}'
side=$(tmux split-window -h -d -P -F '#{pane_id}' -- cat)
tmux break-pane -d -s "$side" -n broken -P -F 'broke #{window_index} #{window_name} #{pane_id}'
echo "side $side"
tmux display -p 'still #{pane_id} #{window_name}'
tmux swap-window -s :2 -t :0
tmux display -p -t "$side" 'now #{window_index} #{window_active}'
"#,
    );
    assert!(
        out.contains("swapped 0 second 0\nswapped 1 first 1\n"),
        "{out}"
    );
    let side = out
        .lines()
        .find_map(|l| l.strip_prefix("side "))
        .unwrap()
        .to_string();
    assert!(out.contains(&format!("broke 2 broken {side}\n")), "{out}");
    assert!(out.contains("still %1 first\n"), "{out}");
    // Without -d the window moved is shown, at its new place.
    assert!(out.contains("now 0 1\n"), "{out}");
    tw.wait_for("the windows in their new order in the status bar", |s| {
        let (rows, cols) = (s.size().0.get(), s.size().1.get());
        let bar = s.contents_between(rows - 1, 0, rows - 1, cols);
        match (
            bar.find("1:broken"),
            bar.find("2:first"),
            bar.find("3:second"),
        ) {
            (Some(a), Some(b), Some(c)) => a < b && b < c,
            _ => false,
        }
    });
}

/// tmux's copy-mode commands (issue 42 §1): `copy-mode`, then `send-keys
/// -X` with tmux's names moves tilework's copy mode, selects a line and
/// copies it into a paste buffer `show-buffer` prints; `copy-pipe-and-
/// cancel CMD` pipes another line to a command, and leaves copy mode.
#[test]
fn send_keys_x_drives_copy_mode_and_copies_a_line_into_a_buffer() {
    let mut tw = start("copying");
    tw.type_line("printf 'alpha-line\\nbeta-line\\n'");
    tw.wait_for("the two lines", |s| {
        s.contents().matches("beta-line").count() == 2
    });
    let out = run_in_pane(
        &mut tw,
        "copy",
        r#"set -e
tmux copy-mode
tmux display -p 'mode #{pane_in_mode}'
tmux send-keys -X -N 2 cursor-up
tmux send-keys -X start-of-line
tmux send-keys -X begin-selection
tmux send-keys -X end-of-line
tmux send-keys -X copy-selection-and-cancel
echo "buffer [$(tmux show-buffer)]"
tmux display -p 'after #{pane_in_mode}'
tmux copy-mode
tmux send-keys -X -N 3 cursor-up
tmux send-keys -X select-line
tmux send-keys -X copy-pipe-and-cancel 'cat > piped.txt'
until [ -s piped.txt ]; do sleep 0.02; done
echo "piped [$(cat piped.txt)]"
tmux send-keys -X cursor-up 2>&1 || echo "exit $?"
"#,
    );
    assert!(out.starts_with("mode 1\n"), "{out}");
    assert!(out.contains("buffer [beta-line]\n"), "{out}");
    assert!(out.contains("after 0\n"), "{out}");
    assert!(out.contains("piped [alpha-line]\n"), "{out}");
    assert!(out.contains("not in a mode\nexit 1"), "{out}");
}
