//! Input from the attached terminals, in the loop: each client's events
//! (keys, pastes, mouse, resizes, focus) go to its router, and what the
//! router leaves to the loop (a redraw, an awaited echo, commands) is done
//! here, whoever gave the input (a terminal or a script).

use std::time::Instant;

use ratatui::crossterm::event::{Event, MouseButton, MouseEventKind};
use ratatui::layout::Position;

use super::App;
use crate::app::input_commands::Effects;
use crate::app::signals_from_programs::Around;
use crate::app::typing_throttle::TYPING_WINDOW;
use crate::input::router::{Command, Outcome};
use crate::pane::PaneId;
use crate::render::frame;
use crate::render::status_bar::tab_at;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::Workspace;

impl<B: FrameSink> App<B> {
    pub(super) fn drain_input(&mut self) {
        for at in 0..self.clients.list.len() {
            self.drain_client_input(at);
        }
    }

    /// Handles what client `at`'s terminal sent.
    pub(super) fn drain_client_input(&mut self, at: usize) {
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        let link = client.link;
        // A pane still taking a big paste: the terminal keeps the rest.
        client.input.hold_for(&self.ws, Instant::now());
        loop {
            // The client may be gone (its key detached it).
            let Some(client) = self.clients.list.get_mut(at).filter(|c| c.link == link) else {
                return;
            };
            let Some((when, ev)) = client.input.next_event() else {
                break;
            };
            self.handle_input(at, when, &ev);
            if matches!(ev, Event::Paste(_))
                && let Some(client) = self.clients.list.get_mut(at)
            {
                client.input.hold_for(&self.ws, Instant::now());
            }
        }
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        if let Some(dark) = client.input.take_theme() {
            if self.clients.follow_terminal_theme(at, dark) {
                self.clock.changed_now();
            }
            crate::app::tell_panes::theme_told(&mut self.ws, dark);
        }
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        let answers = client.input.take_signal_answers();
        if !answers.is_empty() {
            self.signals.signal_answers(
                at,
                answers,
                &mut Around {
                    ws: &mut self.ws,
                    clients: &mut self.clients,
                    clock: &mut self.clock,
                },
            );
        }
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        let late = client.input.take_late_colours();
        if !late.is_empty() {
            for (slot, colour) in late {
                client.facts.colours[slot] = Some(colour);
            }
            self.clients
                .tell_colours(&mut self.ws, self.settings.configured_colours);
        }
        // A terminal's resizes come as its client's news (the workspace is
        // in no terminal's foreground group and gets no SIGWINCH): see
        // `follow_terminal_sizes`.
    }

    pub(super) fn handle_input(&mut self, at: usize, when: Instant, ev: &Event) {
        // Tests of the exit watchdog (debug builds only): F12 makes the
        // loop stuck for good, as a kernel call that never returns would.
        #[cfg(debug_assertions)]
        if matches!(ev, Event::Key(key) if key.code == ratatui::crossterm::event::KeyCode::F(12))
            && std::env::var_os("TILEWORK_DEBUG_HANG").is_some()
        {
            tracing::warn!("TILEWORK_DEBUG_HANG is set: the loop stops here for good");
            loop {
                std::thread::park();
            }
        }
        if self.signals.clipboard_question_key(
            at,
            ev,
            &mut Around {
                ws: &mut self.ws,
                clients: &mut self.clients,
                clock: &mut self.clock,
            },
        ) {
            return;
        }
        // Its own tab and focus, if it has them, before its keys act.
        self.clients.show_own_view(&mut self.ws, at);
        if matches!(ev, Event::Key(_) | Event::Paste(_) | Event::Mouse(_))
            && !self.clients.list[at].read_only
        {
            self.client_typed(at);
        }
        // Mouse selections read the screens' contents (keys only need
        // modes, always current; copy mode and search read the history).
        if matches!(ev, Event::Mouse(_)) {
            settle_visible(&mut self.ws, |_| true);
        }
        let client = &mut self.clients.list[at];
        let outcome = match ev {
            Event::Key(key) => {
                // Timed UI changes due before the key arrived come first: a
                // key pressed after the repeat time is not a repeat, even
                // when the loop wakes for the key and the deadline at once.
                if client.router.tick(when) {
                    self.clock.changed();
                }
                client.router.handle_key(&mut self.ws, key)
            }
            Event::Paste(text) => client.router.handle_paste(&mut self.ws, text),
            Event::Mouse(mouse) => {
                // Where the click is in the frame (this terminal may show
                // the layout at another size).
                let Some(at_frame) = client.unplace(Position::new(mouse.column, mouse.row)) else {
                    return;
                };
                let mut mouse = *mouse;
                mouse.column = at_frame.x;
                mouse.row = at_frame.y;
                let frame_area = client.frame_area();
                let (_, bar) = frame::split_screen(frame_area);
                let scroll = matches!(
                    mouse.kind,
                    MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                );
                if client.read_only && !scroll {
                    Outcome::default()
                } else if bar.height > 0
                    && mouse.row == bar.y
                    && matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left))
                {
                    let switched = tab_at(&self.ws, client.router.view(), frame_area, mouse.column)
                        .is_some_and(|i| self.ws.tabs_mut().select(i));
                    Outcome::redraw_if(switched)
                } else {
                    client.router.handle_mouse(&mut self.ws, &mouse)
                }
            }
            Event::Resize(cols, rows) => {
                client.resized(frame::drawable_area(*cols, *rows));
                self.clients.fit_layout(&mut self.ws);
                Outcome::redraw()
            }
            Event::FocusGained | Event::FocusLost => {
                client.focus.outer_focus(matches!(ev, Event::FocusGained));
                Outcome::default()
            }
        };
        if outcome.redraw || outcome.sent_to.is_some() {
            self.measures.metrics.key_arrived(when);
        }
        if outcome.redraw {
            self.measures.metrics.key_reflected();
        }
        if let Some(id) = outcome.sent_to {
            let now = Instant::now();
            self.clock.typing_until(now + TYPING_WINDOW);
            self.feed.throttle.key_sent(id, now);
        }
        self.follow_outcome(Some(at), outcome);
    }

    /// What an input's outcome leads to, whoever gave the input (client
    /// `from`'s key, a script): a redraw, an awaited echo, names to look
    /// at, commands.
    pub(in crate::app) fn follow_outcome(&mut self, from: Option<usize>, outcome: Outcome) {
        if outcome.redraw {
            self.clock.changed_now();
        }
        if outcome.redraw || outcome.sent_to.is_some() {
            self.ws.panes_mut().names_mut().may_change(Instant::now());
        }
        if let Some(id) = outcome.sent_to {
            self.clock.key_sent(id);
        }
        self.perform(from, outcome.commands);
    }

    /// Does what input from client `from` (a script: `None`) left to the
    /// loop.
    pub(super) fn perform(&mut self, from: Option<usize>, mut commands: Vec<Command>) {
        if commands.is_empty() {
            return;
        }
        self.take_session_commands(from, &mut commands);
        self.take_prompt_commands(from, &mut commands);
        if super::config_reload::Reload::take_command(&mut commands) {
            self.reload.start(None, &mut self.clients, &mut self.clock);
        }
        let from = from.filter(|&at| at < self.clients.list.len());
        let (router, outbox) = match from.or_else(|| self.clients.acting()) {
            Some(at) => {
                let client = &mut self.clients.list[at];
                (&mut client.router, Some(&mut client.outbox))
            }
            None => (&mut self.clients.spare_router, None),
        };
        let mut spare_outbox = crate::terminal::outbox::Outbox::default();
        Effects {
            ws: &self.ws,
            router,
            outbox: outbox.unwrap_or(&mut spare_outbox),
            copy_command: self.settings.copy_command.as_deref(),
        }
        .perform(commands);
    }
}

/// Parses the held-back output of the visible panes `which` picks.
pub(super) fn settle_visible(ws: &mut Workspace, which: impl Fn(PaneId) -> bool) {
    for (id, _) in ws.tiling().visible(ws.tabs().shown()) {
        if which(id)
            && let Some(pane) = ws.panes_mut().get_mut(id)
        {
            pane.settle();
        }
    }
}
