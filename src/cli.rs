//! Command-line options.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::terminal::output::WriterKind;

#[derive(Debug, Parser)]
#[command(
    name = "tilework",
    version,
    about = "A terminal workspace: panes over PTYs, one render loop, one write per frame",
    after_help = "Keys: the prefix (default C-b) then ? lists every binding."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<SessionCommand>,

    /// Name the new workspace (default: the profile's name, else a number);
    /// `tilework attach NAME` returns to it after a detach.
    #[arg(long, value_name = "NAME")]
    pub session: Option<String>,

    /// Internal: be the workspace process of a new session (the launcher's
    /// listening socket is on stdin).
    #[arg(long = "serve-session", hide = true)]
    pub serve_session: bool,

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

/// Workspaces that outlive their terminal.
#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// List the running workspaces: name, panes, attached or not, age.
    #[command(visible_alias = "list")]
    Ls,
    /// Attach this terminal to a running workspace (the only one if no
    /// name is given). One attached elsewhere is taken over.
    #[command(visible_alias = "a")]
    Attach {
        /// The workspace's name, as `tilework ls` shows it.
        name: Option<String>,
    },
    /// End a running workspace and every program in it.
    Kill {
        /// The workspace's name, as `tilework ls` shows it.
        name: String,
    },
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
    fn session_commands_parse_and_leave_a_pane_command_alone() {
        let cli = Cli::try_parse_from(["tilework", "attach", "dev"]).expect("parses");
        assert!(
            matches!(cli.command, Some(SessionCommand::Attach { name: Some(ref n) }) if n == "dev")
        );
        let cli = Cli::try_parse_from(["tilework", "ls"]).expect("parses");
        assert!(matches!(cli.command, Some(SessionCommand::Ls)));
        // After `--`, `ls` is the program to run in the pane.
        let cli = Cli::try_parse_from(["tilework", "--", "ls", "-l"]).expect("parses");
        assert!(cli.command.is_none());
        assert_eq!(cli.argv, ["ls", "-l"]);
        let cli =
            Cli::try_parse_from(["tilework", "--serve-session", "--session", "w", "-c", "top"])
                .expect("parses");
        assert!(cli.serve_session);
        assert_eq!(cli.session.as_deref(), Some("w"));
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
