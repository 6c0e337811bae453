//! Routes user input: a key is a prefix command, a direct binding, a
//! copy-mode motion, prompt editing, or bytes for the focused pane (or for
//! every pane of the tab while broadcasting); a mouse event focuses, drags a
//! border, selects text, scrolls, or goes to the program under it.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use crate::config::action::Action;
use crate::config::keymap::Keymap;
use crate::input::copy_mode::{self, CopyMode, Point, Search, SelectKind};
use crate::input::key_encoder::{KeyModes, encode_key, encode_mouse, encode_paste};
use crate::input::prompt::{Prompt, PromptEvent, PromptKind};
use crate::input::search_worker::{Found, SearchMailbox, SearchReport};
use crate::pane::PaneId;
use crate::terminal::clipboard;
use crate::workspace::{Workspace, content_rect};

/// Rows one wheel notch scrolls, like most terminals.
const WHEEL_ROWS: isize = 3;
/// Clicks closer together than this count as double/triple clicks.
const MULTI_CLICK: Duration = Duration::from_millis(400);
/// After the prefix, how long before the which-key popup appears.
pub const WHICH_KEY_DELAY: Duration = Duration::from_millis(500);
/// Keys kept while copy mode waits for its history (a few lines of typing).
const MAX_PENDING_COPY_KEYS: usize = 256;
/// How long a notice ("copied 12 characters") stays in the status bar.
pub const NOTICE_TIME: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Normal,
    /// The prefix was pressed; the next key is a command.
    Prefix,
    /// Keys move through the focused pane's history, select and search.
    Copy,
}

/// What handling one input event did, so the loop knows how urgently to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The workspace's own drawing changed (focus, layout, overlays).
    pub redraw: bool,
    /// Bytes went to this pane: its echo should be drawn at once.
    pub sent_to: Option<PaneId>,
}

/// A mouse selection in progress, in the pane's screen coordinates.
#[derive(Debug, Clone, Copy)]
pub struct MouseSelection {
    pub pane: PaneId,
    pub start: (u16, u16),
    pub end: (u16, u16),
    pub kind: SelectKind,
    /// The button went down but has not moved yet: a plain click.
    pub pending: bool,
}

/// Matches of a search over every pane of the tab.
#[derive(Debug, Clone, Default)]
pub struct SearchAllResults {
    pub pattern: String,
    /// Per pane: its title, the number of matching lines, and a few of them.
    pub panes: Vec<(PaneId, String, usize, Vec<String>)>,
    /// Panes still being searched.
    pub pending: usize,
    pub selected: usize,
}

pub struct InputRouter {
    pub keymap: Keymap,
    pub mode: Mode,
    pub show_help: bool,
    pub show_fps: bool,
    pub prompt: Option<Prompt>,
    pub copy: Option<CopyMode>,
    /// tilework's own paste buffer: the last thing copied.
    pub copy_buffer: Option<String>,
    pub mouse_selection: Option<MouseSelection>,
    pub search_all: Option<SearchAllResults>,
    /// When the prefix was pressed, for the which-key popup.
    pub prefix_at: Option<Instant>,
    pub show_which_key: bool,
    /// A short message for the status bar and when it goes away.
    pub notice: Option<(String, Instant)>,
    /// OSC 52 bytes for the user's terminal, written with the next frame.
    pub pending_osc52: Option<Vec<u8>>,
    /// The local clipboard command (wl-copy, xclip), if any.
    pub copy_command: Option<Vec<String>>,
    /// A profile name to save to (`--save-profile`, the save prompt's default).
    pub session_name: Option<String>,
    last_click: Option<(Instant, u16, u16, u8)>,
    /// Keys typed in copy mode before the history arrived.
    pending_copy_keys: Vec<KeyEvent>,
    /// A search submitted before the history arrived.
    pending_search: Option<String>,
    /// Reused for every encoded key: no allocation per keystroke.
    scratch: Vec<u8>,
    /// Where searches started here report.
    searches: SearchMailbox,
}

impl InputRouter {
    pub fn new(keymap: Keymap, show_fps: bool, searches: SearchMailbox) -> Self {
        Self {
            keymap,
            mode: Mode::Normal,
            show_help: false,
            show_fps,
            prompt: None,
            copy: None,
            copy_buffer: None,
            mouse_selection: None,
            search_all: None,
            prefix_at: None,
            show_which_key: false,
            notice: None,
            pending_osc52: None,
            copy_command: None,
            session_name: None,
            last_click: None,
            pending_copy_keys: Vec::new(),
            pending_search: None,
            scratch: Vec::with_capacity(64),
            searches,
        }
    }

    /// Deadline of the next timed UI change (which-key popup, notice expiry).
    pub fn next_deadline(&self) -> Option<Instant> {
        let which = match (self.mode, self.prefix_at, self.show_which_key) {
            (Mode::Prefix, Some(at), false) => Some(at + WHICH_KEY_DELAY),
            _ => None,
        };
        let notice = self.notice.as_ref().map(|(_, until)| *until);
        match (which, notice) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Applies timed UI changes that are due. Returns whether to redraw.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = false;
        if self.mode == Mode::Prefix
            && !self.show_which_key
            && self.prefix_at.is_some_and(|at| now >= at + WHICH_KEY_DELAY)
        {
            self.show_which_key = true;
            changed = true;
        }
        if self.notice.as_ref().is_some_and(|(_, until)| now >= *until) {
            self.notice = None;
            changed = true;
        }
        changed
    }

    fn notify(&mut self, text: String) {
        self.notice = Some((text, Instant::now() + NOTICE_TIME));
    }

    pub fn handle_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        if key.kind == KeyEventKind::Release {
            return Outcome::default();
        }
        if self.prompt.is_some() {
            return self.prompt_key(ws, key);
        }
        if self.search_all.is_some() {
            return self.search_all_key(ws, key);
        }
        if self.show_help && self.mode != Mode::Prefix && !self.keymap.is_prefix(key) {
            // Any key closes help; the prefix still works so `C-b ?` toggles.
            self.show_help = false;
            return redraw();
        }
        // A key ends a finished mouse selection's highlight.
        self.mouse_selection = None;
        match self.mode {
            Mode::Prefix => {
                self.mode = if self.copy.is_some() {
                    Mode::Copy
                } else {
                    Mode::Normal
                };
                self.prefix_at = None;
                self.show_which_key = false;
                match self.keymap.lookup_prefixed(key) {
                    Some(action) => self.run(ws, action),
                    // An unbound key after the prefix is swallowed, like tmux.
                    None => redraw(),
                }
            }
            Mode::Copy => self.copy_key(ws, key),
            Mode::Normal => {
                if self.keymap.is_prefix(key) {
                    self.enter_prefix();
                    return redraw();
                }
                if let Some(action) = self.keymap.lookup_direct(key) {
                    return self.run(ws, action);
                }
                self.send_key(ws, key)
            }
        }
    }

    fn enter_prefix(&mut self) {
        self.mode = Mode::Prefix;
        self.prefix_at = Some(Instant::now());
        self.show_which_key = false;
    }

    fn run(&mut self, ws: &mut Workspace, action: Action) -> Outcome {
        match action {
            Action::ToggleHelp => {
                self.show_help = !self.show_help;
                redraw()
            }
            Action::ToggleFps => {
                self.show_fps = !self.show_fps;
                redraw()
            }
            Action::ScrollMode => {
                self.enter_copy(ws);
                redraw()
            }
            Action::ScrollPageUp => {
                self.enter_copy(ws);
                ws.apply(action);
                redraw()
            }
            Action::SearchBackward => {
                self.enter_copy(ws);
                self.prompt = Some(Prompt::new(PromptKind::Search, ""));
                redraw()
            }
            Action::SearchAllPanes => {
                self.prompt = Some(Prompt::new(PromptKind::SearchAll, ""));
                redraw()
            }
            Action::RenameTab => {
                let name = ws.tab().map(|t| t.name.clone()).unwrap_or_default();
                self.prompt = Some(Prompt::new(PromptKind::RenameTab, &name));
                redraw()
            }
            Action::SaveSession => {
                let name = self.session_name.clone().unwrap_or_default();
                self.prompt = Some(Prompt::new(PromptKind::SaveSession, &name));
                redraw()
            }
            Action::PasteBuffer => match self.copy_buffer.clone() {
                Some(text) => self.handle_paste(ws, &text),
                None => {
                    self.notify("nothing copied yet".into());
                    redraw()
                }
            },
            Action::SendPrefix => {
                let prefix = KeyEvent::new(self.keymap.prefix.code, self.keymap.prefix.modifiers);
                self.send_key(ws, &prefix)
            }
            Action::ToggleBroadcast => {
                ws.apply(action);
                let on = ws.tab().is_some_and(|t| t.broadcast);
                self.notify(
                    if on {
                        "broadcast on: keys go to every pane of the tab"
                    } else {
                        "broadcast off"
                    }
                    .into(),
                );
                redraw()
            }
            other => {
                let changed = ws.apply(other);
                if self
                    .copy
                    .as_ref()
                    .is_some_and(|c| Some(c.pane) != ws.focused_id())
                {
                    self.leave_copy(ws);
                }
                Outcome {
                    redraw: changed,
                    sent_to: None,
                }
            }
        }
    }

    fn prompt_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        let Some(prompt) = self.prompt.as_mut() else {
            return Outcome::default();
        };
        let event = prompt.handle_key(key);
        let kind = prompt.kind;
        match event {
            PromptEvent::Cancel => {
                self.prompt = None;
                if kind == PromptKind::Search
                    && let Some(copy) = self.copy.as_mut()
                {
                    copy.search = None;
                }
            }
            PromptEvent::Submit(text) => {
                self.prompt = None;
                match kind {
                    PromptKind::RenameTab => {
                        ws.rename_tab(&text);
                    }
                    PromptKind::SaveSession => self.save_session(ws, text.trim()),
                    PromptKind::Search if self.copy.is_none() => {
                        // The history is still loading: search when it lands.
                        self.pending_search = Some(text);
                    }
                    PromptKind::Search => self.run_search(ws, &text, false),
                    PromptKind::SearchAll => self.start_search_all(ws, &text),
                }
            }
            PromptEvent::Edited if kind == PromptKind::Search => {
                let text = self
                    .prompt
                    .as_ref()
                    .map(|p| p.text.clone())
                    .unwrap_or_default();
                self.run_search(ws, &text, false);
            }
            PromptEvent::ToggleCase if kind == PromptKind::Search => {
                let text = self
                    .prompt
                    .as_ref()
                    .map(|p| p.text.clone())
                    .unwrap_or_default();
                self.run_search(ws, &text, true);
            }
            _ => {}
        }
        redraw()
    }

    fn save_session(&mut self, ws: &Workspace, name: &str) {
        if name.is_empty() {
            self.notify("not saved: a profile needs a name".into());
            return;
        }
        match crate::workspace::session::save(ws, name) {
            Ok(path) => {
                self.session_name = Some(name.to_string());
                self.notify(format!(
                    "saved: tilework --profile {name}  ({})",
                    path.display()
                ));
            }
            Err(err) => self.notify(format!("not saved: {err:#}")),
        }
    }

    // ---- copy mode ----

    fn enter_copy(&mut self, ws: &mut Workspace) {
        self.mode = Mode::Copy;
        self.mouse_selection = None;
        let events = ws.events();
        if let Some(pane) = ws.focused_mut() {
            pane.open_history(&events);
        }
        self.sync_copy(ws);
    }

    /// Creates the copy-mode state once the focused pane's history is there.
    fn sync_copy(&mut self, ws: &mut Workspace) {
        let Some(id) = ws.focused_id() else {
            return;
        };
        if self.copy.as_ref().is_some_and(|c| c.pane == id) {
            return;
        }
        if let Some(history) = ws.pane(id).and_then(|p| p.history()) {
            self.copy = Some(CopyMode::new(id, history));
        }
    }

    fn leave_copy(&mut self, ws: &mut Workspace) {
        self.mode = Mode::Normal;
        self.pending_copy_keys.clear();
        self.pending_search = None;
        if let Some(copy) = self.copy.take()
            && let Some(p) = ws.pane_mut(copy.pane)
        {
            p.scroll_to_bottom();
        }
        if let Some(p) = ws.focused_mut() {
            p.scroll_to_bottom();
        }
    }

    /// Called when a history replay lands, so copy mode can begin.
    pub fn history_arrived(&mut self, ws: &mut Workspace) {
        if self.mode == Mode::Copy
            || self
                .prompt
                .as_ref()
                .is_some_and(|p| p.kind == PromptKind::Search)
        {
            self.sync_copy(ws);
            if let Some(pattern) = self.pending_search.take() {
                self.run_search(ws, &pattern, false);
            }
            for key in std::mem::take(&mut self.pending_copy_keys) {
                self.handle_key(ws, &key);
            }
            let text = self
                .prompt
                .as_ref()
                .filter(|p| p.kind == PromptKind::Search && !p.text.is_empty())
                .map(|p| p.text.clone());
            if let Some(text) = text {
                self.run_search(ws, &text, false);
            }
        }
    }

    /// Starts searching the copy-mode pane's history for `pattern` (or
    /// toggles the case of the current search): the search runs off the
    /// loop and its result lands in [`InputRouter::search_result`].
    fn run_search(&mut self, ws: &mut Workspace, pattern: &str, toggle_case: bool) {
        self.sync_copy(ws);
        let events = self.searches.clone();
        let Some(copy) = self.copy.as_mut() else {
            return;
        };
        let Some(history) = ws.pane_mut(copy.pane).and_then(|p| p.history_mut()) else {
            return;
        };
        let search = copy
            .search
            .get_or_insert_with(|| Search::new(copy.pane, history, events));
        if toggle_case {
            search.toggle_case();
        } else {
            search.set_pattern(pattern);
        }
        let status = search.status();
        self.set_search_status(status);
    }

    fn set_search_status(&mut self, status: String) {
        if let Some(prompt) = self
            .prompt
            .as_mut()
            .filter(|p| p.kind == PromptKind::Search)
        {
            prompt.status = status;
        }
    }

    /// A search thread reported: a copy-mode search's matches, or one
    /// pane's part of a search across the tab.
    pub fn search_result(&mut self, ws: &mut Workspace, report: SearchReport) {
        match report {
            SearchReport::AllPanes(matches) => self.search_all_result(ws, matches),
            SearchReport::CopyMode(found) => self.copy_search_result(ws, found),
        }
    }

    /// Takes a copy-mode search's matches if they answer the latest pattern
    /// of the search still open, and moves to the current one.
    fn copy_search_result(&mut self, ws: &mut Workspace, found: Found) {
        let Some(copy) = self.copy.as_mut().filter(|c| c.pane == found.pane) else {
            return;
        };
        let Some(search) = copy.search.as_mut() else {
            return;
        };
        if !search.apply(found, copy.cursor) {
            return;
        }
        let (current, status) = (search.current_match(), search.status());
        if let Some(m) = current
            && let Some(history) = ws.pane_mut(copy.pane).and_then(|p| p.history_mut())
        {
            copy.move_to(
                history,
                Point {
                    row: m.row,
                    col: m.start,
                },
            );
        }
        self.set_search_status(status);
    }

    fn copy_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        if self.keymap.is_prefix(key) {
            self.enter_prefix();
            return redraw();
        }
        self.sync_copy(ws);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let Some(mut copy) = self.copy.take() else {
            // The history is still loading: `q`/Esc leave at once, other keys
            // wait and are replayed when it arrives (typing `/pattern` right
            // after entering copy mode must not lose keys).
            return self.copy_key_loading(ws, key);
        };
        let Some(history) = ws.pane_mut(copy.pane).and_then(|p| p.history_mut()) else {
            self.leave_copy(ws);
            return redraw();
        };
        let page = history.screen().size().0.get().saturating_sub(1).max(1) as isize;
        match key.code {
            KeyCode::Char('q') => {
                self.copy = Some(copy);
                self.leave_copy(ws);
                return redraw();
            }
            KeyCode::Esc => {
                if copy.selection.is_some() {
                    copy.selection = None;
                } else {
                    self.copy = Some(copy);
                    self.leave_copy(ws);
                    return redraw();
                }
            }
            KeyCode::Up | KeyCode::Char('k') => copy.move_by(history, -1, 0),
            KeyCode::Down | KeyCode::Char('j') => copy.move_by(history, 1, 0),
            KeyCode::Left | KeyCode::Char('h') => copy.move_by(history, 0, -1),
            KeyCode::Right | KeyCode::Char('l') => copy.move_by(history, 0, 1),
            KeyCode::Char('u') if ctrl => copy.move_by(history, -page / 2, 0),
            KeyCode::Char('d') if ctrl => copy.move_by(history, page / 2, 0),
            KeyCode::Char('b') if ctrl => copy.move_by(history, -page, 0),
            KeyCode::Char('f') if ctrl => copy.move_by(history, page, 0),
            KeyCode::Char('v') if ctrl => copy.toggle_selection(SelectKind::Block),
            KeyCode::PageUp => copy.move_by(history, -page, 0),
            KeyCode::PageDown => copy.move_by(history, page, 0),
            KeyCode::Char('w') => copy.word_motion(history, true),
            KeyCode::Char('b') => copy.word_motion(history, false),
            KeyCode::Char('0') | KeyCode::Home => copy.move_by(history, 0, -i32::from(u16::MAX)),
            KeyCode::Char('$') | KeyCode::End => copy.move_by(history, 0, i32::from(u16::MAX)),
            KeyCode::Char('g') => copy.move_to(history, Point { row: 0, col: 0 }),
            KeyCode::Char('G') => copy.move_to(
                history,
                Point {
                    row: usize::MAX,
                    col: 0,
                },
            ),
            KeyCode::Char('v') => copy.toggle_selection(SelectKind::Char),
            KeyCode::Char('V') => copy.toggle_selection(SelectKind::Line),
            KeyCode::Char('y') | KeyCode::Enter => {
                let text = copy.selected_text(history);
                self.copy = Some(copy);
                match text {
                    Some(text) => {
                        self.copy_text(text);
                        self.leave_copy(ws);
                    }
                    None => self.notify("nothing selected: v, V or C-v starts a selection".into()),
                }
                return redraw();
            }
            KeyCode::Char('/' | '?') => {
                self.copy = Some(copy);
                self.prompt = Some(Prompt::new(PromptKind::Search, ""));
                return redraw();
            }
            KeyCode::Char('n' | 'N') => {
                let back = key.code == KeyCode::Char('n');
                if let Some(m) = copy.search.as_mut().and_then(|s| s.step(back)) {
                    copy.move_to(
                        history,
                        Point {
                            row: m.row,
                            col: m.start,
                        },
                    );
                }
            }
            KeyCode::Char('C') => {
                if let Some(search) = copy.search.as_mut() {
                    search.toggle_case();
                    let label = search.case_label();
                    self.notify(format!("search {label}"));
                }
            }
            _ if ctrl || matches!(key.code, KeyCode::Char(_)) => {
                // Typing returns to the live screen and reaches the program.
                self.copy = Some(copy);
                self.leave_copy(ws);
                return self.send_key(ws, key);
            }
            _ => {}
        }
        self.copy = Some(copy);
        redraw()
    }

    fn copy_key_loading(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => {
                self.pending_copy_keys.clear();
                self.leave_copy(ws);
            }
            _ if self.pending_copy_keys.len() < MAX_PENDING_COPY_KEYS => {
                self.pending_copy_keys.push(*key);
            }
            _ => {}
        }
        redraw()
    }

    /// Puts text in tilework's buffer and on the user's clipboard.
    fn copy_text(&mut self, text: String) {
        let chars = text.chars().count();
        self.pending_osc52 = Some(clipboard::osc52(&text));
        if let Some(argv) = self.copy_command.clone() {
            clipboard::copy_with_command(argv, text.clone());
        }
        self.copy_buffer = Some(text);
        self.notify(format!("copied {chars} characters"));
    }

    // ---- search across panes ----

    fn start_search_all(&mut self, ws: &mut Workspace, pattern: &str) {
        if pattern.is_empty() {
            return;
        }
        // Compiled here once, within the same limits the workers use, so a
        // bad or oversized pattern is refused with a reason at once.
        if let Err(err) = crate::input::search_worker::compile(pattern, true) {
            self.notify(format!("bad regex: {err}"));
            return;
        }
        let panes = ws.tab().map(|t| t.layout.panes()).unwrap_or_default();
        let mut results = SearchAllResults {
            pattern: pattern.to_string(),
            ..SearchAllResults::default()
        };
        for id in panes {
            if let Some(pane) = ws.pane(id) {
                results.pending += 1;
                crate::input::search_all::spawn(
                    id,
                    pane.replay_request(),
                    pattern.to_string(),
                    self.searches.clone(),
                );
            }
        }
        self.search_all = Some(results);
    }

    /// A pane's search-all result arrived.
    fn search_all_result(&mut self, ws: &Workspace, result: crate::input::search_all::PaneMatches) {
        let Some(results) = self.search_all.as_mut() else {
            return;
        };
        if result.pattern != results.pattern {
            return;
        }
        results.pending = results.pending.saturating_sub(1);
        let title = ws
            .pane(result.pane)
            .map_or_else(String::new, |p| p.title().to_string());
        results
            .panes
            .push((result.pane, title, result.count, result.lines));
        results.panes.sort_by_key(|(id, ..)| *id);
    }

    fn search_all_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        let Some(results) = self.search_all.as_mut() else {
            return Outcome::default();
        };
        let n = results.panes.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') if n > 0 => {
                results.selected = (results.selected + n - 1) % n
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab if n > 0 => {
                results.selected = (results.selected + 1) % n;
            }
            KeyCode::Enter => {
                let target = results.panes.get(results.selected).map(|(id, ..)| *id);
                let pattern = results.pattern.clone();
                self.search_all = None;
                if let Some(id) = target {
                    ws.focus_pane(id);
                    self.enter_copy(ws);
                    let mut prompt = Prompt::new(PromptKind::Search, &pattern);
                    prompt.status = "Enter: keep, Esc: clear".into();
                    self.prompt = Some(prompt);
                    self.run_search(ws, &pattern, false);
                }
            }
            _ => self.search_all = None,
        }
        redraw()
    }

    // ---- to the programs ----

    /// The panes keys go to: every pane of the tab while broadcasting.
    fn targets(ws: &Workspace) -> Vec<PaneId> {
        match ws.tab() {
            Some(tab) if tab.broadcast => tab.layout.panes(),
            Some(tab) => vec![tab.focus],
            None => Vec::new(),
        }
    }

    fn send_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        let mut out = Outcome::default();
        let focused = ws.focused_id();
        for id in Self::targets(ws) {
            let Some(pane) = ws.pane_mut(id) else {
                continue;
            };
            if pane.is_scrolled() {
                pane.scroll_to_bottom();
                out.redraw = true;
            }
            let modes = KeyModes {
                application_cursor: pane.live_screen().application_cursor(),
            };
            self.scratch.clear();
            if encode_key(key, modes, &mut self.scratch) {
                if !pane.send(&self.scratch) && pane.exit().is_none() {
                    self.notify("keys refused: the program is not reading its input".into());
                    out.redraw = true;
                }
                if Some(id) == focused {
                    out.sent_to = Some(id);
                }
            }
        }
        out
    }

    pub fn handle_paste(&mut self, ws: &mut Workspace, text: &str) -> Outcome {
        let mut out = Outcome::default();
        let focused = ws.focused_id();
        let mut bytes = Vec::with_capacity(text.len() + 12);
        for id in Self::targets(ws) {
            let Some(pane) = ws.pane_mut(id) else {
                continue;
            };
            pane.scroll_to_bottom();
            bytes.clear();
            encode_paste(text, pane.live_screen().bracketed_paste(), &mut bytes);
            if !pane.send(&bytes) {
                self.notify("paste refused: the program is not reading its input".into());
                out.redraw = true;
            }
            if Some(id) == focused {
                out.sent_to = Some(id);
            }
        }
        out
    }

    // ---- mouse ----

    pub fn handle_mouse(&mut self, ws: &mut Workspace, ev: &MouseEvent) -> Outcome {
        let (x, y) = (ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.mouse_selection = None;
                if ws.begin_drag(x, y) {
                    return redraw();
                }
                let before = ws.focused_id();
                let Some(id) = ws.focus_at(x, y) else {
                    return Outcome::default();
                };
                if self.copy.as_ref().is_some_and(|c| c.pane != id) {
                    self.leave_copy(ws);
                }
                let changed = before != Some(id);
                if self.wants_mouse(ws, id) {
                    let mut out = self.forward_mouse(ws, id, ev);
                    out.redraw |= changed;
                    return out;
                }
                self.begin_selection(ws, id, x, y);
                Outcome {
                    redraw: true,
                    sent_to: None,
                }
            }
            MouseEventKind::Drag(MouseButton::Left) if ws.is_dragging() => Outcome {
                redraw: ws.drag_to(x, y),
                sent_to: None,
            },
            MouseEventKind::Up(MouseButton::Left) if ws.is_dragging() => {
                ws.end_drag();
                redraw()
            }
            MouseEventKind::Drag(MouseButton::Left) if self.mouse_selection.is_some() => {
                self.extend_selection(ws, x, y);
                redraw()
            }
            MouseEventKind::Up(MouseButton::Left) if self.mouse_selection.is_some() => {
                self.finish_selection(ws);
                redraw()
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let Some(id) = pane_under(ws, x, y) else {
                    return Outcome::default();
                };
                self.wheel(ws, id, ev)
            }
            _ => match pane_under(ws, x, y).or(ws.focused_id()) {
                Some(id) if Some(id) == ws.focused_id() && self.wants_mouse(ws, id) => {
                    self.forward_mouse(ws, id, ev)
                }
                _ => Outcome::default(),
            },
        }
    }

    fn wants_mouse(&self, ws: &Workspace, id: PaneId) -> bool {
        ws.pane(id).is_some_and(|p| {
            !p.is_scrolled()
                && p.live_screen().mouse_protocol_mode() != vt100::MouseProtocolMode::None
        }) && self.copy.is_none()
    }

    fn inner_rect(ws: &Workspace, id: PaneId) -> Option<Rect> {
        ws.visible()
            .into_iter()
            .find(|(p, _)| *p == id)
            .map(|(_, r)| content_rect(r))
    }

    fn begin_selection(&mut self, ws: &Workspace, id: PaneId, x: u16, y: u16) {
        let Some(inner) = Self::inner_rect(ws, id) else {
            return;
        };
        if !inner.contains(Position { x, y }) {
            return;
        }
        let now = Instant::now();
        let count = match self.last_click {
            Some((at, lx, ly, n)) if now.duration_since(at) < MULTI_CLICK && (lx, ly) == (x, y) => {
                (n % 3) + 1
            }
            _ => 1,
        };
        self.last_click = Some((now, x, y, count));
        let point = (y - inner.y, x - inner.x);
        let mut sel = MouseSelection {
            pane: id,
            start: point,
            end: point,
            kind: SelectKind::Char,
            pending: count == 1,
        };
        if let Some(pane) = ws.pane(id) {
            match count {
                2 => {
                    let (a, b) = copy_mode::word_bounds(pane.screen(), point.0, point.1);
                    sel.start = (point.0, a);
                    sel.end = (point.0, b);
                }
                3 => sel.kind = SelectKind::Line,
                _ => {}
            }
        }
        self.mouse_selection = Some(sel);
    }

    /// Extends the selection; it never leaves the pane it started in.
    fn extend_selection(&mut self, ws: &Workspace, x: u16, y: u16) {
        let Some(sel) = self.mouse_selection.as_mut() else {
            return;
        };
        let Some(inner) = Self::inner_rect(ws, sel.pane) else {
            return;
        };
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let col = x.clamp(inner.x, inner.right() - 1) - inner.x;
        let row = y.clamp(inner.y, inner.bottom() - 1) - inner.y;
        sel.end = (row, col);
        sel.pending = false;
    }

    fn finish_selection(&mut self, ws: &Workspace) {
        let Some(sel) = self.mouse_selection else {
            return;
        };
        if sel.pending {
            // A plain click: nothing to copy.
            self.mouse_selection = None;
            return;
        }
        let Some(pane) = ws.pane(sel.pane) else {
            return;
        };
        let text = copy_mode::extract_screen(pane.screen(), sel.start, sel.end, sel.kind);
        if !text.is_empty() {
            self.copy_text(text);
        }
    }

    fn wheel(&mut self, ws: &mut Workspace, id: PaneId, ev: &MouseEvent) -> Outcome {
        let up = matches!(ev.kind, MouseEventKind::ScrollUp);
        if self.wants_mouse(ws, id) {
            return self.forward_mouse(ws, id, ev);
        }
        let Some(pane) = ws.pane(id) else {
            return Outcome::default();
        };
        let screen = pane.live_screen();
        if !pane.is_scrolled() && screen.alternate_screen() && self.copy.is_none() {
            // A full-screen program without mouse support (less, man): send
            // arrow keys, as xterm's alternate-scroll mode does.
            let modes = KeyModes {
                application_cursor: screen.application_cursor(),
            };
            let code = if up { KeyCode::Up } else { KeyCode::Down };
            self.scratch.clear();
            for _ in 0..WHEEL_ROWS {
                encode_key(
                    &KeyEvent::new(code, KeyModifiers::NONE),
                    modes,
                    &mut self.scratch,
                );
            }
            pane.send(&self.scratch);
            return Outcome {
                redraw: false,
                sent_to: Some(id),
            };
        }
        if let Some(copy) = self.copy.as_mut().filter(|c| c.pane == id)
            && let Some(history) = ws.pane_mut(id).and_then(|p| p.history_mut())
        {
            copy.move_by(history, if up { -WHEEL_ROWS } else { WHEEL_ROWS }, 0);
            return redraw();
        }
        ws.scroll_pane(id, if up { WHEEL_ROWS } else { -WHEEL_ROWS });
        redraw()
    }

    fn forward_mouse(&mut self, ws: &mut Workspace, id: PaneId, ev: &MouseEvent) -> Outcome {
        let Some(inner) = Self::inner_rect(ws, id) else {
            return Outcome::default();
        };
        let Some(pane) = ws.pane(id) else {
            return Outcome::default();
        };
        let screen = pane.live_screen();
        let col = ev
            .column
            .saturating_sub(inner.x)
            .min(inner.width.saturating_sub(1));
        let row = ev
            .row
            .saturating_sub(inner.y)
            .min(inner.height.saturating_sub(1));
        self.scratch.clear();
        if !encode_mouse(
            ev,
            col,
            row,
            screen.mouse_protocol_mode(),
            screen.mouse_protocol_encoding(),
            &mut self.scratch,
        ) {
            return Outcome::default();
        }
        pane.send(&self.scratch);
        Outcome {
            redraw: false,
            sent_to: Some(id),
        }
    }
}

fn pane_under(ws: &Workspace, x: u16, y: u16) -> Option<PaneId> {
    ws.visible()
        .into_iter()
        .find(|(_, r)| r.contains(Position { x, y }))
        .map(|(id, _)| id)
}

fn redraw() -> Outcome {
    Outcome {
        redraw: true,
        sent_to: None,
    }
}
