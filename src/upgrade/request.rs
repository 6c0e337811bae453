//! `tilework upgrade [NAME|--all]`: for each workspace, checks that this
//! binary reads its state format (else says so and changes nothing), then
//! starts this binary's workspace process with `--take-over`, which asks
//! the old process for the workspace, and reports what it says.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::release;
use crate::sanitize::escape_controls;
use crate::session::attach_process::{Live, live_sessions, the_only};
use crate::session::dir;

/// Tells the workspace process to take a running workspace over.
pub const TAKE_OVER_FLAG: &str = "--take-over";

/// How long a takeover may take, all told (the old process gives up on the
/// new one sooner, see `wire`).
const TAKE_OVER_DEADLINE: Duration = Duration::from_secs(20);
/// How long the new process may take to answer once it is up.
const ANSWER_DEADLINE: Duration = Duration::from_secs(5);

/// Test switch (debug builds only): the new process writes this file once
/// it has the state, then waits for good, so a test can kill it half-way.
pub const TEST_STALL_VAR: &str = "TILEWORK_TEST_HANDOFF_STALL";

/// Moves workspace `name` (the only one running when `None`), or every
/// one with `all`, to this binary (`force`: even one that runs this
/// version). Exit status 1 when any was not moved.
pub fn upgrade(name: Option<&str>, all: bool, force: bool) -> Result<i32> {
    let live = live_sessions(&dir::runtime_dir()?)?;
    let targets = match name {
        _ if all => live,
        Some(name) => {
            dir::check_name(name)?;
            let Some(one) = live.into_iter().find(|l| l.name == name) else {
                bail!("no workspace named {name} is running (tilework ls lists them)");
            };
            vec![one]
        }
        None => vec![the_only(live, ": `tilework upgrade NAME`, or --all")?],
    };
    let mut failed = false;
    for target in &targets {
        match upgrade_one(target, force) {
            Ok(said) => println!("{}", escape_controls(&said)),
            Err(err) => {
                failed = true;
                let said = format!("tilework: workspace {}: {err:#}", target.name);
                let _ = writeln!(std::io::stderr(), "{}", escape_controls(&said));
            }
        }
    }
    Ok(i32::from(failed))
}

fn upgrade_one(target: &Live, force: bool) -> Result<String> {
    let name = &target.name;
    let theirs = target
        .info
        .version
        .as_deref()
        .unwrap_or("an unknown version");
    let ours = release::version();
    let Some(format) = target.info.state_format else {
        bail!(
            "it runs a tilework ({theirs}) that cannot hand itself over; nothing was \
             changed, it keeps running as it is"
        );
    };
    if !release::reads(format) {
        let (oldest, newest) = release::formats_read();
        bail!(
            "it keeps its state in format {format}, and this tilework ({ours}) reads formats \
             {oldest} to {newest}: nothing was changed, it keeps running on tilework {theirs}"
        );
    }
    if theirs == ours && format == release::state_format() && !force {
        return Ok(format!("workspace {name} runs tilework {ours} already"));
    }
    let said = take_over(name);
    if let Ok(said) = &said
        && said.starts_with("up ")
    {
        // The old process stopped accepting before it handed the socket
        // over, and the new one accepts once it has it (a client waits in
        // the backlog meanwhile); until its loop runs, a client's request
        // waits for it. Returning once it answers, `tilework upgrade;
        // tilework attach` finds it serving.
        if !wait_answering(&target.path, ANSWER_DEADLINE) {
            tracing::warn!("the new workspace process does not answer yet");
        }
        return Ok(format!(
            "workspace {name} moved from tilework {theirs} to {ours}; its programs kept running"
        ));
    }
    let why = match &said {
        Ok(said) => said.strip_prefix("error ").unwrap_or(said).to_string(),
        Err(err) => format!("{err:#}"),
    };
    // Said as it is, not as it should be.
    let now = live_sessions(&dir::runtime_dir()?)?
        .into_iter()
        .find(|l| l.name == *name);
    match now {
        Some(now) if now.info.pid == target.info.pid => {
            bail!("{why}; it keeps running on tilework {theirs}")
        }
        _ => bail!("{why}; `tilework ls` shows where it runs now"),
    }
}

/// Waits until the workspace at `path` answers who it is, at most `within`.
fn wait_answering(path: &std::path::Path, within: Duration) -> bool {
    let deadline = std::time::Instant::now() + within;
    while crate::session::attach_process::query(path).is_err() {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    true
}

/// Starts this binary's workspace process to take workspace `name` over,
/// and returns what it says (`up PID` or `error WHY`).
fn take_over(name: &str) -> Result<String> {
    let exe = std::env::current_exe().context("finding tilework's own binary")?;
    let (mut said, report) = std::io::pipe().context("making the report pipe")?;
    let child = Command::new(exe)
        .args(["--serve-session", TAKE_OVER_FLAG, "--session", name])
        .stdin(Stdio::null())
        .stdout(report)
        .stderr(Stdio::null())
        .spawn()
        .context("starting the new workspace process")?;
    // The new process is the workspace from now on: never waited for here.
    drop(child);
    let (tx, rx) = crossbeam_channel::bounded(1);
    crate::jobs::named("upgrade-answer", move || {
        let mut text = String::new();
        let _ = said.read_to_string(&mut text);
        let _ = tx.send(text);
    })
    .context("starting the new process's reader")?;
    let text = rx
        .recv_timeout(TAKE_OVER_DEADLINE)
        .map_err(|_| anyhow::anyhow!("the new workspace process did not answer in time"))?;
    let line = text.lines().next().unwrap_or_default().trim().to_string();
    if line.is_empty() {
        bail!("the new workspace process ended without a word (its log may say why)");
    }
    Ok(line)
}

/// `tilework attach NAME` of a workspace running an older tilework whose
/// state this one reads: asks on the terminal whether to upgrade it first,
/// and does when told `y`. Nothing is asked when stdin is not a terminal.
pub fn offer_on_attach(name: &str) {
    use std::io::IsTerminal as _;
    if !std::io::stdin().is_terminal() {
        return;
    }
    let Ok(live) = dir::runtime_dir().and_then(|d| live_sessions(&d)) else {
        return;
    };
    let Some(target) = live.into_iter().find(|l| l.name == name) else {
        return;
    };
    let (Some(theirs), Some(format)) = (&target.info.version, target.info.state_format) else {
        return;
    };
    if !release::is_older(theirs) || !release::reads(format) {
        return;
    }
    let question = format!(
        "workspace {name} runs tilework {theirs}, older than this one ({}); upgrade it first \
         (its programs keep running)? [y/N] ",
        release::version()
    );
    let _ = write!(std::io::stderr(), "{}", escape_controls(&question));
    let mut answer = String::new();
    if std::io::stdin().read_line(&mut answer).is_err() || !answer.trim().eq_ignore_ascii_case("y")
    {
        return;
    }
    match upgrade_one(&target, false) {
        Ok(said) => println!("{}", escape_controls(&said)),
        Err(err) => {
            let said = format!("tilework: workspace {name}: {err:#}");
            let _ = writeln!(std::io::stderr(), "{}", escape_controls(&said));
        }
    }
}

/// The test switch [`TEST_STALL_VAR`]: in debug builds, with it set, the
/// new process stops here for good, the state in hand.
pub fn test_stall() {
    if !cfg!(debug_assertions) {
        return;
    }
    let Some(flag) = std::env::var_os(TEST_STALL_VAR) else {
        return;
    };
    let _ = std::fs::write(flag, std::process::id().to_string());
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}
