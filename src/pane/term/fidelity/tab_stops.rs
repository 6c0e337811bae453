//! Tab stops: HTS (`ESC H`) sets one at the cursor, TBC (`CSI g`,
//! `CSI 3 g`) clears one or all, CHT (`CSI n I`) and CBT (`CSI n Z`) move
//! across them.
//!
//! vt100 only knows a stop every 8 columns. While the stops are those, a
//! tab goes to vt100 as it is; once a program changes them, the layer
//! turns each tab into a move to the right column.

/// One flag a column; a new column gets the default (every 8th).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TabStops {
    stops: Vec<bool>,
    /// The stops differ from the defaults.
    custom: bool,
}

fn default_stop(col: usize) -> bool {
    col.is_multiple_of(8)
}

impl TabStops {
    /// Keeps the stops as wide as the screen (xterm keeps set stops across
    /// a resize; new columns get the defaults).
    pub fn fit(&mut self, cols: u16) {
        let cols = usize::from(cols);
        if self.stops.len() != cols {
            let from = self.stops.len();
            self.stops.resize(cols, false);
            for (col, stop) in self.stops.iter_mut().enumerate().skip(from) {
                *stop = default_stop(col);
            }
            self.recount();
        }
    }

    /// Whether a tab can go to vt100 as it is.
    pub fn custom(&self) -> bool {
        self.custom
    }

    pub fn set(&mut self, col: u16) {
        if let Some(stop) = self.stops.get_mut(usize::from(col)) {
            *stop = true;
        }
        self.recount();
    }

    pub fn clear(&mut self, col: u16) {
        if let Some(stop) = self.stops.get_mut(usize::from(col)) {
            *stop = false;
        }
        self.recount();
    }

    pub fn clear_all(&mut self) {
        self.stops.fill(false);
        self.recount();
    }

    /// Every 8th column again (RIS).
    pub fn reset(&mut self) {
        for (col, stop) in self.stops.iter_mut().enumerate() {
            *stop = default_stop(col);
        }
        self.custom = false;
    }

    fn recount(&mut self) {
        self.custom = self
            .stops
            .iter()
            .enumerate()
            .any(|(col, &stop)| stop != default_stop(col));
    }

    /// The column `count` stops right of `col` (the last column when
    /// there are fewer). `col` may be the screen's width: a pending wrap.
    pub fn forward(&self, col: u16, count: u16) -> u16 {
        let last = self.stops.len().saturating_sub(1);
        let mut at = usize::from(col);
        for _ in 0..count.max(1) {
            match (at + 1..self.stops.len()).find(|&c| self.stops[c]) {
                Some(next) => at = next,
                None => return u16::try_from(last).unwrap_or(u16::MAX),
            }
        }
        u16::try_from(at.min(last)).unwrap_or(u16::MAX)
    }

    /// The column `count` stops left of `col` (the first when there are
    /// fewer).
    pub fn backward(&self, col: u16, count: u16) -> u16 {
        let mut at = usize::from(col).min(self.stops.len());
        for _ in 0..count.max(1) {
            match (0..at).rev().find(|&c| self.stops[c]) {
                Some(prev) => at = prev,
                None => return 0,
            }
        }
        u16::try_from(at).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_stops_are_every_eighth_column_and_changes_are_custom() {
        let mut tabs = TabStops::default();
        tabs.fit(30);
        assert!(!tabs.custom());
        assert_eq!(tabs.forward(0, 1), 8);
        assert_eq!(tabs.forward(3, 2), 16);
        assert_eq!(tabs.forward(25, 1), 29, "no stop left: the last column");
        assert_eq!(tabs.backward(17, 1), 16);
        assert_eq!(tabs.backward(16, 2), 0);
        tabs.set(4);
        assert!(tabs.custom());
        assert_eq!(tabs.forward(0, 1), 4);
        tabs.clear(4);
        assert!(!tabs.custom());
        tabs.clear_all();
        assert_eq!(tabs.forward(0, 1), 29);
        tabs.reset();
        assert!(!tabs.custom());
    }

    #[test]
    fn a_wider_screen_gets_default_stops_in_its_new_columns() {
        let mut tabs = TabStops::default();
        tabs.fit(10);
        tabs.clear_all();
        tabs.fit(20);
        assert_eq!(tabs.forward(0, 1), 16);
    }
}
