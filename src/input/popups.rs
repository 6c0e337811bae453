//! Popups and choosers: help, `C-b q`'s pane numbers, the prompt (command
//! line, renames, searches), the results of a search across panes, `C-b
//! s`'s and `C-b =`'s choosers, and a question before a close. Each is one
//! value that takes its keys and draws itself ([`Popup`], as helix's
//! `Component`), and they sit in one [`Popups`] stack, newest on top, that
//! both routes keys (top first) and draws (bottom first). A popup is drawn
//! exactly while it is in the stack, and takes keys exactly then.
//!
//! [`Cx`], what a key's handling works on, is here too: popups take it,
//! and it holds the stack.

pub mod buffer_chooser;
pub mod confirm;
pub mod help;
pub mod pane_numbers;
pub mod prompt;
pub mod search_all;
pub mod workspace_chooser;

use std::any::Any;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::config::action::Action;
use crate::config::appearance::Theme;
use crate::config::keymap::Keymap;
use crate::input::command_line::CommandLine;
use crate::input::outcome::Outcome;
use crate::input::search_worker::SearchMailbox;
use crate::input::to_panes::PaneInput;
use crate::input::ui_state::UiState;
use crate::workspace::Workspace;

/// What a layer or popup did with a key.
#[derive(Debug)]
pub enum Handled {
    /// It took the key; the layers below do not see it.
    Consumed(Outcome),
    /// Not for it: the next one down gets it.
    Pass,
}

/// Work a popup hands back to the layers, which know every action: a popup
/// names none of them (the actions open popups).
#[derive(Debug)]
pub enum FollowUp {
    /// A command line typed at `C-b :`.
    CommandLine(CommandLine),
    /// A close or quit the user said `y` to: done without asking again.
    Confirmed(Action),
}

/// A popup's answer to a key.
#[derive(Debug)]
pub struct Reply {
    pub handled: Handled,
    /// The popup closes: it leaves the stack, drawn no more.
    pub close: bool,
    pub then: Option<FollowUp>,
}

impl Reply {
    /// Took the key and stays open.
    pub fn stay(outcome: Outcome) -> Self {
        Self {
            handled: Handled::Consumed(outcome),
            close: false,
            then: None,
        }
    }

    /// Took the key and closes.
    pub fn close(outcome: Outcome) -> Self {
        Self {
            close: true,
            ..Self::stay(outcome)
        }
    }

    /// Not its key: the next one down gets it; `close` whether it goes.
    pub fn pass(close: bool) -> Self {
        Self {
            handled: Handled::Pass,
            close,
            then: None,
        }
    }

    /// And the layers do `then` after.
    pub fn then(mut self, then: FollowUp) -> Self {
        self.then = Some(then);
        self
    }
}

/// Where and with what a popup draws.
pub struct DrawCx<'a> {
    pub ws: &'a Workspace,
    pub ui: &'a UiState,
    pub keymap: &'a Keymap,
    pub theme: &'a Theme,
    /// The whole frame.
    pub screen: Rect,
    /// Above the status bar.
    pub panes: Rect,
    /// The status bar's row.
    pub bar: Rect,
}

/// One popup: its state, its keys, its drawing.
pub trait Popup: Any + std::fmt::Debug {
    /// A key while it is open. It is out of the stack meanwhile (popups
    /// it opens go above it).
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply;

    /// Draws it over what is drawn so far (the panes, the status bar and
    /// the popups below it).
    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>);

    /// It takes the status bar's place (the prompt, a question) instead
    /// of covering the panes.
    fn in_bar(&self) -> bool {
        false
    }

    /// The terminal's cursor would blink on top of it.
    fn hides_cursor(&self) -> bool {
        !self.in_bar()
    }

    /// It closes by itself then (`C-b q`'s numbers).
    fn closes_at(&self) -> Option<Instant> {
        None
    }

    /// A copy-mode search's progress; true when it shows it (the search
    /// prompt does).
    fn show_search_status(&mut self, _status: &str) -> bool {
        false
    }
}

/// The open popups, oldest first.
#[derive(Debug, Default)]
pub struct Popups {
    stack: Vec<Box<dyn Popup>>,
}

impl Popups {
    /// Opens `popup` on top; one of its kind open already goes.
    pub fn open<P: Popup>(&mut self, popup: P) {
        self.close::<P>();
        self.stack.push(Box::new(popup));
    }

    /// Closes the open one of kind `P` and returns it.
    pub fn close<P: Popup>(&mut self) -> Option<P> {
        let at = self.stack.iter().position(|p| is::<P>(p.as_ref()))?;
        let popup: Box<dyn Any> = self.stack.remove(at);
        popup.downcast::<P>().ok().map(|p| *p)
    }

    /// The open one of kind `P`.
    pub fn get<P: Popup>(&self) -> Option<&P> {
        self.stack
            .iter()
            .find_map(|p| (p.as_ref() as &dyn Any).downcast_ref::<P>())
    }

    pub fn get_mut<P: Popup>(&mut self) -> Option<&mut P> {
        self.stack
            .iter_mut()
            .find_map(|p| (p.as_mut() as &mut dyn Any).downcast_mut::<P>())
    }

    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// Some popup covers the panes (not only the status bar).
    pub fn over_panes(&self) -> bool {
        self.stack.iter().any(|p| !p.in_bar())
    }

    /// Some popup would have the cursor hidden.
    pub fn hide_cursor(&self) -> bool {
        self.stack.iter().any(|p| p.hides_cursor())
    }

    /// The prompt or a question has the status bar's place.
    pub fn hold_bar(&self) -> bool {
        self.stack.iter().any(|p| p.in_bar())
    }

    /// Draws every popup, the oldest first.
    pub fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        for popup in &self.stack {
            popup.draw(buf, at);
        }
    }

    /// Routes `key` down the stack, top first, until a popup takes it;
    /// `None` when none did (the layers below get it).
    pub fn route(cx: &mut Cx<'_>, key: &KeyEvent) -> Option<(Outcome, Option<FollowUp>)> {
        let mut at = cx.popups.stack.len();
        while at > 0 {
            at -= 1;
            let Some(mut popup) = cx.popups.take(at) else {
                continue;
            };
            let reply = popup.handle_key(cx, key);
            if !reply.close {
                let at = at.min(cx.popups.stack.len());
                cx.popups.stack.insert(at, popup);
            }
            if let Handled::Consumed(outcome) = reply.handled {
                return Some((outcome, reply.then));
            }
        }
        None
    }

    fn take(&mut self, at: usize) -> Option<Box<dyn Popup>> {
        (at < self.stack.len()).then(|| self.stack.remove(at))
    }

    /// Shows a copy-mode search's progress in the popup that shows it;
    /// false when none does.
    pub fn show_search_status(&mut self, status: &str) -> bool {
        self.stack
            .iter_mut()
            .rev()
            .any(|p| p.show_search_status(status))
    }

    /// When the next popup closes by itself.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.stack.iter().filter_map(|p| p.closes_at()).min()
    }

    /// Closes the popups whose time is up; whether any did.
    pub fn tick(&mut self, now: Instant) -> bool {
        let before = self.stack.len();
        self.stack
            .retain(|p| p.closes_at().is_none_or(|until| now < until));
        self.stack.len() != before
    }
}

fn is<P: Popup>(popup: &dyn Popup) -> bool {
    (popup as &dyn Any).is::<P>()
}

/// A `width` x `height` rectangle in the middle of `area`, shrunk to fit.
pub fn centered(area: Rect, width: u16, height: usize) -> Rect {
    let width = width.min(area.width);
    let height = u16::try_from(height).unwrap_or(u16::MAX).min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// What the layers and popups work on.
pub struct Cx<'a> {
    pub ws: &'a mut Workspace,
    pub ui: &'a mut UiState,
    /// The open popups.
    pub popups: &'a mut Popups,
    pub keymap: &'a Keymap,
    pub to_panes: &'a mut PaneInput,
    /// The profile name the save prompt offers.
    pub session_name: Option<&'a str>,
    /// The workspace's name (`tilework ls`), which `C-b $` offers.
    pub workspace_name: Option<&'a str>,
    /// Where copy-mode searches report.
    pub searches: &'a SearchMailbox,
    /// Ask before closing or quitting stops a program (`confirm_close`).
    pub confirm_close: bool,
    /// A terminal attached with `attach -r`: it looks, it does not touch.
    pub read_only: bool,
}

impl Cx<'_> {
    /// Says why a read-only terminal's input went nowhere.
    pub fn refuse_read_only(&mut self) -> Outcome {
        self.ui.notify("read-only: it does not type".into());
        Outcome::redraw()
    }

    /// A key for the programs; says so when one refuses it.
    pub fn send_key(&mut self, key: &KeyEvent) -> Outcome {
        if self.read_only {
            return self.refuse_read_only();
        }
        let delivery = self.to_panes.key(self.ws, key);
        if delivery.refused {
            self.ui
                .notify("keys refused: the program is not reading its input".into());
        }
        delivery.outcome
    }

    /// Pasted text for the programs; says so when one refuses it.
    pub fn paste(&mut self, text: &str) -> Outcome {
        if self.read_only {
            return self.refuse_read_only();
        }
        let delivery = PaneInput::paste(self.ws, text);
        if delivery.refused {
            self.ui
                .notify("paste refused: the program is not reading its input".into());
        }
        delivery.outcome
    }

    /// Starts copy-mode search for `pattern` (or switches its case); its
    /// status goes to the search prompt, or else the status bar.
    pub fn search_copy(&mut self, pattern: &str, toggle_case: bool) {
        if let Some(status) = self.copy_search(pattern, toggle_case) {
            self.show_search_status(status);
        }
    }

    /// Starts copy-mode search for `pattern` (or switches its case);
    /// returns its status for the caller to show.
    pub fn copy_search(&mut self, pattern: &str, toggle_case: bool) -> Option<String> {
        self.ui
            .copy
            .search(self.ws, pattern, toggle_case, self.searches)
    }

    /// A copy-mode search's progress: after the search prompt's text, or
    /// in the status bar once the prompt is closed (a search opened from
    /// the `C-b F` results has none).
    pub fn show_search_status(&mut self, status: String) {
        if !self.popups.show_search_status(&status) && !status.is_empty() {
            self.ui.notify_search(format!("search: {status}"));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use std::time::Duration;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};

    use super::*;
    use crate::config::appearance::Appearance;
    use crate::mailbox::Mailbox;

    const AREA: Rect = Rect {
        x: 0,
        y: 0,
        width: 30,
        height: 8,
    };

    /// A popup that fills the panes' area with its letter, takes that
    /// letter's key and closes on it, and passes every other key.
    #[derive(Debug)]
    struct Stamp<const C: char>;

    impl<const C: char> Popup for Stamp<C> {
        fn handle_key(&mut self, _cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
            if key.code == KeyCode::Char(C) {
                Reply::close(Outcome::redraw())
            } else {
                Reply::pass(false)
            }
        }

        fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
            let row = C.to_string().repeat(usize::from(at.panes.width));
            for y in at.panes.top()..at.panes.bottom() {
                buf.set_string(at.panes.x, y, &row, ratatui::style::Style::default());
            }
        }
    }

    /// What a router holds, around one stack of popups.
    struct Bench {
        ws: Workspace,
        ui: UiState,
        popups: Popups,
        keymap: Keymap,
        to_panes: PaneInput,
        searches: SearchMailbox,
        look: Appearance,
        terminal: Terminal<TestBackend>,
    }

    impl Bench {
        fn new() -> Self {
            let settings = crate::workspace::fake_workspace::settings();
            Self {
                ws: Workspace::new(settings, AREA, Mailbox::discarding()),
                ui: UiState::new(false),
                popups: Popups::default(),
                keymap: Keymap::default(),
                to_panes: PaneInput::new(),
                searches: Mailbox::discarding(),
                look: Appearance::default(),
                terminal: Terminal::new(TestBackend::new(AREA.width, AREA.height)).unwrap(),
            }
        }

        /// `key` down the stack: what took it, if a popup did.
        fn key(&mut self, c: char) -> Option<Outcome> {
            let mut cx = Cx {
                ws: &mut self.ws,
                ui: &mut self.ui,
                popups: &mut self.popups,
                keymap: &self.keymap,
                to_panes: &mut self.to_panes,
                session_name: None,
                workspace_name: None,
                searches: &self.searches,
                confirm_close: true,
                read_only: false,
            };
            let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
            Popups::route(&mut cx, &key).map(|(outcome, _)| outcome)
        }

        /// A fresh frame of only the popups; its rows.
        fn draw(&mut self) -> Vec<String> {
            let (ws, ui, popups) = (&self.ws, &self.ui, &self.popups);
            let (keymap, theme) = (&self.keymap, &self.look.theme);
            self.terminal.clear().unwrap();
            let frame = self
                .terminal
                .draw(|f| {
                    let screen = f.area();
                    let bar = Rect {
                        y: screen.bottom() - 1,
                        height: 1,
                        ..screen
                    };
                    let panes = Rect {
                        height: screen.height - 1,
                        ..screen
                    };
                    let at = DrawCx {
                        ws,
                        ui,
                        keymap,
                        theme,
                        screen,
                        panes,
                        bar,
                    };
                    popups.draw(f.buffer_mut(), &at);
                })
                .unwrap();
            let buf = frame.buffer;
            (0..buf.area.height)
                .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
                .collect()
        }
    }

    fn blank() -> Vec<String> {
        vec![" ".repeat(usize::from(AREA.width)); usize::from(AREA.height)]
    }

    #[test]
    fn a_popup_opened_is_drawn_and_takes_keys_and_closed_leaves_no_trace() {
        let mut b = Bench::new();
        assert_eq!(b.draw(), blank());
        assert!(b.key('a').is_none(), "no popup: the layers get the key");

        b.popups.open(Stamp::<'a'>);
        let rows = b.draw();
        assert!(rows[..7].iter().all(|r| r == &"a".repeat(30)), "{rows:#?}");
        assert!(b.key('x').is_none(), "a key it passes goes on down");
        assert!(b.popups.get::<Stamp<'a'>>().is_some(), "and it stays");

        assert_eq!(b.key('a'), Some(Outcome::redraw()), "its key is taken");
        assert!(b.popups.is_empty());
        assert_eq!(b.draw(), blank(), "closed, nothing of it is drawn");
        assert!(b.key('a').is_none(), "nor does it take keys");
    }

    #[test]
    fn the_newest_popup_takes_keys_first_and_is_drawn_on_top() {
        let mut b = Bench::new();
        b.popups.open(Stamp::<'a'>);
        b.popups.open(Stamp::<'b'>);
        assert_eq!(b.draw()[0], "b".repeat(30));
        // `b` passes `a` down to the older popup, which takes it and goes.
        assert!(b.key('a').is_some());
        assert!(b.popups.get::<Stamp<'a'>>().is_none());
        assert_eq!(b.draw()[0], "b".repeat(30));
        assert!(b.key('b').is_some());
        assert_eq!(b.draw(), blank());
    }

    #[test]
    fn opening_a_popup_again_keeps_one_of_its_kind_on_top() {
        let mut b = Bench::new();
        b.popups.open(Stamp::<'a'>);
        b.popups.open(Stamp::<'b'>);
        b.popups.open(Stamp::<'a'>);
        assert_eq!(b.popups.len(), 2);
        assert_eq!(b.draw()[0], "a".repeat(30), "the one opened last on top");
    }

    #[test]
    fn real_popups_draw_where_they_belong_and_go_without_a_trace() {
        let mut b = Bench::new();
        b.popups.open(help::HelpView::default());
        let rows = b.draw();
        assert!(rows[0].contains("tilework keys"), "{rows:#?}");
        assert!(b.key('q').is_some(), "q closes help");
        assert_eq!(b.draw(), blank());

        b.popups
            .open(prompt::Prompt::new(prompt::PromptKind::RenameTab, "logs"));
        let rows = b.draw();
        assert!(rows[7].contains("rename tab: logs"), "{rows:#?}");
        assert!(rows[..7].iter().all(|r| r.trim().is_empty()), "{rows:#?}");
        assert!(b.key('s').is_some(), "the prompt takes every key");
        assert!(b.draw()[7].contains("logs"));
    }

    #[test]
    fn a_popup_with_a_deadline_closes_by_itself() {
        let mut b = Bench::new();
        let until = Instant::now() + Duration::from_secs(2);
        b.popups.open(pane_numbers::PaneNumbers { until });
        assert_eq!(b.popups.next_deadline(), Some(until));
        assert!(!b.popups.tick(until - Duration::from_millis(1)));
        assert!(b.popups.tick(until));
        assert!(b.popups.is_empty());
        assert_eq!(b.popups.next_deadline(), None);
    }
}
