//! What the screen shows besides the panes and the popups (`popups`): the
//! mode, a notice, the which-key popup, the fps overlay switch, a mouse
//! selection, copy mode and the paste buffers. Input writes it (`layers`,
//! `mouse`, `popups`); rendering only reads it.

use std::time::{Duration, Instant};

use crate::input::copy_mode::SelectKind;
use crate::input::copy_session::CopySession;
use crate::pane::PaneId;
use crate::workspace::Workspace;

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

/// The UI model. Fields are open to the input layers that change them
/// (each its own part); everyone else reads through the methods.
#[derive(Debug, Default)]
pub struct UiState {
    pub(in crate::input) mode: Mode,
    pub(in crate::input) show_fps: bool,
    pub(in crate::input) mouse_selection: Option<MouseSelection>,
    /// tilework's own paste buffers: the last copies.
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

    pub fn fps_shown(&self) -> bool {
        self.show_fps
    }

    pub fn mouse_selection(&self) -> Option<MouseSelection> {
        self.mouse_selection
    }

    pub fn copy(&self) -> &CopySession {
        &self.copy
    }

    /// tilework's paste buffer: the newest copy.
    pub fn copy_buffer(&self) -> Option<String> {
        self.buffers.newest()
    }

    /// Every copy kept.
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
        [which, self.repeat_until, notice]
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
            .is_some_and(|pane| Some(pane) != ws.tabs().focused_id())
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

    /// Keeps `text` as the paste buffer and says so.
    pub(in crate::input) fn copied(&mut self, text: &str) {
        let chars = text.chars().count();
        self.buffers.push(text);
        self.notify(format!("copied {chars} characters"));
    }

    /// Keeps `text` as a copy (render tests).
    #[cfg(test)]
    pub(crate) fn copied_for_test(&mut self, text: &str) {
        self.buffers.push(text);
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
