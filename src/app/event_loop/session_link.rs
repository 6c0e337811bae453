//! The loop's side of sessions (see `crate::session`): attach swaps the
//! terminal in and draws everything for it, detach stops drawing, and a
//! terminal that fails is let go (or ends the workspace, per
//! `on_hangup`) instead of ending it with an error.

use std::time::Instant;

use anyhow::Result;

use super::App;
use crate::config::hooks::HookEvent;
use crate::input::router::Command;
use crate::render::frame;
use crate::session::host::{SessionEvent, Verdict};
use crate::session::proto::DetachReason;
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Whether input stamped `at` comes from the attached terminal: events
    /// read from an earlier terminal (or none) are dropped. Without a
    /// session, all input is.
    pub(super) fn input_is_current(&self, at: Instant) -> bool {
        self.session.as_ref().is_none_or(|s| s.accepts_input(at))
    }

    /// Draws the frame that is due, unless no terminal is attached: then
    /// the frame counts as drawn (the loop goes back to sleep) and the next
    /// attach draws everything. A terminal that cannot be written to is
    /// lost, not a reason to end the workspace.
    pub(super) fn draw_if_attached(&mut self, now: Instant) -> Result<()> {
        let Some(attached) = self.session.as_ref().map(|s| s.is_attached()) else {
            return self.render();
        };
        // Detached, or the terminal stopped reading: the frame counts as
        // drawn (the loop goes back to sleep); the next attach, or the
        // terminal reading again, draws everything.
        if !attached || self.client.unsent_fd().is_some() {
            if attached {
                self.client.frame_skipped();
            }
            self.clock.begin_frame();
            self.clock.frame_done(now, false);
            return Ok(());
        }
        if let Err(err) = self.render() {
            self.terminal_failed(&err);
        }
        Ok(())
    }

    /// Writing to the attached terminal failed: it is lost, and let go
    /// (or the workspace ends, per `on_hangup`).
    fn terminal_failed(&mut self, err: &anyhow::Error) {
        tracing::warn!("writing to the terminal: {err:#}");
        if let Some(host) = &self.session {
            let verdict = host.judge_write_error();
            self.carry_out(verdict);
        }
    }

    /// The attached terminal can take more of a frame it stopped reading:
    /// sent; drawn whole at once if frames were dropped meanwhile. A
    /// terminal that fails is let go ([`Self::terminal_failed`]).
    pub(super) fn terminal_writable(&mut self) {
        match self.client.terminal_writable() {
            Ok(true) => self.clock.changed_now(),
            Ok(false) => {}
            Err(err) => self.terminal_failed(&err),
        }
    }

    /// Takes the detach command out of `commands` and carries it out.
    pub(super) fn take_session_commands(&mut self, commands: &mut Vec<Command>) {
        if !commands.contains(&Command::Detach) {
            return;
        }
        commands.retain(|c| *c != Command::Detach);
        if self.session.is_some() {
            self.carry_out(Verdict::Detach(DetachReason::Key));
        }
    }

    /// SIGHUP follows `on_hangup` in a session; every other signal (and
    /// SIGHUP without a session) ends the workspace cleanly.
    pub(super) fn on_signal(&mut self, sig: i32) {
        if sig == nix::sys::signal::Signal::SIGHUP as i32
            && let Some(host) = &self.session
        {
            let verdict = host.judge_sighup();
            tracing::info!(sig, ?verdict, "SIGHUP");
            self.carry_out(verdict);
            return;
        }
        tracing::info!(sig, "signal: shutting down");
        self.ws.quit(128 + sig);
    }

    pub(super) fn session_event(&mut self, event: SessionEvent) {
        let Some(host) = self.session.as_mut() else {
            return;
        };
        match event {
            SessionEvent::Attach(arrival) => match host.attach(arrival) {
                Ok(facts) => self.attached(facts),
                Err(err) => {
                    tracing::warn!("attaching a terminal: {err:#}");
                    // Let go of the last terminal if the attempt did.
                    if !host.is_attached() {
                        self.reopen_output();
                    }
                }
            },
            SessionEvent::Link { link, news } => {
                let verdict = host.judge(link, &news);
                self.carry_out(verdict);
            }
            SessionEvent::Info(reply) => {
                let stalled = self.client.unsent_fd().is_some();
                let _ = reply.send(host.info(self.ws.panes().count(), stalled));
            }
            SessionEvent::Kill(stream) => {
                host.add_killer(stream);
                tracing::info!("tilework kill: shutting down");
                self.ws.quit(0);
            }
            SessionEvent::Script(call) => self.script_call(call),
        }
    }

    fn carry_out(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Nothing => {}
            Verdict::Detach(reason) => {
                if let Some(host) = self.session.as_mut() {
                    host.detach(reason);
                }
                self.hooks.fire(HookEvent::ClientDetached, Vec::new());
                self.reopen_output();
            }
            Verdict::Resize => self.resize_news = true,
            Verdict::Quit(code) => self.ws.quit(code),
        }
    }

    /// The attached terminal changed size since the last turn: its size is
    /// read now, after all of the news (the last size wins), and the frame
    /// is drawn whole at it even when it is the size the loop had. The
    /// terminal may have been another size in between and cut its screen
    /// to it; the frames after this one only draw what changed, and
    /// nothing else would repair it.
    pub(super) fn follow_terminal_size(&mut self) {
        if !std::mem::take(&mut self.resize_news) {
            return;
        }
        let size = self.terminal_size();
        self.apply_size(size);
        self.clock.changed_now();
    }

    /// The drawable area of the terminal on fd 1 (the size the loop has
    /// when it cannot be read).
    fn terminal_size(&self) -> ratatui::layout::Rect {
        match crate::terminal::stdio::size() {
            Ok((cols, rows)) if cols > 0 && rows > 0 => frame::drawable_area(cols, rows),
            Ok(_) => self.client.size,
            Err(err) => {
                tracing::warn!("reading the terminal's size: {err}");
                self.client.size
            }
        }
    }

    /// Frames go to whatever is on stdio now; the last terminal is no
    /// longer held open by the frame writer.
    fn reopen_output(&mut self) {
        if let Err(err) = self.client.terminal.backend_mut().reopen() {
            tracing::warn!("reopening the terminal output: {err}");
        }
    }

    /// A terminal was attached: the workspace takes its size and what it
    /// told about itself, and draws everything on it at once.
    fn attached(&mut self, facts: crate::client::TerminalFacts) {
        self.reopen_output();
        self.hooks.fire(HookEvent::ClientAttached, Vec::new());
        self.client.told(facts);
        self.tell_panes_the_colours();
        // A reader stopped on a dead terminal reads the new one.
        self.client.input.reopen();
        let size = self.terminal_size();
        // A resize clears the screen and forgets what the last frame left,
        // so the next one is whole, even at the same size. (Not
        // `Terminal::clear`: it asks the terminal where the cursor is and
        // waits for the answer on crossterm's reader.)
        self.apply_size(size);
        self.clock.changed_now();
    }
}
