//! Programs' progress (`OSC 9 ; 4`) passed on to the terminals that
//! speak it, as tmux 3.7 does: each such terminal is told the worst
//! progress of the tab on show (an error in a pane beside the focused one
//! shows too), once per change.
//!
//! Which terminals speak it: those whose `TERM_PROGRAM`, brought by the
//! attaching shell (`update_environment` carries it by default), names
//! one that draws it (ghostty, WezTerm, iTerm2), and every terminal when
//! the config says `terminal_features = ["progress"]` (Windows Terminal,
//! ConEmu, or a terminal reached over ssh without `TERM_PROGRAM`). It is
//! not asked at attach: no query tells it, and XTVERSION's names would
//! need the same list. A terminal that does not speak it is sent nothing
//! (ConEmu's `9;4` is a notification elsewhere: iTerm2 before 3.6 and
//! others would pop one up).

use crate::pane::term::program_signals::Progress;

/// `TERM_PROGRAM` of the terminals known to draw `OSC 9 ; 4`.
const SPEAKERS: &[&str] = &["ghostty", "WezTerm", "iTerm.app"];

#[derive(Debug, Default)]
pub struct ProgressForward {
    /// Some program told its progress: until then nothing is looked at
    /// (a text flood costs nothing more).
    in_use: bool,
    /// `terminal_features = ["progress"]`.
    by_config: bool,
    /// The terminals (links) that speak it, and what each was last told.
    speakers: Vec<(u64, Progress)>,
}

impl ProgressForward {
    pub fn new(by_config: bool) -> Self {
        Self {
            by_config,
            ..Self::default()
        }
    }

    pub fn set_by_config(&mut self, by_config: bool) {
        self.by_config = by_config;
    }

    /// Terminal `link` attached, its shell's environment `env`.
    pub fn attached(&mut self, link: u64, env: &[(String, Option<String>)]) {
        let named = env.iter().any(|(name, value)| {
            name == "TERM_PROGRAM" && value.as_deref().is_some_and(|v| SPEAKERS.contains(&v))
        });
        self.speakers.retain(|(l, _)| *l != link);
        if named || self.by_config {
            self.speakers.push((link, Progress::None));
        }
    }

    /// A program told its progress.
    pub fn told(&mut self) {
        self.in_use = true;
    }

    /// Whether any terminal may have to be told something.
    pub fn active(&self) -> bool {
        self.in_use && !self.speakers.is_empty()
    }

    /// Terminal `link` shows `now`: what to tell it, if it speaks the
    /// sequence and was told something else.
    pub fn tell(&mut self, link: u64, now: Progress) -> Option<Progress> {
        let (_, sent) = self.speakers.iter_mut().find(|(l, _)| *l == link)?;
        (*sent != now).then(|| {
            *sent = now;
            now
        })
    }

    /// Forgets the terminals gone.
    pub fn retain(&mut self, present: impl Fn(u64) -> bool) {
        self.speakers.retain(|(link, _)| present(*link));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(term_program: &str) -> Vec<(String, Option<String>)> {
        vec![("TERM_PROGRAM".into(), Some(term_program.into()))]
    }

    #[test]
    fn a_terminal_that_speaks_it_is_told_each_change_once() {
        let mut forward = ProgressForward::new(false);
        forward.attached(1, &env("ghostty"));
        forward.attached(2, &env("xterm"));
        assert!(!forward.active());
        forward.told();
        assert!(forward.active());
        let half = Progress::Normal(50);
        assert_eq!(forward.tell(1, half), Some(half));
        assert_eq!(forward.tell(1, half), None);
        assert_eq!(forward.tell(2, half), None);
        assert_eq!(forward.tell(1, Progress::None), Some(Progress::None));
    }

    #[test]
    fn the_config_says_every_terminal_speaks_it() {
        let mut forward = ProgressForward::new(true);
        forward.attached(2, &env("xterm"));
        forward.attached(3, &[]);
        forward.told();
        assert_eq!(
            forward.tell(3, Progress::Indeterminate),
            Some(Progress::Indeterminate)
        );
    }
}
