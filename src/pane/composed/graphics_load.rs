//! A pane held by a kitty graphics command that reads a file: parsing
//! stops after the command until the file is in (see `pane::term::kitty_apc`),
//! and what the program sends meanwhile waits unfed, the reader with it.
//! The thread reading the file wakes the loop when it is done.

use super::Pane;
use crate::pane::term::damage::Change;

impl Pane {
    /// Whether parsing waits on a file a kitty graphics command reads.
    pub fn graphics_loading(&self) -> bool {
        self.fast_forward.loading()
    }

    /// Goes on past a kitty graphics command whose file is read. Returns
    /// whether parsing goes on (false: still reading).
    pub(super) fn resume_graphics_load(&mut self) -> bool {
        if !self.fast_forward.loading() {
            return true;
        }
        if let Err(failure) = self.fast_forward.parse_accepted(&mut self.parser) {
            self.parser_failed("on this pane's output", &failure);
        }
        self.damage.note(Change::Output);
        self.drain_parser_events();
        !self.fast_forward.loading()
    }
}
