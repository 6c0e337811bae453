//! What a pane is doing, from the kernel: the program in its terminal's
//! foreground, and whether that is just the pane's shell waiting at its
//! prompt. Closing asks first when it is not (`layers::confirm`), and tabs
//! and borders are named after it (`naming`).
//!
//! Read from `/proc/PID/stat` (field `tpgid`, the terminal's foreground
//! process group, as `ps -o tpgid` shows) and `/proc/PGID/comm`: no
//! handle on the PTY is needed, and where `/proc` is missing the answer is
//! "unknown", which never asks and names by the command.

use std::path::Path;

/// The program in the foreground of a pane's terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreground {
    /// Its name as the kernel knows it (`vim`, `sleep`, `bash`).
    pub program: String,
    /// It is the pane's own process (the shell or the command the pane
    /// started), not a job started from it.
    pub is_pane_process: bool,
}

/// Shells a pane runs interactively: at their own prompt they are idle.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "ash", "tcsh", "csh", "nu", "xonsh",
    "elvish", "yash", "oil", "osh",
];

/// Whether `program` (a path or a name) is an interactive shell.
pub fn is_shell(program: &str) -> bool {
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    SHELLS.contains(&name.trim_start_matches('-'))
}

/// The foreground of the terminal of process `pid`, when `/proc` says.
pub fn of_process(pid: u32) -> Option<Foreground> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let group = foreground_group(&stat)?;
    let program = std::fs::read_to_string(format!("/proc/{group}/comm"))
        .ok()
        .map(|c| c.trim_end().to_string())
        .filter(|c| !c.is_empty())
        // The group's leader is gone but its group runs on.
        .unwrap_or_else(|| "a program".to_string());
    Some(Foreground {
        program,
        is_pane_process: group == pid,
    })
}

/// The `tpgid` field of a `/proc/PID/stat` line. The command name before
/// it is in parentheses and may hold spaces and parentheses itself, so the
/// fields are counted from the last `)`.
fn foreground_group(stat: &str) -> Option<u32> {
    let after = &stat[stat.rfind(')')? + 1..];
    // state ppid pgrp session tty_nr tpgid
    let tpgid: i64 = after.split_whitespace().nth(5)?.parse().ok()?;
    u32::try_from(tpgid).ok().filter(|&g| g > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_foreground_group_is_read_past_a_name_with_parentheses() {
        let stat = "4242 (my (odd) prog) S 1 4242 4242 34817 4300 4194560 0 0";
        assert_eq!(foreground_group(stat), Some(4300));
        assert_eq!(foreground_group("1 (init) S 0 1 1 0 -1 4194560"), None);
        assert_eq!(foreground_group("garbage"), None);
    }

    #[test]
    fn shells_are_known_by_name_or_path() {
        assert!(is_shell("/bin/bash"));
        assert!(is_shell("-zsh"));
        assert!(is_shell("sh"));
        assert!(!is_shell("vim"));
        assert!(!is_shell("/usr/bin/sleep"));
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
