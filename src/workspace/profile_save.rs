//! Saving the workspace as a profile: tabs, layout ratios, and what each
//! pane runs and where. Shells come back as shells in their directories;
//! other commands come back ready to run (`start = "manual"`), never
//! silently re-run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

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
/// saved profile reads and edits as a hand-written one does.
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
    let mut out = format!(
        "# Saved by tilework. Open with: tilework --profile {name}\n# Commands other than shells wait for Enter before they run again.\n"
    );
    for tab in ws.tabs() {
        out.push_str("\n[[tab]]\n");
        // A tab named after what it runs is named so again when opened.
        if let Some(name) = &tab.name {
            let _ = writeln!(out, "name = {}", quote(name));
        }
        out.push_str("\n[tab.layout]\n");
        node_toml(
            ws,
            tab.layout.root(),
            Some(tab.focus),
            dirs,
            "tab.layout",
            &mut out,
        );
        // Floating panes come back where they were, in the same order
        // (cells from the panes' area's top left; kept inside a smaller
        // screen when opened).
        let area = ws.area();
        for f in tab.floats.iter() {
            out.push_str("\n[[tab.floating]]\n");
            let mut fields = pane_fields(ws, f.id, f.id == tab.focus, dirs);
            if f.pinned {
                fields.push("pinned = true".to_string());
            }
            fields.extend([
                format!("x = {}", f.rect.x.saturating_sub(area.x)),
                format!("y = {}", f.rect.y.saturating_sub(area.y)),
                format!("width = {}", f.rect.width),
                format!("height = {}", f.rect.height),
            ]);
            write_lines(&mut out, &fields);
        }
    }
    out
}

/// Writes `node`'s keys into the table at `path` (its header written),
/// then each of a split's panes as a table of `path.panes`.
fn node_toml(
    ws: &Workspace,
    node: &Node,
    focus: Option<PaneId>,
    dirs: Dirs,
    path: &str,
    out: &mut String,
) {
    match node {
        Node::Leaf(id) => write_lines(out, &pane_fields(ws, *id, focus == Some(*id), dirs)),
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
            let a = ((ratio.clamp(0.001, 0.999)) * 1000.0).round() as u32;
            let _ = writeln!(out, "split = \"{split}\"");
            let _ = writeln!(out, "ratios = [{a}, {}]", 1000 - a);
            let panes = format!("{path}.panes");
            for child in [first, second] {
                let _ = write!(out, "\n[[{panes}]]\n");
                node_toml(ws, child, focus, dirs, &panes, out);
            }
        }
    }
}

fn write_lines(out: &mut String, fields: &[String]) {
    for field in fields {
        out.push_str(field);
        out.push('\n');
    }
}

/// What a pane's table in the profile says: `key = value` each.
fn pane_fields(ws: &Workspace, id: PaneId, focus: bool, dirs: Dirs) -> Vec<String> {
    let mut fields = Vec::new();
    if let Some(pane) = ws.pane(id) {
        let shell = &ws.settings().env.shell;
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
            fields.push(format!("command = {}", quote(&command)));
            fields.push("start = \"manual\"".to_string());
        }
        let dir = match dirs {
            Dirs::Ask => ws.pane_dir(id),
            Dirs::Known => ws.known_pane_dir(id),
        };
        if let Some(dir) = dir {
            fields.push(format!("cwd = {}", quote(&dir.to_string_lossy())));
        }
        if let Some(title) = ws.given_title(id) {
            fields.push(format!("title = {}", quote(title)));
        }
        if !ws.history_saved(id) {
            fields.push("save = false".to_string());
        }
    }
    if focus {
        fields.push("focus = true".to_string());
    }
    fields
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000A\"");
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
