//! The loop's side of what programs ask beyond their screens
//! (`pane::term::program_signals`): clipboard reads (`clipboard_reads`),
//! progress (`progress_forward`), kitty notifications' closes and clicks
//! (`pane::term::kitty_notify`). [`LoopSignals`] owns what the loop keeps
//! of them; what they act on (the workspace, the terminals, the frame
//! clock) is lent to it for each call ([`Around`]).

use std::time::Instant;

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};

use super::attached::Attached;
use super::clipboard_reads::{Read, Step};
use super::frame_clock::FrameClock;
use crate::pane::PaneId;
use crate::pane::term::kitty_notify;
use crate::pane::term::notifications::Notification;
use crate::pane::term::program_signals::ProgramSignals;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::Workspace;

/// Clicks programs asked to hear of (`a=report`) kept at most.
const MAX_CLICKS_ASKED: usize = 64;

/// The loop's state of programs' signals.
#[derive(Default)]
pub struct LoopSignals {
    /// Clipboard reads waiting on the user or a terminal.
    pub clipboard_reads: crate::app::clipboard_reads::ClipboardReads,
    /// Progress, told to the terminals that speak it.
    pub progress: crate::app::progress_forward::ProgressForward,
    /// The kitty notifications (pane, program's id) whose program asked
    /// to hear of a click, oldest first.
    pub clicks_asked: Vec<(PaneId, String)>,
}

/// What a signal acts on, lent by the loop for one call.
pub(super) struct Around<'a, B: FrameSink> {
    pub ws: &'a mut Workspace,
    pub clients: &'a mut Attached<B>,
    pub clock: &'a mut FrameClock,
}

impl LoopSignals {
    /// What pane `id`'s program asked since the last look.
    pub(super) fn program_signalled<B: FrameSink>(
        &mut self,
        id: PaneId,
        signals: ProgramSignals,
        around: &mut Around<B>,
    ) {
        if around.ws.attention().notifications() == crate::config::Notifications::Forward {
            for closed in &signals.closed {
                let close = kitty_notify::forward_close(id, closed);
                for client in &mut around.clients.list {
                    client.outbox.notify(close.clone());
                }
                around.clock.changed();
            }
        }
        if signals.progress.is_some() {
            self.progress.told();
            // Its tab's label and its border show it.
            around.clock.changed();
        }
        if let Some(selection) = signals.clipboard_read {
            let step = self
                .clipboard_reads
                .requested(id, selection, Instant::now());
            self.clipboard_steps(None, step.into_iter().collect(), around);
        }
    }

    /// A key while a clipboard question is up: `y` allows the read, `n`
    /// or Esc refuses it (both taken); other keys go on as usual.
    pub(super) fn clipboard_question_key<B: FrameSink>(
        &mut self,
        at: usize,
        ev: &Event,
        around: &mut Around<B>,
    ) -> bool {
        if !self.clipboard_reads.asking() || around.clients.list.get(at).is_none_or(|c| c.read_only)
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
        let steps = self.clipboard_reads.answered(yes, Instant::now());
        self.clipboard_steps(Some(at), steps, around);
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
            self.clicks_asked
                .retain(|(pane, asked)| (*pane, asked) != (id, &told.id));
            if self.clicks_asked.len() >= MAX_CLICKS_ASKED {
                self.clicks_asked.remove(0);
            }
            self.clicks_asked.push((id, told.id.clone()));
        }
        kitty_notify::forward(notification, id)
    }

    /// What client `at`'s terminal said of the loop's signals.
    pub(super) fn signal_answers<B: FrameSink>(
        &mut self,
        at: usize,
        answers: Vec<(u32, String)>,
        around: &mut Around<B>,
    ) {
        for (number, text) in answers {
            match number {
                52 => self.clipboard_answer(at, &text, around),
                _ => self.notification_clicked(&text, around),
            }
        }
    }

    /// A notification was clicked in a terminal: its pane is shown and
    /// focused, and its program told if it asked.
    fn notification_clicked<B: FrameSink>(&mut self, text: &str, around: &mut Around<B>) {
        let Some((pane, id)) = kitty_notify::activation(text) else {
            return;
        };
        if around.ws.panes().get(pane).is_none() {
            return;
        }
        if around.ws.show_pane(pane) {
            around.clock.changed_now();
        }
        let asked = self
            .clicks_asked
            .iter()
            .position(|(p, asked)| *p == pane && asked == id);
        if let Some(asked) = asked
            && let Some(program) = around.ws.panes().get(pane)
        {
            self.clicks_asked.remove(asked);
            program.program().send(&kitty_notify::activation_report(id));
        }
    }

    /// Client `at`'s terminal answered a clipboard read.
    fn clipboard_answer<B: FrameSink>(&mut self, at: usize, text: &str, around: &mut Around<B>) {
        let link = around.clients.list.get(at).and_then(|c| c.link);
        {
            let Some((read, data)) = self.clipboard_reads.answer_arrived(link, text) else {
                tracing::info!("a clipboard answer nobody asked for was dropped");
                return;
            };
            if let Some(pane) = around.ws.panes().get(read.pane) {
                pane.program().send(&read.answer(&data));
            }
        }
    }

    /// Reads whose time is up are refused.
    pub(super) fn clipboard_reads_due<B: FrameSink>(
        &mut self,
        now: Instant,
        around: &mut Around<B>,
    ) {
        if self.clipboard_reads.deadline().is_none_or(|d| d > now) {
            return;
        }
        let ws = &around.ws;
        let steps = self
            .clipboard_reads
            .due(now, |id| ws.panes().get(id).is_none());
        self.clipboard_steps(None, steps, around);
    }

    /// Tells each terminal that speaks `OSC 9 ; 4` the worst progress of
    /// the tab on show, when it changed.
    pub(super) fn forward_progress<B: FrameSink>(&mut self, around: &mut Around<B>) {
        if !self.progress.active() {
            return;
        }
        let clients = &around.clients;
        self.progress
            .retain(|link| clients.list.iter().any(|c| c.link == Some(link)));
        let now = around
            .ws
            .tabs()
            .shown()
            .map(|tab| crate::render::progress::worst_of_tab(around.ws, tab))
            .unwrap_or_default();
        for client in &mut around.clients.list {
            if let Some(link) = client.link
                && let Some(progress) = self.progress.tell(link, now)
            {
                client.outbox.signal(progress.osc().as_bytes());
                around.clock.changed();
            }
        }
    }

    /// Carries out `steps`; `from` is the terminal whose user answered.
    fn clipboard_steps<B: FrameSink>(
        &mut self,
        from: Option<usize>,
        steps: Vec<Step>,
        around: &mut Around<B>,
    ) {
        let now = Instant::now();
        for step in steps {
            match step {
                Step::Ask(read, until) => {
                    let question = format!(
                        "pane {} wants to read the clipboard: y/n",
                        around.ws.panes().script_id(read.pane)
                    );
                    for client in &mut around.clients.list {
                        client.router.notify_until(question.clone(), until);
                    }
                }
                Step::Forward(read) => self.forward_clipboard_read(from, read, now, around),
                Step::Refuse(read) => {
                    if let Some(pane) = around.ws.panes().get(read.pane) {
                        pane.program().send(&read.answer(""));
                    }
                    if from.is_some() {
                        around.clients.notify_all("clipboard read refused");
                    }
                }
            }
            around.clock.changed();
        }
    }

    fn forward_clipboard_read<B: FrameSink>(
        &mut self,
        from: Option<usize>,
        read: Read,
        now: Instant,
        around: &mut Around<B>,
    ) {
        let Some(at) = from.or_else(|| around.clients.acting()) else {
            // No terminal attached: no clipboard to read.
            if let Some(pane) = around.ws.panes().get(read.pane) {
                pane.program().send(&read.answer(""));
            }
            return;
        };
        let client = &mut around.clients.list[at];
        client.outbox.signal(&read.query());
        let link = client.link;
        if from.is_some() {
            around.clients.notify_all("clipboard read allowed");
        }
        let refused = self.clipboard_reads.forwarded(read, link, now);
        self.clipboard_steps(None, refused.into_iter().collect(), around);
    }
}
