//! The modes the fidelity layer keeps because vt100 does not (or keeps
//! them without telling).

/// Modes vt100 does not keep, as the program set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modes {
    /// IRM (`CSI 4 h`): printed characters push the rest of the row right.
    pub insert: bool,
    /// DECAWM (`CSI ? 7 h`, on by default): text wraps at the last column.
    pub autowrap: bool,
    /// `CSI ? 1004 h`: the program wants `CSI I` / `CSI O` on focus changes.
    pub focus_events: bool,
    /// `CSI ? 2026 h`: the program is inside a synchronized update (what
    /// the pane shows meanwhile is `sync_update`'s; this answers DECRQM).
    pub synchronized: bool,
    /// `CSI ? 2048 h`: the program wants `CSI 48 ; rows ; cols ; height ;
    /// width t` on every resize of its pane (in-band resize).
    pub in_band_resize: bool,
    /// `CSI ? 2031 h`: the program wants `CSI ? 997 ; 1 n` (dark) or `2 n`
    /// (light) when the terminal's theme changes.
    pub theme_reports: bool,
    /// DECOM (`CSI ? 6 h`): vt100 follows it but has no accessor for it;
    /// followed here to answer DECRQM.
    pub origin: Origin,
}

impl Default for Modes {
    fn default() -> Self {
        Self {
            insert: false,
            autowrap: true,
            focus_events: false,
            synchronized: false,
            in_band_resize: false,
            theme_reports: false,
            origin: Origin::default(),
        }
    }
}

/// Origin mode as vt100 keeps it: one per grid (main, alternate), saved and
/// restored with the cursor (DECSC/DECRC, `?1048`, `?1049`), cleared with
/// the alternate grid when `?1049h` enters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Origin {
    on: [bool; 2],
    saved: [bool; 2],
    /// The grid the bytes so far leave shown (followed from `?47`,
    /// `?1047`, `?1049`).
    alternate: bool,
}

impl Origin {
    /// Whether origin mode is on for the main or the alternate grid.
    pub fn on(&self, alternate: bool) -> bool {
        self.on[usize::from(alternate)]
    }

    pub(super) fn set(&mut self, on: bool) {
        self.on[usize::from(self.alternate)] = on;
    }

    pub(super) fn save(&mut self) {
        let grid = usize::from(self.alternate);
        self.saved[grid] = self.on[grid];
    }

    pub(super) fn restore(&mut self) {
        let grid = usize::from(self.alternate);
        self.on[grid] = self.saved[grid];
    }

    /// DECSET / DECRST of an alternate-screen mode.
    pub(super) fn screen_mode(&mut self, mode: u16, set: bool) {
        match (mode, set) {
            (1048, true) => self.save(),
            (1048, false) => self.restore(),
            (1049, true) => {
                self.save();
                (self.on[1], self.saved[1]) = (false, false);
                self.alternate = true;
            }
            (1049, false) => {
                self.alternate = false;
                self.restore();
            }
            (47 | 1047, _) => self.alternate = set,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_mode_is_kept_per_grid_and_with_the_saved_cursor() {
        let mut o = Origin::default();
        o.set(true);
        o.save();
        o.set(false);
        assert!(!o.on(false));
        o.restore();
        assert!(o.on(false));
        // ?1049h saves it and starts the alternate grid without it.
        o.screen_mode(1049, true);
        assert!(!o.on(true));
        o.set(true);
        assert!(o.on(true) && o.on(false));
        o.set(false);
        o.screen_mode(1049, false);
        assert!(o.on(false));
        o.screen_mode(47, true);
        assert!(!o.on(true), "the alternate grid keeps its own");
    }
}
