//! A program's exit status when it is not this process's child: after an
//! upgrade, the programs the old process started are still its children,
//! and it stays behind as their reaper (`crate::upgrade::reaper`), which
//! writes each one's status to a note the process that runs the workspace
//! now reads.
//!
//! Two small files per program, in a directory of the user's own
//! (`$XDG_RUNTIME_DIR/tilework/exits/`), each naming the program by its
//! pid and its start time (so a pid used again later never reads another
//! program's note):
//! - `PID.promise` (`START`): written by the old process before it hands
//!   the program over: its reaper will write the status;
//! - `PID.exit` (`START CODE SIGNAL`): written by the reaper once the
//!   program is gone.
//!
//! The process that adopted the program reads both once its pidfd says the
//! program ended, and removes them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::ExitInfo;

/// How long an adopted program's end waits for its reaper's note.
const NOTE_DEADLINE: Duration = Duration::from_secs(2);

/// The notes' directory.
#[derive(Debug, Clone)]
pub struct ExitNotes {
    dir: PathBuf,
}

impl ExitNotes {
    /// The notes in `dir` (created, private, when something is written).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn promise_path(&self, pid: u32) -> PathBuf {
        self.dir.join(format!("{pid}.promise"))
    }

    fn exit_path(&self, pid: u32) -> PathBuf {
        self.dir.join(format!("{pid}.exit"))
    }

    /// Old side: program `pid` (running, this process's child) will have
    /// its status written by this process as its reaper.
    pub fn promise(&self, pid: u32) -> Result<()> {
        let start = crate::os::process_start_time(pid)
            .with_context(|| format!("reading when process {pid} started"))?;
        crate::os::ensure_private_dir(&self.dir)?;
        // Left by another program that had this pid.
        let _ = std::fs::remove_file(self.exit_path(pid));
        write_whole(&self.promise_path(pid), &start.to_string())
    }

    /// Old side: the handoff failed; this process waits for `pid` itself.
    pub fn withdraw(&self, pid: u32) {
        let _ = std::fs::remove_file(self.promise_path(pid));
    }

    /// The reaper: child `pid` ended with `info`; written if it was
    /// promised.
    pub fn record(&self, pid: u32, info: ExitInfo) {
        let Some(start) = read_start(&self.promise_path(pid)) else {
            return;
        };
        let text = format!("{start} {} {}", info.code, u8::from(info.signal));
        if let Err(err) = write_whole(&self.exit_path(pid), &text) {
            tracing::warn!("writing process {pid}'s exit: {err:#}");
        }
    }

    /// New side, while program `pid` runs: what names it.
    pub fn watch(pid: u32) -> Option<u64> {
        crate::os::process_start_time(pid)
    }

    /// New side, once program `pid` (started at `start`) has ended: its
    /// status, if its reaper promised it and writes it in time.
    pub fn wait(&self, pid: u32, start: Option<u64>) -> Option<ExitInfo> {
        let start = start?;
        let promise = self.promise_path(pid);
        if read_start(&promise) != Some(start) {
            return None;
        }
        let exit = self.exit_path(pid);
        let deadline = Instant::now() + NOTE_DEADLINE;
        let info = loop {
            if let Some(info) = read_exit(&exit, start) {
                break Some(info);
            }
            if Instant::now() >= deadline {
                tracing::warn!(pid, "no exit status from the program's reaper");
                break None;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let _ = std::fs::remove_file(&exit);
        let _ = std::fs::remove_file(&promise);
        info
    }
}

fn read_start(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn read_exit(path: &Path, start: u64) -> Option<ExitInfo> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut words = text.split_whitespace();
    if words.next()?.parse::<u64>().ok()? != start {
        return None;
    }
    Some(ExitInfo {
        code: words.next()?.parse().ok()?,
        signal: words.next()? == "1",
    })
}

/// Written whole or not at all: a reader never sees half of it.
fn write_whole(path: &Path, text: &str) -> Result<()> {
    let part = path.with_extension("part");
    std::fs::write(&part, text).with_context(|| format!("writing {}", part.display()))?;
    std::fs::rename(&part, path).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_promised_status_is_read_once_and_a_stale_one_never() {
        let dir = std::env::temp_dir().join(format!("tilework-exit-note-{}", std::process::id()));
        let notes = ExitNotes::new(dir.clone());
        let me = std::process::id();
        let start = ExitNotes::watch(me);
        notes.promise(me).unwrap();
        let info = ExitInfo {
            code: 3,
            signal: false,
        };
        notes.record(me, info);
        assert_eq!(notes.wait(me, start), Some(info));
        // Read and removed: a later program with this pid finds nothing.
        assert_eq!(notes.wait(me, start), None);
        // Another process's note (another start) is not this one's.
        write_whole(&notes.promise_path(me), "1").unwrap();
        write_whole(&notes.exit_path(me), "1 7 0").unwrap();
        assert_eq!(notes.wait(me, start), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
