//! The terminal of a pane: everything a byte passes through on its way to
//! the screen, in data-path order, and the only holder of a terminal parser.
//!
//! [`tmux_passthrough`] takes tmux's wrapper off →
//! [`escape_scanner`] (reads each byte once; its [`osc_guard`] caps OSC
//! strings; kitty graphics commands are taken out and carried out by
//! [`kitty_apc`] where the parser reaches them) → [`fast_forward`] (skips
//! output that scrolls off unseen, by the scanner's findings) →
//! [`fidelity`] (completes what the parser lacks: character sets, tab stops,
//! insert mode, answers; with [`rep_bound`] cutting a repeat to what the
//! screen can show) → [`parse_guard`] (the parser, panics contained) → the
//! screen, with [`terminal_queries`] answering what the parser leaves to the
//! embedder (and reading [`notifications`]), [`held_replies`] keeping
//! answers until the program reads raw, and [`picture_queries`] answering
//! what programs ask about pictures. While the program redraws inside a
//! synchronized update, the pane shows the screen of the update's start
//! ([`sync_update`]).
//!
//! [`damage`] is the pane's one record of what changed, which the
//! renderer reads. [`screen`] is what the rest of tilework reads of a
//! screen, in its own types; [`cell_marks`] carries in the cells what
//! the parser drops (styled underlines, strikethrough, overline, blink,
//! conceal, OSC 8 links) as zero-width markers the fidelity layer's `pen`
//! appends, with the values themselves in [`cell_style`]. [`rewrap`] lays
//! a screen out again at another width. A pane hidden and quiet has its
//! grid put away ([`parked`]) as the bytes that draw it again
//! ([`screen_snapshot`]), rebuilt at the first look.

pub mod attached_facts;
pub mod carried_marks;
pub mod cell_marks;
pub mod cell_style;
pub mod cluster_marks;
pub mod damage;
pub mod emulator;
pub mod escape_scanner;
pub mod fast_forward;
pub mod fidelity;
pub mod grid_scrolling;
pub mod held_replies;
pub mod kitty_apc;
pub mod kitty_notify;
pub mod mark_part;
pub mod notification_id;
pub mod notifications;
pub mod osc_guard;
pub mod parked;
pub mod parse_guard;
pub mod picture_queries;
pub mod placeholder_cells;
pub mod program_signals;
pub mod rep_bound;
pub mod replay;
pub mod rewrap;
pub mod row_advances;
pub mod screen;
pub mod screen_snapshot;
pub mod sync_update;
pub mod terminal_queries;
pub mod tmux_passthrough;
pub mod told;
