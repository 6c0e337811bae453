//! Taking the name of a new workspace, and removing the sockets of dead
//! ones, safely while other `tilework`s do the same in the same directory
//! (issue 30: terminals opened together).
//!
//! Binding a name's socket is what takes the name: bind(2) fails when the
//! file exists. An existing socket is either a live workspace (a connect
//! gets through: the name is taken) or one a crash left (refused: it is
//! removed and the name bound afresh). Deciding "dead" and removing are two
//! steps, though, and a socket is bound a moment before it listens, when a
//! live one looks dead. Two launchers could both find a stale socket dead,
//! the first remove it and bind its own, the second remove that one; or one
//! could remove a socket that was only not listening yet. So every claim and
//! every removal happens under the directory's lock (`flock` on
//! [`LOCK_FILE`]): while a process holds it, no socket in the directory is
//! between bind and listen, and none can be replaced behind its back.
//! (The only other remover is a workspace removing its own socket as it
//! ends, which needs no lock: nobody else can have bound that name then.)

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rustix::fs::{FlockOperation, Mode, OFlags};
use rustix::io::Errno;
use rustix::net::{AddressFamily, SocketAddrUnix, SocketFlags, SocketType};

use super::dir;
use super::proto::Request;

/// The lock's file in the socket directory. Its leading `.` keeps it out of
/// workspace names (see [`dir::check_name`]); it is not a socket either.
pub const LOCK_FILE: &str = ".lock";

/// How long to wait for another process's hold on the lock. A holder only
/// binds, connects without waiting and unlinks: milliseconds, unless it
/// was stopped in between.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// A name taken for a new workspace: its socket, bound and listening.
#[derive(Debug)]
pub struct Claim {
    pub name: String,
    pub path: PathBuf,
    pub listener: UnixListener,
}

/// Takes `name` (which the user chose): an error saying how to reach it
/// when a live workspace has it.
pub fn claim_named(dir: &Path, name: &str) -> Result<Claim> {
    let _lock = lock(dir)?;
    match try_claim(dir, name)? {
        Some(claim) => Ok(claim),
        None => bail!("a workspace named {name} is already running: `tilework attach {name}`"),
    }
}

/// Takes the first free name of [`candidates`]`(profile)`.
pub fn claim_free(dir: &Path, profile: Option<&str>) -> Result<Claim> {
    // A saved workspace's name is taken too: it comes back under it.
    claim_free_but(dir, profile, crate::persist::is_saved)
}

/// [`claim_free`], skipping the names `taken` says are.
fn claim_free_but(
    dir: &Path,
    profile: Option<&str>,
    taken: impl Fn(&str) -> bool,
) -> Result<Claim> {
    let _lock = lock(dir)?;
    for name in candidates(profile).filter(|name| !taken(name)) {
        if let Some(claim) = try_claim(dir, &name)? {
            return Ok(claim);
        }
    }
    bail!("no free workspace name in {}", dir.display())
}

/// The names a new workspace may get, in order of preference: the
/// profile's name when one was given (then with `-2`, `-3`...), else (and
/// after those) the numbers from 0.
pub fn candidates(profile: Option<&str>) -> impl Iterator<Item = String> {
    let from_profile = profile
        .and_then(dir::name_from)
        .into_iter()
        .flat_map(|base| {
            std::iter::once(base.clone()).chain((2..1000).map(move |i| format!("{base}-{i}")))
        });
    from_profile.chain((0..100_000).map(|i| i.to_string()))
}

/// Removes the socket at `path` (in the socket directory) if nothing
/// listens on it: a workspace that crashed or was SIGKILLed left it.
/// Whether it was removed.
pub fn remove_if_dead(path: &Path) -> Result<bool> {
    let _lock = lock(path.parent().unwrap_or(Path::new(".")))?;
    match probe(path).with_context(|| format!("checking {}", path.display()))? {
        Probe::Dead => {
            remove_dead(path)?;
            Ok(true)
        }
        Probe::Live | Probe::Gone | Probe::NotASocket => Ok(false),
    }
}

/// Whether a live workspace listens on `name`'s socket in `dir`.
pub fn is_running(dir: &Path, name: &str) -> bool {
    matches!(probe(&dir::socket_path(dir, name)), Ok(Probe::Live))
}

/// Renames a live workspace's socket `old` to `new` (`C-b $`): clients
/// find it by the new name from then on, and the listener goes on
/// accepting (a renamed socket file is the same socket). Refused when a
/// live workspace (or a file that is not a socket) has the new name; a
/// dead socket there is replaced. Takes the directory's lock, which may
/// wait: not for the render loop's thread. Returns the new path.
pub fn rename(dir: &Path, old: &str, new: &str) -> Result<PathBuf> {
    dir::check_name(new)?;
    let _lock = lock(dir)?;
    super::agent_link::remove_old_link_dir(dir, new);
    let from = dir::socket_path(dir, old);
    let to = dir::socket_path(dir, new);
    match probe(&to).with_context(|| format!("checking {}", to.display()))? {
        Probe::Live | Probe::NotASocket => {
            bail!("a workspace named {new} is already running")
        }
        Probe::Dead => remove_dead(&to)?,
        Probe::Gone => {}
    }
    fs::rename(&from, &to)
        .with_context(|| format!("renaming {} to {}", from.display(), to.display()))?;
    Ok(to)
}

/// Binds `name`'s socket unless a live workspace (or something that is not
/// a socket) has the name; a dead socket there is replaced. The caller
/// holds the lock.
fn try_claim(dir: &Path, name: &str) -> Result<Option<Claim>> {
    super::agent_link::remove_old_link_dir(dir, name);
    let path = dir::socket_path(dir, name);
    // Twice at most: once more after removing a dead socket.
    for _ in 0..2 {
        match UnixListener::bind(&path) {
            Ok(listener) => {
                if let Err(err) = dir::restrict_socket(&path) {
                    let _ = fs::remove_file(&path);
                    return Err(err);
                }
                return Ok(Some(Claim {
                    name: name.to_string(),
                    path,
                    listener,
                }));
            }
            Err(err) if err.kind() == io::ErrorKind::AddrInUse => {}
            Err(err) => {
                return Err(err).with_context(|| format!("creating the socket {}", path.display()));
            }
        }
        match probe(&path).with_context(|| format!("checking {}", path.display()))? {
            Probe::Live | Probe::NotASocket => return Ok(None),
            Probe::Dead => remove_dead(&path)?,
            // Its workspace just ended and removed it: bind again.
            Probe::Gone => {}
        }
    }
    // Under the lock nothing else binds here: a dead socket removed stays
    // removed, so this needs a file system that does not do what it is told.
    bail!("{} could not be taken over", path.display())
}

fn remove_dead(path: &Path) -> Result<()> {
    tracing::info!("removing the stale socket {}", path.display());
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("removing the stale {}", path.display())),
    }
}

/// What is at a workspace's socket path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probe {
    /// A workspace listens (perhaps too busy to accept yet).
    Live,
    /// A socket nobody listens on.
    Dead,
    /// Nothing.
    Gone,
    /// A file of another kind: not ours to remove.
    NotASocket,
}

/// Connects without waiting: a live workspace's listener takes the
/// connection into its backlog (or says its backlog is full), a dead
/// socket refuses. A live one is asked what `tilework ls` asks, and the
/// connection closed without waiting for the answer: the workspace sees an
/// ordinary question, where a connection that said nothing would be logged
/// as a client that broke down.
fn probe(path: &Path) -> io::Result<Probe> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_socket() => return Ok(Probe::NotASocket),
        Ok(_) => {}
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Probe::Gone),
        Err(err) => return Err(err),
    }
    let socket = rustix::net::socket_with(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC | SocketFlags::NONBLOCK,
        None,
    )?;
    let addr = SocketAddrUnix::new(path)?;
    match rustix::net::connect(&socket, &addr) {
        Ok(()) => {
            let _ = rustix::io::write(&socket, Request::Info.line().as_bytes());
            Ok(Probe::Live)
        }
        Err(Errno::AGAIN | Errno::INPROGRESS) => Ok(Probe::Live),
        Err(Errno::CONNREFUSED) => Ok(Probe::Dead),
        Err(Errno::NOENT) => Ok(Probe::Gone),
        Err(err) => Err(err.into()),
    }
}

/// The directory's lock, held until dropped.
struct DirLock {
    _file: OwnedFd,
}

fn lock(dir: &Path) -> Result<DirLock> {
    let path = dir.join(LOCK_FILE);
    let file = rustix::fs::open(
        &path,
        OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )
    .with_context(|| format!("opening the lock {}", path.display()))?;
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(DirLock { _file: file }),
            Err(Errno::INTR) => {}
            Err(Errno::WOULDBLOCK) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(Errno::WOULDBLOCK) => bail!(
                "another tilework has held {} for {} s: is one stopped (Ctrl-Z)?",
                path.display(),
                LOCK_WAIT.as_secs()
            ),
            Err(err) => {
                return Err(err).with_context(|| format!("locking {}", path.display()));
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn private_dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn names_come_from_the_profile_then_from_numbers() {
        let first: Vec<String> = candidates(Some("/x/dev.toml")).take(3).collect();
        assert_eq!(first, ["dev", "dev-2", "dev-3"]);
        let numbers: Vec<String> = candidates(None).take(3).collect();
        assert_eq!(numbers, ["0", "1", "2"]);
        assert_eq!(candidates(Some("dev")).nth(999).as_deref(), Some("0"));
    }

    #[test]
    fn a_live_name_is_skipped_and_a_dead_one_reused() {
        // Not the names of the saved workspaces of the user running the
        // tests (they are skipped too).
        let dir = private_dir();
        let live = claim_free_but(dir.path(), None, |_| false).unwrap();
        assert_eq!(live.name, "0");
        // A crash: the socket file stays, nothing listens.
        let crashed = claim_free_but(dir.path(), None, |_| false).unwrap();
        assert_eq!(crashed.name, "1");
        drop(crashed.listener);
        assert_eq!(probe(&crashed.path).unwrap(), Probe::Dead);
        let next = claim_free_but(dir.path(), None, |_| false).unwrap();
        assert_eq!(next.name, "1", "the dead socket's name is free again");
        assert_eq!(probe(&next.path).unwrap(), Probe::Live);
        assert_eq!(probe(&live.path).unwrap(), Probe::Live);
        let err = claim_named(dir.path(), "0").unwrap_err().to_string();
        assert!(err.contains("already running"), "{err}");
    }

    #[test]
    fn only_dead_sockets_are_removed() {
        let dir = private_dir();
        let live = claim_named(dir.path(), "up").unwrap();
        assert!(!remove_if_dead(&live.path).unwrap());
        assert!(live.path.exists());
        let plain = dir.path().join("plain");
        fs::write(&plain, "not a socket").unwrap();
        assert!(!remove_if_dead(&plain).unwrap());
        assert!(claim_named(dir.path(), "plain").is_err());
        assert!(plain.exists(), "a file that is not a socket is left alone");
        drop(live.listener);
        assert!(remove_if_dead(&live.path).unwrap());
        assert!(!live.path.exists());
    }

    #[test]
    fn a_renamed_workspace_is_reached_by_its_new_name_only() {
        let dir = private_dir();
        let ws = claim_named(dir.path(), "0").unwrap();
        let other = claim_named(dir.path(), "taken").unwrap();
        let err = rename(dir.path(), "0", "taken").unwrap_err().to_string();
        assert!(err.contains("already running"), "{err}");
        assert!(rename(dir.path(), "0", ".hidden").is_err());
        let to = rename(dir.path(), "0", "work").unwrap();
        assert_eq!(to, dir.path().join("work"));
        assert_eq!(probe(&to).unwrap(), Probe::Live, "the same listener");
        assert_eq!(probe(&ws.path).unwrap(), Probe::Gone);
        assert_eq!(probe(&other.path).unwrap(), Probe::Live);
        // The old name is free for a new workspace.
        assert_eq!(claim_named(dir.path(), "0").unwrap().name, "0");
    }

    #[test]
    fn a_held_lock_is_waited_for() {
        let dir = private_dir();
        let held = lock(dir.path()).unwrap();
        let path = dir.path().to_path_buf();
        let waiter = std::thread::spawn(move || claim_named(&path, "w").map(|c| c.name));
        std::thread::sleep(Duration::from_millis(50));
        assert!(!waiter.is_finished(), "claimed while the lock was held");
        drop(held);
        assert_eq!(waiter.join().unwrap().unwrap(), "w");
    }
}
