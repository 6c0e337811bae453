//! `[hooks]`: a shell command run when something happens in the
//! workspace (tmux's `set-hook`), with the facts in `TILEWORK_*`
//! environment variables. What is run, and how, is `app::hooks`.

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

/// What a hook runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookEvent {
    /// A pane's program ended (`TILEWORK_EXIT_CODE`).
    PaneExited,
    /// Another pane has the focus.
    PaneFocused,
    /// A tab was opened.
    TabCreated,
    /// A terminal attached to the workspace.
    ClientAttached,
    /// The terminal detached (or hung up).
    ClientDetached,
    /// A pane rang the bell.
    Bell,
    /// A pane of a hidden tab printed (once until the tab is shown).
    Activity,
    /// A program asked for attention (OSC 9, 777, 99):
    /// `TILEWORK_NOTIFICATION` holds its text, sanitized.
    Notification,
    /// A pane that printed has printed nothing for `silence_after`
    /// seconds (once until it prints again; tmux's monitor-silence).
    Silence,
    /// A shell marked a command's start (OSC 133 C; issue 43):
    /// `TILEWORK_COMMAND` holds its command line when the shell sent it.
    CommandStarted,
    /// A shell marked a command's end (OSC 133 D): `TILEWORK_EXIT_CODE`
    /// (empty when the shell did not tell it), `TILEWORK_DURATION` (in
    /// seconds, with milliseconds).
    CommandFinished,
}

impl HookEvent {
    pub const ALL: [HookEvent; 11] = [
        HookEvent::PaneExited,
        HookEvent::PaneFocused,
        HookEvent::TabCreated,
        HookEvent::ClientAttached,
        HookEvent::ClientDetached,
        HookEvent::Bell,
        HookEvent::Activity,
        HookEvent::Notification,
        HookEvent::Silence,
        HookEvent::CommandStarted,
        HookEvent::CommandFinished,
    ];

    /// The key in `[hooks]`, and `TILEWORK_HOOK`'s value.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::PaneExited => "pane-exited",
            HookEvent::PaneFocused => "pane-focused",
            HookEvent::TabCreated => "tab-created",
            HookEvent::ClientAttached => "client-attached",
            HookEvent::ClientDetached => "client-detached",
            HookEvent::Bell => "bell",
            HookEvent::Activity => "activity",
            HookEvent::Notification => "notification",
            HookEvent::Silence => "silence",
            HookEvent::CommandStarted => "command-started",
            HookEvent::CommandFinished => "command-finished",
        }
    }
}

/// `[hooks] timeout`'s default and its bounds, in seconds.
pub const DEFAULT_HOOK_TIMEOUT_SECS: u64 = 10;
pub const MAX_HOOK_TIMEOUT_SECS: u64 = 600;

/// `[hooks] notify_after`'s default, in seconds: a command that ran this
/// long and finished where nobody looks is told (issue 43).
pub const DEFAULT_NOTIFY_AFTER_SECS: u64 = 10;

/// `[hooks] silence_after`'s default and its bound, in seconds.
pub const DEFAULT_SILENCE_SECS: u64 = 30;
pub const MAX_SILENCE_SECS: u64 = 86_400;

/// The hooks a config sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hooks {
    pub commands: Vec<(HookEvent, String)>,
    /// How long one run may take before its process group is killed.
    pub timeout: Duration,
    /// How long a pane stays quiet before `silence` runs.
    pub silence_after: Duration,
    /// How long a command must have run for its end in a pane nobody
    /// looks at to be told as a notification (0: never).
    pub notify_after: Duration,
}

impl Default for Hooks {
    fn default() -> Self {
        Self {
            commands: Vec::new(),
            timeout: Duration::from_secs(DEFAULT_HOOK_TIMEOUT_SECS),
            silence_after: Duration::from_secs(DEFAULT_SILENCE_SECS),
            notify_after: Duration::from_secs(DEFAULT_NOTIFY_AFTER_SECS),
        }
    }
}

impl Hooks {
    /// The command hooked to `event`.
    pub fn command(&self, event: HookEvent) -> Option<&str> {
        self.commands
            .iter()
            .find(|(e, _)| *e == event)
            .map(|(_, c)| c.as_str())
    }
}

/// The `[hooks]` table as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawHooks {
    pane_exited: Option<Spanned<String>>,
    pane_focused: Option<Spanned<String>>,
    tab_created: Option<Spanned<String>>,
    client_attached: Option<Spanned<String>>,
    client_detached: Option<Spanned<String>>,
    bell: Option<Spanned<String>>,
    activity: Option<Spanned<String>>,
    notification: Option<Spanned<String>>,
    silence: Option<Spanned<String>>,
    command_started: Option<Spanned<String>>,
    command_finished: Option<Spanned<String>>,
    timeout: Option<Spanned<i64>>,
    #[serde(rename = "notify_after")]
    notify_after: Option<Spanned<i64>>,
    #[serde(rename = "silence_after")]
    silence_after: Option<Spanned<i64>>,
}

/// Reads the table; errors carry the span of what is wrong.
pub(crate) fn parse(raw: RawHooks) -> Result<Hooks, (std::ops::Range<usize>, String)> {
    let mut hooks = Hooks::default();
    let written = [
        (HookEvent::PaneExited, raw.pane_exited),
        (HookEvent::PaneFocused, raw.pane_focused),
        (HookEvent::TabCreated, raw.tab_created),
        (HookEvent::ClientAttached, raw.client_attached),
        (HookEvent::ClientDetached, raw.client_detached),
        (HookEvent::Bell, raw.bell),
        (HookEvent::Activity, raw.activity),
        (HookEvent::Notification, raw.notification),
        (HookEvent::Silence, raw.silence),
        (HookEvent::CommandStarted, raw.command_started),
        (HookEvent::CommandFinished, raw.command_finished),
    ];
    for (event, command) in written {
        let Some(command) = command else { continue };
        if command.get_ref().trim().is_empty() {
            return Err((
                command.span(),
                format!("empty command; leave `{}` out for no hook", event.name()),
            ));
        }
        hooks.commands.push((event, command.into_inner()));
    }
    if let Some(t) = raw.timeout {
        hooks.timeout = match u64::try_from(*t.get_ref()) {
            Ok(n) if (1..=MAX_HOOK_TIMEOUT_SECS).contains(&n) => Duration::from_secs(n),
            _ => {
                return Err((
                    t.span(),
                    format!(
                        "timeout is 1 to {MAX_HOOK_TIMEOUT_SECS} seconds, not {}",
                        t.get_ref()
                    ),
                ));
            }
        };
    }
    if let Some(t) = raw.silence_after {
        hooks.silence_after = match u64::try_from(*t.get_ref()) {
            Ok(n) if (1..=MAX_SILENCE_SECS).contains(&n) => Duration::from_secs(n),
            _ => {
                return Err((
                    t.span(),
                    format!(
                        "silence_after is 1 to {MAX_SILENCE_SECS} seconds, not {}",
                        t.get_ref()
                    ),
                ));
            }
        };
    }
    if let Some(t) = raw.notify_after {
        hooks.notify_after = match u64::try_from(*t.get_ref()) {
            Ok(n) if n <= MAX_SILENCE_SECS => Duration::from_secs(n),
            _ => {
                return Err((
                    t.span(),
                    format!(
                        "notify_after is 0 to {MAX_SILENCE_SECS} seconds, not {}",
                        t.get_ref()
                    ),
                ));
            }
        };
    }
    Ok(hooks)
}

/// The config file's text for `[hooks]`, commented out.
pub fn default_toml() -> String {
    let mut out = String::from(
        "[hooks]\n\
         # A shell command (sh -c) run when something happens, off the loop, one run\n\
         # of a hook at a time (more wait their turn, up to 16; errors go to the log).\n\
         # It gets TILEWORK_HOOK (the event), TILEWORK_PANE (the pane's id),\n\
         # TILEWORK_TAB (the tab's number), TILEWORK_PANE_COMMAND and, for\n\
         # pane-exited, TILEWORK_EXIT_CODE.\n# Events: ",
    );
    let names: Vec<&str> = HookEvent::ALL.iter().map(|e| e.name()).collect();
    out.push_str(&names.join(", "));
    out.push_str(".\n# Example: pane-exited = \"notify-send \\\"pane $TILEWORK_PANE: $TILEWORK_EXIT_CODE\\\"\"\n");
    out.push_str("# A run longer than this many seconds is killed.\n");
    out.push_str(&format!("# timeout = {DEFAULT_HOOK_TIMEOUT_SECS}\n"));
    out.push_str("# notification gets TILEWORK_NOTIFICATION (the text, sanitized); silence runs\n");
    out.push_str("# once a pane that printed has been quiet this many seconds.\n");
    out.push_str(&format!("# silence_after = {DEFAULT_SILENCE_SECS}\n"));
    out.push_str("# command-started and command-finished need a shell that marks its commands\n");
    out.push_str("# (tilework shell-integration); command-finished gets TILEWORK_EXIT_CODE and\n");
    out.push_str("# TILEWORK_DURATION (seconds). A command that ran this many seconds and ends\n");
    out.push_str(
        "# in a pane nobody looks at marks its tab and is told as a notification (0: never).\n",
    );
    out.push_str(&format!("# notify_after = {DEFAULT_NOTIFY_AFTER_SECS}\n"));
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<crate::config::Config, String> {
        crate::config::parse(text, std::path::Path::new("c.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn hooks_are_read_and_mistakes_are_pointed_at() {
        let config = parse_text("[hooks]\npane-exited = \"true\"\ntimeout = 3\n").unwrap();
        assert_eq!(config.hooks.command(HookEvent::PaneExited), Some("true"));
        assert_eq!(config.hooks.command(HookEvent::TabCreated), None);
        assert_eq!(config.hooks.timeout, Duration::from_secs(3));
        let err = parse_text("[hooks]\npane-exitted = \"true\"\n").unwrap_err();
        assert!(err.starts_with("c.toml:2:1"), "{err}");
        let err = parse_text("[hooks]\ntab-created = \" \"\n").unwrap_err();
        assert!(err.contains("empty command"), "{err}");
        let err = parse_text("[hooks]\ntimeout = 0\n").unwrap_err();
        assert!(err.contains("timeout is 1 to"), "{err}");
    }
}
