//! Where a pane's program works, for the status bar's `cwd` and `git`
//! segments: its directory (with `~`) and that directory's git branch.
//! Looked up with the names (`Workspace::refresh_names`), a moment after
//! output or keys, never while drawing.

use std::path::Path;

use crate::os;
use crate::workspace::naming::with_tilde;

/// HEAD and `.git` files are a line long; more is not read.
const SMALL_FILE_CAP: usize = 4096;

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

/// The first [`SMALL_FILE_CAP`] bytes of a regular file. The directory is
/// any program's or cloned repository's to shape: a FIFO, a symbolic link
/// (to `/proc/kmsg`, say) or a device named so must not stall a refresh,
/// nor a huge file bloat it (`os::read_small_file` refuses them at once).
fn read_small(path: &Path) -> Option<String> {
    let bytes = os::read_small_file(path, SMALL_FILE_CAP).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::os::unix::fs::OpenOptionsExt as _;

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

    /// `git_branch(dir)` on a thread of its own, or `None` if it has not
    /// come back after a generous while: a read that blocks (on a FIFO
    /// with no writer, on `/proc/kmsg`) waits for good, and this turns that
    /// hang into a failure instead of a test that never ends.
    fn branch_unless_stuck(dir: &Path) -> Option<Option<String>> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let owned = dir.to_path_buf();
        std::thread::spawn(move || {
            let _ = tx.send(git_branch(&owned));
        });
        rx.recv_timeout(std::time::Duration::from_secs(30)).ok()
    }

    #[test]
    fn a_fifo_as_head_names_no_branch_and_does_not_wait() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let head = repo.join(".git/HEAD");
        nix::unistd::mkfifo(&head, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // A worktree's `.git` file may name a git dir whose HEAD is a FIFO.
        let wt = root.path().join("wt");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(
            wt.join(".git"),
            format!("gitdir: {}\n", repo.join(".git").display()),
        )
        .unwrap();
        let answers = [branch_unless_stuck(&repo), branch_unless_stuck(&wt)];
        // A stuck reader is freed by a writer, so the test ends either way.
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(&head);
        assert_eq!(answers, [Some(None), Some(None)]);
    }

    #[test]
    fn a_head_that_is_a_symbolic_link_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let elsewhere = root.path().join("elsewhere");
        std::fs::write(&elsewhere, "ref: refs/heads/main\n").unwrap();
        std::os::unix::fs::symlink(&elsewhere, repo.join(".git/HEAD")).unwrap();
        assert_eq!(git_branch(&repo), None);
        // Where a planted link would lead a read to wait for good.
        std::fs::remove_file(repo.join(".git/HEAD")).unwrap();
        std::os::unix::fs::symlink("/proc/kmsg", repo.join(".git/HEAD")).unwrap();
        assert_eq!(branch_unless_stuck(&repo), Some(None));
    }

    #[test]
    fn only_the_start_of_an_oversized_head_is_read() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".git")).unwrap();
        // Past the cap the file goes on; read whole, its tail would join
        // the branch's name.
        let mut head = b"ref: refs/heads/main".to_vec();
        head.resize(SMALL_FILE_CAP + 1000, b'\n');
        head.extend_from_slice(b"tail");
        std::fs::write(root.path().join(".git/HEAD"), head).unwrap();
        assert_eq!(git_branch(root.path()).as_deref(), Some("main"));
    }
}
