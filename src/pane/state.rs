//! One pane: a program on a PTY, the parser that mirrors its screen and
//! its byte history. What it shows when scrolled back is `scroll_view`.
//!
//! The render loop owns every pane; nothing here is shared with another
//! thread except through channels.

use std::num::NonZeroU16;
use std::os::fd::BorrowedFd;
use std::time::Instant;

use crossbeam_channel::{Receiver, TryRecvError};

use crate::diag::panic_guard::contain;
use crate::pane::PaneId;
use crate::pane::command_marks::CommandMarks;
use crate::pane::damage::{Change, Damage, DamageLog};
use crate::pane::fast_forward::FastForward;
use crate::pane::fidelity::Modes;
use crate::pane::fidelity::colour_sets::ColourSets;
use crate::pane::held_replies::HeldReplies;
use crate::pane::history::History;
use crate::pane::parse_guard::{ParserPanicked, RESET_NOTICE};
use crate::pane::process::{Launcher, PaneProcess};
use crate::pane::pty::{ExitInfo, OutputChunk, QUIET_READ_SIZE, QuietRead, SpawnSpec};
use crate::pane::reflow;
use crate::pane::screen::ScreenView;
use crate::pane::scrollback::ByteRing;
use crate::pane::size_log::SizeLog;
use crate::pane::terminal_queries::PaneEvents;
use crate::pane::unfed::{FeedSink, Unfed};

mod commands;
mod graphics_load;
mod query_answers;

/// vt100 panics below 2x2; a pane squeezed smaller keeps a 2x2 grid (and
/// PTY) and shows the part that fits.
pub const MIN_GRID: u16 = 2;

/// What the pane shows: the live screen or a replayed history.
pub enum ScrollView {
    Live,
    /// A replay is running; `offset` is where to land when it arrives.
    Loading {
        offset: usize,
    },
    Viewing(Box<History>),
}

pub struct Pane {
    pub id: PaneId,
    parser: vt100::Parser<PaneEvents>,
    process: Option<Box<dyn PaneProcess>>,
    pub(super) ring: ByteRing,
    pub(super) view: ScrollView,
    /// The command as the user would recognise it, the title until the
    /// program sets one.
    label: String,
    title: Option<String>,
    /// Set when the program ended and the pane stays open to show it.
    exit: Option<ExitInfo>,
    /// What happens next to an ended command (`restarting in 4 s`), for
    /// its border.
    exit_note: Option<String>,
    /// Why the program could not start, shown in the pane.
    spawn_error: Option<String>,
    cwd: Option<String>,
    bell: bool,
    /// The notifications the program sent, not yet taken, oldest first.
    notifications: Vec<crate::pane::notifications::Notification>,
    /// The colour sets' generation the damage has told of.
    colours_noted: u64,
    /// The newest OSC 52 clipboard write (base64), not yet handled.
    clipboard: Option<Vec<u8>>,
    output_closed: bool,
    /// Output taken from the reader, waiting for the loop's next turn.
    unfed: Unfed,
    /// Scans the output (capping OSC strings), holds back plain output and
    /// drops what would scroll off unseen; [`Pane::settle`] brings the
    /// parser up to date.
    fast_forward: FastForward,
    /// Takes tmux's passthrough wrapper off what programs that see `$TMUX`
    /// write (`tmux_passthrough`).
    passthrough: crate::pane::tmux_passthrough::Passthrough,
    /// What changed since the renderer last looked, beyond the rows the
    /// fast-forward's parsing reports.
    pub(super) damage: DamageLog,
    pub(super) rows: u16,
    pub(super) cols: u16,
    /// The width changed while the alternate screen showed: the primary
    /// screen underneath was cut by vt100's resize, not reflowed. It is laid
    /// out again from the ring when the program leaves the alternate screen
    /// (quitting vim or less after resizing the window).
    primary_cut: bool,
    /// The size each stretch of the ring's output was printed at, for a
    /// reflow to replay it at that size.
    pub(super) sizes: SizeLog,
    /// Where the next reflow's replay can start (see `reflow::Checkpoint`).
    reflowed: Option<reflow::Checkpoint>,
    /// Answers to queries waiting for the program's raw mode.
    held_replies: HeldReplies,
    /// Total bytes received (parsed or skipped), for the `--fps` overlay's throughput.
    pub bytes_received: u64,
    /// The command this pane was started with, for saving profiles.
    pub spec: SpawnSpec,
    /// Where each command the shell ran begins and ends (OSC 133).
    pub(super) marks: CommandMarks,
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

impl Pane {
    /// Starts `spec` with `launcher` in a new pane of `rows` x `cols` content
    /// cells. When the program cannot start, the pane still opens and says
    /// why.
    pub fn spawn(
        id: PaneId,
        spec: SpawnSpec,
        label: String,
        rows: u16,
        cols: u16,
        scrollback_bytes: usize,
        launcher: &dyn Launcher,
    ) -> Self {
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        let spawned = launcher.launch(id, &spec, rows, cols);
        let (process, spawn_error) = match spawned {
            Ok(p) => (Some(p), None),
            Err(err) => {
                tracing::warn!(?id, "spawn failed: {err:#}");
                (None, Some(format!("{err:#}")))
            }
        };
        let closed = process.is_none();
        let mut pane = Self::with_parts(id, rows, cols, scrollback_bytes, process, spec, label);
        pane.output_closed = closed;
        if let Some(err) = &spawn_error {
            pane.write_notice(format!("\x1b[31mtilework: {err}\x1b[m\r\n").as_bytes());
        }
        pane.spawn_error = spawn_error;
        pane
    }

    /// A pane with no program: the same parser, history and view, fed by
    /// hand. For fuzzing, benches and tests that need no PTY.
    pub fn detached(id: PaneId, rows: u16, cols: u16, scrollback_bytes: usize) -> Self {
        let spec = SpawnSpec {
            argv: Vec::new(),
            cwd: None,
            env: Vec::new(),
            unset: Vec::new(),
        };
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        let mut pane = Self::with_parts(
            id,
            rows,
            cols,
            scrollback_bytes,
            None,
            spec,
            "detached".into(),
        );
        pane.output_closed = true;
        pane
    }

    fn new_parser(rows: u16, cols: u16, events: PaneEvents) -> vt100::Parser<PaneEvents> {
        vt100::Parser::new_with_callbacks(grid(rows), grid(cols), 0, events)
    }

    /// The one place a pane's fields are put together.
    fn with_parts(
        id: PaneId,
        rows: u16,
        cols: u16,
        scrollback_bytes: usize,
        process: Option<Box<dyn PaneProcess>>,
        spec: SpawnSpec,
        label: String,
    ) -> Self {
        let ring = ByteRing::new(scrollback_bytes);
        Self {
            id,
            parser: Self::new_parser(rows, cols, PaneEvents::default()),
            process,
            ring,
            view: ScrollView::Live,
            label,
            title: None,
            exit: None,
            exit_note: None,
            spawn_error: None,
            cwd: None,
            bell: false,
            colours_noted: 0,
            notifications: Vec::new(),
            clipboard: None,
            output_closed: false,
            unfed: Unfed::default(),
            fast_forward: FastForward::default(),
            passthrough: Default::default(),
            damage: DamageLog::default(),
            rows,
            cols,
            primary_cut: false,
            sizes: SizeLog::new(rows, cols),
            reflowed: None,
            held_replies: HeldReplies::default(),
            bytes_received: 0,
            spec,
            marks: CommandMarks::default(),
        }
    }

    /// The channel the render loop selects on; `None` when nothing runs or
    /// the reader has finished (a disconnected channel is always "ready" and
    /// would spin the loop).
    pub fn output(&self) -> Option<&Receiver<OutputChunk>> {
        if self.output_closed {
            return None;
        }
        self.process.as_ref().map(|p| p.output())
    }

    /// The next chunk of output, if one is waiting.
    pub fn try_output(&mut self) -> Option<OutputChunk> {
        if self.output_closed {
            return None;
        }
        match self.process.as_ref()?.output().try_recv() {
            Ok(chunk) => Some(chunk),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.output_closed = true;
                None
            }
        }
    }

    /// The PTY the loop polls while this pane is quiet (see
    /// `reader_gate`), if it does.
    pub fn quiet_fd(&self) -> Option<BorrowedFd<'_>> {
        self.process.as_ref()?.quiet_fd()
    }

    /// Output the loop reads itself from a quiet PTY, as a chunk. Call
    /// only after the output channel came up empty, having seen
    /// [`Self::quiet_fd`] before taking from it: then it is in order.
    pub fn read_quiet(&mut self) -> Option<OutputChunk> {
        let mut buf = [0u8; QUIET_READ_SIZE];
        match self.process.as_ref()?.read_quiet(&mut buf) {
            QuietRead::Bytes(n) => Some(buf[..n].to_vec()),
            QuietRead::Nothing | QuietRead::Ended => None,
        }
    }

    /// Messages waiting in the output channel, for the overlay.
    pub fn queued(&self) -> usize {
        self.process.as_ref().map_or(0, |p| p.output().len())
    }

    /// Takes a chunk of program output: into the history ring, and to the
    /// parser through the fast-forward (plain output waits for
    /// [`Pane::settle`]), after any output still waiting. The chunk's buffer
    /// goes back to the reader.
    pub fn feed(&mut self, chunk: OutputChunk) {
        self.unfed.push(chunk);
        self.feed_unfed(|unfed, pane| unfed.feed_all(pane));
    }

    /// Takes a chunk of program output to feed with [`Pane::feed_until`].
    pub fn take_in(&mut self, chunk: OutputChunk) {
        self.unfed.push(chunk);
    }

    /// Feeds the output taken in, in pieces, until `deadline` or until
    /// `interrupted()` (asked between pieces: the user typed something).
    /// Returns whether all of it was fed; the rest waits.
    pub fn feed_until(&mut self, deadline: Instant, interrupted: impl Fn() -> bool) -> bool {
        if !self.resume_graphics_load() {
            return true;
        }
        self.feed_unfed(|unfed, pane| {
            unfed.feed_until(pane, || interrupted() || Instant::now() >= deadline)
        })
    }

    /// Runs `feed` over the waiting output with the pane as its sink (the
    /// queue is lent out meanwhile: feeding borrows the whole pane).
    fn feed_unfed<T>(&mut self, feed: impl FnOnce(&mut Unfed, &mut Self) -> T) -> T {
        let mut unfed = std::mem::take(&mut self.unfed);
        let result = feed(&mut unfed, self);
        self.unfed = unfed;
        result
    }

    /// Output taken in but not fed yet, in bytes.
    pub fn unfed(&self) -> usize {
        self.unfed.len()
    }

    /// Parses held-back output, so the screen is current. Call before
    /// reading the screen's contents or cursor (modes are always current).
    pub fn settle(&mut self) {
        if !self.fast_forward.is_settled() {
            // The screen changes now, not when the bytes arrived.
            self.damage.note(Change::Output);
            if let Err(failure) = self.fast_forward.settle(&mut self.parser) {
                self.parser_failed("on this pane's output", &failure);
            }
            self.drain_parser_events();
        }
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
        let events = std::mem::take(self.parser.callbacks_mut());
        let modes = self.modes_to_carry();
        self.parser = Self::new_parser(self.rows, self.cols, events);
        self.fast_forward.reset();
        // The screen no longer follows from the last reflow's grid.
        self.reflowed = None;
        self.damage.note(Change::ScreenReplaced);
        self.write_notice(&[&modes[..], RESET_NOTICE].concat());
    }

    /// The modes the program set, as bytes that set them again on a fresh
    /// parser: the screen's (input modes, alternate screen, hidden cursor)
    /// and what the fidelity layer keeps (focus events, kitty key flags).
    fn modes_to_carry(&self) -> Vec<u8> {
        // Reading modes cannot touch a broken grid, but stay careful.
        let mut modes = contain(|| modes_of(self.parser.screen())).unwrap_or_default();
        let kept = self.fidelity_modes();
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

    /// Writes tilework's own text (and modes) into the live screen. Only
    /// when nothing is held back: a new pane, or a fresh parser.
    fn write_notice(&mut self, bytes: &[u8]) {
        self.damage.note(Change::ScreenReplaced);
        // Through the fast-forward, which follows REP's character.
        if let Err(failure) = self.fast_forward.parse_now(&mut self.parser, bytes) {
            // Not expected from a fresh parser; a blank screen rather than
            // another round of recovery.
            tracing::warn!(id = ?self.id, "{failure}, on tilework's own notice");
            let events = std::mem::take(self.parser.callbacks_mut());
            self.parser = Self::new_parser(self.rows, self.cols, events);
            self.fast_forward.reset();
        }
    }

    /// Which rows of the live screen may have changed since the last call
    /// (for the render cache).
    pub fn take_damage(&mut self) -> Damage {
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

    fn drain_parser_events(&mut self) {
        let colours = self.fast_forward.fidelity().colour_sets().generation();
        if colours != self.colours_noted {
            // Every cell may be drawn in other colours now.
            self.colours_noted = colours;
            self.damage.note(Change::ScreenReplaced);
        }
        let events = self.parser.callbacks_mut();
        if let Some(title) = events.title.take() {
            self.title = Some(title);
            self.damage.note(Change::Titled);
        }
        if let Some(cwd) = events.cwd.take() {
            self.cwd = Some(cwd);
        }
        self.bell |= std::mem::take(&mut events.bell);
        for notification in events.notifications.drain(..) {
            crate::pane::notifications::queue(&mut self.notifications, notification);
        }
        if let Some(data) = events.clipboard.pop() {
            self.clipboard = Some(data);
        }
        if !events.replies.is_empty() {
            let replies = std::mem::take(&mut events.replies);
            self.answer_program(replies);
        }
    }

    /// Sends bytes to the program (keys, paste, query answers). Never blocks.
    pub fn send(&self, bytes: &[u8]) -> bool {
        match &self.process {
            Some(p) if self.exit.is_none() => p.send_input(bytes),
            _ => false,
        }
    }

    /// [`Self::send`] of a buffer the pane may keep as it is (a paste).
    pub fn send_owned(&self, bytes: Vec<u8>) -> bool {
        match &self.process {
            Some(p) if self.exit.is_none() => p.send_input_owned(bytes),
            _ => false,
        }
    }

    /// Until when the loop should leave the user's terminal unread: much
    /// input waits for this pane's program, which is taking it.
    pub fn input_hold(&self) -> Option<std::time::Instant> {
        self.process.as_ref().and_then(|p| p.input_hold())
    }

    /// Resizes grid and PTY together: the child must never see a size the
    /// parser does not have.
    pub fn resize(&mut self, rows: u16, cols: u16) {
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        if (rows, cols) == (self.rows, self.cols) {
            return;
        }
        // Held-back output was written for the old size.
        self.settle();
        // A held picture has the old size too; the program redraws anyway.
        self.release_sync();
        let alternate = self.parser.screen().alternate_screen();
        // A wider or narrower grid is rewrapped; a taller one takes back
        // the rows a shorter one pushed above the screen. (A shorter one
        // loses rows below the cursor, then pushes rows up, as vt100 does.)
        let relayout = cols != self.cols || rows > self.rows;
        self.primary_cut |= relayout && alternate;
        self.fast_forward.grid_resized(self.rows, rows);
        self.sizes
            .record(self.ring.end(), rows, cols, self.ring.start());
        self.rows = rows;
        self.cols = cols;
        self.damage.note(Change::Resized);
        if !(relayout && !alternate && self.reflow()) {
            // vt100 can leave a grid inconsistent without panicking at once
            // (a wide cell in the last column); resizing it must not end the
            // workspace either.
            if let Err(message) = contain(|| self.parser.set_size(grid(rows), grid(cols))) {
                self.parser_failed("resizing this pane", &ParserPanicked { message });
            }
        }
        self.resize_history();
        if let Some(p) = &self.process {
            p.resize(rows, cols);
        }
        if self.fidelity_modes().in_band_resize {
            // After the PTY's size, so a program reading it hears the same.
            let cell = crate::graphics::reach::cell_pixels();
            let (height, width) = (
                rows.saturating_mul(cell.height),
                cols.saturating_mul(cell.width),
            );
            self.send(format!("\x1b[48;{rows};{cols};{height};{width}t").as_bytes());
        }
    }

    /// Lays the primary screen out again at the new size from the ring
    /// (see `reflow`). Returns false when the replay failed and the old
    /// parser is to be resized instead.
    fn reflow(&mut self) -> bool {
        reflow::can_replay(&self.ring) && self.replay_ring()
    }

    /// A fresh parser fed the ring's newest output (see `reflow`) takes
    /// the old one's place. Returns false when the replay failed.
    fn replay_ring(&mut self) -> bool {
        let mut parser = Self::new_parser(self.rows, self.cols, PaneEvents::default());
        // The modes the program set may be older than the bytes replayed:
        // set them first, and the replay changes them as the program did.
        let modes = self.modes_to_carry();
        let checkpoint = self.reflowed.take();
        let rebuilt = reflow::rebuild(&self.ring, &self.sizes, &modes, &mut parser, checkpoint);
        let mut fast_forward = match rebuilt {
            Ok((fast_forward, checkpoint)) => {
                self.reflowed = checkpoint;
                fast_forward
            }
            Err(failure) => {
                tracing::warn!(id = ?self.id, "{failure}, reflowing this pane; resized instead");
                return false;
            }
        };
        // Titles, bells and query replies of the replay were seen (and sent)
        // the first time: the old parser's pending ones carry on instead.
        *parser.callbacks_mut() = std::mem::take(self.parser.callbacks_mut());
        // The counts of bytes skipped and cut are the live output's.
        fast_forward.skipped = self.fast_forward.skipped;
        let colours = self.fast_forward.fidelity().terminal_colours();
        fast_forward.fidelity_mut().set_terminal_colours(colours);
        fast_forward.osc_guard = std::mem::take(&mut self.fast_forward.osc_guard);
        fast_forward.kitty = std::mem::take(&mut self.fast_forward.kitty);
        self.parser = parser;
        self.fast_forward = fast_forward;
        self.damage.note(Change::ScreenReplaced);
        true
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

    /// The screen to draw: the live one (as it was at the start of a
    /// synchronized update still open) or the history view.
    pub fn screen(&self) -> ScreenView<'_> {
        match &self.view {
            ScrollView::Viewing(h) => h.screen(),
            _ => ScreenView::new(match self.fast_forward.sync().frozen() {
                Some(frozen) => frozen,
                None => self.parser.screen(),
            }),
        }
    }

    /// When the synchronized update the program left open is shown as it
    /// is ([`crate::pane::sync_update::TIMEOUT`] after it started).
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
    fn release_sync(&mut self) -> bool {
        let held = self.fast_forward.release_sync();
        if held {
            self.damage.note(Change::ScreenReplaced);
        }
        held
    }

    /// The program's screen, even while the history is shown.
    pub fn live_screen(&self) -> ScreenView<'_> {
        ScreenView::new(self.parser.screen())
    }

    /// The modes the program set that vt100 does not keep (focus events,
    /// insert mode, auto-wrap). Always current.
    pub fn fidelity_modes(&self) -> Modes {
        self.fast_forward.fidelity().modes()
    }

    /// The colours the program set for this pane (OSC 4, 10, 11, 12).
    pub fn colour_sets(&self) -> &ColourSets {
        self.fast_forward.fidelity().colour_sets()
    }

    /// Whether the program asked for focus events (`CSI ? 1004 h`).
    pub fn wants_focus_events(&self) -> bool {
        self.fidelity_modes().focus_events
    }

    /// The kitty keyboard flags the program asked for on the screen it
    /// shows (0: legacy keys).
    pub fn keyboard_flags(&self) -> u8 {
        let alternate = self.parser.screen().alternate_screen();
        self.fast_forward.fidelity().keyboard_flags(alternate)
    }

    /// The terminals' theme changed (mode 2031): a program that subscribed
    /// (`CSI ? 2031 h`) is told.
    pub fn theme_changed(&self) {
        let fidelity = self.fast_forward.fidelity();
        if !fidelity.modes().theme_reports {
            return;
        }
        if let Some(dark) = crate::pane::fidelity::theme::dark(fidelity.terminal_colours()[1]) {
            let mut report = Vec::new();
            crate::pane::fidelity::theme::report(dark, &mut report);
            self.send(&report);
        }
    }

    /// What the program is told when it asks for the terminal's
    /// foreground, background and cursor colours (OSC 10/11/12).
    pub fn set_terminal_colours(&mut self, colours: [Option<crate::config::colour::Rgb>; 3]) {
        self.fast_forward
            .fidelity_mut()
            .set_terminal_colours(colours);
    }

    /// Title for the border: what the program set, else the command.
    pub fn title(&self) -> &str {
        self.title
            .as_deref()
            .filter(|t| !t.is_empty())
            .unwrap_or(&self.label)
    }

    /// The title the program set (OSC 0/2), if it set one.
    pub fn program_title(&self) -> Option<&str> {
        self.title.as_deref().filter(|t| !t.is_empty())
    }

    /// Changes whenever what the pane shows may have changed.
    pub fn damage_generation(&self) -> u64 {
        self.damage.generation()
    }

    /// What tilework calls the pane besides its program's title (the
    /// foreground program, the directory) changed: its border is redrawn.
    pub fn name_changed(&mut self) {
        self.damage.note(Change::Titled);
    }

    /// Changes whenever the pane's border may show something else (title,
    /// scroll position, exit status).
    pub fn border_generation(&self) -> u64 {
        self.damage.border_generation()
    }

    /// The command as started (the title before the program sets one).
    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The program's newest clipboard write (base64), if any.
    pub fn take_clipboard(&mut self) -> Option<Vec<u8>> {
        self.clipboard.take()
    }

    /// The notifications (OSC 9, 777, 99) since the last call, oldest
    /// first: a burst of them is all there.
    pub fn take_notifications(&mut self) -> Vec<crate::pane::notifications::Notification> {
        std::mem::take(&mut self.notifications)
    }

    pub fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.bell)
    }

    pub fn exit(&self) -> Option<ExitInfo> {
        self.exit
    }

    pub fn spawn_error(&self) -> Option<&str> {
        self.spawn_error.as_deref()
    }

    /// The program ended; the pane stays open to show its status.
    pub fn mark_exited(&mut self, info: ExitInfo) {
        // Its last update will not end now: show what it left.
        self.release_sync();
        self.held_replies.clear();
        self.damage.note(Change::Exited);
        self.exit = Some(info);
    }

    /// What the border says after the exit status (a restart's back-off).
    pub fn set_exit_note(&mut self, note: Option<String>) {
        self.damage.note(Change::Exited);
        self.exit_note = note;
    }

    pub fn exit_note(&self) -> Option<&str> {
        self.exit_note.as_deref()
    }

    /// Drains whatever the reader already queued (its last bytes), without
    /// blocking.
    pub fn drain_pending(&mut self) {
        let chunks: Vec<OutputChunk> = match &self.process {
            Some(p) => p.output().try_iter().collect(),
            None => Vec::new(),
        };
        for chunk in chunks {
            self.unfed.push(chunk);
        }
        self.feed_unfed(|unfed, pane| unfed.feed_all(pane));
    }

    /// Hangs up on the program (non-blocking; the waiter thread reaps it).
    pub fn terminate(&self) {
        if let Some(p) = &self.process {
            p.terminate();
        }
    }

    pub fn kill_now(&self) {
        if let Some(p) = &self.process {
            p.kill_now();
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().and_then(|p| p.pid())
    }

    pub fn history_bytes(&self) -> usize {
        self.ring.len()
    }

    /// The pane's history ring, for saving it (see `persist`).
    pub fn history_ring(&self) -> &ByteRing {
        &self.ring
    }

    /// Puts `saved` (a history saved before a crash or reboot, see
    /// `persist`) in front of this pane's output, its newest screenful on
    /// the screen, then `marker`. Call before any output is fed. What the
    /// replay of `saved` would tell (titles, query replies) was told to
    /// the old program, never to this one.
    pub fn restore_history(&mut self, saved: &[u8], marker: &[u8]) {
        self.ring.push(saved);
        self.show_restored(marker);
    }

    /// The restored history in the ring goes on screen, then `marker`.
    pub(super) fn show_restored(&mut self, marker: &[u8]) {
        // The saved sizes (if any) end here; what follows is printed now.
        self.sizes
            .record(self.ring.end(), self.rows, self.cols, self.ring.start());
        if !self.replay_ring() {
            self.ring = ByteRing::new(self.ring.budget());
        }
        // A full-screen program was running: the shell comes back on the
        // primary screen.
        let mut notice = Vec::new();
        if self.parser.screen().alternate_screen() {
            notice.extend_from_slice(b"\x1b[?1049l");
        }
        notice.extend_from_slice(b"\x1b[m\x1b[?25h");
        notice.extend_from_slice(marker);
        self.ring.push(&notice);
        self.write_notice(&notice);
    }
}

/// How pieces of output reach the pane's parser and history.
impl FeedSink for Pane {
    fn feed_piece(&mut self, piece: &[u8]) {
        // The history gets the same capped bytes, so a replay cannot grow
        // the parser's buffer either.
        let unwrapped = self.passthrough.unwrap(piece);
        let at = self.ring.end();
        let (bytes, marks) = self.fast_forward.accept_into(&unwrapped, &mut self.ring);
        if self.marks.take_found(marks, bytes, at, &self.ring) {
            // The border tells a failed command.
            self.damage.note(Change::Titled);
        }
        if let ScrollView::Viewing(history) = &mut self.view {
            history.add_stops(self.marks.stops(at, self.ring.end()));
            history.feed(bytes);
        }
        let parsed = self.fast_forward.parse_accepted(&mut self.parser);
        self.bytes_received += piece.len() as u64;
        self.damage.note(match self.view {
            ScrollView::Viewing(_) => Change::HistoryGrew,
            _ => Change::Output,
        });
        if let Err(failure) = parsed {
            self.parser_failed("on this pane's output", &failure);
        }
        self.drain_parser_events();
        if self.primary_cut && !self.parser.screen().alternate_screen() {
            self.primary_cut = false;
            // The ring ends with this piece: the replay brings the new
            // parser as far as the old one, through the alternate screen
            // and back, all at the current size. (If it fails, the cut
            // screen stays, as before.)
            self.reflow();
        }
    }

    fn chunk_done(&mut self, chunk: OutputChunk) {
        if let Some(p) = &self.process {
            p.recycle(chunk);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::screen::{Colour, MouseProtocolEncoding, MouseProtocolMode};

    const CRASH: &[u8] = crate::pane::parse_guard::VT100_PANIC;
    const NOTICE: &str =
        "tilework: the terminal parser failed on this output; the screen was reset";

    fn text(pane: &mut Pane) -> String {
        pane.settle();
        pane.screen().contents()
    }

    #[test]
    fn the_reported_crash_resets_a_six_by_three_pane_which_keeps_working() {
        let a: &[u8] = b"line 0\r\nline 1\r\nline 2\r\na longer line of text that wraps\xe2\x9d\xa4\xef\xb8\x8f";
        let b: &[u8] = b"\x1b[2rline 0\r\nline 1\r\n";
        let mut pane = Pane::detached(PaneId(1), 6, 3, 1 << 20);
        pane.feed(a.to_vec());
        pane.settle();
        pane.feed(b.to_vec());
        pane.settle();
        pane.feed(b"\x1b[H\x1b[2Jok".to_vec());
        assert_eq!(text(&mut pane), "ok");
    }

    #[test]
    fn a_parser_panic_shows_the_notice_and_later_output() {
        for settle_between in [false, true] {
            let mut pane = Pane::detached(PaneId(1), 10, 80, 1 << 20);
            pane.feed(b"before\r\n".to_vec());
            pane.feed(CRASH.to_vec());
            if settle_between {
                // The panic happens while settling...
                pane.settle();
            }
            // ...or at the BEL, while the output is pushed.
            pane.feed(b"\x07".to_vec());
            pane.feed(b"after 1\r\nafter 2".to_vec());
            let screen = text(&mut pane);
            let lines: Vec<&str> = screen.lines().collect();
            assert_eq!(lines, [NOTICE, "after 1", "after 2"], "{settle_between}");
            assert_eq!(pane.screen().cursor_position(), (2, 7));
            let red = pane.screen().cell(0, 0).unwrap().fg();
            assert_eq!(red, Colour::Indexed(1));
            assert_eq!(pane.screen().cell(1, 0).unwrap().fg(), Colour::Default);
        }
    }

    #[test]
    fn the_fresh_parser_keeps_modes_and_pending_events() {
        let mut pane = Pane::detached(PaneId(1), 10, 40, 1 << 20);
        let mut bytes = b"\x1b[?1049h\x1b[?1h\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?25l".to_vec();
        bytes.extend_from_slice(b"\x1b[?1004h\x1b[>5u");
        bytes.extend_from_slice(b"\x1b]2;my title\x07");
        bytes.extend_from_slice(CRASH);
        bytes.extend_from_slice(b"\x07");
        pane.feed(bytes);
        pane.settle();
        assert_eq!(pane.title(), "my title");
        assert!(pane.wants_focus_events());
        assert_eq!(pane.keyboard_flags(), 5);
        let screen = pane.live_screen();
        assert!(screen.alternate_screen());
        assert!(screen.application_cursor());
        assert!(screen.bracketed_paste());
        assert!(screen.hide_cursor());
        assert_eq!(
            screen.mouse_protocol_mode(),
            MouseProtocolMode::PressRelease
        );
        assert_eq!(screen.mouse_protocol_encoding(), MouseProtocolEncoding::Sgr);
        assert!(
            screen
                .contents()
                .starts_with("tilework: the terminal parser")
        );
        // Leaving the alternate screen works as for any program.
        pane.feed(b"\x1b[?1049lmain".to_vec());
        assert_eq!(text(&mut pane), "main");
    }

    const SYNC_START: &[u8] = b"\x1b[?2026h";
    const SYNC_END: &[u8] = b"\x1b[?2026l";

    /// A redraw of all rows, each saying `frame`.
    fn redraw(frame: usize) -> Vec<u8> {
        (0..4)
            .flat_map(|row| format!("\x1b[{};1Hframe {frame} row {row}", row + 1).into_bytes())
            .collect()
    }

    fn shown(pane: &mut Pane) -> String {
        pane.settle();
        pane.screen().contents()
    }

    #[test]
    fn a_synchronized_update_shows_whole_when_it_ends() {
        let mut pane = Pane::detached(PaneId(1), 4, 30, 1 << 20);
        pane.feed(redraw(0));
        let first = shown(&mut pane);
        pane.take_damage();
        // The update arrives in pieces; frames in between show frame 0.
        let update = [SYNC_START, &redraw(1), SYNC_END].concat();
        let (a, rest) = update.split_at(20);
        let (b, c) = rest.split_at(30);
        // The copy taken at the start is drawn once, then nothing changes.
        for (piece, damage) in [(a, Damage::Full), (b, Damage::None)] {
            pane.feed(piece.to_vec());
            assert_eq!(shown(&mut pane), first);
            assert_eq!(pane.take_damage(), damage);
            assert!(pane.sync_deadline().is_some());
        }
        pane.feed(c.to_vec());
        assert_eq!(shown(&mut pane), redraw_text(1));
        assert_eq!(pane.take_damage(), Damage::Full);
        assert_eq!(pane.sync_deadline(), None);
        // The live screen and the modes were current all along.
        assert_eq!(pane.live_screen().contents(), redraw_text(1));
    }

    fn redraw_text(frame: usize) -> String {
        let mut pane = Pane::detached(PaneId(2), 4, 30, 1 << 20);
        pane.feed(redraw(frame));
        shown(&mut pane)
    }

    /// An update ends and the next starts between two frames: the picture
    /// moved on, to the end of the first, and is drawn again.
    #[test]
    fn back_to_back_updates_each_show_whole() {
        let mut pane = Pane::detached(PaneId(1), 4, 30, 1 << 20);
        pane.feed(redraw(0));
        shown(&mut pane);
        pane.take_damage();
        let first = [SYNC_START, &redraw(1)[..20]].concat();
        pane.feed(first);
        assert_eq!(shown(&mut pane), redraw_text(0));
        assert_eq!(pane.take_damage(), Damage::Full);
        assert_eq!(pane.take_damage(), Damage::None);
        let between = [&redraw(1)[20..], SYNC_END, SYNC_START, &redraw(2)[..20]].concat();
        pane.feed(between);
        assert_eq!(shown(&mut pane), redraw_text(1));
        assert_eq!(pane.take_damage(), Damage::Full);
        pane.feed([&redraw(2)[20..], SYNC_END].concat());
        assert_eq!(shown(&mut pane), redraw_text(2));
        assert_eq!(pane.take_damage(), Damage::Full);
    }

    #[test]
    fn an_update_that_arrives_whole_is_never_held() {
        let mut pane = Pane::detached(PaneId(1), 4, 30, 1 << 20);
        let frames: Vec<u8> = (0..3)
            .flat_map(|f| [SYNC_START, &redraw(f), SYNC_END].concat())
            .collect();
        pane.feed(frames);
        assert_eq!(pane.sync_deadline(), None);
        assert_eq!(shown(&mut pane), redraw_text(2));
    }

    #[test]
    fn an_update_left_open_shows_after_its_time_a_resize_or_the_exit() {
        for how in ["time", "resize", "exit"] {
            let mut pane = Pane::detached(PaneId(1), 4, 30, 1 << 20);
            pane.feed([&redraw(0)[..], SYNC_START, b"\x1b[Hnever ended"].concat());
            assert!(shown(&mut pane).starts_with("frame 0"), "{how}");
            let due = pane.sync_deadline().unwrap();
            match how {
                "time" => {
                    assert!(!pane.end_overdue_sync(due - std::time::Duration::from_millis(1)));
                    assert!(pane.end_overdue_sync(due));
                }
                "resize" => pane.resize(5, 30),
                _ => pane.mark_exited(ExitInfo {
                    code: 0,
                    signal: false,
                }),
            }
            assert!(shown(&mut pane).starts_with("never ended"), "{how}");
            assert_eq!(pane.sync_deadline(), None, "{how}");
        }
    }

    #[test]
    fn a_flood_inside_updates_is_still_fast_forwarded() {
        let mut pane = Pane::detached(PaneId(1), 10, 40, 1 << 20);
        let bursts: Vec<u8> = (0..20)
            .flat_map(|burst| {
                let lines: Vec<u8> = (0..100)
                    .flat_map(|i| format!("burst {burst} line {i}\r\n").into_bytes())
                    .collect();
                [SYNC_START, &lines[..], SYNC_END].concat()
            })
            .collect();
        // Reads that end inside updates, as well as whole ones.
        for chunk in bursts.chunks(1000) {
            pane.feed(chunk.to_vec());
        }
        let screen = shown(&mut pane);
        let skipped = pane.bytes_skipped() as usize;
        assert!(skipped > bursts.len() / 2, "{skipped} of {}", bursts.len());
        assert!(screen.ends_with("burst 19 line 99"), "{screen}");
        // A flood inside an update left open is skipped too, and held
        // nowhere but in the parser: the pane shows the update's start.
        pane.feed(SYNC_START.to_vec());
        let before = pane.bytes_skipped();
        for i in 0..20_000 {
            pane.feed(format!("held line {i}\r\n").into_bytes());
        }
        assert!(pane.bytes_skipped() - before > 200_000);
        assert_eq!(shown(&mut pane), screen);
        pane.feed(SYNC_END.to_vec());
        assert!(shown(&mut pane).ends_with("held line 19999"));
    }

    #[test]
    fn a_flood_after_a_reset_is_still_fast_forwarded() {
        let mut pane = Pane::detached(PaneId(1), 10, 40, 1 << 20);
        pane.feed(CRASH.to_vec());
        pane.settle();
        let flood: Vec<u8> = (0..500)
            .flat_map(|i| format!("line {i}\r\n").into_bytes())
            .collect();
        pane.feed(flood);
        let screen = text(&mut pane);
        assert!(pane.bytes_skipped() > 0);
        assert!(screen.ends_with("line 499"), "{screen}");
    }
}
