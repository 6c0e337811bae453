//! From the user's keys and mouse to what happens.
//!
//! - [`router`]: the entry point. A key goes first to the open [`popups`]
//!   (newest first), then down the fixed [`layers`] (prefix with its
//!   which-key popup, a repeat, copy mode, normal typing) through the
//!   keymap (`config::keymap`); a mouse event goes to [`mouse`].
//! - [`popups`]: help, the prompt and command line, `C-b q`'s pane
//!   numbers, the search-all results, `C-b s`'s and `C-b =`'s choosers, a
//!   question before a close: each one value that takes its keys and
//!   draws itself, in one stack.
//! - [`ui_state`]: what the layers change and rendering reads: mode,
//!   notice, selections, copy mode, paste buffers; [`ui_view`] is what
//!   rendering gets.
//! - [`copy_session`]: copy mode from entering to leaving, over
//!   [`copy_mode`]'s cursor, selection and search; [`copy_window`] moves
//!   the window of history shown along with the cursor; [`search_worker`]
//!   runs its regex searches off the render loop, [`search_all`] those
//!   across panes, both over the whole history ([`ring_search`]), all
//!   reading rows as text and matching on them with [`row_text`].
//! - [`to_panes`] and [`key_encoder`]: keys, pastes and mouse reports as
//!   the bytes an xterm would send, for the programs; [`script_keys`]
//!   reads `tilework send-keys`' arguments into keys for that encoder.
//! - [`outcome`]: what handling an event did, and the [`Command`]s
//!   (saving, clipboard, searching threads) it leaves to the loop.
//! - [`command_line`]: what the command prompt (`C-b :`) reads, and its
//!   completion; [`pane_facts`]: the focused pane's facts in a line
//!   (`C-b i`).
//! - [`paste_buffers`]: the last copies kept.
//! - [`status_facts`]: the status bar's clock and host name; the clock is
//!   one of the router's deadlines.
//!
//! [`Command`]: outcome::Command

pub mod command_line;
pub mod command_search;
pub mod copy_keys;
pub mod copy_mode;
pub mod copy_prompts;
pub mod copy_session;
pub mod copy_window;
pub mod focus_events;
pub mod key_encoder;
pub mod layers;
pub mod mouse;
pub mod outcome;
pub mod pane_facts;
pub mod paste_buffers;
pub mod popups;
pub mod remote_run;
pub mod ring_search;
pub mod router;
pub mod row_text;
pub mod script_keys;
pub mod search_worker;
pub mod status_facts;
pub mod to_panes;
pub mod ui_state;
pub mod ui_view;

// The loop starts the searches across panes and lists the workspaces for
// two popups by these paths.
pub use popups::{search_all, workspace_chooser};
