//! One pane: a program on a pseudo-terminal, the terminal that mirrors
//! its screen, and its history. Three rooms, one type each:
//!
//! - [`program`]: the PTY side (spawning, reading and writing, the process
//!   and its children, pipes);
//! - [`term`]: everything a byte passes through on its way to the screen,
//!   and the only holder of a terminal parser;
//! - [`history`]: the byte ring, the sizes it was printed at, and the view
//!   shown instead of the live screen when scrolled back.
//!
//! [`Pane`] (in [`composed`]) puts the three together: a chunk of output
//! goes from the program into the history's ring and through the terminal
//! to the screen. Sixel pictures are taken in the fidelity layer and
//! anchored in the cells (`crate::graphics`).

pub mod composed;
pub mod event;
pub mod history;
mod id;
pub mod program;
pub mod term;

pub use composed::Pane;
pub use history::scroll_view::{
    HISTORY_MEMORY_CAP, HISTORY_MEMORY_PER_BUDGET_BYTE, RingCopy, WindowTarget, max_history_rows,
};
pub use history::scroll_view::{History, ScrollView};
pub use id::PaneId;
pub use program::Program;
pub use term::emulator::{MIN_GRID, Term};
