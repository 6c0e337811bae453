//! `cat` of a big file in a 104x59 pane, timed inside the pane.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::contender::{self, Contender, Tools, Workdir, sh_quote};
use crate::outer::{Outer, wait_for_file};
use crate::procfs::{self, Cpu};
use crate::summary::{fmt_opt, json_num, max, median, min, print_table};

#[derive(Debug, clap::Args)]
pub struct FloodArgs {
    /// Contenders, run interleaved (bare, tilework, tmux, bare, …).
    #[arg(long, value_delimiter = ',', default_value = "bare,tilework,tmux")]
    pub contender: Vec<Contender>,
    /// The file to `cat` (scripts/gen-bigfile.sh makes it).
    #[arg(long, value_name = "PATH")]
    pub file: PathBuf,
    /// Runs per contender.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Print a Markdown summary table after the per-run JSON lines.
    #[arg(long)]
    pub table: bool,
    /// Give up on a run after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,
    #[command(flatten)]
    pub tools: Tools,
}

#[derive(Debug)]
struct Run {
    contender: Contender,
    /// `cat`'s duration as the pane saw it.
    seconds: f64,
    /// From `cat`'s end to the last byte on the outer terminal: what was
    /// still queued inside the multiplexer, and its final frame.
    tail: f64,
    /// From starting the multiplexer to `cat`'s end, as the harness saw it.
    wall: f64,
    /// The multiplexer's own CPU (every thread, children excluded).
    cpu: Option<Cpu>,
    /// The multiplexer's peak resident set (VmHWM).
    peak_rss: Option<u64>,
    /// Bytes the multiplexer wrote to the outer terminal.
    outer_bytes: u64,
    /// The multiplexer process measured (/proc/PID/comm).
    mux_name: Option<String>,
    /// The pane's size as its program sees it: "COLSxROWS".
    pane: String,
}

pub fn run(args: &FloodArgs) -> Result<()> {
    if !args.file.is_file() {
        bail!(
            "{} does not exist: run scripts/gen-bigfile.sh",
            args.file.display()
        );
    }
    for &c in &args.contender {
        contender::check(c, &args.tools)?;
    }
    let file = args
        .file
        .canonicalize()
        .with_context(|| format!("resolving {}", args.file.display()))?;
    let mut runs = Vec::new();
    for i in 1..=args.runs {
        for &c in &args.contender {
            let r = run_once(c, &args.tools, &file, Duration::from_secs(args.timeout))
                .with_context(|| format!("{c} run {i}"))?;
            println!(
                "{{\"bench\":\"flood\",\"contender\":\"{c}\",\"run\":{i},\"seconds\":{},\"tail_s\":{},\"wall_s\":{},\"mux_cpu_s\":{},\"mux_user_s\":{},\"mux_sys_s\":{},\"peak_rss_mb\":{},\"outer_bytes\":{},\"mux\":\"{}\",\"pane\":\"{}\"}}",
                json_num(Some(r.seconds), 3),
                json_num(Some(r.tail), 3),
                json_num(Some(r.wall), 3),
                json_num(r.cpu.map(|c| c.total()), 2),
                json_num(r.cpu.map(|c| c.user_s), 2),
                json_num(r.cpu.map(|c| c.sys_s), 2),
                json_num(r.peak_rss.map(mb), 1),
                r.outer_bytes,
                r.mux_name.as_deref().unwrap_or("-"),
                r.pane,
            );
            runs.push(r);
        }
    }
    if args.table {
        println!();
        table(&args.contender, &runs);
    }
    Ok(())
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn table(contenders: &[Contender], runs: &[Run]) {
    let secs = |c: Contender| -> Vec<f64> {
        runs.iter()
            .filter(|r| r.contender == c)
            .map(|r| r.seconds)
            .collect()
    };
    let bare = median(&secs(Contender::Bare));
    let tmux = median(&secs(Contender::Tmux));
    let mut rows = Vec::new();
    for &c in contenders {
        let s = secs(c);
        let med = median(&s);
        let cpu: Vec<f64> = runs
            .iter()
            .filter(|r| r.contender == c)
            .filter_map(|r| r.cpu.map(|x| x.total()))
            .collect();
        let tail: Vec<f64> = runs
            .iter()
            .filter(|r| r.contender == c)
            .map(|r| r.tail * 1e3)
            .collect();
        let rss: Vec<f64> = runs
            .iter()
            .filter(|r| r.contender == c)
            .filter_map(|r| r.peak_rss.map(mb))
            .collect();
        let ratio = |base: Option<f64>| match (med, base) {
            (Some(m), Some(b)) if b > 0.0 => format!("{:.2}x", m / b),
            _ => "—".into(),
        };
        rows.push(vec![
            c.to_string(),
            fmt_opt(med, 2),
            fmt_opt(min(&s), 2),
            fmt_opt(max(&s), 2),
            ratio(bare),
            ratio(tmux),
            fmt_opt(median(&cpu), 2),
            fmt_opt(max(&rss), 1),
            fmt_opt(median(&tail), 0),
        ]);
    }
    print_table(
        &[
            "contender",
            "median s",
            "min s",
            "max s",
            "vs bare",
            "vs tmux",
            "mux CPU s (median)",
            "peak RSS MB (max)",
            "tail ms (median)",
        ],
        &rows,
    );
}

fn run_once(contender: Contender, tools: &Tools, file: &Path, timeout: Duration) -> Result<Run> {
    let dir = Workdir::new("flood")?;
    let wrapper = dir.file("flood.sh");
    let q = |name: &str| sh_quote(&contender::path_string(&dir.file(name)));
    // $PPID is the multiplexer (tilework, the tmux server) or, bare, the harness.
    let script = format!(
        "echo \"$PPID\" > {ppid}.tmp && mv {ppid}.tmp {ppid}\n\
         stty size > {size}\n\
         date +%s.%N > {start}\n\
         cat {file}\n\
         date +%s.%N > {end}.tmp && mv {end}.tmp {end}\n\
         while [ ! -e {release} ]; do sleep 0.02; done\n",
        ppid = q("ppid"),
        size = q("size"),
        start = q("start"),
        end = q("end"),
        release = q("release"),
        file = sh_quote(&contender::path_string(file)),
    );
    std::fs::write(&wrapper, script).with_context(|| format!("writing {}", wrapper.display()))?;
    let pane = format!(
        "exec /bin/sh {}",
        sh_quote(&contender::path_string(&wrapper))
    );
    let (launch, tmux) = contender::launch(contender, tools, &dir, &[pane], &[])?;

    let began = Instant::now();
    let mut outer = Outer::spawn(&launch)?;
    if !wait_for_file(&dir.file("ppid"), Duration::from_secs(20)) {
        bail!("the pane did not start within 20 s (is {contender} working?)");
    }
    let ppid: u32 = std::fs::read_to_string(dir.file("ppid"))
        .context("reading the pane's parent pid")?
        .trim()
        .parse()
        .context("parsing the pane's parent pid")?;
    let mux = (contender != Contender::Bare).then_some(ppid);
    let mux_name = mux.and_then(|pid| {
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .ok()
            .map(|s| s.trim().to_string())
    });

    // Wait for `cat` to end; the multiplexer must not go away first.
    let deadline = began + timeout;
    let end_file = dir.file("end");
    while !end_file.exists() {
        if outer.exited() {
            bail!("{contender} exited before the pane's `cat` finished");
        }
        if Instant::now() > deadline {
            bail!("no end after {} s", timeout.as_secs());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = began.elapsed().as_secs_f64();

    // Let the multiplexer finish what is queued (its CPU time stops moving,
    // the outer terminal goes quiet), then read its totals while the pane
    // still holds it open.
    let mut cpu = mux.map(procfs::cpu).transpose()?;
    let mut bytes = outer.bytes();
    let settle_end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < settle_end {
        std::thread::sleep(Duration::from_millis(200));
        let now_cpu = mux.map(procfs::cpu).transpose()?;
        let now_bytes = outer.bytes();
        if now_cpu == cpu && now_bytes == bytes {
            break;
        }
        cpu = now_cpu;
        bytes = now_bytes;
    }
    let peak_rss = mux.map(|pid| procfs::status_kb(pid, "VmHWM")).transpose()?;
    // Before the release: the pane's exit makes one more frame.
    let last_output = outer.last_output_epoch();
    std::fs::write(dir.file("release"), b"").context("releasing the pane")?;
    if !outer.wait_exit(Duration::from_secs(20)) {
        bail!("{contender} did not exit after its last pane ended");
    }
    if let Some(pid) = mux {
        // The tmux server outlives its client by a moment.
        let gone_by = Instant::now() + Duration::from_secs(10);
        while procfs::alive(pid) && Instant::now() < gone_by {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    drop(tmux);
    outer.wait_drained(Duration::from_secs(2));

    let stamp = |name: &str| -> Result<f64> {
        let path = dir.file(name);
        std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?
            .trim()
            .parse()
            .with_context(|| format!("parsing {}", path.display()))
    };
    let end = stamp("end")?;
    let seconds = end - stamp("start")?;
    let tail = (last_output - end).max(0.0);
    // `stty size` says "rows cols"; we say cols x rows like the issue.
    let size = std::fs::read_to_string(dir.file("size")).unwrap_or_default();
    let pane = match size.split_whitespace().collect::<Vec<_>>()[..] {
        [rows, cols] => format!("{cols}x{rows}"),
        _ => "?".into(),
    };
    Ok(Run {
        contender,
        seconds,
        tail,
        wall,
        cpu,
        peak_rss,
        outer_bytes: outer.bytes(),
        mux_name,
        pane,
    })
}
