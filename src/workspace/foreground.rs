//! What a pane is doing, from the kernel: the program in its terminal's
//! foreground, and whether that is just the pane's shell waiting at its
//! prompt. Closing asks first when it is not (`layers::confirm`), and tabs
//! and borders are named after it (`naming`).
//!
//! Asked of the system by the pane's process id (`os`: on Linux, its
//! terminal's foreground process group from `/proc/PID/stat`, that group's
//! name from `/proc/PGID/comm`): no handle on the PTY is needed, and where
//! the system will not say the answer is "unknown", which never asks and
//! names by the command.

use crate::pane::Pane;

use std::path::Path;

use crate::os;

/// The program in the foreground of a pane's terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreground {
    /// Its name as the kernel knows it (`vim`, `sleep`, `bash`).
    pub program: String,
    /// It is the pane's own process (the shell or the command the pane
    /// started), not a job started from it.
    pub is_pane_process: bool,
}

/// A job started from a pane's shell, as the workspace saves it to start
/// it again after a crash (see `persist::relaunch`): each of its programs
/// with their arguments (`/proc/PID/cmdline`), in the order they started
/// (a pipeline has several), and its directory. Read by [`job_of`], off the
/// loop (`name_lookup`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Job {
    pub programs: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
}

/// The job in the foreground of the terminal of pane process `pid` (its
/// shell), if one is: the shell's children in the foreground group (a
/// pipeline's programs; not what they start in turn, a `make`'s
/// compilers), else the group's leader. Reads a few `/proc` files (the
/// shell's children, then each one's): never on the loop.
pub fn job_of(pid: u32) -> Option<Job> {
    let group = os::terminal_foreground_group(pid)?;
    if group == pid {
        return None;
    }
    let mut members: Vec<u32> = (os::children_of(pid).unwrap_or_default().into_iter())
        .filter(|&child| os::process_group(child) == Some(group))
        .collect();
    members.sort_unstable();
    if members.is_empty() {
        members.push(group);
    }
    let programs: Option<Vec<Vec<String>>> = members
        .iter()
        .map(|&member| os::process_args(member))
        .collect();
    let programs = programs?;
    Some(Job {
        programs,
        dir: os::cwd_of(group).map(|d| d.to_string_lossy().into_owned()),
    })
}

/// Shells a pane runs interactively: at their own prompt they are idle.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "ash", "tcsh", "csh", "nu", "xonsh",
    "elvish", "yash", "oil", "osh",
];

/// How the workspace learns a pane's foreground program (tests fake it).
pub type ForegroundProbe = Box<dyn Fn(&Pane) -> Option<Foreground> + Send>;

/// Whether `program` (a path or a name) is an interactive shell.
pub fn is_shell(program: &str) -> bool {
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    SHELLS.contains(&name.trim_start_matches('-'))
}

/// The foreground of the terminal of process `pid`, when the system says.
pub fn of_process(pid: u32) -> Option<Foreground> {
    let group = os::terminal_foreground_group(pid)?;
    let program = os::process_name(group)
        // The group's leader is gone but its group runs on.
        .unwrap_or_else(|| "a program".to_string());
    Some(Foreground {
        program,
        is_pane_process: group == pid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shells_are_known_by_name_or_path() {
        assert!(is_shell("/bin/bash"));
        assert!(is_shell("-zsh"));
        assert!(is_shell("sh"));
        assert!(!is_shell("vim"));
        assert!(!is_shell("/usr/bin/sleep"));
    }

    #[test]
    fn a_shell_s_children_and_their_arguments_are_read() {
        let mut shell = std::process::Command::new("/bin/sh")
            .args(["-c", "sleep 30 & sleep 31 & wait"])
            .spawn()
            .expect("sh");
        let pid = shell.id();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let mut children = Vec::new();
        let mut found: Vec<Vec<String>> = Vec::new();
        // Until both have run `sleep`: a child just forked still shows the
        // shell's own arguments.
        while !(children.len() == 2
            && found
                .iter()
                .all(|a| a.first().is_some_and(|p| p == "sleep")))
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(10));
            children = os::children_of(pid).unwrap_or_default();
            found = children
                .iter()
                .filter_map(|&c| os::process_args(c))
                .collect();
        }
        let groups: Vec<Option<u32>> = children.iter().map(|&c| os::process_group(c)).collect();
        for child in children {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        let _ = shell.kill();
        let _ = shell.wait();
        found.sort();
        assert_eq!(found, [["sleep", "30"], ["sleep", "31"]]);
        // A shell without job control: its children in its own group.
        assert!(groups.iter().all(|g| g.is_some()), "{groups:?}");
    }

    #[test]
    fn a_process_without_a_terminal_has_no_foreground() {
        // This test's own process: run by cargo, maybe without a terminal;
        // either way the call answers without failing.
        let me = std::process::id();
        if let Some(fg) = of_process(me) {
            assert!(!fg.program.is_empty());
        }
        assert_eq!(of_process(u32::MAX), None);
    }
}
