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
    let a = h.ws.view();
    h.ws.apply(Action::NewTab);
    assert_eq!(h.ws.active_index(), 1);
    let b = h.ws.view();
    h.ws.show_view(&a);
    assert_eq!(h.ws.active_index(), 0);
    assert_eq!(h.ws.focused_id(), Some(second));
    h.ws.apply(Action::Focus(Direction::Left));
    assert_eq!(h.ws.focused_id(), Some(first));
    let a = h.ws.view();
    h.ws.show_view(&b);
    assert_eq!(h.ws.active_index(), 1);
    h.ws.show_view(&a);
    assert_eq!(h.ws.focused_id(), Some(first));
    // B's tab closes: showing B leaves the tab shown where it is, with
    // B's own focus there (the pane it had focused when it left).
    h.ws.show_view(&b);
    h.ws.apply(Action::CloseTab);
    h.ws.show_view(&a);
    h.ws.show_view(&b);
    assert_eq!(h.ws.active_index(), 0);
    assert_eq!(h.ws.focused_id(), Some(second));
}
