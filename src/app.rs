//! The loop: one thread that owns the workspace and, on every wake-up,
//! takes input first, then a budget of each pane's output, then events
//! from other threads, and draws a frame when something changed.
//!
//! - `event_loop`: start-up ([`run`]) and the loop itself.
//! - `feed`: each turn's share of every pane's output.
//! - [`hooks`]: `[hooks]` commands, run off the loop, one at a time each.
//! - [`frame_clock`]: when to draw (dirty, urgent, echo, frame cap).
//! - `input_commands`: what input leaves to the loop (saving a profile,
//!   the clipboard, search threads).
//! - [`loop_event`]: what other threads tell the loop.
//! - [`typing_throttle`]: while the user types, other panes wait their turn.
//! - `signals`: SIGTERM, SIGHUP, SIGINT become a clean shutdown.
//! - [`status_commands`]: the status bar's `"cmd:…"` segments, run off
//!   the loop once per interval.

mod attached;
mod clipboard_reads;
mod command_events;
mod command_watch;
mod deadlines;
mod event_loop;
mod feed;
pub mod frame_clock;
mod frame_stats;
pub mod hook_runner;
mod idle_parking;
mod input_commands;
pub mod loop_event;
#[cfg(test)]
mod loop_tests;
mod pane_streams;
mod progress_forward;
mod quiet_poll;
mod signals;
mod signals_from_programs;
mod silence;
pub mod status_commands;
mod stream_pictures;
mod subscribers;
mod tell_panes;
pub mod typing_throttle;
mod workspace_events;

pub use event_loop::{ECHO_WAIT_BUDGET, PANE_BYTE_BUDGET, RunOptions, Startup, run};
