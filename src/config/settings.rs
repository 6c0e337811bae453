//! The user's configuration file: prefix key, bindings, shell and limits.
//!
//! The file is optional and every setting has a default, so a fresh install
//! works without one. When a file is wrong, the error names the file, line,
//! column and key, because a multiplexer that refuses to start with a vague
//! message is the worst kind of broken.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, Visitor};
use toml::Spanned;

use crate::config::action::Action;
use crate::config::appearance::{self, Appearance};
use crate::config::file_error::{self, FileError};
use crate::config::keymap::{KeySpec, Keymap};

/// `scrollback` is output kept, not memory used: a pane can always scroll
/// back through its newest 8 MiB of output. The history ring keeps it
/// LZ4-compressed in 64 KiB blocks, so it takes about half that (4 MiB
/// for log lines, far less for repetitive output, at most 8 MiB plus a
/// block for output that does not compress).
pub const DEFAULT_SCROLLBACK_BYTES: usize = 8 * 1024 * 1024;
/// The most scrollback a pane may keep. The ring holds raw output, about
/// 100 bytes a line, so this is some 10 million lines, more than anyone
/// reads back; and it costs more than itself: scrolling back copies the
/// ring for the replay and parses it at ~60 MB/s (about 17 s for 1 GiB),
/// and every pane may fill its own. Past this the setting is a typo
/// (`"100000GiB"`) that would let one pane take the machine's memory.
pub const MAX_SCROLLBACK_BYTES: usize = 1 << 30;
pub const DEFAULT_FPS: u32 = 60;
/// Above this, frames come faster than any terminal can show them and the
/// render loop would only burn CPU.
pub const MAX_FPS: u32 = 1000;
pub const DEFAULT_TERM: &str = "xterm-256color";
/// The longest `term`: terminfo names are short (ncurses caps them at 512).
pub const MAX_TERM_BYTES: usize = 256;
/// tmux's `repeat-time` default, in milliseconds.
pub const DEFAULT_REPEAT_MS: u64 = 500;
/// Longer than this, a key typed seconds after a resize would still move
/// the border instead of reaching the program: a typo (`5000` for `500`).
pub const MAX_REPEAT_MS: u64 = 2000;
/// The highest `max_panes` a config may ask for: each pane holds a PTY,
/// a process or more and threads.
pub const MAX_MAX_PANES: usize = 1000;

/// The action name that removes a default binding.
pub(super) use crate::config::key_spec::UNBIND;

/// What to do when the terminal hangs up (`on_hangup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnHangup {
    /// Let the terminal go; the workspace keeps running.
    #[default]
    Detach,
    /// End the workspace, as before sessions.
    Quit,
}

/// What becomes of programs' notifications (OSC 9, 777, 99):
/// `notifications`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Notifications {
    /// Ignored.
    Off,
    /// The pane's tab is marked and the status bar shows the text.
    Status,
    /// As `Status`, and passed on (sanitized) to the user's terminal.
    #[default]
    Forward,
}

impl Notifications {
    pub fn name(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Status => "status",
            Self::Forward => "forward",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub keymap: Keymap,
    /// Program for new panes; `None` means `$SHELL`, else `/bin/sh`.
    pub shell: Option<String>,
    /// Scrollback budget per pane, in bytes of output kept (stored
    /// compressed; see [`DEFAULT_SCROLLBACK_BYTES`]).
    pub scrollback_bytes: usize,
    /// Upper bound on redraws per second (1..=[`MAX_FPS`]).
    pub fps: u32,
    /// The pixels the workspace's pictures may hold (issue 34), in bytes.
    pub image_memory: usize,
    /// `false`: a pane closes when its program exits; `true`: it stays,
    /// showing the exit status, so output of short commands can be read.
    pub keep_exited_panes: bool,
    /// The most panes open at once, however they are opened (keys,
    /// `tilework run`, actions); a profile may hold at most
    /// [`crate::config::profile::MAX_PANES`].
    pub max_panes: usize,
    /// Ask (y/n) before closing a pane or tab, or quitting, stops a
    /// program other than a shell at its prompt.
    pub confirm_close: bool,
    /// After a repeating command (a resize), how long its key works again
    /// without the prefix (tmux's `repeat-time`); zero: never.
    pub repeat_time: std::time::Duration,
    /// `TERM` for programs in panes.
    pub term: String,
    pub mouse: bool,
    /// Let programs set the user's clipboard with OSC 52. Off by default: a
    /// program (or a file you `cat`) could otherwise overwrite what you
    /// copied. Reads (`OSC 52 ; ?`) are `clipboard_read`'s.
    pub clipboard_from_programs: bool,
    /// Whether programs may read the clipboard (`OSC 52 ; ?`): off, ask,
    /// allow.
    pub clipboard_read: crate::config::clipboard_read::ClipboardRead,
    /// A local command that receives copied text on stdin (e.g. `wl-copy`,
    /// `xclip -selection clipboard`), besides OSC 52. Unset: wl-copy or xclip
    /// when found.
    pub copy_command: Option<String>,
    /// Theme, borders and status bar (`[theme]`, `[status]`).
    pub appearance: Appearance,
    /// `C-b e` hands the editor the history with its colours, as SGR
    /// sequences (for `less -R`, `bat`); plain text by default.
    pub editor_ansi: bool,
    /// Panes get `$TMUX`, `$TMUX_PANE` and a `tmux` on `PATH` that is
    /// tilework (`crate::tmux_compat`), so tools built for tmux drive it.
    pub tmux_compat: bool,
    /// What a program asking for the terminal's foreground, background and
    /// cursor colours (OSC 10/11/12) is told, over what the user's terminal
    /// answers at start (`None`: its answer, or no answer).
    pub terminal_colours: [Option<crate::config::colour::Rgb>; 3],
    /// When the terminal hangs up (ssh dropped, window closed): detach and
    /// keep running, or quit.
    pub on_hangup: OnHangup,
    pub notifications: Notifications,
    /// Whose size the layout takes with several terminals attached.
    pub window_size: crate::config::clients::WindowSize,
    /// Each terminal its own tab and focus, or one view for all.
    pub client_views: crate::config::clients::ClientViews,
    /// Variables an attaching terminal brings for new panes.
    pub update_environment: Vec<String>,
    /// What is saved to disk for after a crash or reboot
    /// (`persist_history`, `keep_on_quit`, `restore_commands`).
    pub saving: crate::config::saving::Saving,
    /// OSC 8 links kept and drawn (`hyperlinks`).
    pub hyperlinks: bool,
    /// What the user's terminal draws, said outright (`terminal_features`).
    pub terminal_features: crate::config::terminal_features::TerminalFeatures,
    /// Commands run when something happens (`[hooks]`).
    pub hooks: crate::config::hooks::Hooks,
    /// How other machines are reached (`[remote]`).
    pub remote: crate::config::remote_settings::Remote,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            keymap: Keymap::default(),
            shell: None,
            scrollback_bytes: DEFAULT_SCROLLBACK_BYTES,
            fps: DEFAULT_FPS,
            image_memory: crate::graphics::picture_store::DEFAULT_BUDGET,
            keep_exited_panes: false,
            max_panes: crate::config::profile::MAX_PANES,
            confirm_close: true,
            repeat_time: std::time::Duration::from_millis(DEFAULT_REPEAT_MS),
            term: DEFAULT_TERM.to_string(),
            mouse: true,
            clipboard_from_programs: false,
            clipboard_read: Default::default(),
            copy_command: None,
            appearance: Appearance::default(),
            editor_ansi: false,
            tmux_compat: true,
            terminal_colours: [None; 3],
            on_hangup: OnHangup::Detach,
            notifications: Notifications::default(),
            window_size: crate::config::clients::WindowSize::Latest,
            client_views: crate::config::clients::ClientViews::Shared,
            update_environment: crate::config::clients::default_update_environment(),
            saving: crate::config::saving::Saving::default(),
            hyperlinks: true,
            terminal_features: Default::default(),
            hooks: crate::config::hooks::Hooks::default(),
            remote: crate::config::remote_settings::Remote::default(),
        }
    }
}

/// A configuration file that could not be read or understood (see
/// [`FileError`]).
pub type ConfigError = FileError;

/// `$XDG_CONFIG_HOME/tilework/config.toml` (or the platform's equivalent).
pub fn default_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("tilework").join("config.toml"))
}

/// Reads and parses the file at `path`.
///
/// `must_exist` is false for the default path, where having no file simply
/// means "all defaults"; a path the user named explicitly must exist, since a
/// typo there would otherwise be silently ignored.
pub fn load(path: &Path, must_exist: bool) -> Result<Config, ConfigError> {
    match file_error::read_bounded(path) {
        Ok(text) => parse(&text, path),
        Err(e) if e.kind() == io::ErrorKind::NotFound && !must_exist => Ok(Config::default()),
        Err(e) => Err(ConfigError::whole_file(
            path,
            format!("cannot read the config file: {e}"),
        )),
    }
}

/// Parses a config text; `path_for_messages` only labels errors.
pub fn parse(text: &str, path_for_messages: &Path) -> Result<Config, ConfigError> {
    let path = path_for_messages;
    let raw: RawConfig =
        toml::from_str(text).map_err(|e| ConfigError::from_toml(text, path, &e))?;
    let err = |span: Range<usize>, message: String| ConfigError::at(text, path, span, message);

    let mut config = Config::default();
    if let Some(prefix) = &raw.prefix {
        let key = prefix
            .get_ref()
            .parse::<KeySpec>()
            .map_err(|e| err(prefix.span(), e.to_string()))?;
        config.keymap.set_prefix(key);
    }
    if let Some(shell) = raw.shell {
        if shell.get_ref().trim().is_empty() {
            return Err(err(
                shell.span(),
                "empty shell; leave `shell` out to use $SHELL".to_string(),
            ));
        }
        refuse_controls("shell", "the program run in new panes", shell.get_ref())
            .map_err(|m| err(shell.span(), m))?;
        check_runnable(shell.get_ref()).map_err(|m| err(shell.span(), m))?;
        config.shell = Some(shell.into_inner());
    }
    if let Some(size) = raw.scrollback {
        config.scrollback_bytes = size.0;
    }
    if let Some(size) = raw.image_memory {
        config.image_memory = size.0;
    }
    if let Some(fps) = &raw.fps {
        config.fps = match u32::try_from(*fps.get_ref()) {
            Ok(n) if (1..=MAX_FPS).contains(&n) => n,
            _ => {
                return Err(err(
                    fps.span(),
                    format!("fps must be between 1 and {MAX_FPS}, not {}", fps.get_ref()),
                ));
            }
        };
    }
    if let Some(keep) = raw.keep_exited_panes {
        config.keep_exited_panes = keep;
    }
    if let Some(n) = &raw.max_panes {
        config.max_panes = match usize::try_from(*n.get_ref()) {
            Ok(n) if (1..=MAX_MAX_PANES).contains(&n) => n,
            _ => {
                return Err(err(
                    n.span(),
                    format!(
                        "max_panes must be between 1 and {MAX_MAX_PANES}, not {}",
                        n.get_ref()
                    ),
                ));
            }
        };
    }
    if let Some(ask) = raw.confirm_close {
        config.confirm_close = ask;
    }
    if let Some(ms) = &raw.repeat_time {
        config.repeat_time = match u64::try_from(*ms.get_ref()) {
            Ok(n) if n <= MAX_REPEAT_MS => std::time::Duration::from_millis(n),
            _ => {
                return Err(err(
                    ms.span(),
                    format!(
                        "repeat_time must be between 0 and {MAX_REPEAT_MS} milliseconds, not {}",
                        ms.get_ref()
                    ),
                ));
            }
        };
    }
    if let Some(term) = raw.term {
        if term.get_ref().trim().is_empty() {
            return Err(err(
                term.span(),
                "empty term; leave `term` out for xterm-256color".to_string(),
            ));
        }
        refuse_controls("term", "TERM for programs in panes", term.get_ref())
            .map_err(|m| err(term.span(), m))?;
        // The kernel refuses to start a program with an environment string
        // over 128 KiB: every pane would fail to start.
        if term.get_ref().len() > MAX_TERM_BYTES {
            return Err(err(
                term.span(),
                format!(
                    "`term` is {} bytes long; a terminal name is at most {MAX_TERM_BYTES}",
                    term.get_ref().len()
                ),
            ));
        }
        config.term = term.into_inner();
    }
    if let Some(cmd) = raw.copy_command {
        if cmd.get_ref().trim().is_empty() {
            return Err(err(
                cmd.span(),
                "empty command; leave `copy_command` out to use wl-copy or xclip".to_string(),
            ));
        }
        config.copy_command = Some(cmd.into_inner());
    }
    if let Some(allow) = raw.clipboard_from_programs {
        config.clipboard_from_programs = allow;
    }
    if let Some(read) = &raw.clipboard_read {
        config.clipboard_read = crate::config::clipboard_read::ClipboardRead::parse(read.get_ref())
            .map_err(|m| err(read.span(), m))?;
    }
    if let Some(mouse) = raw.mouse {
        config.mouse = mouse;
    }
    if let Some(ansi) = raw.editor_ansi {
        config.editor_ansi = ansi;
    }
    if let Some(on) = raw.tmux_compat {
        config.tmux_compat = on;
    }
    if let Some(on) = raw.hyperlinks {
        config.hyperlinks = on;
    }
    if let Some(list) = &raw.terminal_features {
        config.terminal_features =
            crate::config::terminal_features::parse(list).map_err(|(span, m)| err(span, m))?;
    }
    config.appearance =
        appearance::parse(raw.theme, raw.status).map_err(|(span, m)| err(span, m))?;
    let colours = [
        raw.terminal_foreground,
        raw.terminal_background,
        raw.terminal_cursor,
    ];
    for (slot, colour) in config.terminal_colours.iter_mut().zip(colours) {
        if let Some(colour) = colour {
            let rgb = crate::config::colour::parse_colour(colour.get_ref());
            *slot = Some(rgb.ok_or_else(|| {
                err(
                    colour.span(),
                    "not a colour; write \"#rrggbb\" or \"rgb:rr/gg/bb\"".to_string(),
                )
            })?);
        }
    }
    if let Some(notifications) = &raw.notifications {
        config.notifications = match notifications.get_ref().as_str() {
            "off" => Notifications::Off,
            "status" => Notifications::Status,
            "forward" => Notifications::Forward,
            other => {
                return Err(err(
                    notifications.span(),
                    format!("notifications is \"off\", \"status\" or \"forward\", not {other:?}"),
                ));
            }
        };
    }
    if let Some(on_hangup) = &raw.on_hangup {
        config.on_hangup = match on_hangup.get_ref().as_str() {
            "detach" => OnHangup::Detach,
            "quit" => OnHangup::Quit,
            other => {
                return Err(err(
                    on_hangup.span(),
                    format!("on_hangup is \"detach\" or \"quit\", not {other:?}"),
                ));
            }
        };
    }
    if let Some(history) = raw.persist_history {
        config.saving.history = history;
    }
    if let Some(keep) = raw.keep_on_quit {
        config.saving.keep_on_quit = keep;
    }
    if let Some(commands) = raw.restore_commands {
        config.saving.restore_commands = commands;
    }

    if let Some(policy) = &raw.window_size {
        config.window_size = crate::config::clients::WindowSize::parse(policy.get_ref())
            .ok_or_else(|| {
                err(
                    policy.span(),
                    format!(
                        "window_size is \"latest\", \"smallest\" or \"largest\", not {:?}",
                        policy.get_ref()
                    ),
                )
            })?;
    }
    if let Some(views) = &raw.client_views {
        config.client_views = crate::config::clients::ClientViews::parse(views.get_ref())
            .ok_or_else(|| {
                err(
                    views.span(),
                    format!(
                        "client_views is \"shared\" or \"own\", not {:?}",
                        views.get_ref()
                    ),
                )
            })?;
    }
    if let Some(names) = &raw.update_environment {
        config.update_environment = names.clone();
    }

    for (table, entries) in [
        (Table::Prefixed, &raw.keys.prefixed),
        (Table::Direct, &raw.keys.direct),
    ] {
        let bindings = parse_bindings(entries, &err)?;
        for binding in bindings {
            if table == Table::Direct && binding.key.same_key(&config.keymap.prefix) {
                return Err(err(
                    binding.key_span,
                    format!(
                        "`{}` is the prefix key; it cannot also have a direct binding",
                        binding.key_text
                    ),
                ));
            }
            let km = &mut config.keymap;
            match (table, binding.action) {
                (Table::Prefixed, Some(a)) => km.bind_prefixed(binding.key, a),
                (Table::Prefixed, None) => {
                    km.unbind_prefixed(&binding.key);
                }
                (Table::Direct, Some(a)) => km.bind_direct(binding.key, a),
                (Table::Direct, None) => {
                    km.unbind_direct(&binding.key);
                }
            }
        }
    }
    config.hooks = crate::config::hooks::parse(raw.hooks).map_err(|(span, m)| err(span, m))?;
    config.remote =
        crate::config::remote_settings::parse(raw.remote).map_err(|(span, m)| err(span, m))?;
    crate::config::copy_keymap::parse_into(&mut config.keymap.copy, &raw.keys.copy, &err)?;
    Ok(config)
}

/// Settings that end up in a child's environment or argv are handed on
/// as they are: a `term` of `"xterm\n\e]52;..."` would reach every program
/// (and its error messages) as TERM. No terminal name or program path
/// holds a control character, so one is a mistake or an attack.
fn refuse_controls(key: &str, becomes: &str, value: &str) -> Result<(), String> {
    match value.chars().find(|c| c.is_control()) {
        None => Ok(()),
        Some(c) => Err(format!(
            "`{key}` becomes {becomes} and cannot hold control characters (it has {})",
            c.escape_debug()
        )),
    }
}

/// `shell` must name a program that can run: an executable file, by path or
/// found on `$PATH`, as the pane will look for it. Caught here, a typo is an
/// error pointing at the line; missed, every new pane would open only to say
/// that its shell could not start.
fn check_runnable(shell: &str) -> Result<(), String> {
    if which::which(shell).is_ok() {
        return Ok(());
    }
    let why = if shell.contains('/') {
        match std::fs::metadata(shell) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => "no such file".to_string(),
            Err(e) => e.to_string(),
            Ok(meta) if meta.is_dir() => "a directory".to_string(),
            Ok(_) => "not executable".to_string(),
        }
    } else {
        "not found on $PATH".to_string()
    };
    let hint = if shell.contains(char::is_whitespace) {
        "; `shell` is one program, without arguments"
    } else {
        ""
    };
    Err(format!("cannot run shell `{shell}`: {why}{hint}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Prefixed,
    Direct,
}

struct Binding {
    key: KeySpec,
    key_text: String,
    key_span: Range<usize>,
    /// `None` unbinds.
    action: Option<Action>,
}

/// Parses one `[keys.*]` table, in file order so the first mistake is the one
/// reported, refusing two spellings of the same key (`C-b` and `Ctrl-b`),
/// which would otherwise silently override each other.
fn parse_bindings(
    entries: &BTreeMap<Spanned<String>, Spanned<String>>,
    err: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<Vec<Binding>, ConfigError> {
    let mut sorted: Vec<_> = entries.iter().collect();
    sorted.sort_by_key(|(k, _)| k.span().start);
    let mut out: Vec<Binding> = Vec::with_capacity(sorted.len());
    for (key_text, action_text) in sorted {
        let key = key_text
            .get_ref()
            .parse::<KeySpec>()
            .map_err(|e| err(key_text.span(), e.to_string()))?;
        if let Some(earlier) = out.iter().find(|b| b.key.same_key(&key)) {
            return Err(err(
                key_text.span(),
                format!(
                    "`{}` is the same key as `{}`, bound above",
                    key_text.get_ref(),
                    earlier.key_text
                ),
            ));
        }
        let action = if action_text.get_ref() == UNBIND {
            None
        } else {
            let action = action_text.get_ref().parse::<Action>().map_err(|e| {
                err(
                    action_text.span(),
                    format!("{e} (see tilework --print-config for the names)"),
                )
            })?;
            Some(action)
        };
        out.push(Binding {
            key,
            key_text: key_text.get_ref().clone(),
            key_span: key_text.span(),
            action,
        });
    }
    Ok(out)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table of settings")]
struct RawConfig {
    prefix: Option<Spanned<String>>,
    shell: Option<Spanned<String>>,
    scrollback: Option<Size>,
    image_memory: Option<Size>,
    fps: Option<Spanned<i64>>,
    keep_exited_panes: Option<bool>,
    max_panes: Option<Spanned<i64>>,
    confirm_close: Option<bool>,
    repeat_time: Option<Spanned<i64>>,
    term: Option<Spanned<String>>,
    mouse: Option<bool>,
    clipboard_from_programs: Option<bool>,
    clipboard_read: Option<Spanned<String>>,
    copy_command: Option<Spanned<String>>,
    editor_ansi: Option<bool>,
    tmux_compat: Option<bool>,
    terminal_foreground: Option<Spanned<String>>,
    terminal_background: Option<Spanned<String>>,
    terminal_cursor: Option<Spanned<String>>,
    on_hangup: Option<Spanned<String>>,
    notifications: Option<Spanned<String>>,
    window_size: Option<Spanned<String>>,
    client_views: Option<Spanned<String>>,
    update_environment: Option<Vec<String>>,
    persist_history: Option<bool>,
    keep_on_quit: Option<bool>,
    restore_commands: Option<Vec<String>>,
    hyperlinks: Option<bool>,
    terminal_features: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    keys: RawKeys,
    #[serde(default)]
    theme: appearance::RawTheme,
    #[serde(default)]
    status: appearance::RawStatus,
    #[serde(default)]
    hooks: crate::config::hooks::RawHooks,
    #[serde(default)]
    remote: crate::config::remote_settings::RawRemote,
}

#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table with `prefixed`, `direct` and `copy` tables"
)]
struct RawKeys {
    #[serde(default)]
    prefixed: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    direct: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    copy: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// A scrollback budget written as an integer or as a string with a unit,
/// decoded and bounded inside serde so that toml attaches the value's
/// position to errors.
struct Size(usize);

/// Case-insensitive. Single letters are binary, as in `dd`, `sort -S` and
/// systemd. Tera units are known only to say that they are too large.
const SIZE_UNITS: &[(&str, u64)] = &[
    ("B", 1),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("K", 1 << 10),
    ("M", 1 << 20),
    ("G", 1 << 30),
    ("T", 1 << 40),
];

const SIZE_EXPECTED: &str = "a number of bytes or a size like \"8MiB\" \
     (units: B, KiB, MiB, GiB, KB, MB, GB; K, M, G mean KiB, MiB, GiB)";

/// Parses `8MiB`, `512 KiB`, `1.5GB`, `64m`, `4096`; units are
/// case-insensitive. Sizes too large for a `u64` come out as `u64::MAX`,
/// so the caller's upper bound names the problem.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("bad size `{text}`: expected {SIZE_EXPECTED}");
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(t.len());
    let (number, unit) = (t[..split].replace('_', ""), t[split..].trim());
    if number.is_empty() {
        return Err(bad());
    }
    let multiplier = if unit.is_empty() {
        1
    } else {
        SIZE_UNITS
            .iter()
            .find(|(u, _)| u.eq_ignore_ascii_case(unit))
            .map(|&(_, m)| m)
            .ok_or_else(bad)?
    };
    if number.contains('.') {
        let value: f64 = number.parse().map_err(|_| bad())?;
        // `as` saturates, which is what we want here.
        return Ok((value * multiplier as f64).round() as u64);
    }
    let value = match number.parse::<u64>() {
        Ok(v) => v,
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => u64::MAX,
        Err(_) => return Err(bad()),
    };
    Ok(value.saturating_mul(multiplier))
}

/// `bytes` as a scrollback budget, or why not; `written` is how the file
/// spelled it.
fn bounded_scrollback(bytes: u64, written: &dyn fmt::Display) -> Result<usize, String> {
    match usize::try_from(bytes) {
        Ok(b) if b <= MAX_SCROLLBACK_BYTES => Ok(b),
        _ => Err(format!(
            "`{written}` is over the maximum of {} GiB per pane",
            MAX_SCROLLBACK_BYTES >> 30
        )),
    }
}

/// The shortest exact spelling of a size, for writing defaults back out.
pub(super) fn format_size(bytes: usize) -> String {
    for (unit, m) in [("GiB", 1usize << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes != 0 && bytes.is_multiple_of(m) {
            return format!("\"{}{unit}\"", bytes / m);
        }
    }
    bytes.to_string()
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct SizeVisitor;
        impl Visitor<'_> for SizeVisitor {
            type Value = Size;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(SIZE_EXPECTED)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Size, E> {
                bounded_scrollback(v, &v).map(Size).map_err(E::custom)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Size, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(format!("size cannot be negative ({v})"))),
                }
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Size, E> {
                let bytes = parse_size(v).map_err(E::custom)?;
                bounded_scrollback(bytes, &v).map(Size).map_err(E::custom)
            }
        }
        d.deserialize_any(SizeVisitor)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::config::action::Direction;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn path() -> PathBuf {
        PathBuf::from("/home/u/.config/tilework/config.toml")
    }

    fn parse_ok(text: &str) -> Config {
        parse(text, &path()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> String {
        parse(text, &path()).unwrap_err().to_string()
    }

    fn key(s: &str) -> KeySpec {
        s.parse().unwrap()
    }

    #[test]
    fn empty_file_gives_defaults() {
        assert_eq!(parse_ok(""), Config::default());
        assert_eq!(parse_ok("# nothing\n\n"), Config::default());
    }

    #[test]
    fn notifications_are_forwarded_by_default_and_can_stay_home() {
        assert_eq!(Config::default().notifications, Notifications::Forward);
        let c = parse_ok("notifications = \"status\"");
        assert_eq!(c.notifications, Notifications::Status);
        assert!(
            parse_err("notifications = \"loud\"").contains("\"off\", \"status\" or \"forward\"")
        );
    }

    #[test]
    fn terminal_colours_override_what_programs_are_told() {
        use crate::config::colour::Rgb;
        let c = parse_ok("terminal_background = \"#1e1e2e\"\nterminal_cursor = \"rgb:ff/00/00\"");
        assert_eq!(
            c.terminal_colours,
            [
                None,
                Some(Rgb(0x1e1e, 0x1e1e, 0x2e2e)),
                Some(Rgb(0xffff, 0, 0))
            ]
        );
        let e = parse_err("terminal_foreground = \"light\"");
        assert!(e.contains("not a colour"), "{e}");
    }

    #[test]
    fn full_example_parses() {
        let c = parse_ok(
            r#"
prefix = "C-a"
shell = "/bin/sh"
scrollback = "16MiB"
fps = 30
keep_exited_panes = true
max_panes = 12
term = "tmux-256color"
mouse = false
[keys.prefixed]
"%" = "split-right"
"v" = "split-right"
"x" = "none"
[keys.direct]
"M-h" = "focus-left"
"M-t" = "none"
"F5" = "toggle-help"
"#,
        );
        assert_eq!(c.shell.as_deref(), Some("/bin/sh"));
        assert_eq!(c.scrollback_bytes, 16 << 20);
        assert_eq!(c.fps, 30);
        assert!(c.keep_exited_panes);
        assert_eq!(c.max_panes, 12);
        assert_eq!(c.term, "tmux-256color");
        assert!(!c.mouse);
        let km = &c.keymap;
        assert_eq!(km.prefix, key("C-a"));
        let ev = |code, m| KeyEvent::new(code, m);
        assert!(km.is_prefix(&ev(KeyCode::Char('a'), KeyModifiers::CONTROL)));
        assert_eq!(
            km.lookup_prefixed(&ev(KeyCode::Char('a'), KeyModifiers::CONTROL)),
            Some(Action::SendPrefix)
        );
        assert_eq!(
            km.lookup_prefixed(&ev(KeyCode::Char('v'), KeyModifiers::NONE)),
            Some(Action::SplitRight)
        );
        assert_eq!(
            km.lookup_prefixed(&ev(KeyCode::Char('x'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            km.lookup_direct(&ev(KeyCode::Char('h'), KeyModifiers::ALT)),
            Some(Action::Focus(Direction::Left))
        );
        assert_eq!(
            km.lookup_direct(&ev(KeyCode::Char('t'), KeyModifiers::ALT)),
            None
        );
        assert_eq!(
            km.lookup_direct(&ev(KeyCode::F(5), KeyModifiers::NONE)),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn scrollback_accepts_integers_and_units() {
        let sb = |v: &str| parse_ok(&format!("scrollback = {v}")).scrollback_bytes;
        assert_eq!(sb("1048576"), 1 << 20);
        assert_eq!(sb("0"), 0);
        assert_eq!(sb("\"8MiB\""), 8 << 20);
        assert_eq!(sb("\"8 mib\""), 8 << 20);
        assert_eq!(sb("\"512KiB\""), 512 << 10);
        assert_eq!(sb("\"1GiB\""), 1 << 30);
        assert_eq!(sb("\"2MB\""), 2_000_000);
        assert_eq!(sb("\"3KB\""), 3_000);
        assert_eq!(sb("\"100B\""), 100);
        assert_eq!(sb("\"100\""), 100);
        assert_eq!(sb("\"1.5MiB\""), 3 << 19);
    }

    #[test]
    fn bad_scrollback_is_located() {
        let e = parse_err("fps = 60\nscrollback = \"8 parsecs\"\n");
        assert!(
            e.starts_with(&format!("{}:2:14: scrollback: ", path().display())),
            "{e}"
        );
        assert!(e.contains("bad size `8 parsecs`"), "{e}");
        let e = parse_err("scrollback = -1");
        assert!(
            e.contains(":1:14: scrollback: size cannot be negative"),
            "{e}"
        );
        let e = parse_err("scrollback = true");
        assert!(e.contains("scrollback: invalid type"), "{e}");
        let e = parse_err("scrollback = \"99999999999GiB\"");
        assert!(e.contains("over the maximum of 1 GiB per pane"), "{e}");
    }

    #[test]
    fn scrollback_has_a_maximum_named_in_the_error() {
        let sb = |v: &str| parse(&format!("scrollback = {v}"), &path()).map(|c| c.scrollback_bytes);
        assert_eq!(sb("\"1GiB\"").unwrap(), MAX_SCROLLBACK_BYTES);
        assert_eq!(sb("\"1024MiB\"").unwrap(), MAX_SCROLLBACK_BYTES);
        assert_eq!(sb("1073741824").unwrap(), MAX_SCROLLBACK_BYTES);
        for too_much in [
            "\"100000GiB\"",
            "\"1025MiB\"",
            "\"1.01GiB\"",
            "\"1TiB\"",
            "\"2 tb\"",
            "\"2G\"",
            "1073741825",
            "9223372036854775807",
            "\"99999999999999999999999999\"",
            "\"99999999999999999999999999.5 GiB\"",
        ] {
            let e = sb(too_much).unwrap_err().to_string();
            assert!(
                e.contains(":1:14: scrollback: `")
                    && e.ends_with("` is over the maximum of 1 GiB per pane"),
                "{too_much}: {e}"
            );
        }
        assert!(
            parse_err("scrollback = \"100000GiB\"").contains("`100000GiB` is over the maximum")
        );
    }

    #[test]
    fn scrollback_accepts_the_units_people_write() {
        let sb = |v: &str| parse_ok(&format!("scrollback = \"{v}\"")).scrollback_bytes;
        for (written, bytes) in [
            ("64KiB", 64 << 10),
            ("64kib", 64 << 10),
            ("64 KIB", 64 << 10),
            ("64K", 64 << 10),
            ("64k", 64 << 10),
            ("64KB", 64_000),
            ("64kb", 64_000),
            ("16MiB", 16 << 20),
            ("16m", 16 << 20),
            ("16 MB", 16_000_000),
            ("1GiB", 1 << 30),
            ("1g", 1 << 30),
            ("1GB", 1_000_000_000),
            ("0.5G", 1 << 29),
            ("512b", 512),
        ] {
            assert_eq!(sb(written), bytes, "{written}");
        }
        let e = parse_err("scrollback = \"16 MiBs\"");
        assert!(e.contains("bad size `16 MiBs`"), "{e}");
    }

    #[test]
    fn settings_that_reach_children_refuse_control_characters() {
        let e = parse_err("term = \"xterm\\n\\u001b]52;c;Zm9v\\u0007\"");
        assert_eq!(
            e,
            format!(
                "{}:1:8: term: `term` becomes TERM for programs in panes and cannot hold control characters (it has \\n)",
                path().display()
            )
        );
        let e = parse_err("shell = \"/bin/sh\\u001b[2J\"");
        assert!(
            e.contains(":1:9: shell: `shell` becomes the program run in new panes and cannot hold control characters (it has \\u{1b})"),
            "{e}"
        );
        assert_eq!(parse_ok("term = \"tmux-256color\"").term, "tmux-256color");
    }

    #[test]
    fn a_term_too_long_to_start_a_program_with_is_refused() {
        let e = parse_err(&format!("term = \"{}\"", "x".repeat(131_072)));
        assert!(
            e.contains(":1:8: term: `term` is 131072 bytes long; a terminal name is at most 256"),
            "{e}"
        );
        let longest = "x".repeat(MAX_TERM_BYTES);
        assert_eq!(parse_ok(&format!("term = \"{longest}\"")).term, longest);
    }

    /// Every message that quotes the file: what a shared config could try to
    /// make tilework print.
    #[test]
    fn errors_quoting_the_file_hold_no_control_characters() {
        let osc = "\\u001b]52;c;Y3VybCBldmlsfHNoCg==\\u0007";
        for text in [
            format!("prefix = \"{osc}\""),
            format!("[keys.prefixed]\n\"{osc}\" = \"quit\"\n"),
            format!("[keys.prefixed]\n\"Q\" = \"{osc}\"\n"),
            format!("[keys.direct]\n\"C-{osc}\" = \"quit\"\n"),
            format!("\"{osc}\" = 1\n"),
            format!("[keys]\n\"{osc}\" = {{}}\n"),
            format!("scrollback = \"{osc}\""),
            "prefix = \"\\u009b2J\"".to_string(),
            "prefix = \"\\u202eab\"".to_string(),
        ] {
            let e = parse_err(&text);
            assert!(!e.chars().any(char::is_control), "{text}: {e:?}");
            assert!(
                e.contains("\\u{1b}]52;c;Y3VybCBldmlsfHNoCg==\\u{7}")
                    || e.contains("\\u{9b}2J")
                    || e.contains("\\u{202e}"),
                "{text}: the escaped form is not shown: {e}"
            );
        }
    }

    #[test]
    fn unknown_action_names_file_line_column_and_key() {
        let text =
            "prefix = \"C-b\"\n\n[keys.prefixed]\n\"%\" = \"split-right\"\n\n\n\"Q\" = \"quitt\"\n";
        let e = parse_err(text);
        assert_eq!(
            e,
            format!(
                "{}:7:7: keys.prefixed.\"Q\": unknown action `quitt` (see tilework --print-config for the names)",
                path().display()
            )
        );
    }

    #[test]
    fn bad_key_names_the_key() {
        let e = parse_err("[keys.direct]\n\"M-foo\" = \"focus-left\"\n");
        assert!(
            e.contains(":2:1: keys.direct.\"M-foo\": unknown key `foo` in `M-foo`"),
            "{e}"
        );
        let e = parse_err("prefix = \"Hyper-b\"");
        assert!(e.contains(":1:10: prefix: unknown key `Hyper-b`"), "{e}");
    }

    #[test]
    fn unknown_top_level_keys_are_refused() {
        let e = parse_err("fps = 60\nprefx = \"C-a\"\n");
        assert!(e.contains(":2:1: prefx: unknown field `prefx`"), "{e}");
        let e = parse_err("[keys.prefix]\n\"a\" = \"quit\"\n");
        assert!(e.contains("keys.prefix: unknown field `prefix`"), "{e}");
    }

    #[test]
    fn wrong_types_are_refused() {
        let e = parse_err("mouse = \"yes\"");
        assert!(e.contains(":1:9: mouse: invalid type: string"), "{e}");
        let e = parse_err("[keys.prefixed]\nv = 3\n");
        assert!(
            e.contains(":2:5: keys.prefixed.v: invalid type: integer"),
            "{e}"
        );
        let e = parse_err("fps = \"60\"");
        assert!(e.contains("fps: invalid type"), "{e}");
    }

    #[test]
    fn repeat_time_is_milliseconds_up_to_two_seconds() {
        use std::time::Duration;
        assert_eq!(Config::default().repeat_time, Duration::from_millis(500));
        assert_eq!(
            parse_ok("repeat_time = 300").repeat_time,
            Duration::from_millis(300)
        );
        assert_eq!(parse_ok("repeat_time = 0").repeat_time, Duration::ZERO);
        let e = parse_err("repeat_time = 2001");
        assert!(
            e.contains(
                ":1:15: repeat_time: repeat_time must be between 0 and 2000 milliseconds, not 2001"
            ),
            "{e}"
        );
        assert!(parse_err("repeat_time = -1").contains("not -1"));
    }

    #[test]
    fn fps_range_is_checked() {
        let e = parse_err("fps = 0");
        assert!(
            e.contains(":1:7: fps: fps must be between 1 and 1000, not 0"),
            "{e}"
        );
        assert!(parse_err("fps = 1001").contains("not 1001"));
        assert!(parse_err("fps = -5").contains("not -5"));
        assert_eq!(parse_ok("fps = 1000").fps, 1000);
    }

    #[test]
    fn max_panes_defaults_to_a_profiles_limit_and_is_checked() {
        assert_eq!(parse_ok("").max_panes, crate::config::profile::MAX_PANES);
        assert_eq!(parse_ok("max_panes = 3").max_panes, 3);
        let e = parse_err("max_panes = 0");
        assert!(
            e.contains("max_panes must be between 1 and 1000, not 0"),
            "{e}"
        );
        assert!(parse_err("max_panes = 1001").contains("not 1001"));
        assert!(crate::config::default_toml().contains("\n# max_panes = 100\n"));
    }

    #[test]
    fn syntax_errors_are_located() {
        let e = parse_err("fps = 60\nmouse = \n");
        assert!(e.starts_with(&format!("{}:2:", path().display())), "{e}");
        let e = parse_err("fps = 60\nfps = 30\n");
        assert!(e.starts_with(&format!("{}:2:", path().display())), "{e}");
    }

    #[test]
    fn duplicate_keys_are_named() {
        let e = parse_err("fps = 60\nfps = 30\n");
        assert!(e.contains(":2:1: fps: duplicate key"), "{e}");
        let e = parse_err("[keys.prefixed]\n\"a\" = \"quit\"\n\"a\" = \"new-tab\"\n");
        assert!(
            e.contains(":3:1: keys.prefixed.\"a\": duplicate key"),
            "{e}"
        );
    }

    #[test]
    fn two_spellings_of_one_key_are_refused() {
        let e = parse_err("[keys.prefixed]\n\"C-x\" = \"quit\"\n\"Ctrl-X\" = \"new-tab\"\n");
        assert!(
            e.contains(":3:1: keys.prefixed.\"Ctrl-X\": `Ctrl-X` is the same key as `C-x`"),
            "{e}"
        );
    }

    #[test]
    fn prefix_cannot_be_a_direct_binding() {
        let e = parse_err("prefix = \"C-a\"\n[keys.direct]\n\"C-a\" = \"quit\"\n");
        assert!(
            e.contains(":3:1: keys.direct.\"C-a\": `C-a` is the prefix key"),
            "{e}"
        );
        // A default direct binding on the new prefix gives way silently.
        let c = parse_ok("prefix = \"M-n\"");
        assert_eq!(c.keymap.keys_for(Action::SplitRight), ["M-n %", "M-n |"]);
    }

    #[test]
    fn a_shell_that_cannot_run_is_refused_where_it_is_set() {
        let dir = tempfile::tempdir().unwrap();
        let not_executable = dir.path().join("plain-file");
        std::fs::write(&not_executable, "#!/bin/sh\n").unwrap();
        let cases = [
            ("/nonexistent/zsh".to_string(), "no such file"),
            (not_executable.display().to_string(), "not executable"),
            (dir.path().display().to_string(), "a directory"),
            ("tilework-no-such-shell".to_string(), "not found on $PATH"),
            (
                "/bin/sh -l".to_string(),
                "`shell` is one program, without arguments",
            ),
        ];
        for (shell, why) in cases {
            let e = parse_err(&format!("fps = 30\nshell = \"{shell}\"\n"));
            assert!(
                e.contains(&format!(":2:9: shell: cannot run shell `{shell}`: ")),
                "{e}"
            );
            assert!(e.contains(why), "{e}");
        }
        // By path or by name, as panes find it.
        assert_eq!(
            parse_ok("shell = \"/bin/sh\"").shell.as_deref(),
            Some("/bin/sh")
        );
        assert_eq!(parse_ok("shell = \"sh\"").shell.as_deref(), Some("sh"));
    }

    #[test]
    fn empty_strings_are_refused() {
        assert!(parse_err("shell = \"\"").contains("shell: empty shell"));
        assert!(parse_err("term = \" \"").contains("term: empty term"));
    }

    #[test]
    fn load_missing_file() {
        let missing = Path::new("/nonexistent/tilework/config.toml");
        assert_eq!(load(missing, false).unwrap(), Config::default());
        let e = load(missing, true).unwrap_err().to_string();
        assert!(
            e.starts_with("/nonexistent/tilework/config.toml: cannot read"),
            "{e}"
        );
    }

    #[test]
    fn load_refuses_what_is_not_a_regular_file_by_path() {
        let e = load(Path::new("/dev/zero"), true).unwrap_err().to_string();
        assert_eq!(
            e,
            "/dev/zero: cannot read the config file: it is a character device, not a regular file"
        );
        // Even at the default path, where a missing file is fine.
        let e = load(Path::new("/dev/null"), false).unwrap_err().to_string();
        assert!(
            e.starts_with("/dev/null: cannot read the config file"),
            "{e}"
        );
    }

    #[test]
    fn load_reads_the_file() {
        let dir = std::env::temp_dir().join(format!("tilework-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(&file, "fps = 42\n").unwrap();
        assert_eq!(load(&file, true).unwrap().fps, 42);
        std::fs::write(&file, "fps = 0\n").unwrap();
        let e = load(&file, false).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}:1:7: fps:", file.display())),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn default_path_ends_in_tilework_config() {
        if let Some(p) = default_path() {
            assert!(p.ends_with("tilework/config.toml"), "{}", p.display());
        }
    }

    #[test]
    fn terminal_features_and_hyperlinks_read_back() {
        let c = parse_ok("hyperlinks = false\nterminal_features = [\"styled-underlines\"]");
        assert!(!c.hyperlinks && c.terminal_features.styled_underlines);
        assert!(parse_ok("").hyperlinks);
        assert!(
            parse_err("terminal_features = [\"sixel-dreams\"]")
                .contains("unknown terminal feature")
        );
    }

    #[test]
    fn editor_ansi_is_off_unless_asked_for() {
        assert!(!parse_ok("").editor_ansi);
        assert!(parse_ok("editor_ansi = true").editor_ansi);
    }

    #[test]
    fn size_helpers() {
        assert_eq!(format_size(8 << 20), "\"8MiB\"");
        assert_eq!(format_size(3 << 10), "\"3KiB\"");
        assert_eq!(format_size(1000), "1000");
        assert_eq!(format_size(0), "0");
        assert!(parse_size("").is_err());
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("1.2.3MiB").is_err());
        assert_eq!(parse_size(" 4_096 ").unwrap(), 4096);
    }
}
