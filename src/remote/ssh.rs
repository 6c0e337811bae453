//! The ssh command lines tilework runs: the user's `[remote] ssh_command`
//! with tilework's options after it.
//!
//! - The command is run as git runs `core.sshCommand`: `sh -c 'exec CMD
//!   "$@"'`, so it may hold options and `~`; `exec` keeps the pid tilework
//!   watches the ssh itself.
//! - Options given in `ssh_command` win over tilework's (ssh keeps the first
//!   value it is given); `~/.ssh/config` cannot override them.
//! - `ls HOST:` and remote panes share one connection per host
//!   (`ControlMaster=auto`, `ControlPath` in `.ssh/` under tilework's
//!   private runtime directory, `ControlPersist`): a remote pane's reconnect after a dropped
//!   session skips the handshake while the master lives. `attach HOST:NAME`
//!   is the master of a connection of its own and carries its session
//!   itself ([`Ssh::attach_control_path`]).
//!   The socket is named by tilework (a hash of the ssh command, the
//!   destination and the port), not by ssh's `%C`, so tilework knows which
//!   file says the connection got through, and the path stays short.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::remote_settings::Remote;
use crate::remote::target::Target;

/// Keep-alives unanswered before ssh gives the link up
/// (`ServerAliveCountMax`).
const KEEPALIVE_COUNT: u32 = 3;
/// How long the shared connection outlives its last session.
const PERSIST: &str = "10m";
/// A connection attempt that takes longer is given up (and tried again).
const CONNECT_TIMEOUT_SECS: u32 = 10;
/// `sun_path` holds 108 bytes with the NUL; ssh adds a 17-byte suffix while
/// it creates the socket.
const MAX_CONTROL_PATH: usize = 107 - 17;
/// The control sockets' directory, in the runtime directory: a name no
/// workspace can have (`session::dir::check_name` refuses a leading `.`).
pub const CONTROL_DIR: &str = ".ssh";

/// The hidden option every remote command is given this version by
/// (`remote::versions` says why).
pub const CLIENT_VERSION_FLAG: &str = "--client-version";

/// How tilework runs ssh to one host.
#[derive(Debug, Clone)]
pub struct Ssh {
    command: String,
    remote_tilework: String,
    keepalive: Duration,
    /// `None` when the runtime directory's path is too long for a socket:
    /// then each attach has a connection of its own.
    control_path: Option<PathBuf>,
}

impl Ssh {
    pub fn new(settings: &Remote, runtime_dir: &Path, target: &Target) -> Self {
        let key = format!(
            "{}\n{}\n{}",
            settings.ssh_command,
            target.destination,
            target.port.unwrap_or(0)
        );
        let dir = runtime_dir.join(CONTROL_DIR);
        let control_path = dir.join(format!("{:016x}", fnv1a(key.as_bytes())));
        let fits = control_path.as_os_str().len() <= MAX_CONTROL_PATH;
        if !fits {
            tracing::warn!(
                dir = %runtime_dir.display(),
                "the runtime directory's path is too long for ssh's control socket: \
                 no shared connection"
            );
        }
        let made = fits && make_control_dir(&dir);
        Self {
            command: settings.ssh_command.clone(),
            remote_tilework: settings.tilework.clone(),
            keepalive: Duration::from_secs(settings.keepalive_secs),
            control_path: made.then_some(control_path),
        }
    }

    /// The shared connection's socket (it exists while the connection is
    /// up), if connections are shared.
    pub fn control_path(&self) -> Option<&Path> {
        self.control_path.as_deref()
    }

    /// How long a link may stay silent (unanswered keep-alives, or an ssh
    /// that is stopped) before it counts as down.
    pub fn dead_after(&self) -> Duration {
        self.keepalive * KEEPALIVE_COUNT
    }

    /// `tilework attach [FLAGS] -- NAME` on `target`, on a terminal (`-t`),
    /// told this version and how the user named the workspace
    /// (`named_as`, for its messages).
    pub fn attach_argv(&self, target: &Target, flags: &[&str], named_as: &str) -> Vec<String> {
        let mut remote = vec![
            self.remote_tilework.clone(),
            "attach".to_string(),
            CLIENT_VERSION_FLAG.to_string(),
            shell_quote(&crate::release::version()),
            "--named-as".to_string(),
            shell_quote(named_as),
        ];
        remote.extend(flags.iter().map(|f| f.to_string()));
        if let Some(name) = &target.name {
            // Checked by `check_name`: nothing in it the remote shell reads.
            remote.push("--".into());
            remote.push(name.clone());
        }
        let own = self.attach_control_path();
        self.argv_sharing(target, true, &remote.join(" "), own.as_deref(), false)
    }

    /// The control socket of an attach's own ssh, which is the master of
    /// its connection and carries its session itself: the attach's keys
    /// and frames go through that one ssh process, as through a plain
    /// `ssh -t`, never through a shared master's loop beside other
    /// sessions. Nobody else uses it (the pid is in its name); it only
    /// says when the connection got through (it exists once it did).
    pub fn attach_control_path(&self) -> Option<PathBuf> {
        let shared = self.control_path.as_ref()?;
        let mut name = shared.as_os_str().to_owned();
        name.push(format!("-a{}", std::process::id()));
        let path = PathBuf::from(name);
        (path.as_os_str().len() <= MAX_CONTROL_PATH).then_some(path)
    }

    /// `tilework ls [--long]` on `target`.
    pub fn ls_argv(&self, target: &Target, long: bool) -> Vec<String> {
        let mut remote = format!("{} ls", self.remote_tilework);
        if long {
            remote.push_str(" --long");
        }
        self.argv(target, false, &remote)
    }

    /// `tilework proxy ARGS` on `target`, on ssh's stdin and stdout (no
    /// terminal: a stream of frames). Each argument is quoted for the
    /// remote shell.
    pub fn proxy_argv(&self, target: &Target, args: &[String]) -> Vec<String> {
        let mut remote = format!(
            "{} proxy {CLIENT_VERSION_FLAG} {}",
            self.remote_tilework,
            shell_quote(&crate::release::version())
        );
        for arg in args {
            remote.push(' ');
            remote.push_str(&shell_quote(arg));
        }
        self.argv(target, false, &remote)
    }

    /// `tilework --version` on `target`.
    pub fn version_argv(&self, target: &Target) -> Vec<String> {
        self.argv(
            target,
            false,
            &format!("{} --version", self.remote_tilework),
        )
    }

    fn argv(&self, target: &Target, terminal: bool, remote_command: &str) -> Vec<String> {
        let shared = self.control_path.as_deref();
        self.argv_sharing(target, terminal, remote_command, shared, true)
    }

    /// The ssh command line; `control`: the control socket, of the shared
    /// connection (`shared`: made by whichever ssh comes first, kept
    /// `ControlPersist` after its last session) or of this ssh's own.
    fn argv_sharing(
        &self,
        target: &Target,
        terminal: bool,
        remote_command: &str,
        control: Option<&Path>,
        shared: bool,
    ) -> Vec<String> {
        let mut argv: Vec<String> = vec![
            "/bin/sh".into(),
            "-c".into(),
            format!("exec {} \"$@\"", self.command),
            // $0 of that script, for its error messages.
            "ssh".into(),
        ];
        if terminal {
            argv.push("-t".into());
        }
        let secs = self.keepalive.as_secs();
        let mut option = |text: String| {
            argv.push("-o".into());
            argv.push(text);
        };
        option(format!("ServerAliveInterval={secs}"));
        option(format!("ServerAliveCountMax={KEEPALIVE_COUNT}"));
        option(format!("ConnectTimeout={CONNECT_TIMEOUT_SECS}"));
        match control {
            Some(path) if shared => {
                option("ControlMaster=auto".into());
                option(format!("ControlPath={}", path.display()));
                option(format!("ControlPersist={PERSIST}"));
            }
            Some(path) => {
                option("ControlMaster=yes".into());
                option(format!("ControlPath={}", path.display()));
            }
            None => {}
        }
        if let Some(port) = target.port {
            argv.push("-p".into());
            argv.push(port.to_string());
        }
        // Nothing after this is an option, whatever the host is called.
        argv.push("--".into());
        argv.push(target.destination.clone());
        argv.push(remote_command.to_string());
        argv
    }
}

/// Creates the control sockets' directory, private as the runtime
/// directory is; `false` (connections are then not shared) when it cannot.
fn make_control_dir(dir: &Path) -> bool {
    match crate::session::dir::ensure_private_dir(dir) {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!("no shared ssh connection: {err:#}");
            false
        }
    }
}

/// `text` as one word for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// FNV-1a, 64 bits: the same name for the same connection from every
/// tilework (a std hasher may change between builds).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn target(text: &str) -> Target {
        Target::parse(text).unwrap().unwrap()
    }

    #[test]
    fn attach_runs_the_users_ssh_command_with_sharing_and_keepalives() {
        let settings = Remote {
            ssh_command: "ssh -F ~/.ssh/work".into(),
            ..Remote::default()
        };
        let build1 = target("ssh://me@build1:2222/dev");
        let runtime = tempfile::tempdir().unwrap();
        let ssh = Ssh::new(&settings, runtime.path(), &build1);
        let argv = ssh.attach_argv(&build1, &["-d"], "ssh://me@build1:2222/dev");
        let socket = ssh.attach_control_path().unwrap().display().to_string();
        // Not among the workspaces' sockets: in a private directory of its
        // own.
        let control_dir = runtime.path().join(CONTROL_DIR);
        assert!(
            socket.starts_with(&control_dir.display().to_string()),
            "{socket}"
        );
        crate::os::check_private_dir(&control_dir).unwrap();
        assert_eq!(
            argv[..4],
            ["/bin/sh", "-c", "exec ssh -F ~/.ssh/work \"$@\"", "ssh"]
        );
        let rest = argv[4..].join(" ");
        assert_eq!(
            rest,
            format!(
                "-t -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -o ConnectTimeout=10 \
             -o ControlMaster=yes -o ControlPath={socket} \
             -p 2222 -- me@build1 tilework attach --client-version '{}' \
             --named-as 'ssh://me@build1:2222/dev' -d -- dev",
                crate::release::version()
            )
        );
        // Another destination, another connection.
        let other = Ssh::new(&settings, runtime.path(), &target("h:w"));
        assert_ne!(other.control_path(), ssh.control_path());
        assert_eq!(ssh.dead_after(), Duration::from_secs(15));
        assert!(socket.starts_with(&ssh.control_path().unwrap().display().to_string()));
        let ls = ssh.ls_argv(&target("me@build1:"), true);
        // `ls` shares the connection.
        assert!(ls.contains(&"ControlPersist=10m".to_string()), "{ls:?}");
        assert_eq!(ls.last().unwrap(), "tilework ls --long");
        assert!(!ls.contains(&"-t".to_string()));
    }

    #[test]
    fn a_runtime_directory_too_long_for_a_socket_shares_nothing() {
        let long = format!("/tmp/{}", "d".repeat(80));
        let ssh = Ssh::new(&Remote::default(), Path::new(&long), &target("h:w"));
        let argv = ssh.attach_argv(&target("h:w"), &[], "h:w").join(" ");
        assert!(!argv.contains("ControlMaster"), "{argv}");
        assert!(argv.contains("ServerAliveInterval"), "{argv}");
    }
}
