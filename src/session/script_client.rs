//! The script's side of `tilework action`, `send-keys`, `run`, `capture`
//! and `list-panes`: find the workspace, make the call, print the answer.
//!
//! Which workspace: `--session NAME`, else the one this shell is a pane
//! of (`$TILEWORK` holds its pid, as `$TMUX` does for tmux), else the only
//! one running.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::attach_process::{self, Live};
use super::dir;
use super::script::{self, Call, PaneInfo, Place};
use crate::config::action::Action;
use crate::sanitize::{escape_controls, escape_json_text};

/// How long to wait for each piece of the answer: a history of many
/// megabytes is replayed before its first byte comes.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// The workspace to drive.
#[derive(Debug)]
struct Target {
    name: String,
    path: PathBuf,
}

/// `--session NAME`, else `$TILEWORK`'s workspace, else the only one.
fn target(session: Option<&str>) -> Result<Target> {
    let dir = dir::runtime_dir()?;
    if let Some(name) = session {
        dir::check_name(name)?;
        let path = dir::socket_path(&dir, name);
        if !path.exists() {
            bail!("no workspace named {name} is running (tilework ls lists them)");
        }
        return Ok(Target {
            name: name.to_string(),
            path,
        });
    }
    let live = attach_process::live_sessions(&dir)?;
    let own = std::env::var("TILEWORK")
        .ok()
        .and_then(|pid| pid.parse::<u32>().ok());
    pick(live, own)
}

/// The workspace whose pid is `own` (this shell's), else the only one.
fn pick(live: Vec<Live>, own: Option<u32>) -> Result<Target> {
    let chosen = match own.and_then(|pid| live.iter().position(|s| s.info.pid == pid)) {
        Some(i) => live.into_iter().nth(i),
        None => Some(attach_process::the_only(live, " with --session NAME")?),
    };
    let live = chosen.context("the workspace went away")?;
    Ok(Target {
        name: live.name,
        path: live.path,
    })
}

/// Makes `call` to the workspace and returns its answer's text; a refusal
/// is an error with the workspace's reason.
pub(super) fn call(session: Option<&str>, call: &Call) -> Result<Vec<u8>> {
    let mut text = Vec::new();
    call_into(session, call, &mut text)?;
    Ok(text)
}

/// Makes `call` to the workspace and copies its answer's text to `out` as
/// it arrives; a refusal is an error with the workspace's reason.
pub(super) fn call_into(session: Option<&str>, call: &Call, out: &mut dyn Write) -> Result<()> {
    let target = target(session)?;
    let name = &target.name;
    let stream = match attach_process::connect(&target.path) {
        Ok(stream) => stream,
        Err(err) if attach_process::is_stale(&err) => {
            bail!("no workspace named {name} is running (tilework ls lists them)")
        }
        Err(err) => return Err(err).with_context(|| format!("reaching workspace {name}")),
    };
    let answer = script::answer_timeout(call).max(ANSWER_TIMEOUT);
    stream.set_read_timeout(Some(answer))?;
    stream.set_write_timeout(Some(ANSWER_TIMEOUT))?;
    script::write_call(&stream, call).with_context(|| format!("calling workspace {name}"))?;
    match script::copy_answer(&stream, out) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(message)) => bail!("{message}"),
        // Not the workspace's fault: the reader of our output left.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Err(err.into()),
        // An older workspace refuses the call as a session note.
        Err(err) => Err(err).with_context(|| format!("reading workspace {name}'s answer")),
    }
}

/// The panes of the workspace listening on `path`, waiting at most
/// `timeout` for each piece of the answer (`C-b s`'s look at the other
/// workspaces, on a thread of its own).
pub fn panes_of(path: &Path, timeout: Duration) -> Result<Vec<PaneInfo>> {
    let stream = attach_process::connect(path).context("reaching the workspace")?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    script::write_call(&stream, &Call::ListPanes).context("calling the workspace")?;
    let mut text = Vec::new();
    match script::copy_answer(&stream, &mut text) {
        Ok(Ok(())) => {}
        Ok(Err(message)) => bail!("{message}"),
        Err(err) => return Err(err).context("reading the workspace's answer"),
    }
    serde_json::from_slice(&text).context("reading the workspace's list of panes")
}

/// The screen text of pane `pane` of the workspace at `path` (for `C-b
/// s`'s preview), waiting at most `timeout` for each step.
pub fn screen_of(path: &Path, pane: u32, timeout: Duration) -> Result<String> {
    let stream = attach_process::connect(path).context("reaching the workspace")?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let capture = Call::Capture {
        pane: Some(pane),
        history: false,
        ansi: false,
    };
    script::write_call(&stream, &capture).context("calling the workspace")?;
    let mut text = Vec::new();
    match script::copy_answer(&stream, &mut text) {
        Ok(Ok(())) => Ok(String::from_utf8_lossy(&text).into_owned()),
        Ok(Err(message)) => bail!("{message}"),
        Err(err) => Err(err).context("reading the workspace's answer"),
    }
}

/// Writes `bytes` to stdout; a reader that stopped (`| head`) is fine.
fn print_out(bytes: &[u8]) -> Result<i32> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(0),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(0),
        Err(err) => Err(err).context("writing to stdout"),
    }
}

/// `tilework action NAME [ARGS]`, or `--list`.
pub fn action(
    session: Option<&str>,
    list: bool,
    name: Option<&str>,
    args: &[String],
) -> Result<i32> {
    if list {
        let mut text = String::new();
        for action in Action::all() {
            text.push_str(&format!("{:<24} {}\n", action.name(), action.description()));
        }
        return print_out(text.as_bytes());
    }
    let Some(name) = name else {
        bail!("which action? `tilework action --list` shows them");
    };
    let full = action_name(name, args);
    if !args.is_empty() && TAKES_AN_ANSWER.contains(&name) {
        // The line as `C-b :` reads it, each argument one word.
        let line = std::iter::once(name.to_string())
            .chain(args.iter().map(|a| shell_quote(a)))
            .collect::<Vec<_>>()
            .join(" ");
        call(session, &Call::Action { name: line })?;
        return Ok(0);
    }
    if full.parse::<Action>().is_err() {
        // Quote what was typed; the joined name too when it differs
        // (`resize-left 5` is looked up as `resize-left-5`).
        let typed = std::iter::once(name)
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let read_as = if args.is_empty() {
            String::new()
        } else {
            format!(" (read as `{}`)", escape_controls(&full))
        };
        bail!(
            "unknown action `{}`{read_as}: `tilework action --list` shows every action",
            escape_controls(&typed)
        );
    }
    call(session, &Call::Action { name: full })?;
    Ok(0)
}

/// The actions that ask a question, given its answer after the name (as
/// `input::command_line` reads them at `C-b :`).
const TAKES_AN_ANSWER: [&str; 4] = ["rename-tab", "select-tab", "move-tab", "rename-workspace"];

/// `text` as one word of a shell-like line: in single quotes, a quote
/// inside written `'\''`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `focus left` is `focus-left`, `go-to-tab 3` is `go-to-tab-3`: the
/// keymap's names, with their argument written apart if one likes.
fn action_name(name: &str, args: &[String]) -> String {
    let mut full = name.to_string();
    for arg in args {
        full.push('-');
        full.push_str(arg);
    }
    full
}

/// `tilework send-keys [--pane N] [-l] KEYS...`.
pub fn send_keys(
    session: Option<&str>,
    pane: Option<u32>,
    literal: bool,
    keys: &[String],
) -> Result<i32> {
    let keys = script::parse_args(keys, literal);
    call(session, &Call::SendKeys { pane, keys })?;
    Ok(0)
}

/// `tilework run [--split right|down | --float | --tab] [--cwd DIR] -- CMD`.
pub fn run(
    session: Option<&str>,
    place: Place,
    cwd: Option<&Path>,
    argv: &[String],
    no_save: bool,
) -> Result<i32> {
    let here = std::env::current_dir().context("reading this shell's directory")?;
    let dir = match cwd {
        Some(dir) => here.join(dir),
        None => here,
    };
    if !dir.is_dir() {
        bail!("{} is not a directory", dir.display());
    }
    let Some(dir) = dir.to_str() else {
        bail!("{} is not valid UTF-8", dir.display());
    };
    let text = call(
        session,
        &Call::Run {
            place,
            cwd: Some(dir.to_string()),
            argv: argv.to_vec(),
            no_save,
        },
    )?;
    print_out(&text)
}

/// `tilework capture [--pane N] [--history] [--ansi]`: the text goes to
/// stdout as it arrives (a history can be hundreds of megabytes).
pub fn capture(session: Option<&str>, pane: Option<u32>, history: bool, ansi: bool) -> Result<i32> {
    let call = Call::Capture {
        pane,
        history,
        ansi,
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let done = call_into(session, &call, &mut out).and_then(|()| Ok(out.flush()?));
    match done {
        Ok(()) => Ok(0),
        // A reader that stopped (`| head`) is fine.
        Err(err)
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(0)
        }
        Err(err) => Err(err),
    }
}

/// `tilework buffers [--print N]`.
pub fn buffers(session: Option<&str>, print: Option<usize>) -> Result<i32> {
    let text = call(session, &Call::Buffers { print })?;
    print_out(&text)
}

/// `tilework pipe [--pane N] [CMD]`.
pub fn pipe(session: Option<&str>, pane: Option<u32>, command: &[String]) -> Result<i32> {
    let command = (!command.is_empty()).then(|| command.join(" "));
    let text = call(session, &Call::Pipe { pane, command })?;
    print_out(&text)
}

/// `tilework list-panes [--json]`.
pub fn list_panes(session: Option<&str>, json: bool) -> Result<i32> {
    let text = call(session, &Call::ListPanes)?;
    let panes: Vec<PaneInfo> =
        serde_json::from_slice(&text).context("reading the workspace's list of panes")?;
    let out = if json {
        let pretty = serde_json::to_string_pretty(&panes).context("writing JSON")?;
        // A directory can be named anything: it may not act on the
        // terminal of whoever reads the list, machine-readable or not.
        let mut safe = escape_json_text(&pretty).into_owned();
        safe.push('\n');
        safe
    } else {
        table(&panes)
    };
    print_out(out.as_bytes())
}

/// How wide `list-panes`' title column is, in terminal columns.
const TITLE_COLUMNS: usize = 20;

/// `text` cut to `width` terminal columns (the cut marked `…`) and padded
/// with spaces to it, wide characters counted as two.
fn column(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut out = String::new();
    let mut used = 0;
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    let room = if total > width { width - 1 } else { width };
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        out.push(c);
        used += w;
    }
    if total > width {
        out.push('…');
        used += 1;
    }
    out.push_str(&" ".repeat(width.saturating_sub(used)));
    out
}

/// The panes as a table for people (escape sequences in a title or a
/// directory's name are shown, not acted on).
pub fn table(panes: &[PaneInfo]) -> String {
    let mut out = format!(
        "{:>3} {:>3}  {:<8} {:<17} {:>7}  {:<20} {}\n",
        "ID", "TAB", "SIZE", "STATE", "PID", "TITLE", "CWD"
    );
    for p in panes {
        let mut state = Vec::new();
        if p.focused {
            state.push("focused".to_string());
        }
        if p.floating {
            state.push("floating".into());
        }
        if p.zoomed {
            state.push("zoomed".into());
        }
        if let Some(code) = p.exit_code {
            state.push(format!("exited {code}"));
        }
        out.push_str(&format!(
            "{:>3} {:>3}  {:<8} {:<17} {:>7}  {} {}\n",
            p.id,
            p.tab,
            format!("{}x{}", p.cols, p.rows),
            state.join(","),
            p.pid.map_or("-".into(), |pid| pid.to_string()),
            // A program names its title, a directory can be named anything:
            // neither may act on the terminal. A long (or wide) title is cut
            // to its column: the directory stays in its place.
            column(&escape_controls(&p.title), TITLE_COLUMNS),
            escape_controls(p.cwd.as_deref().unwrap_or("-")),
        ));
    }
    out
}

/// Makes `call` to the workspace listening on `path` and returns its
/// answer's text, waiting at most `timeout` for each piece (the `tmux`
/// front-end, which finds workspaces its own way). The error of a
/// workspace that refused is its message alone; `Ok(Err(..))` keeps it
/// apart from a socket nobody answers on.
pub fn call_at(path: &Path, call: &Call, timeout: Duration) -> Result<Result<Vec<u8>, String>> {
    let stream = attach_process::connect(path).context("reaching the workspace")?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    script::write_call(&stream, call).context("calling the workspace")?;
    let mut text = Vec::new();
    match script::copy_answer(&stream, &mut text) {
        Ok(Ok(())) => Ok(Ok(text)),
        Ok(Err(message)) => Ok(Err(message)),
        Err(err) => Err(err).context("reading the workspace's answer"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::session::proto::Info;

    fn live(name: &str, pid: u32) -> Live {
        Live {
            name: name.into(),
            path: PathBuf::from("/nowhere").join(name),
            info: Info {
                pid,
                panes: 1,
                attached: false,
                clients: 0,
                stalled: false,
                started: 0,
                version: None,
                state_format: None,
            },
        }
    }

    #[test]
    fn a_pane_drives_its_own_workspace_else_the_only_one() {
        let both = || vec![live("a", 10), live("b", 20)];
        assert_eq!(pick(both(), Some(20)).unwrap().name, "b");
        let err = pick(both(), None).unwrap_err().to_string();
        assert!(err.contains("a, b") && err.contains("--session"), "{err}");
        // A pid of no workspace here (another runtime dir): the only one.
        assert_eq!(pick(vec![live("a", 10)], Some(99)).unwrap().name, "a");
        let err = pick(Vec::new(), None).unwrap_err().to_string();
        assert!(err.contains("no workspace is running"), "{err}");
    }

    #[test]
    fn an_action_may_take_its_argument_apart() {
        assert_eq!(action_name("new-tab", &[]), "new-tab");
        assert_eq!(action_name("focus", &["left".into()]), "focus-left");
        assert_eq!(action_name("go-to-tab", &["3".into()]), "go-to-tab-3");
        assert!(
            action_name("layout", &["tiled".into()])
                .parse::<Action>()
                .is_ok()
        );
    }

    #[test]
    fn the_table_has_a_row_per_pane_with_its_state() {
        let pane = PaneInfo {
            id: 4,
            tab: 2,
            tab_name: "sh".into(),
            title: "htop".into(),
            command: vec!["htop".into()],
            cwd: Some("/srv".into()),
            rows: 20,
            cols: 60,
            focused: true,
            tab_focused: true,
            floating: true,
            zoomed: false,
            pid: Some(77),
            exit_code: None,
        };
        let text = table(&[pane]);
        let row = text.lines().nth(1).unwrap();
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            words,
            ["4", "2", "60x20", "focused,floating", "77", "htop", "/srv"]
        );
    }

    /// A long or wide title is cut to its column: the directory starts
    /// where it does for a short one.
    #[test]
    fn a_long_title_does_not_push_the_columns_out() {
        let pane = |title: &str| PaneInfo {
            id: 1,
            tab: 1,
            tab_name: "sh".into(),
            title: title.into(),
            command: vec!["sh".into()],
            cwd: Some("/srv".into()),
            rows: 20,
            cols: 60,
            focused: false,
            tab_focused: false,
            floating: false,
            zoomed: false,
            pid: Some(7),
            exit_code: None,
        };
        let text = table(&[
            pane("sh"),
            pane("a very long title that goes on and on"),
            pane("日本語のとても長いタイトルです"),
        ]);
        let starts: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|l| {
                let at = l.find("/srv").unwrap();
                unicode_width::UnicodeWidthStr::width(&l[..at])
            })
            .collect();
        assert_eq!(starts[0], starts[1], "{text}");
        assert_eq!(starts[0], starts[2], "{text}");
        assert!(text.contains("a very long title t…"), "{text}");
    }
}
