//! What the screen shows besides the panes: the mode, a notice, the
//! which-key popup, help, the fps overlay switch, the prompt, the results
//! of a search across panes, a mouse selection, and copy mode. Input
//! writes it (`layers`, `mouse`); rendering only reads it.

use std::time::{Duration, Instant};

use crate::config::appearance::Appearance;
use crate::config::keymap::Keymap;
use crate::input::copy_mode::SelectKind;
use crate::input::copy_session::CopySession;
use crate::input::help::HelpView;
use crate::input::prompt::{Prompt, PromptKind};
use crate::input::status_facts::StatusFacts;
use crate::pane::PaneId;
use crate::workspace::Workspace;

pub use crate::input::search_all::SearchAllResults;

/// After the prefix, how long before the which-key popup appears.
pub const WHICH_KEY_DELAY: Duration = Duration::from_millis(500);
/// How long a notice ("copied 12 characters") stays in the status bar,
/// unless the next command or leaving copy mode takes it off first.
pub const NOTICE_TIME: Duration = Duration::from_secs(3);
/// After a repeating command (`C-b C-Left`), how long another repeating
/// key runs without the prefix; each repeat starts it again. tmux's
/// `repeat-time` default. The config's `repeat_time` sets it.
pub const REPEAT_TIME: Duration = Duration::from_millis(500);
/// How long `C-b q` shows the pane numbers (tmux's `display-panes-time`
/// is 1 s; a little longer leaves time to find the digit).
pub const PANE_NUMBERS_TIME: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Normal,
    /// The prefix was pressed; the next key is a command.
    Prefix,
    /// Keys move through the focused pane's history, select and search.
    Copy,
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

/// A close or quit that asks first: the pane's program is more than an
/// idle shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    /// What `y` does.
    pub action: crate::config::action::Action,
    /// Shown in the status bar, e.g. `close the pane running vim? (y/n)`.
    pub question: String,
}

/// The UI model. Fields are open to the input layers that change them
/// (each its own part); everyone else reads through the methods.
#[derive(Debug, Default)]
pub struct UiState {
    pub(in crate::input) mode: Mode,
    /// Help is shown, scrolled and filtered so.
    pub(in crate::input) help: Option<HelpView>,
    /// A close or quit waits for `y` (see `layers::confirm`).
    pub(in crate::input) confirm: Option<Confirm>,
    pub(in crate::input) show_fps: bool,
    pub(in crate::input) prompt: Option<Prompt>,
    pub(in crate::input) search_all: Option<SearchAllResults>,
    /// `C-b s`'s list of workspaces, open.
    pub(in crate::input) workspaces: Option<crate::input::workspace_chooser::WorkspaceChooser>,
    pub(in crate::input) mouse_selection: Option<MouseSelection>,
    /// tilework's own paste buffers: the last copies, and `C-b =`'s
    /// chooser over them.
    pub(in crate::input) buffers: crate::input::paste_buffers::PasteBuffers,
    pub(in crate::input) copy: CopySession,
    /// When the prefix was pressed, for the which-key popup.
    prefix_at: Option<Instant>,
    show_which_key: bool,
    /// A repeating command ran (`C-b C-Left`): until then, the next
    /// repeating key runs without the prefix (see `layers::repeat`).
    repeat_until: Option<Instant>,
    /// How long a repeat lasts; zero turns repeating off.
    repeat_time: Duration,
    /// A short message for the status bar and when it goes away.
    notice: Option<(String, Instant)>,
    /// The notice is about copy mode's search (its counter, its case): it
    /// goes when copy mode ends, as the search does.
    notice_is_search: bool,
    /// `C-b q`: each pane's number is shown over it until then, and a
    /// digit focuses that pane (see `layers::pane_numbers`).
    pub(in crate::input) pane_numbers_until: Option<Instant>,
}

impl UiState {
    pub fn new(show_fps: bool) -> Self {
        Self {
            show_fps,
            repeat_time: REPEAT_TIME,
            ..Self::default()
        }
    }

    /// How long a repeat lasts after a repeating command (zero: never).
    pub fn with_repeat_time(mut self, time: Duration) -> Self {
        self.repeat_time = time;
        self
    }

    // ---- what rendering reads ----

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// A repeating command ran a moment ago: its key, or another
    /// repeating one, works again without the prefix.
    pub fn repeating(&self) -> bool {
        self.repeat_until.is_some()
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|(text, _)| text.as_str())
    }

    /// The which-key popup is up (the prefix was pressed a while ago).
    pub fn which_key_shown(&self) -> bool {
        self.show_which_key && self.mode == Mode::Prefix
    }

    pub fn help_shown(&self) -> bool {
        self.help.is_some()
    }

    pub fn help(&self) -> Option<&HelpView> {
        self.help.as_ref()
    }

    /// The question a close or quit waits on.
    pub fn confirm(&self) -> Option<&Confirm> {
        self.confirm.as_ref()
    }

    /// A popup covers the panes (help, which-key, search results): the
    /// terminal's cursor is hidden, or it would blink on top of it.
    pub fn popup_shown(&self) -> bool {
        self.help_shown()
            || self.which_key_shown()
            || self.search_all.is_some()
            || self.workspaces.is_some()
            || self.buffers.chosen().is_some()
    }

    /// `C-b q`'s numbers are over the panes.
    pub fn pane_numbers_shown(&self) -> bool {
        self.pane_numbers_until.is_some()
    }

    pub fn fps_shown(&self) -> bool {
        self.show_fps
    }

    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// `C-b s`'s chooser, when open.
    pub fn workspaces(&self) -> Option<&crate::input::workspace_chooser::WorkspaceChooser> {
        self.workspaces.as_ref()
    }

    pub fn search_all(&self) -> Option<&SearchAllResults> {
        self.search_all.as_ref()
    }

    pub fn mouse_selection(&self) -> Option<MouseSelection> {
        self.mouse_selection
    }

    pub fn copy(&self) -> &CopySession {
        &self.copy
    }

    /// Shows or hides help (render tests; keys go through the layers).
    #[cfg(test)]
    pub(crate) fn set_help_shown(&mut self, shown: bool) {
        self.help = shown.then(HelpView::default);
    }

    /// Scrolls help to line `scroll` (render tests).
    #[cfg(test)]
    pub(crate) fn set_help_scroll(&mut self, scroll: usize) {
        if let Some(help) = &mut self.help {
            help.scroll = scroll;
        }
    }

    /// tilework's paste buffer: the newest copy.
    pub fn copy_buffer(&self) -> Option<String> {
        self.buffers.newest()
    }

    /// Every copy kept, and the chooser.
    pub fn buffers(&self) -> &crate::input::paste_buffers::PasteBuffers {
        &self.buffers
    }

    // ---- timed changes ----

    /// Deadline of the next timed UI change (which-key popup, the end of
    /// a repeat, notice expiry).
    pub fn next_deadline(&self) -> Option<Instant> {
        let which = match (self.mode, self.prefix_at, self.show_which_key) {
            (Mode::Prefix, Some(at), false) => Some(at + WHICH_KEY_DELAY),
            _ => None,
        };
        let notice = self.notice.as_ref().map(|(_, until)| *until);
        [which, self.repeat_until, notice, self.pane_numbers_until]
            .into_iter()
            .flatten()
            .min()
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
        if self.repeat_until.is_some_and(|until| now >= until) {
            self.repeat_until = None;
            changed = true;
        }
        if self.notice.as_ref().is_some_and(|(_, until)| now >= *until) {
            self.notice = None;
            changed = true;
        }
        if self.pane_numbers_until.is_some_and(|until| now >= until) {
            self.pane_numbers_until = None;
            changed = true;
        }
        changed
    }

    /// Shows `text` in the status bar for [`NOTICE_TIME`].
    pub fn notify(&mut self, text: String) {
        self.notice = Some((text, Instant::now() + NOTICE_TIME));
        self.notice_is_search = false;
    }

    /// Shows `text` in the status bar until `until` (a question waiting
    /// on the user's answer).
    pub fn notify_until(&mut self, text: String, until: Instant) {
        self.notice = Some((text, until));
        self.notice_is_search = false;
    }

    /// [`UiState::notify`] for copy mode's search: the notice goes when
    /// copy mode ends.
    pub(in crate::input) fn notify_search(&mut self, text: String) {
        self.notify(text);
        self.notice_is_search = true;
    }

    /// Takes the notice off the status bar before its time is up.
    pub(in crate::input) fn clear_notice(&mut self) {
        self.notice = None;
        self.notice_is_search = false;
    }

    // ---- mode changes ----

    pub(in crate::input) fn enter_prefix(&mut self) {
        self.repeat_until = None;
        self.mode = Mode::Prefix;
        self.prefix_at = Some(Instant::now());
        self.show_which_key = false;
    }

    /// The key after the prefix: back to copy mode if it is on.
    pub(in crate::input) fn leave_prefix(&mut self) {
        self.mode = if self.copy.is_active() {
            Mode::Copy
        } else {
            Mode::Normal
        };
        self.prefix_at = None;
        self.show_which_key = false;
    }

    /// A repeating command ran: the repeat time starts (again).
    pub(in crate::input) fn start_repeat(&mut self) {
        self.repeat_until =
            (!self.repeat_time.is_zero()).then(|| Instant::now() + self.repeat_time);
    }

    /// A key that does not repeat: it is handled as if no repeat had run.
    pub(in crate::input) fn end_repeat(&mut self) {
        self.repeat_until = None;
    }

    pub(in crate::input) fn enter_copy(&mut self, ws: &mut Workspace) {
        self.mode = Mode::Copy;
        self.mouse_selection = None;
        self.copy.enter(ws);
    }

    /// Copy mode ends if its pane lost the focus (after anything that
    /// may move the focus: a key, a script, a digit over `C-b q`).
    pub(in crate::input) fn leave_copy_if_unfocused(&mut self, ws: &mut Workspace) {
        if self
            .copy
            .pane()
            .is_some_and(|pane| Some(pane) != ws.focused_id())
        {
            self.leave_copy(ws);
        }
    }

    pub(in crate::input) fn leave_copy(&mut self, ws: &mut Workspace) {
        self.mode = Mode::Normal;
        self.copy.leave(ws);
        // `search: 1/1` would count matches no longer shown; a notice
        // about something else (`copied 12 characters`) stays.
        if self.notice_is_search {
            self.clear_notice();
        }
    }

    /// Copy mode is waiting for its history, or the search prompt is open
    /// (both have work to do when it lands).
    pub(in crate::input) fn awaits_history(&self) -> bool {
        self.mode == Mode::Copy || self.search_prompt().is_some()
    }

    pub(in crate::input) fn open_prompt(&mut self, kind: PromptKind, text: &str) {
        self.prompt = Some(Prompt::new(kind, text));
    }

    pub(in crate::input) fn search_prompt(&self) -> Option<&Prompt> {
        self.prompt
            .as_ref()
            .filter(|p| p.kind == PromptKind::Search)
    }

    /// Shows a copy-mode search's progress after the search prompt's text,
    /// or in the status bar once the prompt is closed (a search opened
    /// from the `C-b F` results has none).
    pub(in crate::input) fn set_search_status(&mut self, status: String) {
        if let Some(prompt) = self
            .prompt
            .as_mut()
            .filter(|p| p.kind == PromptKind::Search)
        {
            prompt.status = status;
        } else if !status.is_empty() {
            self.notify_search(format!("search: {status}"));
        }
    }

    /// Keeps `text` as the paste buffer and says so.
    pub(in crate::input) fn copied(&mut self, text: &str) {
        let chars = text.chars().count();
        self.buffers.push(text);
        self.notify(format!("copied {chars} characters"));
    }

    /// `text` added to the end of the newest copy (tmux's
    /// append-selection); the whole copy now.
    pub(in crate::input) fn appended(&mut self, text: &str) -> String {
        let whole = self.buffers.append_to_newest(text);
        let chars = whole.chars().count();
        self.notify(format!("appended: the copy has {chars} characters"));
        whole
    }
}

/// What rendering needs from input: the UI state and the keymap (for the
/// hints, the which-key popup and help), and the look the router was given
/// (theme, borders, status segments) with the status bar's clock and host.
#[derive(Clone, Copy)]
pub struct UiView<'a> {
    pub state: &'a UiState,
    pub keymap: &'a Keymap,
    pub look: &'a Appearance,
    pub facts: &'a StatusFacts,
}
