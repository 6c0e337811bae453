//! When the loop draws: a dirty flag plus a frame deadline, never a
//! fixed-rate poll.
//!
//! A change is drawn at most once per frame interval (the `fps` cap), a
//! reaction to the user at once, and the echo of a key as soon as the
//! program's answer arrives. With nothing changed there is no deadline at
//! all: an idle workspace does not wake up.

use std::time::{Duration, Instant};

use crate::pane::PaneId;

/// While the user types, frames that are not a reaction to them (a flood
/// in another pane) come at most this often: each costs the loop up to a
/// millisecond or so, and a key that arrives meanwhile waits for it.
pub const TYPING_FRAME_INTERVAL: Duration = Duration::from_millis(50);

pub struct FrameClock {
    interval: Duration,
    /// The user is typing until then: see [`TYPING_FRAME_INTERVAL`].
    typing_until: Option<Instant>,
    last_frame: Option<Instant>,
    /// Something on screen changed since the last frame.
    dirty: bool,
    /// Draw at once, ignoring the frame cap (user-visible reaction to input).
    urgent: bool,
    /// A key went to this pane; its next output is drawn at once.
    echo_pending: Option<PaneId>,
    /// The next frame is drawn early for this pane's echo.
    echo_frame: Option<PaneId>,
    /// A new pane whose first output (a shell's prompt) is drawn at once.
    first_output: Option<PaneId>,
}

impl FrameClock {
    /// `interval` is the shortest time between two frames that are not
    /// urgent. The first frame is due at once.
    pub fn new(interval: Duration) -> Self {
        Self {
            interval,
            typing_until: None,
            last_frame: None,
            dirty: true,
            urgent: true,
            echo_pending: None,
            echo_frame: None,
            first_output: None,
        }
    }

    /// Pane `id` just started: its first output is drawn at once, not a
    /// frame interval after the frame that showed the empty pane (the
    /// start-up's prompt waited up to 16 ms for that).
    pub fn await_first_output(&mut self, id: PaneId) {
        self.first_output = Some(id);
    }

    /// Something on screen changed: draw it within the frame cap.
    pub fn changed(&mut self) {
        self.dirty = true;
    }

    /// Something changed in answer to the user: draw it now.
    pub fn changed_now(&mut self) {
        self.dirty = true;
        self.urgent = true;
    }

    /// A key went to pane `id`: its next output is its echo.
    pub fn key_sent(&mut self, id: PaneId) {
        self.echo_pending = Some(id);
    }

    /// The pane whose echo is awaited, if any.
    pub fn awaited_echo(&self) -> Option<PaneId> {
        self.echo_pending
    }

    /// Pane `id` produced output, on screen if `shown`. Returns true when
    /// that output is the awaited echo of a key, which is then drawn at
    /// once (with only that pane brought up to date, see [`Self::begin_frame`]).
    pub fn output_from(&mut self, id: PaneId, shown: bool) -> bool {
        if shown {
            self.dirty = true;
        }
        if self.first_output == Some(id) {
            self.first_output = None;
            self.urgent |= shown;
        }
        if self.echo_pending != Some(id) {
            return false;
        }
        self.urgent = true;
        self.echo_pending = None;
        self.echo_frame = Some(id);
        true
    }

    /// Whether a frame should be drawn now.
    pub fn due(&self, now: Instant) -> bool {
        self.dirty && (self.urgent || now >= self.next_allowed(now))
    }

    /// When the loop must wake up to draw, if anything is waiting to be drawn.
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        self.dirty.then(|| self.next_allowed(now))
    }

    fn next_allowed(&self, now: Instant) -> Instant {
        let interval = if self.typing_until.is_some_and(|until| now < until) {
            self.interval.max(TYPING_FRAME_INTERVAL)
        } else {
            self.interval
        };
        self.last_frame.map_or(now, |t| t + interval)
    }

    /// The user is typing until `until`: frames that are not a reaction to
    /// them come less often meanwhile.
    pub fn typing_until(&mut self, until: Instant) {
        self.typing_until = Some(until);
    }

    /// A frame starts: returns the pane it is drawn early for (an echo), if
    /// that is why it is drawn.
    pub fn begin_frame(&mut self) -> Option<PaneId> {
        self.echo_frame.take()
    }

    /// The frame was written at `done`. `left_stale`: some pane was drawn
    /// from an older image and needs a regular frame soon.
    pub fn frame_done(&mut self, done: Instant, left_stale: bool) {
        self.last_frame = Some(done);
        self.dirty = left_stale;
        self.urgent = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTERVAL: Duration = Duration::from_millis(16);

    fn drawn_at(t0: Instant) -> FrameClock {
        let mut clock = FrameClock::new(INTERVAL);
        assert!(clock.due(t0), "the first frame is due at once");
        assert_eq!(clock.begin_frame(), None);
        clock.frame_done(t0, false);
        clock
    }

    #[test]
    fn a_new_panes_first_output_is_drawn_at_once_and_later_output_at_the_cap() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        let new = PaneId(7);
        clock.await_first_output(new);
        assert!(!clock.output_from(PaneId(8), true), "another pane's output");
        assert!(!clock.due(t0 + Duration::from_millis(1)));
        assert!(!clock.output_from(new, true), "a prompt is no key's echo");
        assert!(clock.due(t0 + Duration::from_millis(1)));
        clock.frame_done(t0 + Duration::from_millis(1), false);
        assert!(!clock.output_from(new, true));
        assert!(!clock.due(t0 + Duration::from_millis(2)));
        assert!(clock.due(t0 + Duration::from_millis(1) + INTERVAL));
    }

    #[test]
    fn an_idle_workspace_has_no_deadline() {
        let t0 = Instant::now();
        let clock = drawn_at(t0);
        assert!(!clock.due(t0 + Duration::from_secs(3600)));
        assert_eq!(clock.deadline(t0 + Duration::from_secs(1)), None);
    }

    #[test]
    fn output_is_drawn_at_most_once_per_interval() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        clock.changed();
        let soon = t0 + INTERVAL / 2;
        assert!(!clock.due(soon));
        assert_eq!(clock.deadline(soon), Some(t0 + INTERVAL));
        assert!(clock.due(t0 + INTERVAL));
    }

    #[test]
    fn while_the_user_types_other_output_is_drawn_less_often() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        clock.typing_until(t0 + Duration::from_millis(300));
        clock.changed();
        assert!(!clock.due(t0 + INTERVAL));
        assert!(clock.due(t0 + TYPING_FRAME_INTERVAL));
        // An echo is still drawn at once.
        clock.key_sent(PaneId(1));
        assert!(clock.output_from(PaneId(1), true));
        assert!(clock.due(t0 + Duration::from_millis(1)));
        clock.frame_done(t0 + Duration::from_millis(1), false);
        // Typing over, the usual interval again.
        clock.changed();
        let after = t0 + Duration::from_millis(300);
        assert_eq!(
            clock.deadline(after),
            Some(t0 + Duration::from_millis(1) + INTERVAL)
        );
    }

    #[test]
    fn a_reaction_to_the_user_is_drawn_at_once() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        clock.changed_now();
        assert!(clock.due(t0));
        clock.frame_done(t0, false);
        assert!(!clock.due(t0), "urgency lasts one frame");
    }

    #[test]
    fn the_echo_of_a_key_is_drawn_at_once_for_its_pane() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        let (typed, other) = (PaneId(1), PaneId(2));
        clock.key_sent(typed);
        assert_eq!(clock.awaited_echo(), Some(typed));
        assert!(!clock.output_from(other, true), "another pane's output");
        assert!(!clock.due(t0), "is not urgent");
        assert!(clock.output_from(typed, true));
        assert_eq!(clock.awaited_echo(), None);
        assert!(clock.due(t0));
        assert_eq!(clock.begin_frame(), Some(typed));
        clock.frame_done(t0, true);
        assert_eq!(clock.begin_frame(), None);
        // Other panes drawn from a stale image get a regular frame.
        assert!(clock.due(t0 + INTERVAL));
    }

    #[test]
    fn hidden_output_is_not_drawn() {
        let t0 = Instant::now();
        let mut clock = drawn_at(t0);
        assert!(!clock.output_from(PaneId(3), false));
        assert_eq!(clock.deadline(t0), None);
    }
}
