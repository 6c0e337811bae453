//! Command-line options.

use std::path::PathBuf;

use clap::Parser;

use crate::terminal::output::WriterKind;

#[derive(Debug, Parser)]
#[command(
    name = "tilework",
    version,
    about = "A terminal workspace: panes over PTYs, one render loop, one write per frame",
    after_help = "Keys: the prefix (default C-b) then ? lists every binding."
)]
pub struct Cli {
    /// Run a shell command line in a pane (repeat for panes side by side).
    // With `-- CMD` too, one of them would be silently ignored.
    #[arg(
        short = 'c',
        long = "command",
        value_name = "LINE",
        conflicts_with = "argv"
    )]
    pub commands: Vec<String>,

    /// Open a workspace profile: a name (config dir or built-in) or a path.
    // Each of these says what the first tab runs; taking one would silently
    // drop the other.
    #[arg(long, value_name = "NAME|PATH", conflicts_with_all = ["commands", "argv"])]
    pub profile: Option<String>,

    /// Config file (default: $XDG_CONFIG_HOME/tilework/config.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Print the default configuration (every setting and binding) and exit.
    #[arg(long)]
    pub print_config: bool,

    /// Log file (default: $XDG_STATE_HOME/tilework/tilework.log).
    #[arg(long, value_name = "PATH")]
    pub log: Option<PathBuf>,

    /// Show the frame-rate / diagnostics overlay.
    #[arg(long)]
    pub fps: bool,

    /// Output stream for frames: bufwriter-raw, stdout, stderr,
    /// bufwriter-stdout, linewriter-stderr, raw.
    #[arg(long, value_name = "KIND", default_value = "bufwriter-raw")]
    pub writer: WriterKind,

    /// Write one JSON line per frame (time, duration, bytes, writes, queues).
    #[arg(long, value_name = "PATH")]
    pub stats: Option<PathBuf>,

    /// Quit by itself after this many seconds (for profiling and benchmarks).
    #[arg(long, value_name = "SECS")]
    pub exit_after: Option<f64>,

    /// Save the workspace as this profile when tilework quits
    /// (~/.config/tilework/profiles/NAME.toml; reopen with --profile NAME).
    #[arg(long, value_name = "NAME")]
    pub save_profile: Option<String>,

    /// Keep panes open showing the exit status when their program ends.
    #[arg(long)]
    pub keep_exited: bool,

    /// Program and arguments to run in the first pane instead of the shell.
    #[arg(last = true, value_name = "CMD")]
    pub argv: Vec<String>,
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::*;

    fn conflict(args: &[&str]) -> String {
        let err = Cli::try_parse_from(args).expect_err("refused");
        assert_eq!(err.kind(), ErrorKind::ArgumentConflict, "{args:?}: {err}");
        err.to_string()
    }

    #[test]
    fn ways_of_saying_what_runs_cannot_be_combined() {
        let msg = conflict(&["tilework", "--profile", "dev", "--", "htop"]);
        assert!(msg.contains("--profile"), "{msg}");
        conflict(&["tilework", "--profile", "dev", "-c", "top"]);
        conflict(&["tilework", "-c", "top", "--", "htop"]);
    }

    #[test]
    fn each_alone_is_accepted() {
        for args in [
            &["tilework", "--profile", "dev"][..],
            &["tilework", "-c", "top", "-c", "htop"],
            &["tilework", "--", "htop", "-d", "5"],
        ] {
            assert!(Cli::try_parse_from(args).is_ok(), "{args:?}");
        }
    }
}
