//! Routes user input: a key goes to the open popups (`popups`), newest
//! first, then walks the modal layers (`layers`); a paste goes to the
//! programs, a mouse event to `mouse`. Replays and
//! searches that finish on other threads come back here, and so does the
//! result of a save the loop made for a key.

use std::path::Path;
use std::time::Instant;

use ratatui::crossterm::event::{KeyEvent, KeyEventKind, MouseEvent};

use crate::config::action::Action;
use crate::config::appearance::Appearance;
use crate::config::keymap::Keymap;
use crate::input::layers::{self, Cx};
use crate::input::mouse::MouseInput;
use crate::input::popups::Popups;
use crate::input::popups::prompt::{Prompt, PromptKind};
use crate::input::popups::search_all::SearchAllResults;
use crate::input::popups::workspace_chooser::WorkspaceChooser;
use crate::input::search_worker::{PaneMatches, SearchMailbox, SearchReport};
use crate::input::status_facts::StatusFacts;
use crate::input::to_panes::PaneInput;
use crate::input::ui_state::UiState;
use crate::input::ui_view::UiView;
use crate::workspace::Workspace;

pub use crate::input::outcome::{Command, Outcome};

pub struct InputRouter {
    keymap: Keymap,
    ui: UiState,
    /// The open popups, newest last.
    popups: Popups,
    /// A profile name to save to (`--save-profile`, the save prompt's
    /// default); the last name saved to.
    session_name: Option<String>,
    /// The workspace's name, as `tilework ls` shows it (none outside a
    /// session).
    workspace_name: Option<String>,
    to_panes: PaneInput,
    mouse: MouseInput,
    /// Where searches started here report.
    searches: SearchMailbox,
    /// Ask before closing or quitting stops a program (`confirm_close`).
    confirm_close: bool,
    /// Theme, borders, status segments: handed to rendering with the UI.
    look: Appearance,
    facts: StatusFacts,
    /// Its terminal attached with `attach -r`.
    read_only: bool,
}

impl InputRouter {
    pub fn new(keymap: Keymap, show_fps: bool, searches: SearchMailbox) -> Self {
        Self {
            keymap,
            ui: UiState::new(show_fps),
            popups: Popups::default(),
            session_name: None,
            workspace_name: None,
            to_panes: PaneInput::new(),
            mouse: MouseInput::default(),
            searches,
            confirm_close: true,
            look: Appearance::default(),
            facts: StatusFacts::default(),
            read_only: false,
        }
    }

    /// The look rendering gets with every view of the UI; a clock segment
    /// in its status bar makes the clock one of [`Self::next_deadline`].
    pub fn with_look(mut self, look: Appearance) -> Self {
        self.facts = StatusFacts::for_layout(&look.status);
        self.look = look;
        self
    }

    /// A config read again (`source-config`): its keys, look, questions
    /// and repeat time from now on.
    pub fn reconfigure(&mut self, config: &crate::config::Config) {
        self.keymap = config.keymap.clone();
        self.confirm_close = config.confirm_close;
        self.ui = std::mem::take(&mut self.ui).with_repeat_time(config.repeat_time);
        let mut facts = StatusFacts::for_layout(&config.appearance.status);
        facts.keep_commands_of(&mut self.facts);
        self.facts = facts;
        self.look = config.appearance.clone();
    }

    /// A status command printed `shown`; whether the bar changes.
    pub fn status_command_ran(&mut self, command: &str, shown: String) -> bool {
        self.facts.command_ran(command, shown)
    }

    /// Whether to ask before closing or quitting stops a program.
    pub fn with_confirm_close(mut self, ask: bool) -> Self {
        self.confirm_close = ask;
        self
    }

    /// After a repeating command, how long its key works without the
    /// prefix (zero: never).
    pub fn with_repeat_time(mut self, time: std::time::Duration) -> Self {
        self.ui = std::mem::take(&mut self.ui).with_repeat_time(time);
        self
    }

    /// The profile name the save prompt offers at first.
    /// Input from a terminal attached with `attach -r`: it may scroll its
    /// own view, search, and detach; nothing else.
    pub fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self.facts.read_only = read_only;
        self
    }

    /// Whether its terminal was attached with `attach -r`.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// Pastes from, and copies into, `copies`: the workspace's, shared with
    /// the other terminals' routers.
    pub fn with_paste_buffers(mut self, copies: crate::input::paste_buffers::SharedCopies) -> Self {
        self.ui.buffers = crate::input::paste_buffers::PasteBuffers::sharing(copies);
        self
    }

    pub fn with_session_name(mut self, name: Option<String>) -> Self {
        self.session_name = name;
        self
    }

    /// The tabs (by serial) other terminals with views of their own show:
    /// the status bar marks them.
    pub fn set_tabs_seen_elsewhere(&mut self, tabs: Vec<u64>) {
        self.facts.seen_elsewhere = tabs;
    }

    /// The workspace's name (`C-b $` offers it); after a rename, the new.
    pub fn set_workspace_name(&mut self, name: Option<String>) {
        self.facts.workspace.clone_from(&name);
        self.workspace_name = name;
    }

    /// Where searches the loop starts for input report.
    pub fn searches(&self) -> SearchMailbox {
        self.searches.clone()
    }

    pub fn ui(&self) -> &UiState {
        &self.ui
    }

    /// The open popups.
    pub fn popups(&self) -> &Popups {
        &self.popups
    }

    /// What rendering reads.
    pub fn view(&self) -> UiView<'_> {
        UiView {
            state: &self.ui,
            popups: &self.popups,
            keymap: &self.keymap,
            look: &self.look,
            facts: &self.facts,
        }
    }

    /// Deadline of the next timed UI change (which-key popup, notice expiry).
    pub fn next_deadline(&self) -> Option<Instant> {
        [
            self.ui.next_deadline(),
            self.facts.next_deadline(),
            self.popups.next_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Applies timed UI changes that are due. Returns whether to redraw.
    pub fn tick(&mut self, now: Instant) -> bool {
        // Both, always: each forgets what is due once it is handled.
        let ui = self.ui.tick(now);
        let popups = self.popups.tick(now);
        self.facts.tick(now) | ui | popups
    }

    fn cx<'a>(&'a mut self, ws: &'a mut Workspace) -> (Cx<'a>, &'a mut MouseInput) {
        let cx = Cx {
            ws,
            ui: &mut self.ui,
            popups: &mut self.popups,
            keymap: &self.keymap,
            to_panes: &mut self.to_panes,
            session_name: self.session_name.as_deref(),
            workspace_name: self.workspace_name.as_deref(),
            searches: &self.searches,
            confirm_close: self.confirm_close,
            read_only: self.read_only,
        };
        (cx, &mut self.mouse)
    }

    pub fn handle_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        if key.kind == KeyEventKind::Release {
            return Outcome::default();
        }
        let (mut cx, _) = self.cx(ws);
        layers::dispatch(&mut cx, key)
    }

    /// Does `action` as its key would, pressed after the prefix
    /// (`tilework action`): the prefix's which-key popup, if open, closes.
    pub fn run_action(&mut self, ws: &mut Workspace, action: Action) -> Outcome {
        let (mut cx, _) = self.cx(ws);
        layers::run_action(&mut cx, action)
    }

    /// Does what a command line asks, as `C-b :` would (`tilework action
    /// rename-tab x`).
    pub fn run_command_line(
        &mut self,
        ws: &mut Workspace,
        line: crate::input::command_line::CommandLine,
    ) -> Outcome {
        let (mut cx, _) = self.cx(ws);
        layers::run_command_line(&mut cx, line)
    }

    /// The focus moved outside of input (`tilework run` opened a pane):
    /// copy mode ends if its pane lost the focus, as after a key.
    pub fn focus_moved(&mut self, ws: &mut Workspace) {
        self.ui.leave_copy_if_unfocused(ws);
    }

    pub fn handle_paste(&mut self, ws: &mut Workspace, text: &str) -> Outcome {
        // Typed text, not a resize key: the repeat is over.
        self.ui.end_repeat();
        self.cx(ws).0.paste(text)
    }

    pub fn handle_mouse(&mut self, ws: &mut Workspace, ev: &MouseEvent) -> Outcome {
        let (mut cx, mouse) = self.cx(ws);
        mouse.handle(&mut cx, ev)
    }

    /// A pane's history view may have been replayed at a new size (the
    /// pane was resized): copy mode's cursor, selection and search follow
    /// (see `copy_session::follow_resize`). Cheap when nothing changed.
    pub fn follow_resized_history(&mut self, ws: &mut Workspace) {
        self.ui.copy.follow_resize(ws, &self.searches);
    }

    /// Called when a history replay lands, so copy mode can begin: the
    /// search and the keys that waited for it run now.
    pub fn history_arrived(&mut self, ws: &mut Workspace) -> Outcome {
        let mut out = Outcome::default();
        if !self.awaits_history() {
            return out;
        }
        self.ui.copy.sync(ws);
        let (search, keys) = self.ui.copy.take_pending();
        if let Some(pattern) = search {
            self.cx(ws).0.search_copy(&pattern, false);
        }
        for key in keys {
            out.merge(self.handle_key(ws, &key));
        }
        let typed = self
            .search_prompt()
            .filter(|p| !p.text.is_empty())
            .map(|p| p.text.clone());
        if let Some(text) = typed {
            self.cx(ws).0.search_copy(&text, false);
        }
        out
    }

    /// Copy mode is waiting for its history, or the search prompt is open
    /// (both have work to do when it lands).
    fn awaits_history(&self) -> bool {
        self.ui.mode() == crate::input::ui_state::Mode::Copy || self.search_prompt().is_some()
    }

    fn search_prompt(&self) -> Option<&Prompt> {
        self.popups
            .get::<Prompt>()
            .filter(|p| p.kind == PromptKind::Search)
    }

    /// A search thread reported: a copy-mode search's matches, or one
    /// pane's part of a search across the tab.
    pub fn search_result(&mut self, ws: &mut Workspace, report: SearchReport) {
        match report {
            SearchReport::AllPanes(matches) => self.search_all_result(ws, matches),
            SearchReport::CopyMode(found) => {
                if let Some(status) = self.ui.copy.search_result(ws, found) {
                    self.cx(ws).0.show_search_status(status);
                }
            }
        }
    }

    fn search_all_result(&mut self, ws: &Workspace, result: PaneMatches) {
        if let Some(results) = self.popups.get_mut::<SearchAllResults>() {
            results.add(ws, result);
        }
    }

    /// The loop saved the workspace as profile `name` (a
    /// [`Command::SaveProfile`]): says how it went, and offers the name
    /// next time.
    /// The running workspaces came, for `C-b s`'s chooser if it is still
    /// open; `current` is this workspace. Returns whether to redraw.
    pub fn workspaces_listed(
        &mut self,
        list: &[crate::session::workspace_list::WorkspaceEntry],
        current: &str,
    ) -> bool {
        match self.popups.get_mut::<WorkspaceChooser>() {
            Some(chooser) => {
                chooser.fill(list, current);
                true
            }
            None => false,
        }
    }

    /// Tells the user something in the status bar for a moment.
    pub fn notify(&mut self, text: String) {
        self.ui.notify(text);
    }

    /// The terminal is dark (`true`) or light: a theme that follows it
    /// (`[theme] name = "auto"`) changes. Returns whether it did.
    pub fn follow_terminal_theme(&mut self, dark: bool) -> bool {
        if !self.look.theme.follows_terminal() {
            return false;
        }
        let theme = crate::config::appearance::Theme::auto(dark);
        let changed = theme != self.look.theme;
        self.look.theme = theme;
        changed
    }

    /// [`Self::notify`] until `until`: a question the loop waits on.
    pub fn notify_until(&mut self, text: String, until: std::time::Instant) {
        self.ui.notify_until(text, until);
    }

    pub fn profile_saved(&mut self, name: &str, saved: &anyhow::Result<impl AsRef<Path>>) {
        match saved {
            Ok(path) => {
                self.session_name = Some(name.to_string());
                self.ui.notify(format!(
                    "saved: tilework --profile {name}  ({})",
                    path.as_ref().display()
                ));
            }
            Err(err) => self.ui.notify(format!("not saved: {err:#}")),
        }
    }
}
