//! Targets (`-t`, `-s`) as tmux resolves them: `%N`, `@N`, `$N`,
//! `session:window.pane` with indexes, names, unique prefixes, `{last}`
//! (`!`), `{marked}` (`~`), `+`/`-` steps, `{next}`/`{previous}`, and an
//! empty part meaning the current one.

use super::server::Session;
use crate::workspace::tmux_env::tmux_id;

/// What a target names: indexes into the sessions, their tabs and panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub session: usize,
    pub tab: usize,
    pub pane: usize,
}

/// Where a command runs from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Current {
    /// The current session's index.
    pub session: Option<usize>,
    /// `$TMUX_PANE`'s number.
    pub pane: Option<u64>,
    /// The marked pane's number (`select-pane -m`).
    pub marked: Option<u64>,
}

/// The kind of thing a target names, for tmux's error message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Session,
    Window,
    Pane,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Session => "session",
            Kind::Window => "window",
            Kind::Pane => "pane",
        }
    }
}

/// Finds pane number `n` (as `%N`) in `sessions`.
fn pane_by_number(sessions: &[Session], n: u64) -> Option<Found> {
    for (s, session) in sessions.iter().enumerate() {
        for (t, tab) in session.state.tabs.iter().enumerate() {
            if let Some(p) = tab
                .panes
                .iter()
                .position(|p| tmux_id(session.state.number, u64::from(p.id)) == n)
            {
                return Some(Found {
                    session: s,
                    tab: t,
                    pane: p,
                });
            }
        }
    }
    None
}

/// The current session, window and pane.
pub fn current(sessions: &[Session], now: Current) -> Option<Found> {
    if let Some(found) = now.pane.and_then(|n| pane_by_number(sessions, n))
        && now.session.is_none_or(|s| s == found.session)
    {
        let session = &sessions[found.session];
        // The pane's own window, but the session's active pane in it,
        // as tmux does for a client in that pane.
        let _ = session;
        return Some(found);
    }
    // tmux takes the most recently used session; the newest here.
    let s = now.session.or_else(|| sessions.len().checked_sub(1))?;
    let session = sessions.get(s)?;
    let tab = session
        .state
        .active
        .min(session.state.tabs.len().checked_sub(1)?);
    Some(Found {
        session: s,
        tab,
        pane: active_pane(session, tab),
    })
}

fn active_pane(session: &Session, tab: usize) -> usize {
    session.state.tabs.get(tab).map_or(0, |t| {
        t.panes.iter().position(|p| p.id == t.focus).unwrap_or(0)
    })
}

/// Resolves `target` (`None`: the current one) as a `kind`.
pub fn resolve(
    sessions: &[Session],
    now: Current,
    target: Option<&str>,
    kind: Kind,
) -> Result<Found, String> {
    let missing = |what: &str| format!("can't find {}: {what}", kind.word());
    let here = current(sessions, now);
    let Some(target) = target.filter(|t| !t.is_empty()) else {
        return here.ok_or_else(|| "no current session".to_string());
    };
    if let Some(n) = target.strip_prefix('%').and_then(|n| n.parse().ok()) {
        return pane_by_number(sessions, n).ok_or_else(|| missing(target));
    }
    if matches!(target, "{marked}" | "~") {
        return now
            .marked
            .and_then(|n| pane_by_number(sessions, n))
            .ok_or_else(|| "no marked target".to_string());
    }
    let (session_part, rest) = match target.split_once(':') {
        Some((s, rest)) => (Some(s), Some(rest)),
        None => (None, None),
    };
    let (session_part, window_part, pane_part) = match (session_part, rest) {
        (Some(s), Some(rest)) => match rest.split_once('.') {
            Some((w, p)) => (Some(s), Some(w), Some(p)),
            None => (Some(s), Some(rest), None),
        },
        _ => {
            // No colon: `window.pane`, or one part tried as tmux does.
            if let Some((w, p)) = target.split_once('.')
                && !target.starts_with('$')
                && !target.starts_with('@')
            {
                (None, Some(w), Some(p))
            } else {
                return single(sessions, now, here, target, kind).ok_or_else(|| missing(target));
            }
        }
    };
    let session = match session_part.filter(|s| !s.is_empty()) {
        Some(s) => find_session(sessions, s).ok_or_else(|| format!("can't find session: {s}"))?,
        None => here.ok_or("no current session")?.session,
    };
    let same_session = here.filter(|h| h.session == session);
    // `name.1` without a colon: a window of the current session, else a
    // session's active window.
    let (session, window_part, same_session) = match (session_part, window_part) {
        (None, Some(w))
            if find_window(&sessions[session], same_session.map(|h| h.tab), w).is_none() =>
        {
            let s = find_session(sessions, w).ok_or_else(|| format!("can't find window: {w}"))?;
            (s, None, here.filter(|h| h.session == s))
        }
        _ => (session, window_part, same_session),
    };
    let tab = match window_part.filter(|w| !w.is_empty()) {
        Some(w) => find_window(&sessions[session], same_session.map(|h| h.tab), w)
            .ok_or_else(|| format!("can't find window: {w}"))?,
        None => match same_session {
            Some(h) => h.tab,
            None => sessions[session].state.active,
        },
    };
    let pane = match pane_part.filter(|p| !p.is_empty()) {
        Some(p) => {
            let from = same_session
                .filter(|h| h.tab == tab)
                .map_or_else(|| active_pane(&sessions[session], tab), |h| h.pane);
            find_pane(&sessions[session], tab, from, p)
                .ok_or_else(|| format!("can't find pane: {p}"))?
        }
        None => active_pane(&sessions[session], tab),
    };
    Ok(Found { session, tab, pane })
}

/// A target of one part: for a session, a session; else a window of the
/// current session, then a session, then a pane of the current window.
fn single(
    sessions: &[Session],
    now: Current,
    here: Option<Found>,
    target: &str,
    kind: Kind,
) -> Option<Found> {
    let _ = now;
    let whole = |session: usize| Found {
        session,
        tab: sessions[session].state.active,
        pane: active_pane(&sessions[session], sessions[session].state.active),
    };
    if target.starts_with('$') {
        return find_session(sessions, target).map(whole);
    }
    if target.starts_with('@') {
        // A window id, of any session (a session's target too: its own).
        for (s, session) in sessions.iter().enumerate() {
            if let Some(tab) = find_window(session, None, target) {
                return Some(Found {
                    session: s,
                    tab,
                    pane: active_pane(session, tab),
                });
            }
        }
        return None;
    }
    if kind == Kind::Session {
        return find_session(sessions, target).map(whole);
    }
    if let Some(h) = here
        && let Some(tab) = find_window(&sessions[h.session], Some(h.tab), target)
    {
        return Some(Found {
            session: h.session,
            tab,
            pane: active_pane(&sessions[h.session], tab),
        });
    }
    if let Some(s) = find_session(sessions, target) {
        return Some(whole(s));
    }
    let h = here?;
    let pane = find_pane(&sessions[h.session], h.tab, h.pane, target)?;
    Some(Found { pane, ..h })
}

/// `$N`, a name, or a name's unique prefix.
pub fn find_session(sessions: &[Session], s: &str) -> Option<usize> {
    // `=name`: that name exactly, no prefix.
    if let Some(exact) = s.strip_prefix('=') {
        return sessions.iter().position(|x| x.name == exact);
    }
    if let Some(n) = s.strip_prefix('$').and_then(|n| n.parse::<u32>().ok()) {
        return sessions.iter().position(|x| x.state.number == n);
    }
    if let Some(i) = sessions.iter().position(|x| x.name == s) {
        return Some(i);
    }
    let prefixed: Vec<usize> = (0..sessions.len())
        .filter(|&i| sessions[i].name.starts_with(s))
        .collect();
    match prefixed[..] {
        [one] => Some(one),
        _ => None,
    }
}

fn find_window(session: &Session, current: Option<usize>, w: &str) -> Option<usize> {
    let tabs = &session.state.tabs;
    let n = tabs.len();
    let now = current.unwrap_or(session.state.active);
    if let Some(id) = w.strip_prefix('@').and_then(|n| n.parse::<u64>().ok()) {
        return tabs
            .iter()
            .position(|t| tmux_id(session.state.number, t.serial) == id);
    }
    match w {
        "{last}" | "!" => {
            let serial = session.state.last_tab?;
            return tabs.iter().position(|t| t.serial == serial);
        }
        "{start}" | "^" => return (n > 0).then_some(0),
        "{end}" | "$" => return n.checked_sub(1),
        "{next}" | "+" => return (n > 0).then(|| (now + 1) % n),
        "{previous}" | "-" => return (n > 0).then(|| (now + n - 1) % n),
        _ => {}
    }
    if let Some(step) = w.strip_prefix('+').and_then(|s| s.parse::<usize>().ok()) {
        return (n > 0).then(|| (now + step) % n);
    }
    if let Some(step) = w.strip_prefix('-').and_then(|s| s.parse::<usize>().ok()) {
        return (n > 0).then(|| (now + n - step % n) % n);
    }
    if let Ok(index) = w.parse::<usize>() {
        return (index < n).then_some(index);
    }
    if let Some(exact) = w.strip_prefix('=') {
        return tabs.iter().position(|t| t.name == exact);
    }
    if let Some(i) = tabs.iter().position(|t| t.name == w) {
        return Some(i);
    }
    let prefixed: Vec<usize> = (0..n).filter(|&i| tabs[i].name.starts_with(w)).collect();
    match prefixed[..] {
        [one] => Some(one),
        _ => None,
    }
}

fn find_pane(session: &Session, tab: usize, now: usize, p: &str) -> Option<usize> {
    let t = session.state.tabs.get(tab)?;
    let n = t.panes.len();
    if let Some(id) = p.strip_prefix('%').and_then(|n| n.parse::<u64>().ok()) {
        return t
            .panes
            .iter()
            .position(|x| tmux_id(session.state.number, u64::from(x.id)) == id);
    }
    let cur = &t.panes.get(now)?;
    let by = |pick: &dyn Fn(&crate::session::tmux_call::TmuxPane) -> bool| {
        t.panes.iter().position(|x| x.id != cur.id && pick(x))
    };
    match p {
        "{last}" | "!" => {
            let last = t.last_focus?;
            return t.panes.iter().position(|x| x.id == last);
        }
        "{next}" | "+" => return Some((now + 1) % n),
        "{previous}" | "-" => return Some((now + n - 1) % n),
        "{top}" => return by(&|x| x.top == 0).or(Some(now)),
        "{left-of}" => return by(&|x| x.left + x.cols < cur.left),
        "{right-of}" => return by(&|x| x.left > cur.left + cur.cols),
        "{up-of}" => return by(&|x| x.top + x.rows < cur.top),
        "{down-of}" => return by(&|x| x.top > cur.top + cur.rows),
        _ => {}
    }
    if let Some(step) = p.strip_prefix('+').and_then(|s| s.parse::<usize>().ok()) {
        return Some((now + step) % n);
    }
    if let Some(step) = p.strip_prefix('-').and_then(|s| s.parse::<usize>().ok()) {
        return Some((now + n - step % n) % n);
    }
    p.parse::<usize>().ok().filter(|&i| i < n)
}
