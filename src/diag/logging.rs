//! Logs go to a file: anything printed while the TUI is up would corrupt
//! the screen.

use std::fs::File;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use tracing_subscriber::EnvFilter;

/// `$XDG_STATE_HOME/tilework/tilework.log` (or the cache dir, or /tmp).
pub fn default_log_path() -> PathBuf {
    dirs::state_dir()
        .or_else(dirs::cache_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("tilework")
        .join("tilework.log")
}

/// Starts logging to [`default_log_path`], in tilework's state directory:
/// created private, and refused (before the terminal is touched) when it
/// is not the user's own private directory, since another user who made
/// it first could read the log or put links in it.
pub fn init_default() -> Result<()> {
    let path = default_log_path();
    if let Some(dir) = path.parent() {
        if let Some(base) = dir.parent() {
            crate::config::private_file::create_dir_all(base)
                .context("creating the log directory")?;
        }
        crate::os::ensure_private_dir(dir).context("tilework's state directory")?;
    }
    init(&path)
}

/// Starts logging to `path`; the level comes from `TILEWORK_LOG` (default
/// `info`).
pub fn init(path: &Path) -> Result<()> {
    let file = open_log_file(path)?;
    let filter = EnvFilter::try_from_env("TILEWORK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|err| anyhow!("starting the logger: {err}"))?;
    Ok(())
}

/// Opens the log for appending. It can hold what panes run and what went
/// wrong with them, so a new log (and its directory) is private to the
/// user; and a symbolic link at its path is refused, not followed, so a
/// link planted there cannot make tilework append to another file.
fn open_log_file(path: &Path) -> Result<File> {
    if let Some(dir) = path.parent() {
        crate::config::private_file::create_dir_all(dir).context("creating the log directory")?;
    }
    let file = crate::config::private_file::open_append(path).map_err(|err| {
        if is_symlink(path) {
            anyhow!(
                "the log file {} is a symbolic link; tilework does not write through one \
                 (remove it, or choose another file with --log PATH)",
                path.display()
            )
        } else {
            anyhow!(err).context(format!("opening the log file {}", path.display()))
        }
    })?;
    // One another user made there (in a shared directory) is theirs to read.
    let owner = file
        .metadata()
        .with_context(|| format!("checking the log file {}", path.display()))?
        .uid();
    if owner != rustix::process::getuid().as_raw() {
        return Err(anyhow!(
            "the log file {} belongs to uid {owner}, not to you: refusing to write to it",
            path.display()
        ));
    }
    Ok(file)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    use crate::config::private_file::mode_of as mode;

    #[test]
    fn a_log_path_that_is_a_symlink_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().expect("temp dir");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "the victim's own text\n").expect("victim");
        let log = dir.path().join("tilework.log");
        std::os::unix::fs::symlink(&victim, &log).expect("symlink");

        let err = match open_log_file(&log) {
            Ok(mut file) => {
                let _ = file.write_all(b"a log line\n");
                panic!("the symlinked log was opened")
            }
            Err(err) => format!("{err:#}"),
        };
        assert!(err.contains("symbolic link"), "{err}");
        assert!(err.contains(&log.display().to_string()), "{err}");
        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "the victim's own text\n"
        );
    }

    #[test]
    fn a_dangling_symlink_at_the_log_path_creates_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("not-yet-there");
        let log = dir.path().join("tilework.log");
        std::os::unix::fs::symlink(&target, &log).expect("symlink");

        let err = open_log_file(&log).expect_err("the symlinked log was opened");
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        assert!(!target.exists(), "the link's target was created");
    }

    #[test]
    fn a_new_log_and_its_directory_are_readable_by_the_user_alone() {
        let state = tempfile::tempdir().expect("temp dir");
        let log = state.path().join("tilework").join("tilework.log");
        open_log_file(&log).expect("log opened");
        assert_eq!(mode(&log), "600");
        assert_eq!(mode(&state.path().join("tilework")), "700");
    }

    #[test]
    fn a_log_file_another_user_made_is_refused() {
        // Only root can make a file another uid owns, as CI runs.
        if !rustix::process::getuid().is_root() {
            return;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("tilework.log");
        std::fs::write(&log, "theirs\n").expect("planted log");
        let theirs = Some(rustix::fs::Uid::from_raw(65534));
        rustix::fs::chown(&log, theirs, None).expect("chown");
        let err = format!(
            "{:#}",
            open_log_file(&log).expect_err("their log was opened")
        );
        assert!(err.contains("belongs to uid 65534"), "{err}");
        assert_eq!(std::fs::read_to_string(&log).expect("log"), "theirs\n");
    }

    #[test]
    fn an_existing_log_is_appended_to() {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("tilework.log");
        std::fs::write(&log, "earlier\n").expect("old log");
        let mut file = open_log_file(&log).expect("log opened");
        file.write_all(b"later\n").expect("write");
        assert_eq!(
            std::fs::read_to_string(&log).expect("log"),
            "earlier\nlater\n"
        );
    }
}
