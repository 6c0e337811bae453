//! tilework with idle panes: what does it cost when nothing happens?

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use crate::contender::{self, Contender, Tools, Workdir, path_string};
use crate::outer::Outer;
use crate::procfs;
use crate::summary::{fmt_opt, json_num, print_table};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Workload {
    /// `--profile idle`: four `sleep` panes in a 2x2 grid.
    Profile,
    /// Four interactive `sh -i` panes side by side, each showing a prompt.
    Shells,
}

#[derive(Debug, clap::Args)]
pub struct IdleArgs {
    /// Length of the measured window.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Quiet time (no output) required before the window opens.
    #[arg(long, default_value_t = 1.0)]
    pub settle: f64,
    #[arg(long, value_enum, default_value_t = Workload::Profile)]
    pub workload: Workload,
    /// Print a Markdown table after the JSON line.
    #[arg(long)]
    pub table: bool,
    #[command(flatten)]
    pub tools: Tools,
}

struct Sample {
    at: Instant,
    switches: procfs::Switches,
    cpu: procfs::Cpu,
    bytes: u64,
    frames: Option<u64>,
}

pub fn run(args: &IdleArgs) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        bail!("--seconds must be positive");
    }
    contender::check(Contender::Tilework, &args.tools)?;
    let dir = Workdir::new("idle")?;
    let stats_path = dir.file("stats.jsonl");
    let has_stats = contender::tilework_has_flag(&args.tools, "--stats");
    let mut extra = Vec::new();
    if has_stats {
        extra.extend(["--stats".to_string(), path_string(&stats_path)]);
    }
    let panes: Vec<String> = match args.workload {
        Workload::Profile => {
            extra.extend(["--profile".to_string(), "idle".to_string()]);
            Vec::new()
        }
        Workload::Shells => vec!["exec /bin/sh -i".to_string(); 4],
    };
    let (launch, _) = contender::launch(Contender::Tilework, &args.tools, &dir, &panes, &extra)?;
    let mut outer = Outer::spawn(&launch)?;
    let client = outer.pid().context("tilework has no pid")?;
    // The terminal runs a client that only waits; the workspace is its
    // child process (sessions). Measure the workspace, where the work is.
    // Same executable, so the same name (whatever the binary is called).
    let comm = std::fs::read_to_string(format!("/proc/{client}/comm")).unwrap_or_default();
    let give_up = Instant::now() + Duration::from_secs(3);
    let pid = loop {
        if let Some(pid) = procfs::child_named(client, comm.trim()) {
            break pid;
        }
        if Instant::now() > give_up || outer.exited() {
            // An older tilework without sessions: it is the workspace.
            break client;
        }
        std::thread::sleep(Duration::from_millis(20));
    };

    // Settle: the first frames are drawn and then nothing for `settle` s.
    let quiet_for = Duration::from_secs_f64(args.settle.max(0.1));
    let give_up = Instant::now() + Duration::from_secs(20) + quiet_for;
    let mut last = outer.bytes();
    let mut quiet_since = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        if outer.exited() {
            bail!("tilework exited during start-up (see its log)");
        }
        let now = outer.bytes();
        if now != last || now == 0 {
            last = now;
            quiet_since = Instant::now();
        } else if quiet_since.elapsed() >= quiet_for {
            break;
        }
        if Instant::now() > give_up {
            bail!("tilework never went quiet ({} bytes so far)", now);
        }
    }

    let sample = |outer: &Outer| -> Result<Sample> {
        Ok(Sample {
            at: Instant::now(),
            switches: procfs::switches(pid)?,
            cpu: procfs::cpu(pid)?,
            bytes: outer.bytes(),
            frames: if has_stats {
                Some(count_lines(&stats_path))
            } else {
                None
            },
        })
    };
    let before = sample(&outer)?;
    std::thread::sleep(Duration::from_secs_f64(args.seconds));
    let after = sample(&outer)?;
    if outer.exited() {
        bail!("tilework exited during the window");
    }
    let _ = kill(Pid::from_raw(client as i32), Signal::SIGTERM);
    outer.wait_exit(Duration::from_secs(5));

    let secs = after.at.duration_since(before.at).as_secs_f64();
    let vol = after
        .switches
        .voluntary
        .saturating_sub(before.switches.voluntary);
    let invol = after
        .switches
        .nonvoluntary
        .saturating_sub(before.switches.nonvoluntary);
    let bytes = after.bytes - before.bytes;
    let frames = match (before.frames, after.frames) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let cpu_ms = (after.cpu.total() - before.cpu.total()) * 1e3;
    let workload = match args.workload {
        Workload::Profile => "profile-idle",
        Workload::Shells => "4-shells",
    };
    println!(
        "{{\"bench\":\"idle\",\"workload\":\"{workload}\",\"seconds\":{},\"frames\":{},\"outer_bytes\":{bytes},\"wakeups\":{},\"voluntary\":{vol},\"involuntary\":{invol},\"threads\":{},\"cpu_ms\":{},\"startup_frames\":{},\"startup_bytes\":{}}}",
        json_num(Some(secs), 2),
        frames.map_or_else(|| "null".to_string(), |f| f.to_string()),
        vol + invol,
        after.switches.threads,
        json_num(Some(cpu_ms), 0),
        before
            .frames
            .map_or_else(|| "null".to_string(), |f| f.to_string()),
        before.bytes,
    );
    if args.table {
        println!();
        let frames_cell = match frames {
            Some(f) => f.to_string(),
            None => "— (no --stats in this build)".to_string(),
        };
        print_table(
            &["tilework, idle", "value"],
            &[
                vec!["window s".into(), fmt_opt(Some(secs), 1)],
                vec!["panes".into(), format!("4 ({workload})")],
                vec!["frames".into(), frames_cell],
                vec!["bytes written to the terminal".into(), bytes.to_string()],
                vec![
                    "wake-ups (context switches, all threads)".into(),
                    format!("{} ({vol} voluntary, {invol} involuntary)", vol + invol),
                ],
                vec!["threads".into(), after.switches.threads.to_string()],
                vec!["CPU ms".into(), fmt_opt(Some(cpu_ms), 0)],
                vec![
                    "(start-up, before the window)".into(),
                    format!(
                        "{} frames, {} bytes",
                        before
                            .frames
                            .map_or_else(|| "—".to_string(), |f| f.to_string()),
                        before.bytes
                    ),
                ],
            ],
        );
    }
    Ok(())
}

/// Lines in `path` (frames in a `--stats` file); 0 when it does not exist yet.
fn count_lines(path: &std::path::Path) -> u64 {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count() as u64)
}
