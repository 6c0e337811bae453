//! Synchronized updates (`CSI ? 2026 h` … `CSI ? 2026 l`): while a program
//! redraws its screen inside one, frames show the pane as it was when the
//! update started, and the update appears whole when it ends.
//!
//! Agent TUIs, neovim, helix and others wrap each redraw in mode 2026 so no
//! terminal shows half of it. The output is still parsed as it arrives
//! (queries inside an update are answered at once, the fast-forward keeps
//! skipping floods, backpressure is unchanged): what is held is the
//! picture, a copy of the screen taken at the update's start, which the
//! pane shows instead of the live one ([`SyncUpdate::frozen`]). So memory
//! stays at one screen per pane however much the program writes, and
//! ending an update costs nothing but a redraw.
//!
//! The copy is taken only when the end is not in the output already taken
//! in: frames are drawn between pieces of output, never inside one, so an
//! update that arrives whole (the usual case, and every update of a flood
//! that wraps each line in one) costs no copy at all.
//!
//! A program that never ends its update (it crashed mid-frame, or was
//! killed) is shown as it is after [`TIMEOUT`], as tmux does; so is one
//! whose pane is resized (the copy has the old size; the program redraws
//! anyway) or whose program exited.

use std::time::{Duration, Instant};

/// How long a pane shows the screen of an update's start at most. tmux's
/// choice: far longer than any frame takes to write, even over a slow
/// link, and short enough that a program that died mid-update is seen
/// soon.
pub const TIMEOUT: Duration = Duration::from_secs(1);

/// The screen shown while an update is open.
struct Frozen {
    screen: vt100::Screen,
    since: Instant,
    /// Not drawn yet: the picture changed to it.
    new: bool,
}

/// One parser's synchronized-update state, followed in parse order.
#[derive(Default)]
pub struct SyncUpdate {
    frozen: Option<Frozen>,
    /// Ends of updates parsed so far; the scanner counts those taken in.
    ends_parsed: u64,
}

impl std::fmt::Debug for SyncUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyncUpdate")
            .field("since", &self.frozen.as_ref().map(|h| h.since))
            .field("ends_parsed", &self.ends_parsed)
            .finish()
    }
}

impl SyncUpdate {
    /// `CSI ? 2026 h` was parsed onto `screen`; `ends_taken_in` updates
    /// have ended in the output taken in so far. Returns whether the
    /// screen was copied.
    pub fn started(&mut self, screen: &vt100::Screen, ends_taken_in: u64) -> bool {
        // The end is already on its way to the parser, in this same call:
        // no frame can be drawn before it.
        if ends_taken_in > self.ends_parsed || self.frozen.is_some() {
            return false;
        }
        self.frozen = Some(Frozen {
            screen: screen.clone(),
            since: Instant::now(),
            new: true,
        });
        true
    }

    /// `CSI ? 2026 l` was parsed. Returns whether a held screen ended.
    pub fn ended(&mut self) -> bool {
        self.ends_parsed += 1;
        self.release()
    }

    /// Shows the live screen again (the update ended some other way: time
    /// ran out, RIS, a resize). Returns whether a held screen ended.
    pub fn release(&mut self) -> bool {
        self.frozen.take().is_some()
    }

    /// The screen to show instead of the live one, while an update is open.
    pub fn frozen(&self) -> Option<&vt100::Screen> {
        self.frozen.as_ref().map(|h| &h.screen)
    }

    /// Whether the screen shown is the held one, and was already drawn:
    /// what parsing changes meanwhile does not change the picture. (The
    /// first call after a copy is taken says false: the picture changed
    /// to the copy.)
    pub fn holds_drawn_picture(&mut self) -> bool {
        match &mut self.frozen {
            Some(frozen) => !std::mem::take(&mut frozen.new),
            None => false,
        }
    }

    /// When the open update is shown as it is, if one is open.
    pub fn deadline(&self) -> Option<Instant> {
        self.frozen.as_ref().map(|h| h.since + TIMEOUT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(text: &[u8]) -> vt100::Screen {
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::MIN.saturating_add(3),
            std::num::NonZeroU16::MIN.saturating_add(9),
            0,
        );
        parser.process(text);
        parser.screen().clone()
    }

    #[test]
    fn an_update_whose_end_is_taken_in_needs_no_copy() {
        let mut sync = SyncUpdate::default();
        assert!(!sync.started(&screen(b"a"), 1));
        assert!(sync.frozen().is_none());
        assert!(!sync.ended());
        // The next one's end is not here yet.
        assert!(sync.started(&screen(b"b"), 1));
        assert_eq!(
            sync.frozen().map(vt100::Screen::contents).as_deref(),
            Some("b")
        );
        assert!(sync.deadline().is_some());
        // A second start inside keeps the first copy.
        assert!(!sync.started(&screen(b"c"), 1));
        assert_eq!(
            sync.frozen().map(vt100::Screen::contents).as_deref(),
            Some("b")
        );
        assert!(sync.ended());
        assert!(sync.frozen().is_none() && sync.deadline().is_none());
    }

    #[test]
    fn a_release_ends_the_hold_and_later_ends_still_count() {
        let mut sync = SyncUpdate::default();
        assert!(sync.started(&screen(b"a"), 0));
        assert!(!sync.holds_drawn_picture(), "the copy is new");
        assert!(sync.holds_drawn_picture());
        assert!(sync.release());
        assert!(!sync.holds_drawn_picture());
        assert!(!sync.release());
        // The program ends the update late: counted, nothing held.
        assert!(!sync.ended());
        assert!(sync.started(&screen(b"b"), 1));
    }
}
