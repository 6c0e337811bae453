//! Measures of how far long work has got, read beside the screen, for the
//! waits that fail only once nothing has moved for a while. On a loaded
//! machine (CI, two copies of the suite at once) long work takes as long
//! as it takes; a fixed total limit fails a test whose work is still
//! moving. A stall limit fails it once the measure stopped changing, and a
//! quiet machine that stops moving fails as soon as before.

use std::fmt::Debug;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

/// How long long work may show no progress before a test fails: far past
/// any pause a loaded machine gives a runnable process.
pub const STALL: Duration = Duration::from_secs(60);

/// Clock ticks a second in /proc's CPU times (`getconf CLK_TCK`, 100 on
/// every Linux port with a fixed value).
const TICKS_A_SECOND: u64 = 100;

/// User plus system CPU time, in clock ticks, from one /proc `stat` file.
fn cpu_ticks(stat_path: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(stat_path).ok()?;
    // After the name, which may hold spaces and parentheses: field 3 on.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// CPU time, in clock ticks, of process `pid`: every thread's, the ended
/// ones' too.
pub fn process_cpu(pid: u32) -> u64 {
    cpu_ticks(&format!("/proc/{pid}/stat")).unwrap_or(0)
}

/// CPU time, in clock ticks, of the live threads named `name` of process
/// `pid` (`None`: this test process), such as tilework's
/// `history-replay` threads: work done off the caller's thread, which
/// posts its result when it ends.
pub fn threads_cpu(pid: Option<u32>, name: &str) -> u64 {
    let task = pid.map_or_else(
        || "/proc/self/task".to_string(),
        |p| format!("/proc/{p}/task"),
    );
    let Ok(entries) = std::fs::read_dir(&task) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim_end() == name)
        })
        .filter_map(|e| cpu_ticks(&e.path().join("stat").to_string_lossy()))
        .sum()
}

/// Bytes written so far (`wchar` of /proc/PID/io) by the live descendants
/// of `pid`: for a workspace, what its panes' programs have written. A
/// program writing into a pane tilework no longer reads blocks, so the
/// sum stops moving.
pub fn written_by_descendants(pid: u32) -> u64 {
    let mut total = 0;
    let mut parents = vec![pid];
    while let Some(parent) = parents.pop() {
        for child in super::child_pids(parent) {
            total += std::fs::read_to_string(format!("/proc/{child}/io"))
                .ok()
                .and_then(|io| {
                    io.lines()
                        .find_map(|l| l.strip_prefix("wchar:"))
                        .and_then(|n| n.trim().parse::<u64>().ok())
                })
                .unwrap_or(0);
            parents.push(child);
        }
    }
    total
}

/// Work measured by its CPU time. Spinning is CPU time too, so the
/// measure also fails the test once the work has used the CPU time the
/// old fixed limit gave it: a job that never ends fails on a quiet
/// machine as soon as it did before (it had that limit's wall time, and
/// CPU time never runs ahead of wall time on one thread).
pub struct CpuWork<F: FnMut() -> u64> {
    read: F,
    start: u64,
    limit: Duration,
    what: String,
}

impl<F: FnMut() -> u64> CpuWork<F> {
    /// `read` gives the CPU ticks used so far, e.g. with [`threads_cpu`].
    pub fn new(what: &str, limit: Duration, mut read: F) -> Self {
        let start = read();
        Self {
            read,
            start,
            limit,
            what: what.to_string(),
        }
    }

    /// The CPU ticks used so far, as progress; panics once they passed the
    /// limit since [`CpuWork::new`].
    pub fn progress(&mut self) -> u64 {
        let now = (self.read)();
        let used = Duration::from_millis(now.saturating_sub(self.start) * 1000 / TICKS_A_SECOND);
        assert!(
            used < self.limit,
            "{} used {used:?} of CPU, over the {:?} it may take",
            self.what,
            self.limit
        );
        now
    }
}

/// Watches a progress measure: fails once it has not changed for a limit.
pub struct Stall<P> {
    limit: Duration,
    seen: P,
    moved: Instant,
}

impl<P: PartialEq + Debug> Stall<P> {
    pub fn new(limit: Duration, first: P) -> Self {
        Self {
            limit,
            seen: first,
            moved: Instant::now(),
        }
    }

    /// How long the measure has stayed as it is, `now` included.
    pub fn still_for(&mut self, now: P) -> Duration {
        if now != self.seen {
            self.seen = now;
            self.moved = Instant::now();
        }
        self.moved.elapsed()
    }

    /// Notes `now`; panics, saying `what` was awaited, once the measure
    /// has not changed for the limit.
    pub fn check(&mut self, now: P, what: impl std::fmt::Display) {
        let still = self.still_for(now);
        assert!(
            still < self.limit,
            "no progress for {still:?} (at {:?}) waiting for {what}",
            self.seen
        );
    }
}

/// Receives from `rx` the result of long work, however long a loaded
/// machine makes it take: gives up only once nothing came and `progress`
/// has not changed for `stall`, or the sender is gone.
pub fn recv_while_progressing<T, P: PartialEq + Debug>(
    rx: &Receiver<T>,
    stall: Duration,
    mut progress: impl FnMut() -> P,
) -> Result<T, String> {
    let mut watch = Stall::new(stall, progress());
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(got) => return Ok(got),
            Err(RecvTimeoutError::Disconnected) => return Err("the sender is gone".into()),
            Err(RecvTimeoutError::Timeout) => {
                let still = watch.still_for(progress());
                if still >= stall {
                    return Err(format!(
                        "nothing arrived and no progress for {still:?} (at {:?})",
                        watch.seen
                    ));
                }
            }
        }
    }
}

/// Receives what the threads named `thread` of this process post to `rx`
/// when their work ends (a history replay): fails once they used no CPU
/// for [`STALL`] (stuck, or ended without posting), or used more than
/// `cpu_limit` of it (the fixed limit this wait had before).
pub fn recv_from_threads<T>(
    rx: &Receiver<T>,
    thread: &str,
    cpu_limit: Duration,
) -> Result<T, String> {
    let mut work = CpuWork::new(thread, cpu_limit, || threads_cpu(None, thread));
    recv_while_progressing(rx, STALL, || work.progress())
}

/// [`super::wait_until`] for long work on a loaded machine: polls `cond`
/// (something outside the screen: a file, /proc) until it holds; fails
/// only once `progress` has not changed for `stall`.
pub fn wait_until_while_progressing<P: PartialEq + Debug>(
    what: &str,
    stall: Duration,
    mut progress: impl FnMut() -> P,
    mut cond: impl FnMut() -> bool,
) {
    let mut watch = Stall::new(stall, progress());
    let mut looked = Instant::now();
    while !cond() {
        // Less often than `cond`: reading the measure takes CPU from the
        // work it measures.
        if looked.elapsed() >= Duration::from_millis(100) {
            looked = Instant::now();
            watch.check(progress(), what);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
