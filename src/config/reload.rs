//! Where the config came from, so it can be read again (`source-config`,
//! `C-b R`), and the reading itself on a thread of its own: a file read
//! may hang (a FIFO, a stuck network file system) and the loop never
//! waits on one. The answer comes back through a mailbox; the loop keeps
//! the running config when the file is refused.

use std::path::PathBuf;

use crate::config::settings::{self, Config, ConfigError};
use crate::mailbox::Mailbox;

/// The config file and what the command line sets over it.
#[derive(Debug, Clone, Default)]
pub struct ConfigSource {
    /// `None`: no config directory (all defaults, nothing to reload).
    pub path: Option<PathBuf>,
    /// The user named the file (`--config`): it must exist.
    pub must_exist: bool,
    /// `--keep-exited`, which wins over the file.
    pub keep_exited: bool,
}

impl ConfigSource {
    /// `--config PATH`, or the default path.
    pub fn new(named: Option<PathBuf>, keep_exited: bool) -> Self {
        let must_exist = named.is_some();
        Self {
            path: named.or_else(settings::default_path),
            must_exist,
            keep_exited,
        }
    }

    /// Reads and parses the file (this waits on the file system).
    pub fn load(&self) -> Result<Config, ConfigError> {
        let mut config = match &self.path {
            Some(path) => settings::load(path, self.must_exist)?,
            None => Config::default(),
        };
        if self.keep_exited {
            config.keep_exited_panes = true;
        }
        Ok(config)
    }

    /// What to call the file in messages.
    pub fn describe(&self) -> String {
        self.path
            .as_ref()
            .map_or_else(|| "the defaults".into(), |p| p.display().to_string())
    }
}

/// A reload's answer: the new config, or why the file was refused.
pub type Reloaded = Result<Box<Config>, ConfigError>;

/// Reads `source` on a thread of its own and posts the result. Returns
/// false when no thread could be started (said in the log).
pub fn start(source: ConfigSource, mailbox: Mailbox<Reloaded>) -> bool {
    crate::jobs::run("config-reload", mailbox, move || {
        source.load().map(Box::new)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_reload_reads_the_file_again_and_refuses_a_broken_one() {
        let dir = std::env::temp_dir().join(format!("tilework-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        std::fs::write(&path, "fps = 30\n").unwrap();
        let source = ConfigSource::new(Some(path.clone()), true);
        let (tx, rx) = crossbeam_channel::bounded(1);
        assert!(start(source.clone(), tx.clone().into()));
        let config = rx.recv_timeout(Duration::from_secs(30)).unwrap().unwrap();
        assert_eq!(config.fps, 30);
        assert!(config.keep_exited_panes, "the command line wins");
        std::fs::write(&path, "fps = \"fast\"\n").unwrap();
        assert!(start(source, tx.into()));
        let err = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("config.toml:1:7"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
