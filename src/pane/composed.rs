//! One pane: a program on a PTY ([`Program`]), the terminal that mirrors
//! its screen ([`Term`]) and its byte history ([`History`]), put together.
//! Output goes from the program into the history's ring and through the
//! terminal to the screen; a resize reaches all three.
//!
//! The render loop owns every pane; nothing here is shared with another
//! thread except through channels.

use std::time::Instant;

use crate::graphics::picture_store::PictureStore;
use crate::pane::PaneId;
use crate::pane::history::reflow;
use crate::pane::history::scroll_view::History;
use crate::pane::program::Program;
use crate::pane::program::process::Launcher;
use crate::pane::program::pty::{ExitInfo, OutputChunk, SpawnSpec};
use crate::pane::program::unfed::{FeedSink, Unfed};
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::term::damage::{Change, Damage};
use crate::pane::term::emulator::{MIN_GRID, Term};
use crate::pane::term::screen::ScreenView;
use crate::pane::term::terminal_queries::PaneEvents;

/// Moving to a newer tilework (an upgrade).
mod handoff;
mod query_answers;
mod restored;

pub struct Pane {
    pub id: PaneId,
    /// The command as the user would recognise it, the title until the
    /// program sets one.
    label: String,
    /// The command this pane was started with, for saving profiles.
    pub spec: SpawnSpec,
    program: Program,
    term: Term,
    history: History,
}

impl Pane {
    /// Starts `spec` with `launcher` in a new pane of `rows` x `cols` content
    /// cells, its program told `facts` of the attached terminals. When the
    /// program cannot start, the pane still opens and says why.
    pub fn spawn(
        id: PaneId,
        spec: SpawnSpec,
        label: String,
        (rows, cols): (u16, u16),
        scrollback_bytes: usize,
        launcher: &dyn Launcher,
        facts: AttachedFacts,
    ) -> Self {
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        let cell = facts.reach.cell_pixels();
        let spawned = launcher.launch(id, &spec, rows, cols, cell);
        let (process, spawn_error) = match spawned {
            Ok(p) => (Some(p), None),
            Err(err) => {
                tracing::warn!(?id, "spawn failed: {err:#}");
                (None, Some(format!("{err:#}")))
            }
        };
        let notice = spawn_error
            .as_ref()
            .map(|err| format!("\x1b[31mtilework: {err}\x1b[m\r\n"));
        let program = Program::new(process, spawn_error);
        let mut pane = Self::with_parts(id, rows, cols, scrollback_bytes, program, spec, label);
        pane.term.set_attached_facts(facts);
        pane.history.set_picture_reach(facts.reach);
        if let Some(notice) = notice {
            pane.term.write_notice(notice.as_bytes());
        }
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
        let program = Program::new(None, None);
        Self::with_parts(
            id,
            rows,
            cols,
            scrollback_bytes,
            program,
            spec,
            "detached".into(),
        )
    }

    /// The one place a pane's parts are put together.
    fn with_parts(
        id: PaneId,
        rows: u16,
        cols: u16,
        scrollback_bytes: usize,
        program: Program,
        spec: SpawnSpec,
        label: String,
    ) -> Self {
        Self {
            id,
            label,
            spec,
            program,
            term: Term::new(id, rows, cols),
            history: History::new(id, scrollback_bytes, rows, cols),
        }
    }

    /// The program on the pane's PTY.
    pub fn program(&self) -> &Program {
        &self.program
    }

    pub fn program_mut(&mut self) -> &mut Program {
        &mut self.program
    }

    /// The terminal that mirrors the program's screen.
    pub fn term(&self) -> &Term {
        &self.term
    }

    pub fn term_mut(&mut self) -> &mut Term {
        &mut self.term
    }

    /// The pictures its program sends go to `store` (its workspace's),
    /// and its history's windows show those `store` keeps.
    pub fn set_pictures(&mut self, store: &PictureStore) {
        self.term
            .fast_forward
            .fidelity_mut()
            .set_pictures(store.clone());
        self.history.pictures = store.clone();
    }

    /// The pane's history and the view of it shown when scrolled back.
    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn history_mut(&mut self) -> &mut History {
        &mut self.history
    }

    /// Takes a chunk of program output: into the history ring, and to the
    /// parser through the fast-forward (plain output waits for
    /// [`Pane::settle`]), after any output still waiting. The chunk's buffer
    /// goes back to the reader.
    pub fn feed(&mut self, chunk: OutputChunk) {
        self.program.take_in(chunk);
        self.feed_unfed(|unfed, pane| unfed.feed_all(pane));
    }

    /// Feeds the output taken in (`Program::take_in`), in pieces, until
    /// `deadline` or until `interrupted()` (asked between pieces: the user
    /// typed something). Returns whether all of it was fed; the rest waits.
    pub fn feed_until(&mut self, deadline: Instant, interrupted: impl Fn() -> bool) -> bool {
        let resumed = self.term.resume_graphics_load();
        self.answer_program();
        if !resumed {
            return true;
        }
        self.feed_unfed(|unfed, pane| {
            unfed.feed_until(pane, || interrupted() || Instant::now() >= deadline)
        })
    }

    /// Runs `feed` over the waiting output with the pane as its sink (the
    /// queue is lent out meanwhile: feeding borrows the whole pane).
    fn feed_unfed<T>(&mut self, feed: impl FnOnce(&mut Unfed, &mut Self) -> T) -> T {
        let mut unfed = std::mem::take(&mut self.program.unfed);
        let result = feed(&mut unfed, self);
        self.program.unfed = unfed;
        result
    }

    /// Drains whatever the reader already queued (its last bytes), without
    /// blocking.
    pub fn drain_pending(&mut self) {
        self.program.take_in_pending();
        self.feed_unfed(|unfed, pane| unfed.feed_all(pane));
    }

    /// Parses held-back output, so the screen is current. Call before
    /// reading the screen's contents or cursor (modes are always current).
    pub fn settle(&mut self) {
        self.term.settle();
        self.answer_program();
    }

    /// Which rows of the screen shown may have changed since the last call
    /// (for the render cache).
    pub fn take_damage(&mut self) -> Damage {
        self.term.take_damage().merge(self.history.take_damage())
    }

    /// Changes whenever what the pane shows may have changed.
    pub fn damage_generation(&self) -> u64 {
        self.term.damage.generation() + self.history.damage.generation()
    }

    /// Changes whenever the pane's border may show something else (title,
    /// scroll position, exit status).
    pub fn border_generation(&self) -> u64 {
        self.term.damage.border_generation() + self.history.damage.border_generation()
    }

    /// Resizes grid and PTY together: the child must never see a size the
    /// parser does not have.
    pub fn resize(&mut self, rows: u16, cols: u16) {
        let (rows, cols) = (rows.max(MIN_GRID), cols.max(MIN_GRID));
        if (rows, cols) == self.term.size() {
            return;
        }
        let relayout = self.term.resize(rows, cols);
        self.answer_program();
        self.history.record_size(rows, cols);
        if !(relayout && self.reflow()) {
            self.term.resize_grid();
        }
        self.history.resize_history();
        self.tell_program_size();
    }

    /// Sets the PTY's size, in cells and in the attached terminals' pixels,
    /// and then sends the in-band size report if the program asked for it
    /// (after the PTY's size, so a program reading it hears the same).
    fn tell_program_size(&mut self) {
        let (rows, cols) = self.term.size();
        let cell = self
            .term
            .fast_forward
            .fidelity()
            .attached_facts()
            .reach
            .cell_pixels();
        self.program.resize(rows, cols, cell);
        if let Some(report) = self.term.size_report() {
            self.program.send(&report);
        }
    }

    /// The attached terminals' cell changed size in pixels (told to the
    /// emulator first): the program reads its size in pixels again, with
    /// a SIGWINCH as a terminal's font change gives one.
    pub fn cell_pixels_changed(&mut self) {
        self.tell_program_size();
    }

    /// Lays the primary screen out again at the new size from the ring
    /// (see `reflow`). Returns false when the replay failed and the old
    /// parser is to be resized instead.
    fn reflow(&mut self) -> bool {
        reflow::can_replay(&self.history.ring) && self.replay_ring()
    }

    /// A fresh parser fed the ring's newest output (see `reflow`) takes
    /// the old one's place. Returns false when the replay failed.
    fn replay_ring(&mut self) -> bool {
        let (rows, cols) = self.term.size();
        let mut parser = Term::new_parser(rows, cols, PaneEvents::default());
        // The modes the program set may be older than the bytes replayed:
        // set them first, and the replay changes them as the program did.
        let modes = self.term.modes_to_carry();
        let checkpoint = self.term.reflowed.take();
        let (ring, sizes) = (&self.history.ring, &self.history.sizes);
        let pictures = self.term.fast_forward.fidelity().pictures();
        let told = self.term.fast_forward.fidelity().attached_facts();
        match reflow::rebuild(ring, sizes, &modes, &mut parser, checkpoint, pictures, told) {
            Ok((fast_forward, checkpoint)) => {
                self.term.adopt_replay(parser, fast_forward, checkpoint);
                true
            }
            Err(failure) => {
                tracing::warn!(id = ?self.id, "{failure}, reflowing this pane; resized instead");
                false
            }
        }
    }

    /// The screen to draw: the live one (as it was at the start of a
    /// synchronized update still open) or the history view.
    pub fn screen(&self) -> ScreenView<'_> {
        match self.history.window() {
            Some(window) => window.screen(),
            None => self.term.shown_screen(),
        }
    }

    /// The terminals' theme changed (mode 2031): a program that subscribed
    /// (`CSI ? 2031 h`) is told.
    pub fn theme_changed(&self) {
        if let Some(report) = self.term.theme_report() {
            self.program.send(&report);
        }
    }

    /// Title for the border: what the program set, else the command.
    pub fn title(&self) -> &str {
        self.term.told().title().unwrap_or(&self.label)
    }

    /// The command as started (the title before the program sets one).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The program ended; the pane stays open to show its status.
    pub fn mark_exited(&mut self, info: ExitInfo) {
        // Its last update will not end now: show what it left.
        self.term.release_sync();
        self.term.held_replies.clear();
        self.term.damage.note(Change::Exited);
        self.program.set_exit(info);
    }

    /// What the border says after the exit status (a restart's back-off).
    pub fn set_exit_note(&mut self, note: Option<String>) {
        self.term.damage.note(Change::Exited);
        self.program.set_exit_note(note);
    }
}

/// How pieces of output reach the pane's parser and history.
impl FeedSink for Pane {
    fn feed_piece(&mut self, piece: &[u8]) {
        // The history gets the same capped bytes, so a replay cannot grow
        // the parser's buffer either.
        if !self.history.push(self.term.accept(piece)) {
            self.term.damage.note(Change::Output);
        }
        let primary_back = self.term.parse_accepted();
        self.answer_program();
        if primary_back {
            // The ring ends with this piece: the replay brings the new
            // parser as far as the old one, through the alternate screen
            // and back, all at the current size. (If it fails, the cut
            // screen stays, as before.)
            self.reflow();
        }
    }

    fn chunk_done(&mut self, chunk: OutputChunk) {
        self.program.recycle(chunk);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::term::screen::{Colour, MouseProtocolEncoding, MouseProtocolMode};

    const CRASH: &[u8] = crate::pane::term::parse_guard::DEBUG_FAULT;
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
        assert!(pane.term().modes().focus_events);
        assert_eq!(pane.term().keyboard_flags(), 5);
        let screen = pane.term().screen();
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
            assert!(pane.term().sync_deadline().is_some());
        }
        pane.feed(c.to_vec());
        assert_eq!(shown(&mut pane), redraw_text(1));
        assert_eq!(pane.take_damage(), Damage::Full);
        assert_eq!(pane.term().sync_deadline(), None);
        // The live screen and the modes were current all along.
        assert_eq!(pane.term().screen().contents(), redraw_text(1));
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
        assert_eq!(pane.term().sync_deadline(), None);
        assert_eq!(shown(&mut pane), redraw_text(2));
    }

    #[test]
    fn an_update_left_open_shows_after_its_time_a_resize_or_the_exit() {
        for how in ["time", "resize", "exit"] {
            let mut pane = Pane::detached(PaneId(1), 4, 30, 1 << 20);
            pane.feed([&redraw(0)[..], SYNC_START, b"\x1b[Hnever ended"].concat());
            assert!(shown(&mut pane).starts_with("frame 0"), "{how}");
            let due = pane.term().sync_deadline().unwrap();
            match how {
                "time" => {
                    assert!(
                        !pane
                            .term_mut()
                            .end_overdue_sync(due - std::time::Duration::from_millis(1))
                    );
                    assert!(pane.term_mut().end_overdue_sync(due));
                }
                "resize" => pane.resize(5, 30),
                _ => pane.mark_exited(ExitInfo {
                    code: 0,
                    signal: false,
                }),
            }
            assert!(shown(&mut pane).starts_with("never ended"), "{how}");
            assert_eq!(pane.term().sync_deadline(), None, "{how}");
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
        let skipped = pane.term().bytes_skipped() as usize;
        assert!(skipped > bursts.len() / 2, "{skipped} of {}", bursts.len());
        assert!(screen.ends_with("burst 19 line 99"), "{screen}");
        // A flood inside an update left open is skipped too, and held
        // nowhere but in the parser: the pane shows the update's start.
        pane.feed(SYNC_START.to_vec());
        let before = pane.term().bytes_skipped();
        for i in 0..20_000 {
            pane.feed(format!("held line {i}\r\n").into_bytes());
        }
        assert!(pane.term().bytes_skipped() - before > 200_000);
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
        assert!(pane.term().bytes_skipped() > 0);
        assert!(screen.ends_with("line 499"), "{screen}");
    }
}
