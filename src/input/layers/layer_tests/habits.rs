//! tmux's muscle memory (`C-b l ; q i ' . < > : $`), the unbound-key
//! message after the prefix, and the reasons keys that changed nothing
//! give, headless.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::Harness;
use crate::input::router::Command;
use crate::input::ui_state::{Mode, PANE_NUMBERS_TIME};
use crate::session::script::{Call, KeyArg};

fn ctrl_b(h: &mut Harness) {
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
}

/// The panes of the tab in `C-b q`'s order.
fn panes(h: &Harness) -> Vec<crate::pane::PaneId> {
    crate::input::popups::pane_numbers::numbered(&h.ws)
}

fn tab_names(h: &Harness) -> Vec<String> {
    (0..h.ws.tabs().len())
        .map(|i| h.ws.tabs().name(i, h.ws.panes()))
        .collect()
}

/// Three tabs named a, b, c; c shown.
fn three_named_tabs() -> Harness {
    let mut h = Harness::new("");
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        if i > 0 {
            h.prefix('c');
        }
        h.ws.tabs_mut().rename_shown(name);
    }
    assert_eq!(h.ws.tabs().active(), 2);
    h
}

// ---- the prefix never leaves a key unanswered ----

#[test]
fn an_unbound_key_after_the_prefix_says_so_and_ends_the_prefix() {
    let mut h = Harness::new("");
    let out = h.prefix('t');
    assert!(out.redraw);
    assert_eq!(h.mode(), Mode::Normal, "PREFIX is over");
    assert_eq!(h.notice(), "C-b t: not bound · C-b ? lists the keys");
    assert_eq!(h.sent(), "", "nothing reached the program");

    ctrl_b(&mut h);
    h.press(KeyCode::Char('T'), KeyModifiers::SHIFT);
    assert_eq!(h.notice(), "C-b T: not bound · C-b ? lists the keys");
    ctrl_b(&mut h);
    h.press(KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(h.notice(), "C-b C-y: not bound · C-b ? lists the keys");
    assert_eq!(h.mode(), Mode::Normal);

    // Esc takes the prefix back without a word.
    h.prefix('%');
    ctrl_b(&mut h);
    h.key(KeyCode::Esc);
    assert_eq!(h.mode(), Mode::Normal);
    assert_eq!(h.notice(), "");
    assert_eq!(h.sent(), "");
}

#[test]
fn the_unbound_message_follows_the_prefix_and_help_keys() {
    let mut keymap = crate::config::keymap::Keymap::default();
    keymap.set_prefix("C-a".parse().unwrap());
    keymap.unbind_prefixed(&"?".parse().unwrap());
    keymap.bind_prefixed(
        "F1".parse().unwrap(),
        crate::config::action::Action::ToggleHelp,
    );
    let mut h = Harness::with_keymap("", keymap);
    h.press(KeyCode::Char('a'), KeyModifiers::CONTROL);
    h.key(KeyCode::Char('?'));
    assert_eq!(h.notice(), "C-a ?: not bound · C-a F1 lists the keys");
}

#[test]
fn keys_that_change_nothing_say_why() {
    let mut h = Harness::new("");
    h.prefix('!');
    assert_eq!(
        h.notice(),
        "one pane in the tab: it has the tab to itself already"
    );
    h.prefix('E');
    assert_eq!(h.notice(), "the last tiled pane stays in the layout");
    h.prefix('N');
    assert_eq!(
        h.notice(),
        "one tab: no other tab to move the pane to (C-b ! gives it a tab of its own)"
    );
    h.prefix('z');
    assert_eq!(h.notice(), "one pane in the tab: nothing to zoom over");
    h.prefix('}');
    assert_eq!(h.notice(), "one pane in the tab: nothing to swap it with");
    h.prefix('P');
    assert_eq!(
        h.notice(),
        "the focused pane is not floating (C-b w shows the floating panes)"
    );
    h.prefix('7');
    assert_eq!(h.notice(), "no tab 7: there are 1");

    // A floating pane is not zoomed, and says so.
    h.prefix('w');
    assert!(h.ws.tabs().is_floating(h.focused()));
    h.prefix('z');
    assert_eq!(
        h.notice(),
        "a floating pane is not zoomed (C-b E puts it in the layout)"
    );
    assert!(!h.ws.tabs().shown().unwrap().zoomed);

    // A key that did something says nothing.
    h.prefix('w');
    h.prefix('%');
    assert_eq!(h.notice(), "");
}

// ---- C-b l and C-b ; ----

#[test]
fn last_tab_goes_back_and_forth_between_two_tabs() {
    let mut h = three_named_tabs();
    h.prefix('1');
    assert_eq!(h.ws.tabs().active(), 0);
    h.prefix('l');
    assert_eq!(h.ws.tabs().active(), 2, "back to c");
    h.prefix('l');
    assert_eq!(h.ws.tabs().active(), 0, "and to a");

    // The tab left is followed when tabs move around it.
    h.prefix('>');
    assert_eq!(tab_names(&h), ["b", "a", "c"]);
    h.prefix('l');
    assert_eq!(h.ws.tabs().name(h.ws.tabs().active(), h.ws.panes()), "c");

    let mut one = Harness::new("");
    one.prefix('l');
    assert_eq!(one.notice(), "one tab (M-t opens another)");
    one.prefix(';');
    assert_eq!(one.notice(), "one pane in the tab");
}

#[test]
fn last_pane_goes_back_to_the_pane_focused_before_and_prev_moved_to_shift_o() {
    let mut h = Harness::new("");
    let first = h.focused();
    h.prefix('%');
    h.prefix('%');
    let [a, b, c] = panes(&h)[..] else {
        panic!("three panes")
    };
    assert_eq!((a, h.focused()), (first, c));
    h.prefix('o');
    assert_eq!(h.focused(), a);
    h.prefix(';');
    assert_eq!(h.focused(), c, "the one before");
    h.prefix(';');
    assert_eq!(h.focused(), a);
    // Previous pane is on `O` now.
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    h.press(KeyCode::Char('O'), KeyModifiers::SHIFT);
    assert_eq!(h.focused(), c);
    // A closed pane is not gone back to.
    h.prefix('o');
    assert_eq!(h.focused(), a);
    h.prefix('o');
    assert_eq!(h.focused(), b);
    h.prefix('x');
    h.prefix(';');
    assert_ne!(h.focused(), b);
    assert!(h.ws.panes().get(b).is_none());
}

// ---- C-b q ----

#[test]
fn display_panes_shows_numbers_and_a_digit_focuses_that_pane() {
    let mut h = Harness::new("");
    h.prefix('%');
    h.prefix('"');
    let order = panes(&h);
    assert_eq!(order.len(), 3);
    h.prefix('q');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::pane_numbers::PaneNumbers>()
            .is_some()
    );
    let out = h.key(KeyCode::Char('1'));
    assert!(out.redraw);
    assert_eq!(h.focused(), order[0]);
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::pane_numbers::PaneNumbers>()
            .is_none()
    );
    assert_eq!(h.sent(), "", "the digit was not typed");

    h.prefix('q');
    h.key(KeyCode::Char('9'));
    assert_eq!(h.notice(), "no pane 9 in this tab");
    assert_eq!(h.focused(), order[0]);

    // Another key takes the numbers away and goes where it would have.
    h.prefix('q');
    let out = h.key(KeyCode::Char('x'));
    assert!(out.redraw, "the numbers are drawn away");
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::pane_numbers::PaneNumbers>()
            .is_none()
    );
    assert_eq!(h.sent(), "x");
}

#[test]
fn display_panes_goes_by_itself() {
    let mut h = Harness::new("");
    h.prefix('q');
    let due = h.router.next_deadline().expect("the numbers' end");
    assert!(due <= std::time::Instant::now() + PANE_NUMBERS_TIME);
    assert!(h.router.tick(due));
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::pane_numbers::PaneNumbers>()
            .is_none()
    );
    h.key(KeyCode::Char('1'));
    assert_eq!(h.sent(), "1", "a digit after they went is typed");
}

// ---- C-b i ----

#[test]
fn pane_info_tells_the_panes_facts() {
    let mut h = Harness::new("");
    h.prefix('%');
    let id = h.focused();
    h.prefix('i');
    let notice = h.notice();
    let (rows, cols) = h.ws.panes().get(id).unwrap().term().size();
    assert!(
        notice.starts_with(&format!("pane {} · #2 · /bin/sh", id.0)),
        "{notice}"
    );
    assert!(notice.contains(&format!("{cols}x{rows}")), "{notice}");
    h.fake.exit(id, 3);
    let ws = &mut h.ws;
    ws.panes_mut()
        .get_mut(id)
        .unwrap()
        .mark_exited(crate::pane::program::pty::ExitInfo {
            code: 3,
            signal: false,
        });
    h.prefix('i');
    assert!(h.notice().contains("exited 3"), "{}", h.notice());
}

// ---- C-b ' . < > ----

#[test]
fn select_tab_asks_for_a_number_or_a_name() {
    let mut h = three_named_tabs();
    h.prefix('\'');
    assert_eq!(h.prompt_text().as_deref(), Some(""));
    h.type_text("2");
    h.key(KeyCode::Enter);
    assert_eq!(h.ws.tabs().active(), 1);
    h.prefix('\'');
    h.type_text("c");
    h.key(KeyCode::Enter);
    assert_eq!(h.ws.tabs().active(), 2);
    h.prefix('\'');
    h.type_text("9");
    h.key(KeyCode::Enter);
    assert_eq!(h.notice(), "no tab 9: there are 3 (a number or a name)");
    assert_eq!(h.ws.tabs().active(), 2);
    assert_eq!(h.sent(), "");
}

#[test]
fn tabs_move_left_right_and_to_a_place() {
    let mut h = three_named_tabs();
    h.press(KeyCode::Char('b'), KeyModifiers::CONTROL);
    h.press(KeyCode::Char('<'), KeyModifiers::SHIFT);
    assert_eq!(tab_names(&h), ["a", "c", "b"]);
    assert_eq!(h.ws.tabs().active(), 1, "the moved tab stays shown");
    h.prefix('<');
    assert_eq!(tab_names(&h), ["c", "a", "b"]);
    h.prefix('<');
    assert_eq!(tab_names(&h), ["c", "a", "b"], "first already");
    h.prefix('>');
    assert_eq!(tab_names(&h), ["a", "c", "b"]);
    h.prefix('.');
    h.type_text("3");
    h.key(KeyCode::Enter);
    assert_eq!(tab_names(&h), ["a", "b", "c"]);
    assert_eq!(h.ws.tabs().active(), 2);
    h.prefix('.');
    h.type_text("0");
    h.key(KeyCode::Enter);
    assert_eq!(h.notice(), "no place 0: a number from 1 to 3");
}

// ---- C-b : and C-b $ ----

#[test]
fn the_command_prompt_runs_actions_by_name_with_their_arguments() {
    let mut h = Harness::new("");
    h.prefix(':');
    h.type_text("split-right");
    h.key(KeyCode::Enter);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 2);
    assert_eq!(h.prompt_text(), None);

    h.prefix(':');
    h.type_text("rename-tab 'my logs'");
    h.key(KeyCode::Enter);
    assert_eq!(h.ws.tabs().name(0, h.ws.panes()), "my logs");

    h.prefix(':');
    h.type_text("focus left");
    h.key(KeyCode::Enter);
    assert_eq!(h.focused(), panes(&h)[0]);

    h.prefix(':');
    h.type_text("split-sideways");
    h.key(KeyCode::Enter);
    assert!(
        h.notice().starts_with("unknown command `split-sideways`"),
        "{}",
        h.notice()
    );
    assert_eq!(h.sent(), "", "nothing typed reached the program");
}

#[test]
fn the_command_prompt_completes_names_with_tab() {
    let mut h = Harness::new("");
    h.prefix(':');
    h.type_text("new-t");
    h.key(KeyCode::Tab);
    assert_eq!(h.prompt_text().as_deref(), Some("new-tab "));
    h.press(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("split");
    h.key(KeyCode::Tab);
    let prompt = h
        .router
        .popups()
        .get::<crate::input::popups::prompt::Prompt>()
        .unwrap();
    assert_eq!(prompt.text, "split-");
    assert_eq!(prompt.status, "split-down split-right");
    h.type_text("d");
    assert_eq!(
        h.router
            .popups()
            .get::<crate::input::popups::prompt::Prompt>()
            .unwrap()
            .status,
        "",
        "typing clears it"
    );
    h.key(KeyCode::Tab);
    h.key(KeyCode::Enter);
    assert_eq!(h.ws.tiling().visible(h.ws.tabs().shown()).len(), 2);
}

#[test]
fn send_keys_and_run_at_the_prompt_are_left_to_the_loop() {
    let mut h = Harness::new("");
    h.prefix(':');
    h.type_text("send-keys 'echo hi' Enter");
    let out = h.key(KeyCode::Enter);
    assert_eq!(
        out.commands,
        [Command::Script(Call::SendKeys {
            pane: None,
            keys: vec![KeyArg::Text("echo hi".into()), KeyArg::Key("Enter".into())],
        })]
    );
    h.prefix(':');
    h.type_text("run --bogus -- top");
    let out = h.key(KeyCode::Enter);
    assert!(out.commands.is_empty());
    assert!(h.notice().contains("--bogus"), "{}", h.notice());
}

#[test]
fn rename_workspace_offers_its_name_and_asks_the_loop() {
    let mut h = Harness::new("");
    h.router.set_workspace_name(Some("0".into()));
    h.prefix('$');
    assert_eq!(h.prompt_text().as_deref(), Some("0"));
    h.press(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("work");
    let out = h.key(KeyCode::Enter);
    assert_eq!(out.commands, [Command::RenameWorkspace("work".into())]);
    h.prefix('$');
    let out = h.key(KeyCode::Enter);
    assert!(out.commands.is_empty(), "the same name: nothing to do");
}

// ---- rough edges ----

#[test]
fn restarting_a_running_program_asks_first() {
    let mut h = Harness::new("");
    super::with_foreground(&mut h, Some("cargo"));
    let id = h.focused();
    h.prefix('r');
    let question = h
        .router
        .popups()
        .get::<crate::input::popups::confirm::Confirm>()
        .expect("a question")
        .question
        .clone();
    assert!(
        question.contains("restart the pane") && question.contains("cargo"),
        "{question}"
    );
    h.key(KeyCode::Char('n'));
    assert_eq!(h.notice(), "nothing restarted");
    assert_eq!(h.focused(), id, "the same program runs on");
    assert!(h.ws.panes().get(id).is_some());
    h.prefix('r');
    h.key(KeyCode::Char('y'));
    assert!(
        h.ws.panes().get(id).is_none(),
        "y restarts it in a new pane"
    );

    // At a shell prompt nothing is asked.
    super::with_foreground(&mut h, None);
    let id = h.focused();
    h.prefix('r');
    assert!(
        h.router
            .popups()
            .get::<crate::input::popups::confirm::Confirm>()
            .is_none()
    );
    assert!(h.ws.panes().get(id).is_none(), "restarted at once");
}

#[test]
fn a_search_across_panes_lists_only_the_panes_with_a_match() {
    use crate::input::search_worker::{PaneMatches, SearchReport};
    let mut h = Harness::new("hello\n");
    let first = h.focused();
    h.prefix('%');
    let second = h.focused();
    h.prefix('F');
    h.type_text("hello");
    h.key(KeyCode::Enter);
    for (pane, count) in [(first, 1), (second, 0)] {
        let matches = PaneMatches {
            pane,
            pattern: "hello".into(),
            count,
            lines: vec!["hello".into(); count],
        };
        h.router
            .search_result(&mut h.ws, SearchReport::AllPanes(matches));
    }
    let results = h
        .router
        .popups()
        .get::<crate::input::popups::search_all::SearchAllResults>()
        .unwrap();
    assert_eq!(results.pending, 0);
    let listed: Vec<_> = results.panes.iter().map(|p| p.pane).collect();
    assert_eq!(listed, [first]);
    assert_eq!(results.unmatched, 1);
}

#[test]
fn a_digit_on_a_zoomed_tab_zooms_the_pane_it_names_at_full_size() {
    let mut h = Harness::new("");
    let first = h.focused();
    h.prefix('%');
    let second = h.focused();
    h.prefix('z');
    let zoomed = h.ws.panes().get(second).unwrap().term().size();
    h.prefix('q');
    h.key(KeyCode::Char('1'));
    assert_eq!(h.focused(), first);
    assert!(h.ws.tabs().shown().unwrap().zoomed);
    assert_eq!(
        h.ws.panes().get(first).unwrap().term().size(),
        zoomed,
        "resized to the zoom"
    );
}
