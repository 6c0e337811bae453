//! Skips parsing output that would scroll off the screen before anyone
//! could see it.
//!
//! A flood (`cat` of a big log) arrives faster than vt100 parses it (about
//! 60 MB/s on one core), and the parser is the one thing between the PTY
//! and the flood running at full speed. Every byte still goes into the
//! pane's history ring (the ring, not the parser, is the scrollback), so the
//! parser only has to end up showing the right screen.
//!
//! Output is held back here instead of being parsed at once. While it
//! contains nothing but text, control bytes other than BEL, and SGR colour
//! changes, it changes nothing but the grid, the cursor and the colours.
//! When at least `2 × rows` CR LF pairs follow some CR in it, everything
//! before that CR is dropped unparsed; only its SGR sequences (from the
//! last reset on) are replayed. The rest is parsed when the screen is
//! needed ([`FastForward::settle`]) or when anything else arrives.
//!
//! Why the screen comes out the same as if every byte had been parsed:
//! - From the CR on, both parsers see the same bytes, from the same column
//!   (0) and with the same colours; only the cursor row and the grid differ.
//! - Plain output never moves the cursor up a row (only CR, BS and TAB
//!   move it within one). With the scroll region the whole screen,
//!   `rows - 1` line feeds bring either cursor to the bottom row, and
//!   `rows` more scroll away every row that existed then. Each CR LF after
//!   that starts a fresh row at column 0 that both parsers fill the same
//!   way.
//! - The kept part prints at least one character, so `REP`'s "last
//!   character" agrees too.
//! - vt100 also counts the rows scrolled off, and a grid that grows takes
//!   that many blank rows back: the dropped part's line feeds and wraps
//!   are replayed as bare line feeds until the count is past any growth.
//! - A character cut off by the end of the output so far is held back
//!   whole, so neither a cut nor a replay lands inside one.
//!
//! A scroll region breaks the second point, so DECSTBM is followed on both
//! grids and a grid that may have one is never skipped. The property test
//! in `tests/fast_forward_equivalence.rs` compares this path with plain
//! parsing.
//!
//! Output comes in through [`FastForward::accept`], where the pane's one
//! [`EscapeScanner`] reads every byte once: its [`OscGuard`] caps OSC
//! strings, and its findings say where plain output ends and where each
//! other sequence does (and which were DECSTBM, ED or RIS), so nothing
//! here follows vte's state again. (Plain output holds only whole short
//! SGRs, which the helpers that measure it step over with [`sgr_len`].)
//!
//! A synchronized update's start is copied here, as it is parsed, when
//! its end has not arrived yet: the pane shows that copy until the update
//! ends ([`crate::pane::term::sync_update`]).
//!
//! Every byte goes to the parser through [`Fidelity::process`], which
//! completes what vt100 lacks and bounds the work of REP by the screen's
//! size, then through
//! [`crate::pane::term::parse_guard::process`]. When vt100 panics, the methods here
//! stop and return the failure; the parser and this state are then both
//! broken, and the caller replaces the parser and calls
//! [`FastForward::reset`].

use std::collections::VecDeque;

use memchr::{memchr, memrchr, memrchr2};

use crate::pane::term::damage::Damage;
use crate::pane::term::escape_scanner::osc133_capture::Osc133Found;
use crate::pane::term::escape_scanner::{Ended, EscapeScanner, Finding, sgr_len};
use crate::pane::term::fidelity::Fidelity;
use crate::pane::term::fidelity::answers::Answers;
use crate::pane::term::grid_scrolling::GridScrolling;
use crate::pane::term::kitty_apc::KittyState;
use crate::pane::term::osc_guard::OscGuard;
use crate::pane::term::parse_guard::ParserPanicked;
use crate::pane::term::row_advances::row_advances;
use crate::pane::term::sync_update::SyncUpdate;

const ESC: u8 = 0x1b;
const SO: u8 = 0x0e;
const SI: u8 = 0x0f;

/// Held-back output that could not be cut (very long lines) is parsed once
/// it reaches this size, so memory stays bounded.
const MAX_DEFERRED: usize = 256 * 1024;

/// An attempt to cut waits for at least this much more output (a PTY
/// read's worth).
const MIN_TRIM_STEP: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// Everything is plain output.
    Plain,
    /// Plain up to here (an index into `deferred`); an SGR (or not), or a
    /// character, is cut off by the end.
    Incomplete(usize),
    /// Plain up to here; a BEL or a sequence that is not SGR starts here.
    Special(usize),
}

/// A piece of output taken in ([`FastForward::accept_erasing`]).
pub struct Accepted<'a, M> {
    /// The bytes as the parser will see them (the history ring stores
    /// these).
    pub bytes: &'a [u8],
    /// Where in `bytes` a `clear` erased the history before it.
    pub erased: Option<u64>,
    /// The OSC 133 sequences that ended in the piece, at the scanner's
    /// positions.
    pub marks: M,
    /// The scanner's position where the piece began: a mark at `p` is
    /// `p - scanned` bytes into `bytes` (before it, when it began in an
    /// earlier piece).
    pub scanned: u64,
}

#[derive(Debug)]
pub struct FastForward {
    /// Output the parser has not seen yet.
    deferred: Vec<u8>,
    /// `deferred[..plain]` is plain output starting in vte's ground state.
    plain: usize,
    /// Reads every byte once as it arrives.
    scanner: EscapeScanner,
    /// Caps OSC strings for the scanner.
    pub osc_guard: OscGuard,
    /// The scanner's findings not yet parsed past.
    findings: VecDeque<Finding>,
    /// The scanner's position of `deferred[0]`.
    base: u64,
    /// The front of `deferred` is inside a sequence whose end has not been
    /// parsed (its [`Finding::Starts`] was).
    in_sequence: bool,
    /// Do not try to cut again before `plain` reaches this.
    next_trim_at: usize,
    replay: Vec<u8>,
    /// The grids' scroll regions and rows scrolled off, as far as followed.
    scrolling: GridScrolling,
    /// Bytes dropped unparsed, for the log and the tests.
    pub skipped: u64,
    /// Screen rows parsing may have changed since [`FastForward::take_damage`]
    /// (so the renderer can redraw just those instead of comparing every
    /// cell).
    touched: Damage,
    /// What every byte goes through on its way to the parser.
    rep: Fidelity,
    /// The screen shown while a synchronized update is open (followed
    /// here: its start must be copied before the parser reads on).
    sync: SyncUpdate,
    /// The pane's kitty graphics state (the pictures its program named,
    /// a command waiting on a file read).
    pub kitty: KittyState,
}

impl Default for FastForward {
    fn default() -> Self {
        Self::with_saturation(u64::from(u16::MAX))
    }
}

impl FastForward {
    /// With a lower saturation than vt100's (`u16::MAX`): only for tests
    /// whose grids never grow by more than `saturation` minus their height.
    #[doc(hidden)]
    pub fn with_saturation(saturation: u64) -> Self {
        Self {
            deferred: Vec::new(),
            plain: 0,
            scanner: EscapeScanner::default(),
            osc_guard: OscGuard::default(),
            findings: VecDeque::new(),
            base: 0,
            in_sequence: false,
            next_trim_at: 0,
            replay: Vec::new(),
            scrolling: GridScrolling::new(saturation),
            skipped: 0,
            touched: Damage::Full,
            rep: Fidelity::live(),
            sync: SyncUpdate::default(),
            kitty: KittyState::default(),
        }
    }

    /// Keeps the newest `rows` rows of a parser's scrollback exact (see
    /// `history_rows`); 0 for a parser without scrollback.
    pub fn keep_history_rows(&mut self, rows: usize) {
        self.scrolling.history_rows = rows;
    }

    /// The parser was replaced by a fresh one laid out from the old (see
    /// `rewrap`): it has no scroll region and has scrolled off no rows.
    pub fn parser_replaced(&mut self, old_rows: u16) {
        self.grid_resized(old_rows, u16::MAX);
        self.scrolling.scrolled_at_least = 0;
    }

    /// Takes output for the parser: parses what must be parsed now and
    /// holds back the plain part ([`FastForward::accept`], then
    /// [`FastForward::parse_accepted`]).
    pub fn push<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        self.accept(bytes);
        self.parse_accepted(parser)
    }

    /// Scans output into the held-back part, OSC strings capped. Returns the
    /// bytes as the parser will see them (the history ring stores those).
    pub fn accept(&mut self, bytes: &[u8]) -> &[u8] {
        let from = self.deferred.len();
        self.scanner.scan(
            bytes,
            &mut self.osc_guard,
            &mut self.deferred,
            &mut self.findings,
        );
        &self.deferred[from..]
    }

    /// [`Self::accept`], with where an ED 3 on the primary screen or a RIS
    /// among the bytes erased the history before it (`clear`, `reset`:
    /// kept out of the saved files), as an offset into the bytes returned,
    /// which the pane's history ring stores; and the OSC 133 sequences
    /// (command marks) that ended among them, at the scanner's positions
    /// (see [`Accepted::scanned`]).
    pub fn accept_erasing<'a>(
        &'a mut self,
        bytes: &[u8],
    ) -> Accepted<'a, impl Iterator<Item = Osc133Found<'a>> + use<'a>> {
        let scanned = self.scanner.pos();
        let from = self.deferred.len();
        self.accept(bytes);
        let erased = self
            .scanner
            .take_erased()
            .map(|end| end.saturating_sub(scanned));
        Accepted {
            bytes: &self.deferred[from..],
            erased,
            marks: self.scanner.osc133_found(),
            scanned,
        }
    }

    /// Parses what of the accepted output must be parsed now and holds back
    /// the plain part.
    pub fn parse_accepted<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
    ) -> Result<(), ParserPanicked> {
        // Looked at before it is taken, and only after a sequence (a kitty
        // command is one): text alone pays no move of the large `Option`.
        if self.kitty.loading.is_some()
            && let Some(loading) = self.kitty.loading.take()
        {
            let reach = self.rep.attached_facts().reach;
            self.kitty.loading = crate::pane::term::kitty_apc::resume(
                &mut self.kitty.intake,
                self.rep.pictures(),
                parser,
                loading,
                reach,
            )?;
            if self.kitty.loading.is_some() {
                return Ok(());
            }
        }
        loop {
            if self.in_sequence {
                if !self.parse_sequence(parser)? || self.kitty.loading.is_some() {
                    return Ok(());
                }
                continue;
            }
            match self.plain_extent() {
                Scan::Plain => {
                    self.plain = self.deferred.len();
                    return self.trim(parser, false);
                }
                Scan::Incomplete(end) => {
                    self.plain = end;
                    return self.trim(parser, false);
                }
                Scan::Special(end) => {
                    self.plain = end;
                    self.trim(parser, true)?;
                    self.parse_plain(parser)?;
                    // The BEL or ESC at the front goes to the parser with
                    // whatever sequence it starts.
                    if !self.parse_sequence(parser)? || self.kitty.loading.is_some() {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// How far `deferred` (in vte's ground state at its front) is plain
    /// output: anything but BEL and escape sequences other than short SGRs.
    fn plain_extent(&self) -> Scan {
        if let Some(&Finding::Starts(at)) = self.findings.front() {
            return Scan::Special(self.index(at));
        }
        debug_assert!(self.findings.is_empty(), "{:?}", self.findings);
        if let Some(at) = self.scanner.pending_sgr() {
            return Scan::Incomplete(self.index(at));
        }
        // A character cut off by the end waits for the rest: vte would hold
        // its first bytes, and a cut or replay fed next would then land in
        // the middle of it.
        match incomplete_utf8_at_end(&self.deferred[self.plain..]) {
            Some(at) => Scan::Incomplete(self.plain + at),
            None => Scan::Plain,
        }
    }

    /// Where the scanner's position `at` is in `deferred`.
    fn index(&self, at: u64) -> usize {
        usize::try_from(at - self.base).unwrap_or(usize::MAX)
    }

    /// Drops `deferred[..n]`, which the parser has seen (or never will).
    fn drain(&mut self, n: usize) {
        self.deferred.drain(..n);
        self.base += n as u64;
    }

    /// Parses the held-back plain output, so the parser's screen is up to
    /// date. (A sequence cut off by the end of the output so far stays
    /// back; it has no effect on the screen yet.)
    pub fn settle<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
    ) -> Result<(), ParserPanicked> {
        if self.plain > 0 {
            self.trim(parser, true)?;
            self.parse_plain(parser)?;
        }
        Ok(())
    }

    /// Parses tilework's own output (a notice) at once, ahead of anything
    /// held back: call it when nothing is (a new pane, or after
    /// [`FastForward::reset`]).
    pub fn parse_now<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        debug_assert!(self.deferred.is_empty());
        self.touched = Damage::Full;
        self.rep.process_own(parser, bytes)
    }

    /// Starts over for a fresh parser (after the old one panicked): the
    /// held-back output is dropped and vte's state is its ground state (the
    /// scanner's too: the fresh parser never saw the rest of the sequence
    /// it was in). The counts of skipped and dropped bytes stay.
    pub fn reset(&mut self) {
        let attached = self.rep.attached_facts();
        let pictures = self.rep.pictures().clone();
        *self = Self {
            skipped: self.skipped,
            osc_guard: std::mem::take(&mut self.osc_guard),
            kitty: KittyState {
                intake: std::mem::take(&mut self.kitty.intake),
                loading: None,
            },
            ..Self::with_saturation(self.scrolling.saturation())
        };
        self.rep.set_attached_facts(attached);
        self.rep.set_pictures(pictures);
    }

    /// Whether output scanned may have set what vt100 keeps but does not
    /// write out (see `EscapeScanner::hidden_state_touched`).
    pub fn hidden_state_touched(&self) -> bool {
        self.scanner.hidden_state_touched()
    }

    /// Whether parsing waits on a kitty graphics command's file read.
    pub fn loading(&self) -> bool {
        self.kitty.loading.is_some()
    }

    /// The layer every byte goes through (its modes, keyboard flags).
    pub fn fidelity(&self) -> &Fidelity {
        &self.rep
    }

    pub fn fidelity_mut(&mut self) -> &mut Fidelity {
        &mut self.rep
    }

    /// The synchronized update open, if any (see `sync_update`).
    pub fn sync(&self) -> &SyncUpdate {
        &self.sync
    }

    pub fn sync_mut(&mut self) -> &mut SyncUpdate {
        &mut self.sync
    }

    /// Ends the open synchronized update's hold (time ran out, the grid
    /// changed size): the live screen shows, all of it possibly changed.
    /// Returns whether one was held.
    pub fn release_sync(&mut self) -> bool {
        let held = self.sync.release();
        if held {
            self.touched = Damage::Full;
        }
        held
    }

    /// The rows parsing may have changed since the last call.
    pub fn take_damage(&mut self) -> Damage {
        std::mem::take(&mut self.touched)
    }

    /// Whether the parser has seen all complete output.
    pub fn is_settled(&self) -> bool {
        self.plain == 0
    }

    /// After the parser's grid changed size: vt100 (like xterm) then resets
    /// the scroll region of both grids, and a taller grid takes back up to
    /// the growth from the count of scrolled-off rows.
    pub fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        self.scrolling.grid_resized(old_rows, new_rows);
        self.rep.grid_resized(old_rows, new_rows);
    }

    fn parse_plain<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
    ) -> Result<(), ParserPanicked> {
        // Once any row may have changed, which rows this touches is moot
        // (under a flood it always is: skip the scan).
        if self.touched != Damage::Full {
            self.touched = self.touched.merge(self.rows_plain_output_touches(parser));
        }
        self.rep.process(parser, &self.deferred[..self.plain])?;
        self.drain(self.plain);
        self.plain = 0;
        self.next_trim_at = 0;
        Ok(())
    }

    /// The rows `deferred[..plain]` will write to: from the cursor's row
    /// down by its line feeds and wraps, unless that scrolls (or may).
    fn rows_plain_output_touches<C: vt100::Callbacks + Answers>(
        &self,
        parser: &vt100::Parser<C>,
    ) -> Damage {
        let screen = parser.screen();
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let (row, col) = screen.cursor_position();
        let Some(wraps) = self.rep.text_wraps() else {
            return Damage::Full;
        };
        match row_advances(&self.deferred[..self.plain], col, cols, wraps) {
            Some(0) => Damage::Rows(row, row),
            Some(down) if !self.scrolling.region[usize::from(screen.alternate_screen())] => {
                match u16::try_from(down).ok().and_then(|d| row.checked_add(d)) {
                    Some(last) if last < rows => Damage::Rows(row, last),
                    _ => Damage::Full,
                }
            }
            _ => Damage::Full,
        }
    }

    /// Parses from the front of `deferred` (which starts with a BEL or a
    /// sequence, or continues one) until vte is back in its ground state.
    /// Returns false when the output so far ends inside the sequence.
    fn parse_sequence<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
    ) -> Result<bool, ParserPanicked> {
        debug_assert_eq!(self.plain, 0);
        self.touched = Damage::Full;
        if !self.in_sequence {
            debug_assert_eq!(self.findings.front(), Some(&Finding::Starts(self.base)));
            self.findings.pop_front();
            self.in_sequence = true;
        }
        let Some(&Finding::Ends(at, ended)) = self.findings.front() else {
            debug_assert!(self.findings.is_empty(), "{:?}", self.findings);
            self.rep.process(parser, &self.deferred)?;
            self.drain(self.deferred.len());
            return Ok(false);
        };
        let end = self.index(at);
        self.rep.process(parser, &self.deferred[..end])?;
        self.drain(end);
        self.findings.pop_front();
        self.in_sequence = false;
        match ended {
            Ended::Decstbm(params) => {
                // Parsed up to it, to learn which grid it set.
                let screen = parser.screen();
                let grid = usize::from(screen.alternate_screen());
                self.scrolling.region[grid] = params.may_set_region(screen.size().0);
            }
            Ended::ScrollbackCleared => self.scrolling.scrolled_at_least = 0,
            // RIS: vt100 starts a new screen, both grids without regions,
            // and no update is open.
            Ended::Reset => {
                self.scrolling.scrolled_at_least = 0;
                self.scrolling.region = [false; 2];
                self.sync.release();
            }
            Ended::SyncStart => {
                self.sync.started(parser.screen(), self.scanner.sync_ends());
            }
            Ended::SyncEnd => {
                self.sync.ended();
            }
            Ended::Apc => {
                if let Some(apc) = self.scanner.take_apc() {
                    let reach = self.rep.attached_facts().reach;
                    self.kitty.loading = crate::pane::term::kitty_apc::handle(
                        &mut self.kitty.intake,
                        self.rep.pictures(),
                        parser,
                        apc,
                        reach,
                    )?;
                }
            }
            Ended::Other => {}
        }
        Ok(true)
    }

    /// Drops held-back output that the rest of it scrolls off the screen.
    /// Unless `now`, waits for enough new output since a failed attempt.
    fn trim<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        now: bool,
    ) -> Result<(), ParserPanicked> {
        if !now && self.plain < self.next_trim_at {
            return Ok(());
        }
        let screen = parser.screen();
        let alternate = screen.alternate_screen();
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let (row, col) = screen.cursor_position();
        let plain = &self.deferred[..self.plain];
        // A scroll region, or tab stops the count cannot follow, break the
        // count of rows.
        let wraps = self.rep.text_wraps();
        let cut = if self.scrolling.region[usize::from(alternate)] || wraps.is_none() {
            None
        } else {
            cut_point(plain, 2 * usize::from(rows) + self.scrolling.history_rows)
        };
        // vt100 counts the rows scrolled off the main grid, and a grid that
        // grows takes that many (up to the growth) blank rows in at the top.
        // Until the count is beyond any growth, the dropped part's line
        // feeds and wraps are replayed as bare line feeds to keep it exact.
        let feeds = match cut {
            // A replay parser's scrollback holds the rows that matter
            // (`history_rows`), and vt100's count is not followed there.
            Some(_)
                if alternate
                    || self.scrolling.history_rows > 0
                    || self.scrolling.count_saturated(rows) =>
            {
                Some(0)
            }
            Some(cut) => row_advances(&plain[..cut], col, cols, wraps.unwrap_or(true)),
            None => None,
        };
        let (Some(cut), Some(feeds)) = (cut, feeds) else {
            self.next_trim_at = self.plain + (self.plain / 2).max(MIN_TRIM_STEP);
            if self.plain > MAX_DEFERRED {
                self.parse_plain(parser)?;
            }
            return Ok(());
        };
        self.replay.clear();
        self.replay.resize(feeds, b'\n');
        replay_colours(&plain[..cut], &mut self.replay);
        // The character set in use (SI or SO) stays too.
        if let Some(at) = memrchr2(SO, SI, &plain[..cut]) {
            self.replay.push(plain[at]);
        }
        self.rep.process(parser, &self.replay)?;
        let to_bottom = usize::from(rows - 1 - row.min(rows - 1));
        self.scrolling.scrolled_at_least += feeds.saturating_sub(to_bottom) as u64;
        self.drain(cut);
        self.plain -= cut;
        self.skipped += cut as u64;
        self.touched = Damage::Full;
        // Each attempt walks back over the kept lines, and output comes in
        // pieces as small as 256 bytes (`unfed`): trying on every piece
        // was a fifth of the loop's CPU in a flood. Waiting for a read's
        // worth keeps what `settle` may have to parse within that much.
        self.next_trim_at = self.plain + MIN_TRIM_STEP;
        // What is kept (`2 × rows` lines) can still be large when the lines
        // are long.
        if self.plain > MAX_DEFERRED {
            self.parse_plain(parser)?;
        }
        Ok(())
    }
}

/// Where a UTF-8 character that the end of `bytes` cuts off starts.
fn incomplete_utf8_at_end(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let byte = bytes[len - back];
        match byte {
            0x80..=0xbf => continue,
            0xc0..=0xff => {
                let needs = match byte {
                    0xf0.. => 4,
                    0xe0.. => 3,
                    _ => 2,
                };
                return (back < needs).then_some(len - back);
            }
            _ => return None,
        }
    }
    None
}

/// The last CR in `plain` followed by at least `lines` CR LF pairs and a
/// printed character, if any (and not at 0: nothing to drop).
fn cut_point(plain: &[u8], lines: usize) -> Option<usize> {
    // This runs on every chunk of a flood and walks back `lines` (twice
    // the screen's height) short lines. A search call per line was a
    // quarter of the loop's flood CPU; counting a block's pairs at once
    // compiles to vector compares, and only the block holding the cut is
    // searched pair by pair.
    const BLOCK: usize = 256;
    let mut wanted = lines;
    let mut end = plain.len();
    while end > 1 && wanted > 0 {
        // LFs at `start..end`, each with the byte before it.
        let start = end.saturating_sub(BLOCK - 1).max(1);
        let pairs = crlf_pairs(&plain[start - 1..end]);
        if pairs < wanted {
            wanted -= pairs;
            end = start;
            continue;
        }
        let lf = (start..end)
            .rev()
            .filter(|&lf| plain[lf] == b'\n' && plain[lf - 1] == b'\r')
            .nth(wanted - 1)?;
        let cut = lf - 1;
        return (cut > 0 && prints_something(&plain[cut..])).then_some(cut);
    }
    None
}

/// How many CR LF pairs `bytes` holds (at most 256 bytes: the count is
/// kept in a byte so that it compiles to byte-wide vector lanes).
fn crlf_pairs(bytes: &[u8]) -> usize {
    debug_assert!(bytes.len() <= 256);
    let next = bytes.get(1..).unwrap_or_default();
    let pairs = bytes.iter().zip(next).fold(0u8, |pairs, (&cr, &lf)| {
        pairs.wrapping_add(u8::from((cr == b'\r') & (lf == b'\n')))
    });
    usize::from(pairs)
}

/// Whether plain output prints a visible ASCII character (outside SGRs).
fn prints_something(plain: &[u8]) -> bool {
    let mut i = 0;
    while i < plain.len() {
        match plain[i] {
            ESC => match sgr_len(&plain[i..]) {
                Some(Some(n)) => i += n,
                _ => return false,
            },
            0x20..=0x7e => return true,
            _ => i += 1,
        }
    }
    false
}

/// Appends the SGR sequences of `plain` that still matter at its end: those
/// from the last full reset on.
fn replay_colours(plain: &[u8], out: &mut Vec<u8>) {
    let mut start = 0;
    let mut end = plain.len();
    while let Some(esc) = memrchr(ESC, &plain[..end]) {
        if is_reset(&plain[esc..]) {
            start = esc;
            break;
        }
        end = esc;
    }
    let mut i = start;
    while let Some(off) = memchr(ESC, &plain[i..]) {
        let at = i + off;
        // Plain output holds only complete SGRs.
        let Some(Some(n)) = sgr_len(&plain[at..]) else {
            return;
        };
        out.extend_from_slice(&plain[at..at + n]);
        i = at + n;
    }
}

/// Whether the SGR at the start of `sgr` begins with a full reset (an empty
/// or zero first parameter).
fn is_reset(sgr: &[u8]) -> bool {
    matches!(
        sgr.get(2..),
        Some([b'm' | b';', ..] | [b'0', b'm' | b';', ..])
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn parser(rows: u16, cols: u16) -> vt100::Parser {
        vt100::Parser::new(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
            0,
        )
    }

    fn log_lines(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("\x1b[32mINFO\x1b[0m line {i} of the log\r\n").into_bytes())
            .collect()
    }

    #[test]
    fn a_flood_of_lines_is_mostly_skipped_and_the_screen_matches() {
        let input = log_lines(2000);
        let mut plain = parser(24, 80);
        plain.process(&input);
        let mut fast = parser(24, 80);
        let mut ff = FastForward::default();
        for chunk in input.chunks(4096) {
            ff.push(&mut fast, chunk).unwrap();
        }
        ff.settle(&mut fast).unwrap();
        assert_eq!(
            fast.screen().contents_formatted(),
            plain.screen().contents_formatted()
        );
        assert_eq!(
            fast.screen().cursor_position(),
            plain.screen().cursor_position()
        );
        assert!(
            ff.skipped as usize > input.len() * 9 / 10,
            "skipped {}",
            ff.skipped
        );
    }

    #[test]
    fn a_scroll_region_stops_skipping_until_it_is_reset() {
        let mut fast = parser(10, 40);
        let mut ff = FastForward::default();
        ff.push(&mut fast, b"\x1b[2;5r").unwrap();
        ff.push(&mut fast, &log_lines(200)).unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(ff.skipped, 0);
        ff.push(&mut fast, b"\x1b[r").unwrap();
        ff.push(&mut fast, &log_lines(200)).unwrap();
        ff.settle(&mut fast).unwrap();
        assert!(ff.skipped > 0);
    }

    #[test]
    fn a_full_reset_clears_the_scroll_regions() {
        let mut fast = parser(10, 40);
        let mut ff = FastForward::default();
        ff.push(&mut fast, b"\x1b[2;5r\x1bc").unwrap();
        ff.push(&mut fast, &log_lines(200)).unwrap();
        ff.settle(&mut fast).unwrap();
        assert!(ff.skipped > 0);
    }

    #[test]
    fn a_region_on_the_alternate_grid_does_not_stop_the_main_one() {
        let mut fast = parser(10, 40);
        let mut ff = FastForward::default();
        ff.push(&mut fast, b"\x1b[?1049h\x1b[2;5r\x1b[?1049l")
            .unwrap();
        ff.push(&mut fast, &log_lines(200)).unwrap();
        ff.settle(&mut fast).unwrap();
        assert!(ff.skipped > 0);
    }

    #[test]
    fn queries_and_bells_are_parsed_in_order() {
        let mut fast = parser(10, 40);
        let mut ff = FastForward::default();
        ff.push(&mut fast, b"abc\x1b]0;title\x07").unwrap();
        // The plain part before the title was parsed, not held back.
        assert!(ff.is_settled());
        assert_eq!(fast.screen().contents(), "abc");
        ff.push(&mut fast, b"de\x1b[").unwrap();
        ff.push(&mut fast, b"31").unwrap();
        ff.push(&mut fast, b"mf").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(fast.screen().contents(), "abcdef");
        assert_eq!(
            fast.screen().cell(0, 5).map(|c| c.fgcolor()),
            Some(vt100::Color::Idx(1))
        );
    }

    #[test]
    fn after_a_parser_panic_a_reset_starts_over_with_a_fresh_parser() {
        let mut fast = parser(10, 40);
        let mut ff = FastForward::default();
        ff.push(&mut fast, &log_lines(100)).unwrap();
        let skipped = ff.skipped;
        assert!(skipped > 0);
        // Held back: a sequence cut off, and plain output.
        let crash = [crate::pane::term::parse_guard::DEBUG_FAULT, b"\x1b]0;ti"].concat();
        ff.push(&mut fast, &crash).unwrap_err();
        let mut fast = parser(10, 40);
        ff.reset();
        assert!(ff.is_settled());
        assert_eq!(ff.skipped, skipped);
        ff.push(&mut fast, b"fresh").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(fast.screen().contents(), "fresh");
    }

    #[test]
    fn typed_text_touches_its_row_and_scrolling_touches_any() {
        let mut fast = parser(5, 10);
        let mut ff = FastForward::default();
        ff.take_damage();
        ff.push(&mut fast, b"\x1b[3;1H").unwrap();
        assert_eq!(ff.take_damage(), Damage::Full, "a sequence");
        ff.push(&mut fast, b"ab\x1b[1mc").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(ff.take_damage(), Damage::Rows(2, 2));
        ff.push(&mut fast, b"\r\nnext line wraps").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(ff.take_damage(), Damage::Rows(2, 4));
        ff.push(&mut fast, b"\r\n").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(ff.take_damage(), Damage::Full, "scrolls");
        assert_eq!(Damage::None.merge(Damage::Rows(1, 2)), Damage::Rows(1, 2));
        assert_eq!(
            Damage::Rows(3, 4).merge(Damage::Rows(1, 2)),
            Damage::Rows(1, 4)
        );
    }

    #[test]
    fn a_character_split_by_a_read_is_held_back_whole() {
        assert_eq!(incomplete_utf8_at_end("ab漢".as_bytes()), None);
        assert_eq!(incomplete_utf8_at_end(&"ab漢".as_bytes()[..4]), Some(2));
        assert_eq!(incomplete_utf8_at_end(b"ab\xf0\x9f\x99"), Some(2));
        assert_eq!(incomplete_utf8_at_end(b"ab\xc3"), Some(2));
        assert_eq!(incomplete_utf8_at_end(b"ab\x80"), None);
        // At the last column a wide character wraps: the touched rows must
        // count it as a whole, which they can only when it arrives whole.
        let mut fast = parser(5, 4);
        let mut ff = FastForward::default();
        ff.push(&mut fast, b"abc\xe6\xbc").unwrap();
        ff.settle(&mut fast).unwrap();
        ff.take_damage();
        ff.push(&mut fast, b"\xa2").unwrap();
        ff.settle(&mut fast).unwrap();
        assert_eq!(fast.screen().cursor_position(), (1, 2));
        let touched = ff.take_damage();
        assert!(
            matches!(touched, Damage::Rows(0, 1) | Damage::Full),
            "{touched:?}"
        );
    }

    /// The per-line search the block count replaced.
    fn cut_point_line_by_line(plain: &[u8], lines: usize) -> Option<usize> {
        let mut found = 0;
        for lf in (1..plain.len()).rev() {
            if plain[lf] == b'\n' && plain[lf - 1] == b'\r' {
                found += 1;
                if found == lines {
                    let cut = lf - 1;
                    return (cut > 0 && prints_something(&plain[cut..])).then_some(cut);
                }
            }
        }
        None
    }

    proptest::proptest! {
        #[test]
        fn the_cut_is_where_a_search_line_by_line_puts_it(
            plain in proptest::collection::vec(
                proptest::sample::select(b"\r\nab \x1b[m".to_vec()),
                0..2000,
            ),
            lines in 1usize..40,
        ) {
            proptest::prop_assert_eq!(
                cut_point(&plain, lines),
                cut_point_line_by_line(&plain, lines)
            );
        }
    }

    #[test]
    fn sgr_scanning() {
        assert_eq!(sgr_len(b"\x1b[m"), Some(Some(3)));
        assert_eq!(sgr_len(b"\x1b[38;2;1;2;3mx"), Some(Some(13)));
        assert_eq!(sgr_len(b"\x1b[1"), Some(None));
        assert_eq!(sgr_len(b"\x1b"), Some(None));
        assert_eq!(sgr_len(b"\x1b[?1h"), None);
        assert_eq!(sgr_len(b"\x1b]0;"), None);
        assert!(is_reset(b"\x1b[m"));
        assert!(is_reset(b"\x1b[0m"));
        assert!(is_reset(b"\x1b[;1m"));
        assert!(is_reset(b"\x1b[0;32m"));
        assert!(!is_reset(b"\x1b[01m"));
        assert!(!is_reset(b"\x1b[32m"));
    }
}
