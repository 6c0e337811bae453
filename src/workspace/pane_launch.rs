//! What a pane runs, before it has a size: the program and its label, and
//! what a profile said of it (title, kept open, restarted).

use crate::config::profile::{PaneSpec, RestartPolicy, StartMode};
use crate::pane::program::pty::SpawnSpec;
use crate::pane::program::spawn::ChildEnv;

/// What a pane should run, before it has a size.
pub struct PaneLaunch {
    pub spec: SpawnSpec,
    pub label: String,
    /// The title the profile gave, kept when the workspace is saved.
    pub title: Option<String>,
    pub keep_open: Option<bool>,
    pub restart: RestartPolicy,
    /// Its history is never written to disk (`save = false`, `--no-save`).
    pub unsaved: bool,
}

impl PaneLaunch {
    pub fn new(spec: SpawnSpec, label: String) -> Self {
        Self {
            spec,
            label,
            title: None,
            keep_open: None,
            restart: RestartPolicy::Never,
            unsaved: false,
        }
    }

    /// What a profile's pane runs, started as `env` starts programs.
    pub(super) fn from_profile(pane: &PaneSpec, env: &ChildEnv) -> Self {
        let (spec, label) = match &pane.host {
            Some(host) => super::remote_launch::profile_pane(
                host,
                pane.command.as_deref(),
                pane.cwd.as_deref(),
                env,
            ),
            None => match (&pane.command, pane.start) {
                (Some(line), StartMode::Manual) => env.on_enter(line, pane.cwd.clone()),
                (Some(line), StartMode::Auto) => env.command_line(line, pane.cwd.clone()),
                (None, _) => env.shell(pane.cwd.clone()),
            },
        };
        // A profile's command pane is there to be watched: when it ends, even
        // with status 0 and no restart, its output and status stay until the
        // user closes it (as mprocs does), unless the profile says
        // `keep_open = false`. Shell panes follow `keep_exited_panes`.
        let keep_open = pane.keep_open.or(pane.command.is_some().then_some(true));
        let title = pane.title.as_deref().map(shown_text);
        Self {
            spec,
            label: title.clone().unwrap_or_else(|| shown_text(&label)),
            title,
            keep_open,
            restart: pane.restart,
            unsaved: pane.unsaved,
        }
    }
}

/// A profile's names and commands as borders and the status bar show them:
/// a shared profile must not put a bidi override (which turns the rest of
/// the user's terminal line around) or a control character there, any more
/// than a program's title can.
pub(super) fn shown_text(text: &str) -> String {
    crate::sanitize::sanitize_title(text.as_bytes())
}
