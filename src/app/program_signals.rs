//! The loop's side of what programs ask beyond their screens
//! (`pane::program_signals`): clipboard reads (`clipboard_reads`) and
//! progress (`progress_forward`).

use std::time::Instant;

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};

use super::clipboard_reads::{Read, Step};
use super::event_loop::App;
use crate::pane::PaneId;
use crate::pane::program_signals::ProgramSignals;
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// What pane `id`'s program asked since the last look.
    pub(super) fn program_signalled(&mut self, id: PaneId, signals: ProgramSignals) {
        if signals.progress.is_some() {
            self.progress_forward.told();
            // Its tab's label and its border show it.
            self.clock.changed();
        }
        if let Some(selection) = signals.clipboard_read {
            let step = self
                .clipboard_reads
                .requested(id, selection, Instant::now());
            self.clipboard_steps(None, step.into_iter().collect());
        }
    }

    /// A key while a clipboard question is up: `y` allows the read, `n`
    /// or Esc refuses it (both taken); other keys go on as usual.
    pub(super) fn clipboard_question_key(&mut self, at: usize, ev: &Event) -> bool {
        if !self.clipboard_reads.asking() || self.clients.get(at).is_none_or(|c| c.read_only) {
            return false;
        }
        let Event::Key(key) = ev else {
            return false;
        };
        if key.kind == KeyEventKind::Release || !key.modifiers.is_empty() {
            return false;
        }
        let yes = match key.code {
            KeyCode::Char('y' | 'Y') => true,
            KeyCode::Char('n' | 'N') | KeyCode::Esc => false,
            _ => return false,
        };
        let steps = self.clipboard_reads.answered(yes, Instant::now());
        self.clipboard_steps(Some(at), steps);
        true
    }

    /// Client `at`'s terminal answered clipboard reads.
    pub(super) fn clipboard_answers(&mut self, at: usize, answers: Vec<String>) {
        let link = self.clients.get(at).and_then(|c| c.link);
        for text in answers {
            let Some((read, data)) = self.clipboard_reads.answer_arrived(link, &text) else {
                tracing::info!("a clipboard answer nobody asked for was dropped");
                continue;
            };
            if let Some(pane) = self.ws.pane(read.pane) {
                pane.send(&read.answer(&data));
            }
        }
    }

    /// Reads whose time is up are refused.
    pub(super) fn clipboard_reads_due(&mut self, now: Instant) {
        if self.clipboard_reads.deadline().is_none_or(|d| d > now) {
            return;
        }
        let ws = &self.ws;
        let steps = self.clipboard_reads.due(now, |id| ws.pane(id).is_none());
        self.clipboard_steps(None, steps);
    }

    /// Tells each terminal that speaks `OSC 9 ; 4` the worst progress of
    /// the tab on show, when it changed.
    pub(super) fn forward_progress(&mut self) {
        if !self.progress_forward.active() {
            return;
        }
        let clients = &self.clients;
        self.progress_forward
            .retain(|link| clients.iter().any(|c| c.link == Some(link)));
        let now = self
            .ws
            .tab()
            .map(|tab| crate::render::progress::worst_of_tab(&self.ws, tab))
            .unwrap_or_default();
        for client in &mut self.clients {
            if let Some(link) = client.link
                && let Some(progress) = self.progress_forward.tell(link, now)
            {
                client.outbox.signal(progress.osc().as_bytes());
                self.clock.changed();
            }
        }
    }

    /// Carries out `steps`; `from` is the terminal whose user answered.
    fn clipboard_steps(&mut self, from: Option<usize>, steps: Vec<Step>) {
        let now = Instant::now();
        for step in steps {
            match step {
                Step::Ask(read, until) => {
                    let question = format!(
                        "pane {} wants to read the clipboard: y/n",
                        self.ws.script_id(read.pane)
                    );
                    for client in &mut self.clients {
                        client.router.notify_until(question.clone(), until);
                    }
                }
                Step::Forward(read) => self.forward_clipboard_read(from, read, now),
                Step::Refuse(read) => {
                    if let Some(pane) = self.ws.pane(read.pane) {
                        pane.send(&read.answer(""));
                    }
                    if from.is_some() {
                        self.tell_clients("clipboard read refused");
                    }
                }
            }
            self.clock.changed();
        }
    }

    fn forward_clipboard_read(&mut self, from: Option<usize>, read: Read, now: Instant) {
        let Some(at) = from.or_else(|| self.acting_client()) else {
            // No terminal attached: no clipboard to read.
            if let Some(pane) = self.ws.pane(read.pane) {
                pane.send(&read.answer(""));
            }
            return;
        };
        let client = &mut self.clients[at];
        client.outbox.signal(&read.query());
        let link = client.link;
        if from.is_some() {
            self.tell_clients("clipboard read allowed");
        }
        let refused = self.clipboard_reads.forwarded(read, link, now);
        self.clipboard_steps(None, refused.into_iter().collect());
    }

    /// Replaces the question in every status bar.
    fn tell_clients(&mut self, text: &str) {
        for client in &mut self.clients {
            client.router.notify(text.to_owned());
        }
    }
}
