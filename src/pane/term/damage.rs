//! What of a pane's picture may have changed since the renderer last
//! looked: the one record of change a pane keeps (in the spirit of
//! alacritty's `TermDamage`).
//!
//! The pane produces it (parsing reports the rows it wrote, the pane adds
//! what it did itself: a resize, a move of the scroll view, a new parser, a
//! new title or exit status), and the render cache consumes it: it takes
//! the rows each frame ([`crate::pane::Pane::take_damage`]), and compares
//! generations to know whether its image of the pane and of its border are
//! still current. A reader that never takes the rows (a test, a bench)
//! still sees the generation move and compares screens instead.

/// Which rows of a pane's screen may differ from what was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Damage {
    #[default]
    None,
    /// Rows `first..=last`; nothing scrolled.
    Rows(u16, u16),
    /// Any row, or the whole picture.
    Full,
}

impl Damage {
    pub fn merge(self, other: Self) -> Self {
        match (self, other) {
            (Self::None, x) | (x, Self::None) => x,
            (Self::Rows(a, b), Self::Rows(c, d)) => Self::Rows(a.min(c), b.max(d)),
            _ => Self::Full,
        }
    }
}

/// What changed a pane, other than the rows its parsing wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Output arrived or was parsed: the parser reports the rows.
    Output,
    /// The grid changed size.
    Resized,
    /// The view moved between the live screen and the history, or within
    /// the history (its position shows on the border).
    ViewMoved,
    /// A fresh parser, or tilework's own notice written into the screen.
    ScreenReplaced,
    /// Output arrived while the history is shown: it grew (its length
    /// shows on the border).
    HistoryGrew,
    /// The program set a title.
    Titled,
    /// The program ended (its status shows on the border).
    Exited,
}

impl Change {
    /// The rows it may have changed beyond what parsing reports.
    fn screen(self) -> Damage {
        match self {
            Self::Resized | Self::ViewMoved | Self::ScreenReplaced => Damage::Full,
            Self::Output | Self::HistoryGrew | Self::Titled | Self::Exited => Damage::None,
        }
    }

    /// Whether the border (title, scroll position, exit status) may differ.
    fn border(self) -> bool {
        !matches!(self, Self::Output | Self::ScreenReplaced)
    }
}

/// A pane's record of change.
#[derive(Debug)]
pub struct DamageLog {
    /// Moves with every change.
    generation: u64,
    /// Moves with every change the border shows.
    border_generation: u64,
    /// Rows changed since [`DamageLog::take`], beyond those parsing reports.
    screen: Damage,
}

impl Default for DamageLog {
    /// A new pane: nothing of it was ever drawn.
    fn default() -> Self {
        Self {
            generation: 0,
            border_generation: 0,
            screen: Damage::Full,
        }
    }
}

impl DamageLog {
    pub fn note(&mut self, change: Change) {
        self.generation += 1;
        if change.border() {
            self.border_generation += 1;
        }
        self.screen = self.screen.merge(change.screen());
    }

    /// The rows changed since the last call, with those `parsed` reports.
    pub fn take(&mut self, parsed: Damage) -> Damage {
        std::mem::take(&mut self.screen).merge(parsed)
    }

    /// Differs whenever what the pane shows may have changed.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Differs whenever the pane's border may show something else.
    pub fn border_generation(&self) -> u64 {
        self.border_generation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_merges_to_the_rows_covering_both() {
        assert_eq!(Damage::None.merge(Damage::Rows(1, 2)), Damage::Rows(1, 2));
        assert_eq!(
            Damage::Rows(3, 4).merge(Damage::Rows(1, 2)),
            Damage::Rows(1, 4)
        );
        assert_eq!(Damage::Rows(3, 4).merge(Damage::Full), Damage::Full);
    }

    #[test]
    fn a_change_moves_the_generations_it_should() {
        let mut log = DamageLog::default();
        assert_eq!(log.take(Damage::None), Damage::Full, "never drawn");
        log.note(Change::Output);
        assert_eq!((log.generation(), log.border_generation()), (1, 0));
        assert_eq!(log.take(Damage::Rows(2, 2)), Damage::Rows(2, 2));
        log.note(Change::Titled);
        assert_eq!(log.border_generation(), 1);
        assert_eq!(log.take(Damage::None), Damage::None);
        log.note(Change::Resized);
        assert_eq!(log.take(Damage::Rows(0, 0)), Damage::Full);
        assert_eq!((log.generation(), log.border_generation()), (3, 2));
    }
}
