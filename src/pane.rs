//! One pane: a program on a pseudo-terminal and everything its bytes pass
//! through on the way to the screen, in data-path order:
//!
//! [`pty`] (reader and writer threads, [`input_queue`]) → [`unfed`]
//! (output fed in pieces against the loop's deadline) →
//! [`escape_scanner`] (reads each byte once; its [`osc_guard`] caps OSC
//! strings; kitty graphics commands are taken out and carried out by
//! [`kitty_apc`] where the parser reaches them) → [`fast_forward`] (skips output that scrolls off unseen, by
//! the scanner's findings) → [`fidelity`] (completes what vt100 lacks:
//! character sets, tab stops, insert mode, answers; with [`rep_bound`]
//! cutting a repeat to what the screen can show) →
//! [`parse_guard`] (vt100, panics contained) → the screen, with
//! [`terminal_queries`] answering what vt100 leaves to the embedder (and
//! reading [`notifications`]); while
//! the program redraws inside a synchronized update, the pane shows the
//! screen of the update's start ([`sync_update`]). Every
//! byte also goes to [`scrollback`], the raw ring that [`history`] replays
//! on demand at the sizes it was printed at ([`size_log`]), a window at a
//! time ([`history_window`] picks the bytes;
//! [`history_text`] writes all of it out as text), when the pane is
//! scrolled back ([`scroll_view`]).
//! A saved history comes back through `restored`.
//! [`spawn`] decides what to run; [`process`] is the seam that
//! starts it (a PTY, or a fake in tests); [`children`] ends every child on
//! every exit path. [`damage`] is the pane's one record of what changed,
//! which the renderer reads. [`screen`] is what the rest of tilework reads
//! of a pane's screen, in its own types (only `pane` names vt100);
//! [`cell_extras`] carries in the cells what vt100 drops (styled
//! underlines, strikethrough, overline, blink, conceal, OSC 8 links) as
//! zero-width markers the fidelity layer's `pen` appends, with the values
//! themselves in [`cell_style`].
//! [`command_marks`] finds where each command a shell ran begins and
//! ends (OSC 133), by positions in the ring.
//! [`pipe`] sends a pane's output on to a command (`tilework pipe`).
//! Sixel pictures are taken in the fidelity layer (`fidelity::pictures`)
//! and anchored in the cells (`crate::graphics`); [`picture_queries`]
//! answers what programs ask about them.

pub mod cell_extras;
pub mod cell_style;
pub mod children;
pub mod command_marks;
pub mod damage;
pub mod escape_scanner;
pub mod event;
pub mod fast_forward;
pub mod fidelity;
pub mod held_replies;
pub mod history;
pub mod history_text;
pub mod history_window;
mod id;
pub mod input_queue;
pub mod kitty_apc;
pub mod kitty_notify;
pub mod notification_id;
pub mod notifications;
pub mod osc_guard;
pub mod parse_guard;
pub mod picture_queries;
pub mod pipe;
pub mod process;
pub mod program_signals;
pub mod pty;
pub mod reader_gate;
pub mod reflow;
pub mod rep_bound;
mod restored;
pub mod rewrap;
pub mod ring_block;
pub mod screen;
pub mod scroll_view;
pub mod scrollback;
pub mod size_log;
pub mod spawn;
mod state;
pub mod sync_update;
pub mod terminal_queries;
pub mod tmux_passthrough;
pub mod unfed;

pub use id::PaneId;
pub use scroll_view::{
    HISTORY_MEMORY_CAP, HISTORY_MEMORY_PER_BUDGET_BYTE, RingCopy, WindowTarget, max_history_rows,
};
pub use state::{MIN_GRID, Pane, ScrollView};
