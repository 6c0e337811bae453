//! Text in and out of panes: send-keys, capture-pane, display-message.

use super::Ctx;
use crate::session::script::{self, Call};
use crate::session::tmux_call::TmuxCall;
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::tmux_target::Kind;

pub fn send_keys(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    if p.has('X') {
        let Some((command, args)) = p.args.split_first() else {
            return Err("send-keys -X: no command".into());
        };
        let repeat: usize = p.value('N').and_then(|n| n.parse().ok()).unwrap_or(1);
        let call = TmuxCall::CopyMode {
            pane,
            command: Some(command.clone()),
            args: args.to_vec(),
        };
        for _ in 0..repeat.clamp(1, 1000) {
            let copied = copy_call(ctx, at, &call)?;
            // As tmux's copy commands: the copy is a new paste buffer.
            if !copied.is_empty() {
                let store = ctx.store()?;
                store
                    .set_buffer(None, copied.as_bytes())
                    .map_err(|e| format!("{e:#}"))?;
            }
        }
        return Ok(());
    }
    if p.has('R') || p.args.is_empty() {
        return Ok(());
    }
    let args: Vec<String> = if p.has('H') {
        let bytes: Vec<u8> = p
            .args
            .iter()
            .filter_map(|h| u8::from_str_radix(h, 16).ok())
            .collect();
        vec![String::from_utf8_lossy(&bytes).into_owned()]
    } else {
        p.args.clone()
    };
    let keys = script::parse_args(&args, p.has('l') || p.has('H'));
    let repeat: usize = p.value('N').and_then(|n| n.parse().ok()).unwrap_or(1);
    let path = ctx.session(at).path.clone();
    for _ in 0..repeat.clamp(1, 1000) {
        ctx.server.call_raw(
            &path,
            &Call::SendKeys {
                pane: Some(pane),
                keys: keys.clone(),
            },
        )?;
    }
    Ok(())
}

/// A line number of `-S`/`-E`: `-` is the start (or end); negative
/// numbers are history.
fn line_arg(v: Option<&str>) -> Option<i64> {
    match v {
        None => None,
        Some("-") => Some(i64::MIN),
        Some(n) => n.parse().ok(),
    }
}

pub fn capture_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    let rows = i64::from(ctx.session(at).state.tabs[at.tab].panes[at.pane].rows);
    let start = line_arg(p.value('S'));
    let end = line_arg(p.value('E'));
    let history = start.is_some_and(|s| s < 0);
    let path = ctx.session(at).path.clone();
    let text = ctx.server.call_raw(
        &path,
        &Call::Capture {
            pane: Some(pane),
            history,
            ansi: p.has('e'),
        },
    )?;
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    // Line 0 is the screen's first row; the history is above it.
    let screen_top = lines.len() as i64 - rows.min(lines.len() as i64);
    let first = match start {
        Some(i64::MIN) => 0,
        Some(s) => (screen_top + s).clamp(0, lines.len() as i64),
        None => screen_top.max(0),
    } as usize;
    let last = match end {
        Some(i64::MIN) | None => lines.len() as i64,
        Some(e) => (screen_top + e + 1).clamp(0, lines.len() as i64),
    } as usize;
    let mut out = String::new();
    for line in lines.get(first..last.max(first)).unwrap_or_default() {
        out.push_str(if p.has('N') { line } else { line.trim_end() });
        out.push('\n');
    }
    if p.has('p') {
        ctx.out.extend_from_slice(out.as_bytes());
    } else {
        let store = ctx.store()?;
        store
            .set_buffer(p.value('b'), out.as_bytes())
            .map_err(|e| format!("{e:#}"))?;
    }
    Ok(())
}

pub fn display_message(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t').or(p.value('c')), Kind::Pane)?;
    let format = p
        .value('F')
        .map(str::to_string)
        .or_else(|| p.args.first().cloned())
        .unwrap_or_else(|| {
            "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index}".into()
        });
    if p.has('a') {
        // Every variable, as `name=value`.
        for name in crate::tmux_compat::vars::NAMES {
            let line = format!("{name}={}", ctx.expand(&format!("#{{{name}}}"), Some(at)));
            ctx.print(&line);
        }
        return Ok(());
    }
    let line = ctx.expand(&format, Some(at));
    // Without -p tmux shows it on the client's status line; with no
    // client to show it (a script), it is printed, as tmux does then.
    if !p.has('p') && ctx.session(at).state.clients > 0 {
        return ctx.call(at, TmuxCall::Notify { text: line }).map(|_| ());
    }
    ctx.print(&line);
    Ok(())
}

pub fn display_popup(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t').or(p.value('c')), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    // A floating pane over the tab: tilework's popup.
    let argv = if p.args.is_empty() {
        vec![]
    } else {
        p.args.clone()
    };
    let mut argv = argv;
    if argv.is_empty() {
        argv.push(std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into()));
    }
    let path = ctx.session(at).path.clone();
    let _ = pane;
    ctx.server.call_raw(
        &path,
        &Call::Run {
            place: script::Place::Float,
            cwd: p.value('d').map(str::to_string),
            argv: if argv.len() == 1 {
                vec!["/bin/sh".into(), "-c".into(), argv[0].clone()]
            } else {
                argv
            },
            no_save: false,
        },
    )?;
    Ok(())
}

/// `pipe-pane [-o] [-t pane] [command]`: the pane's output from now on to
/// the command (tilework's `pipe`); without one, the pipe stops.
pub fn pipe_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    let path = ctx.session(at).path.clone();
    let command = p.args.first().filter(|c| !c.is_empty()).cloned();
    ctx.server
        .call_raw(
            &path,
            &Call::Pipe {
                pane: Some(pane),
                command,
            },
        )
        .map(|_| ())
}

/// Sends a copy-mode `call`, asking again while the pane's history is
/// still being read (a moment after `copy-mode`), for at most 5 seconds.
fn copy_call(ctx: &mut Ctx, at: super::Found, call: &TmuxCall) -> Result<String, String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match ctx.call(at, call.clone()) {
            Err(err)
                if err == crate::session::tmux_call::COPY_LOADING
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            answer => return answer,
        }
    }
}
