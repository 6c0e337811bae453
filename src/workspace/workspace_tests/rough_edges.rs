//! A command pane that keeps failing is started again after 1, 2, 4 …
//! 60 s, says how often it failed, and is left ended after ten failures
//! in a row with a notice; a success starts the count again. A pane
//! kept open after its program ended still gives tilework its status. A
//! saved profile has one key per line.

use std::time::Duration;

use super::{Harness, command};
use crate::config::profile::RestartPolicy;
use crate::workspace::{MAX_FAILURES, MAX_RESTART_DELAY, RESTART_DELAY, restart_delay};

#[test]
fn the_delay_doubles_up_to_a_minute() {
    let secs: Vec<u64> = (1..=9).map(|n| restart_delay(n).as_secs()).collect();
    assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    assert_eq!(restart_delay(1), RESTART_DELAY);
    assert_eq!(restart_delay(u32::MAX), MAX_RESTART_DELAY);
}

#[test]
fn a_failing_command_backs_off_shows_its_count_and_stops_after_ten() {
    let mut h = Harness::with_commands(false, vec![command("make", RestartPolicy::OnFailure)]);
    for failures in 1..MAX_FAILURES {
        let id = h.focused();
        h.exit(id, 2);
        let delay = restart_delay(failures);
        let note =
            h.ws.panes()
                .get(id)
                .unwrap()
                .program()
                .exit_note()
                .unwrap()
                .to_string();
        assert!(
            note.ends_with(&format!("restarting in {} s", delay.as_secs())),
            "{note}"
        );
        if failures > 1 {
            assert!(note.starts_with(&format!("failed {failures}×")), "{note}");
        }
        assert_eq!(h.ws.panes().next_restart(), Some(h.now + delay));
        assert!(!h.wait(delay - Duration::from_millis(1)), "not before");
        assert!(h.wait(Duration::from_millis(1)), "failure {failures}");
    }
    assert!(h.ws.attention_mut().take_notices().is_empty());
    let id = h.focused();
    h.exit(id, 2);
    assert_eq!(h.ws.panes().next_restart(), None, "given up");
    assert!(!h.wait(MAX_RESTART_DELAY));
    let pane = h.ws.panes().get(id).unwrap();
    assert_eq!(
        pane.program().exit_note(),
        Some("failed 10 times in a row: not restarted")
    );
    let notices = h.ws.attention_mut().take_notices();
    assert_eq!(
        notices,
        ["make: failed 10 times in a row: not restarted (restart-pane runs it again)"]
    );
    assert_eq!(h.fake.launched().len(), MAX_FAILURES as usize);

    // By hand it runs again, the count started afresh.
    assert!(h.ws.respawn_pane(id, None, 0).is_some());
    let id = h.focused();
    h.exit(id, 2);
    assert_eq!(h.ws.panes().next_restart(), Some(h.now + RESTART_DELAY));
}

#[test]
fn a_success_starts_the_count_again() {
    let mut h = Harness::with_commands(false, vec![command("job", RestartPolicy::Always)]);
    for _ in 0..3 {
        let id = h.focused();
        h.exit(id, 1);
        h.wait(MAX_RESTART_DELAY);
    }
    let id = h.focused();
    h.exit(id, 0);
    assert_eq!(h.ws.panes().next_restart(), Some(h.now + RESTART_DELAY));
    assert_eq!(
        h.ws.panes().get(id).unwrap().program().exit_note(),
        Some("restarting in 1 s")
    );
}

/// `--keep-exited`: the program's status is still tilework's when the
/// user closes its pane or quits.
#[test]
fn a_kept_pane_ends_tilework_with_its_programs_status() {
    for key in [
        crate::config::action::Action::ClosePane,
        crate::config::action::Action::Quit,
        crate::config::action::Action::CloseTab,
    ] {
        let mut h = Harness::with_program(true, "make");
        let id = h.focused();
        h.exit(id, 3);
        assert!(h.ws.panes().get(id).is_some(), "kept open");
        assert_eq!(h.ws.ending().code(), None);
        h.ws.apply(key);
        assert_eq!(h.ws.ending().code(), Some(3), "{key:?}");
    }
    // A program still running: quitting is a success.
    let mut h = Harness::with_program(true, "make");
    h.ws.apply(crate::config::action::Action::Quit);
    assert_eq!(h.ws.ending().code(), Some(0));
}

#[test]
fn a_saved_profile_has_one_key_per_line_and_opens_the_same_layout() {
    use crate::config::action::Action;
    let mut h = Harness::with_commands(
        false,
        vec![
            command("make watch", RestartPolicy::Never),
            command("tail -f log", RestartPolicy::Never),
        ],
    );
    h.ws.tabs_mut().rename_shown("dev");
    assert!(h.ws.apply(Action::SplitDown));
    assert!(h.ws.apply(Action::NewFloating));
    let saved = crate::workspace::profile_save::to_toml(&h.ws, "p");
    for line in saved.lines() {
        assert!(!line.contains('{'), "an inline table: {line}\n{saved}");
        assert!(
            line.matches(" = ").count() <= 1,
            "two keys: {line}\n{saved}"
        );
    }
    assert!(saved.contains("[[tab.layout.panes.panes]]"), "{saved}");
    assert!(saved.contains("[[tab.floating]]"), "{saved}");
    assert!(saved.contains("\ncommand = \"tail -f log\"\n"), "{saved}");

    let again = crate::config::profile::parse(&saved, std::path::Path::new("p.toml")).unwrap();
    let mut reopened = Harness::new(false);
    reopened.ws.open_profile(&again);
    assert_eq!(reopened.ws.tabs().name(0, reopened.ws.panes()), "dev");
    let tab = reopened.ws.tabs.shown().unwrap();
    assert_eq!(tab.layout.panes().len(), 3);
    assert_eq!(tab.floats.iter().count(), 1);
    assert_eq!(
        crate::workspace::profile_save::to_toml(&reopened.ws, "p"),
        saved,
        "saved again, the same text"
    );
}

#[test]
fn a_restarted_command_keeps_the_id_scripts_know_it_by() {
    let mut h = Harness::with_commands(
        false,
        vec![
            command("make", RestartPolicy::OnFailure),
            command("top", RestartPolicy::Never),
        ],
    );
    let [make, top] = h.tab_panes()[..] else {
        panic!("two panes")
    };
    let number = h.ws.panes().script_id(make);
    h.exit(make, 1);
    assert!(h.wait(RESTART_DELAY));
    let restarted = h.tab_panes()[0];
    assert_ne!(restarted, make, "a fresh pane");
    assert_eq!(
        h.ws.panes().script_id(restarted),
        number,
        "known by the same id"
    );
    assert_eq!(h.ws.panes().by_script_id(number), Some(restarted));
    assert_eq!(h.ws.panes().by_script_id(top.0), Some(top));
    assert!(h.ws.respawn_pane(restarted, None, 0).is_some());
    assert_eq!(
        h.ws.panes().script_id(h.tab_panes()[0]),
        number,
        "by hand too"
    );
}
