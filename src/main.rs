use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;

use tilework::app::{self, RunOptions, Startup};
use tilework::cli::Cli;
use tilework::config::{self, profile};
use tilework::diag::logging;
use tilework::sanitize::escape_controls;
use tilework::terminal::output::WriterKind;

fn main() -> ExitCode {
    match run() {
        Ok(code) => ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1)),
        Err(err) => {
            // The terminal is restored by now (guards drop before we get here).
            // Every error reaches the terminal here, and any of them may
            // quote a file, a path or a program's words: escaped, none of it
            // can act on the terminal.
            eprintln!("tilework: {}", escape_controls(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<i32> {
    let cli = Cli::parse();
    if cli.print_config {
        print!("{}", config::default_toml());
        return Ok(0);
    }
    // Everything that can fail because of the user's files fails here,
    // before the terminal is touched.
    let mut config = match &cli.config {
        Some(path) => config::load(path, true)?,
        None => match config::default_path() {
            Some(path) => config::load(&path, false)?,
            None => config::Config::default(),
        },
    };
    if cli.keep_exited {
        config.keep_exited_panes = true;
    }
    let startup = if !cli.argv.is_empty() {
        Startup::Argv(cli.argv.clone())
    } else if !cli.commands.is_empty() {
        Startup::Commands(cli.commands.clone())
    } else {
        let name = cli.profile.as_deref().unwrap_or("default");
        Startup::Profile(profile::load(name)?)
    };
    let log_path = cli.log.clone().unwrap_or_else(logging::default_log_path);
    logging::init(&log_path)?;
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "tilework starting");
    let exit_after = match cli.exit_after {
        Some(secs) if secs.is_finite() && secs >= 0.0 => Some(Duration::from_secs_f64(secs)),
        Some(secs) => anyhow::bail!("--exit-after must be a number of seconds, got {secs}"),
        None => None,
    };
    require_terminal(cli.writer)?;
    app::run(RunOptions {
        config,
        startup,
        show_fps: cli.fps,
        writer: cli.writer,
        exit_after,
        stats: cli.stats.clone(),
        save_profile: cli.save_profile.clone(),
    })
    .context("running the workspace")
}

/// The workspace is drawn on the stream frames go to. A pipe or a file there
/// would fail much later with a bare `os error 6` (or fill with escape
/// sequences): say what is wrong while nothing has been touched yet.
fn require_terminal(writer: WriterKind) -> Result<()> {
    let (name, is_terminal) = if writer.uses_stderr() {
        ("stderr", io::stderr().is_terminal())
    } else {
        ("stdout", io::stdout().is_terminal())
    };
    if is_terminal {
        return Ok(());
    }
    anyhow::bail!(
        "{name} is not a terminal: tilework draws its workspace there, so run it in a \
         terminal without redirecting {name}"
    )
}
