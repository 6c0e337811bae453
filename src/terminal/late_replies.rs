//! Answers to tilework's own questions that come after it stopped waiting
//! for them: they must never be typed into a program.
//!
//! The process that brings a terminal asks it for its colours (OSC
//! 10/11/12) and waits a moment (`outer_terminal::ASK_TIMEOUT`). Over a
//! slow link the answers come later, to the workspace, whose key parser
//! (crossterm) reads `ESC ] 11 ; rgb:… ESC \` as Alt-], the characters
//! `11;rgb:…` and Alt-\. (Its other answers, to `CSI ? u` and the device
//! attributes query, crossterm already keeps to itself.)
//!
//! [`LateReplies`] sits between crossterm and the loop: an Alt-] is held
//! while what follows it can still be a colour answer, the events of a
//! whole answer are dropped and its colour kept for the loop to use, and
//! anything else lets what was held go on, in order. A lone Alt-] the user
//! typed waits only until crossterm has nothing more to hand out.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::config::colour::{Rgb, parse_colour};

/// How long an answer that has begun may take to arrive whole (its rest
/// may come in another read).
pub const REST_OF_ANSWER_WAIT: Duration = Duration::from_millis(50);

/// Longer than any colour answer (`11;rgb:ffff/ffff/ffff` is 21).
const MAX_ANSWER: usize = 64;

/// See the module's doc.
#[derive(Default)]
pub struct LateReplies {
    /// Events held since an Alt-], with when each was read.
    held: Vec<(Instant, Event)>,
    /// The characters after the Alt-].
    text: String,
    /// Events let go, in order, for the loop.
    released: VecDeque<(Instant, Event)>,
    /// Colours answered late: slot 0 foreground, 1 background, 2 cursor.
    colours: Vec<(usize, Rgb)>,
}

impl LateReplies {
    /// Takes the next event from the key parser.
    pub fn offer(&mut self, at: Instant, ev: Event) {
        let key = match &ev {
            Event::Key(key) if key.kind != KeyEventKind::Release => Some(*key),
            _ => None,
        };
        if self.held.is_empty() {
            if key.is_some_and(is_alt(']')) {
                self.held.push((at, ev));
            } else {
                self.released.push_back((at, ev));
            }
            return;
        }
        let Some(key) = key else {
            return self.let_go_with(at, ev);
        };
        if is_alt('\\')(key) || is_ctrl_g(key) {
            if let Some((slot, colour)) = colour_answer(&self.text) {
                tracing::info!(slot, ?colour, "a late answer from the terminal, kept");
                self.colours.push((slot, colour));
                self.held.clear();
                self.text.clear();
                return;
            }
            return self.let_go_with(at, ev);
        }
        match key.code {
            KeyCode::Char(c)
                if (key.modifiers - KeyModifiers::SHIFT).is_empty()
                    && could_begin_an_answer(&self.text, c) =>
            {
                self.text.push(c);
                self.held.push((at, ev));
            }
            _ => self.let_go_with(at, ev),
        }
    }

    /// The key parser has nothing more to hand out now (`certain`: nor
    /// does it hold anything parsed). A lone Alt-] goes on once that is
    /// certain; an answer that has begun waits for its rest until
    /// [`Self::deadline`].
    pub fn quiet(&mut self, now: Instant, certain: bool) {
        let Some(&(first, _)) = self.held.first() else {
            return;
        };
        let begun = self.held.len() > 1;
        if (!begun && certain) || now >= first + REST_OF_ANSWER_WAIT {
            self.let_go();
        }
    }

    /// The next event for the loop.
    pub fn next_released(&mut self) -> Option<(Instant, Event)> {
        self.released.pop_front()
    }

    /// When held events must go on if nothing else arrives.
    pub fn deadline(&self) -> Option<Instant> {
        self.held
            .first()
            .map(|&(first, _)| first + REST_OF_ANSWER_WAIT)
    }

    /// Whether events are held.
    pub fn holding(&self) -> bool {
        !self.held.is_empty()
    }

    /// Colours answered late since the last call.
    pub fn take_colours(&mut self) -> Vec<(usize, Rgb)> {
        std::mem::take(&mut self.colours)
    }

    fn let_go(&mut self) {
        self.released.extend(self.held.drain(..));
        self.text.clear();
    }

    fn let_go_with(&mut self, at: Instant, ev: Event) {
        self.let_go();
        // It may begin an answer itself.
        self.offer(at, ev);
    }
}

fn is_alt(c: char) -> impl Fn(KeyEvent) -> bool {
    move |key| key.code == KeyCode::Char(c) && key.modifiers == KeyModifiers::ALT
}

/// BEL, which also ends an OSC.
fn is_ctrl_g(key: KeyEvent) -> bool {
    key.code == KeyCode::Char('g') && key.modifiers == KeyModifiers::CONTROL
}

/// Whether `text` followed by `c` can still be the start of `1N;colour`.
fn could_begin_an_answer(text: &str, c: char) -> bool {
    match text.len() {
        0 => c == '1',
        1 => ('0'..='2').contains(&c),
        2 => c == ';',
        n => n < MAX_ANSWER && (c.is_ascii_alphanumeric() || matches!(c, ':' | '/' | '#' | '.')),
    }
}

/// `10;rgb:…`, `11;…` or `12;…` with a colour: its slot and colour.
fn colour_answer(text: &str) -> Option<(usize, Rgb)> {
    let (number, colour) = text.split_once(';')?;
    let slot = match number {
        "10" => 0,
        "11" => 1,
        "12" => 2,
        _ => return None,
    };
    Some((slot, parse_colour(colour)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, modifiers))
    }

    fn chars(text: &str) -> Vec<Event> {
        text.chars()
            .map(|c| key(KeyCode::Char(c), KeyModifiers::NONE))
            .collect()
    }

    /// crossterm's events for `ESC ] body ESC \`.
    fn osc(body: &str) -> Vec<Event> {
        let mut events = vec![key(KeyCode::Char(']'), KeyModifiers::ALT)];
        events.extend(chars(body));
        events.push(key(KeyCode::Char('\\'), KeyModifiers::ALT));
        events
    }

    fn run(events: Vec<Event>) -> (LateReplies, Vec<Event>) {
        let mut filter = LateReplies::default();
        let now = Instant::now();
        for ev in events {
            filter.offer(now, ev);
        }
        filter.quiet(now, true);
        let out = std::iter::from_fn(|| filter.next_released())
            .map(|(_, e)| e)
            .collect();
        (filter, out)
    }

    #[test]
    fn a_late_colour_answer_never_reaches_the_programs_and_is_kept() {
        let mut events = chars("a");
        events.extend(osc("11;rgb:1e1e/1e1e/2e2e"));
        events.extend(chars("b"));
        let (mut filter, out) = run(events);
        assert_eq!(out, [chars("a"), chars("b")].concat());
        assert_eq!(filter.take_colours(), [(1, Rgb(0x1e1e, 0x1e1e, 0x2e2e))]);
    }

    #[test]
    fn an_answer_ended_by_bel_is_consumed_too() {
        let mut events = vec![key(KeyCode::Char(']'), KeyModifiers::ALT)];
        events.extend(chars("10;rgb:ffff/ffff/ffff"));
        events.push(key(KeyCode::Char('g'), KeyModifiers::CONTROL));
        let (mut filter, out) = run(events);
        assert!(out.is_empty());
        assert_eq!(filter.take_colours().len(), 1);
    }

    #[test]
    fn what_the_user_types_after_alt_bracket_goes_through_in_order() {
        let mut events = vec![key(KeyCode::Char(']'), KeyModifiers::ALT)];
        events.extend(chars("1x"));
        let (_, out) = run(events.clone());
        assert_eq!(out, events);
        // A lone Alt-] goes on once nothing more is coming.
        let lone = vec![key(KeyCode::Char(']'), KeyModifiers::ALT)];
        assert_eq!(run(lone.clone()).1, lone);
    }

    #[test]
    fn another_osc_shape_is_not_taken_for_an_answer() {
        let events = osc("52;c;aGk=");
        assert_eq!(run(events.clone()).1, events);
    }

    #[test]
    fn an_answer_cut_in_two_reads_waits_for_its_rest_until_the_deadline() {
        let mut filter = LateReplies::default();
        let start = Instant::now();
        let mut first = osc("11;rgb:1111/1111/1111");
        let rest = first.split_off(8);
        for ev in first {
            filter.offer(start, ev);
        }
        filter.quiet(start, true);
        assert!(
            filter.next_released().is_none(),
            "held while the rest may come"
        );
        for ev in rest {
            filter.offer(start, ev);
        }
        assert!(filter.next_released().is_none());
        assert_eq!(filter.take_colours().len(), 1);
        // Never completed: let go at the deadline.
        let begun = osc("11;rgb:1111/1111/1111")[..5].to_vec();
        for ev in begun.clone() {
            filter.offer(start, ev);
        }
        filter.quiet(start + REST_OF_ANSWER_WAIT, true);
        let out: Vec<Event> = std::iter::from_fn(|| filter.next_released())
            .map(|(_, e)| e)
            .collect();
        assert_eq!(out, begun);
    }
}
