//! What a remote pane (issue 47 §2) runs in the local workspace: this
//! binary in its relay mode (`tilework remote-pane`, see
//! `crate::remote::relay`), its host, `[remote]` settings, remote
//! directory and command all in its argv. So the workspace knows a pane
//! is remote, and which host, from what it runs (a split of it opens
//! another on the same host), and a saved workspace keeps it.

use crate::config::remote_settings::Remote;

/// The subcommand's name, also how a pane is known to be remote.
pub const SUBCOMMAND: &str = "remote-pane";

/// What a remote pane runs, as its argv says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemotePane {
    /// As ssh takes it (`build1`, `me@build1`, an alias), or
    /// `ssh://[user@]host[:port]`.
    pub host: String,
    pub settings: Remote,
    /// The remote directory; none: the remote workspace's.
    pub cwd: Option<String>,
    /// Empty: the remote user's shell.
    pub command: Vec<String>,
}

impl RemotePane {
    /// The local pane's argv: this binary in its relay mode.
    pub fn argv(&self, exe: &str) -> Vec<String> {
        let mut argv = vec![
            exe.to_string(),
            SUBCOMMAND.into(),
            "--host".into(),
            self.host.clone(),
            "--ssh-command".into(),
            self.settings.ssh_command.clone(),
            "--remote-tilework".into(),
            self.settings.tilework.clone(),
            "--keepalive".into(),
            self.settings.keepalive_secs.to_string(),
        ];
        if let Some(cwd) = &self.cwd {
            argv.push("--cwd".into());
            argv.push(cwd.clone());
        }
        argv.push("--".into());
        argv.extend(self.command.iter().cloned());
        argv
    }

    /// The remote pane an argv made by [`Self::argv`] runs; `None` for any
    /// other program.
    pub fn from_argv(argv: &[String]) -> Option<Self> {
        if argv.get(1).map(String::as_str) != Some(SUBCOMMAND) {
            return None;
        }
        let mut pane = RemotePane {
            host: String::new(),
            settings: Remote::default(),
            cwd: None,
            command: Vec::new(),
        };
        let mut words = argv[2..].iter();
        while let Some(word) = words.next() {
            let mut value = || words.next().cloned();
            match word.as_str() {
                "--host" => pane.host = value()?,
                "--ssh-command" => pane.settings.ssh_command = value()?,
                "--remote-tilework" => pane.settings.tilework = value()?,
                "--keepalive" => pane.settings.keepalive_secs = value()?.parse().ok()?,
                "--cwd" => pane.cwd = Some(value()?),
                "--" => {
                    pane.command = words.cloned().collect();
                    break;
                }
                _ => return None,
            }
        }
        (!pane.host.is_empty()).then_some(pane)
    }

    /// The label a remote pane has before its first title.
    pub fn label(&self) -> String {
        self.host.clone()
    }
}

/// The host a remote pane's argv names (the third word [`RemotePane::argv`]
/// writes), read without the rest: the status bar asks at every draw.
pub fn host_of(argv: &[String]) -> Option<&str> {
    match argv {
        [_, sub, flag, host, ..] if sub == SUBCOMMAND && flag == "--host" => Some(host),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_is_read_back_from_the_argv_alone() {
        let pane = RemotePane {
            host: "me@build1".into(),
            settings: Remote::default(),
            cwd: Some("/srv".into()),
            command: vec!["make".into()],
        };
        let argv = pane.argv("/usr/bin/tilework");
        assert_eq!(host_of(&argv), Some("me@build1"));
        assert_eq!(RemotePane::from_argv(&argv), Some(pane));
        assert_eq!(host_of(&["bash".into(), "--host".into(), "x".into()]), None);
    }
}
