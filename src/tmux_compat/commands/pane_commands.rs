//! Windows (tabs) and panes.

use super::{Ctx, Found};
use crate::session::tmux_call::{Command, Split, TmuxCall};
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::format::truthy;
use crate::tmux_compat::tmux_target::Kind;

const LIST_PANES: &str = "#{pane_index}: [#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";
const LIST_WINDOWS: &str = "#{window_index}: #{window_name}#{window_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] [layout #{window_layout}] #{window_id}#{?window_active, (active),}";
const NEW_PANE: &str = "#{session_name}:#{window_index}.#{pane_index}";

/// What a new pane runs: `-c`, `-e`, the arguments, and the environment
/// `set-environment` keeps.
fn command_of(ctx: &Ctx, p: &Parsed) -> Command {
    let mut env = super::options::session_env(ctx);
    for pair in p.values('e') {
        if let Some((k, v)) = pair.split_once('=') {
            env.push((k.to_string(), v.to_string()));
        }
    }
    Command {
        argv: p.args.clone(),
        cwd: p.value('c').map(str::to_string),
        env,
    }
}

/// Finds the new pane (`TAB PANE` as the workspace answered) after a
/// change, and prints it with `-P`.
fn report_new(ctx: &mut Ctx, at: Found, answer: &str, p: &Parsed) -> Result<(), String> {
    let pane: u32 = answer
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("create pane failed: {answer}"))?;
    if p.has('P') {
        let number = ctx.session(at).state.number;
        let id = crate::workspace::tmux_env::tmux_id(number, u64::from(pane));
        ctx.changed();
        let found = ctx.find(Some(&format!("%{id}")), Kind::Pane)?;
        let line = ctx.expand(p.value('F').unwrap_or(NEW_PANE), Some(found));
        ctx.print(&line);
    }
    Ok(())
}

pub fn split_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let (cells, percent) = match p.value('l') {
        Some(l) if l.ends_with('%') => (None, l.trim_end_matches('%').parse().ok()),
        Some(l) => (
            Some(l.parse::<u16>().map_err(|_| format!("invalid size: {l}"))?),
            None,
        ),
        None => (None, p.value('p').and_then(|v| v.parse().ok())),
    };
    let call = TmuxCall::Open {
        split: Some(Split {
            beside: p.has('h'),
            before: p.has('b'),
            cells,
            percent,
        }),
        pane: Some(ctx.pane_number(at)),
        keep_focus: p.has('d'),
        command: command_of(ctx, p),
        name: None,
    };
    let answer = ctx.call(at, call)?;
    report_new(ctx, at, &answer, p)
}

pub fn new_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(
        p.value('t')
            .map(|t| t.split(':').next().unwrap_or(t))
            .map(|s| if s.is_empty() { "" } else { s }),
        Kind::Session,
    );
    let at = match at {
        Ok(at) => at,
        Err(_) => ctx.find(None, Kind::Session)?,
    };
    let call = TmuxCall::Open {
        split: None,
        pane: Some(ctx.pane_number(at)),
        keep_focus: p.has('d'),
        command: command_of(ctx, p),
        name: p.value('n').map(str::to_string),
    };
    let answer = ctx.call(at, call)?;
    report_new(ctx, at, &answer, p)
}

fn list(ctx: &mut Ctx, p: &Parsed, panes: bool) -> Result<(), String> {
    let all = p.has('a');
    let format = p
        .value('F')
        .unwrap_or(if panes { LIST_PANES } else { LIST_WINDOWS })
        .to_string();
    let scope = if all {
        ctx.live()?;
        None
    } else {
        Some(ctx.find(
            p.value('t'),
            if panes { Kind::Window } else { Kind::Session },
        )?)
    };
    let mut seen_tabs = Vec::new();
    for found in ctx.all_found() {
        if let Some(scope) = scope {
            if found.session != scope.session {
                continue;
            }
            // list-panes: the target window's; -s: all of the session's.
            if panes && !p.has('s') && found.tab != scope.tab {
                continue;
            }
        }
        let found = if panes {
            found
        } else {
            if seen_tabs.contains(&(found.session, found.tab)) {
                continue;
            }
            seen_tabs.push((found.session, found.tab));
            let tab = &ctx.session(found).state.tabs[found.tab];
            let active = tab
                .panes
                .iter()
                .position(|x| x.id == tab.focus)
                .unwrap_or(0);
            Found {
                pane: active,
                ..found
            }
        };
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

pub fn list_panes(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    list(ctx, p, true)
}

pub fn list_windows(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    list(ctx, p, false)
}

pub fn kill_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let keep = ctx.pane_number(at);
    let victims: Vec<u32> = if p.has('a') {
        ctx.session(at).state.tabs[at.tab]
            .panes
            .iter()
            .map(|x| x.id)
            .filter(|&id| id != keep)
            .collect()
    } else {
        vec![keep]
    };
    for pane in victims {
        ctx.call(at, TmuxCall::KillPane { pane })?;
    }
    Ok(())
}

pub fn kill_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    let keep = ctx.tab_serial(at);
    let victims: Vec<u64> = if p.has('a') {
        ctx.session(at)
            .state
            .tabs
            .iter()
            .map(|t| t.serial)
            .filter(|&s| s != keep)
            .collect()
    } else {
        vec![keep]
    };
    for tab in victims {
        ctx.call(at, TmuxCall::KillTab { tab })?;
    }
    Ok(())
}

/// Does keymap action `action` on the pane `found` names.
fn act(ctx: &mut Ctx, at: Found, action: &str, keep_focus: bool) -> Result<(), String> {
    let pane = ctx.pane_number(at);
    ctx.call(
        at,
        TmuxCall::Act {
            pane,
            action: action.into(),
            keep_focus,
        },
    )
    .map(|_| ())
}

pub fn select_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    if let Some(title) = p.value('T') {
        ctx.call(
            at,
            TmuxCall::SetTitle {
                pane,
                title: title.to_string(),
            },
        )?;
        return Ok(());
    }
    if p.has('m') || p.has('M') {
        return super::moves::mark(ctx, p);
    }
    for (flag, dir) in [('L', "left"), ('R', "right"), ('U', "up"), ('D', "down")] {
        if p.has(flag) {
            ctx.call(at, TmuxCall::Focus { pane })?;
            ctx.changed();
            let at = ctx.find(
                Some(&format!(
                    "%{}",
                    crate::workspace::tmux_env::tmux_id(
                        ctx.session(at).state.number,
                        u64::from(pane)
                    )
                )),
                Kind::Pane,
            )?;
            return act(ctx, at, &format!("focus-{dir}"), false);
        }
    }
    if p.has('l') {
        return act(ctx, at, "last-pane", false);
    }
    // -d/-e (input off/on), -g, -P: accepted; nothing to show here.
    ctx.call(at, TmuxCall::Focus { pane }).map(|_| ())
}

pub fn select_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    let action = if p.has('l') {
        Some("last-tab")
    } else if p.has('n') {
        Some("next-tab")
    } else if p.has('p') {
        Some("prev-tab")
    } else {
        None
    };
    match action {
        Some(action) => act(ctx, at, action, false),
        None => {
            let tab = ctx.tab_serial(at);
            ctx.call(at, TmuxCall::SelectTab { tab }).map(|_| ())
        }
    }
}

pub fn last_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Session)?;
    if ctx.session(at).state.last_tab.is_none() {
        return Err("no last window".into());
    }
    act(ctx, at, "last-tab", false)
}

pub fn next_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Session)?;
    act(ctx, at, "next-tab", false)
}

pub fn previous_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Session)?;
    act(ctx, at, "prev-tab", false)
}

pub fn last_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    if ctx.session(at).state.tabs[at.tab].last_focus.is_none() {
        return Err("no last pane".into());
    }
    act(ctx, at, "last-pane", false)
}

pub fn rename_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(name) = p.args.first() else {
        return Err("usage: rename-window [-t target-window] new-name".into());
    };
    let at = ctx.find(p.value('t'), Kind::Window)?;
    let tab = ctx.tab_serial(at);
    ctx.call(
        at,
        TmuxCall::RenameTab {
            tab,
            name: name.clone(),
        },
    )
    .map(|_| ())
}

pub fn resize_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    if p.has('Z') {
        return act(ctx, at, "toggle-zoom", true);
    }
    let pane = ctx.pane_number(at);
    let size = |flag: char| -> Result<Option<u16>, String> {
        p.value(flag)
            .map(|v| {
                let (rows, cols) = {
                    let x = &ctx.session(at).state.tabs[at.tab].panes[at.pane];
                    (x.rows, x.cols)
                };
                let whole = if flag == 'x' { cols } else { rows };
                if let Some(pc) = v.strip_suffix('%') {
                    let pc: u32 = pc.parse().map_err(|_| format!("invalid size: {v}"))?;
                    let state = &ctx.session(at).state;
                    let total = if flag == 'x' { state.cols } else { state.rows };
                    let _ = whole;
                    return Ok((u32::from(total) * pc / 100) as u16);
                }
                v.parse::<u16>().map_err(|_| format!("invalid size: {v}"))
            })
            .transpose()
    };
    let (cols, rows) = (size('x')?, size('y')?);
    if cols.is_some() || rows.is_some() {
        ctx.call(at, TmuxCall::Resize { pane, cols, rows })?;
    }
    let steps: usize = p.args.first().and_then(|n| n.parse().ok()).unwrap_or(1);
    for (flag, dir) in [('L', "left"), ('R', "right"), ('U', "up"), ('D', "down")] {
        if p.has(flag) {
            for _ in 0..steps.min(500) {
                act(ctx, at, &format!("resize-{dir}"), true)?;
            }
        }
    }
    Ok(())
}

pub fn respawn_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let x = &ctx.session(at).state.tabs[at.tab].panes[at.pane];
    if x.exit_code.is_none() && !p.has('k') {
        let id = super::super::vars::pane_id(ctx.session(at), x.id);
        return Err(format!("respawn pane failed: pane {id} still active"));
    }
    let pane = x.id;
    let mut command = command_of(ctx, p);
    if command.argv.is_empty() {
        command.argv = x.command.clone();
    }
    ctx.call(at, TmuxCall::Respawn { pane, command })
        .map(|_| ())
}

pub fn rotate_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    act(ctx, at, "rotate-panes", true)
}

pub fn select_layout(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    let action = match p.args.first().map(String::as_str) {
        Some("even-horizontal") => "layout-even-horizontal",
        Some("even-vertical") => "layout-even-vertical",
        Some("main-vertical" | "main-horizontal") => "layout-main-vertical",
        Some("tiled") => "layout-tiled",
        None if p.has('n') || p.has('o') => "next-layout",
        None if p.has('E') => "layout-tiled",
        // A layout string (select-layout 'csum,80x24,...'): the panes keep
        // their places; tilework's tree is its own.
        Some(_) | None => return Ok(()),
    };
    act(ctx, at, action, true)
}

/// Moves a window to index `-t`'s (tilework's tabs have no gaps: an index
/// past the end is the end); `-r` (renumber) has nothing to do.
pub fn move_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    if p.has('r') {
        return Ok(());
    }
    let src = ctx.find(p.value('s'), Kind::Window)?;
    let target = p.value('t').unwrap_or("");
    let index = target
        .rsplit(':')
        .next()
        .and_then(|i| i.parse::<usize>().ok());
    let n = ctx.session(src).state.tabs.len();
    let to = index.map_or(n - 1, |i| i.min(n - 1));
    let (action, steps) = if to > src.tab {
        ("move-tab-right", to - src.tab)
    } else {
        ("move-tab-left", src.tab - to)
    };
    for _ in 0..steps {
        let at = ctx.find(Some(&window_target(ctx, src)), Kind::Window)?;
        act(ctx, at, action, true)?;
    }
    Ok(())
}

/// `@N` of the window `found` names, stable across moves.
fn window_target(ctx: &Ctx, found: Found) -> String {
    let session = ctx.session(found);
    crate::tmux_compat::vars::window_id(session, session.state.tabs[found.tab].serial)
}

/// Commands that are a tilework action on the target pane.
fn action_on(ctx: &mut Ctx, p: &Parsed, action: &str) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    act(ctx, at, action, false)
}

/// `copy-mode` (`-u`: a page up at once; `-q`: leaves it) on tilework's
/// copy mode, which `send-keys -X` then drives.
pub fn copy_mode(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    let in_mode = ctx.session(at).state.tabs[at.tab].panes[at.pane].in_mode;
    let call = |command: Option<&str>| TmuxCall::CopyMode {
        pane,
        command: command.map(str::to_string),
        args: Vec::new(),
    };
    if p.has('q') {
        // Leaving: only an open copy mode has anything to leave.
        if in_mode {
            ctx.call(at, call(Some("cancel")))?;
        }
        return Ok(());
    }
    ctx.call(at, call(None))?;
    if p.has('u') {
        ctx.call(at, call(Some("page-up")))?;
    }
    Ok(())
}

pub fn send_prefix(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    action_on(ctx, p, "send-prefix")
}

pub fn display_panes(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    action_on(ctx, p, "display-panes")
}

pub fn choose_tree(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    action_on(ctx, p, "choose-workspace")
}

pub fn choose_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    action_on(ctx, p, "choose-buffer")
}

/// `resize-window -x W -y H`: the tabs laid out at that size while no
/// terminal is attached (one attached sizes them itself).
pub fn resize_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    let number = |flag: char| -> Result<Option<u16>, String> {
        p.value(flag)
            .map(|v| v.parse::<u16>().map_err(|_| format!("invalid size: {v}")))
            .transpose()
    };
    let (cols, rows) = (number('x')?, number('y')?);
    if cols.is_none() && rows.is_none() {
        // -A, -a, -L…: sizes the attached terminals decide here.
        return Ok(());
    }
    ctx.call(at, TmuxCall::ResizeWindow { cols, rows })
        .map(|_| ())
}

/// `next-layout`: tilework's presets in turn (`previous-layout` too: the
/// cycle has no way back).
pub fn next_layout(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Window)?;
    act(ctx, at, "next-layout", true)
}

/// `respawn-window`: the window's active pane respawned (tilework's
/// window of one pane is its tab's; with more, the active one).
pub fn respawn_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    respawn_pane(ctx, p)
}
