//! The workspace: tabs of layout trees over a set of panes, which pane has
//! focus, and what every [`Action`] does to them.
//!
//! Knows nothing about the user's terminal: the render loop feeds it input
//! and output and draws it. Programs start through a [`Launcher`], so with a
//! fake one every behaviour is testable headless. Time comes in as an
//! argument: a restart is a deadline the loop waits for, not a timer thread.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::pane::event::PaneMailbox;
use ratatui::layout::Rect;

use crate::config::action::{Action, Direction, Preset, RESIZE_STEP};
use crate::config::profile::{
    LayoutSpec, PaneSpec, Profile, RestartPolicy, SplitDirection, StartMode,
};
use crate::pane::Pane;
use crate::pane::PaneId;
use crate::pane::process::{Launcher, PtyLauncher};
use crate::pane::pty::{ExitInfo, SpawnSpec};
use crate::pane::spawn::{ChildEnv, current_dir};
use crate::workspace::floating::{self, Floats};
use crate::workspace::foreground::{self, Foreground};
use crate::workspace::history_editor;
use crate::workspace::layout::{Axis, BorderHandle, Layout, Node};
use crate::workspace::naming::{self, PaneName};
use crate::workspace::pane_frame::PaneFrame;
use crate::workspace::place::{PanePlace, place_of};

/// Settings the workspace needs from the config.
#[derive(Debug, Clone)]
pub struct WorkspaceSettings {
    pub env: ChildEnv,
    pub scrollback_bytes: usize,
    pub keep_exited_panes: bool,
}

pub struct Tab {
    /// The name the user (`prefix ,`) or the profile gave; `None`: named
    /// after its focused pane (see [`Workspace::tab_name`]).
    pub name: Option<String>,
    pub layout: Layout,
    pub focus: PaneId,
    pub zoomed: bool,
    /// Keys typed go to every pane of the tab.
    pub broadcast: bool,
    /// The last preset applied, so `next-layout` cycles from it.
    pub preset: Option<Preset>,
    /// A pane of this tab printed while the tab was not shown.
    pub activity: bool,
    /// A pane of this tab rang the bell while the tab was not shown.
    pub bell: bool,
    /// Panes over the layout (`C-b w`).
    pub floats: Floats,
}

impl Tab {
    pub fn new(name: Option<String>, layout: Layout, focus: PaneId) -> Self {
        Self {
            name,
            layout,
            focus,
            zoomed: false,
            broadcast: false,
            preset: None,
            activity: false,
            bell: false,
            floats: Floats::default(),
        }
    }

    /// Whether pane `id` is one of this tab's, tiled or floating.
    pub fn holds(&self, id: PaneId) -> bool {
        self.layout.contains(id) || self.floats.contains(id)
    }

    /// The focused tiled pane: the focus, or the one focused before a
    /// floating pane took it.
    pub fn tiled_focus(&self) -> PaneId {
        if self.layout.contains(self.focus) {
            return self.focus;
        }
        self.floats
            .tiled_focus
            .filter(|id| self.layout.contains(*id))
            .or_else(|| self.layout.panes().first().copied())
            .unwrap_or(self.focus)
    }

    fn floating_focused(&self) -> bool {
        self.floats.contains(self.focus)
    }

    /// Focuses pane `id` of this tab; a floating one comes to the top,
    /// and the tiled pane it takes the focus from is remembered.
    fn focus_on(&mut self, id: PaneId) {
        if self.floats.contains(id) {
            if !self.floating_focused() {
                self.floats.tiled_focus = Some(self.focus);
            }
            self.floats.raise(id);
        }
        self.focus = id;
    }
}

/// What a pane should run, before it has a size.
pub struct PaneLaunch {
    pub spec: SpawnSpec,
    pub label: String,
    /// The title the profile gave, kept when the workspace is saved.
    pub title: Option<String>,
    pub keep_open: Option<bool>,
    pub restart: RestartPolicy,
}

impl PaneLaunch {
    pub fn new(spec: SpawnSpec, label: String) -> Self {
        Self {
            spec,
            label,
            title: None,
            keep_open: None,
            restart: RestartPolicy::Never,
        }
    }
}

/// How long a command pane waits before it is started again, so a command
/// that fails at once cannot spin.
pub const RESTART_DELAY: Duration = Duration::from_secs(1);

/// A pane and what the workspace decides about it when its program ends.
struct Member {
    pane: Pane,
    /// Overrides `keep_exited_panes` (from profiles).
    keep_open: Option<bool>,
    /// Command panes (from profiles).
    restart: RestartPolicy,
    /// When the ended program starts again.
    restart_at: Option<Instant>,
    /// The title the profile gave, kept when the workspace is saved.
    title: Option<String>,
    /// What the pane is known by, as last looked up (`refresh_names`).
    name: Option<PaneName>,
    /// Its directory and git branch, looked up with the name.
    place: Option<PanePlace>,
    /// A file the pane's program was given (a history for its editor),
    /// removed when the pane goes.
    file: Option<tempfile::TempPath>,
}

/// After output or keys, how long before the workspace looks at what the
/// panes run (for names): a program started by a key has begun by then,
/// and a flood costs at most one look per this long.
pub const NAME_CHECK_DELAY: Duration = Duration::from_millis(300);

/// A floating pane held by the mouse: moved by its top border, resized by
/// its bottom right corner.
#[derive(Debug, Clone)]
struct FloatDrag {
    id: PaneId,
    /// Where the button went down.
    from: (u16, u16),
    /// The pane's rectangle then.
    rect: Rect,
    resize: bool,
}

/// How the workspace learns a pane's foreground program (tests fake it).
pub type ForegroundProbe = Box<dyn Fn(&Pane) -> Option<Foreground> + Send>;

pub struct Workspace {
    tabs: Vec<Tab>,
    active: usize,
    panes: BTreeMap<PaneId, Member>,
    next_id: u32,
    /// Where panes go: the whole terminal minus the status bar.
    area: Rect,
    settings: WorkspaceSettings,
    events: PaneMailbox,
    launcher: Box<dyn Launcher>,
    /// Set when the workspace should end, with tilework's exit status.
    exit_code: Option<i32>,
    /// The border being dragged with the mouse.
    drag: Option<BorderHandle>,
    /// The floating pane being moved or resized with the mouse.
    float_drag: Option<FloatDrag>,
    /// Boxes or dividers: how much of its rectangle a pane's content gets.
    frame: PaneFrame,
    probe: ForegroundProbe,
    /// When to look at what the panes run again, for their names.
    names_due: Option<Instant>,
    /// A history opened in the editor keeps its colours (`editor_ansi`).
    editor_ansi: bool,
    /// What programs asking for the terminal's colours are told (the
    /// attached terminal's, under the config's).
    terminal_colours: [Option<crate::config::colour::Rgb>; 3],
}

/// A pane's content area: its rectangle minus the border.
pub fn content_rect(rect: Rect) -> Rect {
    Rect {
        x: rect.x.saturating_add(1),
        y: rect.y.saturating_add(1),
        width: rect.width.saturating_sub(2),
        height: rect.height.saturating_sub(2),
    }
}

/// A profile's names and commands as borders and the status bar show them:
/// a shared profile must not put a bidi override (which turns the rest of
/// the user's terminal line around) or a control character there, any more
/// than a program's title can.
fn shown_text(text: &str) -> String {
    crate::sanitize::sanitize_title(text.as_bytes())
}

impl Workspace {
    /// A workspace whose panes run programs on PTYs.
    pub fn new(settings: WorkspaceSettings, area: Rect, events: PaneMailbox) -> Self {
        let launcher = Box::new(PtyLauncher::new(events.clone()));
        Self::with_launcher(settings, area, events, launcher)
    }

    /// A workspace whose panes' programs start through `launcher`.
    pub fn with_launcher(
        settings: WorkspaceSettings,
        area: Rect,
        events: PaneMailbox,
        launcher: Box<dyn Launcher>,
    ) -> Self {
        Self {
            tabs: Vec::new(),
            active: 0,
            panes: BTreeMap::new(),
            next_id: 1,
            area,
            settings,
            events,
            launcher,
            exit_code: None,
            drag: None,
            float_drag: None,
            frame: PaneFrame::default(),
            probe: Box::new(|pane: &Pane| pane.pid().and_then(foreground::of_process)),
            names_due: None,
            editor_ansi: false,
            terminal_colours: [None; 3],
        }
    }

    /// Histories opened in the editor (`C-b e`) keep colours as SGR.
    /// Programs asking for the terminal's colours are told `colours`, in
    /// every pane and every pane opened later.
    pub fn set_terminal_colours(&mut self, colours: [Option<crate::config::colour::Rgb>; 3]) {
        self.terminal_colours = colours;
        for pane in self.panes_mut() {
            pane.set_terminal_colours(colours);
        }
    }

    pub fn set_editor_ansi(&mut self, on: bool) {
        self.editor_ansi = on;
    }

    /// Learns panes' foreground programs from `probe` instead of the
    /// kernel (tests, whose fake programs have no process).
    #[cfg(test)]
    pub fn set_foreground_probe(&mut self, probe: ForegroundProbe) {
        self.probe = probe;
    }

    pub fn area(&self) -> Rect {
        self.area
    }

    /// The area the layouts tile (see [`PaneFrame::layout_area`]).
    fn tiles(&self) -> Rect {
        self.frame.layout_area(self.area)
    }

    /// Frames panes with boxes or dividers; every pane and its PTY follow.
    pub fn set_pane_frame(&mut self, frame: PaneFrame) {
        self.frame = frame;
        self.relayout_all();
    }

    pub fn pane_frame(&self) -> PaneFrame {
        self.frame
    }

    /// Pane `id`'s content area, from its rectangle in
    /// [`Workspace::visible`]. Floating panes always have a box.
    pub fn content_of(&self, id: PaneId, rect: Rect) -> Rect {
        if self.is_floating(id) {
            content_rect(rect)
        } else {
            self.frame.content(rect)
        }
    }

    /// Where panes' work on other threads (history replays) reports.
    pub fn events(&self) -> PaneMailbox {
        self.events.clone()
    }

    pub fn settings(&self) -> &WorkspaceSettings {
        &self.settings
    }

    fn alloc_id(&mut self) -> PaneId {
        let id = PaneId(self.next_id);
        self.next_id += 1;
        id
    }

    pub fn tab(&self) -> Option<&Tab> {
        self.tabs.get(self.active)
    }

    pub fn tabs(&self) -> &[Tab] {
        &self.tabs
    }

    /// Index of the tab shown.
    pub fn active_index(&self) -> usize {
        self.active
    }

    pub fn pane(&self, id: PaneId) -> Option<&Pane> {
        self.panes.get(&id).map(|m| &m.pane)
    }

    pub fn pane_mut(&mut self, id: PaneId) -> Option<&mut Pane> {
        self.panes.get_mut(&id).map(|m| &mut m.pane)
    }

    /// Every pane of every tab, by id.
    pub fn panes(&self) -> impl Iterator<Item = &Pane> + Clone {
        self.panes.values().map(|m| &m.pane)
    }

    pub fn panes_mut(&mut self) -> impl Iterator<Item = &mut Pane> {
        self.panes.values_mut().map(|m| &mut m.pane)
    }

    pub fn pane_ids(&self) -> impl Iterator<Item = PaneId> + '_ {
        self.panes.keys().copied()
    }

    /// Set when the workspace should end: tilework's exit status.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit_code
    }

    /// Ends the workspace with exit status `code` (a signal arrived).
    pub fn quit(&mut self, code: i32) {
        self.exit_code = Some(code);
    }

    fn tab_mut(&mut self) -> Option<&mut Tab> {
        self.tabs.get_mut(self.active)
    }

    pub fn focused_id(&self) -> Option<PaneId> {
        self.tab().map(|t| t.focus)
    }

    pub fn focused(&self) -> Option<&Pane> {
        self.focused_id().and_then(|id| self.pane(id))
    }

    pub fn focused_mut(&mut self) -> Option<&mut Pane> {
        let id = self.focused_id()?;
        self.pane_mut(id)
    }

    /// The panes on screen and their rectangles (border included), from
    /// the bottom up: the tiled ones, then the floating ones if shown.
    pub fn visible(&self) -> Vec<(PaneId, Rect)> {
        let Some(tab) = self.tab() else {
            return Vec::new();
        };
        let mut out = if tab.zoomed {
            vec![(tab.tiled_focus(), self.tiles())]
        } else {
            tab.layout.rects(self.tiles())
        };
        out.extend(tab.floats.visible().map(|f| (f.id, f.rect)));
        out
    }

    /// Whether pane `id` floats (its frame is always a box).
    pub fn is_floating(&self, id: PaneId) -> bool {
        self.tabs.iter().any(|t| t.floats.contains(id))
    }

    /// Opens every tab of a profile.
    pub fn open_profile(&mut self, profile: &Profile) {
        let mut focus_tab = None;
        for spec in &profile.tabs {
            let (node, launches, focus) = self.plan(&spec.layout);
            let layout = Layout::from_node(node);
            let first = layout.panes().first().copied().unwrap_or(PaneId(0));
            let focus_id = focus.unwrap_or(first);
            if focus.is_some() {
                focus_tab = Some(self.tabs.len());
            }
            self.tabs.push(Tab::new(
                spec.name.as_deref().map(shown_text),
                layout,
                focus_id,
            ));
            let rects = self
                .tabs
                .last()
                .map(|t| t.layout.rects(self.tiles()))
                .unwrap_or_default();
            for (id, launch) in launches {
                let rect = rects
                    .iter()
                    .find(|(p, _)| *p == id)
                    .map_or(self.tiles(), |r| r.1);
                self.start_pane(id, launch, rect);
            }
            if self.open_profile_floats(&spec.floating) {
                focus_tab = Some(self.tabs.len() - 1);
            }
        }
        self.active = focus_tab.unwrap_or(0);
    }

    /// Floats a profile's `floating` panes over the last tab opened:
    /// hidden (but the pinned) until `C-b w`, unless one has the focus.
    /// Returns whether one has.
    fn open_profile_floats(&mut self, specs: &[PaneSpec]) -> bool {
        let area = self.area;
        let mut focus = None;
        for spec in specs {
            let id = self.alloc_id();
            let launch = self.launch_for(spec);
            let Some(tab) = self.tabs.last_mut() else {
                return false;
            };
            let rect = tab.floats.place_new(area);
            tab.floats.push(id, rect);
            // Where the profile puts it, kept inside the screen.
            tab.floats
                .set_rect(id, spec.place.resolve(area, rect), area);
            let rect = tab.floats.rect(id).unwrap_or(rect);
            tab.floats.set_pinned(id, spec.pinned);
            if spec.focus {
                focus = Some(id);
            }
            self.start_pane_in(id, launch, content_rect(rect));
        }
        match (focus, self.tabs.last_mut()) {
            (Some(id), Some(tab)) => {
                tab.floats.shown = true;
                tab.focus_on(id);
                true
            }
            _ => false,
        }
    }

    /// Converts a profile's n-ary layout into our binary tree, allocating ids.
    fn plan(&mut self, spec: &LayoutSpec) -> (Node, Vec<(PaneId, PaneLaunch)>, Option<PaneId>) {
        match spec {
            LayoutSpec::Pane(pane) => {
                let id = self.alloc_id();
                let launch = self.launch_for(pane);
                (Node::Leaf(id), vec![(id, launch)], pane.focus.then_some(id))
            }
            LayoutSpec::Split {
                direction,
                weights,
                children,
            } => {
                let axis = match direction {
                    SplitDirection::Right => Axis::Horizontal,
                    SplitDirection::Down => Axis::Vertical,
                };
                let mut planned: Vec<_> = children.iter().map(|c| self.plan(c)).collect();
                let weights: Vec<f32> = if weights.len() == children.len() {
                    weights.iter().map(|&w| w.max(1) as f32).collect()
                } else {
                    vec![1.0; children.len()]
                };
                let mut launches = Vec::new();
                let mut focus = None;
                // Fold from the right: a | (b | (c | d))
                let mut node: Option<Node> = None;
                let mut rest_weight = 0.0;
                for (i, (child, l, f)) in planned.drain(..).enumerate().rev() {
                    launches.splice(0..0, l);
                    focus = focus.or(f);
                    node = Some(match node {
                        None => child,
                        Some(rest) => {
                            let w = weights.get(i).copied().unwrap_or(1.0);
                            Node::split(axis, w / (w + rest_weight), child, rest)
                        }
                    });
                    rest_weight += weights.get(i).copied().unwrap_or(1.0);
                }
                let id = self.alloc_id();
                (node.unwrap_or(Node::Leaf(id)), launches, focus)
            }
        }
    }

    fn launch_for(&self, pane: &PaneSpec) -> PaneLaunch {
        let (spec, label) = match (&pane.command, pane.start) {
            (Some(line), StartMode::Manual) => self.settings.env.on_enter(line, pane.cwd.clone()),
            (Some(line), StartMode::Auto) => self.settings.env.command_line(line, pane.cwd.clone()),
            (None, _) => self.settings.env.shell(pane.cwd.clone()),
        };
        // A profile's command pane is there to be watched: when it ends, even
        // with status 0 and no restart, its output and status stay until the
        // user closes it (as mprocs does), unless the profile says
        // `keep_open = false`. Shell panes follow `keep_exited_panes`.
        let keep_open = pane.keep_open.or(pane.command.is_some().then_some(true));
        let title = pane.title.as_deref().map(shown_text);
        PaneLaunch {
            spec,
            label: title.clone().unwrap_or_else(|| shown_text(&label)),
            title,
            keep_open,
            restart: pane.restart,
        }
    }

    /// Opens one tab whose panes run `launches` side by side.
    pub fn open_row(&mut self, launches: Vec<PaneLaunch>) {
        let ids: Vec<PaneId> = launches.iter().map(|_| self.alloc_id()).collect();
        let Some(layout) = Layout::even(Axis::Horizontal, &ids) else {
            return;
        };
        let rects = layout.rects(self.tiles());
        self.tabs.push(Tab::new(None, layout, ids[0]));
        self.active = self.tabs.len() - 1;
        for (id, launch) in ids.into_iter().zip(launches) {
            let rect = rects
                .iter()
                .find(|(p, _)| *p == id)
                .map_or(self.tiles(), |r| r.1);
            self.start_pane(id, launch, rect);
        }
    }

    fn start_pane(&mut self, id: PaneId, launch: PaneLaunch, rect: Rect) {
        let inner = self.frame.content(rect);
        self.start_pane_in(id, launch, inner);
    }

    fn start_pane_in(&mut self, id: PaneId, launch: PaneLaunch, inner: Rect) {
        let mut pane = Pane::spawn(
            id,
            launch.spec,
            launch.label,
            inner.height,
            inner.width,
            self.settings.scrollback_bytes,
            self.launcher.as_ref(),
        );
        pane.set_terminal_colours(self.terminal_colours);
        self.insert_pane(pane, launch.keep_open, launch.restart);
        if let Some(member) = self.panes.get_mut(&id) {
            member.title = launch.title;
        }
    }

    fn insert_pane(&mut self, pane: Pane, keep_open: Option<bool>, restart: RestartPolicy) {
        // Panes made elsewhere (see `open_tab_of`) keep their ids.
        self.next_id = self.next_id.max(pane.id.0.saturating_add(1));
        let member = Member {
            pane,
            keep_open,
            restart,
            restart_at: None,
            title: None,
            name: None,
            place: None,
            file: None,
        };
        self.panes.insert(member.pane.id, member);
    }

    /// Opens a tab over panes made elsewhere, e.g. [`Pane::detached`] ones
    /// fed by hand in benches and render tests. Focus goes to the layout's
    /// first pane.
    pub fn open_tab_of(&mut self, name: &str, layout: Layout, panes: Vec<Pane>) {
        let Some(&first) = layout.panes().first() else {
            return;
        };
        for pane in panes {
            self.insert_pane(pane, None, RestartPolicy::Never);
        }
        self.tabs
            .push(Tab::new(Some(name.to_string()), layout, first));
        self.active = self.tabs.len() - 1;
    }

    /// A new shell in the focused pane's directory, like zellij.
    fn shell_launch_here(&self) -> PaneLaunch {
        let cwd = self.focused().and_then(|p| current_dir(p.cwd(), p.pid()));
        let (spec, label) = self.settings.env.shell(cwd);
        PaneLaunch::new(spec, label)
    }

    /// The terminal changed size: every pane of every tab follows, PTY and
    /// parser alike.
    pub fn set_area(&mut self, area: Rect) {
        self.area = area;
        for tab in &mut self.tabs {
            tab.floats.fit(area);
        }
        self.relayout_all();
    }

    fn relayout_all(&mut self) {
        for i in 0..self.tabs.len() {
            self.relayout_tab(i);
        }
    }

    fn relayout_tab(&mut self, index: usize) {
        let Some(tab) = self.tabs.get(index) else {
            return;
        };
        let rects = if tab.zoomed {
            vec![(tab.tiled_focus(), self.tiles())]
        } else {
            tab.layout.rects(self.tiles())
        };
        let floats: Vec<(PaneId, Rect)> = tab.floats.iter().map(|f| (f.id, f.rect)).collect();
        let frame = self.frame;
        for (id, rect) in rects {
            if let Some(pane) = self.pane_mut(id) {
                let inner = frame.content(rect);
                pane.resize(inner.height, inner.width);
            }
        }
        for (id, rect) in floats {
            if let Some(pane) = self.pane_mut(id) {
                let inner = content_rect(rect);
                pane.resize(inner.height, inner.width);
            }
        }
    }

    /// Applies a workspace action. Returns whether the screen changed.
    pub fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::SplitRight => self.split(Axis::Horizontal),
            Action::SplitDown => self.split(Axis::Vertical),
            Action::Focus(dir) => self.focus_direction(dir),
            Action::FocusNext => self.focus_cycle(1),
            Action::FocusPrev => self.focus_cycle(-1),
            Action::Resize(dir) => self.resize_focused(dir, RESIZE_STEP),
            Action::ToggleZoom => self.toggle_zoom(),
            Action::ClosePane => match self.focused_id() {
                Some(id) => {
                    self.close_pane(id, None);
                    true
                }
                None => false,
            },
            Action::NewTab => self.new_tab(),
            Action::NextTab => self.select_tab((self.active + 1) % self.tabs.len().max(1)),
            Action::PrevTab => {
                let n = self.tabs.len().max(1);
                self.select_tab((self.active + n - 1) % n)
            }
            Action::GoToTab(n) => self.select_tab(usize::from(n).saturating_sub(1)),
            Action::ScrollPageUp => self.scroll_focused_pages(1),
            Action::ScrollPageDown => self.scroll_focused_pages(-1),
            Action::Quit => {
                self.exit_code = Some(0);
                true
            }
            Action::CloseTab => self.close_tab(self.active),
            Action::BreakPane => self.break_pane(),
            Action::MovePaneToNextTab => self.move_pane_to_next_tab(),
            Action::SwapNext => self.swap_focused(1),
            Action::SwapPrev => self.swap_focused(-1),
            Action::RotatePanes => self.with_tab_relayout(|tab| tab.layout.rotate()),
            Action::Layout(preset) => self.apply_preset(preset),
            Action::NextLayout => {
                let next = self
                    .tab()
                    .and_then(|t| t.preset)
                    .map_or(Preset::EvenHorizontal, Preset::next);
                self.apply_preset(next)
            }
            Action::ToggleBroadcast => match self.tab_mut() {
                Some(tab) => {
                    tab.broadcast = !tab.broadcast;
                    true
                }
                None => false,
            },
            Action::RestartPane => match self.focused_id() {
                Some(id) => self.restart_pane(id),
                None => false,
            },
            // Handled by the input router / the loop: they need a prompt, the
            // copy buffer or the terminal.
            Action::ScrollMode
            | Action::ToggleHelp
            | Action::ToggleFps
            | Action::SendPrefix
            | Action::RenameTab
            | Action::PasteBuffer
            | Action::SearchBackward
            | Action::SearchAllPanes
            | Action::SaveSession
            | Action::Detach => false,
            Action::ToggleFloating => self.toggle_floating(),
            Action::NewFloating => {
                let launch = self.shell_launch_here();
                self.open_floating(launch).is_some()
            }
            Action::ToggleEmbed => self.toggle_embed(),
            Action::MoveFloating(dir) => self.move_floating(dir),
            Action::TogglePin => self.toggle_pin(),
            Action::EditScrollback => {
                if let Some(pane) = self.focused() {
                    history_editor::start(pane, self.editor_ansi, &self.events);
                }
                // The editor opens when the file is written.
                false
            }
        }
    }

    /// Opens the user's editor on `file` (pane `from`'s history) in a new
    /// floating pane, which owns the file: it is removed when the pane
    /// closes. The pane closes when the editor exits.
    pub fn open_history_editor(
        &mut self,
        from: PaneId,
        file: tempfile::TempPath,
    ) -> Option<PaneId> {
        let editor = history_editor::from_env();
        let cwd = self.pane_dir(from);
        let (spec, _) = self
            .settings
            .env
            .argv(&history_editor::argv(&editor, &file), cwd);
        let mut launch = PaneLaunch::new(spec, editor);
        launch.keep_open = Some(false);
        let id = self.open_floating(launch)?;
        if let Some(member) = self.panes.get_mut(&id) {
            member.file = Some(file);
        }
        Some(id)
    }

    /// Floats a pane made elsewhere (a [`Pane::detached`] one in benches
    /// and render tests) over the shown tab, like [`Self::open_floating`].
    pub fn open_floating_of(&mut self, mut pane: Pane) {
        let area = self.area;
        let id = pane.id;
        let Some(tab) = self.tab_mut() else {
            return;
        };
        let rect = tab.floats.place_new(area);
        tab.floats.tiled_focus = Some(tab.tiled_focus());
        tab.floats.push(id, rect);
        tab.floats.shown = true;
        tab.focus = id;
        let inner = content_rect(rect);
        pane.resize(inner.height, inner.width);
        self.insert_pane(pane, None, RestartPolicy::Never);
    }

    /// Shows or hides the tab's floating panes; with none yet, opens a
    /// scratch shell floating.
    fn toggle_floating(&mut self) -> bool {
        let Some(tab) = self.tab() else {
            return false;
        };
        if tab.floats.is_empty() {
            let launch = self.shell_launch_here();
            return self.open_floating(launch).is_some();
        }
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if tab.floats.shown {
            tab.floats.shown = false;
            tab.focus = tab.tiled_focus();
        } else {
            tab.floats.shown = true;
            if let Some(top) = tab.floats.top() {
                tab.floats.tiled_focus = Some(tab.tiled_focus());
                tab.focus = top;
            }
        }
        true
    }

    /// Opens a pane running `launch` floating on top of the shown tab,
    /// focused. Returns its id.
    pub fn open_floating(&mut self, launch: PaneLaunch) -> Option<PaneId> {
        let area = self.area;
        let id = self.alloc_id();
        let tab = self.tab_mut()?;
        let rect = tab.floats.place_new(area);
        tab.floats.tiled_focus = Some(tab.tiled_focus());
        tab.floats.push(id, rect);
        tab.floats.shown = true;
        tab.focus = id;
        self.start_pane_in(id, launch, content_rect(rect));
        Some(id)
    }

    /// A floating pane goes into the layout next to the tiled focus; a
    /// tiled pane (not the last) comes out of it, floating.
    fn toggle_embed(&mut self) -> bool {
        let area = self.area;
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        let id = tab.focus;
        if tab.floats.contains(id) {
            let target = tab.tiled_focus();
            tab.floats.remove(id);
            if !tab.layout.split(target, Axis::Horizontal, id) {
                return false;
            }
            if tab.floats.is_empty() {
                tab.floats.shown = false;
            }
            tab.zoomed = false;
        } else {
            if tab.zoomed || !tab.layout.remove(id) {
                return false;
            }
            let rect = tab.floats.place_new(area);
            tab.floats.tiled_focus = tab.layout.panes().first().copied();
            tab.floats.push(id, rect);
            tab.floats.shown = true;
        }
        self.relayout_tab(self.active);
        true
    }

    /// Pins the focused floating pane (it stays on screen while the others
    /// are hidden) or unpins it.
    fn toggle_pin(&mut self) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        let id = tab.focus;
        let pinned = tab.floats.is_pinned(id);
        tab.floats.set_pinned(id, !pinned)
    }

    fn move_floating(&mut self, dir: Direction) -> bool {
        let area = self.area;
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        let id = tab.focus;
        if !tab.floats.is_visible(id) || !tab.floats.move_by(id, dir, RESIZE_STEP, area) {
            return false;
        }
        true
    }

    fn split(&mut self, axis: Axis) -> bool {
        let launch = self.shell_launch_here();
        self.split_with(axis, launch).is_some()
    }

    /// Splits the focused pane (a tiled one) along `axis`; the new pane,
    /// focused, runs `launch`. Returns its id.
    pub fn split_with(&mut self, axis: Axis, launch: PaneLaunch) -> Option<PaneId> {
        let target = self.focused_id()?;
        let id = self.alloc_id();
        let area = self.tiles();
        let tab = self.tab_mut()?;
        if !tab.layout.split(target, axis, id) {
            return None;
        }
        tab.zoomed = false;
        tab.focus = id;
        let rect = tab.layout.pane_rect(area, id).unwrap_or(area);
        self.start_pane(id, launch, rect);
        self.relayout_tab(self.active);
        Some(id)
    }

    /// The nearest pane that way. With floating panes on screen they
    /// count too, by where their boxes are (see
    /// [`floating::nearest_towards`]): from a tiled pane, its neighbour in
    /// the layout or a floating pane nearer that way; from a floating
    /// pane, another or a tiled pane beyond it.
    fn focus_direction(&mut self, dir: Direction) -> bool {
        let area = self.tiles();
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        let floats: Vec<(PaneId, Rect, usize)> = tab
            .floats
            .visible()
            .enumerate()
            .map(|(z, f)| (f.id, f.rect, z + 1))
            .collect();
        let tiled: Vec<(PaneId, Rect)> = if tab.zoomed {
            vec![(tab.tiled_focus(), area)]
        } else {
            tab.layout.rects(area)
        };
        let next = if let Some(&(_, from, _)) = floats.iter().find(|f| f.0 == tab.focus) {
            let others = floats.iter().copied().filter(|f| f.0 != tab.focus);
            let under = tiled.iter().map(|&(id, rect)| (id, rect, 0));
            floating::nearest_towards(from, dir, others.chain(under))
        } else {
            let neighbour = if tab.zoomed {
                None
            } else {
                tab.layout.neighbor(area, tab.focus, dir)
            };
            match tiled.iter().find(|t| t.0 == tab.focus) {
                Some(&(_, from)) if !floats.is_empty() => {
                    let near = neighbour
                        .and_then(|n| tiled.iter().find(|t| t.0 == n))
                        .map(|&(id, rect)| (id, rect, 0));
                    floating::nearest_towards(from, dir, floats.into_iter().chain(near))
                }
                _ => neighbour,
            }
        };
        match next {
            Some(next) if next != tab.focus => {
                tab.focus_on(next);
                true
            }
            _ => false,
        }
    }

    /// The next pane in the tab: the tiled ones in reading order, then
    /// the floating ones on screen in the order they were opened (each
    /// comes to the top as it gets the focus, so the order stays put).
    fn focus_cycle(&mut self, step: isize) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        let mut order = tab.layout.panes();
        let mut floats: Vec<PaneId> = tab.floats.visible().map(|f| f.id).collect();
        floats.sort();
        order.extend(floats);
        let Some(pos) = order.iter().position(|&p| p == tab.focus) else {
            return false;
        };
        let n = order.len() as isize;
        let next = order[((pos as isize + step).rem_euclid(n)) as usize];
        if next == tab.focus {
            return false;
        }
        tab.focus_on(next);
        if tab.zoomed && tab.layout.contains(next) {
            // Cycling while zoomed keeps the zoom on the new pane, like tmux -Z.
            self.relayout_tab(self.active);
        }
        true
    }

    /// Focuses the pane at a screen position (mouse click).
    pub fn focus_at(&mut self, x: u16, y: u16) -> Option<PaneId> {
        let area = self.tiles();
        let tab = self.tab_mut()?;
        // Floating panes are on top: they take the click first.
        if let Some(id) = tab.floats.at(x, y) {
            tab.focus_on(id);
            return Some(id);
        }
        if tab.zoomed {
            return Some(tab.focus);
        }
        let id = tab.layout.pane_at(area, x, y)?;
        tab.focus = id;
        Some(id)
    }

    pub fn focus_pane(&mut self, id: PaneId) {
        if let Some(tab) = self.tab_mut()
            && tab.holds(id)
        {
            if tab.floats.contains(id) && !tab.floats.is_pinned(id) {
                tab.floats.shown = true;
            }
            tab.focus_on(id);
        }
    }

    fn resize_focused(&mut self, dir: Direction, cells: u16) -> bool {
        let area = self.tiles();
        let screen = self.area;
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if tab.floating_focused() {
            let id = tab.focus;
            if !tab.floats.resize_by(id, dir, cells, screen) {
                return false;
            }
        } else if tab.zoomed || !tab.layout.resize(area, tab.focus, dir, cells) {
            return false;
        }
        self.relayout_tab(self.active);
        true
    }

    /// Starts dragging the border under the mouse, if any.
    pub fn begin_drag(&mut self, x: u16, y: u16) -> bool {
        if let Some(drag) = self.float_grab(x, y) {
            self.float_drag = Some(drag);
            self.drag = None;
            return true;
        }
        let area = self.tiles();
        let handle = self
            .tab()
            .filter(|t| !t.zoomed)
            .and_then(|t| t.layout.border_at(area, x, y));
        self.drag = handle;
        self.drag.is_some()
    }

    pub fn is_dragging(&self) -> bool {
        self.drag.is_some() || self.float_drag.is_some()
    }

    pub fn end_drag(&mut self) {
        self.drag = None;
        self.float_drag = None;
    }

    /// A press on a shown floating pane's top border (move) or bottom
    /// right corner (resize), if that is where `(x, y)` is.
    fn float_grab(&mut self, x: u16, y: u16) -> Option<FloatDrag> {
        let tab = self.tab_mut()?;
        let id = tab.floats.at(x, y)?;
        let rect = tab.floats.rect(id)?;
        let resize = x + 1 == rect.right() && y + 1 == rect.bottom();
        if y != rect.y && !resize {
            return None;
        }
        tab.focus_on(id);
        Some(FloatDrag {
            id,
            from: (x, y),
            rect,
            resize,
        })
    }

    pub fn drag_to(&mut self, x: u16, y: u16) -> bool {
        if let Some(drag) = self.float_drag.clone() {
            let area = self.area;
            let (dx, dy) = (
                i32::from(x) - i32::from(drag.from.0),
                i32::from(y) - i32::from(drag.from.1),
            );
            let shift = |v: u16, d: i32| u16::try_from((i32::from(v) + d).max(0)).unwrap_or(v);
            let r = drag.rect;
            let rect = if drag.resize {
                Rect {
                    width: shift(r.width, dx),
                    height: shift(r.height, dy),
                    ..r
                }
            } else {
                Rect {
                    x: shift(r.x, dx),
                    y: shift(r.y, dy),
                    ..r
                }
            };
            let moved = self
                .tab_mut()
                .is_some_and(|t| t.floats.set_rect(drag.id, rect, area));
            if moved {
                self.relayout_tab(self.active);
            }
            return moved;
        }
        let area = self.tiles();
        let Some(handle) = self.drag.clone() else {
            return false;
        };
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if !tab.layout.drag_border(area, &handle, x, y) {
            return false;
        }
        self.relayout_tab(self.active);
        true
    }

    fn toggle_zoom(&mut self) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if tab.floating_focused() || (tab.layout.len() < 2 && !tab.zoomed) {
            return false;
        }
        tab.zoomed = !tab.zoomed;
        self.relayout_tab(self.active);
        true
    }

    fn new_tab(&mut self) -> bool {
        let launch = self.shell_launch_here();
        self.new_tab_with(launch);
        true
    }

    /// Opens a tab, shown, whose one pane runs `launch`. Returns its id.
    pub fn new_tab_with(&mut self, launch: PaneLaunch) -> PaneId {
        let id = self.alloc_id();
        self.tabs.push(Tab::new(None, Layout::new(id), id));
        self.active = self.tabs.len() - 1;
        self.start_pane(id, launch, self.tiles());
        id
    }

    pub fn select_tab(&mut self, index: usize) -> bool {
        if index >= self.tabs.len() || index == self.active {
            return false;
        }
        self.active = index;
        if let Some(tab) = self.tabs.get_mut(index) {
            tab.activity = false;
            tab.bell = false;
        }
        true
    }

    pub fn rename_tab(&mut self, name: &str) -> bool {
        let name = crate::sanitize::sanitize_title(name.trim().as_bytes());
        match self.tab_mut() {
            Some(tab) if !name.is_empty() => {
                tab.name = Some(name);
                true
            }
            // An empty name gives the tab back its automatic one.
            Some(tab) => tab.name.take().is_some(),
            None => false,
        }
    }

    /// Marks a pane's tab for the status bar when it is not the one shown.
    /// Returns whether the tab's markers changed.
    pub fn note_activity(&mut self, id: PaneId, bell: bool) -> bool {
        let active = self.active;
        match self.tabs.iter_mut().enumerate().find(|(_, t)| t.holds(id)) {
            Some((i, tab)) if i != active => {
                let before = (tab.activity, tab.bell);
                tab.activity = true;
                tab.bell |= bell;
                before != (tab.activity, tab.bell)
            }
            _ => false,
        }
    }

    /// Which tab holds a pane.
    pub fn tab_of(&self, id: PaneId) -> Option<usize> {
        self.tabs.iter().position(|t| t.holds(id))
    }

    fn with_tab_relayout(&mut self, f: impl FnOnce(&mut Tab) -> bool) -> bool {
        let Some(tab) = self.tab_mut() else {
            return false;
        };
        if !f(tab) {
            return false;
        }
        self.relayout_tab(self.active);
        true
    }

    fn apply_preset(&mut self, preset: Preset) -> bool {
        self.with_tab_relayout(|tab| {
            let panes = tab.layout.panes();
            match Layout::preset(preset, &panes, tab.focus) {
                Some(layout) => {
                    tab.layout = layout;
                    tab.zoomed = false;
                    tab.preset = Some(preset);
                    true
                }
                None => false,
            }
        })
    }

    fn swap_focused(&mut self, step: isize) -> bool {
        self.with_tab_relayout(|tab| {
            let panes = tab.layout.panes();
            let Some(pos) = panes.iter().position(|&p| p == tab.focus) else {
                return false;
            };
            let n = panes.len() as isize;
            let other = panes[((pos as isize + step).rem_euclid(n)) as usize];
            other != tab.focus && tab.layout.swap(tab.focus, other)
        })
    }

    fn close_tab(&mut self, index: usize) -> bool {
        let Some(tab) = self.tabs.get(index) else {
            return false;
        };
        let floating = tab.floats.iter().map(|f| f.id);
        let ids: Vec<PaneId> = tab.layout.panes().into_iter().chain(floating).collect();
        for id in ids {
            if let Some(member) = self.panes.remove(&id) {
                member.pane.terminate();
            }
        }
        self.tabs.remove(index);
        if self.tabs.is_empty() {
            self.exit_code = Some(0);
        } else if self.active >= self.tabs.len() || self.active > index {
            self.active = self.active.saturating_sub(1);
        }
        true
    }

    /// Takes the focused pane out of its tab's layout; false if it is the
    /// tab's only pane.
    fn detach_focused(&mut self) -> Option<PaneId> {
        let tab = self.tab_mut()?;
        let id = tab.focus;
        let order = tab.layout.panes();
        if !tab.layout.remove(id) {
            return None;
        }
        let remaining = tab.layout.panes();
        let pos = order.iter().position(|&p| p == id).unwrap_or(0);
        tab.focus = remaining[pos.saturating_sub(1).min(remaining.len() - 1)];
        if tab.layout.len() < 2 {
            tab.zoomed = false;
        }
        self.relayout_tab(self.active);
        Some(id)
    }

    fn break_pane(&mut self) -> bool {
        let Some(id) = self.detach_focused() else {
            return false;
        };
        self.tabs.push(Tab::new(None, Layout::new(id), id));
        self.active = self.tabs.len() - 1;
        self.relayout_tab(self.active);
        true
    }

    fn move_pane_to_next_tab(&mut self) -> bool {
        if self.tabs.len() < 2 {
            return false;
        }
        let from = self.active;
        let Some(id) = self.focused_id() else {
            return false;
        };
        let alone = self.tab().is_some_and(|t| t.layout.len() == 1);
        if !alone && self.detach_focused().is_none() {
            return false;
        }
        let mut to = (from + 1) % self.tabs.len();
        if alone {
            self.tabs.remove(from);
            if to > from {
                to -= 1;
            }
        }
        let Some(tab) = self.tabs.get_mut(to) else {
            return false;
        };
        let target = tab.focus;
        tab.layout.split(target, Axis::Horizontal, id);
        tab.focus = id;
        tab.zoomed = false;
        self.active = to;
        self.relayout_tab(to);
        true
    }

    /// Runs the pane's command again in a fresh pane in the same place (a new
    /// id, so the old program's exit cannot close the new one).
    pub fn restart_pane(&mut self, old: PaneId) -> bool {
        let Some(tab_index) = self.tab_of(old) else {
            return false;
        };
        let Some(member) = self.panes.remove(&old) else {
            return false;
        };
        member.pane.terminate();
        let launch = PaneLaunch {
            spec: member.pane.spec.clone(),
            label: member.pane.label().to_string(),
            title: member.title.clone(),
            keep_open: member.keep_open,
            restart: member.restart,
        };
        let file = member.file;
        let id = self.alloc_id();
        let tiles = self.tiles();
        let tab = &mut self.tabs[tab_index];
        if let Some(float) = tab.floats.remove(old) {
            tab.floats.push(id, float.rect);
            if tab.focus == old {
                tab.focus = id;
            }
            self.start_pane_in(id, launch, content_rect(float.rect));
            if let Some(member) = self.panes.get_mut(&id) {
                member.file = file;
            }
            self.relayout_tab(tab_index);
            return true;
        }
        tab.layout.replace(old, id);
        if tab.focus == old {
            tab.focus = id;
        }
        let rect = if tab.zoomed && tab.focus == id {
            tiles
        } else {
            tab.layout.pane_rect(tiles, id).unwrap_or(tiles)
        };
        self.start_pane(id, launch, rect);
        if let Some(member) = self.panes.get_mut(&id) {
            member.file = file;
        }
        self.relayout_tab(tab_index);
        true
    }

    fn scroll_focused_pages(&mut self, pages: isize) -> bool {
        let events = self.events.clone();
        let Some(pane) = self.focused_mut() else {
            return false;
        };
        let page = pane.size().0.saturating_sub(1).max(1) as isize;
        pane.scroll(pages * page, &events);
        true
    }

    /// Scrolls a pane's history by `rows` (positive: back in time).
    pub fn scroll_pane(&mut self, id: PaneId, rows: isize) {
        let events = self.events.clone();
        if let Some(pane) = self.pane_mut(id) {
            pane.scroll(rows, &events);
        }
    }

    /// Removes a pane: kills its program, gives its space to its sibling,
    /// and ends the workspace with `exit` when it was the last one.
    pub fn close_pane(&mut self, id: PaneId, exit: Option<ExitInfo>) {
        // Even when the program already exited: what it left running in its
        // session (background jobs, a grandchild holding the PTY) goes too.
        if let Some(member) = self.panes.remove(&id) {
            member.pane.terminate();
        }
        let Some(tab_index) = self.tabs.iter().position(|t| t.holds(id)) else {
            return;
        };
        let tab = &mut self.tabs[tab_index];
        if tab.floats.remove(id).is_some() {
            if tab.focus == id {
                tab.focus = match tab.floats.top() {
                    Some(top) if tab.floats.shown => top,
                    _ => tab.tiled_focus(),
                };
            }
            if tab.floats.is_empty() {
                tab.floats.shown = false;
            }
            return;
        }
        let order = tab.layout.panes();
        if !tab.layout.remove(id) {
            // The only pane of its tab: the tab goes too.
            self.tabs.remove(tab_index);
            if self.tabs.is_empty() {
                self.exit_code = Some(exit.map_or(0, |e| e.code));
                return;
            }
            if self.active > tab_index || self.active >= self.tabs.len() {
                self.active = self.active.saturating_sub(1);
            }
            return;
        }
        if tab.focus == id {
            let pos = order.iter().position(|&p| p == id).unwrap_or(0);
            let remaining = tab.layout.panes();
            tab.focus = remaining[pos.saturating_sub(1).min(remaining.len() - 1)];
        }
        if tab.layout.len() < 2 {
            tab.zoomed = false;
        }
        self.relayout_tab(tab_index);
    }

    /// A pane's program ended (at `now`): close the pane, keep it showing
    /// the status, or (command panes) start it again [`RESTART_DELAY`]
    /// later, when the loop calls [`Workspace::run_due_restarts`].
    pub fn pane_exited(&mut self, id: PaneId, info: ExitInfo, now: Instant) {
        let keep_by_default = self.settings.keep_exited_panes;
        let Some(member) = self.panes.get_mut(&id) else {
            // Closed or restarted meanwhile; nothing of it is left to show.
            self.close_pane(id, Some(info));
            return;
        };
        member.pane.drain_pending();
        // Command panes always show how they ended, like mprocs; so does a
        // command that could not run (126: not executable, 127: not found),
        // or its error would vanish with the pane.
        let keep = member.restart != RestartPolicy::Never
            || (!info.signal && matches!(info.code, 126 | 127))
            || member.keep_open.unwrap_or(keep_by_default);
        if !keep {
            self.close_pane(id, Some(info));
            return;
        }
        member.pane.mark_exited(info);
        if member.restart.restarts(info.code) {
            member.restart_at = Some(now + RESTART_DELAY);
        }
    }

    /// When the next ended command pane is due to start again, for the
    /// loop's wait.
    pub fn next_restart(&self) -> Option<Instant> {
        self.panes.values().filter_map(|m| m.restart_at).min()
    }

    /// Starts again every command pane whose restart is due at `now`.
    /// Returns whether any did.
    pub fn run_due_restarts(&mut self, now: Instant) -> bool {
        let due: Vec<PaneId> = self
            .panes
            .iter_mut()
            .filter(|(_, m)| m.restart_at.is_some_and(|at| at <= now))
            .map(|(id, m)| {
                // Taken before trying, so a restart that cannot happen is
                // not due again on every wake-up.
                m.restart_at = None;
                *id
            })
            .collect();
        let mut restarted = false;
        for id in due {
            restarted |= self.restart_pane(id);
        }
        restarted
    }

    /// Ends every program at once (quitting).
    pub fn kill_all(&mut self) {
        for pane in self.panes() {
            pane.kill_now();
        }
        // Including panes closed moments ago and still in their grace period.
        self.launcher.kill_all();
    }

    /// Directory a new pane would start in, for saving profiles.
    pub fn pane_dir(&self, id: PaneId) -> Option<PathBuf> {
        let pane = self.pane(id)?;
        current_dir(pane.cwd(), pane.pid())
    }

    /// The name tab `index` shows: the one it was given, else what its
    /// focused pane runs (program, or directory when the shell is idle),
    /// else the pane's command.
    pub fn tab_name(&self, index: usize) -> String {
        let Some(tab) = self.tabs.get(index) else {
            return String::new();
        };
        if let Some(name) = &tab.name {
            return name.clone();
        }
        match self.panes.get(&tab.focus) {
            Some(member) => match &member.name {
                Some(name) => name.short().to_string(),
                None => member.pane.label().to_string(),
            },
            None => (index + 1).to_string(),
        }
    }

    /// What pane `id`'s border shows: the title its program set, else the
    /// one the profile gave, else the program in its foreground or the
    /// directory its idle shell is in, else its command.
    pub fn pane_title(&self, id: PaneId) -> &str {
        let Some(member) = self.panes.get(&id) else {
            return "";
        };
        let pane = &member.pane;
        pane.program_title()
            .or(member.title.as_deref())
            .or(member.name.as_ref().map(PaneName::long))
            .unwrap_or_else(|| pane.label())
    }

    /// Pane `id`'s directory and git branch, as last looked up.
    pub fn pane_place(&self, id: PaneId) -> Option<&PanePlace> {
        self.panes.get(&id).and_then(|m| m.place.as_ref())
    }

    /// The title the profile gave pane `id`, if any (saved with it).
    pub fn given_title(&self, id: PaneId) -> Option<&str> {
        self.panes.get(&id).and_then(|m| m.title.as_deref())
    }

    /// Output or keys: what the panes run may change; look again a
    /// moment later ([`NAME_CHECK_DELAY`]).
    pub fn names_may_change(&mut self, now: Instant) {
        self.names_due.get_or_insert(now + NAME_CHECK_DELAY);
    }

    /// When the loop is to call [`Workspace::check_names`].
    pub fn next_name_check(&self) -> Option<Instant> {
        self.names_due
    }

    /// Looks at what the panes run when that is due. Returns whether a
    /// name changed (the screen is to be drawn).
    pub fn check_names(&mut self, now: Instant) -> bool {
        match self.names_due {
            Some(due) if due <= now => {
                self.names_due = None;
                self.refresh_names()
            }
            _ => false,
        }
    }

    /// Looks at what every pane runs now. Returns whether a name changed.
    pub fn refresh_names(&mut self) -> bool {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut changed = false;
        for member in self.panes.values_mut() {
            let pane = &member.pane;
            let fg = (self.probe)(pane);
            let dir = current_dir(pane.cwd(), pane.pid());
            let name = naming::name_of(pane, fg.as_ref(), dir.as_deref(), home.as_deref());
            let place = dir.as_deref().map(|d| place_of(d, home.as_deref()));
            if place != member.place {
                member.place = place;
                changed = true;
            }
            if name != member.name {
                member.name = name;
                member.pane.name_changed();
                changed = true;
            }
        }
        changed
    }

    /// The programs that closing these panes would stop (more than a
    /// shell at its prompt), by name, for the question asked first.
    pub fn busy_programs(&self, ids: &[PaneId]) -> Vec<String> {
        ids.iter()
            .filter_map(|id| self.panes.get(id))
            .filter_map(|member| {
                let fg = (self.probe)(&member.pane);
                if !naming::is_busy(&member.pane, fg.as_ref()) {
                    return None;
                }
                Some(match fg {
                    Some(fg) if !fg.is_pane_process => fg.program,
                    // A command pane: its command line.
                    _ => member.pane.label().to_string(),
                })
            })
            .collect()
    }

    /// Every pane of every tab.
    pub fn all_pane_ids(&self) -> Vec<PaneId> {
        self.panes.keys().copied().collect()
    }

    /// Position of the focused pane in its tab (1-based) and the tab's size.
    pub fn focus_position(&self) -> (usize, usize) {
        match self.tab() {
            Some(tab) => {
                let panes = tab.layout.panes();
                let pos = panes.iter().position(|&p| p == tab.focus).unwrap_or(0);
                (pos + 1, panes.len())
            }
            None => (0, 0),
        }
    }
}
