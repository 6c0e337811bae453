//! Drawing a grapheme cluster the pane keeps in one cell
//! (`pane::term::cluster_marks`) so that the rest of the row lands where
//! the pane has it, whatever width the user's terminal gives the cluster.
//!
//! Terminals disagree on these widths: kitty, ghostty, wezterm and foot
//! draw a ZWJ family in two columns, xterm and the pane's parser in six; xterm draws
//! ⌚︎ (VS15) in two where the pane has one. So the cluster is written with
//! the cursor saved before it and put back after it (DECSC, DECRC), then
//! moved right by the cluster's width in the pane: the next cell starts at
//! its own column on any terminal. A terminal that drew the cluster wider
//! drew over the cells after it; those are drawn again in every frame that
//! draws the row (`CellDiffOption::AlwaysUpdate`), so what it shows there
//! is the pane's, and the cluster is cut to what fits, never the row
//! shifted.

use ratatui::buffer::{Cell, CellDiffOption};
use unicode_width::UnicodeWidthChar as _;

/// The widest a terminal that does not join clusters may draw one: each
/// character at its own width (a ZWJ family of four: 8 columns).
fn naive_width(text: &str) -> u16 {
    let sum: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    u16::try_from(sum).unwrap_or(u16::MAX)
}

/// The cluster `text` as written to the terminal.
pub fn fence(text: &str, wide: bool) -> String {
    let width = 1 + u8::from(wide);
    format!("\x1b7{text}\x1b8\x1b[{width}C")
}

/// Marks `target` (a cell holding [`fence`]d text) as taking the pane's
/// width for the cluster, and returns how many cells after it a terminal
/// may have drawn over.
pub fn fenced(target: &mut Cell, wide: bool) -> u16 {
    let width = 1 + u16::from(wide);
    if let Some(forced) = std::num::NonZeroU16::new(width) {
        target.set_diff_option(CellDiffOption::ForcedWidth(forced));
    }
    let text = target.symbol();
    let inner = text
        .strip_prefix("\x1b7")
        .and_then(|t| t.split("\x1b8").next())
        .unwrap_or(text);
    naive_width(inner).saturating_sub(width).min(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_may_spill_four_cells() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        let mut cell = Cell::default();
        cell.set_symbol(&fence(family, true));
        assert_eq!(fenced(&mut cell, true), 4);
        assert_eq!(cell.symbol(), format!("\x1b7{family}\x1b8\x1b[2C"));
        let mut narrow = Cell::default();
        narrow.set_symbol(&fence("\u{231A}\u{FE0E}", false));
        assert_eq!(fenced(&mut narrow, false), 1);
    }
}
