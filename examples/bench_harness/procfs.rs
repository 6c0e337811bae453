//! What /proc says about a process: CPU time, memory, context switches.

use anyhow::{Context, Result};

/// Clock ticks per second in /proc/PID/stat: USER_HZ, 100 on every Linux
/// architecture the benchmark runs on.
const TICKS_PER_SEC: f64 = 100.0;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cpu {
    pub user_s: f64,
    pub sys_s: f64,
}

impl Cpu {
    pub fn total(&self) -> f64 {
        self.user_s + self.sys_s
    }
}

/// utime + stime of every thread of `pid`, children not included.
pub fn cpu(pid: u32) -> Result<Cpu> {
    let path = format!("/proc/{pid}/stat");
    let stat = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let after = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .with_context(|| format!("parsing {path}"))?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    let tick = |i: usize| -> Result<f64> {
        let v: u64 = fields
            .get(i)
            .with_context(|| format!("{path}: short"))?
            .parse()
            .with_context(|| format!("{path}: field {}", i + 3))?;
        Ok(v as f64 / TICKS_PER_SEC)
    };
    Ok(Cpu {
        user_s: tick(11)?,
        sys_s: tick(12)?,
    })
}

/// A `kB` field of /proc/PID/status (VmHWM, VmRSS, …), in bytes.
pub fn status_kb(pid: u32, field: &str) -> Result<u64> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    status_field(&status, field)
        .map(|kb| kb * 1024)
        .with_context(|| format!("{path}: no {field}"))
}

fn status_field(status: &str, field: &str) -> Option<u64> {
    status.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if name != field {
            return None;
        }
        value.split_whitespace().next()?.parse().ok()
    })
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Switches {
    pub voluntary: u64,
    pub nonvoluntary: u64,
    pub threads: usize,
}

/// Context switches summed over every thread of `pid`: each one is a
/// wake-up (voluntary: it blocked and was woken; involuntary: preempted).
pub fn switches(pid: u32) -> Result<Switches> {
    let dir = format!("/proc/{pid}/task");
    let mut out = Switches::default();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("listing {dir}"))? {
        let entry = entry.with_context(|| format!("listing {dir}"))?;
        let path = entry.path().join("status");
        // A thread that ended between the listing and the read: skip it.
        let Ok(status) = std::fs::read_to_string(&path) else {
            continue;
        };
        out.voluntary += status_field(&status, "voluntary_ctxt_switches").unwrap_or(0);
        out.nonvoluntary += status_field(&status, "nonvoluntary_ctxt_switches").unwrap_or(0);
        out.threads += 1;
    }
    Ok(out)
}

/// The first live child of `parent` whose name is `comm`, if any.
pub fn child_named(parent: u32, comm: &str) -> Option<u32> {
    let entries = std::fs::read_dir("/proc").ok()?;
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .find(|&p| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
                return false;
            };
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            ppid == Some(parent)
                && std::fs::read_to_string(format!("/proc/{p}/comm"))
                    .is_ok_and(|c| c.trim() == comm)
        })
}

pub fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; it has stopped running, which is what matters.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Bytes `pid` has passed to write(2) and friends (`wchar` in /proc/PID/io).
pub fn written(pid: u32) -> Result<u64> {
    let path = format!("/proc/{pid}/io");
    let io = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    status_field(&io, "wchar").with_context(|| format!("{path}: no wchar"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_our_own_process() -> Result<()> {
        let pid = std::process::id();
        assert!(cpu(pid)?.total() >= 0.0);
        assert!(status_kb(pid, "VmHWM")? > 0);
        assert!(switches(pid)?.threads >= 1);
        assert!(written(pid).is_ok());
        Ok(())
    }
}
