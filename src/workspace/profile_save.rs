//! Saving the workspace as a profile: tabs, layout ratios, and what each
//! pane runs and where. Shells come back as shells in their directories;
//! other commands come back ready to run (`start = "manual"`), never
//! silently re-run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use toml::Spanned;

use crate::config::float_place::RawExtent;
use crate::config::profile_toml::{RawNode, RawProfile, RawTab, written};
use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::{Axis, Node};

/// Writes the workspace to `$XDG_CONFIG_HOME/tilework/profiles/NAME.toml`.
pub fn save(ws: &Workspace, name: &str) -> Result<PathBuf> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        bail!("`{name}` is not a profile name (no slashes, not hidden)");
    }
    let dir = crate::config::profile::user_dir()
        .context("no config directory ($XDG_CONFIG_HOME or $HOME)")?;
    write_profile(&dir, name, &to_toml(ws, name))
}

/// Writes `text` as `dir/NAME.toml`, creating `dir` if needed. Pane
/// commands can carry secrets (tokens, passwords on a command line), so
/// the profile is private to the user and written whole or not at all (see
/// [`crate::config::private_file`]).
fn write_profile(dir: &Path, name: &str, text: &str) -> Result<PathBuf> {
    crate::config::private_file::create_dir_all(dir)?;
    let path = dir.join(format!("{name}.toml"));
    crate::config::private_file::write_atomically(&path, text)?;
    Ok(path)
}

/// The profile text for the workspace as it is now: one key per line,
/// each pane and split a table of its own (`[[tab.layout.panes]]`), so a
/// saved profile reads and edits as a hand-written one does. Written by
/// serde from the type the profile is read into
/// ([`crate::config::profile_toml`]), so every name reads back as it was.
pub fn to_toml(ws: &Workspace, name: &str) -> String {
    to_toml_with(ws, name, Dirs::Ask)
}

/// [`to_toml`] with each pane's directory as last looked up (off the
/// loop's thread, see `pane_names`), else where it started: asks the
/// system nothing, for saving on the loop's thread as often as the
/// workspace changes (`persist`).
pub fn to_toml_from_lookups(ws: &Workspace, name: &str) -> String {
    to_toml_with(ws, name, Dirs::Known)
}

/// Where a pane's directory comes from.
#[derive(Clone, Copy)]
enum Dirs {
    /// The system, now (`/proc`).
    Ask,
    /// What the name lookups found last.
    Known,
}

fn to_toml_with(ws: &Workspace, name: &str, dirs: Dirs) -> String {
    let header = format!(
        "# Saved by tilework. Open with: tilework --profile {name}\n# Commands other than shells wait for Enter before they run again.\n\n"
    );
    let file = layout_of(ws, dirs);
    match toml::to_string(&file) {
        Ok(text) => header + &text,
        // Strings, numbers and tables: serde has nothing to refuse here.
        Err(err) => {
            tracing::error!("the layout could not be written as TOML: {err}");
            header
        }
    }
}

/// The workspace's layout in the shape of a profile file: what is saved
/// and what [`crate::config::profile::parse`] reads back.
fn layout_of(ws: &Workspace, dirs: Dirs) -> RawProfile {
    // Floating panes come back where they were, in the same order (cells
    // from the panes' area's top left; kept inside a smaller screen when
    // opened).
    let area = ws.tiling().area();
    let tab = ws
        .tabs()
        .iter()
        .map(|tab| {
            let floating: Vec<Spanned<RawNode>> = tab
                .floats
                .iter()
                .map(|f| {
                    let mut node = pane_node(ws, f.id, f.id == tab.focus, dirs);
                    node.pinned = f.pinned.then(|| written(true));
                    let cells = |n: u16| Some(written(RawExtent::Cells(i64::from(n))));
                    node.x = cells(f.rect.x.saturating_sub(area.x));
                    node.y = cells(f.rect.y.saturating_sub(area.y));
                    node.width = cells(f.rect.width);
                    node.height = cells(f.rect.height);
                    written(node)
                })
                .collect();
            written(RawTab {
                // A tab named after what it runs is named so again when opened.
                name: tab.name.clone(),
                layout: Some(written(node_of(ws, tab.layout.root(), tab.focus, dirs))),
                floating: (!floating.is_empty()).then_some(floating),
            })
        })
        .collect();
    RawProfile { name: None, tab }
}

/// `node` as a profile's layout table: a pane, or a split and its panes.
fn node_of(ws: &Workspace, node: &Node, focus: PaneId, dirs: Dirs) -> RawNode {
    match node {
        Node::Leaf(id) => pane_node(ws, *id, focus == *id, dirs),
        Node::Split {
            axis,
            ratio,
            first,
            second,
        } => {
            let split = match axis {
                Axis::Horizontal => "right",
                Axis::Vertical => "down",
            };
            // Ratios as whole-number weights out of 1000.
            let a = ((ratio.clamp(0.001, 0.999)) * 1000.0).round() as i64;
            let panes = [first, second]
                .into_iter()
                .map(|child| written(node_of(ws, child, focus, dirs)))
                .collect();
            RawNode {
                split: Some(written(split.to_string())),
                ratios: Some(written(vec![written(a), written(1000 - a)])),
                panes: Some(written(panes)),
                ..RawNode::default()
            }
        }
    }
}

/// What a pane's table in the profile says.
fn pane_node(ws: &Workspace, id: PaneId, focus: bool, dirs: Dirs) -> RawNode {
    let mut node = RawNode {
        focus: focus.then(|| written(true)),
        ..RawNode::default()
    };
    let Some(pane) = ws.panes().get(id) else {
        return node;
    };
    if let Some((host, command, cwd)) = super::remote_launch::saved(pane) {
        // A remote pane: its host, and its command and directory there.
        node.host = Some(written(host));
        node.command = command.map(written);
        node.cwd = cwd.map(written);
        node.title = ws
            .panes()
            .given_title(id)
            .map(|title| written(title.to_string()));
        return node;
    }
    let shell = &ws.panes().spawner().settings().env.shell;
    let argv = &pane.spec.argv;
    let is_shell = argv.len() == 1 && &argv[0] == shell;
    if !is_shell {
        let command = match argv.as_slice() {
            [sh, c, line] if sh == "/bin/sh" && c == "-c" => line.clone(),
            // A manual-start wrapper: the real command is its $0.
            [sh, c, _script, line] if sh == "/bin/sh" && c == "-c" => line.clone(),
            _ => argv
                .iter()
                .map(|a| shell_quote(a))
                .collect::<Vec<_>>()
                .join(" "),
        };
        node.command = Some(written(command));
        node.start = Some(written("manual".to_string()));
    }
    let dir = match dirs {
        Dirs::Ask => ws.panes().dir(id),
        Dirs::Known => ws.panes().known_dir(id),
    };
    node.cwd = dir.map(|dir| written(dir.to_string_lossy().into_owned()));
    node.title = ws
        .panes()
        .given_title(id)
        .map(|title| written(title.to_string()));
    node.save = (!ws.panes().history_saved(id)).then(|| written(false));
    node
}

/// Quotes an argument for `sh -c` when it needs it.
fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("ls"), "ls");
        assert_eq!(shell_quote("it's here"), r"'it'\''s here'");
    }

    use crate::config::private_file::mode_of as mode;

    #[test]
    fn a_symlink_planted_at_the_temporary_name_is_not_followed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "the victim's own text\n").expect("victim");
        // The name earlier versions wrote to before renaming.
        std::os::unix::fs::symlink(&victim, dir.path().join(".work.toml.tmp")).expect("symlink");

        let path = write_profile(dir.path(), "work", "command = \"secret\"\n").expect("saved");

        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "the victim's own text\n"
        );
        assert_eq!(
            std::fs::read_to_string(&path).expect("profile"),
            "command = \"secret\"\n"
        );
        // Nothing but the profile, the planted link and the victim is left.
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, [".work.toml.tmp", "victim", "work.toml"]);
    }

    #[test]
    fn a_saved_profile_is_readable_by_the_user_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = write_profile(dir.path(), "new", "x = 1\n").expect("saved");
        assert_eq!(mode(&path), "600");

        // Saving over a profile that others could read makes it private too.
        let old = dir.path().join("old.toml");
        std::fs::write(&old, "x = 0\n").expect("old profile");
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        write_profile(dir.path(), "old", "x = 1\n").expect("saved");
        assert_eq!(mode(&old), "600");
        assert_eq!(std::fs::read_to_string(&old).expect("profile"), "x = 1\n");
    }

    #[test]
    fn a_profile_directory_tilework_creates_is_private() {
        let home = tempfile::tempdir().expect("temp dir");
        let dir = home.path().join("tilework").join("profiles");
        write_profile(&dir, "work", "x = 1\n").expect("saved");
        assert_eq!(mode(&home.path().join("tilework")), "700");
        assert_eq!(mode(&dir), "700");
    }
}
