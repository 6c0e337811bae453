//! Keystroke-to-echo latency: a key written to the outer PTY until its
//! glyph comes back out of it, with and without a second pane flooding.
//!
//! By default the pane runs a program that answers every key itself
//! (`echo-probe`, on a raw tty), like an editor or a shell's line editor
//! and like muxbench's probe: the program must be scheduled to answer,
//! which under a flood on two cores is part of what the user waits for.
//! `--echo kernel` runs `cat > /dev/null` on a tty in `-icanon echo` mode
//! instead: the kernel's line discipline echoes each key the moment it
//! arrives, so only the multiplexer's own path is measured (read the key,
//! forward it, read the echo, parse it, draw it) — the easier case, and
//! what this harness measured before.
//!
//! Keys are Greek small letters (two UTF-8 bytes, one write, one key): the
//! flood pane's text and every escape sequence are pure ASCII, and a UTF-8
//! lead byte never occurs inside another character, so the glyph's bytes
//! in the output stream can only be the echo.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::contender::{self, Arrangement, Contender, Tools, Workdir, path_string, sh_quote};
use crate::outer::{Outer, wait_for_file};
use crate::procfs;
use crate::summary::{Rng, fmt_opt, json_num, max, percentile, print_table};

#[derive(Debug, clap::Args)]
pub struct LatencyArgs {
    /// Contenders, one after the other.
    #[arg(long, value_delimiter = ',', default_value = "bare,tilework,tmux")]
    pub contender: Vec<Contender>,
    /// Keys measured per contender.
    #[arg(long, default_value_t = 300)]
    pub keys: usize,
    /// Keys typed first and not counted.
    #[arg(long, default_value_t = 20)]
    pub warmup: usize,
    /// Flood a second pane (side by side, not focused) with --file on a loop.
    #[arg(long, requires = "file")]
    pub flood: bool,
    /// Instead of one flood pane, this many panes each running `yes`, all
    /// tiled in an even grid with the echo pane (the many-panes case).
    #[arg(long, value_name = "N", conflicts_with = "flood")]
    pub yes_panes: Option<usize>,
    /// Rounds, interleaved (A B C A B C …) so drift on a shared machine hits
    /// every contender alike; each round measures --keys keys per contender.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// The file the flood pane writes over and over.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// The flood pane writes --file once every this many ms instead of
    /// without pause (a picture a second: `--flood-every-ms 1000`).
    #[arg(long, value_name = "MS", requires = "flood")]
    pub flood_every_ms: Option<u64>,
    /// Who echoes a key: a program in the pane (the harder case) or the
    /// kernel's line discipline.
    #[arg(long, value_enum, default_value_t = Echo::Program)]
    pub echo: Echo,
    /// Shortest pause between keys (ms); 10-20 as in muxbench.
    #[arg(long, default_value_t = 10)]
    pub gap_min_ms: u64,
    /// Longest pause between keys (ms).
    #[arg(long, default_value_t = 20)]
    pub gap_max_ms: u64,
    /// Print a Markdown summary table after the JSON lines.
    #[arg(long)]
    pub table: bool,
    #[command(flatten)]
    pub tools: Tools,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Echo {
    Program,
    Kernel,
}

struct Result1 {
    contender: Contender,
    samples_ms: Vec<f64>,
    timeouts: usize,
    flood_mb_s: Option<f64>,
    mux_cpu_pct: Option<f64>,
    /// Peak RSS of the multiplexer (server, plus its client if separate).
    mux_rss_mb: Option<f64>,
}

impl Result1 {
    /// Pools another round of the same contender into this one.
    fn absorb(&mut self, round: Result1, rounds_before: usize) {
        let mean = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some((a * rounds_before as f64 + b) / (rounds_before + 1) as f64),
            (a, b) => a.or(b),
        };
        self.samples_ms.extend(round.samples_ms);
        self.timeouts += round.timeouts;
        self.flood_mb_s = mean(self.flood_mb_s, round.flood_mb_s);
        self.mux_cpu_pct = mean(self.mux_cpu_pct, round.mux_cpu_pct);
        self.mux_rss_mb = match (self.mux_rss_mb, round.mux_rss_mb) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}

pub fn run(args: &LatencyArgs) -> Result<()> {
    if args.keys == 0 {
        bail!("--keys must be at least 1");
    }
    for &c in &args.contender {
        contender::check(c, &args.tools)?;
    }
    let flood_file = match (&args.flood, &args.file) {
        (true, Some(f)) => Some(
            f.canonicalize()
                .with_context(|| format!("resolving {}", f.display()))?,
        ),
        _ => None,
    };
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let load = match (&flood_file, args.yes_panes) {
        (Some(file), _) => Load::Flood(file),
        (None, Some(n)) if n > 0 => Load::Yes(n),
        (None, _) => Load::Idle,
    };
    let contenders: Vec<Contender> = args
        .contender
        .iter()
        .copied()
        .filter(|&c| {
            let skip = c == Contender::Bare && load != Load::Idle;
            if skip {
                eprintln!("latency: bare holds one program, no second pane: skipped under load");
            }
            !skip
        })
        .collect();
    let mut results: Vec<Result1> = Vec::new();
    for round in 0..args.rounds {
        for &c in &contenders {
            let r = run_one(c, args, load).with_context(|| format!("{c}, round {}", round + 1))?;
            print_json(&r, load);
            match results.iter_mut().find(|p| p.contender == c) {
                Some(pooled) => pooled.absorb(r, round),
                None => results.push(r),
            }
        }
    }
    if args.table {
        println!();
        print_summary(&results);
    }
    Ok(())
}

/// What the other panes do while keys are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Load<'a> {
    Idle,
    /// One pane beside the echo pane loops `cat FILE`.
    Flood(&'a Path),
    /// This many panes run `yes`, tiled with the echo pane.
    Yes(usize),
}

fn print_json(r: &Result1, load: Load) {
    println!(
        "{{\"bench\":\"latency\",\"contender\":\"{}\",\"flood\":{},\"yes_panes\":{},\"keys\":{},\"timeouts\":{},\"p50_ms\":{},\"p95_ms\":{},\"p99_ms\":{},\"max_ms\":{},\"flood_mb_s\":{},\"mux_cpu_pct\":{},\"mux_rss_mb\":{}}}",
        r.contender,
        matches!(load, Load::Flood(_)),
        match load {
            Load::Yes(n) => n,
            _ => 0,
        },
        r.samples_ms.len(),
        r.timeouts,
        json_num(percentile(&r.samples_ms, 50.0), 3),
        json_num(percentile(&r.samples_ms, 95.0), 3),
        json_num(percentile(&r.samples_ms, 99.0), 3),
        json_num(max(&r.samples_ms), 3),
        json_num(r.flood_mb_s, 1),
        json_num(r.mux_cpu_pct, 0),
        json_num(r.mux_rss_mb, 1),
    );
}

/// The pooled table, with each contender's p50 and p99 as a ratio of
/// tmux's from the same run (below 1: faster than tmux).
fn print_summary(results: &[Result1]) {
    let tmux = results.iter().find(|r| r.contender == Contender::Tmux);
    let ratio = |r: &Result1, p: f64| -> String {
        let theirs = tmux.and_then(|t| percentile(&t.samples_ms, p));
        match (percentile(&r.samples_ms, p), theirs) {
            (Some(ours), Some(theirs)) if theirs > 0.0 => format!("{:.2}x", ours / theirs),
            _ => "-".into(),
        }
    };
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            vec![
                r.contender.to_string(),
                r.samples_ms.len().to_string(),
                fmt_opt(percentile(&r.samples_ms, 50.0), 3),
                fmt_opt(percentile(&r.samples_ms, 95.0), 3),
                fmt_opt(percentile(&r.samples_ms, 99.0), 3),
                fmt_opt(max(&r.samples_ms), 3),
                ratio(r, 50.0),
                ratio(r, 99.0),
                r.timeouts.to_string(),
                fmt_opt(r.flood_mb_s, 1),
                fmt_opt(r.mux_cpu_pct, 0),
                fmt_opt(r.mux_rss_mb, 1),
            ]
        })
        .collect();
    print_table(
        &[
            "contender",
            "keys",
            "p50 ms",
            "p95 ms",
            "p99 ms",
            "max ms",
            "p50 / tmux",
            "p99 / tmux",
            "lost",
            "flood MB/s",
            "mux CPU %",
            "mux peak RSS MB",
        ],
        &rows,
    );
}

fn run_one(contender: Contender, args: &LatencyArgs, load: Load) -> Result<Result1> {
    let flood = match load {
        Load::Flood(file) => Some(file),
        _ => None,
    };
    let dir = Workdir::new("latency")?;
    let ready = dir.file("ready");
    let writer_pid = dir.file("flood.pid");
    let q = |p: &Path| sh_quote(&path_string(p));
    let me = std::env::current_exe().context("locating the harness binary")?;
    // $PPID: the multiplexer (or, bare, the harness).
    let announce = format!("echo \"$PPID\" > {r}.tmp && mv {r}.tmp {r}", r = q(&ready));
    let echo = match args.echo {
        Echo::Program => format!("stty raw -echo; {announce}; exec {} echo-probe", q(&me)),
        Echo::Kernel => format!("stty -icanon echo; {announce}; exec cat > /dev/null"),
    };
    let mut panes = vec![echo];
    if let Some(file) = flood {
        let every = args
            .flood_every_ms
            .map_or(String::new(), |ms| format!(" --every-ms {ms}"));
        panes.push(format!(
            "exec {} flood-writer --file {} --pid-file {}{every}",
            q(&me),
            q(file),
            q(&writer_pid)
        ));
    }
    let arrangement = match load {
        Load::Yes(n) => {
            panes.extend(std::iter::repeat_n("exec yes".to_string(), n));
            Arrangement::Tiled
        }
        _ => Arrangement::SideBySide,
    };
    let (launch, tmux) =
        contender::launch_arranged(contender, &args.tools, &dir, &panes, &[], arrangement)?;
    let mut outer = Outer::spawn(&launch)?;
    if !wait_for_file(&ready, Duration::from_secs(20)) {
        bail!("the echo pane did not start within 20 s");
    }
    let flood_pid: Option<u32> = match flood {
        Some(_) => {
            if !wait_for_file(&writer_pid, Duration::from_secs(20)) {
                bail!("the flood pane did not start within 20 s");
            }
            Some(read_pid(&writer_pid)?)
        }
        None => None,
    };
    let mux: Option<u32> = if contender == Contender::Bare {
        None
    } else {
        Some(read_pid(&ready)?)
    };
    // First frames drawn, flood in its steady state.
    std::thread::sleep(Duration::from_millis(500));

    let glyphs: Vec<char> = ('α'..='ω').collect();
    let mut rng = Rng::new(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    );
    let mut samples_ms = Vec::with_capacity(args.keys);
    let mut timeouts = 0;
    let mut window: Option<(Instant, Option<procfs::Cpu>, Option<u64>)> = None;
    let gap_lo = args.gap_min_ms * 1000;
    let gap_hi = (args.gap_max_ms * 1000).max(gap_lo + 1);
    for i in 0..args.warmup + args.keys {
        if i == args.warmup {
            let cpu = mux.map(procfs::cpu).transpose()?;
            let count = flood_pid.map(procfs::written).transpose()?;
            window = Some((Instant::now(), cpu, count));
        }
        let ch = glyphs[i % glyphs.len()];
        let mut utf8 = [0u8; 4];
        let key = ch.encode_utf8(&mut utf8).as_bytes();
        outer.arm(key);
        let sent = Instant::now();
        outer.type_bytes(key)?;
        match outer.wait_hit(Duration::from_secs(1)) {
            Some(seen) if i >= args.warmup => {
                samples_ms.push(seen.saturating_duration_since(sent).as_secs_f64() * 1e3);
            }
            Some(_) => {}
            None => {
                outer.disarm();
                if i >= args.warmup {
                    timeouts += 1;
                }
            }
        }
        if outer.exited() {
            bail!("{contender} exited during the measurement");
        }
        std::thread::sleep(Duration::from_micros(rng.range(gap_lo, gap_hi)));
    }
    let (mux_cpu_pct, flood_mb_s) = match window {
        Some((began, cpu0, count0)) => {
            let secs = began.elapsed().as_secs_f64();
            let cpu = match (mux, cpu0) {
                (Some(pid), Some(c0)) => {
                    Some((procfs::cpu(pid)?.total() - c0.total()) / secs * 100.0)
                }
                _ => None,
            };
            let rate = match (flood_pid, count0) {
                (Some(pid), Some(b0)) => {
                    Some(procfs::written(pid)?.saturating_sub(b0) as f64 / secs / 1e6)
                }
                _ => None,
            };
            (cpu, rate)
        }
        None => (None, None),
    };

    let mux_rss_mb = match mux {
        Some(server) => {
            let mut bytes = procfs::status_kb(server, "VmHWM")?;
            // tmux's client is a process of its own (tilework's is the server).
            if let Some(client) = outer.pid().filter(|&c| c != server) {
                bytes += procfs::status_kb(client, "VmHWM").unwrap_or(0);
            }
            Some(bytes as f64 / 1e6)
        }
        None => None,
    };

    outer.shut_down(contender, tmux);
    Ok(Result1 {
        contender,
        samples_ms,
        timeouts,
        flood_mb_s,
        mux_cpu_pct,
        mux_rss_mb,
    })
}

fn read_pid(path: &Path) -> Result<u32> {
    std::fs::read_to_string(path)
        .with_context(|| format!("reading {}", path.display()))?
        .trim()
        .parse()
        .with_context(|| format!("parsing {}", path.display()))
}

#[derive(Debug, clap::Args)]
pub struct FloodWriterArgs {
    /// Written to stdout over and over.
    #[arg(long, value_name = "PATH")]
    pub file: PathBuf,
    /// Where to write our pid once writing has begun: the harness reads
    /// what we wrote from /proc/PID/io (`wchar`), on its own clock.
    #[arg(long, value_name = "PATH")]
    pub pid_file: PathBuf,
    /// Write the file once every this many ms instead of without pause.
    #[arg(long, value_name = "MS")]
    pub every_ms: Option<u64>,
}

/// The flood pane's program: `while :; do cat FILE; done` in one process,
/// so its write count is what the multiplexer let through.
pub fn flood_writer(args: &FloodWriterArgs) -> Result<()> {
    // Unbuffered fd 1, like cat: Rust's stdout is line-buffered.
    let mut out = File::from(
        std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .context("duplicating stdout")?,
    );
    let mut buf = vec![0u8; 128 * 1024];
    let tmp = args.pid_file.with_extension("tmp");
    std::fs::write(&tmp, format!("{}\n", std::process::id()))
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.pid_file)
        .with_context(|| format!("renaming to {}", args.pid_file.display()))?;
    loop {
        let mut file =
            File::open(&args.file).with_context(|| format!("opening {}", args.file.display()))?;
        loop {
            let n = file
                .read(&mut buf)
                .with_context(|| format!("reading {}", args.file.display()))?;
            if n == 0 {
                break;
            }
            if out.write_all(&buf[..n]).is_err() {
                // The terminal is gone: the benchmark is over.
                return Ok(());
            }
        }
        if let Some(ms) = args.every_ms {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }
}

/// The echo pane's program for `--echo program`: every read from the (raw)
/// terminal is written straight back, as a program answering keys does.
pub fn echo_probe() -> Result<()> {
    // Unbuffered fds: one write per read, nothing held back.
    let mut input = File::from(
        std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .context("duplicating stdin")?,
    );
    let mut out = File::from(
        std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .context("duplicating stdout")?,
    );
    let mut buf = [0u8; 4096];
    loop {
        let n = input.read(&mut buf).context("reading the terminal")?;
        if n == 0 || out.write_all(&buf[..n]).is_err() {
            // The terminal is gone: the benchmark is over.
            return Ok(());
        }
    }
}
