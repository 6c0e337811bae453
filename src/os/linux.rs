//! Linux's answers to what `os` asks: processes from `/proc`, the peer's
//! credentials from `SO_PEERCRED`, `MSG_NOSIGNAL` and `MSG_CMSG_CLOEXEC` on
//! the session socket, and a PTY's other end from `TIOCGPTPEER`.

use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use rustix::pty::OpenptFlags;

/// `/proc/self/exe`: the running binary's own file.
pub fn own_binary() -> PathBuf {
    PathBuf::from("/proc/self/exe")
}

/// Processes whose session is `sid` (from `/proc/PID/stat`).
pub fn session_processes(sid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let session: i32 = stat_field(&stat, 3)?.parse().ok()?;
        (session == sid).then_some(pid)
    })
    .collect()
}

/// From `/proc/PID/stat`'s `tpgid` (as `ps -o tpgid` shows): no handle on
/// the terminal is needed.
pub fn terminal_foreground_group(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    foreground_group(&stat)
}

/// From `/proc/PID/comm`.
pub fn process_name(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|c| c.trim_end().to_string())
        .filter(|c| !c.is_empty())
}

/// From the `/proc/PID/cwd` link.
pub fn cwd_of(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/cwd")).ok()
}

/// From `/proc/PID/cmdline` (arguments ended by NUL bytes), read up to
/// [`ARGS_LIMIT`]: a longer command line is not taken.
pub fn process_args(pid: u32) -> Option<Vec<String>> {
    use std::io::Read as _;
    let file = std::fs::File::open(format!("/proc/{pid}/cmdline")).ok()?;
    let mut bytes = Vec::new();
    file.take(ARGS_LIMIT + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 > ARGS_LIMIT {
        return None;
    }
    if bytes.last() == Some(&0) {
        bytes.pop();
    }
    let args: Vec<String> = (bytes.split(|&b| b == 0))
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    (!bytes.is_empty()).then_some(args)
}

/// The longest command line [`process_args`] reads.
const ARGS_LIMIT: u64 = 64 * 1024;

/// From `/proc/PID/task/PID/children` (the children of the process's
/// main thread, which a shell's are): one read, no scan of `/proc`.
pub fn children_of(pid: u32) -> Option<Vec<u32>> {
    let list = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    Some(
        list.split_whitespace()
            .filter_map(|c| c.parse().ok())
            .collect(),
    )
}

/// From `/proc/PID/stat`'s `pgrp`.
pub fn process_group(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_field(&stat, 2)?.parse().ok()
}

/// From `/proc/PID/stat`'s `starttime`.
pub fn process_start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_field(&stat, 19)?.parse().ok()
}

/// `SO_PEERCRED`.
pub fn peer_uid(stream: &impl AsFd) -> io::Result<u32> {
    Ok(rustix::net::sockopt::socket_peercred(stream)?.uid.as_raw())
}

pub fn send_with_fds(
    stream: &UnixStream,
    bytes: &[u8],
    fds: &[BorrowedFd<'_>],
) -> io::Result<usize> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(super::MAX_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    Ok(rustix::net::sendmsg(
        stream,
        &[IoSlice::new(bytes)],
        &mut control,
        SendFlags::NOSIGNAL,
    )?)
}

pub fn recv_with_fds(
    stream: &UnixStream,
    buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
) -> io::Result<usize> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(super::MAX_FDS))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let got = rustix::net::recvmsg(
        stream,
        &mut [IoSliceMut::new(buf)],
        &mut control,
        RecvFlags::CMSG_CLOEXEC,
    )?;
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(received) = message {
            fds.extend(received);
        }
    }
    Ok(got.bytes)
}

/// `TIOCGPTPEER` opens the user side from the controller, without a path
/// that could be swapped meanwhile.
pub fn open_pty() -> io::Result<(OwnedFd, OwnedFd)> {
    // NOCTTY throughout: the workspace leads its own session, and a session
    // leader that opens a terminal without it would make it its
    // controlling terminal (and get its SIGHUP).
    let flags = OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC;
    let controller = rustix::pty::openpt(flags)?;
    rustix::pty::grantpt(&controller)?;
    rustix::pty::unlockpt(&controller)?;
    let user_side = rustix::pty::ioctl_tiocgptpeer(&controller, flags)?;
    Ok((controller, user_side))
}

/// Field `n` (from 0) after the command name of a `/proc/PID/stat` line:
/// state ppid pgrp session tty_nr tpgid ... The name before them is in
/// parentheses and may hold spaces and parentheses itself, so the fields
/// are counted from the last `)`.
fn stat_field(stat: &str, n: usize) -> Option<&str> {
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(n)
}

/// The `tpgid` field of a `/proc/PID/stat` line, when there is a terminal.
fn foreground_group(stat: &str) -> Option<u32> {
    let tpgid: i64 = stat_field(stat, 5)?.parse().ok()?;
    u32::try_from(tpgid).ok().filter(|&g| g > 0)
}

/// Through `/proc/self/fd/N`, which opens the file (the terminal device)
/// again rather than duplicating the descriptor.
pub fn reopen_nonblocking(fd: BorrowedFd<'_>, read: bool) -> io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    std::fs::OpenOptions::new()
        .read(read)
        .write(!read)
        .custom_flags(flags.bits() as i32)
        .open(format!("/proc/self/fd/{}", fd.as_raw_fd()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_foreground_group_is_read_past_a_name_with_parentheses() {
        let stat = "4242 (my (odd) prog) S 1 4242 4242 34817 4300 4194560 0 0";
        assert_eq!(foreground_group(stat), Some(4300));
        assert_eq!(stat_field(stat, 3), Some("4242"));
        assert_eq!(foreground_group("1 (init) S 0 1 1 0 -1 4194560"), None);
        assert_eq!(foreground_group("garbage"), None);
    }

    #[test]
    fn finds_our_own_session() {
        let sid = nix::unistd::getsid(None).map(|p| p.as_raw()).unwrap_or(-1);
        let me = std::process::id() as i32;
        assert!(session_processes(sid).contains(&me));
    }

    #[test]
    fn our_own_name_and_directory() {
        let me = std::process::id();
        assert!(process_name(me).is_some_and(|name| !name.is_empty()));
        assert!(cwd_of(me).is_some_and(|dir| dir.is_absolute()));
        assert_eq!(process_name(u32::MAX), None);
        assert_eq!(cwd_of(u32::MAX), None);
    }

    #[test]
    fn the_peer_uid_is_ours_on_a_pair() {
        let (a, _b) = UnixStream::pair().unwrap();
        assert_eq!(peer_uid(&a).unwrap(), rustix::process::getuid().as_raw());
    }

    #[test]
    fn both_ends_of_a_pty_talk() {
        use std::io::{Read, Write};
        let (controller, user_side) = open_pty().unwrap();
        let mut controller = std::fs::File::from(controller);
        let mut user_side = std::fs::File::from(user_side);
        controller.write_all(b"x\n").unwrap();
        let mut got = [0u8; 2];
        user_side.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"x\n");
    }
}
