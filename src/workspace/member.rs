//! What the workspace keeps beside each pane ([`Member`]): what it decides
//! when the pane's program ends, and what it last learnt of it.

use std::time::Instant;

use crate::config::profile::RestartPolicy;
use crate::pane::Pane;
use crate::workspace::cwd::PanePlace;
use crate::workspace::foreground::Foreground;
use crate::workspace::naming::{PaneName, name_of};
use crate::workspace::pane_launch::PaneLaunch;

/// A pane and what the workspace decides about it when its program ends.
pub(super) struct Member {
    pub(super) pane: Pane,
    /// The id scripts know the pane by (`list-panes`, `--pane N`): its
    /// first [`PaneId`]'s number, kept when its command restarts in a
    /// fresh pane (whose own id is new, so the old program's late exit
    /// cannot close it).
    pub(super) script_id: u32,
    /// Overrides `keep_exited_panes` (from profiles).
    pub(super) keep_open: Option<bool>,
    /// Command panes (from profiles).
    pub(super) restart: RestartPolicy,
    /// When the ended program starts again.
    pub(super) restart_at: Option<Instant>,
    /// A command pane's failures in a row, for the restart's back-off.
    pub(super) failures: u32,
    /// The title the profile gave, kept when the workspace is saved.
    pub(super) title: Option<String>,
    /// What the pane is known by, as last looked up (`refresh_names`).
    pub(super) name: Option<PaneName>,
    /// Its directory and git branch, looked up with the name.
    pub(super) place: Option<PanePlace>,
    /// The directory as last looked up (saved with the workspace).
    pub(super) dir: Option<std::path::PathBuf>,
    /// A file the pane's program was given (a history for its editor),
    /// removed when the pane goes.
    pub(super) file: Option<tempfile::TempPath>,
    /// Its history is never written to disk (`save = false`, `--no-save`).
    pub(super) unsaved: bool,
    /// The job its shell runs in the foreground, as last looked up.
    pub(super) job: Option<crate::workspace::foreground::Job>,
    /// Text to type once its shell is up (a restored job, see
    /// `typed_ahead`).
    pub(super) typed_ahead: Option<Vec<u8>>,
}

impl Member {
    pub(super) fn new(pane: Pane, keep_open: Option<bool>, restart: RestartPolicy) -> Self {
        Self {
            script_id: pane.id.0,
            pane,
            keep_open,
            restart,
            restart_at: None,
            failures: 0,
            title: None,
            name: None,
            place: None,
            dir: None,
            file: None,
            unsaved: false,
            job: None,
            typed_ahead: None,
        }
    }

    /// What a look at the pane found: its foreground program, directory
    /// and place. Returns whether its name or place changed.
    pub(super) fn learn(
        &mut self,
        foreground: Option<&Foreground>,
        dir: Option<std::path::PathBuf>,
        place: Option<PanePlace>,
        home: Option<&std::path::Path>,
    ) -> bool {
        let name = name_of(&self.pane, foreground, dir.as_deref(), home);
        let mut changed = false;
        if dir.is_some() && dir != self.dir {
            self.dir = dir;
            changed = true;
        }
        if place != self.place {
            self.place = place;
            changed = true;
        }
        if name != self.name {
            self.name = name;
            self.pane.term_mut().name_changed();
            changed = true;
        }
        changed
    }

    /// What runs the pane's command again, as it was launched.
    pub(super) fn relaunch(&self) -> PaneLaunch {
        PaneLaunch {
            spec: self.pane.spec.clone(),
            label: self.pane.label().to_string(),
            title: self.title.clone(),
            keep_open: self.keep_open,
            restart: self.restart,
            unsaved: self.unsaved,
        }
    }
}
