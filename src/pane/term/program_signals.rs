//! What a program asks of the user, or of the user's terminal, besides
//! its screen: a clipboard read (`OSC 52 ; c ; ?`) and its progress
//! (`OSC 9 ; 4`). Collected while parsing, beside the other
//! `terminal_queries` events, and taken by the loop, which decides what
//! becomes of them (`app::signals_from_programs`).

/// A program's progress, as `OSC 9 ; 4 ; state ; percent` tells it
/// (ConEmu's sequence; cargo, pytest, uv, ghostty and iTerm2 send it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Progress {
    /// No progress shown (`9;4;0`, or never said).
    #[default]
    None,
    /// Going on, this far (0–100) (`9;4;1;N`).
    Normal(u8),
    /// Failed, this far if said (`9;4;2;N`).
    Error(Option<u8>),
    /// Going on, how far unknown (`9;4;3`).
    Indeterminate,
    /// Held, this far if said (`9;4;4;N`).
    Paused(Option<u8>),
}

impl Progress {
    /// `OSC 9 ; 4 ; …`'s parameters after `9` (`["4", "1", "50"]`), if
    /// they are a progress report.
    pub fn from_osc9(rest: &[&[u8]]) -> Option<Self> {
        let [b"4", state, percent @ ..] = rest else {
            return None;
        };
        let percent = percent
            .first()
            .and_then(|p| std::str::from_utf8(p).ok())
            .and_then(|p| p.parse::<u32>().ok())
            .map(|p| u8::try_from(p.min(100)).unwrap_or(100));
        Some(match *state {
            b"0" | b"" => Self::None,
            b"1" => Self::Normal(percent.unwrap_or(0)),
            b"2" => Self::Error(percent),
            b"3" => Self::Indeterminate,
            b"4" => Self::Paused(percent),
            _ => return None,
        })
    }

    /// How much it asks to be looked at: the worst of a tab's panes is
    /// the tab's (an error first, then paused, going on, unknown).
    pub fn severity(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Indeterminate => 1,
            Self::Normal(_) => 2,
            Self::Paused(_) => 3,
            Self::Error(_) => 4,
        }
    }

    /// The sequence that tells a terminal this state (`OSC 9 ; 4 ; …`,
    /// ended by ST).
    pub fn osc(self) -> String {
        let (state, percent) = match self {
            Self::None => (0, None),
            Self::Normal(p) => (1, Some(p)),
            Self::Error(p) => (2, p),
            Self::Indeterminate => (3, None),
            Self::Paused(p) => (4, p),
        };
        match percent {
            Some(p) => format!("\x1b]9;4;{state};{p}\x1b\\"),
            None => format!("\x1b]9;4;{state}\x1b\\"),
        }
    }

    /// A few cells for a tab or a border: `42%`, `err`, `...`, `‖42%`.
    pub fn label(self) -> Option<String> {
        Some(match self {
            Self::None => return None,
            Self::Normal(p) => format!("{p}%"),
            Self::Error(Some(p)) => format!("!{p}%"),
            Self::Error(None) => "!err".into(),
            Self::Indeterminate => "…".into(),
            Self::Paused(Some(p)) => format!("‖{p}%"),
            Self::Paused(None) => "‖".into(),
        })
    }
}

/// A pane's signals not yet taken by the loop.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ProgramSignals {
    /// The program asked to read the clipboard: the selection it named
    /// (`c`, `p`, `s0`…; empty is `s0`), newest.
    pub clipboard_read: Option<String>,
    /// The program's progress changed: the newest state.
    pub progress: Option<Progress>,
    /// The kitty notifications (their ids) the program took away
    /// (`p=close`), oldest first.
    pub closed: Vec<String>,
}

/// A pane's signals: the news not yet taken by the loop, and the
/// progress its program last told (its tab and border show it).
#[derive(Debug, Default)]
pub struct PaneSignals {
    news: ProgramSignals,
    progress: Progress,
}

impl PaneSignals {
    /// Takes `newer` in. Returns whether the progress shown changed.
    pub fn merge(&mut self, newer: ProgramSignals) -> bool {
        let changed = newer.progress.is_some_and(|p| p != self.progress);
        if let Some(progress) = newer.progress {
            self.progress = progress;
        }
        self.news.merge(newer);
        changed
    }

    /// The news since the last call.
    pub fn take_news(&mut self) -> ProgramSignals {
        std::mem::take(&mut self.news)
    }

    pub fn progress(&self) -> Progress {
        self.progress
    }
}

/// Closes kept between two looks of the loop, at most.
const MAX_CLOSES: usize = 8;

/// A selection parameter longer than this is not one.
const MAX_SELECTION: usize = 8;

impl ProgramSignals {
    pub fn is_empty(&self) -> bool {
        self.clipboard_read.is_none() && self.progress.is_none() && self.closed.is_empty()
    }

    /// The program took its notification `id` away; a program closing
    /// them in a loop keeps only its newest few.
    pub fn closed(&mut self, id: String) {
        if self.closed.len() >= MAX_CLOSES {
            self.closed.remove(0);
        }
        self.closed.push(id);
    }

    /// Takes what `newer` says over what this holds.
    pub fn merge(&mut self, newer: ProgramSignals) {
        if newer.clipboard_read.is_some() {
            self.clipboard_read = newer.clipboard_read;
        }
        if newer.progress.is_some() {
            self.progress = newer.progress;
        }
        for id in newer.closed {
            self.closed(id);
        }
    }

    /// `OSC 52 ; selection ; ?`: kept only with a selection xterm knows
    /// (`c p q s 0–7`), so what is sent on never carries anything else.
    pub fn clipboard_asked(&mut self, selection: &[u8]) {
        let known = selection.len() <= MAX_SELECTION
            && selection
                .iter()
                .all(|b| matches!(b, b'c' | b'p' | b'q' | b's' | b'0'..=b'7'));
        if known {
            self.clipboard_read = Some(String::from_utf8_lossy(selection).into_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Option<Progress> {
        let parts: Vec<&[u8]> = s.split(';').map(str::as_bytes).collect();
        Progress::from_osc9(&parts)
    }

    #[test]
    fn the_five_states_are_read() {
        assert_eq!(parse("4;1;42"), Some(Progress::Normal(42)));
        assert_eq!(parse("4;1;420"), Some(Progress::Normal(100)));
        assert_eq!(parse("4;2"), Some(Progress::Error(None)));
        assert_eq!(parse("4;2;7"), Some(Progress::Error(Some(7))));
        assert_eq!(parse("4;3"), Some(Progress::Indeterminate));
        assert_eq!(parse("4;4;50"), Some(Progress::Paused(Some(50))));
        assert_eq!(parse("4;0"), Some(Progress::None));
        assert_eq!(parse("4;9"), None);
        assert_eq!(parse("hello"), None);
    }

    #[test]
    fn a_state_is_told_as_it_was_read() {
        for text in ["4;1;42", "4;2", "4;3", "4;4;50", "4;0"] {
            let progress = parse(text).unwrap_or_default();
            assert_eq!(progress.osc(), format!("\x1b]9;{text}\x1b\\"));
        }
    }

    #[test]
    fn only_known_selections_are_kept() {
        let mut signals = ProgramSignals::default();
        signals.clipboard_asked(b"c;\x1b[2J");
        assert_eq!(signals.clipboard_read, None);
        signals.clipboard_asked(b"");
        assert_eq!(signals.clipboard_read.as_deref(), Some(""));
        signals.clipboard_asked(b"p");
        assert_eq!(signals.clipboard_read.as_deref(), Some("p"));
    }
}
