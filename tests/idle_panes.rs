//! Idle panes cost almost nothing (issue 45): a pane on no terminal's
//! screen whose program printed nothing for a second has its grid put
//! away, and shows exactly as it was when switched back to, drawn in the
//! frame that shows it; output arriving meanwhile shows, and a capture
//! reads it right. The memory of many idle tabs grows by a small part of
//! what one pane's workspace costs.

#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

use common::Tilework;

/// `tilework ARGS` as a script runs it; its stdout (it must succeed).
fn ok(tw: &Tilework, args: &[&str]) -> String {
    let out = Command::new(common::binary())
        .args(args)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
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

fn start(rows: u16, cols: u16) -> Tilework {
    let tw = Tilework::start_with(
        &["--session", "idle"],
        rows,
        cols,
        &[("TILEWORK_LOG", "tilework=debug")],
    );
    tw.wait_for("the first prompt", |s| s.contents().contains("$ "));
    tw
}

/// How many times pane `id`'s grid was put away, by the workspace's log.
fn times_parked(tw: &Tilework, id: u64) -> usize {
    let log = tw.dir.path().join("state/tilework/tilework.log");
    let needle = format!("PaneId({id})");
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("grid was put away") && l.contains(&needle))
        .count()
}

/// Waits until pane `id`'s grid has been put away more than `before` times.
fn wait_parked(tw: &Tilework, id: u64, before: usize) {
    common::wait_until(&format!("pane {id}'s grid to be put away"), || {
        times_parked(tw, id) > before
    });
}

/// Opens a tab running a shell; the new pane's id.
fn new_tab(tw: &Tilework) -> u64 {
    ok(tw, &["run", "--session", "idle", "--tab", "--", "sh"])
        .trim()
        .parse()
        .unwrap()
}

/// The first pane's id.
fn first_pane(tw: &Tilework) -> u64 {
    let panes: serde_json::Value =
        serde_json::from_str(&ok(tw, &["list-panes", "--session", "idle", "--json"])).unwrap();
    panes[0]["id"].as_u64().unwrap()
}

/// The pane's rows with their colours (its border and title included;
/// the status bar, which names what the tabs run, left out), and the
/// cursor.
fn picture(tw: &Tilework) -> (Vec<String>, (u16, u16)) {
    tw.with_screen(|s| {
        let (rows, cols) = (s.size().0.get(), s.size().1.get());
        let pane_rows = usize::from(rows - 1);
        (
            s.rows_formatted(0, cols).take(pane_rows).collect(),
            s.cursor_position(),
        )
    })
}

/// Switches to tab `n` and waits until the screen is `expected`; the
/// first frame that showed the tab must already show it whole.
fn switch_and_expect(tw: &mut Tilework, n: u8, marker: &str, expected: &(Vec<String>, (u16, u16))) {
    tw.record_frames();
    tw.send([0x02, b'0' + n]);
    tw.wait_for("the tab's screen", |s| s.contents().contains(marker));
    let now = picture(tw);
    for (row, (was, is)) in expected.0.iter().zip(&now.0).enumerate() {
        assert_eq!(was, is, "row {row}");
    }
    assert_eq!(expected.1, now.1, "the cursor");
    // The pane's rows (not the status bar, whose tab names follow what
    // the programs run) in the first frame that showed the tab.
    let pane_rows = |screen: &str| -> Vec<String> {
        let lines: Vec<&str> = screen.lines().collect();
        lines[..lines.len().saturating_sub(1)]
            .iter()
            .map(|l| l.trim_end().to_owned())
            .collect()
    };
    let frames = tw.recorded_frames();
    let first = frames.iter().find(|f| f.contains(marker)).unwrap();
    let whole = tw.with_screen(|s| s.contents());
    assert_eq!(pane_rows(first), pane_rows(&whole), "drawn in one frame");
}

#[test]
fn a_pane_parked_while_hidden_shows_as_it_was_and_output_meanwhile_shows() {
    let mut tw = start(24, 100);
    let first = first_pane(&tw);
    let go = tw.dir.path().join("go");
    tw.type_line(&format!(
        "printf '\\033]2;kept title\\007\\033[1;31mred\\033[m \\033[44;97mblue\\033[m\\n'; \
         while [ ! -e {} ]; do sleep 0.1; done; printf '\\033[32mlate\\033[m\\n'",
        go.display()
    ));
    tw.wait_for("the coloured line", |s| s.contents().contains("red blue"));
    let second = new_tab(&tw);
    tw.wait_for("the second tab", |s| {
        s.contents().contains("kept title") || s.contents().contains("$ ")
    });
    tw.send([0x02, b'1']);
    tw.wait_for("the first tab again", |s| s.contents().contains("red blue"));
    let before = picture(&tw);

    // Hidden and quiet: its grid goes, and comes back exactly.
    tw.send([0x02, b'2']);
    tw.wait_for("the second tab", |s| !s.contents().contains("red blue"));
    let parked = times_parked(&tw, first);
    wait_parked(&tw, first, parked);
    switch_and_expect(&mut tw, 1, "red blue", &before);

    // Output while parked: a capture and the screen both show it.
    tw.send([0x02, b'2']);
    tw.wait_for("the second tab", |s| !s.contents().contains("red blue"));
    wait_parked(&tw, first, parked + 1);
    std::fs::write(&go, "").unwrap();
    let id = first.to_string();
    common::wait_until("a capture of the hidden pane to show the late line", || {
        let text = ok(&tw, &["capture", "--session", "idle", "--pane", &id]);
        text.contains("red blue")
            && text.contains("late")
            && text.lines().any(|l| l.trim_end() == "$")
    });
    tw.send([0x02, b'1']);
    tw.wait_for("the late line", |s| s.contents().contains("late"));
    let colour = tw.with_screen(|s| {
        let row = (0..s.size().0.get())
            .find(|&r| s.contents_between(r, 0, r, 100).starts_with("┃late"))
            .unwrap();
        s.cell(row, 1).unwrap().fgcolor()
    });
    assert_eq!(colour, vt100::Color::Idx(2), "the late line's colour");
    // The second tab, hidden now, goes the same way.
    wait_parked(&tw, second, 0);
}

#[test]
fn an_alternate_screen_parked_while_hidden_comes_back_and_its_program_quits_to_the_shell() {
    if !common::require_program("less") {
        return;
    }
    let mut tw = start(24, 100);
    let first = first_pane(&tw);
    let file = tw.dir.path().join("pages.txt");
    let text: String = (1..=200).map(|i| format!("page line {i}\n")).collect();
    std::fs::write(&file, text).unwrap();
    tw.type_line("echo before less");
    tw.wait_for("the echo", |s| {
        s.contents().matches("before less").count() == 2
    });
    tw.type_line(&format!("less {}", file.display()));
    tw.wait_for("less", |s| s.contents().contains("page line 20"));
    new_tab(&tw);
    tw.send([0x02, b'1']);
    tw.wait_for("less again", |s| s.contents().contains("page line 20"));
    tw.send("5G");
    tw.wait_for("less moved, and named in the border", |s| {
        let text = s.contents();
        text.contains("page line 5") && !text.contains("page line 4 ") && text.starts_with("┏ less")
    });
    let before = picture(&tw);

    tw.send([0x02, b'2']);
    tw.wait_for("the second tab", |s| !s.contents().contains("page line"));
    let parked = times_parked(&tw, first);
    wait_parked(&tw, first, parked);
    switch_and_expect(&mut tw, 1, "page line 5", &before);

    // less still reads its keys as before, and quits to the shell's screen
    // with the cursor where the shell left it.
    tw.send("j");
    tw.wait_for("less scrolled", |s| {
        let text = s.contents();
        text.contains("page line 6") && !text.contains("page line 5 ")
    });
    tw.send("q");
    // The shell's prompt on the row after less's command line (typing
    // before it is printed would be echoed ahead of it).
    tw.wait_for("the shell's prompt after less", |s| {
        let text = s.contents();
        let lines: Vec<&str> = text.lines().collect();
        let less = lines.iter().position(|l| l.contains("$ less"));
        text.contains("before less")
            && !text.contains("page line 6")
            && less.is_some_and(|row| lines.get(row + 1).is_some_and(|l| l.starts_with("┃$ ")))
    });
    tw.type_line("echo after less");
    tw.wait_for("the echo after", |s| {
        let text = s.contents();
        let row_of = |what: &str| text.lines().position(|l| l.contains(what));
        let (less, after) = (row_of("$ less"), row_of("┃after less"));
        less.is_some() && after.is_some_and(|a| Some(a) == less.map(|l| l + 2))
    });
}

#[test]
fn many_idle_tabs_grow_the_workspace_by_a_small_part_of_one_panes_cost() {
    const TABS: u64 = 60;
    let tw = start(60, 200);
    let workspace = tw.workspace_pid();
    let first = first_pane(&tw);
    // One pane at rest: its workspace's memory.
    wait_memory_steady(&tw, workspace);
    let one = common::rss_kib(workspace).unwrap();
    let heap_one = heap_kib(workspace);
    let mut ids = vec![first];
    for _ in 0..TABS {
        ids.push(new_tab(&tw));
    }
    // Every pane but the last tab's is hidden and quiet: all put away.
    for &id in &ids[..ids.len() - 1] {
        wait_parked(&tw, id, 0);
    }
    let many = common::rss_kib(workspace).unwrap();
    let heap_many = heap_kib(workspace);
    let per_tab = heap_many.saturating_sub(heap_one) / TABS;
    // The grids are kept on the loop's heap: a 200x60 one is 384 KB, and
    // the workspace's whole heap with one pane (its grid, the frame, the
    // config) about 2 MB. Put away, a pane keeps its bookkeeping and the
    // bytes that draw its screen again. The tabs open back to back, as a
    // script opens them, each shown until the next one opens: a few grids
    // live at once, whose memory the next ones reuse (the allocator keeps
    // what was freed). With every hidden grid waiting its whole 200 ms,
    // ~30 were live at once and this was 126 KiB a tab; now 66-72.
    assert!(
        per_tab * 20 <= heap_one,
        "{per_tab} KiB of heap per idle tab against {heap_one} KiB for the workspace with one \
         pane (RSS {one} KiB with one pane, {many} KiB with {TABS} more tabs)"
    );
}

/// A quiet pane keeps no thread of its own (a reader, a writer and a waiter
/// each were a third of an idle pane's memory once its grid was put away):
/// the loop reads a quiet pane's echo itself, a reader thread runs only
/// while output streams, and one thread sees every program end.
#[test]
fn idle_tabs_keep_no_threads_and_output_that_streams_still_comes() {
    const TABS: usize = 12;
    let mut tw = start(24, 80);
    let workspace = tw.workspace_pid();
    wait_memory_steady(&tw, workspace);
    let one = threads(workspace);
    for _ in 0..TABS {
        new_tab(&tw);
    }
    common::wait_until("the idle tabs' threads to be gone", || {
        threads(workspace) <= one
    });
    // The last tab is shown: a command's output streams through a reader
    // thread, which leaves once it is quiet again.
    tw.send("seq 1 3000; echo streamed-$((6*7))\r");
    tw.wait_for("the streamed output", |s| {
        s.contents().contains("streamed-42")
    });
    common::wait_until("the reader thread to be gone again", || {
        threads(workspace) <= one
    });
    // And a key typed now is read back by the loop.
    tw.send("echo typed-$((6*7))\r");
    tw.wait_for("the echo", |s| s.contents().contains("typed-42"));
}

/// How many threads process `pid` runs.
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(Iterator::count)
        .unwrap_or(usize::MAX)
}

/// Waits until the workspace's RSS stops growing (its start-up done).
fn wait_memory_steady(tw: &Tilework, pid: u32) {
    tw.wait_for("a prompt", |s| s.contents().contains("$ "));
    let mut last = 0;
    common::wait_until("the workspace's memory to settle", || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        let now = common::rss_kib(pid).unwrap_or(0);
        let steady = now == last;
        last = now;
        steady
    });
}

/// The resident KiB of the workspace's main heap (where the loop's
/// allocations go, the grids among them).
fn heap_kib(pid: u32) -> u64 {
    let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap();
    let mut in_heap = false;
    for line in smaps.lines() {
        if line.ends_with("[heap]") {
            in_heap = true;
        } else if in_heap && line.starts_with("Rss:") {
            return line.split_whitespace().nth(1).unwrap().parse().unwrap();
        }
    }
    0
}
