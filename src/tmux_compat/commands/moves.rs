//! tmux's pane and window moves (`join-pane`/`move-pane`, `break-pane`,
//! `swap-pane`, `swap-window`) and its marked pane (`select-pane -m/-M`,
//! the mark `C-b m` sets: one mark, kept by the workspace).

use super::{Ctx, Found};
use crate::session::tmux_call::{Split, TmuxCall};
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::tmux_target::Kind;
use crate::workspace::tmux_env::tmux_id;

const NEW_PANE: &str = "#{session_name}:#{window_index}.#{pane_index}";

/// The pane `-s` names, or the marked one (tmux's default for `-s`), or
/// with `or_current` the current pane when none is marked.
fn source(ctx: &mut Ctx, p: &Parsed, or_current: bool) -> Result<Found, String> {
    match p.value('s') {
        Some(s) => ctx.find(Some(s), Kind::Pane),
        None => match ctx.find(Some("{marked}"), Kind::Pane) {
            Ok(found) => Ok(found),
            Err(_) if or_current => ctx.find(None, Kind::Pane),
            Err(err) => Err(err),
        },
    }
}

/// `%N` of the pane `found` names: it stays that pane's after a move.
fn pane_target(ctx: &Ctx, found: Found) -> String {
    let session = ctx.session(found);
    format!(
        "%{}",
        tmux_id(session.state.number, u64::from(ctx.pane_number(found)))
    )
}

/// Both in one workspace, which is where panes can move.
fn same_session(a: Found, b: Found, what: &str) -> Result<(), String> {
    if a.session == b.session {
        return Ok(());
    }
    Err(format!(
        "{what}: panes of different sessions (workspaces) cannot move between them"
    ))
}

/// `join-pane` / `move-pane`: `-s` (default the marked pane) splits `-t`
/// (default the current one), `-h` side by side, `-b` before it, `-l`
/// cells or `N%`, `-d` the focus stays.
pub fn join_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let src = source(ctx, p, false)?;
    let dst = ctx.find(p.value('t'), Kind::Pane)?;
    same_session(src, dst, "join-pane")?;
    let (cells, percent) = match p.value('l') {
        Some(l) if l.ends_with('%') => (None, l.trim_end_matches('%').parse().ok()),
        Some(l) => (
            Some(l.parse::<u16>().map_err(|_| format!("invalid size: {l}"))?),
            None,
        ),
        None => (None, p.value('p').and_then(|v| v.parse().ok())),
    };
    let call = TmuxCall::Join {
        src: ctx.pane_number(src),
        dst: ctx.pane_number(dst),
        split: Split {
            beside: p.has('h'),
            before: p.has('b'),
            cells,
            percent,
        },
        keep_focus: p.has('d'),
    };
    ctx.call(dst, call).map(|_| ())
}

/// `break-pane`: `-s` (default the current pane) gets a window of its
/// own, `-n` its name, `-d` the focus stays; `-P` prints it (`-F`).
pub fn break_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('s'), Kind::Pane)?;
    let target = pane_target(ctx, at);
    let call = TmuxCall::Break {
        pane: ctx.pane_number(at),
        name: p.value('n').map(str::to_string),
        keep_focus: p.has('d'),
    };
    ctx.call(at, call)?;
    if p.has('P') {
        let now = ctx.find(Some(&target), Kind::Pane)?;
        let line = ctx.expand(p.value('F').unwrap_or(NEW_PANE), Some(now));
        ctx.print(&line);
    }
    Ok(())
}

/// `swap-pane`: `-s` (default the marked pane, else the current one) and
/// `-t` (default the current one) change places; `-U`/`-D` swap the
/// target with the pane before / after it; `-d` the focus stays.
pub fn swap_pane(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let dst = ctx.find(p.value('t'), Kind::Pane)?;
    if p.has('U') || p.has('D') {
        let pane = ctx.pane_number(dst);
        let action = if p.has('U') { "swap-prev" } else { "swap-next" };
        let call = TmuxCall::Act {
            pane,
            action: action.into(),
            keep_focus: p.has('d'),
        };
        return ctx.call(dst, call).map(|_| ());
    }
    let src = source(ctx, p, true)?;
    same_session(src, dst, "swap-pane")?;
    let call = TmuxCall::SwapPanes {
        src: ctx.pane_number(src),
        dst: ctx.pane_number(dst),
        keep_focus: p.has('d'),
    };
    ctx.call(dst, call).map(|_| ())
}

/// `swap-window`: windows `-s` (default the marked pane's, else the
/// current one) and `-t` change places; `-d` the window shown stays put.
pub fn swap_window(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let src = match p.value('s') {
        Some(s) => ctx.find(Some(s), Kind::Window)?,
        None => source(ctx, p, true)?,
    };
    let dst = ctx.find(p.value('t'), Kind::Window)?;
    if src.session != dst.session {
        return Err("swap-window: windows of different sessions (workspaces) cannot swap".into());
    }
    let call = TmuxCall::SwapTabs {
        src: ctx.tab_serial(src),
        dst: ctx.tab_serial(dst),
        keep_focus: p.has('d'),
    };
    ctx.call(dst, call).map(|_| ())
}

/// `select-pane -m` marks the target pane, or unmarks it when it is the
/// marked one; `-M` unmarks. One pane is marked in the whole server: a
/// mark set clears the others.
pub fn mark(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    let marked_here = ctx.session(at).state.marked;
    let on = p.has('m') && !p.has('M') && marked_here != Some(pane);
    let others: Vec<usize> = (0..ctx.sessions()?.len())
        .filter(|&s| s != at.session)
        .collect();
    for session in others {
        if ctx.sessions()?[session].state.marked.is_some() {
            let found = Found { session, ..at };
            ctx.call(found, TmuxCall::Mark { pane: None })?;
        }
    }
    ctx.call(
        at,
        TmuxCall::Mark {
            pane: on.then_some(pane),
        },
    )
    .map(|_| ())
}
