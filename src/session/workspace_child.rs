//! The workspace process an attaching client started, known by its pid:
//! the client runs afresh (`small_wait`) and a `Child` does not cross an
//! exec, while the process stays the client's child to wait for.

/// Waits (as `how` says) for this process's child `pid` to end; its status
/// once it has, `None` while it runs or if it cannot be waited for.
pub(super) fn reap(
    pid: u32,
    how: rustix::process::WaitOptions,
) -> Option<rustix::process::WaitStatus> {
    let pid = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    loop {
        match rustix::process::waitpid(Some(pid), how) {
            Ok(status) => return status.map(|(_, status)| status),
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return None,
        }
    }
}

/// Whether child `pid` has ended (and is reaped); `None`: it is no child
/// to wait for.
pub(super) fn reap_now(pid: u32) -> Option<bool> {
    let id = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    match rustix::process::waitpid(Some(id), rustix::process::WaitOptions::NOHANG) {
        Ok(status) => Some(status.is_some()),
        Err(_) => None,
    }
}

/// The workspace this process started, once the terminal has moved to
/// another: it may run for days, and unwaited it would stay a zombie from
/// its end until this process exits.
pub(super) fn reap_when_gone(child: Option<u32>) {
    if let Some(pid) = child {
        // (One that cannot start is said in the log.)
        let _ = crate::jobs::named("reap-workspace", move || {
            let _ = reap(pid, rustix::process::WaitOptions::empty());
        });
    }
}
