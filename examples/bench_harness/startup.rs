//! Start-up to a visible prompt: from starting the contender in a fresh
//! outer terminal until the pane's shell prompt is on that terminal's
//! screen, as a user opening a new workspace waits for it.
//!
//! Each contender starts from nothing (tmux: a new server on a private
//! socket; tilework: no config or state), interleaved round by round
//! (A B C A B C …) so drift on a shared machine hits all of them alike.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::contender::{self, Contender, Tools, Workdir};
use crate::outer::Outer;
use crate::summary::{fmt_opt, max, median, min, print_table};

/// The prompt the pane's shell shows: short (a needle may straddle two
/// reads by at most 7 bytes) and found nowhere else on the screen.
const PROMPT: &str = "tw-up> ";

#[derive(Debug, clap::Args)]
pub struct StartupArgs {
    /// Contenders, interleaved.
    #[arg(long, value_delimiter = ',', default_value = "bare,tilework,tmux")]
    pub contender: Vec<Contender>,
    /// Start-ups measured per contender.
    #[arg(long, default_value_t = 7)]
    pub rounds: usize,
    /// Print a Markdown summary table after the JSON lines.
    #[arg(long)]
    pub table: bool,
    #[command(flatten)]
    pub tools: Tools,
}

pub fn run(args: &StartupArgs) -> Result<()> {
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    for &c in &args.contender {
        contender::check(c, &args.tools)?;
    }
    // One untimed start each first: the binaries and the shell in the page cache.
    for &c in &args.contender {
        start_once(c, &args.tools).with_context(|| format!("{c}, warm-up"))?;
    }
    let mut times: Vec<(Contender, Vec<f64>)> =
        args.contender.iter().map(|&c| (c, Vec::new())).collect();
    for round in 0..args.rounds {
        for (c, samples) in &mut times {
            let ms =
                start_once(*c, &args.tools).with_context(|| format!("{c}, round {}", round + 1))?;
            println!("{{\"bench\":\"startup\",\"contender\":\"{c}\",\"ms\":{ms:.2}}}");
            samples.push(ms);
        }
    }
    if args.table {
        println!();
        let tmux = times
            .iter()
            .find(|(c, _)| *c == Contender::Tmux)
            .and_then(|(_, s)| median(s));
        let rows: Vec<Vec<String>> = times
            .iter()
            .map(|(c, s)| {
                let ratio = match (median(s), tmux) {
                    (Some(ours), Some(theirs)) if theirs > 0.0 => format!("{:.2}x", ours / theirs),
                    _ => "-".into(),
                };
                vec![
                    c.to_string(),
                    s.len().to_string(),
                    fmt_opt(median(s), 1),
                    fmt_opt(min(s), 1),
                    fmt_opt(max(s), 1),
                    ratio,
                ]
            })
            .collect();
        print_table(
            &[
                "contender",
                "runs",
                "median ms",
                "min ms",
                "max ms",
                "median / tmux",
            ],
            &rows,
        );
    }
    Ok(())
}

/// Starts `contender` in a fresh outer terminal; milliseconds until the
/// prompt arrives on it.
fn start_once(contender: Contender, tools: &Tools) -> Result<f64> {
    let dir = Workdir::new("startup")?;
    let shell = format!("PS1='{PROMPT}' exec /bin/sh -i");
    let (launch, tmux) = contender::launch(contender, tools, &dir, &[shell], &[])?;
    let began = Instant::now();
    let mut outer = Outer::spawn_watching(&launch, PROMPT.as_bytes())?;
    let seen = outer.wait_hit(Duration::from_secs(20));
    let shown = seen.map(|at| at.saturating_duration_since(began).as_secs_f64() * 1e3);
    outer.shut_down(contender, tmux);
    shown.with_context(|| format!("no prompt within 20 s from {contender}"))
}
