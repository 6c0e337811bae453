//! Logs go to a file: anything printed while the TUI is up would corrupt
//! the screen.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

/// `$XDG_STATE_HOME/tilework/tilework.log` (or the cache dir, or /tmp).
pub fn default_log_path() -> PathBuf {
    dirs::state_dir()
        .or_else(dirs::cache_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("tilework")
        .join("tilework.log")
}

/// Starts logging to `path`; the level comes from `TILEWORK_LOG` (default
/// `info`).
pub fn init(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the log directory {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening the log file {}", path.display()))?;
    let filter = EnvFilter::try_from_env("TILEWORK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|err| anyhow::anyhow!("starting the logger: {err}"))?;
    Ok(())
}
