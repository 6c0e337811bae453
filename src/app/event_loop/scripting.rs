//! The loop's side of scripts' calls (`tilework action`, `send-keys`,
//! `run`, `capture`, `list-panes`; see `crate::session::script`). Each
//! call is answered within the turn that received it, with a reply posted
//! to the call's own thread, which writes it to the client: nothing here
//! waits on a client. Works the same with no terminal attached.

use std::path::PathBuf;
use std::time::Instant;

use super::App;
use crate::config::action::Action;
use crate::input::key_encoder::KeyModes;
use crate::input::router::{Command, InputRouter, Outcome};
use crate::input::script_keys;
use crate::pane::PaneId;
use crate::pane::history::as_text;
use crate::session::script::{Call, KeyArg, PaneInfo, Place, Reply};
use crate::session::script_host::ScriptCall;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::layout::Axis;
use crate::workspace::{PaneLaunch, Workspace};

impl<B: FrameSink> App<B> {
    pub(super) fn script_call(&mut self, call: ScriptCall) {
        // source-config is answered once the file is read (off the loop):
        // with its error when it is refused.
        if let Call::Action { name } = &call.call
            && name == "source-config"
        {
            self.reload
                .start(Some(call.reply), &mut self.clients, &mut self.clock);
            return;
        }
        // A wait is answered on a later turn (`command_answers`).
        if let Call::Wait(wait) = &call.call {
            match target(&self.ws, wait.pane) {
                Ok(id) => self.command_watch.wait(&self.ws, id, wait, call.reply),
                Err(refused) => {
                    let _ = call.reply.send(refused);
                }
            }
            return;
        }
        let reply = self.answer(call.call);
        // Capacity one, one reply: never blocks. The thread may have given
        // up waiting; then nobody needs the answer.
        let _ = call.reply.send(reply);
    }

    /// Takes out of `commands` what the command prompt (`C-b :`, `C-b $`)
    /// asked, and does it: a `send-keys` or `run` as for a script, its
    /// error (or the new pane's id) said in the status bar.
    pub(super) fn take_prompt_commands(
        &mut self,
        from: Option<usize>,
        commands: &mut Vec<Command>,
    ) {
        let mut rest = Vec::with_capacity(commands.len());
        for command in commands.drain(..) {
            match command {
                Command::Script(mut call) => {
                    let opens = matches!(call, Call::Run { .. });
                    if let Call::Run { cwd, .. } = &mut call {
                        // As a split opens its shell: in the focused
                        // pane's directory, which a relative one is under.
                        let here = self
                            .ws
                            .tabs()
                            .focused_id()
                            .and_then(|id| self.ws.panes().dir(id));
                        let dir = match (here, cwd.take()) {
                            (Some(here), Some(dir)) => Some(here.join(dir)),
                            (Some(here), None) => Some(here),
                            (None, dir) => dir.map(PathBuf::from),
                        };
                        *cwd = dir.map(|d| d.to_string_lossy().into_owned());
                    }
                    let said = match self.answer(call) {
                        Reply::Error(why) => Some(why),
                        Reply::Text(text) if opens => {
                            let id = String::from_utf8_lossy(&text).trim().to_string();
                            Some(format!("opened pane {id}"))
                        }
                        _ => None,
                    };
                    if let Some(said) = said {
                        self.clients.router_of(from).notify(said);
                    }
                    self.clock.changed_now();
                }
                Command::RenameWorkspace(name) => {
                    self.rename_workspace(from, name);
                    self.clock.changed_now();
                }
                other => rest.push(other),
            }
        }
        *commands = rest;
    }

    fn answer(&mut self, call: Call) -> Reply {
        match call {
            Call::Action { name } => self.script_action(&name),
            Call::SendKeys { pane, keys } => {
                let (sent, scrolled) = Desk { ws: &mut self.ws }.send_keys(pane, &keys);
                if scrolled {
                    self.clock.changed_now();
                }
                match sent {
                    Ok(id) => {
                        self.follow_outcome(None, Outcome::sent_to(id));
                        Reply::Text(Vec::new())
                    }
                    Err(refused) => refused,
                }
            }
            Call::Run {
                place,
                cwd,
                argv,
                no_save,
            } => self.script_run(place, cwd, &argv, no_save),
            Call::Capture {
                pane,
                history,
                ansi,
            } => Desk { ws: &mut self.ws }.capture(pane, history, ansi),
            Call::ListPanes => Desk { ws: &mut self.ws }.list_panes(),
            Call::Buffers { print } => buffers(self.clients.acting_router(), print),
            Call::Pipe { pane, command } => match target(&self.ws, pane) {
                Ok(id) => self.feed.pipe(id, command),
                Err(reply) => reply,
            },
            Call::Tmux { call } => self.tmux_call(call),
            Call::CaptureCommand(capture) => Desk { ws: &mut self.ws }.capture_command(&capture),
            Call::Commands { pane } => Desk { ws: &mut self.ws }.commands(pane),
            Call::Wait(_) => Reply::error("wait is for scripts (tilework wait)"),
            Call::PaneStream(call) => match target(&self.ws, Some(call.pane)) {
                Ok(id) => self.feed.streams.open(&mut self.ws, id, &call),
                Err(reply) => reply,
            },
            Call::PaneInput { pane, bytes } => match target(&self.ws, Some(pane)) {
                Ok(id) => match self.ws.panes().get(id) {
                    Some(p) if p.program().send(&bytes) => Reply::Text(Vec::new()),
                    _ => Reply::error("the pane takes no input"),
                },
                Err(reply) => reply,
            },
            Call::PaneResize { pane, cols, rows } => match target(&self.ws, Some(pane)) {
                Ok(id) => {
                    if let Some(p) = self.ws.panes_mut().get_mut(id) {
                        p.resize(rows, cols);
                    }
                    Reply::Text(Vec::new())
                }
                Err(reply) => reply,
            },
            Call::PaneClose { pane } => match target(&self.ws, Some(pane)) {
                Ok(id) => {
                    self.ws.close_pane(id, None);
                    self.clock.changed_now();
                    Reply::Text(Vec::new())
                }
                Err(reply) => reply,
            },
            Call::Subscribe(call) => {
                self.hooks
                    .subscribers
                    .add(call.pane, call.events, call.escapes)
            }
        }
    }

    /// `C-b $`: the socket is renamed on a thread (it takes the socket
    /// directory's lock, which may wait); [`Self::workspace_renamed`]
    /// follows.
    pub(super) fn rename_workspace(&mut self, from: Option<usize>, name: String) {
        let (Some(host), Some(tx)) = (&self.session, &self.queue.tx) else {
            self.clients
                .router_of(from)
                .notify("not renamed: this workspace has no session".into());
            return;
        };
        let old = host.name().to_string();
        let client = from
            .and_then(|at| self.clients.list.get(at))
            .map(crate::client::Client::router_key);
        let mailbox = crate::app::loop_event::rename_mailbox(tx, client);
        let started = crate::jobs::run("rename", mailbox, move || {
            // A saved workspace's name is taken too: a crash would
            // bring two back under one name. A running one is saved as
            // well: it is said to run (`claim::rename` refuses it).
            crate::session::dir::runtime_dir()
                .map_err(|err| format!("{err:#}"))
                .and_then(|dir| {
                    if crate::persist::is_saved(&name)
                        && !crate::session::claim::is_running(&dir, &name)
                    {
                        return Err(format!(
                            "a workspace named {name} is saved (tilework forget {name} \
                                 deletes it)"
                        ));
                    }
                    crate::session::claim::rename(&dir, &old, &name)
                        .map(|path| (name, path))
                        .map_err(|err| format!("{err:#}"))
                })
        });
        if !started {
            self.clients
                .router_of(from)
                .notify("not renamed: no thread could be started".into());
        }
    }

    /// The socket was renamed (or not): the workspace goes by its new name.
    pub(super) fn workspace_renamed(
        &mut self,
        client: Option<u64>,
        renamed: Result<(String, std::path::PathBuf), String>,
    ) {
        let said = match renamed {
            Ok((name, path)) => {
                self.ws
                    .panes_mut()
                    .spawner_mut()
                    .tmux_socket_moved(path.clone());
                if let Some(host) = self.session.as_mut() {
                    host.renamed(name.clone(), path);
                }
                if let Some(persist) = self.persist.as_mut() {
                    persist.rename(&name);
                }
                for c in &mut self.clients.list {
                    c.router.set_workspace_name(Some(name.clone()));
                }
                format!("workspace renamed to {name}")
            }
            Err(why) => format!("not renamed: {why}"),
        };
        let at =
            client.and_then(|key| self.clients.list.iter().position(|c| c.router_key() == key));
        self.clients.router_of(at).notify(said);
        self.clock.changed_now();
    }

    fn script_action(&mut self, name: &str) -> Reply {
        use crate::input::command_line::{self, CommandLine};
        let action: Action = match name.parse() {
            Ok(action) => action,
            // An action with its answer, as `C-b :` takes it (`rename-tab
            // x`, `select-tab 2`).
            Err(err) => match command_line::parse(name) {
                Ok(CommandLine::Action(action)) => action,
                Ok(CommandLine::Script(_) | CommandLine::RemoteRun(_)) => {
                    return Reply::error("`tilework send-keys` and `tilework run` do that");
                }
                Ok(line) => {
                    tracing::info!(%name, "tilework action");
                    let (router, ws) = (self.clients.acting_router(), &mut self.ws);
                    let outcome = router.run_command_line(ws, line);
                    self.follow_outcome(None, outcome);
                    return Reply::Text(Vec::new());
                }
                Err(_) => {
                    return Reply::error(format!("{err} (tilework action --list shows them)"));
                }
            },
        };
        // Refused as an error here; by keys, in the status bar.
        if self.ws.tabs().opens_pane(action)
            && let Err(why) = self.ws.panes().room_for_pane()
        {
            return Reply::Error(why);
        }
        tracing::info!(%action, "tilework action");
        let (router, ws) = (self.clients.acting_router(), &mut self.ws);
        let outcome = router.run_action(ws, action);
        self.follow_outcome(None, outcome);
        Reply::Text(Vec::new())
    }

    fn script_run(
        &mut self,
        place: Place,
        cwd: Option<String>,
        argv: &[String],
        no_save: bool,
    ) -> Reply {
        if argv.is_empty() {
            return Reply::error("no command to run");
        }
        if let Err(why) = self.ws.panes().room_for_pane() {
            return Reply::Error(why);
        }
        let (spec, label) = self
            .ws
            .panes()
            .spawner()
            .settings()
            .env
            .argv(argv, cwd.map(PathBuf::from));
        let mut launch = PaneLaunch::new(spec, label);
        launch.unsaved = no_save;
        let opened = match place {
            Place::Right => self.ws.split_with(Axis::Horizontal, launch),
            Place::Down => self.ws.split_with(Axis::Vertical, launch),
            Place::Float => self.ws.open_floating(launch),
            Place::Tab => self.ws.new_tab_with(launch),
        };
        let Some(id) = opened else {
            return Reply::error(match place {
                Place::Right | Place::Down
                    if self
                        .ws
                        .tabs()
                        .shown()
                        .is_some_and(|t| t.floats.contains(t.focus)) =>
                {
                    "the focused pane is floating and cannot be split (--float or --tab can \
                     open the pane)"
                }
                _ => "there is no tab to open the pane in",
            });
        };
        for client in &mut self.clients.list {
            client.router.focus_moved(&mut self.ws);
        }
        self.clock.changed_now();
        self.ws.panes_mut().names_mut().may_change(Instant::now());
        if let Some(err) = self
            .ws
            .panes()
            .get(id)
            .and_then(|p| p.program().spawn_error())
        {
            let message = format!("cannot run {}: {err}", argv.join(" "));
            self.ws.close_pane(id, None);
            return Reply::Error(message);
        }
        tracing::info!(?id, ?place, "tilework run");
        Reply::Text(format!("{}\n", self.ws.panes().script_id(id)).into_bytes())
    }
}

/// What scripts ask of the workspace alone: a borrow of it, for the
/// answers that need nothing else of the loop.
pub(super) struct Desk<'a> {
    pub(super) ws: &'a mut Workspace,
}

impl Desk<'_> {
    /// `tilework send-keys`: `keys` encoded for the pane's modes and
    /// sent. Returns the pane they went to, and whether it was scrolled
    /// back (it shows its live screen now) even when sending failed.
    fn send_keys(&mut self, pane: Option<u32>, keys: &[KeyArg]) -> (Result<PaneId, Reply>, bool) {
        let id = match target(self.ws, pane) {
            Ok(id) => id,
            Err(reply) => return (Err(reply), false),
        };
        let number = self.ws.panes().script_id(id);
        let Some(pane) = self.ws.panes_mut().get_mut(id) else {
            return (Err(Reply::error(format!("no pane {number}"))), false);
        };
        if pane.program().exit().is_some() || pane.program().spawn_error().is_some() {
            return (
                Err(Reply::error(format!("pane {number}'s program has ended"))),
                false,
            );
        }
        let modes = KeyModes {
            application_cursor: pane.term().screen().application_cursor(),
            kitty_flags: pane.term().keyboard_flags(),
        };
        let mut bytes = Vec::new();
        for key in keys {
            if let Err(err) = script_keys::encode(key, modes, &mut bytes) {
                return (Err(Reply::Error(err)), false);
            }
        }
        // As for a typed key: a pane scrolled back shows its live screen.
        let scrolled = pane.history().is_scrolled();
        if scrolled {
            pane.history_mut().scroll_to_bottom();
        }
        if !bytes.is_empty() && !pane.program().send(&bytes) {
            let full =
                format!("pane {number}'s program is not reading its input (its queue is full)");
            return (Err(Reply::error(full)), scrolled);
        }
        (Ok(id), scrolled)
    }

    fn capture(&mut self, pane: Option<u32>, history: bool, ansi: bool) -> Reply {
        let id = match target(self.ws, pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        let Some(pane) = self.ws.panes_mut().get_mut(id) else {
            return Reply::error(format!("no pane {}", self.ws.panes().script_id(id)));
        };
        // What arrived is on the screen, even output not yet drawn.
        pane.settle();
        if history {
            // Replaying a big history takes a while: the call's thread does.
            return Reply::Pieces(Box::new(as_text::write_history(pane, ansi)));
        }
        Reply::Text(as_text::screen_text(pane.term().screen(), ansi).into_bytes())
    }

    fn list_panes(&self) -> Reply {
        let focused = self.ws.tabs().focused_id();
        let mut panes = Vec::new();
        for (index, tab) in self.ws.tabs().iter().enumerate() {
            let tab_name = self.ws.tabs().name(index, self.ws.panes());
            let ids = tab
                .layout
                .panes()
                .into_iter()
                .chain(tab.floats.iter().map(|f| f.id));
            for id in ids {
                let Some(pane) = self.ws.panes().get(id) else {
                    continue;
                };
                let (rows, cols) = pane.term().size();
                panes.push(PaneInfo {
                    id: self.ws.panes().script_id(id),
                    tab: index + 1,
                    tab_name: tab_name.clone(),
                    title: self.ws.panes().title(id).to_string(),
                    command: pane.spec.argv.clone(),
                    cwd: self
                        .ws
                        .panes()
                        .dir(id)
                        .map(|dir| dir.to_string_lossy().into_owned()),
                    rows,
                    cols,
                    focused: focused == Some(id),
                    tab_focused: tab.focus == id,
                    floating: tab.floats.contains(id),
                    zoomed: tab.zoomed && tab.tiled_focus() == id,
                    pid: pane
                        .program()
                        .pid()
                        .filter(|_| pane.program().exit().is_none()),
                    exit_code: pane.program().exit().map(|e| e.code),
                });
            }
        }
        match serde_json::to_vec(&panes) {
            Ok(json) => Reply::Text(json),
            Err(err) => Reply::error(format!("listing the panes: {err}")),
        }
    }
}

/// Pane `pane`, or the focused one.
pub(super) fn target(ws: &Workspace, pane: Option<u32>) -> Result<PaneId, Reply> {
    match pane {
        Some(n) => ws
            .panes()
            .by_script_id(n)
            .ok_or_else(|| Reply::error(format!("no pane {n} (tilework list-panes shows them)"))),
        None => ws
            .tabs()
            .focused_id()
            .ok_or_else(|| Reply::error("no pane is focused")),
    }
}

/// The paste buffers, newest first: one line each (`0  5 chars:
/// hello`), or buffer `print` as it is.
fn buffers(router: &InputRouter, print: Option<usize>) -> Reply {
    // The copies are the workspace's (every router shares them).
    let buffers = router.ui().buffers();
    if let Some(n) = print {
        return match buffers.get(n) {
            Some(text) => Reply::Text(text.into_bytes()),
            None => Reply::error(format!("no paste buffer {n} ({} kept)", buffers.len())),
        };
    }
    let mut out = String::new();
    for (i, text) in buffers.all().iter().enumerate() {
        out.push_str(&format!(
            "{i}  {}\n",
            crate::input::paste_buffers::preview(text, 72)
        ));
    }
    Reply::Text(out.into_bytes())
}
