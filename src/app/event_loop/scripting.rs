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
use crate::input::router::Outcome;
use crate::input::script_keys;
use crate::pane::{PaneId, history_text};
use crate::session::script::{Call, KeyArg, PaneInfo, Place, Reply};
use crate::session::script_host::ScriptCall;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::PaneLaunch;
use crate::workspace::layout::Axis;

impl<B: FrameSink> App<B> {
    pub(super) fn script_call(&mut self, call: ScriptCall) {
        let reply = match call.call {
            // Answered once the file is read (off the loop): with its
            // error when it is refused.
            Call::Action { name } if name == "source-config" => {
                self.start_reload(Some(call.reply));
                return;
            }
            Call::Action { name } => self.script_action(&name),
            Call::SendKeys { pane, keys } => self.script_send_keys(pane, &keys),
            Call::Run { place, cwd, argv } => self.script_run(place, cwd, &argv),
            Call::Capture {
                pane,
                history,
                ansi,
            } => self.script_capture(pane, history, ansi),
            Call::ListPanes => self.script_list_panes(),
            Call::Buffers { print } => self.script_buffers(print),
            Call::Pipe { pane, command } => self.script_pipe(pane, command),
        };
        // Capacity one, one reply: never blocks. The thread may have given
        // up waiting; then nobody needs the answer.
        let _ = call.reply.send(reply);
    }

    /// Pane `pane`, or the focused one.
    fn script_target(&self, pane: Option<u32>) -> Result<PaneId, Reply> {
        match pane {
            Some(n) if self.ws.pane(PaneId(n)).is_some() => Ok(PaneId(n)),
            Some(n) => Err(Reply::error(format!(
                "no pane {n} (tilework list-panes shows them)"
            ))),
            None => self
                .ws
                .focused_id()
                .ok_or_else(|| Reply::error("no pane is focused")),
        }
    }

    fn script_action(&mut self, name: &str) -> Reply {
        let action: Action = match name.parse() {
            Ok(action) => action,
            Err(err) => {
                return Reply::error(format!("{err} (tilework action --list shows them)"));
            }
        };
        // Refused as an error here; by keys, in the status bar.
        if self.ws.opens_pane(action)
            && let Err(why) = self.ws.room_for_pane()
        {
            return Reply::Error(why);
        }
        tracing::info!(%action, "tilework action");
        let outcome = self.client.router.run_action(&mut self.ws, action);
        self.follow_outcome(outcome);
        Reply::Text(Vec::new())
    }

    fn script_send_keys(&mut self, pane: Option<u32>, keys: &[KeyArg]) -> Reply {
        let id = match self.script_target(pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        let Some(pane) = self.ws.pane_mut(id) else {
            return Reply::error(format!("no pane {}", id.0));
        };
        if pane.exit().is_some() || pane.spawn_error().is_some() {
            return Reply::error(format!("pane {}'s program has ended", id.0));
        }
        let modes = KeyModes {
            application_cursor: pane.live_screen().application_cursor(),
            kitty_flags: pane.keyboard_flags(),
        };
        let mut bytes = Vec::new();
        for key in keys {
            if let Err(err) = script_keys::encode(key, modes, &mut bytes) {
                return Reply::Error(err);
            }
        }
        // As for a typed key: a pane scrolled back shows its live screen.
        if pane.is_scrolled() {
            pane.scroll_to_bottom();
            self.clock.changed_now();
        }
        if !bytes.is_empty() && !pane.send(&bytes) {
            return Reply::error(format!(
                "pane {}'s program is not reading its input (its queue is full)",
                id.0
            ));
        }
        self.follow_outcome(Outcome::sent_to(id));
        Reply::Text(Vec::new())
    }

    fn script_run(&mut self, place: Place, cwd: Option<String>, argv: &[String]) -> Reply {
        if argv.is_empty() {
            return Reply::error("no command to run");
        }
        if let Err(why) = self.ws.room_for_pane() {
            return Reply::Error(why);
        }
        let (spec, label) = self.ws.settings().env.argv(argv, cwd.map(PathBuf::from));
        let launch = PaneLaunch::new(spec, label);
        let opened = match place {
            Place::Right => self.ws.split_with(Axis::Horizontal, launch),
            Place::Down => self.ws.split_with(Axis::Vertical, launch),
            Place::Float => self.ws.open_floating(launch),
            Place::Tab => self.ws.new_tab_with(launch),
        };
        let Some(id) = opened else {
            return Reply::error(match place {
                Place::Right | Place::Down
                    if self.ws.tab().is_some_and(|t| t.floats.contains(t.focus)) =>
                {
                    "the focused pane is floating and cannot be split (--float or --tab can \
                     open the pane)"
                }
                _ => "there is no tab to open the pane in",
            });
        };
        self.client.router.focus_moved(&mut self.ws);
        self.clock.changed_now();
        self.ws.names_may_change(Instant::now());
        if let Some(err) = self.ws.pane(id).and_then(|p| p.spawn_error()) {
            let message = format!("cannot run {}: {err}", argv.join(" "));
            self.ws.close_pane(id, None);
            return Reply::Error(message);
        }
        tracing::info!(?id, ?place, "tilework run");
        Reply::Text(format!("{}\n", id.0).into_bytes())
    }

    fn script_capture(&mut self, pane: Option<u32>, history: bool, ansi: bool) -> Reply {
        let id = match self.script_target(pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        let Some(pane) = self.ws.pane_mut(id) else {
            return Reply::error(format!("no pane {}", id.0));
        };
        // What arrived is on the screen, even output not yet drawn.
        pane.settle();
        if history {
            // Replaying a big history takes a while: the call's thread does.
            return Reply::Pieces(Box::new(history_text::write_history(pane, ansi)));
        }
        Reply::Text(history_text::screen_text(pane.live_screen(), ansi).into_bytes())
    }

    /// The paste buffers, newest first: one line each (`0  5 chars:
    /// hello`), or buffer `print` as it is.
    fn script_buffers(&self, print: Option<usize>) -> Reply {
        let buffers = self.client.router.ui().buffers();
        if let Some(n) = print {
            return match buffers.get(n) {
                Some(text) => Reply::Text(text.as_bytes().to_vec()),
                None => Reply::error(format!("no paste buffer {n} ({} kept)", buffers.len())),
            };
        }
        let mut out = String::new();
        for (i, text) in buffers.iter().enumerate() {
            out.push_str(&format!(
                "{i}  {}\n",
                crate::input::paste_buffers::preview(text, 72)
            ));
        }
        Reply::Text(out.into_bytes())
    }

    /// Pipes the pane's output to `command` from now on (in place of a
    /// pipe it had), or stops its pipe.
    fn script_pipe(&mut self, pane: Option<u32>, command: Option<String>) -> Reply {
        let id = match self.script_target(pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        self.pipes.retain(|(p, _)| *p != id);
        let Some(command) = command else {
            return Reply::Text(format!("pane {}: not piped\n", id.0).into_bytes());
        };
        match crate::pane::pipe::PanePipe::start(&command) {
            Ok(pipe) => {
                tracing::info!(pane = id.0, %command, "pane piped");
                self.pipes.push((id, pipe));
                Reply::Text(Vec::new())
            }
            Err(err) => Reply::error(format!("cannot run `{command}`: {err}")),
        }
    }

    fn script_list_panes(&self) -> Reply {
        let focused = self.ws.focused_id();
        let mut panes = Vec::new();
        for (index, tab) in self.ws.tabs().iter().enumerate() {
            let tab_name = self.ws.tab_name(index);
            let ids = tab
                .layout
                .panes()
                .into_iter()
                .chain(tab.floats.iter().map(|f| f.id));
            for id in ids {
                let Some(pane) = self.ws.pane(id) else {
                    continue;
                };
                let (rows, cols) = pane.size();
                panes.push(PaneInfo {
                    id: id.0,
                    tab: index + 1,
                    tab_name: tab_name.clone(),
                    title: self.ws.pane_title(id).to_string(),
                    command: pane.spec.argv.clone(),
                    cwd: self
                        .ws
                        .pane_dir(id)
                        .map(|dir| dir.to_string_lossy().into_owned()),
                    rows,
                    cols,
                    focused: focused == Some(id),
                    tab_focused: tab.focus == id,
                    floating: tab.floats.contains(id),
                    zoomed: tab.zoomed && tab.tiled_focus() == id,
                    pid: pane.pid().filter(|_| pane.exit().is_none()),
                    exit_code: pane.exit().map(|e| e.code),
                });
            }
        }
        match serde_json::to_vec(&panes) {
            Ok(json) => Reply::Text(json),
            Err(err) => Reply::error(format!("listing the panes: {err}")),
        }
    }
}
