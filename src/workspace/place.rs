//! Where a pane's program works, for the status bar's `cwd` and `git`
//! segments: its directory (with `~`) and that directory's git branch.
//! Looked up with the names (`Workspace::refresh_names`), a moment after
//! output or keys, never while drawing.

use std::io::Read;
use std::path::Path;

use crate::workspace::naming::with_tilde;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanePlace {
    /// The directory, `~` for home.
    pub dir: String,
    /// The checked-out branch, or the commit's short hash when detached.
    pub branch: Option<String>,
}

pub fn place_of(dir: &Path, home: Option<&Path>) -> PanePlace {
    PanePlace {
        dir: with_tilde(dir, home),
        branch: git_branch(dir),
    }
}

/// HEAD of the repository `dir` is in: reads `.git/HEAD` (or, in a
/// worktree or submodule, the HEAD its `.git` file points to) without
/// running git, which a status bar refreshed on every prompt cannot afford.
pub fn git_branch(dir: &Path) -> Option<String> {
    for at in dir.ancestors() {
        let dot_git = at.join(".git");
        let git_dir = if dot_git.is_dir() {
            dot_git
        } else if dot_git.is_file() {
            let link = read_small(&dot_git)?;
            let target = link.trim().strip_prefix("gitdir:")?.trim();
            at.join(target)
        } else {
            continue;
        };
        let head = read_small(&git_dir.join("HEAD"))?;
        let head = head.trim();
        let name = match head.strip_prefix("ref:") {
            Some(reference) => {
                let reference = reference.trim();
                reference
                    .strip_prefix("refs/heads/")
                    .unwrap_or(reference)
                    .to_string()
            }
            None => head.chars().take(7).collect(),
        };
        // A planted HEAD must not move the user's cursor.
        let name = crate::sanitize::sanitize_title(name.as_bytes());
        return (!name.is_empty()).then_some(name);
    }
    None
}

/// The first 4 KiB of a file: HEAD and `.git` files are a line long, and a
/// FIFO or a huge file named so must not stall or bloat a refresh.
fn read_small(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn branches_of_repositories_worktrees_and_detached_heads() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        assert_eq!(
            git_branch(&repo.join("src/deep")).as_deref(),
            Some("feature/x")
        );
        // A worktree: `.git` is a file naming the real git dir.
        let wt = root.path().join("wt");
        std::fs::create_dir_all(wt.join("gitdir")).unwrap();
        std::fs::write(wt.join(".git"), "gitdir: gitdir\n").unwrap();
        std::fs::write(wt.join("gitdir/HEAD"), "0123456789abcdef\n").unwrap();
        assert_eq!(git_branch(&wt).as_deref(), Some("0123456"));
        let plain = root.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        // Above the temp dir there may be a repository; only ours is checked.
        assert_ne!(git_branch(&plain).as_deref(), Some("feature/x"));
        let place = place_of(&repo, Some(root.path()));
        assert_eq!(place.dir, "~/repo");
        assert_eq!(place.branch.as_deref(), Some("feature/x"));
    }

    #[test]
    fn a_planted_head_cannot_reach_the_terminal() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".git")).unwrap();
        std::fs::write(
            root.path().join(".git/HEAD"),
            "ref: refs/heads/a\x1b]0;owned\x07b\n",
        )
        .unwrap();
        let branch = git_branch(root.path()).unwrap();
        assert!(!branch.contains('\x1b'), "{branch:?}");
    }
}
