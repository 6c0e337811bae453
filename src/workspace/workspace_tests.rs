//! Workspace behaviour, headless: programs start through a fake launcher
//! that records them and lets a test print, exit, and read what they were
//! sent; time is an `Instant` the test moves by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use ratatui::layout::Rect;

use crate::config::action::{Action, Direction};
use crate::config::profile::{
    LayoutSpec, PaneSpec, Profile, RestartPolicy, SplitDirection, TabSpec,
};
use crate::pane::PaneId;
use crate::pane::event::PaneEvent;
use crate::pane::program::process::fake::FakeLauncher;
use crate::pane::program::pty::ExitInfo;
use crate::workspace::{PaneLaunch, RESTART_DELAY, Workspace, WorkspaceSettings, content_rect};

const AREA: Rect = Rect {
    x: 0,
    y: 0,
    width: 80,
    height: 24,
};

/// A workspace with a fake launcher, and the loop's part: it hands the
/// workspace what the programs report, at the test's `now`.
pub(super) struct Harness {
    pub(super) ws: Workspace,
    fake: FakeLauncher,
    events: Receiver<PaneEvent>,
    now: Instant,
}

impl Harness {
    fn new(keep_exited_panes: bool) -> Self {
        let (tx, events) = bounded(256);
        let fake = FakeLauncher::new(tx.clone().into());
        let settings = WorkspaceSettings {
            keep_exited_panes,
            ..crate::workspace::fake_workspace::settings()
        };
        let ws = Workspace::with_launcher(settings, AREA, tx.into(), Box::new(fake.clone()));
        Self {
            ws,
            fake,
            events,
            now: Instant::now(),
        }
    }

    /// One pane running `program`, as `tilework -- program` opens.
    pub(super) fn with_program(keep_exited_panes: bool, program: &str) -> Self {
        let mut h = Self::new(keep_exited_panes);
        let (spec, label) =
            h.ws.panes()
                .spawner()
                .settings()
                .env
                .argv(&[program.to_string()], None);
        h.ws.open_row(vec![PaneLaunch::new(spec, label)]);
        h
    }

    /// One tab of command panes side by side, as a profile opens them.
    fn with_commands(keep_exited_panes: bool, panes: Vec<PaneSpec>) -> Self {
        let mut h = Self::new(keep_exited_panes);
        let layout = match panes.len() {
            1 => LayoutSpec::Pane(panes.into_iter().next().unwrap()),
            n => LayoutSpec::Split {
                direction: SplitDirection::Right,
                weights: vec![1; n],
                children: panes.into_iter().map(LayoutSpec::Pane).collect(),
            },
        };
        h.ws.open_profile(&Profile {
            name: "test".into(),
            tabs: vec![TabSpec {
                name: None,
                layout,
                floating: Vec::new(),
            }],
        });
        h
    }

    /// Delivers what the programs reported, as the loop does.
    fn deliver(&mut self) {
        while let Ok(event) = self.events.try_recv() {
            if let PaneEvent::Exited(id, info) = event {
                self.ws.pane_exited(id, info, self.now);
            }
        }
    }

    /// Pane `id`'s program ends with `code`.
    fn exit(&mut self, id: PaneId, code: i32) {
        self.fake.exit(id, code);
        self.deliver();
    }

    /// Time passes; the loop runs the restarts that are due.
    fn wait(&mut self, by: Duration) -> bool {
        self.now += by;
        self.ws.run_due_restarts(self.now)
    }

    fn focused(&self) -> PaneId {
        self.ws.tabs.focused_id().expect("a focused pane")
    }

    fn tab_panes(&self) -> Vec<PaneId> {
        self.ws
            .tabs
            .shown()
            .map(|t| t.layout.panes())
            .unwrap_or_default()
    }

    /// Every visible pane's program was told the size its pane has.
    fn assert_sizes_follow_layout(&self) {
        for (id, rect) in self.ws.tiling().visible(self.ws.tabs().shown()) {
            let inner = content_rect(rect);
            assert_eq!(
                self.fake.size(id),
                Some((inner.height, inner.width)),
                "{id:?} in {rect:?}"
            );
        }
    }

    fn screen(&mut self, id: PaneId) -> String {
        let pane = self.ws.panes_mut().get_mut(id).unwrap();
        pane.settle();
        pane.screen().contents()
    }
}

fn command(line: &str, restart: RestartPolicy) -> PaneSpec {
    PaneSpec {
        command: Some(line.into()),
        restart,
        ..PaneSpec::default()
    }
}

fn killed_by(signal: i32) -> ExitInfo {
    ExitInfo {
        code: 128 + signal,
        signal: true,
    }
}

// ---- layout and focus ----

#[test]
fn a_split_starts_a_shell_beside_the_focused_pane_and_focuses_it() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();

    assert!(h.ws.apply(Action::SplitRight));

    let second = h.focused();
    assert_ne!(first, second);
    assert_eq!(h.fake.launched(), [first, second]);
    assert_eq!(h.fake.spec(second).unwrap().argv, ["/bin/sh"]);
    let visible = h.ws.tiling().visible(h.ws.tabs().shown());
    assert_eq!(visible.len(), 2);
    assert!(visible[0].1.x < visible[1].1.x, "side by side: {visible:?}");
    // The first program was told it shrank.
    h.assert_sizes_follow_layout();
}

#[test]
fn closing_a_pane_hangs_up_on_it_and_gives_its_space_back() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();
    h.ws.apply(Action::SplitDown);
    let second = h.focused();

    assert!(h.ws.apply(Action::ClosePane));

    assert!(h.fake.terminated(second));
    assert!(!h.fake.terminated(first));
    assert!(h.ws.panes().get(second).is_none());
    assert_eq!(h.focused(), first);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()), [(first, AREA)]);
    h.assert_sizes_follow_layout();
    assert_eq!(h.ws.ending().code(), None);
}

#[test]
fn focus_moves_by_direction_and_cycles() {
    let mut h = Harness::with_program(false, "top");
    let left = h.focused();
    h.ws.apply(Action::SplitRight);
    let right = h.focused();

    assert!(h.ws.apply(Action::Focus(Direction::Left)));
    assert_eq!(h.focused(), left);
    assert!(
        !h.ws.apply(Action::Focus(Direction::Left)),
        "nothing further left"
    );
    assert!(h.ws.apply(Action::FocusNext));
    assert_eq!(h.focused(), right);
    assert!(h.ws.apply(Action::FocusNext));
    assert_eq!(h.focused(), left, "cycling wraps");
    assert!(h.ws.apply(Action::FocusPrev));
    assert_eq!(h.focused(), right);
}

#[test]
fn a_zoomed_pane_fills_the_tab_and_keeps_the_zoom_when_focus_cycles() {
    let mut h = Harness::with_program(false, "top");
    let left = h.focused();
    h.ws.apply(Action::SplitRight);
    let right = h.focused();

    assert!(h.ws.apply(Action::ToggleZoom));
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()), [(right, AREA)]);
    h.assert_sizes_follow_layout();

    h.ws.apply(Action::FocusNext);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()), [(left, AREA)]);
    h.assert_sizes_follow_layout();

    h.ws.apply(Action::ToggleZoom);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 2);
    h.assert_sizes_follow_layout();
}

#[test]
fn a_new_size_reaches_the_programs_of_hidden_tabs_too() {
    let mut h = Harness::with_program(false, "top");
    let hidden = h.focused();
    h.ws.apply(Action::NewTab);
    let shown = h.focused();

    let smaller = Rect::new(0, 0, 50, 20);
    h.ws.set_area(smaller);

    let inner = content_rect(smaller);
    for id in [hidden, shown] {
        assert_eq!(h.fake.size(id), Some((inner.height, inner.width)), "{id:?}");
    }
}

#[test]
fn keys_reach_the_focused_program_only() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();
    h.ws.apply(Action::SplitRight);
    let second = h.focused();

    assert!(h.ws.focused().unwrap().program().send(b"ls\r"));

    assert_eq!(h.fake.input(second), b"ls\r");
    assert!(h.fake.input(first).is_empty());
}

// ---- tabs ----

#[test]
fn tabs_open_switch_and_close() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();

    assert!(h.ws.apply(Action::NewTab));
    let second = h.focused();
    assert_eq!(h.ws.tabs().len(), 2);
    assert_eq!(h.ws.tabs().active(), 1);
    assert_eq!(h.fake.spec(second).unwrap().argv, ["/bin/sh"]);

    assert!(h.ws.apply(Action::NextTab), "wraps to the first");
    assert_eq!(h.focused(), first);
    assert!(h.ws.apply(Action::GoToTab(2)));
    assert_eq!(h.focused(), second);
    assert!(!h.ws.apply(Action::GoToTab(2)), "already there");
    assert!(!h.ws.apply(Action::GoToTab(9)), "no such tab");

    assert!(h.ws.apply(Action::CloseTab));
    assert!(h.fake.terminated(second));
    assert_eq!(h.ws.tabs().len(), 1);
    assert_eq!(h.focused(), first);
    assert_eq!(h.ws.ending().code(), None);

    h.ws.apply(Action::CloseTab);
    assert!(h.fake.terminated(first));
    assert_eq!(h.ws.ending().code(), Some(0), "the last tab closed");
}

#[test]
fn output_in_a_hidden_tab_marks_it_once_until_it_is_shown() {
    let mut h = Harness::with_program(false, "top");
    let hidden = h.focused();
    h.ws.apply(Action::NewTab);
    let shown = h.focused();

    assert!(
        !h.ws.tabs_mut().note_activity(shown, true),
        "the tab shown is not marked"
    );
    assert!(h.ws.tabs_mut().note_activity(hidden, false));
    assert!(
        !h.ws.tabs_mut().note_activity(hidden, false),
        "already marked"
    );
    assert!(
        h.ws.tabs_mut().note_activity(hidden, true),
        "a bell is a new mark"
    );
    let tab = &h.ws.tabs()[0];
    assert!(tab.activity && tab.bell);

    h.ws.tabs.select(0);
    let tab = &h.ws.tabs()[0];
    assert!(!tab.activity && !tab.bell);
}

#[test]
fn a_pane_broken_out_and_moved_back_keeps_its_program() {
    let mut h = Harness::with_program(false, "top");
    h.ws.apply(Action::SplitRight);
    let moved = h.focused();

    assert!(h.ws.apply(Action::BreakPane));
    assert_eq!(h.ws.tabs().len(), 2);
    assert_eq!(h.tab_panes(), [moved]);
    h.assert_sizes_follow_layout();

    assert!(h.ws.apply(Action::MovePaneToNextTab));
    assert_eq!(h.ws.tabs().len(), 1, "the emptied tab is gone");
    assert_eq!(h.tab_panes().len(), 2);
    assert_eq!(h.focused(), moved);
    assert!(!h.fake.terminated(moved));
    assert_eq!(h.fake.launched().len(), 2, "nothing started again");
    h.assert_sizes_follow_layout();
}

// ---- programs that end ----

#[test]
fn a_pane_whose_program_ends_closes_and_its_sibling_takes_the_space() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();
    h.ws.apply(Action::SplitRight);
    let second = h.focused();

    h.exit(second, 0);

    assert!(h.ws.panes().get(second).is_none());
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()), [(first, AREA)]);
    assert_eq!(h.focused(), first);
    assert_eq!(h.ws.ending().code(), None);
}

#[test]
fn with_keep_exited_panes_an_ended_program_stays_on_screen_with_its_status() {
    let mut h = Harness::with_program(true, "make");
    let id = h.focused();
    h.fake.print(id, b"build finished\r\n");

    h.exit(id, 2);

    let pane = h.ws.panes().get(id).expect("the pane stays");
    assert_eq!(
        pane.program().exit(),
        Some(ExitInfo {
            code: 2,
            signal: false
        })
    );
    assert!(!pane.program().send(b"x"), "nothing runs to take keys");
    assert!(h.fake.input(id).is_empty());
    assert!(
        h.screen(id).contains("build finished"),
        "its last output was read before it closed"
    );
    assert_eq!(h.ws.ending().code(), None);
    assert_eq!(h.ws.panes().next_restart(), None);
}

#[test]
fn a_command_that_could_not_run_stays_to_say_so() {
    for code in [126, 127] {
        let mut h = Harness::with_program(false, "nonexistent");
        let id = h.focused();
        h.exit(id, code);
        assert!(h.ws.panes().get(id).is_some(), "{code}");
        assert_eq!(h.ws.ending().code(), None, "{code}");
    }
}

#[test]
fn the_last_pane_to_end_gives_tilework_its_exit_status() {
    let mut h = Harness::with_program(false, "make");
    let first = h.focused();
    h.ws.apply(Action::SplitRight);
    let second = h.focused();

    h.exit(first, 1);
    assert_eq!(h.ws.ending().code(), None);
    h.exit(second, 3);
    assert_eq!(h.ws.ending().code(), Some(3));

    let mut h = Harness::with_program(false, "sleep");
    let id = h.focused();
    h.ws.pane_exited(id, killed_by(15), h.now);
    assert_eq!(h.ws.ending().code(), Some(143));
}

#[test]
fn a_profile_pane_overrides_keep_exited_panes_either_way() {
    let keep = PaneSpec {
        keep_open: Some(true),
        ..command("make", RestartPolicy::Never)
    };
    let mut h = Harness::with_commands(false, vec![keep, command("top", RestartPolicy::Never)]);
    let [kept, _] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    h.exit(kept, 0);
    assert!(h.ws.panes().get(kept).is_some());

    let close = PaneSpec {
        keep_open: Some(false),
        ..command("make", RestartPolicy::Never)
    };
    let mut h = Harness::with_commands(true, vec![close, command("top", RestartPolicy::Never)]);
    let [closed, _] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    h.exit(closed, 0);
    assert!(h.ws.panes().get(closed).is_none());
}

#[test]
fn a_profile_command_that_ends_well_stays_with_its_output_until_closed() {
    let shell = PaneSpec::default();
    let mut h = Harness::with_commands(
        false,
        vec![command("cargo build", RestartPolicy::Never), shell],
    );
    let [cmd, shell] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    h.fake.print(cmd, b"Finished dev profile\r\n");

    h.exit(cmd, 0);

    let pane = h.ws.panes().get(cmd).expect("the command pane stays");
    assert_eq!(
        pane.program().exit(),
        Some(ExitInfo {
            code: 0,
            signal: false
        })
    );
    assert!(h.screen(cmd).contains("Finished dev profile"));
    assert_eq!(h.ws.panes().next_restart(), None, "`never` means never");
    assert_eq!(h.ws.ending().code(), None);

    // A shell pane of the same profile follows `keep_exited_panes` (off).
    h.exit(shell, 0);
    assert!(h.ws.panes().get(shell).is_none());

    // It goes when the user closes it, and tilework with it.
    assert_eq!(h.focused(), cmd);
    assert!(h.ws.apply(Action::ClosePane));
    assert!(h.ws.panes().get(cmd).is_none());
}

#[test]
fn a_program_that_cannot_start_leaves_a_pane_that_says_why() {
    let mut h = Harness::new(false);
    h.fake.fail_next("no such program: frobnicate");
    let (spec, label) =
        h.ws.panes()
            .spawner()
            .settings()
            .env
            .argv(&["frobnicate".into()], None);
    h.ws.open_row(vec![PaneLaunch::new(spec, label)]);

    let id = h.focused();
    assert!(
        h.ws.panes()
            .get(id)
            .unwrap()
            .program()
            .spawn_error()
            .is_some()
    );
    assert!(
        h.screen(id)
            .contains("tilework: no such program: frobnicate"),
        "{}",
        h.screen(id)
    );
    assert!(!h.ws.panes().get(id).unwrap().program().send(b"x"));
}

#[test]
fn quitting_ends_every_program_at_once() {
    let mut h = Harness::with_program(false, "top");
    let first = h.focused();
    h.ws.apply(Action::SplitRight);
    let second = h.focused();

    h.ws.panes().kill_all();

    assert!(h.fake.terminated(first) && h.fake.terminated(second));
    assert!(
        h.fake.killed_all(),
        "and whatever is still in its grace period"
    );
}

// ---- restarts ----

#[test]
fn an_on_failure_command_restarts_after_the_delay_in_the_same_place() {
    let mut h = Harness::with_commands(
        false,
        vec![
            command("make test", RestartPolicy::OnFailure),
            command("top", RestartPolicy::Never),
        ],
    );
    let [failing, other] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    h.ws.focus_pane(failing);
    let spec = h.fake.spec(failing).unwrap();
    let exited_at = h.now;

    h.exit(failing, 1);

    // It shows how it ended meanwhile.
    assert!(
        h.ws.panes()
            .get(failing)
            .unwrap()
            .program()
            .exit()
            .is_some()
    );
    assert_eq!(h.ws.panes().next_restart(), Some(exited_at + RESTART_DELAY));
    assert!(!h.wait(RESTART_DELAY - Duration::from_millis(1)));
    assert_eq!(h.tab_panes(), [failing, other], "not yet");

    assert!(h.wait(Duration::from_millis(1)));

    let [restarted, still] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    assert_ne!(
        restarted, failing,
        "a new id: the old program's exit cannot close it"
    );
    assert_eq!(still, other);
    assert_eq!(h.fake.spec(restarted), Some(spec));
    assert_eq!(h.focused(), restarted, "focus follows");
    assert!(h.ws.panes().get(failing).is_none());
    assert!(
        h.ws.panes()
            .get(restarted)
            .unwrap()
            .program()
            .exit()
            .is_none()
    );
    assert_eq!(h.ws.panes().next_restart(), None);
    h.assert_sizes_follow_layout();

    // It keeps its policy: failing again restarts again (after twice the
    // delay: a second failure in a row).
    h.exit(restarted, 1);
    assert!(h.wait(2 * RESTART_DELAY));
    assert_eq!(h.fake.launched().len(), 4);
}

#[test]
fn restart_policies_decide_by_exit_status() {
    // (policy, exit code, restarts)
    let cases = [
        (RestartPolicy::OnFailure, 0, false),
        (RestartPolicy::OnFailure, 2, true),
        (RestartPolicy::Always, 0, true),
        (RestartPolicy::Always, 9, true),
    ];
    for (policy, code, restarts) in cases {
        let mut h = Harness::with_commands(false, vec![command("job", policy)]);
        let id = h.focused();
        h.exit(id, code);
        assert!(
            h.ws.panes().get(id).is_some(),
            "{policy:?} {code}: command panes show how they ended"
        );
        assert_eq!(
            h.ws.panes().next_restart().is_some(),
            restarts,
            "{policy:?} {code}"
        );
        assert_eq!(h.wait(RESTART_DELAY), restarts, "{policy:?} {code}");
        assert_eq!(h.fake.launched().len(), 1 + usize::from(restarts));
        assert_eq!(h.ws.ending().code(), None);
    }
}

#[test]
fn the_earliest_of_several_restarts_is_the_loops_deadline() {
    let mut h = Harness::with_commands(
        false,
        vec![
            command("a", RestartPolicy::Always),
            command("b", RestartPolicy::Always),
        ],
    );
    let [a, b] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    let start = h.now;
    h.exit(b, 0);
    h.now += Duration::from_millis(300);
    h.exit(a, 0);

    assert_eq!(h.ws.panes().next_restart(), Some(start + RESTART_DELAY));
    h.now = start;
    assert!(h.wait(RESTART_DELAY));
    assert!(h.ws.panes().get(a).is_some(), "a is not due yet");
    assert!(h.ws.panes().get(b).is_none());
    assert_eq!(
        h.ws.panes().next_restart(),
        Some(start + Duration::from_millis(300) + RESTART_DELAY)
    );
    assert!(h.wait(Duration::from_millis(300)));
    assert!(h.ws.panes().get(a).is_none());
    assert_eq!(h.ws.panes().next_restart(), None);
}

#[test]
fn restart_pane_runs_it_again_at_once_and_cancels_the_pending_restart() {
    let mut h = Harness::with_commands(false, vec![command("server", RestartPolicy::Always)]);
    let old = h.focused();
    h.exit(old, 1);
    assert!(h.ws.panes().next_restart().is_some());

    assert!(h.ws.apply(Action::RestartPane));

    let new = h.focused();
    assert_ne!(new, old);
    assert_eq!(h.fake.launched(), [old, new]);
    assert_eq!(h.ws.panes().next_restart(), None);
    assert!(
        !h.wait(RESTART_DELAY),
        "no second start when the delay ends"
    );
    assert_eq!(h.fake.launched().len(), 2);
}

#[test]
fn restarting_a_running_pane_hangs_up_on_it_and_its_late_exit_changes_nothing() {
    let mut h = Harness::with_commands(false, vec![command("server", RestartPolicy::Never)]);
    let old = h.focused();

    assert!(h.ws.apply(Action::RestartPane));
    let new = h.focused();

    assert!(h.fake.terminated(old));
    h.exit(old, 129);
    assert_eq!(h.focused(), new);
    assert!(h.ws.panes().get(new).is_some());
    assert_eq!(h.ws.ending().code(), None);
}

#[test]
fn closing_a_pane_waiting_to_restart_cancels_the_restart() {
    let mut h = Harness::with_commands(
        false,
        vec![
            command("server", RestartPolicy::Always),
            command("top", RestartPolicy::Never),
        ],
    );
    let [server, _] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    h.exit(server, 1);
    h.ws.focus_pane(server);

    h.ws.apply(Action::ClosePane);

    assert_eq!(h.ws.panes().next_restart(), None);
    assert!(!h.wait(RESTART_DELAY));
    assert_eq!(h.fake.launched().len(), 2);
}

// ---- names ----

/// Each pane's foreground, as the test sets it: `Some(program)` a job
/// started from the shell, `None` the shell at its prompt.
type Foregrounds = std::sync::Arc<std::sync::Mutex<std::collections::BTreeMap<PaneId, String>>>;

fn fake_foregrounds(h: &mut Harness) -> Foregrounds {
    let jobs = Foregrounds::default();
    let seen = std::sync::Arc::clone(&jobs);
    h.ws.panes_mut()
        .names_mut()
        .set_foreground_probe(Box::new(move |pane| {
            let jobs = seen.lock().unwrap();
            Some(crate::workspace::foreground::Foreground {
                program: jobs.get(&pane.id).cloned().unwrap_or_else(|| "sh".into()),
                is_pane_process: !jobs.contains_key(&pane.id),
            })
        }));
    jobs
}

/// A shell pane in `dir`, as a new tab opens it.
fn shell_in(dir: &std::path::Path) -> Harness {
    let mut h = Harness::new(false);
    let (spec, label) =
        h.ws.panes()
            .spawner()
            .settings()
            .env
            .shell(Some(dir.to_path_buf()));
    h.ws.open_row(vec![PaneLaunch::new(spec, label)]);
    h
}

#[test]
fn a_tab_is_named_after_its_focused_program_or_directory_until_renamed() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let mut h = shell_in(&project);
    let jobs = fake_foregrounds(&mut h);
    let pane = h.focused();
    // The shell reports its directory (OSC 7), as most do at the prompt.
    h.fake.print(
        pane,
        format!("\x1b]7;file://host{}\x07", project.display()).as_bytes(),
    );
    let p = h.ws.panes_mut().get_mut(pane).unwrap();
    while let Some(chunk) = p.program_mut().try_output() {
        p.feed(chunk);
    }
    p.settle();
    assert_eq!(
        h.ws.tabs().name(0, h.ws.panes()),
        "sh",
        "before a look, the command"
    );

    assert!(h.ws.panes_mut().refresh_names());
    assert_eq!(h.ws.tabs().name(0, h.ws.panes()), "project");
    assert!(
        h.ws.panes().title(pane).ends_with("/project"),
        "{}",
        h.ws.panes().title(pane)
    );

    jobs.lock().unwrap().insert(pane, "vim".into());
    assert!(h.ws.panes_mut().refresh_names());
    assert_eq!(h.ws.tabs().name(0, h.ws.panes()), "vim");
    assert_eq!(h.ws.panes().title(pane), "vim");
    assert!(!h.ws.panes_mut().refresh_names(), "nothing changed");

    h.ws.tabs_mut().rename_shown("notes");
    assert_eq!(h.ws.tabs().name(0, h.ws.panes()), "notes");
    jobs.lock().unwrap().remove(&pane);
    h.ws.panes_mut().refresh_names();
    assert_eq!(
        h.ws.tabs().name(0, h.ws.panes()),
        "notes",
        "a given name stays"
    );
    h.ws.tabs_mut().rename_shown("");
    assert_eq!(
        h.ws.tabs().name(0, h.ws.panes()),
        "project",
        "an empty name gives the automatic one back"
    );
}

#[test]
fn a_title_the_program_sets_wins_over_the_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = shell_in(dir.path());
    let jobs = fake_foregrounds(&mut h);
    let pane = h.focused();
    jobs.lock().unwrap().insert(pane, "htop".into());
    h.ws.panes_mut().refresh_names();
    assert_eq!(h.ws.panes().title(pane), "htop");
    h.fake.print(pane, b"\x1b]2;load average\x07");
    let p = h.ws.panes_mut().get_mut(pane).unwrap();
    while let Some(chunk) = p.program_mut().try_output() {
        p.feed(chunk);
    }
    p.settle();
    assert_eq!(h.ws.panes().title(pane), "load average");
}

#[test]
fn names_are_looked_at_once_a_moment_after_activity() {
    let mut h = Harness::with_program(false, "sh");
    let now = h.now;
    assert_eq!(h.ws.panes().names().next_check(), None, "idle: no wake-ups");
    h.ws.panes_mut().names_mut().may_change(now);
    h.ws.panes_mut()
        .names_mut()
        .may_change(now + Duration::from_millis(100));
    let due = h.ws.panes().names().next_check().unwrap();
    assert_eq!(
        due,
        now + crate::workspace::NAME_CHECK_DELAY,
        "a flood does not postpone it"
    );
    assert!(!h.ws.panes_mut().check_names(due - Duration::from_millis(1)));
    h.ws.panes_mut().check_names(due);
    assert_eq!(h.ws.panes().names().next_check(), None);
}

#[test]
fn a_saved_workspace_keeps_given_tab_names_and_pane_titles_only() {
    let mut h = Harness::with_commands(
        false,
        vec![PaneSpec {
            command: Some("htop".into()),
            title: Some("load".into()),
            ..PaneSpec::default()
        }],
    );
    h.ws.tabs_mut().rename_shown("monitor");
    h.ws.apply(Action::NewTab);
    let text = crate::workspace::profile_save::to_toml(&h.ws, "x");
    assert!(text.contains("name = \"monitor\""), "{text}");
    assert!(text.contains("title = \"load\""), "{text}");
    assert_eq!(
        text.matches("name = ").count(),
        1,
        "the new tab names itself: {text}"
    );
    let profile = crate::config::profile::parse(&text, std::path::Path::new("x.toml")).unwrap();
    assert_eq!(profile.tabs[0].name.as_deref(), Some("monitor"));
    let mut reopened = Harness::new(false);
    reopened.ws.open_profile(&profile);
    assert_eq!(reopened.ws.tabs().name(0, reopened.ws.panes()), "monitor");
    let pane = reopened.ws.tabs()[0].focus;
    assert_eq!(reopened.ws.panes().title(pane), "load");
}

/// `C-b e`: the focused pane's history goes to a private file that an
/// editor opens in a floating pane; the file goes when that pane closes
/// (here: the editor exits).
#[test]
fn edit_scrollback_floats_an_editor_on_a_private_copy_of_the_history() {
    let mut h = Harness::with_program(false, "sh");
    let shell = h.focused();
    let mut output = Vec::new();
    for i in 1..=60 {
        output.extend_from_slice(format!("row {i}\r\n").as_bytes());
    }
    h.fake.print(shell, &output);
    let p = h.ws.panes_mut().get_mut(shell).unwrap();
    while let Some(chunk) = p.program_mut().try_output() {
        p.feed(chunk);
    }

    assert!(!h.ws.apply(Action::EditScrollback), "nothing to draw yet");
    let event = h
        .events
        .recv_timeout(Duration::from_secs(30))
        .expect("the history is written");
    let PaneEvent::HistoryFile(from, Ok(file)) = event else {
        panic!("not a written history");
    };
    assert_eq!(from, shell);
    let path = file.to_path_buf();
    let text = std::fs::read_to_string(&path).unwrap();
    let expected: String = (1..=60).map(|i| format!("row {i}\n")).collect();
    assert_eq!(text, expected);
    assert_eq!(crate::config::private_file::mode_of(&path), "600");

    let editor =
        h.ws.open_history_editor(from, file)
            .expect("an editor pane");
    assert!(h.ws.tabs.is_floating(editor));
    assert_eq!(h.focused(), editor);
    let argv = h.fake.spec(editor).unwrap().argv;
    assert_eq!(argv.last().map(String::as_str), path.to_str());

    h.exit(editor, 0);
    assert!(
        h.ws.panes().get(editor).is_none(),
        "the editor's pane closed"
    );
    assert!(!path.exists(), "the history file is gone");
    assert_eq!(h.focused(), shell);
}

/// Two shells side by side, focus on the left one.
fn two_tiled() -> (Harness, PaneId, PaneId) {
    let mut h = Harness::with_program(false, "sh");
    let left = h.focused();
    assert!(h.ws.apply(Action::SplitRight));
    let right = h.focused();
    assert!(h.ws.apply(Action::Focus(Direction::Left)));
    (h, left, right)
}

fn floating_rect(h: &Harness, id: PaneId) -> Rect {
    h.ws.tabs
        .shown()
        .and_then(|t| t.floats.rect(id))
        .expect("floating")
}

#[test]
fn a_pinned_floating_pane_stays_on_screen_while_the_others_hide() {
    let mut h = Harness::with_program(false, "sh");
    let shell = h.focused();
    assert!(h.ws.apply(Action::NewFloating));
    let loose = h.focused();
    assert!(h.ws.apply(Action::NewFloating));
    let pinned = h.focused();
    assert!(h.ws.apply(Action::TogglePin));

    assert!(h.ws.apply(Action::ToggleFloating), "hide");
    let ids: Vec<PaneId> =
        h.ws.tiling()
            .visible(h.ws.tabs().shown())
            .into_iter()
            .map(|(id, _)| id)
            .collect();
    assert_eq!(ids, [shell, pinned]);
    assert_eq!(h.focused(), shell, "the tiled pane has the keys");

    // Still a pane on screen: a click focuses it, keys move it.
    let rect = floating_rect(&h, pinned);
    assert_eq!(
        h.ws.focus_at(rect.right() - 2, rect.bottom() - 2),
        Some(pinned)
    );
    assert!(h.ws.apply(Action::MoveFloating(Direction::Left)));
    assert_eq!(floating_rect(&h, pinned).x, rect.x - 2);

    // Shown again: all of them; unpinned, it hides with the rest.
    assert!(h.ws.apply(Action::ToggleFloating));
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 3);
    assert!(h.ws.apply(Action::TogglePin));
    assert!(h.ws.apply(Action::ToggleFloating));
    let ids: Vec<PaneId> =
        h.ws.tiling()
            .visible(h.ws.tabs().shown())
            .into_iter()
            .map(|(id, _)| id)
            .collect();
    assert_eq!(ids, [shell]);
    assert!(!h.ws.tabs.shown().unwrap().floats.is_pinned(loose));
}

#[test]
fn focus_next_goes_through_the_tiled_panes_then_the_floating_ones_on_screen() {
    let (mut h, left, right) = two_tiled();
    assert!(h.ws.apply(Action::NewFloating));
    let first = h.focused();
    assert!(h.ws.apply(Action::NewFloating));
    let second = h.focused();

    let mut seen = Vec::new();
    for _ in 0..4 {
        assert!(h.ws.apply(Action::FocusNext));
        seen.push(h.focused());
        // A floating pane that gets the focus comes to the top.
        if h.ws.tabs.is_floating(h.focused()) {
            assert_eq!(h.ws.tabs.shown().unwrap().floats.top(), Some(h.focused()));
        }
    }
    assert_eq!(seen, [left, right, first, second]);
    assert!(h.ws.apply(Action::FocusPrev));
    assert_eq!(h.focused(), first);

    // Hidden floating panes are not in the round.
    assert!(h.ws.apply(Action::ToggleFloating));
    assert_eq!(h.focused(), right, "back to the tiled pane focused last");
    assert!(h.ws.apply(Action::FocusNext));
    assert!(h.ws.apply(Action::FocusNext));
    assert_eq!(h.focused(), right);
}

#[test]
fn directional_focus_reaches_a_floating_pane_and_leaves_it_either_side() {
    let (mut h, left, right) = two_tiled();
    assert!(h.ws.apply(Action::NewFloating));
    let float = h.focused();
    // Centred over both: right of the left pane's centre, left of the
    // right one's.
    assert!(h.ws.apply(Action::Focus(Direction::Right)));
    assert_eq!(h.focused(), right);
    assert!(h.ws.apply(Action::Focus(Direction::Left)));
    assert_eq!(
        h.focused(),
        float,
        "the floating pane is nearer than the left one"
    );
    assert!(h.ws.apply(Action::Focus(Direction::Left)));
    assert_eq!(h.focused(), left);
    assert!(h.ws.apply(Action::Focus(Direction::Right)));
    assert_eq!(h.focused(), float);

    // Hidden, it is out of the way.
    assert!(h.ws.apply(Action::ToggleFloating));
    assert_eq!(h.focused(), left);
    assert!(h.ws.apply(Action::Focus(Direction::Right)));
    assert_eq!(h.focused(), right);
}

/// A profile's floating panes open hidden over their tab (the pinned one
/// shown), `C-b w` shows them; saved and opened again, they are the same.
#[test]
fn floating_panes_come_from_a_profile_and_go_back_into_a_saved_one() {
    let text = r#"
[[tab]]
layout = { split = "right", panes = [{ command = "vim" }, { command = "htop", float = true, pinned = true }] }
floating = [{ command = "lazygit", title = "git" }]
"#;
    let profile = crate::config::profile::parse(text, std::path::Path::new("p.toml")).unwrap();
    let mut h = Harness::new(false);
    h.ws.open_profile(&profile);
    let tab = h.ws.tabs.shown().unwrap();
    assert_eq!(tab.layout.panes().len(), 1);
    let floats: Vec<PaneId> = tab.floats.iter().map(|f| f.id).collect();
    let [htop, lazygit] = floats[..] else {
        panic!("two floating panes: {floats:?}")
    };
    assert!(h.ws.tabs.is_floating(htop) && h.ws.panes().get(htop).is_some());
    let vim = h.focused();
    assert!(!h.ws.tabs.is_floating(vim), "the tiled pane has the focus");
    let ids: Vec<PaneId> =
        h.ws.tiling()
            .visible(h.ws.tabs().shown())
            .into_iter()
            .map(|(id, _)| id)
            .collect();
    assert_eq!(ids, [vim, htop], "only the pinned one is on screen");
    assert!(h.ws.apply(Action::ToggleFloating));
    assert_eq!(h.focused(), lazygit);
    assert_eq!(h.ws.panes().title(lazygit), "git");

    let saved = crate::workspace::profile_save::to_toml(&h.ws, "p");
    assert!(saved.contains("[[tab.floating]]"), "{saved}");
    let again = crate::config::profile::parse(&saved, std::path::Path::new("p.toml")).unwrap();
    let mut reopened = Harness::new(false);
    reopened.ws.open_profile(&again);
    let tab = reopened.ws.tabs.shown().unwrap();
    let pinned: Vec<bool> = tab.floats.iter().map(|f| f.pinned).collect();
    assert_eq!(pinned, [true, false]);
    // The floating pane had the focus: it has it again, shown.
    assert!(reopened.ws.tabs.is_floating(reopened.focused()));
    assert_eq!(reopened.ws.panes().title(reopened.focused()), "git");
    assert_eq!(
        reopened
            .ws
            .tiling()
            .visible(reopened.ws.tabs().shown())
            .len(),
        3
    );
}

/// Moved and resized, a floating pane is saved where it is and opens
/// there again; a profile can place one by cells or by percentages.
#[test]
fn a_floating_panes_box_is_saved_and_comes_back() {
    let mut h = Harness::with_program(false, "sh");
    assert!(h.ws.apply(Action::NewFloating));
    let float = h.focused();
    let opened = floating_rect(&h, float);
    for _ in 0..3 {
        assert!(h.ws.apply(Action::MoveFloating(Direction::Left)));
        assert!(h.ws.apply(Action::Resize(Direction::Left)));
    }
    assert!(h.ws.apply(Action::MoveFloating(Direction::Up)));
    let moved = floating_rect(&h, float);
    assert_ne!(moved, opened);

    let saved = crate::workspace::profile_save::to_toml(&h.ws, "p");
    let again = crate::config::profile::parse(&saved, std::path::Path::new("p.toml")).unwrap();
    let mut reopened = Harness::new(false);
    reopened.ws.open_profile(&again);
    let tab = reopened.ws.tabs.shown().unwrap();
    let rects: Vec<Rect> = tab.floats.iter().map(|f| f.rect).collect();
    assert_eq!(rects, [moved], "{saved}");

    let text = r#"
[[tab]]
layout = { }
floating = [{ x = "50%", y = 0, width = "50%", height = 5 }, { width = 9999 }]
"#;
    let profile = crate::config::profile::parse(text, std::path::Path::new("p.toml")).unwrap();
    let mut placed = Harness::new(false);
    placed.ws.open_profile(&profile);
    let tab = placed.ws.tabs.shown().unwrap();
    let rects: Vec<Rect> = tab.floats.iter().map(|f| f.rect).collect();
    let area = placed.ws.tiling().area();
    assert_eq!(
        rects[0],
        Rect::new(area.x + area.width / 2, area.y, area.width / 2, 5)
    );
    // Too wide for the screen: kept inside it.
    assert!(rects[1].width <= area.width && rects[1].right() <= area.right());
}

#[test]
fn a_profiles_names_and_commands_reach_borders_without_controls_or_bidi_overrides() {
    let evil = "P\u{1b}]52;c;aGk=\u{7}\u{9b}31m\u{202e}evil";
    let h = Harness::with_commands(
        false,
        vec![
            PaneSpec {
                command: Some("htop".into()),
                title: Some(evil.into()),
                ..PaneSpec::default()
            },
            PaneSpec {
                command: Some(format!("true {evil}")),
                ..PaneSpec::default()
            },
        ],
    );
    let shown_is_clean = |text: &str| {
        !text
            .chars()
            .any(|c| c.is_control() || crate::sanitize::is_bidi_control(c))
    };
    let tab = &h.ws.tabs()[0];
    let panes = tab.layout.panes();
    assert_eq!(panes.len(), 2);
    for id in panes {
        let title = h.ws.panes().title(id).to_string();
        assert!(shown_is_clean(&title), "{title:?}");
        assert!(title.contains("evil"), "{title:?}");
    }
    let mut named = Harness::new(false);
    named.ws.open_profile(&Profile {
        name: "test".into(),
        tabs: vec![TabSpec {
            name: Some(evil.into()),
            layout: LayoutSpec::Pane(PaneSpec::default()),
            floating: Vec::new(),
        }],
    });
    let name = named.ws.tabs().name(0, named.ws.panes());
    assert!(shown_is_clean(&name) && name.contains("evil"), "{name:?}");
}

/// Issue 33's rough edges: a failing command pane backs off and gives
/// up, a kept pane's status, saved profiles one key per line.
mod rough_edges;
mod saved_layout;
mod views;
