//! Sessions (workspaces): new, has, kill, list, rename, attach, detach.

use super::{Ctx, Found};
use crate::session::script::Call;
use crate::session::tmux_call::TmuxCall;
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::format::truthy;
use crate::tmux_compat::server::{Launch, clean_session_name};
use crate::tmux_compat::store::Store;
use crate::tmux_compat::tmux_target::Kind;

const LIST_SESSIONS: &str = "#{session_name}: #{session_windows} windows (created #{session_created})#{?session_attached, (attached),}";

pub fn new_session(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let sessions = ctx.sessions()?.to_vec();
    let wanted = p.value('s').map(str::to_string);
    if let Some(name) = &wanted {
        if name.contains(':') || name.contains('.') {
            return Err(format!("invalid session: {name}"));
        }
        if sessions.iter().any(|s| &s.name == name) {
            if p.has('A') {
                return attach_to(ctx, name, p.has('d'));
            }
            return Err(format!("duplicate session: {name}"));
        }
    }
    // Unnamed: numbered as tmux numbers them.
    let name = wanted.unwrap_or_else(|| {
        (0..)
            .map(|n: u32| n.to_string())
            .find(|n| !sessions.iter().any(|s| &s.name == n))
            .unwrap_or_else(|| "0".into())
    });
    let size = |flag: char, default: u16| -> Result<u16, String> {
        match p.value(flag) {
            None | Some("-") => Ok(default),
            Some(v) => v.parse::<u16>().ok().filter(|&n| n > 0).ok_or_else(|| {
                format!(
                    "invalid {} size",
                    if flag == 'x' { "width" } else { "height" }
                )
            }),
        }
    };
    let mut env = super::options::session_env(ctx);
    for pair in p.values('e') {
        if let Some((k, v)) = pair.split_once('=') {
            env.push((k.to_string(), v.to_string()));
        }
    }
    let launch = Launch {
        cols: size('x', 80)?,
        rows: size('y', 24)?,
        cwd: p.value('c').map(str::to_string),
        argv: p.args.clone(),
        env,
        window_name: p.value('n').map(str::to_string),
    };
    let session = ctx
        .server
        .start(&name, &launch)
        .map_err(|e| format!("{e:#}"))?;
    if let (Some(window), Some(tab)) = (&launch.window_name, session.state.tabs.first()) {
        ctx.server.call(
            &session,
            TmuxCall::RenameTab {
                tab: tab.serial,
                name: window.clone(),
            },
        )?;
    }
    ctx.changed();
    let found = ctx.find(Some(&format!("${}", session.state.number)), Kind::Session)?;
    if p.has('P') {
        let line = ctx.expand(p.value('F').unwrap_or("#{session_name}:"), Some(found));
        ctx.print(&line);
    }
    if !p.has('d') {
        return attach_to(ctx, &name, false);
    }
    Ok(())
}

/// Attaches this terminal (`tilework attach`); inside a pane of the same
/// server, tmux would switch the client instead, and so does this.
fn attach_to(ctx: &mut Ctx, name: &str, detach_others: bool) -> Result<(), String> {
    let workspace = ctx.server.workspace_name(name);
    if std::env::var("TMUX").is_ok_and(|v| !v.is_empty()) {
        return Err("sessions should be nested with care, unset $TMUX to force".into());
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("attach");
    if detach_others {
        cmd.arg("-d");
    }
    cmd.arg(&workspace);
    let status = cmd.status().map_err(|e| format!("attaching: {e}"))?;
    ctx.exit = Some(status.code().unwrap_or(1));
    Ok(())
}

pub fn attach(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let found = ctx.find(p.value('t'), Kind::Session)?;
    let name = ctx.session(found).name.clone();
    attach_to(ctx, &name, p.has('d'))
}

pub fn detach(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let found = ctx.find(p.value('t').or(p.value('s')), Kind::Session)?;
    let path = ctx.session(found).path.clone();
    ctx.server.call_raw(
        &path,
        &Call::Action {
            name: "detach".into(),
        },
    )?;
    Ok(())
}

pub fn has(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let target = p.value('t');
    ctx.live()?;
    ctx.find(target, Kind::Session).map(|_| ())
}

pub fn kill_server(ctx: &mut Ctx, _p: &Parsed) -> Result<(), String> {
    let sessions = ctx.live()?.to_vec();
    for session in &sessions {
        let _ = kill_one(session);
    }
    Store::remove(&ctx.server);
    ctx.changed();
    Ok(())
}

fn kill_one(session: &crate::tmux_compat::server::Session) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let status = std::process::Command::new(exe)
        .args(["kill", &session.workspace])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("killing {}: {e}", session.name))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("can't kill session: {}", session.name))
    }
}

pub fn kill_session(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let found = ctx.find(p.value('t'), Kind::Session)?;
    let sessions = ctx.live()?.to_vec();
    let victims: Vec<_> = if p.has('a') {
        sessions
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != found.session)
            .map(|(_, s)| s.clone())
            .collect()
    } else {
        vec![sessions[found.session].clone()]
    };
    for session in &victims {
        kill_one(session)?;
    }
    if ctx.sessions()?.is_empty() {
        Store::remove(&ctx.server);
    }
    ctx.changed();
    Ok(())
}

pub fn list_sessions(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let sessions = ctx.live()?.to_vec();
    let format = p.value('F').unwrap_or(LIST_SESSIONS).to_string();
    for (s, session) in sessions.iter().enumerate() {
        let found = Found {
            session: s,
            tab: session.state.active,
            pane: 0,
        };
        let found = ctx
            .find(Some(&format!("${}", session.state.number)), Kind::Session)
            .unwrap_or(found);
        if let Some(filter) = p.value('f')
            && !truthy(&ctx.expand(filter, Some(found)))
        {
            continue;
        }
        let line = ctx.expand(&format, Some(found));
        ctx.print(&line);
    }
    Ok(())
}

pub fn list_clients(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let sessions = ctx.live()?.to_vec();
    let format = p
        .value('F')
        .unwrap_or(
            "#{client_name}: #{session_name} [#{client_width}x#{client_height} #{client_termname}]",
        )
        .to_string();
    for session in sessions.iter().filter(|s| s.state.clients > 0) {
        let found = ctx.find(Some(&format!("${}", session.state.number)), Kind::Session)?;
        let line = ctx.expand(&format, Some(found));
        ctx.print(&line);
    }
    Ok(())
}

pub fn rename_session(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(new) = p.args.first() else {
        return Err("usage: rename-session [-t target-session] new-name".into());
    };
    let found = ctx.find(p.value('t'), Kind::Session)?;
    if ctx.sessions()?.iter().any(|s| &s.name == new) {
        return Err(format!("duplicate session: {new}"));
    }
    let name = ctx.server.workspace_name(&clean_session_name(new));
    ctx.call(found, TmuxCall::RenameSession { name: name.clone() })?;
    // The rename happens on the workspace's own thread: wait for its socket.
    let path = crate::session::dir::socket_path(&ctx.server.runtime, &name);
    for _ in 0..400 {
        if path.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    ctx.changed();
    Ok(())
}

pub fn start_server(_ctx: &mut Ctx, _p: &Parsed) -> Result<(), String> {
    // A server is its sessions here: it starts with the first one.
    Ok(())
}

pub fn switch_client(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let found = ctx.find(p.value('t'), Kind::Session)?;
    let pane = ctx.pane_number(found);
    ctx.call(found, TmuxCall::Focus { pane })?;
    Ok(())
}
