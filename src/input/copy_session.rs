//! Copy mode from entering to leaving: opening the focused pane's history,
//! moving the cursor through it, searching it (off the loop, see
//! `search_worker`), yanking a selection, and putting the panes back on
//! their live screens. The cursor, selection and search are here
//! ([`CopyMode`]); the history and its scroll offset stay in the pane, and
//! this is the one place that moves them.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::config::copy_keymap::CopyKeymap;
use crate::input::copy_keys::{CopyCommand, CopyKeys, Yank};
use crate::input::copy_mode::{CopyMode, MAX_COUNT, Motion, Search, scroll_rows};
use crate::input::copy_window::{self, STEP_ROWS};
use crate::input::search_worker::{Found, SearchMailbox};
use crate::pane::{Pane, PaneId};
use crate::workspace::Workspace;

/// Keys kept while copy mode waits for its history (a few lines of typing).
const MAX_PENDING_KEYS: usize = 256;

/// Copy mode's state, on or off.
#[derive(Debug, Default)]
pub struct CopySession {
    /// Set once the pane's history is there.
    copy: Option<CopyMode>,
    /// Keys typed before the history arrived.
    pending_keys: Vec<KeyEvent>,
    /// A search submitted before the history arrived.
    pending_search: Option<String>,
    /// A count or `f` waiting for its next key.
    keys: CopyKeys,
    /// Where the next search result puts the cursor: on the n-th newest
    /// matching row (a line picked in the `C-b F` results).
    jump_to_row_from_end: Option<usize>,
}

/// What a key did in copy mode, for the layer to finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyKey {
    /// The cursor, selection or search changed (or nothing did).
    Moved,
    /// The history is still loading: the key waits for it.
    Queued,
    /// `q`, Esc with nothing selected, or the history is gone.
    Leave,
    /// `y` or Enter with a selection: this text is copied, then copy mode
    /// ends (or not, and more: see [`Yank`]).
    Yank(String, Yank),
    /// `y` or Enter with nothing selected.
    NothingSelected,
    /// `/` or `?`: the search prompt opens.
    OpenSearch,
    /// `C`: the search's case switched; its label.
    CaseToggled(&'static str),
    /// `n` or `N` with a search open: its status now (`4/5 (any case)`),
    /// for the status bar's counter to follow the cursor.
    Stepped(String),
    /// A key copy mode does not use: nothing happens, and the key is not
    /// typed into the program (a vim hand's `i` or `x` must not reach the
    /// shell).
    Unbound,
}

impl CopySession {
    /// The cursor, selection and matches, once the history is there.
    pub fn view(&self) -> Option<&CopyMode> {
        self.copy.as_ref()
    }

    /// The pane whose history is shown (not yet while it loads).
    pub fn pane(&self) -> Option<PaneId> {
        self.copy.as_ref().map(|c| c.pane)
    }

    pub fn is_active(&self) -> bool {
        self.copy.is_some()
    }

    /// Opens the focused pane's history (a replay, unless it is open) and
    /// starts at once if it is already there.
    pub fn enter(&mut self, ws: &mut Workspace) {
        let events = ws.panes().spawner().events();
        if let Some(pane) = ws
            .tabs()
            .focused_id()
            .and_then(|id| ws.panes_mut().get_mut(id))
        {
            pane.history_mut().open_history(&events);
        }
        self.sync(ws);
    }

    /// Creates the copy-mode state once the focused pane's history is there.
    pub fn sync(&mut self, ws: &mut Workspace) {
        let Some(id) = ws.tabs().focused_id() else {
            return;
        };
        if self.pane() == Some(id) {
            return;
        }
        if let Some(history) = ws.panes().get(id).and_then(|p| p.history().window()) {
            self.copy = Some(CopyMode::new(id, history));
        }
    }

    /// Carries copy mode over to its pane's history replayed at a new size
    /// (see `copy_window::follow_resize`); a search runs again there.
    pub fn follow_resize(&mut self, ws: &mut Workspace, searches: &SearchMailbox) {
        let Some(copy) = self.copy.as_mut() else {
            return;
        };
        let Some(pane) = ws.panes_mut().get_mut(copy.pane) else {
            return;
        };
        if let Some(source) = copy_window::follow_resize(pane, copy)
            && let Some(search) = copy.search.as_mut()
        {
            search.search_again(copy.pane, source, searches.clone());
        }
    }

    /// Ends copy mode: its pane and the focused one show their live
    /// screens again; keys and a search waiting for the history are
    /// dropped.
    pub fn leave(&mut self, ws: &mut Workspace) {
        self.pending_keys.clear();
        self.pending_search = None;
        self.keys = CopyKeys::default();
        self.jump_to_row_from_end = None;
        if let Some(copy) = self.copy.take()
            && let Some(p) = ws.panes_mut().get_mut(copy.pane)
        {
            p.history_mut().scroll_to_bottom();
        }
        if let Some(p) = ws
            .tabs()
            .focused_id()
            .and_then(|id| ws.panes_mut().get_mut(id))
        {
            p.history_mut().scroll_to_bottom();
        }
    }

    /// Keys and a search to run now that the history is there.
    pub fn take_pending(&mut self) -> (Option<String>, Vec<KeyEvent>) {
        (
            self.pending_search.take(),
            std::mem::take(&mut self.pending_keys),
        )
    }

    /// A search submitted while the history loads runs when it lands.
    pub fn search_later(&mut self, pattern: String) {
        self.pending_search = Some(pattern);
    }

    /// Starts searching the history for `pattern` (or switches the case
    /// of the current search); the result lands in
    /// [`CopySession::search_result`]. Returns the search's status for the
    /// prompt.
    pub fn search(
        &mut self,
        ws: &mut Workspace,
        pattern: &str,
        toggle_case: bool,
        searches: &SearchMailbox,
    ) -> Option<String> {
        self.sync(ws);
        let events = searches.clone();
        let copy = self.copy.as_mut()?;
        let pane = ws
            .panes()
            .get(copy.pane)
            .filter(|p| p.history().window().is_some())?;
        let search = copy
            .search
            .get_or_insert_with(|| Search::new(copy.pane, pane.history().ring_copy(), events));
        search.set_command_lines(crate::input::command_search::CommandLines::of(
            pane.history().command_marks(),
        ));
        if toggle_case {
            search.toggle_case();
        } else {
            search.set_pattern(pattern);
        }
        Some(search.status())
    }

    /// The next search result puts the cursor on its `n`-th newest
    /// matching row (0: the newest) rather than the match before it.
    pub fn jump_to_match_from_end(&mut self, n: usize) {
        self.jump_to_row_from_end = Some(n);
    }

    /// The search prompt was cancelled: its highlights go.
    pub fn clear_search(&mut self) {
        if let Some(copy) = self.copy.as_mut() {
            copy.search = None;
        }
    }

    /// Takes a search's matches if they answer the latest pattern of the
    /// search still open, and moves to the current one. Returns the
    /// search's status for the prompt.
    pub fn search_result(&mut self, ws: &mut Workspace, found: Found) -> Option<String> {
        let copy = self.copy.as_mut().filter(|c| c.pane == found.pane)?;
        let pane = ws.panes_mut().get_mut(copy.pane)?;
        let history = pane.history().window()?;
        let cursor = copy.cursor;
        let search = copy.search.as_mut()?;
        if !search.apply(found, history, cursor) {
            return None;
        }
        if let Some(n) = self.jump_to_row_from_end.take() {
            search.select_row_from_end(n);
        }
        let (current, status) = (search.current_global(), search.status());
        if let Some(m) = current {
            copy_window::go_to_match(pane, copy, m);
        }
        Some(status)
    }

    /// Moves the cursor `rows` down (the mouse wheel) when copy mode is on
    /// pane `id`. Returns whether it was.
    pub fn scroll(&mut self, ws: &mut Workspace, id: PaneId, rows: isize) -> bool {
        let Some(copy) = self.copy.as_mut().filter(|c| c.pane == id) else {
            return false;
        };
        let Some(pane) = ws
            .panes_mut()
            .get_mut(id)
            .filter(|p| p.history().window().is_some())
        else {
            return false;
        };
        move_rows(copy, pane, rows, |copy, history, step| {
            copy.move_by(history, step, 0);
        });
        true
    }

    /// A key in copy mode (the prefix is handled before).
    pub fn key(&mut self, ws: &mut Workspace, key: &KeyEvent, table: &CopyKeymap) -> CopyKey {
        self.sync(ws);
        let Some(copy) = self.copy.as_mut() else {
            return self.key_while_loading(key);
        };
        let Some(pane) = ws
            .panes_mut()
            .get_mut(copy.pane)
            .filter(|p| p.history().window().is_some())
        else {
            return CopyKey::Leave;
        };
        copy_key(copy, &mut self.keys, pane, key, table)
    }

    /// The history is still loading: `q`/Esc leave at once, other keys
    /// wait and are replayed when it arrives (typing `/pattern` right after
    /// entering copy mode must not lose keys; nor the `q` of `fq`).
    fn key_while_loading(&mut self, key: &KeyEvent) -> CopyKey {
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc if self.pending_keys.is_empty() => {
                return CopyKey::Leave;
            }
            _ if self.pending_keys.len() < MAX_PENDING_KEYS => self.pending_keys.push(*key),
            _ => {}
        }
        CopyKey::Queued
    }
}

/// Moves `rows` (negative: back) with `step`, in steps the window can
/// hold, moving the window along first when it has not the rows.
fn move_rows(
    copy: &mut CopyMode,
    pane: &mut Pane,
    rows: isize,
    mut step: impl FnMut(&mut CopyMode, &mut crate::pane::history::window::Window, isize),
) {
    let mut left = rows.unsigned_abs().min(MAX_COUNT * 1000);
    while left > 0 {
        let now = left.min(STEP_ROWS);
        let (back, fwd) = if rows < 0 { (now, 0) } else { (0, now) };
        copy_window::ensure_room(pane, copy, back, fwd);
        let Some(history) = pane.history_mut().window_mut() else {
            return;
        };
        let signed = isize::try_from(now).unwrap_or(isize::MAX);
        let (cursor, top) = (copy.cursor, history.top_row());
        step(copy, history, if rows < 0 { -signed } else { signed });
        if (copy.cursor, history.top_row()) == (cursor, top) {
            // At an end of the history: the rest of the count goes nowhere.
            return;
        }
        left -= now;
    }
}

/// Copy mode's keys, like tmux's vi mode (the table is in `copy_keys`).
/// Motions that leave the window of history shown take the window along
/// (see `copy_window`).
fn copy_key(
    copy: &mut CopyMode,
    keys: &mut CopyKeys,
    pane: &mut Pane,
    key: &KeyEvent,
    table: &CopyKeymap,
) -> CopyKey {
    let command = keys.command(key, table);
    match command {
        CopyCommand::Move(motion @ (Motion::Up | Motion::Down), count) => {
            let rows = isize::try_from(count.clamp(1, MAX_COUNT)).unwrap_or(1);
            let rows = if motion == Motion::Up { -rows } else { rows };
            move_rows(copy, pane, rows, |copy, history, step| {
                copy.move_by(history, step, 0);
            });
            return CopyKey::Moved;
        }
        CopyCommand::Scroll(scroll) => {
            let Some(history) = pane.history().window() else {
                return CopyKey::Leave;
            };
            let (rows, follows) = scroll_rows(history, scroll);
            move_rows(copy, pane, rows, |copy, history, step| {
                copy.scroll_by(history, step, follows);
            });
            return CopyKey::Moved;
        }
        CopyCommand::Prompt { forward, count } => {
            crate::input::copy_prompts::jump(pane, copy, forward, count);
            return CopyKey::Moved;
        }
        CopyCommand::SelectOutput => {
            crate::input::copy_prompts::select_output(pane, copy);
            return CopyKey::Moved;
        }
        CopyCommand::Move(Motion::HistoryTop, _) => copy_window::to_top(pane, copy),
        CopyCommand::Move(Motion::HistoryBottom, _) => copy_window::to_tail(pane, copy),
        CopyCommand::Move(..) => copy_window::ensure_room(pane, copy, 0, 0),
        CopyCommand::NextMatch { back } => {
            let Some(search) = copy.search.as_mut() else {
                return CopyKey::Moved;
            };
            let step = search.step(back);
            let status = search.status();
            if let Some(m) = step {
                copy_window::go_to_match(pane, copy, m);
            }
            return CopyKey::Stepped(status);
        }
        _ => {}
    }
    let Some(history) = pane.history_mut().window_mut() else {
        return CopyKey::Leave;
    };
    match command {
        CopyCommand::Move(motion, count) => copy.motion(history, motion, count),
        CopyCommand::Select(kind) => copy.toggle_selection(kind),
        CopyCommand::Leave => return CopyKey::Leave,
        CopyCommand::Escape if copy.selection.is_some() => copy.selection = None,
        CopyCommand::Escape => return CopyKey::Leave,
        CopyCommand::Yank(how) => {
            let Some(text) = copy.selected_text(history) else {
                return CopyKey::NothingSelected;
            };
            if how.stay {
                // As tmux's copy-selection: the view stays, unselected.
                copy.selection = None;
            }
            return CopyKey::Yank(text, how);
        }
        CopyCommand::Search => return CopyKey::OpenSearch,
        CopyCommand::ToggleCase => {
            if let Some(search) = copy.search.as_mut() {
                search.toggle_case();
                return CopyKey::CaseToggled(search.case_label());
            }
        }
        CopyCommand::Unbound => return CopyKey::Unbound,
        CopyCommand::Pending
        | CopyCommand::Scroll(_)
        | CopyCommand::NextMatch { .. }
        | CopyCommand::Prompt { .. }
        | CopyCommand::SelectOutput => {}
    }
    CopyKey::Moved
}
