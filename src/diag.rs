//! Diagnostics: [`metrics`] counted where the work happens (behind `--fps`
//! and `--stats`), [`stats`] (the `--stats` file), and [`logging`] to a file,
//! never to the terminal.

pub mod logging;
pub mod metrics;
pub mod stats;
