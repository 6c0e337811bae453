//! The loop's side of what programs ask beyond their screens
//! (`pane::term::program_signals`): clipboard reads (`clipboard_reads`),
//! progress (`progress_forward`), kitty notifications' closes and clicks
//! (`pane::term::kitty_notify`).

use std::time::Instant;

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};

use super::clipboard_reads::{Read, Step};
use super::event_loop::App;
use crate::pane::PaneId;
use crate::pane::term::kitty_notify;
use crate::pane::term::notifications::Notification;
use crate::pane::term::program_signals::ProgramSignals;
use crate::terminal::frame_sink::FrameSink;

/// Clicks programs asked to hear of (`a=report`) kept at most.
const MAX_CLICKS_ASKED: usize = 64;

impl<B: FrameSink> App<B> {
    /// What pane `id`'s program asked since the last look.
    pub(super) fn program_signalled(&mut self, id: PaneId, signals: ProgramSignals) {
        if self.ws.attention().notifications() == crate::config::Notifications::Forward {
            for closed in &signals.closed {
                let close = kitty_notify::forward_close(id, closed);
                for client in &mut self.clients.list {
                    client.outbox.notify(close.clone());
                }
                self.clock.changed();
            }
        }
        if signals.progress.is_some() {
            self.signals.progress.told();
            // Its tab's label and its border show it.
            self.clock.changed();
        }
        if let Some(selection) = signals.clipboard_read {
            let step = self
                .signals
                .clipboard_reads
                .requested(id, selection, Instant::now());
            self.clipboard_steps(None, step.into_iter().collect());
        }
    }

    /// A key while a clipboard question is up: `y` allows the read, `n`
    /// or Esc refuses it (both taken); other keys go on as usual.
    pub(super) fn clipboard_question_key(&mut self, at: usize, ev: &Event) -> bool {
        if !self.signals.clipboard_reads.asking()
            || self.clients.list.get(at).is_none_or(|c| c.read_only)
        {
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
        let steps = self.signals.clipboard_reads.answered(yes, Instant::now());
        self.clipboard_steps(Some(at), steps);
        true
    }

    /// How pane `id`'s `notification` goes to the terminals; a click on
    /// it is reported to its program if it asked.
    pub(super) fn notification_forward(
        &mut self,
        id: PaneId,
        notification: &Notification,
    ) -> Vec<u8> {
        if let Some(told) = notification
            .kitty_id
            .as_ref()
            .filter(|k| k.report && !k.id.is_empty())
        {
            self.signals
                .clicks_asked
                .retain(|(pane, asked)| (*pane, asked) != (id, &told.id));
            if self.signals.clicks_asked.len() >= MAX_CLICKS_ASKED {
                self.signals.clicks_asked.remove(0);
            }
            self.signals.clicks_asked.push((id, told.id.clone()));
        }
        kitty_notify::forward(notification, id)
    }

    /// What client `at`'s terminal said of the loop's signals.
    pub(super) fn signal_answers(&mut self, at: usize, answers: Vec<(u32, String)>) {
        for (number, text) in answers {
            match number {
                52 => self.clipboard_answer(at, &text),
                _ => self.notification_clicked(&text),
            }
        }
    }

    /// A notification was clicked in a terminal: its pane is shown and
    /// focused, and its program told if it asked.
    fn notification_clicked(&mut self, text: &str) {
        let Some((pane, id)) = kitty_notify::activation(text) else {
            return;
        };
        if self.ws.panes().get(pane).is_none() {
            return;
        }
        if self.ws.show_pane(pane) {
            self.clock.changed_now();
        }
        let asked = self
            .signals
            .clicks_asked
            .iter()
            .position(|(p, asked)| *p == pane && asked == id);
        if let Some(asked) = asked
            && let Some(program) = self.ws.panes().get(pane)
        {
            self.signals.clicks_asked.remove(asked);
            program.program().send(&kitty_notify::activation_report(id));
        }
    }

    /// Client `at`'s terminal answered a clipboard read.
    fn clipboard_answer(&mut self, at: usize, text: &str) {
        let link = self.clients.list.get(at).and_then(|c| c.link);
        {
            let Some((read, data)) = self.signals.clipboard_reads.answer_arrived(link, text) else {
                tracing::info!("a clipboard answer nobody asked for was dropped");
                return;
            };
            if let Some(pane) = self.ws.panes().get(read.pane) {
                pane.program().send(&read.answer(&data));
            }
        }
    }

    /// Reads whose time is up are refused.
    pub(super) fn clipboard_reads_due(&mut self, now: Instant) {
        if self
            .signals
            .clipboard_reads
            .deadline()
            .is_none_or(|d| d > now)
        {
            return;
        }
        let ws = &self.ws;
        let steps = self
            .signals
            .clipboard_reads
            .due(now, |id| ws.panes().get(id).is_none());
        self.clipboard_steps(None, steps);
    }

    /// Client `at`'s terminal is dark (`true`) or light: its theme
    /// follows if it is `auto`, drawn anew.
    pub(super) fn follow_terminal_theme(&mut self, at: usize, dark: bool) {
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        if client.router.follow_terminal_theme(dark) {
            // The theme may colour every cell tilework draws: a whole frame.
            let frame = client.frame_area();
            client.refit(frame);
            self.clock.changed_now();
        }
    }

    /// Client `at` attached, or the config was read again: an `auto`
    /// theme is light or dark by the background its terminal answered
    /// (a 2031 report may follow).
    pub(super) fn theme_from_terminal(&mut self, at: usize) {
        let background = self.clients.list.get(at).and_then(|c| c.facts.colours[1]);
        if let Some(background) = background {
            let dark = crate::pane::term::fidelity::theme::is_dark(background);
            self.follow_terminal_theme(at, dark);
        }
    }

    /// Tells each terminal that speaks `OSC 9 ; 4` the worst progress of
    /// the tab on show, when it changed.
    pub(super) fn forward_progress(&mut self) {
        if !self.signals.progress.active() {
            return;
        }
        let clients = &self.clients;
        self.signals
            .progress
            .retain(|link| clients.list.iter().any(|c| c.link == Some(link)));
        let now = self
            .ws
            .tabs()
            .shown()
            .map(|tab| crate::render::progress::worst_of_tab(&self.ws, tab))
            .unwrap_or_default();
        for client in &mut self.clients.list {
            if let Some(link) = client.link
                && let Some(progress) = self.signals.progress.tell(link, now)
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
                        self.ws.panes().script_id(read.pane)
                    );
                    for client in &mut self.clients.list {
                        client.router.notify_until(question.clone(), until);
                    }
                }
                Step::Forward(read) => self.forward_clipboard_read(from, read, now),
                Step::Refuse(read) => {
                    if let Some(pane) = self.ws.panes().get(read.pane) {
                        pane.program().send(&read.answer(""));
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
        let Some(at) = from.or_else(|| self.clients.acting()) else {
            // No terminal attached: no clipboard to read.
            if let Some(pane) = self.ws.panes().get(read.pane) {
                pane.program().send(&read.answer(""));
            }
            return;
        };
        let client = &mut self.clients.list[at];
        client.outbox.signal(&read.query());
        let link = client.link;
        if from.is_some() {
            self.tell_clients("clipboard read allowed");
        }
        let refused = self.signals.clipboard_reads.forwarded(read, link, now);
        self.clipboard_steps(None, refused.into_iter().collect());
    }

    /// Replaces the question in every status bar.
    fn tell_clients(&mut self, text: &str) {
        for client in &mut self.clients.list {
            client.router.notify(text.to_owned());
        }
    }
}
