//! Which panes' screens hold no picture anchors, so a frame need not look
//! at their cells: while any placement is kept (a kitty picture kept but
//! not shown, a sixel scrolled away or cleared but not yet dropped), a
//! frame would otherwise pass over every visible cell to find none.
//!
//! A look that finds no anchor on a pane's shown screen is remembered with
//! what could bring one there: the count of anchors made
//! ([`crate::graphics::anchor::written`]: text never makes them), and
//! which screen is shown (the alternate screen, a synchronized update's
//! held copy, a history view bring back cells that were not looked at).
//! While none of these changed, the pane still holds none.

use std::collections::HashMap;

use crate::graphics::anchor;
use crate::pane::{Pane, PaneId};

/// What a pane shows, as far as anchors go ([`BarePanes::shown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown {
    written: u64,
    alternate: bool,
    held: bool,
}

/// The panes known to show no anchor.
#[derive(Debug, Default)]
pub struct BarePanes {
    known: HashMap<PaneId, Shown>,
}

impl BarePanes {
    /// What `pane` shows, taken before a look at its cells; `None` when it
    /// cannot be remembered (a history view is replayed on a thread and
    /// swapped in whole).
    pub fn shown(pane: &Pane) -> Option<Shown> {
        if pane.history().window().is_some() {
            return None;
        }
        Some(Shown {
            written: anchor::written(),
            alternate: pane.screen().alternate_screen(),
            held: pane.term().sync_deadline().is_some(),
        })
    }

    /// Whether pane `id`, showing `shown`, is known to show no anchor.
    pub fn is_bare(&self, id: PaneId, shown: Option<Shown>) -> bool {
        shown.is_some_and(|shown| self.known.get(&id) == Some(&shown))
    }

    /// Notes what a look at pane `id`, showing `shown`, found (`none`: no
    /// anchor).
    pub fn looked(&mut self, id: PaneId, shown: Option<Shown>, none: bool) {
        match shown.filter(|_| none) {
            Some(shown) => {
                self.known.insert(id, shown);
            }
            None => {
                self.known.remove(&id);
            }
        }
    }

    /// Forgets panes no longer shown (closed ones among them).
    pub fn keep_only(&mut self, shown: impl Fn(PaneId) -> bool) {
        self.known.retain(|id, _| shown(*id));
    }
}
