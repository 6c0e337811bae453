//! What a saved workspace holds, in one small JSON file replaced whole
//! (written beside it, then renamed over it): the layout as a profile's
//! text (tabs, splits and ratios, floating panes, focus, each pane's
//! directory, command and title; see `workspace::profile_save`), and for
//! each of its panes, in the profile's order, which files hold its history.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::persist::place;
use crate::workspace::foreground::Job;

/// Bumped when the files change so that an older tilework cannot read them.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// When it was written, in seconds since the epoch.
    pub saved_at: i64,
    /// The workspace as a profile's TOML text.
    pub layout: String,
    /// The panes in the order the profile opens them.
    pub panes: Vec<SavedPane>,
    /// The tab shown (from 0).
    #[serde(default)]
    pub active_tab: usize,
    /// The tabs whose focused pane was zoomed.
    #[serde(default)]
    pub zoomed_tabs: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedPane {
    /// The name every file of the pane's history starts with (`None`:
    /// history is not saved).
    pub files: Option<String>,
    /// Bytes of output the pane kept (its `scrollback`).
    pub budget: u64,
    /// The job its shell ran in the foreground (see `relaunch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<Job>,
}

impl Manifest {
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let text = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        place::write_atomically(&dir.join(place::MANIFEST), &text)
    }

    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(place::MANIFEST);
        let bytes = place::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let manifest: Self = serde_json::from_slice(&bytes)
            .with_context(|| format!("reading {}", path.display()))?;
        if manifest.version != VERSION {
            anyhow::bail!(
                "{} was saved by another version of tilework (format {})",
                path.display(),
                manifest.version
            );
        }
        Ok(manifest)
    }
}

/// A saved workspace as `tilework ls` lists it.
pub struct SavedInfo {
    pub name: String,
    pub panes: usize,
    /// Seconds since the epoch.
    pub saved_at: u64,
    /// Bytes its files take (asked for with `ls -l`).
    pub disk: Option<u64>,
}

/// The saved workspaces, by name; `disk`: with the space each takes.
pub fn saved_list(disk: bool) -> Vec<SavedInfo> {
    let Ok(root) = place::saved_root() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut list: Vec<SavedInfo> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            place::check_name(&name).ok()?;
            let dir = entry.path();
            let manifest = Manifest::read(&dir).ok()?;
            Some(SavedInfo {
                panes: manifest.panes.len(),
                saved_at: u64::try_from(manifest.saved_at).unwrap_or(0),
                disk: disk.then(|| place::disk_use(&dir)),
                name,
            })
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    list
}

/// The saved workspace `tilework attach` takes without a name when none
/// runs: the only one saved. None when none is; an error naming them when
/// several are.
pub fn the_only_saved() -> Result<Option<String>> {
    let mut saved = saved_list(false);
    match saved.len() {
        0 => Ok(None),
        1 => Ok(saved.pop().map(|s| s.name)),
        n => {
            let names: Vec<&str> = saved.iter().map(|s| s.name.as_str()).collect();
            anyhow::bail!(
                "no workspace is running and {n} are saved ({}): say which, \
                 `tilework attach NAME`",
                names.join(", ")
            )
        }
    }
}
