//! A pane's terminal: the vt100 parser that mirrors the program's screen,
//! the layers in front of it (passthrough, scanner, fast-forward, fidelity)
//! and what it tells the rest of tilework (damage, title, news).
//!
//! The render loop owns every pane; nothing here is shared with another
//! thread except through channels.

use std::num::NonZeroU16;
use std::time::Instant;

use crate::diag::panic_guard::contain;
use crate::pane::PaneId;
use crate::pane::term::damage::{Change, Damage, DamageLog};
use crate::pane::term::escape_scanner::osc133_capture::Osc133Found;
use crate::pane::term::fast_forward::{Accepted, FastForward};
use crate::pane::term::fidelity::Modes;
use crate::pane::term::fidelity::colour_sets::ColourSets;
use crate::pane::term::held_replies::HeldReplies;
use crate::pane::term::parked::ParkableParser;
use crate::pane::term::parse_guard::{ParserPanicked, RESET_NOTICE};
use crate::pane::term::rewrap::Checkpoint;
use crate::pane::term::screen::ScreenView;
use crate::pane::term::terminal_queries::PaneEvents;
use crate::pane::term::tmux_passthrough::Passthrough;
pub use crate::pane::term::told::{News, Told};

/// vt100 panics below 2x2; a pane squeezed smaller keeps a 2x2 grid (and
/// PTY) and shows the part that fits.
pub const MIN_GRID: u16 = 2;

/// The parser a pane's terminal holds (its callbacks collect the news).
pub type PaneParser = vt100::Parser<PaneEvents>;

/// A pane's terminal: everything the program's output passes through on
/// its way to the screen.
pub struct Term {
    id: PaneId,
    /// The parser, put away while the pane is hidden and quiet (`parked`).
    parser: ParkableParser,
    /// Scans the output (capping OSC strings), holds back plain output and
    /// drops what would scroll off unseen; [`Term::settle`] brings the
    /// parser up to date.
    pub(in crate::pane) fast_forward: FastForward,
    /// Takes tmux's passthrough wrapper off what programs that see `$TMUX`
    /// write (`tmux_passthrough`).
    passthrough: Passthrough,
    /// What changed since the renderer last looked, beyond the rows the
    /// fast-forward's parsing reports.
    pub(in crate::pane) damage: DamageLog,
    rows: u16,
    cols: u16,
    /// The width changed while the alternate screen showed: the primary
    /// screen underneath was cut by vt100's resize, not reflowed. It is laid
    /// out again from the ring when the program leaves the alternate screen
    /// (quitting vim or less after resizing the window).
    primary_cut: bool,
    /// Where the next reflow's replay can start (see `rewrap::Checkpoint`).
    pub(in crate::pane) reflowed: Option<Checkpoint>,
    /// Answers to queries waiting for the program's raw mode.
    pub(in crate::pane) held_replies: HeldReplies,
    /// The colour sets' generation the damage has told of.
    colours_noted: u64,
    /// What the program told of itself: title, directory, news, progress.
    told: Told,
    /// Total bytes received (parsed or skipped), for the `--fps` overlay's throughput.
    bytes_received: u64,
}

/// The screen's modes as bytes that set them on a fresh parser: the
/// alternate screen, the input modes and a hidden cursor.
fn modes_of(screen: &vt100::Screen) -> Vec<u8> {
    let mut modes = Vec::new();
    if screen.alternate_screen() {
        modes.extend_from_slice(b"\x1b[?1049h");
    }
    modes.extend_from_slice(screen.input_mode_formatted().as_bytes());
    if screen.hide_cursor() {
        modes.extend_from_slice(b"\x1b[?25l");
    }
    modes
}

fn grid(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n.max(MIN_GRID)).unwrap_or(NonZeroU16::MIN)
}

impl Term {
    /// A terminal of `rows` x `cols` cells (at least [`MIN_GRID`]).
    pub(in crate::pane) fn new(id: PaneId, rows: u16, cols: u16) -> Self {
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        Self {
            id,
            parser: ParkableParser::new(Self::new_parser(rows, cols, PaneEvents::default())),
            fast_forward: FastForward::default(),
            passthrough: Passthrough::default(),
            damage: DamageLog::default(),
            rows,
            cols,
            primary_cut: false,
            reflowed: None,
            held_replies: HeldReplies::default(),
            colours_noted: 0,
            told: Told::default(),
            bytes_received: 0,
        }
    }

    /// A fresh parser of `rows` x `cols`, with `events` as its callbacks.
    pub(in crate::pane) fn new_parser(rows: u16, cols: u16, events: PaneEvents) -> PaneParser {
        vt100::Parser::new_with_callbacks(grid(rows), grid(cols), 0, events)
    }

    /// Takes a piece of output in: tmux's wrapper off, scanned into the
    /// held-back part. Returns the bytes as the parser will see them (the
    /// history ring stores those), where in them the history before was
    /// erased, and the command marks found (see
    /// [`FastForward::accept_erasing`]).
    pub(in crate::pane) fn accept(
        &mut self,
        piece: &[u8],
    ) -> Accepted<'_, impl Iterator<Item = Osc133Found<'_>>> {
        self.bytes_received += piece.len() as u64;
        let unwrapped = self.passthrough.unwrap(piece);
        self.fast_forward.accept_erasing(&unwrapped)
    }

    /// Parses what of the accepted output must be parsed now. Returns
    /// whether the primary screen, cut by a resize on the alternate one,
    /// shows again and is to be laid out again.
    pub(in crate::pane) fn parse_accepted(&mut self) -> bool {
        let parsed = self.fast_forward.parse_accepted(self.parser.get_mut());
        if let Err(failure) = parsed {
            self.parser_failed("on this pane's output", &failure);
        }
        self.drain_parser_events();
        if self.primary_cut && !self.parser.get().screen().alternate_screen() {
            self.primary_cut = false;
            return true;
        }
        false
    }

    /// Parses held-back output, so the screen is current. Call before
    /// reading the screen's contents or cursor (modes are always current).
    pub(in crate::pane) fn settle(&mut self) {
        if !self.fast_forward.is_settled() {
            // The screen changes now, not when the bytes arrived.
            self.damage.note(Change::Output);
            if let Err(failure) = self.fast_forward.settle(self.parser.get_mut()) {
                self.parser_failed("on this pane's output", &failure);
            }
            self.drain_parser_events();
        }
    }

    /// Goes on past a kitty graphics command whose file is read. Returns
    /// whether parsing goes on (false: still reading).
    pub(in crate::pane) fn resume_graphics_load(&mut self) -> bool {
        if !self.fast_forward.loading() {
            return true;
        }
        if let Err(failure) = self.fast_forward.parse_accepted(self.parser.get_mut()) {
            self.parser_failed("on this pane's output", &failure);
        }
        self.damage.note(Change::Output);
        self.drain_parser_events();
        !self.fast_forward.loading()
    }

    /// Whether parsing waits on a file a kitty graphics command reads
    /// (see `kitty_apc`): what the program sends meanwhile waits unfed.
    pub fn graphics_loading(&self) -> bool {
        self.fast_forward.loading()
    }

    /// vt100 panicked on this pane's output (see `parse_guard`) and its grid
    /// may be inconsistent: the pane starts over with a fresh parser of the
    /// same size and says so on its screen. Lost: the screen's contents, the
    /// held-back output and the rest of the chunk being parsed (the history
    /// ring still has them). Kept: the callbacks' state (query replies not
    /// yet sent, so a program waiting for an answer gets it, and a new title
    /// or clipboard write), the input modes, the alternate screen and a
    /// hidden cursor, which the program still believes are set.
    fn parser_failed(&mut self, during: &str, failure: &ParserPanicked) {
        tracing::warn!(
            id = ?self.id,
            "the vt100 parser panicked {during} ({}); the pane's screen was reset",
            failure.message
        );
        let events = std::mem::take(self.parser.get_mut().callbacks_mut());
        let modes = self.modes_to_carry();
        self.parser
            .replace(Self::new_parser(self.rows, self.cols, events));
        self.fast_forward.reset();
        // The screen no longer follows from the last reflow's grid.
        self.reflowed = None;
        self.damage.note(Change::ScreenReplaced);
        self.write_notice(&[&modes[..], RESET_NOTICE].concat());
    }

    /// The modes the program set, as bytes that set them again on a fresh
    /// parser: the screen's (input modes, alternate screen, hidden cursor)
    /// and what the fidelity layer keeps (focus events, kitty key flags).
    pub(in crate::pane) fn modes_to_carry(&self) -> Vec<u8> {
        // Reading modes cannot touch a broken grid, but stay careful.
        let mut modes = contain(|| modes_of(self.parser.get().screen())).unwrap_or_default();
        let kept = self.modes();
        if kept.focus_events {
            modes.extend_from_slice(b"\x1b[?1004h");
        }
        if kept.in_band_resize {
            modes.extend_from_slice(b"\x1b[?2048h");
        }
        if kept.theme_reports {
            modes.extend_from_slice(b"\x1b[?2031h");
        }
        let flags = self.keyboard_flags();
        if flags != 0 {
            modes.extend_from_slice(format!("\x1b[>{flags}u").as_bytes());
        }
        modes
    }

    /// The live screen as bytes that draw it again on a fresh parser of
    /// the same size (empty if the grid cannot be read).
    pub(in crate::pane) fn contents_formatted(&self) -> String {
        contain(|| self.parser.get().screen().contents_formatted()).unwrap_or_default()
    }

    /// Writes tilework's own text (and modes) into the live screen. Only
    /// when nothing is held back: a new pane, or a fresh parser.
    pub(in crate::pane) fn write_notice(&mut self, bytes: &[u8]) {
        self.damage.note(Change::ScreenReplaced);
        self.parser.hidden_state_changed();
        // Through the fast-forward, which follows REP's character.
        if let Err(failure) = self.fast_forward.parse_now(self.parser.get_mut(), bytes) {
            // Not expected from a fresh parser; a blank screen rather than
            // another round of recovery.
            tracing::warn!(id = ?self.id, "{failure}, on tilework's own notice");
            let events = std::mem::take(self.parser.get_mut().callbacks_mut());
            self.parser
                .replace(Self::new_parser(self.rows, self.cols, events));
            self.fast_forward.reset();
        }
    }

    /// Puts the grid away (see `parked`) if nothing is held back, held
    /// for a synchronized update or pending, and its state can be written
    /// out exactly; it comes back at the first look. Returns whether it is
    /// put away.
    pub fn park(&mut self) -> bool {
        // Output held back for a frame that never came (the pane is hidden).
        self.settle();
        let busy = !self.fast_forward.is_settled()
            || self.fast_forward.loading()
            || self.fast_forward.sync().frozen().is_some()
            || self.primary_cut;
        !busy && self.parser.park(self.fast_forward.hidden_state_touched())
    }

    /// Whether the grid is put away until the next look.
    pub fn is_parked(&self) -> bool {
        self.parser.is_parked()
    }

    /// Which rows of the live screen may have changed since the last call
    /// (for the render cache).
    pub(in crate::pane) fn take_damage(&mut self) -> Damage {
        if self.fast_forward.sync_mut().holds_drawn_picture() {
            // What parsing changes meanwhile waits for the update's end
            // (it ends with every row possibly changed); what the pane did
            // itself (the view moved) still counts.
            return self.damage.take(Damage::None);
        }
        self.damage.take(self.fast_forward.take_damage())
    }

    /// Whether the screen shows all output received so far.
    pub fn is_settled(&self) -> bool {
        self.fast_forward.is_settled()
    }

    /// Output bytes never parsed because later output scrolled them off.
    pub fn bytes_skipped(&self) -> u64 {
        self.fast_forward.skipped
    }

    /// Total bytes received (parsed or skipped), for the `--fps`
    /// overlay's throughput.
    pub fn bytes_received(&self) -> u64 {
        self.bytes_received
    }

    fn drain_parser_events(&mut self) {
        let colours = self.fast_forward.fidelity().colour_sets().generation();
        if colours != self.colours_noted {
            // Every cell may be drawn in other colours now.
            self.colours_noted = colours;
            self.damage.note(Change::ScreenReplaced);
        }
        // A parked parser has nothing to tell (it is parked only then).
        let Some(parser) = self.parser.live_mut() else {
            return;
        };
        if self.told.collect(parser.callbacks_mut()) {
            self.damage.note(Change::Titled);
        }
    }

    /// The answers to the program's queries parsing made, to send (see
    /// `Pane::answer_program`).
    pub(in crate::pane) fn take_replies(&mut self) -> Vec<u8> {
        let Some(parser) = self.parser.live_mut() else {
            return Vec::new();
        };
        let events = parser.callbacks_mut();
        if events.replies.is_empty() {
            return Vec::new();
        }
        std::mem::take(&mut events.replies)
    }

    /// What the program told of itself: its title, directory, progress.
    pub fn told(&self) -> &Told {
        &self.told
    }

    /// What the program told (bell, notifications, clipboard) since the
    /// last call.
    pub fn take_news(&mut self) -> News {
        self.told.take_news()
    }

    /// The grid takes the new size. Returns whether the primary screen is
    /// to be laid out again from the ring (the width changed, or it grew
    /// taller, on the primary screen); else it was resized as vt100 does.
    pub(in crate::pane) fn resize(&mut self, rows: u16, cols: u16) -> bool {
        // Held-back output was written for the old size.
        self.settle();
        // A held picture has the old size too; the program redraws anyway.
        self.release_sync();
        let alternate = self.parser.get().screen().alternate_screen();
        // A wider or narrower grid is rewrapped; a taller one takes back
        // the rows a shorter one pushed above the screen. (A shorter one
        // loses rows below the cursor, then pushes rows up, as vt100 does.)
        let relayout = cols != self.cols || rows > self.rows;
        self.primary_cut |= relayout && alternate;
        self.fast_forward.grid_resized(self.rows, rows);
        self.rows = rows;
        self.cols = cols;
        self.damage.note(Change::Resized);
        relayout && !alternate
    }

    /// Resizes the parser's grid as vt100 does (no reflow).
    pub(in crate::pane) fn resize_grid(&mut self) {
        let (rows, cols) = (self.rows, self.cols);
        // vt100 moves the saved cursor with the rows.
        self.parser.hidden_state_changed();
        // vt100 can leave a grid inconsistent without panicking at once
        // (a wide cell in the last column); resizing it must not end the
        // workspace either.
        if let Err(message) = contain(|| self.parser.get_mut().set_size(grid(rows), grid(cols))) {
            self.parser_failed("resizing this pane", &ParserPanicked { message });
        }
    }

    /// The report of the new size a program asked for (mode 2048), if it
    /// did: `rows` x `cols` cells of `cell` pixels.
    pub(in crate::pane) fn size_report(&self) -> Option<Vec<u8>> {
        if !self.modes().in_band_resize {
            return None;
        }
        let (rows, cols) = (self.rows, self.cols);
        let told = self.fast_forward.fidelity().attached_facts();
        let cell = told.reach.cell_pixels();
        let (height, width) = (
            rows.saturating_mul(cell.height),
            cols.saturating_mul(cell.width),
        );
        Some(format!("\x1b[48;{rows};{cols};{height};{width}t").into_bytes())
    }

    /// A replay's parser and fast-forward take the place of the live ones
    /// (see `reflow`): the old parser's pending titles, bells and replies
    /// carry on (the replay's were seen the first time), and so do the
    /// counts of bytes skipped, the terminal's colours and the guards.
    pub(in crate::pane) fn adopt_replay(
        &mut self,
        mut parser: PaneParser,
        mut fast_forward: FastForward,
        checkpoint: Option<Checkpoint>,
    ) {
        self.reflowed = checkpoint;
        *parser.callbacks_mut() = std::mem::take(self.parser.get_mut().callbacks_mut());
        fast_forward.skipped = self.fast_forward.skipped;
        let attached = self.fast_forward.fidelity().attached_facts();
        fast_forward.fidelity_mut().set_attached_facts(attached);
        fast_forward.osc_guard = std::mem::take(&mut self.fast_forward.osc_guard);
        fast_forward.kitty.intake = std::mem::take(&mut self.fast_forward.kitty.intake);
        self.parser.replace(parser);
        self.fast_forward = fast_forward;
        self.damage.note(Change::ScreenReplaced);
    }

    /// Whether the live screen is the alternate one.
    pub(in crate::pane) fn on_alternate_screen(&self) -> bool {
        self.parser.get().screen().alternate_screen()
    }

    pub fn size(&self) -> (u16, u16) {
        (self.rows, self.cols)
    }

    /// Makes the next reflow replay from the ring, as the first one does
    /// (for `benches/reflow.rs`).
    #[doc(hidden)]
    pub fn forget_reflow_checkpoint(&mut self) {
        self.reflowed = None;
    }

    /// The live screen as shown: as it was at the start of a synchronized
    /// update still open.
    pub fn shown_screen(&self) -> ScreenView<'_> {
        ScreenView::new(match self.fast_forward.sync().frozen() {
            Some(frozen) => frozen,
            None => self.parser.get().screen(),
        })
    }

    /// When the synchronized update the program left open is shown as it
    /// is ([`crate::pane::term::sync_update::TIMEOUT`] after it started).
    pub fn sync_deadline(&self) -> Option<Instant> {
        self.fast_forward.sync().deadline()
    }

    /// Shows the live screen if the open synchronized update ran out of
    /// time by `now`. Returns whether the picture changed.
    pub fn end_overdue_sync(&mut self, now: Instant) -> bool {
        if self.sync_deadline().is_none_or(|due| now < due) {
            return false;
        }
        tracing::debug!(id = ?self.id, "a synchronized update did not end in time");
        self.release_sync()
    }

    /// Ends the hold of an open synchronized update. Returns whether there
    /// was one.
    pub(in crate::pane) fn release_sync(&mut self) -> bool {
        let held = self.fast_forward.release_sync();
        if held {
            self.damage.note(Change::ScreenReplaced);
        }
        held
    }

    /// The program's screen, even while an update is held or the history
    /// is shown.
    pub fn screen(&self) -> ScreenView<'_> {
        ScreenView::new(self.parser.get().screen())
    }

    /// The modes the program set that vt100 does not keep (focus events,
    /// insert mode, auto-wrap). Always current.
    pub fn modes(&self) -> Modes {
        self.fast_forward.fidelity().modes()
    }

    /// The colours the program set for this pane (OSC 4, 10, 11, 12).
    pub fn colour_sets(&self) -> &ColourSets {
        self.fast_forward.fidelity().colour_sets()
    }

    /// The kitty keyboard flags the program asked for on the screen it
    /// shows (0: legacy keys).
    pub fn keyboard_flags(&self) -> u8 {
        let alternate = self.parser.get().screen().alternate_screen();
        self.fast_forward.fidelity().keyboard_flags(alternate)
    }

    /// What a program that subscribed to theme reports (`CSI ? 2031 h`)
    /// is told when the terminals' theme changed (mode 2031), if it did.
    pub(in crate::pane) fn theme_report(&self) -> Option<Vec<u8>> {
        let fidelity = self.fast_forward.fidelity();
        if !fidelity.modes().theme_reports {
            return None;
        }
        let told = fidelity.attached_facts().dark;
        let dark = crate::pane::term::fidelity::theme::dark(told, fidelity.terminal_colours()[1])?;
        let mut report = Vec::new();
        crate::pane::term::fidelity::theme::report(dark, &mut report);
        Some(report)
    }

    /// What the program is told of the attached terminals: the colours it
    /// is answered when it asks for them (OSC 10/11/12), their theme.
    pub fn set_attached_facts(&mut self, facts: crate::pane::term::attached_facts::AttachedFacts) {
        self.fast_forward.fidelity_mut().set_attached_facts(facts);
    }

    /// What tilework calls the pane besides its program's title (the
    /// foreground program, the directory) changed: its border is redrawn.
    pub fn name_changed(&mut self) {
        self.damage.note(Change::Titled);
    }

    /// When the loop should look at held answers again.
    pub fn held_replies_check(&self, now: Instant) -> Option<Instant> {
        self.held_replies.next_check(now)
    }
}
