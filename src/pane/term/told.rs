//! What a program tells of itself through its output, kept between the
//! loop's looks: its title (OSC 0/2) and directory (OSC 7), which stay,
//! and its news (the bell, notifications, clipboard writes, clipboard
//! reads, progress), which the loop takes.

use crate::pane::term::notifications::Notification;
use crate::pane::term::program_signals::{PaneSignals, ProgramSignals, Progress};
use crate::pane::term::terminal_queries::PaneEvents;

/// What the program told since the last look, taken at once with
/// [`Told::take_news`].
#[derive(Debug, Default)]
pub struct News {
    /// The program rang the bell.
    pub bell: bool,
    /// The notifications (OSC 9, 777, 99), oldest first: a burst of them
    /// is all there.
    pub notifications: Vec<Notification>,
    /// The newest OSC 52 clipboard write (base64).
    pub clipboard: Option<Vec<u8>>,
    /// Clipboard reads, progress and notification closes.
    pub signals: ProgramSignals,
}

/// A pane's program's words about itself.
#[derive(Debug, Default)]
pub struct Told {
    title: Option<String>,
    cwd: Option<String>,
    news: News,
    /// Clipboard reads and progress not yet taken by the loop, and the
    /// progress shown.
    signals: PaneSignals,
}

impl Told {
    /// Takes what the parser's callbacks collected. Returns whether the
    /// border shows something new (the title or the progress).
    pub(in crate::pane) fn collect(&mut self, events: &mut PaneEvents) -> bool {
        let mut border = false;
        if let Some(title) = events.title.take() {
            self.title = Some(title);
            border = true;
        }
        if let Some(cwd) = events.cwd.take() {
            self.cwd = Some(cwd);
        }
        self.news.bell |= std::mem::take(&mut events.bell);
        for notification in events.notifications.drain(..) {
            crate::pane::term::notifications::queue(&mut self.news.notifications, notification);
        }
        if let Some(data) = events.clipboard.pop() {
            self.news.clipboard = Some(data);
        }
        if !events.signals.is_empty() && self.signals.merge(std::mem::take(&mut events.signals)) {
            border = true;
        }
        border
    }

    /// The title the program set (OSC 0/2), if it set one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref().filter(|t| !t.is_empty())
    }

    /// The directory the shell said it is in (OSC 7).
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The progress the program last told (`OSC 9 ; 4`).
    pub fn progress(&self) -> Progress {
        self.signals.progress()
    }

    /// What the program told (bell, notifications, clipboard) since the
    /// last call.
    pub fn take_news(&mut self) -> News {
        let mut news = std::mem::take(&mut self.news);
        news.signals = self.signals.take_news();
        news
    }
}
