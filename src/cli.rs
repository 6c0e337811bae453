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

    /// Name the new workspace; with a script's command, the one to drive.
    ///
    /// A new workspace is named after its profile, else a number, unless
    /// given a name; `tilework attach NAME` returns to it after a detach.
    /// `action`, `send-keys`, `run`, `capture` and `list-panes` drive the
    /// workspace named here, else the one their shell is a pane of
    /// ($TILEWORK), else the only one running.
    #[arg(long, value_name = "NAME", global = true)]
    pub session: Option<String>,

    /// Internal: be the workspace process of a new session (the launcher's
    /// listening socket is on stdin).
    #[arg(long = "serve-session", hide = true)]
    pub serve_session: bool,

    /// Internal: the new workspace is the saved one of its name, brought
    /// back (`tilework attach NAME` of a saved workspace passes it).
    #[arg(long = "restore", hide = true, requires = "serve_session")]
    pub restore: bool,

    /// Internal: the new workspace takes over the running one of its name
    /// (`tilework upgrade` passes it; how it went is written on stdout).
    #[arg(long = "take-over", hide = true, requires = "serve_session")]
    pub take_over: bool,

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
    /// List the workspaces: name, panes, attached, detached or saved
    /// (back with `tilework attach NAME` after a crash or reboot), age.
    #[command(visible_alias = "list")]
    Ls {
        /// Also the disk space each saved workspace takes.
        #[arg(short, long)]
        long: bool,
        /// Another machine's workspaces instead: `HOST:` (as ssh takes
        /// it) or `ssh://[user@]host[:port]`.
        #[arg(value_name = "HOST:")]
        host: Option<String>,
    },
    /// Move a running workspace to this tilework binary (after an
    /// upgrade): its programs keep running, its terminals stay attached.
    Upgrade {
        /// The workspace's name, as `tilework ls` shows it (the only one
        /// running if none is given).
        #[arg(conflicts_with = "all")]
        name: Option<String>,
        /// Every running workspace.
        #[arg(long)]
        all: bool,
        /// Hand over even a workspace that runs this version already (a
        /// binary rebuilt without a new version).
        #[arg(long)]
        force: bool,
    },
    /// Delete a saved workspace (its layout and history on disk).
    Forget {
        /// The workspace's name, as `tilework ls` shows it.
        name: String,
    },
    /// Attach this terminal to a running workspace (the only one if no
    /// name is given; when none runs, the only saved one comes back).
    /// Terminals attached already stay attached: all show it and type
    /// into it.
    #[command(visible_alias = "a")]
    Attach {
        /// The workspace's name, as `tilework ls` shows it; `HOST:NAME` or
        /// `ssh://[user@]host[:port]/NAME` for one on another machine
        /// (over ssh, reconnecting when the link drops).
        name: Option<String>,
        /// Detach the other terminals first (tmux's `attach -d`).
        #[arg(short = 'd', long = "detach-others", conflicts_with = "read_only")]
        detach_others: bool,
        /// Only look: keys scroll this terminal's view and detach, nothing
        /// else (tmux's `attach -r`).
        #[arg(short = 'r', long = "read-only")]
        read_only: bool,
        /// Create it when no workspace of that name runs or is saved
        /// (tmux's `new -A`): attach or create, in one command.
        #[arg(short = 'c', long = "create", requires = "name")]
        create: bool,
        /// Internal: the version of the tilework that runs this attach
        /// over ssh (`attach HOST:NAME`); another version is refused.
        #[arg(long = "client-version", hide = true)]
        client_version: Option<String>,
        /// Internal: the workspace as that tilework was given it
        /// (`HOST:NAME`), for messages.
        #[arg(long = "named-as", hide = true)]
        named_as: Option<String>,
    },
    /// End a running workspace and every program in it.
    Kill {
        /// The workspace's name, as `tilework ls` shows it.
        name: String,
    },
    /// Do what a key binding does, in a running workspace: `tilework
    /// action new-tab`, `tilework action focus left`.
    Action {
        /// Print every action's name and what it does.
        #[arg(long, conflicts_with = "name")]
        list: bool,
        /// The action, as the config's keymap names it (`tilework action
        /// --list` shows them all).
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// Its argument, if it takes one (`focus left` is `focus-left`).
        args: Vec<String>,
    },
    /// Type keys into a pane: key names (`Enter`, `C-c`, `M-x`, `Up`,
    /// `F5`) or text, as tmux's send-keys.
    SendKeys {
        /// The pane (an id from `tilework list-panes`; default: the
        /// focused one).
        #[arg(long, value_name = "N")]
        pane: Option<u32>,
        /// Send every argument as text, even one that names a key.
        #[arg(short, long)]
        literal: bool,
        /// Key names and text, sent in order.
        #[arg(required = true, value_name = "KEYS", allow_hyphen_values = true)]
        keys: Vec<String>,
    },
    /// Open a pane running a command (split right by default); prints
    /// the new pane's id.
    Run {
        /// Split the focused pane, the new one to the right or below.
        #[arg(long, value_name = "right|down", conflicts_with_all = ["float", "tab"])]
        split: Option<SplitSide>,
        /// Open it floating over the tab.
        #[arg(long, conflicts_with = "tab")]
        float: bool,
        /// Open it in a new tab.
        #[arg(long)]
        tab: bool,
        /// Its directory (default: this shell's).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Never write its output to disk (the workspace's saving).
        #[arg(long)]
        no_save: bool,
        /// Run it on another machine (as ssh takes it, or
        /// ssh://[user@]host[:port]), in a workspace there, over ssh;
        /// without a command, the remote user's shell.
        #[arg(long, value_name = "HOST")]
        host: Option<String>,
        /// The program and its arguments.
        #[arg(last = true, required_unless_present = "host", value_name = "CMD")]
        argv: Vec<String>,
    },
    /// Internal: the remote end of a remote pane (run over ssh by the
    /// local relay): frames on stdin and stdout.
    #[command(hide = true)]
    Proxy {
        /// The workspace remote panes live in on this host.
        #[arg(long, default_value = crate::remote::proxy::WORKSPACE)]
        workspace: String,
        /// Return to this pane instead of opening one.
        #[arg(long)]
        pane: Option<u32>,
        /// Its output from this ring position on.
        #[arg(long, requires = "pane")]
        from: Option<u64>,
        /// Close the pane instead (its local pane was closed).
        #[arg(long, requires = "pane")]
        close: bool,
        #[arg(long)]
        cwd: Option<String>,
        #[arg(long, default_value_t = 80)]
        cols: u16,
        #[arg(long, default_value_t = 24)]
        rows: u16,
        /// The version of the relay's tilework; another is refused.
        #[arg(long = "client-version")]
        client_version: Option<String>,
        #[arg(last = true)]
        argv: Vec<String>,
    },
    /// Internal: a remote pane's program in the local workspace (ssh to
    /// `tilework proxy` on the host).
    #[command(name = "remote-pane", hide = true)]
    RemotePane {
        #[arg(long)]
        host: String,
        #[arg(long)]
        ssh_command: String,
        #[arg(long)]
        remote_tilework: String,
        #[arg(long)]
        keepalive: u64,
        #[arg(long)]
        cwd: Option<String>,
        #[arg(last = true)]
        argv: Vec<String>,
    },
    /// Print a pane's screen (or its whole history) as text.
    Capture {
        /// The pane (default: the focused one).
        #[arg(long, value_name = "N")]
        pane: Option<u32>,
        /// Everything the pane printed that its history holds, not just
        /// its screen.
        #[arg(long)]
        history: bool,
        /// Keep colours and text attributes (as SGR sequences).
        #[arg(long)]
        ansi: bool,
        /// Only one command's output: -1 the last command that finished,
        /// -2 the one before (needs OSC 133 marks: tilework
        /// shell-integration).
        #[arg(long, value_name = "N", allow_negative_numbers = true, conflicts_with_all = ["history", "commands"])]
        command: Option<i64>,
        /// List the pane's commands: index, exit status, time, command line.
        #[arg(long, conflicts_with = "history")]
        commands: bool,
        /// With --commands: as a JSON array (status, times, line ranges).
        #[arg(long, requires = "commands")]
        json: bool,
    },
    /// Wait until something happens in a pane; exits non-zero at
    /// --timeout. `--prompt` prints the finished command's exit status and
    /// exits with it.
    #[command(group(clap::ArgGroup::new("until").required(true).args(["output", "prompt", "exit", "silence", "notification"])))]
    Wait {
        /// The pane (default: the focused one).
        #[arg(long, value_name = "N")]
        pane: Option<u32>,
        /// Output from now on with a line matching this regex (printed).
        #[arg(long, value_name = "REGEX")]
        output: Option<String>,
        /// The next command finishes (OSC 133 marks: tilework
        /// shell-integration).
        #[arg(long)]
        prompt: bool,
        /// The pane's program ends (prints its exit code).
        #[arg(long)]
        exit: bool,
        /// The pane prints nothing for this many seconds.
        #[arg(long, value_name = "SECS")]
        silence: Option<f64>,
        /// The pane's program sends a notification (OSC 9, 777, 99).
        #[arg(long)]
        notification: bool,
        /// Give up (exit status 2) after this many seconds.
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
    },
    /// Follow what happens in the workspace: one JSON object per line
    /// (output, command-started, command-finished, pane-exited,
    /// pane-focused, tab-created, client-attached, client-detached, bell,
    /// notification, silence). A subscriber that does not keep up is cut
    /// off with an `overflow` event.
    Subscribe {
        /// Only this pane's events.
        #[arg(long, value_name = "N")]
        pane: Option<u32>,
        /// Only these events (comma-separated names).
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        events: Vec<String>,
        /// Output with its escape sequences, not as plain text.
        #[arg(long)]
        escapes: bool,
    },
    /// Print the shell code that marks prompts and commands (OSC 133) for
    /// bash, zsh or fish: `eval "$(tilework shell-integration bash)"` in
    /// ~/.bashrc (fish: `tilework shell-integration fish | source`).
    ShellIntegration {
        /// bash, zsh or fish.
        shell: crate::shell_integration::Shell,
    },
    /// List the paste buffers (the last copies, newest first, as `C-b =`
    /// shows them).
    Buffers {
        /// Print buffer N (0: the newest) as it is, instead.
        #[arg(long, value_name = "N")]
        print: Option<usize>,
    },
    /// Send a pane's output from now on to a shell command's stdin
    /// (tmux's pipe-pane): `tilework pipe --pane 2 -- 'cat >> pane.log'`.
    /// Without a command, the pane's pipe stops.
    Pipe {
        /// The pane (default: the focused one).
        #[arg(long, value_name = "N")]
        pane: Option<u32>,
        /// The shell command (run with sh -c; several words are joined).
        #[arg(value_name = "CMD", allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// List the panes of a running workspace.
    ListPanes {
        /// One JSON array of objects (the shape is in the README).
        #[arg(long)]
        json: bool,
    },
}

/// Where `tilework run --split` puts the new pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitSide {
    Right,
    Down,
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
            matches!(cli.command, Some(SessionCommand::Attach { name: Some(ref n), .. }) if n == "dev")
        );
        let cli = Cli::try_parse_from(["tilework", "ls"]).expect("parses");
        assert!(matches!(
            cli.command,
            Some(SessionCommand::Ls { host: None, .. })
        ));
        let cli = Cli::try_parse_from(["tilework", "ls", "build1:"]).expect("parses");
        assert!(
            matches!(cli.command, Some(SessionCommand::Ls { host: Some(ref h), .. }) if h == "build1:")
        );
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
