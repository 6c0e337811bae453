//! The reference both equivalence suites compare against: vt100 behind
//! the fidelity layer alone (shared by `fast_forward_equivalence.rs` and
//! `rep_bound_equivalence.rs`).

use std::num::NonZeroU16;

use tilework::pane::term::fidelity::Fidelity;

/// The reference: vt100 behind the fidelity layer alone (what vt100 lacks
/// completed, every REP written whole, nothing skipped).
pub struct Reference {
    parser: vt100::Parser,
    layer: Fidelity,
}

impl Reference {
    pub fn new(parser: vt100::Parser) -> Self {
        Self {
            parser,
            layer: Fidelity::unbounded(),
        }
    }

    /// Parses `bytes`; false when vt100 panicked (such cases say nothing
    /// about the path under test).
    pub fn process(&mut self, bytes: &[u8]) -> bool {
        self.layer.process(&mut self.parser, bytes).is_ok()
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub fn set_size(&mut self, rows: NonZeroU16, cols: NonZeroU16) {
        let before = self.parser.screen().size();
        self.parser.screen_mut().set_size(rows, cols);
        if self.parser.screen().size() != before {
            self.layer.grid_resized(before.0.get(), rows.get());
        }
    }
}
