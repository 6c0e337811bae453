//! The benchmark harness: the "outer terminal" the scripts in `scripts/`
//! drive. It opens a PTY of the right size, runs a contender (a bare
//! program, tilework, tmux) in it and drains the output as fast as it can,
//! like a fast terminal emulator would.
//!
//! ```text
//! cargo run --release --example bench-harness -- flood --file target/bench/bigfile.txt --runs 3 --table
//! cargo run --release --example bench-harness -- latency --keys 300 --table
//! cargo run --release --example bench-harness -- latency --keys 300 --flood --file target/bench/bigfile.txt --table
//! cargo run --release --example bench-harness -- latency --keys 100 --rounds 3 --yes-panes 32 --table
//! cargo run --release --example bench-harness -- startup --rounds 7 --table
//! cargo run --release --example bench-harness -- idle --seconds 10 --table
//! ```
//!
//! Every subcommand prints one JSON line per measurement (for machines) and,
//! with `--table`, a Markdown table (for people). The scripts
//! `scripts/bench-{flood,latency,idle}.sh` build, prepare and call these.

#[path = "bench_harness/contender.rs"]
mod contender;
#[path = "bench_harness/flood.rs"]
mod flood;
#[path = "bench_harness/idle.rs"]
mod idle;
#[path = "bench_harness/latency.rs"]
mod latency;
#[path = "bench_harness/outer.rs"]
mod outer;
#[path = "bench_harness/procfs.rs"]
mod procfs;
#[path = "bench_harness/startup.rs"]
mod startup;
#[path = "bench_harness/summary.rs"]
mod summary;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "bench-harness",
    about = "Benchmarks tilework against a bare PTY and tmux, as the outer terminal"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// `cat` a big file in a 104x59 pane; the time is taken inside the pane.
    Flood(flood::FloodArgs),
    /// Keystroke-to-echo latency, optionally with a second pane flooding.
    Latency(latency::LatencyArgs),
    /// Start-up to a visible shell prompt, interleaved against tmux.
    Startup(startup::StartupArgs),
    /// tilework's frames, bytes and wake-ups with four idle panes.
    Idle(idle::IdleArgs),
    /// (internal) The flood pane's program for `latency --flood`.
    #[command(hide = true)]
    FloodWriter(latency::FloodWriterArgs),
    /// (internal) The echo pane's program for `latency --echo program`.
    #[command(hide = true)]
    EchoProbe,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match &cli.command {
        Command::Flood(args) => flood::run(args),
        Command::Latency(args) => latency::run(args),
        Command::Idle(args) => idle::run(args),
        Command::Startup(args) => startup::run(args),
        Command::FloodWriter(args) => latency::flood_writer(args),
        Command::EchoProbe => latency::echo_probe(),
    }
}
