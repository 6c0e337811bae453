//! Diagnostics: [`metrics`] counted where the work happens (behind `--fps`
//! and `--stats`), [`stats`] (the `--stats` file), and [`logging`] to a file,
//! never to the terminal. [`panic_guard`] contains the panics one pane's
//! output can cause and turns any other into a clean exit.

pub mod exit_watchdog;
pub mod logging;
pub mod metrics;
pub mod panic_guard;
pub mod stats;
