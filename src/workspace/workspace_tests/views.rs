//! One terminal's view (`client_views = "own"`): saved and shown again,
//! it brings back its tab and focus; a tab or pane closed meanwhile is
//! skipped, never a panic.

use super::Harness;
use crate::config::action::{Action, Direction};

#[test]
fn a_view_brings_back_its_tab_and_focus_and_skips_what_closed() {
    let mut h = Harness::with_program(false, "sh");
    let first = h.focused();
    h.ws.apply(Action::SplitRight);
    let second = h.focused();
    assert_ne!(first, second);
    let a = h.ws.tabs().view();
    h.ws.apply(Action::NewTab);
    assert_eq!(h.ws.tabs().active(), 1);
    let b = h.ws.tabs().view();
    h.ws.tabs_mut().show_view(&a);
    assert_eq!(h.ws.tabs().active(), 0);
    assert_eq!(h.ws.tabs.focused_id(), Some(second));
    h.ws.apply(Action::Focus(Direction::Left));
    assert_eq!(h.ws.tabs.focused_id(), Some(first));
    let a = h.ws.tabs().view();
    h.ws.tabs_mut().show_view(&b);
    assert_eq!(h.ws.tabs().active(), 1);
    h.ws.tabs_mut().show_view(&a);
    assert_eq!(h.ws.tabs.focused_id(), Some(first));
    // B's tab closes: showing B leaves the tab shown where it is, with
    // B's own focus there (the pane it had focused when it left).
    h.ws.tabs_mut().show_view(&b);
    h.ws.apply(Action::CloseTab);
    h.ws.tabs_mut().show_view(&a);
    h.ws.tabs_mut().show_view(&b);
    assert_eq!(h.ws.tabs().active(), 0);
    assert_eq!(h.ws.tabs.focused_id(), Some(second));
}
