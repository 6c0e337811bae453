//! The layers headless: keys in, the UI state and the commands for the
//! loop out. Programs run through the workspace's fake launcher, so a test
//! reads exactly the bytes a program was sent; history replays and
//! searches run on their threads and the test hands their results over as
//! the loop does.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::config::action::RESIZE_STEP;
use crate::config::keymap::Keymap;
use crate::input::router::{Command, InputRouter, Outcome};
use crate::input::search_worker::{PaneMatches, SearchReport};
use crate::input::ui_state::{Mode, REPEAT_TIME, WHICH_KEY_DELAY};
use crate::mailbox::Mailbox;
use crate::pane::PaneId;
use crate::pane::event::PaneEvent;
use crate::pane::program::process::fake::FakeLauncher;
use crate::workspace::Workspace;
use crate::workspace::foreground::Foreground;

const AREA: Rect = Rect {
    x: 0,
    y: 0,
    width: 60,
    height: 12,
};

/// How long a replay or search thread may take on a busy machine.
const LIMIT: Duration = Duration::from_secs(30);

/// A router over a headless workspace, and the loop's part: it hands the
/// What other threads report, as the loop's channel carries it.
enum Report {
    Pane(PaneEvent),
    Search(SearchReport),
}

/// router what other threads report.
struct Harness {
    router: InputRouter,
    ws: Workspace,
    fake: FakeLauncher,
    events: Receiver<Report>,
}

impl Harness {
    /// One pane running a program that has printed `output`.
    fn new(output: &str) -> Self {
        Self::with_keymap(output, Keymap::default())
    }

    /// [`Harness::new`] with these bindings.
    fn with_keymap(output: &str, keymap: Keymap) -> Self {
        let (tx, events) = bounded(256);
        let panes = Mailbox::wrapping(tx.clone(), Report::Pane);
        let fake = FakeLauncher::new(panes.clone());
        let settings = crate::workspace::fake_workspace::settings();
        let mut ws = Workspace::with_launcher(settings, AREA, panes, Box::new(fake.clone()));
        let first = crate::workspace::fake_workspace::launch(&ws, "sh");
        ws.open_row(vec![first]);
        let mut h = Self {
            router: InputRouter::new(keymap, false, Mailbox::wrapping(tx, Report::Search)),
            ws,
            fake,
            events,
        };
        let id = h.focused();
        h.print(id, output);
        h
    }

    fn focused(&self) -> PaneId {
        self.ws.tabs().focused_id().expect("a focused pane")
    }

    /// Pane `id`'s program prints `text`; the pane reads and parses it.
    fn print(&mut self, id: PaneId, text: &str) {
        self.fake.print(id, text.replace('\n', "\r\n").as_bytes());
        let pane = self.ws.panes_mut().get_mut(id).unwrap();
        while let Some(chunk) = pane.program_mut().try_output() {
            pane.feed(chunk);
        }
        pane.settle();
    }

    fn press(&mut self, code: KeyCode, modifiers: KeyModifiers) -> Outcome {
        self.router
            .handle_key(&mut self.ws, &KeyEvent::new(code, modifiers))
    }

    fn key(&mut self, code: KeyCode) -> Outcome {
        self.press(code, KeyModifiers::NONE)
    }

    /// Types `text`; returns what all of it did.
    fn type_text(&mut self, text: &str) -> Outcome {
        let mut out = Outcome::default();
        for c in text.chars() {
            out.merge(self.key(KeyCode::Char(c)));
        }
        out
    }

    /// The prefix (`C-b`), then `c`.
    fn prefix(&mut self, c: char) -> Outcome {
        self.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
        self.key(KeyCode::Char(c))
    }

    fn mouse(&mut self, kind: MouseEventKind, column: u16, row: u16) -> Outcome {
        let ev = MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        };
        self.router.handle_mouse(&mut self.ws, &ev)
    }

    /// What the focused pane's program was sent.
    fn sent(&self) -> String {
        String::from_utf8_lossy(&self.fake.input(self.focused())).into_owned()
    }

    /// Waits for the history replay and hands it over, as the loop does.
    fn history_lands(&mut self) -> Outcome {
        let deadline = Instant::now() + LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left).expect("a history replay") {
                Report::Pane(PaneEvent::HistoryReady(id, history)) => {
                    self.ws
                        .panes_mut()
                        .get_mut(id)
                        .unwrap()
                        .history_mut()
                        .history_ready(history);
                    return self.router.history_arrived(&mut self.ws);
                }
                Report::Search(report) => {
                    self.router.search_result(&mut self.ws, report);
                }
                _ => {}
            }
        }
    }

    /// Waits until the copy-mode search has its latest result.
    fn search_lands(&mut self) {
        let deadline = Instant::now() + LIMIT;
        while self.searching() {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Report::Search(report) = self.events.recv_timeout(left).expect("a search result")
            {
                self.router.search_result(&mut self.ws, report);
            }
        }
    }

    fn searching(&self) -> bool {
        self.router
            .ui()
            .copy()
            .view()
            .and_then(|c| c.search.as_ref())
            .is_some_and(|s| s.is_searching())
    }

    fn mode(&self) -> Mode {
        self.router.ui().mode()
    }

    fn notice(&self) -> String {
        self.router.ui().notice().unwrap_or_default().to_string()
    }

    fn prompt_text(&self) -> Option<String> {
        self.router
            .popups()
            .get::<crate::input::popups::prompt::Prompt>()
            .map(|p| p.text.clone())
    }

    fn scrolled(&self, id: PaneId) -> bool {
        self.ws.panes().get(id).unwrap().history().is_scrolled()
    }

    /// Copy mode on the focused pane, its history there.
    fn enter_copy_mode(&mut self) {
        self.prefix('[');
        self.history_lands();
        assert!(self.router.ui().copy().is_active());
    }
}

// ---- normal typing and the prefix ----

#[test]
fn typed_keys_go_to_the_focused_program_and_its_echo_is_awaited() {
    let mut h = Harness::new("");
    let out = h.type_text("ls");
    h.key(KeyCode::Enter);
    assert_eq!(h.sent(), "ls\r");
    assert_eq!(out.sent_to, Some(h.focused()));
    assert!(out.commands.is_empty());
}

#[test]
fn a_key_release_does_nothing() {
    let mut h = Harness::new("");
    let mut release = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    assert_eq!(h.router.handle_key(&mut h.ws, &release), Outcome::default());
    assert_eq!(h.sent(), "");
}

#[test]
fn the_key_after_the_prefix_is_a_command_and_an_unbound_one_is_swallowed() {
    let mut h = Harness::new("");
    let out = h.prefix('%');
    assert!(out.redraw);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 2, "split");
    assert_eq!(h.mode(), Mode::Normal);

    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    assert_eq!(h.mode(), Mode::Prefix);
    h.key(KeyCode::F(5));
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.sent(), "", "nothing reached the program");
}

#[test]
fn the_prefix_twice_sends_it_to_the_program() {
    let mut h = Harness::new("");
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    let out = h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    assert_eq!(h.sent(), "\x02");
    assert_eq!(out.sent_to, Some(h.focused()));
}

#[test]
fn which_key_pops_up_when_the_prefix_waits() {
    let mut h = Harness::new("");
    let before = Instant::now();
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    let due = h.router.next_deadline().expect("the popup's deadline");
    assert!(due >= before + WHICH_KEY_DELAY);
    assert!(!h.router.tick(due - Duration::from_millis(1)));
    assert!(!h.router.ui().which_key_shown());
    assert!(h.router.tick(due));
    assert!(h.router.ui().which_key_shown());

    h.key(KeyCode::Char('%'));
    assert!(!h.router.ui().which_key_shown());
}

// ---- repeating commands (tmux's `bind -r`) ----

const C_LEFT: (KeyCode, KeyModifiers) = (KeyCode::Left, KeyModifiers::CONTROL);
/// What xterm sends for `C-Left`: a key that reached the program.
const C_LEFT_BYTES: &str = "\x1b[1;5D";

impl Harness {
    /// Two panes side by side, the right one focused.
    fn side_by_side() -> Self {
        let mut h = Harness::new("");
        h.prefix('%');
        assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 2);
        h
    }

    /// The left pane's width: `C-Left` from the right pane shrinks it.
    fn left_width(&self) -> u16 {
        self.ws.tiling().visible(self.ws.tabs().shown())[0].1.width
    }

    fn c_left(&mut self) -> Outcome {
        self.press(C_LEFT.0, C_LEFT.1)
    }

    fn ctrl_b(&mut self) {
        self.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    }
}

#[test]
fn after_the_prefix_a_resize_key_repeats_without_it() {
    let mut h = Harness::side_by_side();
    let start = h.left_width();
    h.ctrl_b();
    h.c_left();
    assert_eq!(h.left_width(), start - RESIZE_STEP);
    assert!(h.router.ui().repeating());
    let out = h.c_left();
    assert!(out.redraw);
    h.c_left();
    assert_eq!(
        h.left_width(),
        start - 3 * RESIZE_STEP,
        "C-b C-Left C-Left C-Left"
    );
    assert_eq!(h.sent(), "", "no C-Left reached the program");
    assert_eq!(h.mode(), Mode::Normal);
}

#[test]
fn the_vi_resize_keys_repeat_and_mix_with_the_arrows() {
    let mut h = Harness::side_by_side();
    let start = h.left_width();
    h.prefix('H');
    h.key(KeyCode::Char('H'));
    h.c_left();
    h.key(KeyCode::Char('L'));
    assert_eq!(h.left_width(), start - 2 * RESIZE_STEP, "3 left, 1 right");
    assert_eq!(h.sent(), "");
}

#[test]
fn after_the_repeat_time_a_resize_key_goes_to_the_program() {
    let mut h = Harness::side_by_side();
    let start = h.left_width();
    let before = Instant::now();
    h.ctrl_b();
    h.c_left();
    let due = h.router.next_deadline().expect("the repeat's end");
    assert!(due >= before + REPEAT_TIME);
    assert!(!h.router.tick(due - Duration::from_millis(1)));
    assert!(h.router.ui().repeating());
    assert!(h.router.tick(due), "the status bar's REPEAT goes");
    assert!(!h.router.ui().repeating());
    assert_eq!(h.router.next_deadline(), None);

    h.c_left();
    assert_eq!(h.sent(), C_LEFT_BYTES);
    assert_eq!(h.left_width(), start - RESIZE_STEP, "moved once");
}

#[test]
fn each_repeat_starts_the_repeat_time_again() {
    let mut h = Harness::side_by_side();
    let start = h.left_width();
    h.ctrl_b();
    h.c_left();
    let first_due = h.router.next_deadline().unwrap();
    h.c_left();
    let second_due = h.router.next_deadline().unwrap();
    assert!(second_due > first_due);
    // Past the first press's time, within the second's: still repeating.
    assert!(!h.router.tick(first_due));
    h.c_left();
    assert_eq!(h.left_width(), start - 3 * RESIZE_STEP);
    assert_eq!(h.sent(), "");
}

#[test]
fn a_key_that_does_not_repeat_ends_the_repeat_and_reaches_the_program() {
    let mut h = Harness::side_by_side();
    let start = h.left_width();
    h.ctrl_b();
    h.c_left();
    // `x` after the prefix closes the pane; in a repeat it is typed, as
    // in tmux: the repeat gives no second prefix.
    let out = h.key(KeyCode::Char('x'));
    assert_eq!(h.sent(), "x");
    assert_eq!(out.sent_to, Some(h.focused()));
    assert!(out.redraw, "REPEAT leaves the status bar");
    assert_eq!(
        h.ws.tiling().visible(h.ws.tabs().shown()).len(),
        2,
        "nothing closed"
    );
    assert!(!h.router.ui().repeating());
    h.c_left();
    assert_eq!(h.sent(), format!("x{C_LEFT_BYTES}"), "the repeat is over");
    assert_eq!(h.left_width(), start - RESIZE_STEP);
}

#[test]
fn a_key_that_does_not_repeat_keeps_its_direct_binding_and_the_prefix_its_table() {
    let mut h = Harness::side_by_side();
    h.ctrl_b();
    h.c_left();
    h.press(KeyCode::Char('z'), KeyModifiers::ALT);
    assert!(h.ws.tabs().shown().unwrap().zoomed, "M-z zooms");
    h.press(KeyCode::Char('z'), KeyModifiers::ALT);

    h.ctrl_b();
    h.c_left();
    h.prefix('%');
    assert_eq!(
        h.ws.tiling().visible(h.ws.tabs().shown()).len(),
        3,
        "C-b % splits"
    );
    assert_eq!(h.sent(), "");
}

#[test]
fn focus_moves_do_not_repeat() {
    let mut h = Harness::side_by_side();
    let right = h.focused();
    h.ctrl_b();
    h.key(KeyCode::Left);
    assert_ne!(h.focused(), right);
    assert!(!h.router.ui().repeating());
    h.key(KeyCode::Right);
    assert_eq!(
        h.sent(),
        "\x1b[C",
        "the program just focused gets the arrow"
    );
}

#[test]
fn a_resize_from_a_script_does_not_start_a_repeat() {
    let mut h = Harness::side_by_side();
    h.router.run_action(
        &mut h.ws,
        crate::config::action::Action::Resize(crate::config::action::Direction::Left),
    );
    assert!(!h.router.ui().repeating());
    h.c_left();
    assert_eq!(h.sent(), C_LEFT_BYTES);
}

#[test]
fn a_repeat_time_of_zero_turns_repeating_off() {
    let mut h = Harness::side_by_side();
    let searches = h.router.searches();
    h.router =
        InputRouter::new(Keymap::default(), false, searches).with_repeat_time(Duration::ZERO);
    h.ctrl_b();
    h.c_left();
    assert!(!h.router.ui().repeating());
    h.c_left();
    assert_eq!(h.sent(), C_LEFT_BYTES);
}

#[test]
fn in_copy_mode_a_resize_repeats_and_copy_mode_stays() {
    let mut h = Harness::new(&"line\n".repeat(5));
    h.prefix('%');
    let start = h.left_width();
    h.enter_copy_mode();
    h.ctrl_b();
    h.c_left();
    h.c_left();
    assert_eq!(h.left_width(), start - 2 * RESIZE_STEP);
    assert_eq!(h.mode(), Mode::Copy);
    h.key(KeyCode::Char('k'));
    assert!(!h.router.ui().repeating());
    assert!(
        h.router.ui().copy().is_active(),
        "k moved copy mode's cursor"
    );
    assert_eq!(h.sent(), "");
}

// ---- help ----

#[test]
fn help_keeps_every_key_from_the_program_q_closes_it_and_the_prefix_toggles_it() {
    let mut h = Harness::new("");
    h.prefix('?');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_some()
    );
    h.type_text("xjj");
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_some(),
        "only q and Esc close it"
    );
    assert_eq!(h.sent(), "");
    h.key(KeyCode::Char('q'));
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_none()
    );

    h.prefix('?');
    h.prefix('?');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_none(),
        "prefix ? closes it again"
    );
    assert_eq!(h.sent(), "", "the prefix reached help, not the program");
}

#[test]
fn help_scrolls_to_its_end_and_filters_as_typed() {
    let mut h = Harness::new("");
    h.prefix('?');
    h.key(KeyCode::Char('G'));
    let help = h
        .router
        .popups()
        .get::<crate::input::popups::help::HelpView>()
        .unwrap()
        .clone();
    let total = crate::input::popups::help::lines(&Keymap::default(), "").len();
    // The harness's screen: 12 rows of panes and the status bar.
    let screen = AREA.height + 1;
    assert_eq!(
        help.first_line(total, screen),
        total - crate::input::popups::help::visible_rows(screen)
    );
    h.key(KeyCode::Char('k'));
    assert_eq!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .unwrap()
            .first_line(total, screen),
        total - crate::input::popups::help::visible_rows(screen) - 1,
        "up from the bottom moves at once"
    );
    h.key(KeyCode::Char('/'));
    h.type_text("quit");
    assert_eq!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .unwrap()
            .filter,
        "quit"
    );
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_some(),
        "q typed into the filter"
    );
    h.key(KeyCode::Esc);
    h.key(KeyCode::Esc);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_none()
    );
    assert_eq!(h.sent(), "");
}

// ---- prompts and what they leave to the loop ----

#[test]
fn the_rename_prompt_takes_the_keys_and_renames_the_tab() {
    let mut h = Harness::new("");
    let name = h.ws.tabs().name(0, h.ws.panes());
    h.prefix(',');
    assert_eq!(h.prompt_text(), Some(name));
    h.press(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("logs");
    h.key(KeyCode::Enter);
    assert_eq!(h.prompt_text(), None);
    assert_eq!(h.ws.tabs().shown().unwrap().name.as_deref(), Some("logs"));
    assert_eq!(h.sent(), "", "the prompt kept the keys");
}

#[test]
fn saving_is_a_command_for_the_loop_and_its_result_a_notice() {
    let mut h = Harness::new("");
    h.prefix('S');
    assert_eq!(h.prompt_text().as_deref(), Some(""));
    h.type_text(" dev ");
    let out = h.key(KeyCode::Enter);
    assert_eq!(out.commands, [Command::SaveProfile("dev".into())]);

    h.router
        .profile_saved("dev", &Ok(PathBuf::from("/p/dev.toml")));
    assert_eq!(h.notice(), "saved: tilework --profile dev  (/p/dev.toml)");
    h.prefix('S');
    assert_eq!(h.prompt_text().as_deref(), Some("dev"), "offered next time");
    h.key(KeyCode::Esc);

    h.router
        .profile_saved("x", &Err::<PathBuf, _>(anyhow::anyhow!("disk full")));
    assert_eq!(h.notice(), "not saved: disk full");
}

#[test]
fn a_profile_needs_a_name() {
    let mut h = Harness::new("");
    h.prefix('S');
    let out = h.key(KeyCode::Enter);
    assert!(out.commands.is_empty());
    assert_eq!(h.notice(), "not saved: a profile needs a name");
}

// ---- search across panes ----

#[test]
fn a_search_across_panes_asks_the_loop_to_search_each_and_lists_results() {
    let mut h = Harness::new("hello world\n");
    let id = h.focused();
    h.prefix('F');
    h.type_text("hel+o");
    let out = h.key(KeyCode::Enter);
    assert_eq!(
        out.commands,
        [Command::SearchPanes {
            pattern: "hel+o".into(),
            panes: vec![id],
        }]
    );
    assert_eq!(
        h.router
            .popups()
            .get::<crate::input::popups::search_all::SearchAllResults>()
            .unwrap()
            .pending,
        1
    );

    let matches = PaneMatches {
        pane: id,
        pattern: "hel+o".into(),
        count: 1,
        lines: vec!["hello world".into()],
    };
    h.router
        .search_result(&mut h.ws, SearchReport::AllPanes(matches));
    let results = h
        .router
        .popups()
        .get::<crate::input::popups::search_all::SearchAllResults>()
        .unwrap();
    assert_eq!((results.pending, results.panes.len()), (0, 1));
    assert_eq!(
        (
            results.panes[0].place.as_str(),
            results.panes[0].title.as_str()
        ),
        ("tab 1 · pane 1", "sh")
    );
}

#[test]
fn enter_on_a_result_line_opens_its_pane_in_copy_mode_on_that_match() {
    let mut h = Harness::new("");
    let left = h.focused();
    h.prefix('%');
    let right = h.focused();
    h.print(left, "error one\nfine\nerror two\nerror three\n");
    h.prefix('F');
    h.type_text("error");
    let out = h.key(KeyCode::Enter);
    let [Command::SearchPanes { panes, .. }] = out.commands.as_slice() else {
        panic!("{:?}", out.commands)
    };
    assert_eq!(panes, &[left, right]);
    for pane in [left, right] {
        let source = h.ws.panes().get(pane).unwrap().history().ring_copy();
        let found = crate::input::search_all::search(pane, &source, "error");
        h.router
            .search_result(&mut h.ws, SearchReport::AllPanes(found));
    }
    let results = h
        .router
        .popups()
        .get::<crate::input::popups::search_all::SearchAllResults>()
        .unwrap();
    let places: Vec<_> = results.panes.iter().map(|p| p.place.as_str()).collect();
    // Only the pane with a match is listed (issue 33); the other counted.
    assert_eq!(places, ["tab 1 · pane 1"]);
    assert_eq!(results.unmatched, 1);

    // Down to "error two", the second of the three.
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::search_all::SearchAllResults>()
            .is_none()
    );
    assert_eq!(h.focused(), left);
    assert_eq!(h.mode(), Mode::Copy);
    assert!(h.prompt_text().is_none(), "no search prompt in the way");
    h.history_lands();
    h.search_lands();
    let copy = h.router.ui().copy().view().unwrap();
    assert_eq!((copy.pane, copy.cursor.row, copy.cursor.col), (left, 2, 0));
    assert_eq!(h.notice(), "search: 2/3 (any case)");

    // The search stays: n goes on to the older match.
    h.key(KeyCode::Char('n'));
    assert_eq!(h.router.ui().copy().view().unwrap().cursor.row, 0);
    assert_eq!(h.sent(), "");
}

#[test]
fn a_bad_pattern_is_refused_at_once_and_nothing_is_searched() {
    let mut h = Harness::new("");
    h.prefix('F');
    h.type_text("(oops");
    let out = h.key(KeyCode::Enter);
    assert!(out.commands.is_empty());
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::search_all::SearchAllResults>()
            .is_none()
    );
    assert!(h.notice().starts_with("bad regex: "), "{}", h.notice());
}

// ---- copy mode ----

#[test]
fn yanking_a_selection_copies_it_leaves_copy_mode_and_pastes_back() {
    let mut h = Harness::new("hello world\n");
    let id = h.focused();
    h.enter_copy_mode();
    assert_eq!(h.mode(), Mode::Copy);
    assert!(h.scrolled(id), "the pane shows its history");

    h.type_text("k0v$");
    let out = h.key(KeyCode::Char('y'));
    assert_eq!(out.commands, [Command::Clipboard("hello world".into())]);
    assert_eq!(h.mode(), Mode::Normal);
    assert!(!h.router.ui().copy().is_active());
    assert!(!h.scrolled(id), "back on the live screen");
    assert_eq!(h.notice(), "copied 11 characters");
    assert_eq!(h.router.ui().copy_buffer().as_deref(), Some("hello world"));

    h.prefix(']');
    assert_eq!(h.sent(), "hello world");
}

/// The focused pane's rows as drawn, top to bottom.
fn shown_rows(h: &Harness) -> Vec<String> {
    let screen = h.ws.panes().get(h.focused()).unwrap().screen();
    let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
    (0..rows)
        .map(|r| screen.contents_between(r, 0, r, cols))
        .collect()
}

/// The copy-mode cursor as a row of the view and that row's text.
fn cursor_on_view(h: &Harness) -> (usize, String) {
    let history =
        h.ws.panes()
            .get(h.focused())
            .unwrap()
            .history()
            .window()
            .unwrap();
    let row = h.router.ui().copy().view().unwrap().cursor.row - history.top_row();
    (row, shown_rows(h)[row].clone())
}

#[test]
fn copy_mode_at_the_bottom_stays_on_its_lines_while_the_program_prints() {
    let lines: String = (1..=40).map(|i| format!("flow-{i}\n")).collect();
    let mut h = Harness::new(&lines);
    let id = h.focused();
    h.enter_copy_mode();
    h.key(KeyCode::Char('k'));
    let before = shown_rows(&h);
    let (row, line) = cursor_on_view(&h);
    assert_eq!(line, "flow-40");
    let offset = |h: &Harness| {
        h.ws.panes()
            .get(id)
            .unwrap()
            .history()
            .window()
            .unwrap()
            .offset()
    };
    assert_eq!(offset(&h), 0, "entered at the bottom");

    let more: String = (41..=100).map(|i| format!("flow-{i}\n")).collect();
    h.print(id, &more);
    // The rows that held output did not move; the last one, where the
    // program's cursor waited, shows the line it went on to write there.
    let after = shown_rows(&h);
    let last = before.len() - 1;
    assert_eq!(after[..last], before[..last], "the view did not move");
    assert_eq!(
        (before[last].as_str(), after[last].as_str()),
        ("", "flow-41")
    );
    assert_eq!(cursor_on_view(&h), (row, line.clone()), "nor the cursor");
    assert_eq!(offset(&h), 60, "the border counts the rows below");

    // Back at the bottom with G, the view stays put again.
    h.key(KeyCode::Char('G'));
    let bottom = shown_rows(&h);
    assert!(bottom.contains(&"flow-100".to_string()), "{bottom:?}");
    h.print(id, "flow-101\nflow-102\n");
    assert_eq!(shown_rows(&h)[..last], bottom[..last]);

    h.print(id, "flow-103\n");
    h.key(KeyCode::Char('q'));
    assert!(!h.scrolled(id), "leaving shows the live screen");
    assert!(shown_rows(&h).contains(&"flow-103".to_string()));
}

#[test]
fn the_line_under_the_copy_cursor_is_the_one_copied_after_more_output() {
    let lines: String = (1..=40).map(|i| format!("flow-{i}\n")).collect();
    let mut h = Harness::new(&lines);
    let id = h.focused();
    h.enter_copy_mode();
    h.type_text("kV");
    let more: String = (41..=100).map(|i| format!("flow-{i}\n")).collect();
    h.print(id, &more);
    let out = h.key(KeyCode::Char('y'));
    assert_eq!(out.commands, [Command::Clipboard("flow-40".into())]);
}

#[test]
fn keys_typed_while_the_history_loads_run_when_it_lands() {
    let mut h = Harness::new("hello world\n");
    h.prefix('[');
    assert_eq!(h.mode(), Mode::Copy);
    assert!(!h.router.ui().copy().is_active(), "still loading");
    h.type_text("k0v$y");
    assert_eq!(h.sent(), "", "the keys waited");

    let out = h.history_lands();
    assert_eq!(out.commands, [Command::Clipboard("hello world".into())]);
    assert_eq!(h.mode(), Mode::Normal);
}

#[test]
fn copy_mode_entered_a_page_back_starts_on_that_page() {
    let lines: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    let mut h = Harness::new(&lines);
    let id = h.focused();
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    h.key(KeyCode::PageUp);
    h.history_lands();
    let top =
        h.ws.panes()
            .get(id)
            .unwrap()
            .history()
            .window()
            .unwrap()
            .top_row();
    h.key(KeyCode::Char('k'));
    let history = h.ws.panes().get(id).unwrap().history().window().unwrap();
    assert_eq!(
        history.top_row(),
        top,
        "k did not jump back to the live screen"
    );
    let row = h.router.ui().copy().view().unwrap().cursor.row;
    assert!(
        (top..top + 10).contains(&row),
        "{row} not on the page at {top}"
    );
}

#[test]
fn the_q_of_fq_typed_while_the_history_loads_is_found_not_leaving() {
    let mut h = Harness::new("to quit\n");
    h.prefix('[');
    h.type_text("kfq");
    assert_eq!(h.mode(), Mode::Copy, "the q waits with the f");
    h.history_lands();
    assert_eq!(h.mode(), Mode::Copy);
    assert_eq!(h.router.ui().copy().view().unwrap().cursor.col, 3);
    assert_eq!(h.sent(), "");
}

#[test]
fn yank_with_nothing_selected_says_how_to_select() {
    let mut h = Harness::new("hello\n");
    h.enter_copy_mode();
    let out = h.key(KeyCode::Char('y'));
    assert!(out.commands.is_empty());
    assert_eq!(h.mode(), Mode::Copy);
    assert!(h.notice().starts_with("nothing selected"));
}

#[test]
fn no_key_in_copy_mode_is_typed_into_the_program_and_only_q_c_c_and_esc_leave() {
    let printable = (' '..='~')
        .filter(|&c| c != 'q')
        .map(|c| (KeyCode::Char(c), KeyModifiers::NONE));
    let named = [
        (KeyCode::Char('e'), KeyModifiers::CONTROL),
        (KeyCode::Char('y'), KeyModifiers::CONTROL),
        // `C-c` leaves, as `q` does (tmux's copy-mode-vi); `C-x` does not.
        (KeyCode::Char('x'), KeyModifiers::CONTROL),
        (KeyCode::Char('x'), KeyModifiers::ALT),
        (KeyCode::Tab, KeyModifiers::NONE),
        (KeyCode::Backspace, KeyModifiers::NONE),
        (KeyCode::Delete, KeyModifiers::NONE),
        (KeyCode::Insert, KeyModifiers::NONE),
        (KeyCode::F(1), KeyModifiers::NONE),
        (KeyCode::Enter, KeyModifiers::NONE),
    ];
    let mut h = Harness::new("hello world\n");
    let id = h.focused();
    for (code, mods) in printable.chain(named) {
        h.enter_copy_mode();
        h.press(code, mods);
        assert_eq!(h.sent(), "", "{code:?} {mods:?} reached the program");
        assert_eq!(h.mode(), Mode::Copy, "{code:?} {mods:?} left copy mode");
        assert!(h.scrolled(id), "{code:?} {mods:?}: still on the history");
        // Out again for the next key: Esc closes what this one opened (a
        // prompt, a count, a find, a selection), then leaves.
        for _ in 0..3 {
            if h.mode() == Mode::Copy {
                h.key(KeyCode::Esc);
            }
        }
        assert_eq!(h.mode(), Mode::Normal, "{code:?} {mods:?}: Esc left");
    }
    assert_eq!(h.sent(), "");
}

#[test]
fn an_unbound_key_says_so_in_the_status_bar() {
    let mut h = Harness::new("hello\n");
    h.enter_copy_mode();
    h.key(KeyCode::Char('x'));
    assert_eq!(h.notice(), "x: not a copy-mode key · q or Esc leaves");
    h.press(KeyCode::Char('E'), KeyModifiers::SHIFT);
    assert_eq!(
        h.notice(),
        "x: not a copy-mode key · q or Esc leaves",
        "E is bound"
    );
    h.press(KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(
        h.notice(),
        "x: not a copy-mode key · q or Esc leaves",
        "C-y is bound"
    );
    // Not `C-c`: it leaves, as in tmux's copy-mode-vi.
    h.press(KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert_eq!(h.notice(), "C-x: not a copy-mode key · q or Esc leaves");
}

/// What copy mode said goes with it: after `q` the bar no longer hints
/// at copy-mode keys. A yank's `copied` is said as copy mode ends, and
/// stays.
#[test]
fn leaving_copy_mode_takes_its_notices_with_it() {
    let mut h = Harness::new("hello\n");
    h.enter_copy_mode();
    h.key(KeyCode::Char('x'));
    assert_eq!(h.notice(), "x: not a copy-mode key · q or Esc leaves");
    h.key(KeyCode::Char('q'));
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.notice(), "");

    h.enter_copy_mode();
    h.key(KeyCode::Char('x'));
    h.key(KeyCode::Esc);
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.notice(), "", "Esc leaves the same way");

    h.enter_copy_mode();
    h.type_text("k0v$");
    h.key(KeyCode::Char('y'));
    assert_eq!(h.notice(), "copied 5 characters");
}

#[test]
fn a_count_and_a_find_take_the_keys_after_them() {
    let mut h = Harness::new("one\ntwo\nthree\nfour x q\n");
    h.enter_copy_mode();
    h.type_text("4k");
    let cursor = h.router.ui().copy().view().unwrap().cursor;
    assert_eq!((cursor.row, cursor.col), (0, 0));
    h.type_text("3jfq");
    let cursor = h.router.ui().copy().view().unwrap().cursor;
    assert_eq!(
        (cursor.row, cursor.col),
        (3, 7),
        "f found the q rather than leaving"
    );
    assert_eq!(h.mode(), Mode::Copy);
    h.key(KeyCode::Char('q'));
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.sent(), "");
}

#[test]
fn keys_bound_without_the_prefix_still_work_in_copy_mode() {
    let mut h = Harness::new("");
    let left = h.focused();
    h.prefix('%');
    h.prefix('o');
    h.print(left, "some output\n");
    h.enter_copy_mode();
    h.press(KeyCode::Char('o'), KeyModifiers::ALT);
    assert_ne!(h.focused(), left, "M-o focused the next pane");
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.sent(), "");
}

#[test]
fn moving_the_focus_away_ends_copy_mode_and_scrolls_its_pane_back() {
    let mut h = Harness::new("");
    let left = h.focused();
    h.prefix('%');
    h.prefix('o');
    assert_eq!(h.focused(), left);
    h.print(left, "some output\n");
    h.enter_copy_mode();
    assert!(h.scrolled(left));

    h.prefix('o');
    assert_ne!(h.focused(), left);
    assert_eq!(h.mode(), Mode::Normal);
    assert!(!h.router.ui().copy().is_active());
    assert!(!h.scrolled(left));
}

#[test]
fn the_prefix_in_copy_mode_runs_a_command_and_returns_to_copy_mode() {
    let mut h = Harness::new("hello\n");
    h.enter_copy_mode();
    h.prefix('?');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_some()
    );
    assert_eq!(h.mode(), Mode::Copy);
}

#[test]
fn search_runs_off_the_loop_and_moves_the_cursor_to_the_match() {
    let mut h = Harness::new("alpha\nbeta\ngamma\n");
    h.enter_copy_mode();
    let start = h.router.ui().copy().view().unwrap().cursor;
    h.key(KeyCode::Char('/'));
    h.type_text("bet");
    h.search_lands();

    let copy = h.router.ui().copy().view().unwrap();
    assert_eq!((copy.cursor.row, copy.cursor.col), (1, 0));
    assert_ne!(copy.cursor, start);
    let prompt = h
        .router
        .popups()
        .get::<crate::input::popups::prompt::Prompt>()
        .unwrap();
    assert_eq!(prompt.status, "1/1 (any case)");

    // Esc clears the search and its highlights; copy mode stays.
    h.key(KeyCode::Esc);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::prompt::Prompt>()
            .is_none()
    );
    assert!(h.router.ui().copy().view().unwrap().search.is_none());
    h.key(KeyCode::Char('q'));
    assert_eq!(h.mode(), Mode::Normal);
}

/// `hit-1` to `hit-5`, each followed by `filler`: hit-i on row 2(i-1).
const HITS: &str = "hit-1\nfiller\nhit-2\nfiller\nhit-3\nfiller\nhit-4\nfiller\nhit-5\nfiller\n";

/// Copy mode, `/pattern` Enter, the search's result handed over.
fn search_in_copy_mode(h: &mut Harness, pattern: &str) {
    h.key(KeyCode::Char('/'));
    h.type_text(pattern);
    h.key(KeyCode::Enter);
    h.search_lands();
}

fn cursor_row(h: &Harness) -> usize {
    h.router.ui().copy().view().unwrap().cursor.row
}

#[test]
fn the_search_counter_follows_n_and_shift_n() {
    let mut h = Harness::new(HITS);
    h.enter_copy_mode();
    search_in_copy_mode(&mut h, "hit");
    assert_eq!(
        (cursor_row(&h), h.notice().as_str()),
        (8, "search: 5/5 (any case)")
    );
    let mut seen = Vec::new();
    for key in "nnnNNN".chars() {
        h.key(KeyCode::Char(key));
        seen.push((cursor_row(&h), h.notice()));
    }
    let want = [(6, 4), (4, 3), (2, 2), (4, 3), (6, 4), (8, 5)]
        .map(|(row, i)| (row, format!("search: {i}/5 (any case)")));
    assert_eq!(seen, want);
    // Past the newest, N wraps to the oldest, and the counter with it.
    h.key(KeyCode::Char('N'));
    assert_eq!(
        (cursor_row(&h), h.notice().as_str()),
        (0, "search: 1/5 (any case)")
    );
    assert_eq!(h.sent(), "");
}

#[test]
fn the_search_counter_follows_n_pressed_before_the_result_lands() {
    let mut h = Harness::new(HITS);
    h.enter_copy_mode();
    h.key(KeyCode::Char('/'));
    h.type_text("hit");
    h.key(KeyCode::Enter);
    // Both kept for the result (the search may already be done: then they
    // move at once).
    h.type_text("nn");
    h.search_lands();
    assert_eq!(
        (cursor_row(&h), h.notice().as_str()),
        (4, "search: 3/5 (any case)")
    );
}

#[test]
fn a_pattern_ending_in_dollar_finds_the_line_ending_so() {
    let mut h = Harness::new("hit-3\nhit-33\nfiller\n");
    h.enter_copy_mode();
    search_in_copy_mode(&mut h, "hit-3$");
    assert_eq!(
        (cursor_row(&h), h.notice().as_str()),
        (0, "search: 1/1 (any case)")
    );
    search_in_copy_mode(&mut h, "filler$");
    assert_eq!(
        (cursor_row(&h), h.notice().as_str()),
        (2, "search: 1/1 (any case)")
    );
}

#[test]
fn leaving_copy_mode_takes_the_search_counter_along_but_not_other_notices() {
    let mut h = Harness::new(HITS);
    h.enter_copy_mode();
    search_in_copy_mode(&mut h, "hit-3");
    assert_eq!(h.notice(), "search: 1/1 (any case)");
    h.key(KeyCode::Char('q'));
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.router.ui().notice(), None, "no counter without copy mode");

    // `C` says the case switched: copy mode's too.
    h.enter_copy_mode();
    search_in_copy_mode(&mut h, "hit-3");
    h.key(KeyCode::Char('C'));
    assert_eq!(h.notice(), "search (exact case)");
    h.key(KeyCode::Esc);
    assert_eq!(h.router.ui().notice(), None);

    // What yanking says is about what was just done: it stays.
    h.enter_copy_mode();
    search_in_copy_mode(&mut h, "hit-3");
    h.type_text("v$");
    h.key(KeyCode::Char('y'));
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.notice(), "copied 5 characters");
}

#[test]
fn a_search_typed_before_the_history_lands_runs_when_it_does() {
    let mut h = Harness::new("alpha\nbeta\n");
    h.prefix('/');
    h.type_text("alp");
    h.key(KeyCode::Enter);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::prompt::Prompt>()
            .is_none()
    );
    h.history_lands();
    h.search_lands();
    let copy = h.router.ui().copy().view().unwrap();
    let search = copy.search.as_ref().expect("the search ran");
    assert_eq!(search.pattern, "alp");
    assert_eq!(copy.cursor.row, 0);
}

// ---- the mouse ----

#[test]
fn a_mouse_drag_selects_and_letting_go_copies() {
    let mut h = Harness::new("hello world\n");
    // The pane's text starts inside its border, at (1, 1).
    h.mouse(MouseEventKind::Down(MouseButton::Left), 1, 1);
    h.mouse(MouseEventKind::Drag(MouseButton::Left), 5, 1);
    assert!(h.router.ui().mouse_selection().is_some());
    let out = h.mouse(MouseEventKind::Up(MouseButton::Left), 5, 1);
    assert_eq!(out.commands, [Command::Clipboard("hello".into())]);
    assert_eq!(h.router.ui().copy_buffer().as_deref(), Some("hello"));

    // The next key ends the highlight and goes on to the program.
    h.key(KeyCode::Char('a'));
    assert!(h.router.ui().mouse_selection().is_none());
    assert_eq!(h.sent(), "a");
}

#[test]
fn the_wheel_scrolls_the_floating_pane_it_is_over_not_the_one_under() {
    let mut h = Harness::new(&"old line\n".repeat(40));
    let tiled = h.focused();
    h.prefix('w');
    let float = h.focused();
    assert_ne!(float, tiled);
    let rect =
        h.ws.tabs()
            .shown()
            .and_then(|t| t.floats.rect(float))
            .unwrap();
    h.mouse(
        MouseEventKind::ScrollUp,
        rect.x + rect.width / 2,
        rect.y + rect.height / 2,
    );
    assert!(h.scrolled(float));
    assert!(!h.scrolled(tiled));
}

#[test]
fn a_plain_click_selects_nothing() {
    let mut h = Harness::new("hello world\n");
    h.mouse(MouseEventKind::Down(MouseButton::Left), 3, 1);
    let out = h.mouse(MouseEventKind::Up(MouseButton::Left), 3, 1);
    assert!(out.commands.is_empty());
    assert!(h.router.ui().mouse_selection().is_none());
}

// ---- asking before a close or quit ----

/// The harness's programs: `program` in the foreground of every pane
/// (`None`: each pane's shell is at its prompt).
fn with_foreground(h: &mut Harness, program: Option<&'static str>) {
    h.ws.panes_mut()
        .names_mut()
        .set_foreground_probe(Box::new(move |_| {
            Some(Foreground {
                program: program.unwrap_or("sh").to_string(),
                is_pane_process: program.is_none(),
            })
        }));
}

#[test]
fn closing_a_pane_at_its_shell_prompt_asks_nothing() {
    let mut h = Harness::new("");
    with_foreground(&mut h, None);
    h.prefix('%');
    let right = h.focused();
    h.prefix('x');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .is_none()
    );
    assert!(h.ws.panes().get(right).is_none(), "closed at once");
}

#[test]
fn closing_a_busy_pane_asks_and_only_y_closes_it() {
    let mut h = Harness::new("");
    with_foreground(&mut h, Some("vim"));
    h.prefix('%');
    let right = h.focused();
    h.prefix('x');
    let question = h
        .router
        .popups()
        .get::<crate::input::popups::confirm::Confirm>()
        .expect("a question")
        .question
        .clone();
    assert!(
        question.contains("close the pane") && question.contains("vim"),
        "{question}"
    );
    assert!(h.ws.panes().get(right).is_some(), "not closed yet");
    h.key(KeyCode::Char('n'));
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .is_none()
    );
    assert!(h.ws.panes().get(right).is_some(), "n keeps it");
    assert_eq!(
        h.fake.input(right),
        b"",
        "the answer did not reach the program"
    );

    h.prefix('x');
    h.key(KeyCode::Char('y'));
    assert!(h.ws.panes().get(right).is_none(), "y closes it");
}

#[test]
fn closing_a_busy_tab_or_quitting_asks_first() {
    let mut h = Harness::new("");
    with_foreground(&mut h, Some("sleep"));
    h.prefix('&');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .unwrap()
            .question
            .contains("close the tab")
    );
    h.key(KeyCode::Esc);
    assert_eq!(h.ws.tabs().len(), 1);
    h.prefix('?');
    h.prefix('Q');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .unwrap()
            .question
            .contains("quit tilework? it stops sleep")
    );
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::help::HelpView>()
            .is_none(),
        "help closed to show the question"
    );
    h.key(KeyCode::Char('y'));
    assert_eq!(h.ws.ending().code(), Some(0));
}

/// `n` says `nothing closed`; the next close, answered `y`, closes the tab
/// and that notice is gone with it (it read as the answer to `y`).
#[test]
fn a_closes_answer_replaces_the_notice_of_the_one_before() {
    let mut h = Harness::new("");
    with_foreground(&mut h, Some("sleep"));
    h.prefix('c');
    assert_eq!(h.ws.tabs().len(), 2);
    h.prefix('&');
    h.key(KeyCode::Char('n'));
    assert_eq!(h.notice(), "nothing closed");
    assert_eq!(h.ws.tabs().len(), 2);

    h.prefix('&');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .is_some(),
        "asked again"
    );
    assert_eq!(h.notice(), "", "the close is a new command");
    h.key(KeyCode::Char('y'));
    assert_eq!(h.ws.tabs().len(), 1, "y closed the tab");
    assert_eq!(h.notice(), "");
}

/// A notice from before the question (here the answer to an earlier one)
/// does not outlive the answer, whatever it is.
#[test]
fn an_answer_takes_an_older_notice_off_the_bar() {
    let mut h = Harness::new("");
    with_foreground(&mut h, Some("vim"));
    h.prefix('%');
    h.prefix('x');
    h.router.notify("saved: tilework --profile dev".into());
    h.key(KeyCode::Char('y'));
    assert_eq!(
        h.ws.tabs().shown().unwrap().layout.panes().len(),
        1,
        "closed"
    );
    assert_eq!(h.notice(), "");
}

/// Every bound command starts with a clear bar and says only its own
/// outcome: one with nothing to say leaves none.
#[test]
fn a_command_replaces_the_notice_of_the_command_before() {
    let mut h = Harness::new("");
    h.prefix('B');
    assert!(h.notice().starts_with("broadcast on"), "{}", h.notice());
    h.prefix(']');
    assert_eq!(h.notice(), "nothing copied yet");
    h.prefix('%');
    assert_eq!(h.notice(), "", "a split says nothing");
}

#[test]
fn with_confirm_close_off_nothing_is_asked() {
    let mut h = Harness::new("");
    with_foreground(&mut h, Some("vim"));
    let keymap = Keymap::default();
    let searches = h.router.searches();
    h.router = InputRouter::new(keymap, false, searches).with_confirm_close(false);
    h.prefix('Q');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .is_none()
    );
    assert_eq!(h.ws.ending().code(), Some(0));
}

mod extending;
/// tmux's muscle memory: `C-b l ; q i ' . < > : $`, and keys that do
/// nothing saying why.
mod habits;

// ---- vim-tmux-navigator's move ----

#[test]
fn navigate_sends_its_key_to_vim_in_front_and_moves_the_focus_from_anything_else() {
    use crate::config::action::{Action, Direction};
    let mut h = Harness::new("");
    h.prefix('%');
    let right = h.focused();
    with_foreground(&mut h, Some("nvim"));
    h.router
        .run_action(&mut h.ws, Action::Navigate(Direction::Left));
    assert_eq!(h.focused(), right, "vim keeps the key");
    assert!(h.sent().ends_with('\u{8}'), "{:?}", h.sent());
    with_foreground(&mut h, None);
    h.router
        .run_action(&mut h.ws, Action::Navigate(Direction::Left));
    assert_ne!(h.focused(), right, "a shell's pane is left");
}
