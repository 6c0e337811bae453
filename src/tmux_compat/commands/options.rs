//! Options, environment, hooks, key bindings, wait-for channels, and
//! running commands (`run-shell`, `if-shell`, `source-file`). Options,
//! hooks and bindings tilework has no use for are kept and shown back.

use std::collections::BTreeMap;

use super::Ctx;
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::tmux_target::Kind;

use crate::tmux_compat::option_table::DEFAULTS;

/// Which table an option command works on: `server`, `session`,
/// `window`, `pane` (global with -g) or one session's or window's.
fn scope(ctx: &mut Ctx, p: &Parsed, window: bool) -> Result<String, String> {
    let kind = if p.has('s') {
        "server"
    } else if p.has('p') {
        "pane"
    } else if p.has('w') || window {
        "window"
    } else {
        "session"
    };
    if p.has('g') || kind == "server" {
        return Ok(kind.to_string());
    }
    let target = p.value('t');
    let at = match ctx.find(
        target,
        if kind == "session" {
            Kind::Session
        } else {
            Kind::Pane
        },
    ) {
        Ok(at) => at,
        // No server: the global table, as tmux -g would.
        Err(_) if target.is_none() => return Ok(kind.to_string()),
        Err(e) => return Err(e),
    };
    let session = ctx.session(at);
    Ok(match kind {
        "session" => format!("session:${}", session.state.number),
        "window" => format!(
            "window:{}",
            crate::tmux_compat::vars::window_id(session, session.state.tabs[at.tab].serial)
        ),
        _ => format!(
            "pane:{}",
            crate::tmux_compat::vars::pane_id(
                session,
                session.state.tabs[at.tab].panes[at.pane].id
            )
        ),
    })
}

fn kind_of(name: &str) -> Option<&'static str> {
    let base = name.split('[').next().unwrap_or(name);
    DEFAULTS
        .iter()
        .find(|d| d.1.split('[').next() == Some(base))
        .map(|d| d.0)
}

/// The option `name` names: itself, a user option (`@…`), or a unique
/// prefix of one; tmux's error otherwise.
fn option_name(name: &str) -> Result<String, String> {
    if name.starts_with('@') || kind_of(name).is_some() {
        return Ok(name.to_string());
    }
    let mut found: Vec<&str> = DEFAULTS
        .iter()
        .map(|d| d.1.split('[').next().unwrap_or(d.1))
        .filter(|n| n.starts_with(name))
        .collect();
    found.dedup();
    match found.as_slice() {
        [one] => Ok((*one).to_string()),
        [] => Err(format!("invalid option: {name}")),
        _ => Err(format!("ambiguous option: {name}")),
    }
}

fn set(ctx: &mut Ctx, p: &Parsed, window: bool, table_name: &str) -> Result<(), String> {
    let Some(name) = p.args.first() else {
        return Err("usage: set-option [-aFgopqsuUw] [-t target-pane] option [value]".into());
    };
    let name = &option_name(name)?;
    let scope = last_scope(p, window, ctx)?;
    let mut value = p.args.get(1).cloned().unwrap_or_default();
    if p.has('F') {
        let at = ctx.find(p.value('t'), Kind::Pane).ok();
        value = ctx.expand(&value, at);
    }
    let store = ctx.store()?;
    let mut table = store.table(table_name);
    let entries = table.entry(scope).or_default();
    if p.has('u') || p.has('U') {
        entries.remove(name);
    } else {
        if p.has('o') && entries.contains_key(name) {
            return if p.has('q') {
                Ok(())
            } else {
                Err(format!("already set: {name}"))
            };
        }
        if p.args.len() < 2 {
            // A flag option without a value toggles, as in tmux.
            let old = entries.get(name).cloned().or_else(|| {
                DEFAULTS
                    .iter()
                    .find(|d| d.1 == name)
                    .map(|d| d.2.to_string())
            });
            value = match old.as_deref() {
                Some("on") => "off".into(),
                Some("off") => "on".into(),
                _ => value,
            };
        }
        if p.has('a') {
            let old = entries.get(name).cloned().unwrap_or_default();
            value = format!("{old}{value}");
        }
        entries.insert(name.clone(), value);
    }
    store
        .save_table(table_name, &table)
        .map_err(|e| format!("{e:#}"))
}

fn last_scope(p: &Parsed, window: bool, ctx: &mut Ctx) -> Result<String, String> {
    let name = p.args.first().map_or("", String::as_str);
    if !p.has('s') && !p.has('w') && !p.has('p') && kind_of(name) == Some("server") {
        return Ok("server".into());
    }
    let window = window || (!p.has('s') && !p.has('p') && kind_of(name) == Some("window"));
    scope(ctx, p, window)
}

pub fn set_option(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    set(ctx, p, false, "options")
}

pub fn set_window_option(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    set(ctx, p, true, "options")
}

fn show(ctx: &mut Ctx, p: &Parsed, window: bool, table_name: &str) -> Result<(), String> {
    let store = ctx.store()?;
    let table = store.table(table_name);
    let one = p.args.first().cloned();
    let window = window || one.as_deref().and_then(kind_of) == Some("window");
    let scope_name = if one.as_deref().and_then(kind_of) == Some("server") && !p.has('w') {
        "server".to_string()
    } else {
        scope(ctx, p, window)?
    };
    let kind = scope_name
        .split(':')
        .next()
        .unwrap_or("session")
        .to_string();
    let mut shown: BTreeMap<String, String> = BTreeMap::new();
    if table_name == "options" && (p.has('g') || p.has('A') || !scope_name.contains(':')) {
        for (k, name, value) in DEFAULTS {
            if *k == kind {
                shown.insert((*name).into(), (*value).into());
            }
        }
    }
    let quoted = |m: &BTreeMap<String, String>| -> Vec<(String, String)> {
        m.iter().map(|(k, v)| (k.clone(), quote(v))).collect()
    };
    if let Some(global) = table.get(&kind) {
        shown.extend(quoted(global));
    }
    if scope_name.contains(':') {
        if !p.has('A') && table_name == "options" {
            shown.clear();
        }
        if let Some(own) = table.get(&scope_name) {
            shown.extend(quoted(own));
        }
    }
    let one = match one {
        Some(name) if table_name == "options" => Some(option_name(&name)?),
        other => other,
    };
    match one {
        Some(name) => match shown.get(&name) {
            Some(value) if p.has('v') => ctx.print(&unquote(value)),
            Some(value) => ctx.print(&format!("{name} {value}")),
            None if p.has('q') || scope_name.contains(':') || name.starts_with('@') => {}
            None => return Err(format!("invalid option: {name}")),
        },
        None => {
            for (name, value) in shown {
                if p.has('v') {
                    ctx.print(&unquote(&value));
                } else {
                    ctx.print(&format!("{name} {value}"));
                }
            }
        }
    }
    Ok(())
}

/// A value as `-v` prints it: without tmux's quotes.
fn unquote(value: &str) -> String {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .map_or_else(|| value.to_string(), |v| v.replace("\\\"", "\""))
}

fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '"', '#', ';']) {
        format!("\"{}\"", value.replace('"', "\\\""))
    } else {
        value.to_string()
    }
}

pub fn show_options(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    show(ctx, p, false, "options")
}

pub fn show_window_options(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    show(ctx, p, true, "options")
}

pub fn set_hook(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(name) = p.args.first() else {
        return Err("usage: set-hook [-agpRuw] [-t target-pane] hook [command]".into());
    };
    let scope = if p.has('g') {
        "session".to_string()
    } else {
        scope(ctx, p, p.has('w'))?
    };
    let store = ctx.store()?;
    let mut table = store.table("hooks");
    let entries = table.entry(scope).or_default();
    if p.has('u') {
        entries.retain(|k, _| k != name && !k.starts_with(&format!("{name}[")));
    } else if p.has('R') {
        return Ok(());
    } else {
        let command = p.args.get(1).cloned().unwrap_or_default();
        let key = if name.contains('[') {
            name.clone()
        } else if p.has('a') {
            let n = entries
                .keys()
                .filter(|k| k.starts_with(&format!("{name}[")))
                .count();
            format!("{name}[{n}]")
        } else {
            entries.retain(|k, _| !k.starts_with(&format!("{name}[")));
            format!("{name}[0]")
        };
        entries.insert(key, command);
    }
    store
        .save_table("hooks", &table)
        .map_err(|e| format!("{e:#}"))
}

pub fn show_hooks(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let scope = if p.has('g') {
        "session".to_string()
    } else {
        scope(ctx, p, p.has('w'))?
    };
    let table = ctx.store()?.table("hooks");
    if let Some(entries) = table.get(&scope) {
        let entries = entries.clone();
        for (name, command) in entries {
            ctx.print(&format!("{name} {command}"));
        }
    }
    Ok(())
}

/// The variables `set-environment` set (global, then the session's):
/// what new panes get.
pub fn session_env(ctx: &Ctx) -> Vec<(String, String)> {
    let Ok(store) = ctx.store() else {
        return Vec::new();
    };
    let table = store.table("environment");
    let mut env = Vec::new();
    for scope in table.values() {
        for (name, value) in scope {
            if let Some(value) = value.strip_prefix('=') {
                env.push((name.clone(), value.to_string()));
            }
        }
    }
    env
}

pub fn set_environment(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(name) = p.args.first() else {
        return Err("usage: set-environment [-Fhgru] [-t target-session] name [value]".into());
    };
    let scope = if p.has('g') {
        "global".to_string()
    } else {
        scope(ctx, p, false)?
    };
    let store = ctx.store()?;
    let mut table = store.table("environment");
    let entries = table.entry(scope).or_default();
    if p.has('u') {
        entries.remove(name);
    } else if p.has('r') {
        entries.insert(name.clone(), "-".into());
    } else {
        let Some(value) = p.args.get(1) else {
            return Err("no value specified".into());
        };
        entries.insert(name.clone(), format!("={value}"));
    }
    store
        .save_table("environment", &table)
        .map_err(|e| format!("{e:#}"))
}

pub fn show_environment(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let scope = if p.has('g') {
        "global".to_string()
    } else {
        scope(ctx, p, false)?
    };
    let table = ctx.store()?.table("environment");
    let mut shown: BTreeMap<String, String> = BTreeMap::new();
    if scope == "global" {
        for (name, value) in std::env::vars() {
            if !matches!(name.as_str(), "TMUX" | "TMUX_PANE") {
                shown.insert(name, format!("={value}"));
            }
        }
    }
    if let Some(entries) = table.get(&scope) {
        shown.extend(entries.clone());
    }
    let line = |name: &str, value: &str| match value.strip_prefix('=') {
        Some(v) => format!("{name}={v}"),
        None => format!("-{name}"),
    };
    match p.args.first() {
        Some(name) => match shown.get(name) {
            Some(value) => {
                let l = line(name, value);
                ctx.print(&l);
            }
            None => return Err(format!("unknown variable: {name}")),
        },
        None => {
            for (name, value) in &shown {
                let l = line(name, value);
                ctx.print(&l);
            }
        }
    }
    Ok(())
}

pub fn bind_key(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(key) = p.args.first() else {
        return Err(
            "usage: bind-key [-nr] [-T key-table] [-N note] key [command [arguments]]".into(),
        );
    };
    let table_name = if p.has('n') {
        "root"
    } else {
        p.value('T').unwrap_or("prefix")
    };
    let store = ctx.store()?;
    let mut table = store.table("keys");
    table
        .entry(table_name.to_string())
        .or_default()
        .insert(key.clone(), p.args[1..].join(" "));
    store
        .save_table("keys", &table)
        .map_err(|e| format!("{e:#}"))
}

pub fn unbind_key(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let table_name = if p.has('n') {
        "root"
    } else {
        p.value('T').unwrap_or("prefix")
    };
    let store = ctx.store()?;
    let mut table = store.table("keys");
    let entries = table.entry(table_name.to_string()).or_default();
    if p.has('a') {
        entries.clear();
    } else if let Some(key) = p.args.first() {
        entries.remove(key);
    }
    store
        .save_table("keys", &table)
        .map_err(|e| format!("{e:#}"))
}

pub fn list_keys(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let table = ctx.store()?.table("keys");
    for (name, keys) in table {
        if p.value('T').is_some_and(|t| t != name) {
            continue;
        }
        for (key, command) in keys {
            ctx.print(&format!("bind-key -T {name} {key} {command}"));
        }
    }
    Ok(())
}

pub fn wait_for(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(channel) = p.args.first() else {
        return Err("usage: wait-for [-L|-S|-U] channel".into());
    };
    let store = ctx.store()?;
    if p.has('S') {
        store.signal(channel);
    } else if p.has('L') {
        store.lock(channel);
    } else if p.has('U') {
        if !store.unlock(channel) {
            return Err(format!("channel {channel} not locked"));
        }
    } else {
        store.wait(channel).map_err(|e| format!("{e:#}"))?;
    }
    Ok(())
}

fn shell(ctx: &Ctx, command: &str) -> std::io::Result<std::process::Output> {
    let _ = ctx;
    std::process::Command::new("/bin/sh")
        .args(["-c", command])
        .stdin(std::process::Stdio::null())
        .output()
}

pub fn run_shell(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(command) = p.args.first() else {
        return Ok(());
    };
    if p.has('C') {
        return super::run_line(ctx, command);
    }
    let at = ctx.find(p.value('t'), Kind::Pane).ok();
    let command = ctx.expand(command, at);
    if p.has('b') {
        std::process::Command::new("/bin/sh")
            .args(["-c", &command])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("{command}: {e}"))?;
        return Ok(());
    }
    let output = shell(ctx, &command).map_err(|e| format!("{command}: {e}"))?;
    ctx.out.extend_from_slice(&output.stdout);
    match output.status.code() {
        Some(0) => Ok(()),
        Some(code) => Err(format!("'{command}' returned {code}")),
        None => Err(format!("'{command}' was killed")),
    }
}

pub fn if_shell(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let (Some(cond), Some(then)) = (p.args.first(), p.args.get(1)) else {
        return Err(
            "usage: if-shell [-bF] [-t target-pane] shell-command command [command]".into(),
        );
    };
    let at = ctx.find(p.value('t'), Kind::Pane).ok();
    let yes = if p.has('F') {
        crate::tmux_compat::format::truthy(&ctx.expand(cond, at))
    } else {
        let cond = ctx.expand(cond, at);
        shell(ctx, &cond).is_ok_and(|o| o.status.success())
    };
    match (yes, p.args.get(2)) {
        (true, _) => super::run_line(ctx, then),
        (false, Some(otherwise)) => super::run_line(ctx, otherwise),
        (false, None) => Ok(()),
    }
}

pub fn source_file(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    for path in &p.args {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(_) if p.has('q') => continue,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        let mut joined = String::new();
        for (n, line) in text.lines().enumerate() {
            if let Some(head) = line.strip_suffix('\\') {
                joined.push_str(head);
                continue;
            }
            joined.push_str(line);
            let line = std::mem::take(&mut joined);
            if p.has('n') {
                continue;
            }
            super::run_line(ctx, &line).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        }
    }
    Ok(())
}

/// Commands that ask a client for something tilework's terminals keep to
/// themselves (`refresh-client`): accepted, nothing to do.
pub fn accept(_ctx: &mut Ctx, _p: &Parsed) -> Result<(), String> {
    Ok(())
}
