//! The loop's side of [`AttachedFacts`]: when what the attached terminals
//! told changes, every pane and every pane opened later is told the new
//! value (a walk over the panes on a rare event, never per turn).

use crate::pane::term::attached_facts::AttachedFacts;
use crate::workspace::Workspace;

/// A terminal said its theme is dark (`true`) or light (mode 2031): the
/// panes answer with it from now on, and the programs that subscribed
/// hear of a change.
pub(super) fn theme_told(ws: &mut Workspace, dark: bool) {
    let mut facts = ws.panes().spawner().attached_facts();
    facts.dark = Some(dark);
    if tell(ws, facts) {
        ws.panes().terminal_theme_changed();
    }
}

/// What the attached terminals told changed (a client attached, left or
/// typed): programs asking for the terminal's colours are told `colours`,
/// and those sending pictures `reach` (what the terminals speak of them,
/// and their cell size), in every pane and every pane opened later.
pub(super) fn terminals_told(
    ws: &mut Workspace,
    colours: [Option<crate::config::colour::Rgb>; 3],
    reach: crate::graphics::reach::Reach,
) {
    let mut facts = ws.panes().spawner().attached_facts();
    facts.colours = colours;
    facts.reach = reach;
    tell(ws, facts);
}

/// [`terminals_told`] before the layout is fitted to a resize: returns
/// whether the cell changed in pixels, which the programs are not told
/// yet (see `Panes::take_attached_facts`).
pub(super) fn terminals_told_before_resize(
    ws: &mut Workspace,
    colours: [Option<crate::config::colour::Rgb>; 3],
    reach: crate::graphics::reach::Reach,
) -> bool {
    let mut facts = ws.panes().spawner().attached_facts();
    facts.colours = colours;
    facts.reach = reach;
    ws.panes().spawner().attached_facts() != facts && ws.panes_mut().take_attached_facts(facts)
}

/// Tells every pane, and the spawner for the panes to come, `facts`.
/// Returns whether they changed.
fn tell(ws: &mut Workspace, facts: AttachedFacts) -> bool {
    if ws.panes().spawner().attached_facts() == facts {
        return false;
    }
    ws.panes_mut().set_attached_facts(facts);
    true
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use crate::config::action::Action;
    use crate::pane::program::process::fake::FakeLauncher;

    const DARK: &[u8] = b"\x1b[?997;1n";
    const LIGHT: &[u8] = b"\x1b[?997;2n";

    fn workspace() -> (Workspace, FakeLauncher) {
        crate::workspace::fake_workspace::one_pane("vim")
    }

    fn feed(ws: &mut Workspace, bytes: &[u8]) -> crate::pane::PaneId {
        let id = ws.tabs().focused_id().unwrap();
        ws.panes_mut().get_mut(id).unwrap().feed(bytes.to_vec());
        id
    }

    #[test]
    fn panes_made_before_and_after_a_theme_report_answer_with_it() {
        let (mut ws, fake) = workspace();
        // Nothing told and no background known: no answer.
        let first = feed(&mut ws, b"\x1b[?2031h\x1b[?996n");
        assert!(fake.input(first).is_empty());
        theme_told(&mut ws, true);
        assert_eq!(fake.input(first), DARK, "a subscriber hears the change");
        ws.apply(Action::SplitRight);
        let second = feed(&mut ws, b"\x1b[?996n");
        assert_ne!(first, second);
        assert_eq!(fake.input(second), DARK, "a new pane answers as told");
        theme_told(&mut ws, false);
        assert_eq!(fake.input(first), [DARK, LIGHT].concat());
        assert!(fake.input(second) == DARK, "it did not subscribe");
        // Told again what it was told: nothing changed, nothing is sent.
        theme_told(&mut ws, false);
        assert_eq!(fake.input(first), [DARK, LIGHT].concat());
    }
}
