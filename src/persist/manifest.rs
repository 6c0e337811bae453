//! What a saved workspace holds, in one small JSON file replaced whole
//! (written beside it, then renamed over it): the layout as a profile's
//! text (tabs, splits and ratios, floating panes, focus, each pane's
//! directory, command and title; see `workspace::profile_save`), and for
//! each of its panes, in the profile's order, which files hold its history.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::config::MAX_MAX_PANES;
use crate::persist::dirs;
use crate::workspace::foreground::Job;

/// Bumped when the files change so that an older tilework cannot read them.
pub const VERSION: u32 = 1;

/// The largest manifest read: a layout of the most panes any config allows
/// with long commands and titles takes well under this; a larger file is
/// not one tilework wrote, and is refused before it is read.
pub const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// The longest name a pane's history files start with (tilework writes
/// `RUN-pID`, about 20 characters).
const MAX_PREFIX_LEN: usize = 64;

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
    /// The panes' and tabs' ids, which a restore gives back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<crate::workspace::stable_ids::SavedIds>,
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
        dirs::write_atomically(&dir.join(dirs::MANIFEST), &text)
    }

    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(dirs::MANIFEST);
        let bytes = dirs::read(&path, MAX_MANIFEST_BYTES)
            .with_context(|| format!("reading {}", path.display()))?;
        let manifest: Self = serde_json::from_slice(&bytes)
            .with_context(|| format!("reading {}", path.display()))?;
        if manifest.version != VERSION {
            anyhow::bail!(
                "{} was saved by another version of tilework (format {})",
                path.display(),
                manifest.version
            );
        }
        manifest
            .check()
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(manifest)
    }

    /// What tilework never writes is refused: more panes than any config
    /// allows, and a history file name that could lead out of the save's
    /// directory (`../x`, `/x`) or is not one of the names it makes.
    fn check(&self) -> Result<()> {
        if self.panes.len() > MAX_MAX_PANES {
            anyhow::bail!(
                "{} panes, more than any config allows ({MAX_MAX_PANES})",
                self.panes.len()
            );
        }
        for prefix in self.panes.iter().filter_map(|p| p.files.as_deref()) {
            let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
            if prefix.is_empty() || prefix.len() > MAX_PREFIX_LEN || !prefix.chars().all(plain) {
                anyhow::bail!("{prefix:?} is not the name of a pane's history files");
            }
        }
        Ok(())
    }
}

/// The error said when saved workspace `name` cannot be read back: what
/// was wrong, and how to be rid of it.
pub fn damaged(name: &str, err: &anyhow::Error) -> anyhow::Error {
    anyhow::anyhow!(
        "saved workspace {name:?} is damaged ({err:#}); `tilework forget {name}` removes it"
    )
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
    scan_saved(disk).0
}

/// The saved workspaces that read back, by name; and a sentence for each
/// one that does not (see [`damaged`]).
pub fn scan_saved(disk: bool) -> (Vec<SavedInfo>, Vec<String>) {
    let Ok(root) = dirs::saved_root() else {
        return Default::default();
    };
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Default::default();
    };
    let mut damaged_ones = Vec::new();
    let mut list: Vec<SavedInfo> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            dirs::check_name(&name).ok()?;
            let dir = entry.path();
            let manifest = match Manifest::read(&dir) {
                Ok(manifest) => manifest,
                Err(err) => {
                    // A directory without a manifest is a save not yet
                    // made (or one being forgotten), not a damaged one.
                    if std::fs::symlink_metadata(dir.join(dirs::MANIFEST)).is_ok() {
                        damaged_ones.push(format!("{:#}", damaged(&name, &err)));
                    }
                    return None;
                }
            };
            Some(SavedInfo {
                panes: manifest.panes.len(),
                saved_at: u64::try_from(manifest.saved_at).unwrap_or(0),
                disk: disk.then(|| dirs::disk_use(&dir)),
                name,
            })
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    damaged_ones.sort();
    (list, damaged_ones)
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn with(panes: Vec<SavedPane>) -> Manifest {
        Manifest {
            version: VERSION,
            saved_at: 0,
            layout: String::new(),
            panes,
            active_tab: 0,
            zoomed_tabs: Vec::new(),
            ids: None,
        }
    }

    fn pane(files: &str) -> SavedPane {
        SavedPane {
            files: Some(files.into()),
            budget: 1 << 20,
            job: None,
        }
    }

    #[test]
    fn history_names_that_lead_elsewhere_and_too_many_panes_are_refused() {
        assert!(with(vec![pane("18c2f0a1b2-p3")]).check().is_ok());
        for bad in [
            "../x",
            "/etc/x",
            "a/b",
            "..",
            ".hidden",
            "",
            "a\0b",
            &"x".repeat(65),
        ] {
            assert!(with(vec![pane(bad)]).check().is_err(), "{bad:?}");
        }
        let many = (0..=MAX_MAX_PANES).map(|_| pane("p")).collect();
        assert!(with(many).check().is_err());
        // Read from disk, the same.
        let dir = tempfile::tempdir().unwrap();
        with(vec![pane("../../victim")]).write(dir.path()).unwrap();
        let err = format!("{:#}", Manifest::read(dir.path()).unwrap_err());
        assert!(
            err.contains("not the name of a pane's history files"),
            "{err}"
        );
    }
}
