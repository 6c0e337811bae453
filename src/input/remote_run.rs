//! `run --host HOST` typed at the command prompt (`C-b :`): a remote pane
//! (issue 47 §2), as the CLI's `tilework run --host` opens one. The
//! prompt knows no config file of its own: the relay's argv takes the
//! workspace's `[remote]` settings (those its splits of remote panes use).

use crate::config::remote_pane::RemotePane;
use crate::config::remote_settings::Remote;
use crate::session::script::{Call, Place};

/// A remote pane asked for at the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRun {
    pub place: Place,
    pub host: String,
    /// The directory on the host; none: the remote workspace's.
    pub cwd: Option<String>,
    /// Empty: the remote user's shell.
    pub argv: Vec<String>,
    pub no_save: bool,
}

impl RemoteRun {
    /// The script call that opens it: the local pane runs this binary as
    /// the remote pane's relay.
    pub fn call(self, settings: &Remote) -> Call {
        let exe = std::env::current_exe()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "tilework".into());
        let pane = RemotePane {
            host: self.host,
            settings: settings.clone(),
            cwd: self.cwd,
            command: self.argv,
        };
        Call::Run {
            place: self.place,
            cwd: None,
            argv: pane.argv(&exe),
            no_save: self.no_save,
        }
    }
}
