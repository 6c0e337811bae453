//! A terminal's cell size in pixels, followed after the attach: a font
//! size change (or a window moved to a screen of another density) comes
//! as a resize whose pixels changed, often with the same rows and
//! columns. The terminal's size in pixels (`TIOCGWINSZ`) is read again at
//! each of its resizes; when the cell it gives changed, programs are told
//! the new one (`app::tell_panes`).
//!
//! The cell told at attach may come from the terminal's `CSI 16 t`
//! answer, which is not asked again: it stands until the pixel size
//! itself changes, so a terminal whose two answers differ a little (its
//! padding counted in the pixels) is not taken to have changed its font.

use std::os::fd::BorrowedFd;

use crate::graphics::reach::CellPixels;
use crate::terminal::outer_terminal::cell_of_winsize;

pub struct CellWatch {
    /// The cell by the terminal's size in pixels at the last reading.
    last: Option<CellPixels>,
}

impl CellWatch {
    /// Starts from what `tty`'s size says now.
    pub fn new(tty: BorrowedFd<'_>) -> Self {
        Self {
            last: cell_of_winsize(tty),
        }
    }

    /// The terminal resized: its new cell, if its size in pixels says one
    /// other than at the last reading.
    pub fn resized(&mut self, tty: BorrowedFd<'_>) -> Option<CellPixels> {
        let now = cell_of_winsize(tty)?;
        if self.last == Some(now) {
            return None;
        }
        self.last = Some(now);
        Some(now)
    }
}
