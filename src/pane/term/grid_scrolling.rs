//! What the fast-forward follows of the grids' scrolling to know when
//! output may be cut unparsed (see `fast_forward`): whether a grid may
//! have a scroll region, and how many rows vt100 counts as scrolled off.

/// The grids' scrolling as the fast-forward follows it.
#[derive(Debug)]
pub struct GridScrolling {
    /// Whether the main or the alternate grid may have a scroll region.
    pub region: [bool; 2],
    /// A lower bound of vt100's count of rows scrolled off the main grid.
    pub scrolled_at_least: u64,
    /// Once that count is this far above the grid's height, no growth of the
    /// grid can tell its exact value.
    saturation: u64,
    /// Rows of scrollback the parser keeps that must come out as if every
    /// byte had been parsed (a reflow's replay reads them): each cut keeps
    /// that many more lines. While it is not 0, vt100's count of rows
    /// scrolled off is not kept exact (it only tells how many blank rows a
    /// taller grid takes in, and a replay's grid takes rows from its
    /// scrollback).
    pub history_rows: usize,
}

impl GridScrolling {
    pub fn new(saturation: u64) -> Self {
        Self {
            region: [false; 2],
            scrolled_at_least: 0,
            saturation,
            history_rows: 0,
        }
    }

    pub fn saturation(&self) -> u64 {
        self.saturation
    }

    /// After the parser's grid changed size: vt100 (like xterm) then resets
    /// the scroll region of both grids, and a taller grid takes back up to
    /// the growth from the count of scrolled-off rows.
    pub fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        self.region = [false; 2];
        let grown = u64::from(new_rows.saturating_sub(old_rows));
        self.scrolled_at_least = self.scrolled_at_least.saturating_sub(grown);
    }

    /// Whether the count of scrolled-off rows can no longer be told
    /// exactly on a grid of `rows`.
    pub fn count_saturated(&self, rows: u16) -> bool {
        self.scrolled_at_least >= self.saturation.saturating_sub(u64::from(rows))
    }
}
