//! The terminal-fidelity layer: what vt100 lacks, completed or rewritten
//! in the bytes before vt100 sees them, so programs look and behave as in a
//! first-class terminal. vt100 stays the parser; every byte a vt100 parser
//! gets (a pane's live screen, a replayed history) goes through
//! [`Fidelity::process`].
//!
//! A second vte parser (vt100's own, so every byte is read the same way)
//! follows the bytes ([`follower`]) and stops after the sequences the layer
//! handles. The
//! bytes before a sequence's final byte go to vt100 as they are. Then,
//! depending on the sequence:
//! - it goes on as it is, and the layer notes what it changed (modes vt100
//!   ignores, tab stops, character sets, the kitty keyboard flags);
//! - it is replaced: vt100 gets CAN (which drops the sequence it holds
//!   without a trace) and then sequences it does read ([`Replace`]);
//! - it is answered, after vt100 has answered what came before it
//!   ([`answers`]);
//! - REP is bounded by the screen's size ([`rep_bound`]).
//!
//! While a mode that changes how text prints is on (DEC special graphics in
//! use, insert mode, no auto-wrap, tab stops other than every 8 columns),
//! printed text is rewritten too: translated ([`charsets`]), preceded by an
//! insertion (IRM), held in the last column (no auto-wrap), or a tab turned
//! into a move to its stop ([`tab_stops`]). That needs the cursor before each
//! character, so text then goes through the follower a byte at a time,
//! runs of ASCII at once. Otherwise (nearly always) text goes through in
//! bulk and costs what the follower alone costs.
//!
//! Handled here: DEC special graphics and the UK set with SI/SO; `CSI s` /
//! `CSI u`; IND and NEL; DECSTR; `?1047` / `?1048`; DECALN; HTS, TBC, CHT,
//! CBT; IRM; no auto-wrap (`?7l`); SGR colon forms and styled underlines
//! ([`sgr`]); background colour erase for IL, DL, SU, SD and rows LF and
//! RI scroll in; `?47` sharing the cursor; `?66` (keypad); focus event
//! mode `?1004`; the kitty keyboard flags ([`keyboard`]); the colours a
//! program sets for its pane ([`colour_sets`]); XTVERSION, DECRQM and
//! OSC 4/10/11/12 answers.
//!
//! [`rep_bound`]: crate::pane::term::rep_bound

pub mod answers;
pub mod charsets;
mod clusters;
pub mod colour_sets;
mod follower;
mod forged_marks;
mod invalid_utf8;
pub mod keyboard;
mod modes;
pub mod pen;
mod replacements;
pub mod sgr;
pub mod sixel_images;
pub mod tab_stops;
pub mod theme;

use std::io::Write as _;

use memchr::{memchr2, memchr3};
use unicode_width::UnicodeWidthChar as _;

use crate::graphics::picture_store::PictureStore;
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::term::cell_marks;
use crate::pane::term::parse_guard::{self, ParserPanicked};
use crate::pane::term::rep_bound::{Region, RepBound};
use answers::Answers;
use charsets::Charsets;
use follower::{Blanked, Follower, KeyboardChange, Last, Replace, Stop};
use keyboard::KeyboardFlags;
use tab_stops::TabStops;

pub use modes::Modes;

use invalid_utf8::{has_invalid_utf8, next_cut};

const ESC: u8 = 0x1b;
const CAN: u8 = 0x18;
const SO: u8 = 0x0e;
const SI: u8 = 0x0f;
const TAB: u8 = 0x09;

/// Feeds a vt100 parser with what it lacks completed. One per parser, fed
/// every byte that parser gets, from the parser's start.
pub struct Fidelity {
    vte: vte::Parser,
    follower: Follower,
    /// The scroll regions of the main and alternate grids (blanking rows in
    /// the background colour needs them).
    regions: [Region; 2],
    keyboard: KeyboardFlags,
    /// What the attached terminals told, for the answers.
    attached: AttachedFacts,
    /// Bytes written for vt100 in place of the program's.
    out: Vec<u8>,
    clusters: clusters::Clusters,
}

impl std::fmt::Debug for Fidelity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fidelity")
            .field("follower", &self.follower)
            .field("regions", &self.regions)
            .field("keyboard", &self.keyboard)
            .finish_non_exhaustive()
    }
}

impl Fidelity {
    /// For a parser without scrollback (a pane's live screen).
    pub fn live() -> Self {
        Self::new(RepBound::live())
    }

    /// For a parser with scrollback (a replayed history).
    pub fn history() -> Self {
        let mut fidelity = Self::new(RepBound::history());
        fidelity.follower.pictures.placeholders_only();
        fidelity
    }

    /// Every REP written whole: the reference the tests compare the
    /// bounded paths with.
    #[doc(hidden)]
    pub fn unbounded() -> Self {
        Self::new(RepBound::unbounded())
    }

    fn new(rep: RepBound) -> Self {
        Self {
            vte: vte::Parser::new(),
            follower: Follower {
                rows: 0,
                cols: 0,
                rep,
                modes: Modes::default(),
                charsets: Charsets::default(),
                tabs: TabStops::default(),
                ground: true,
                last: Last::Nothing,
                stop: None,
                rewritten: Default::default(),
                colour_sets: colour_sets::ColourSets::default(),
                pen: pen::Pen::default(),
                replacements: follower::Replacements::default(),
                pictures: sixel_images::SixelIntake::default(),
                background: false,
            },
            regions: [None; 2],
            keyboard: KeyboardFlags::default(),
            attached: AttachedFacts::default(),
            out: Vec::new(),
            clusters: clusters::Clusters::default(),
        }
    }

    /// What OSC 10, 11 and 12 queries are answered with from now on.
    pub fn set_terminal_colours(&mut self, colours: [Option<answers::Rgb>; 3]) {
        self.attached.colours = colours;
    }

    pub fn terminal_colours(&self) -> [Option<answers::Rgb>; 3] {
        self.attached.colours
    }

    /// What the attached terminals told, answered from now on (and sixel's cells).
    pub fn set_attached_facts(&mut self, facts: AttachedFacts) {
        self.attached = facts;
        self.follower.pictures.set_cell(facts.reach.cell_pixels());
    }

    pub fn attached_facts(&self) -> AttachedFacts {
        self.attached
    }

    /// Pictures go to `store` (the workspace's; replays anchor those kept).
    pub fn set_pictures(&mut self, store: PictureStore) {
        self.follower.pictures.set_store(store);
    }

    pub fn pictures(&self) -> &PictureStore {
        self.follower.pictures.store()
    }

    /// Starts over for a fresh parser.
    pub fn reset(&mut self) {
        let mut rep = std::mem::replace(&mut self.follower.rep, RepBound::unbounded());
        rep.reset();
        let attached = self.attached;
        let pictures = self.pictures().clone();
        *self = Self::new(rep);
        self.set_attached_facts(attached);
        self.set_pictures(pictures);
    }

    /// After the parser's grid changed size: vt100 (like xterm) then resets
    /// the scroll region of both grids.
    pub fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        self.regions = [None; 2];
        self.follower.rep.grid_resized(old_rows, new_rows);
        self.clusters.forget();
    }

    /// What REP bounding keeps, for tests and the log.
    pub fn rep(&self) -> &RepBound {
        &self.follower.rep
    }

    /// The modes vt100 does not keep.
    pub fn modes(&self) -> Modes {
        self.follower.modes
    }

    /// The colours the program set for its pane (OSC 4, 10, 11, 12).
    pub fn colour_sets(&self) -> &colour_sets::ColourSets {
        &self.follower.colour_sets
    }

    /// The kitty keyboard flags in force on the main or alternate screen.
    pub fn keyboard_flags(&self, alternate: bool) -> u8 {
        self.keyboard.current(alternate)
    }

    /// How plain text moves the cursor down, for the fast-forward's count
    /// of rows: `Some(true)` it wraps at the last column as vt100 alone
    /// does, `Some(false)` it never wraps (no auto-wrap), `None` the count
    /// is not known cheaply (tab stops other than every 8 columns move the
    /// cursor elsewhere). Insert mode moves the cursor as plain text does.
    pub fn text_wraps(&self) -> Option<bool> {
        let f = &self.follower;
        (!f.tabs.custom()).then_some(f.modes.autowrap)
    }

    fn process_whole<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        if !has_invalid_utf8(bytes) {
            return self.process_piece(parser, bytes);
        }
        // After every invalid byte, vte 0.15 searches all the rest of what
        // it was given for the next ESC (and goes on one byte later): a run
        // of invalid bytes costs the square of the length handed to it,
        // twice (our vte and vt100's). A pane printing `\xff` forever was
        // parsed at ~200 KB/s, and typing in every pane lagged by seconds.
        // vte reads a stream, so smaller pieces parse to the same screen,
        // as long as no cut falls inside a character (see `next_cut`).
        let mut rest = bytes;
        while !rest.is_empty() {
            let cut = next_cut(rest);
            self.process_piece(parser, &rest[..cut])?;
            rest = &rest[cut..];
        }
        Ok(())
    }

    fn process_piece<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        mut bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        let (rows, cols) = parser.screen().size();
        (self.follower.rows, self.follower.cols) = (rows.get(), cols.get());
        self.follower.tabs.fit(cols.get());
        while !bytes.is_empty() {
            let read = if self.follower.rewrites_text() {
                self.process_text(parser, bytes)?
            } else if self.clusters.continues(bytes) {
                self.process_cluster(parser, bytes)?
            } else {
                self.process_bulk(parser, bytes)?
            };
            bytes = &bytes[read..];
        }
        Ok(())
    }

    /// Text prints plainly: up to the next stop (or SI/SO, when they can
    /// change the character set) at once. Returns the bytes read.
    fn process_bulk<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<usize, ParserPanicked> {
        let shift = if self.follower.charsets.shifts_matter() {
            memchr2(SO, SI, bytes)
        } else {
            None
        };
        // vte sees the stop of an LF only after the text that follows it:
        // while LF may scroll in a coloured row, the chunk ends at one.
        let line_feed = if self.follower.background {
            memchr3(b'\n', 0x0b, 0x0c, bytes)
        } else {
            None
        };
        let end = match (shift, line_feed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut chunk = &bytes[..end.map_or(bytes.len(), |at| at + 1)];
        if let Some(at) = clusters::find(chunk) {
            // Up to the cluster's first joiner: its base is then in the
            // grid (see `clusters`).
            chunk = &chunk[..clusters::cut_before(chunk, at)];
        }
        self.follower.last = Last::Nothing;
        let read = self.vte.advance_until_terminated(&mut self.follower, chunk);
        let through = &chunk[..read];
        self.clusters.after_text(self.follower.last, through);
        match self.follower.stop.take() {
            Some(stop) => self.act(parser, stop, through)?,
            None => {
                parse_guard::process(parser, through)?;
                if shift.is_some() {
                    // The shift may sit inside a sequence: take the text
                    // after it a byte at a time until a character says
                    // where vte is.
                    self.follower.ground = false;
                }
            }
        }
        Ok(read)
    }

    /// Text is rewritten: a byte at a time (runs of ASCII at once) while
    /// that lasts. Returns the bytes read.
    fn process_text<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<usize, ParserPanicked> {
        // `bytes[start..i]`: read by the follower, not yet given to vt100.
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() && self.follower.rewrites_text() {
            if self.follower.ground && is_ascii_text(bytes[i]) {
                let run = bytes[i..]
                    .iter()
                    .position(|&b| !is_ascii_text(b))
                    .map_or(bytes.len(), |n| i + n);
                parse_guard::process(parser, &bytes[start..i])?;
                let printed = self.print_ascii(parser, &bytes[i..run])?;
                self.clusters.printed(char::from(bytes[i + printed - 1]));
                i += printed;
                start = i;
                continue;
            }
            self.follower.last = Last::Nothing;
            let byte = bytes[i];
            // vte may stop before taking the byte: an ESC that cut off a
            // character ends it as U+FFFD first (the Replacement stop),
            // and the ESC is read on the next turn.
            let read = self
                .vte
                .advance_until_terminated(&mut self.follower, &bytes[i..=i]);
            if read > 0 || self.follower.stop.is_none() {
                i += 1;
                if byte == ESC {
                    self.follower.ground = false;
                }
            }
            if byte == ESC || matches!(self.follower.last, Last::Execute(_)) {
                self.clusters.forget();
            }
            if let Some(stop) = self.follower.stop.take() {
                self.clusters.forget();
                self.act(parser, stop, &bytes[start..i])?;
                start = i;
                continue;
            }
            match self.follower.last {
                Last::Print(c) if i - start >= c.len_utf8() => {
                    let at = i - c.len_utf8();
                    parse_guard::process(parser, &bytes[start..at])?;
                    self.print_joined(parser, c, &bytes[at..i])?;
                    start = i;
                }
                // A tab inside a sequence (where vte runs it too) goes on
                // as it is: only one in text is known to be in ground.
                Last::Execute(TAB) if self.follower.tabs.custom() && self.follower.ground => {
                    parse_guard::process(parser, &bytes[start..i - 1])?;
                    let col = parser.screen().cursor_position().1;
                    let to = self.follower.tabs.forward(col, 1);
                    self.out.clear();
                    let _ = write!(self.out, "\x1b[{}G", to + 1);
                    parse_guard::process(parser, &self.out)?;
                    start = i;
                }
                _ => {}
            }
        }
        parse_guard::process(parser, &bytes[start..i])?;
        Ok(i)
    }

    /// Prints a run of ASCII text (vte in ground) as the modes say. Returns
    /// how much of it was printed (the rest waits for the cursor to be
    /// read again).
    fn print_ascii<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        run: &[u8],
    ) -> Result<usize, ParserPanicked> {
        let f = &mut self.follower;
        let (_, col) = parser.screen().cursor_position();
        let room = usize::from(f.cols.saturating_sub(col));
        let (insert, autowrap) = (f.modes.insert, f.modes.autowrap);
        // What fits before the last column; with auto-wrap, the first
        // character that wraps goes alone.
        let take = match (autowrap, room) {
            (true, 0) => 1,
            (true, room) => run.len().min(room),
            (false, _) => run.len(),
        };
        let run = &run[..take];
        // The follower reads the text too (REP's character).
        let _ = self.vte.advance_until_terminated(f, run);
        let set = f.charsets.active();
        let marker = f.pen.marker_id();
        self.out.clear();
        let fits = run.len().min(room);
        if insert && fits > 0 {
            let _ = write!(self.out, "\x1b[{fits}@");
        }
        for &b in &run[..fits] {
            set.push(&mut self.out, b);
            pen::mark(&mut self.out, marker);
        }
        if fits < run.len() {
            // Past the last column: with auto-wrap one character wraps;
            // without, each overwrites the last column and only the last
            // one shows.
            if !autowrap {
                let _ = write!(self.out, "\x1b[{}G", f.cols);
            }
            set.push(&mut self.out, run[run.len() - 1]);
            pen::mark(&mut self.out, marker);
        }
        if let Some(c) = run.last().and_then(|&b| set.map(b)) {
            f.rep.printed_as(c);
        }
        parse_guard::process(parser, &self.out)?;
        Ok(take)
    }

    /// Prints one character read a byte at a time (its `bytes` are all in
    /// this call) as the modes say.
    pub(super) fn print_char<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        c: char,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        let f = &self.follower;
        self.out.clear();
        let mapped = match u8::try_from(c) {
            Ok(b) if is_ascii_text(b) => f.charsets.active().map(b),
            _ => None,
        };
        let width = u16::try_from(c.width().unwrap_or(0).min(2)).unwrap_or(0);
        let (_, col) = parser.screen().cursor_position();
        if width > 0 && width <= f.cols {
            let fits = col + width <= f.cols;
            if f.modes.insert && fits {
                let _ = write!(self.out, "\x1b[{width}@");
            } else if !f.modes.autowrap && !fits {
                let _ = write!(self.out, "\x1b[{}G", f.cols - width + 1);
            }
        }
        match mapped {
            Some(m) => {
                self.follower.rep.printed_as(m);
                let mut buf = [0; 4];
                self.out
                    .extend_from_slice(m.encode_utf8(&mut buf).as_bytes());
            }
            None if c == '\u{FFFD}' => cell_marks::push_replacement(&mut self.out),
            None => self.out.extend_from_slice(bytes),
        }
        if width > 0 {
            pen::mark(&mut self.out, self.follower.pen.marker_id_for(Some(c)));
        }
        parse_guard::process(parser, &self.out)
    }

    /// Gives vt100 the bytes up to a stop (`through`, which ends with the
    /// sequence's final byte) and does what the stop asks.
    fn act<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        stop: Stop,
        through: &[u8],
    ) -> Result<(), ParserPanicked> {
        // All but the final byte: vt100 holds the sequence, waiting for it.
        let (before, last) = through.split_at(through.len().saturating_sub(1));
        match stop {
            Stop::Rep(count) if self.follower.pen.active() => {
                // vt100's REP would repeat the character without its
                // marker: the copies are written out, each marked.
                parse_guard::process(parser, before)?;
                parse_guard::process(parser, &[CAN])?;
                let mut marker = Vec::with_capacity(8);
                let last = self.follower.rep.last_char();
                pen::mark(&mut marker, self.follower.pen.marker_id_for(last));
                self.follower
                    .rep
                    .marked(parser.screen(), count, &marker, &mut self.out);
                parse_guard::process(parser, &self.out)?;
            }
            Stop::Rep(count) => {
                parse_guard::process(parser, before)?;
                let bounded = self
                    .follower
                    .rep
                    .bounded(parser.screen(), count, &mut self.out);
                if bounded {
                    parse_guard::process(parser, &self.out)?;
                } else {
                    parse_guard::process(parser, last)?;
                }
            }
            Stop::Region(region) => {
                parse_guard::process(parser, through)?;
                self.set_region(parser.screen().alternate_screen(), region);
            }
            Stop::Recheck => parse_guard::process(parser, through)?,
            Stop::AutowrapOn => {
                parse_guard::process(parser, through)?;
                let cols = self.follower.cols;
                if parser.screen().cursor_position().1 >= cols {
                    self.out.clear();
                    let _ = write!(self.out, "\x1b[{cols}G");
                    parse_guard::process(parser, &self.out)?;
                }
            }
            Stop::Reset => {
                parse_guard::process(parser, through)?;
                self.regions = [None; 2];
                self.keyboard = KeyboardFlags::default();
            }
            Stop::Picture => {
                // vt100 ignored the DCS; CAN ends its ST, the anchors follow.
                parse_guard::process(parser, before)?;
                parse_guard::process(parser, &[CAN])?;
                let col = parser.screen().cursor_position().1;
                let (rows, cols) = (self.follower.rows, self.follower.cols);
                if let Some(anchors) = self.follower.pictures.finish(col, rows, cols) {
                    parse_guard::process(parser, &anchors)?;
                }
            }
            Stop::Replace(replace) => {
                parse_guard::process(parser, before)?;
                parse_guard::process(parser, &[CAN])?;
                self.replace(parser, replace)?;
            }
            Stop::TabSet => {
                parse_guard::process(parser, through)?;
                let col = parser.screen().cursor_position().1;
                self.follower.tabs.set(col);
            }
            Stop::TabClear(mode) => {
                parse_guard::process(parser, through)?;
                let col = parser.screen().cursor_position().1;
                match mode {
                    0 => self.follower.tabs.clear(col),
                    3 => self.follower.tabs.clear_all(),
                    _ => {}
                }
            }
            Stop::Blank(what @ (Blanked::LineFeed | Blanked::ReverseIndex), _) => {
                // It scrolled if the cursor was on the region's edge.
                parse_guard::process(parser, before)?;
                let screen = parser.screen();
                let (row, _) = screen.cursor_position();
                let (top, bottom) = self.region(screen.alternate_screen());
                parse_guard::process(parser, last)?;
                let scrolled = match what {
                    Blanked::LineFeed if row == bottom => Blanked::ScrollUp,
                    Blanked::ReverseIndex if row == top => Blanked::ScrollDown,
                    _ => return Ok(()),
                };
                self.blank_in_background(parser, scrolled, 1)?;
            }
            Stop::Blank(what, count) => {
                parse_guard::process(parser, through)?;
                self.blank_in_background(parser, what, count)?;
            }
            Stop::Answer(query) => {
                parse_guard::process(parser, through)?;
                let screen = parser.screen();
                let flags = self.keyboard.current(screen.alternate_screen());
                let sets = &mut self.follower.colour_sets;
                let colours = sets.effective(&self.attached.colours);
                self.out.clear();
                if let answers::Query::Palette { bel } = query {
                    sets.answer_palette(bel, &mut self.out);
                }
                answers::answer(
                    query,
                    screen,
                    &self.follower.modes,
                    (flags, &colours, &self.attached),
                    &mut self.out,
                );
                parser.callbacks_mut().answer(&self.out);
            }
            Stop::Replacement => self.replacements(parser, through)?,
            Stop::Keyboard(change) => {
                parse_guard::process(parser, through)?;
                let alternate = parser.screen().alternate_screen();
                match change {
                    KeyboardChange::Push(flags) => self.keyboard.push(alternate, flags),
                    KeyboardChange::Pop(count) => self.keyboard.pop(alternate, count),
                    KeyboardChange::Set(flags, mode) => self.keyboard.set(alternate, flags, mode),
                }
            }
        }
        Ok(())
    }

    fn set_region(&mut self, alternate: bool, region: Region) {
        self.regions[usize::from(alternate)] = region;
        if !alternate {
            self.follower.rep.main_region_set(region);
        }
    }

    /// Writes what vt100 reads for `replace` (vt100 has dropped the
    /// sequence).
    fn replace<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        replace: Replace,
    ) -> Result<(), ParserPanicked> {
        let screen = parser.screen();
        let (row, col) = screen.cursor_position();
        let f = &mut self.follower;
        let out = &mut self.out;
        out.clear();
        // Writing to a Vec cannot fail.
        let _ = match replace {
            Replace::SaveCursor => write!(out, "\x1b7"),
            Replace::RestoreCursor => write!(out, "\x1b8"),
            Replace::Index => {
                out.push(b'\n');
                Ok(())
            }
            Replace::NextLine => {
                out.extend_from_slice(b"\r\n");
                Ok(())
            }
            Replace::TabForward(n) => write!(out, "\x1b[{}G", f.tabs.forward(col, n) + 1),
            Replace::TabBackward(n) => write!(out, "\x1b[{}G", f.tabs.backward(col, n) + 1),
            Replace::Sgr => {
                out.extend_from_slice(&f.rewritten.sgr);
                Ok(())
            }
            Replace::SoftReset => {
                // DECSTR as xterm does it: the cursor stays; modes, margins,
                // attributes and character sets go back to their defaults
                // and the saved cursor to the home position.
                f.modes.insert = false;
                f.modes.autowrap = true;
                f.charsets.reset();
                let alternate = screen.alternate_screen();
                self.regions[usize::from(alternate)] = None;
                if !alternate {
                    f.rep.main_region_set(None);
                }
                write!(
                    out,
                    "\x1b[?25h\x1b[?6l\x1b[r\x1b[m\x1b>\x1b[?1l\x1b[H\x1b7\x1b[{};{}H",
                    row + 1,
                    col.min(f.cols - 1) + 1
                )
            }
            Replace::Alignment => {
                // The margins go, the screen fills with `E` in the default
                // attributes, the cursor goes home; the attributes stay.
                let attrs = screen.attributes_formatted();
                let alternate = screen.alternate_screen();
                self.regions[usize::from(alternate)] = None;
                if !alternate {
                    f.rep.main_region_set(None);
                }
                out.extend_from_slice(b"\x1b[r\x1b[H\x1b[m");
                let cells = usize::from(f.rows) * usize::from(f.cols);
                out.resize(out.len() + cells, b'E');
                f.rep.printed('E', f.cols);
                write!(out, "\x1b[H{attrs}")
            }
            Replace::PrivateModes(set) => {
                let modes = std::mem::take(&mut f.rewritten.private_modes);
                let result = self.private_modes(parser, &modes, set);
                self.follower.rewritten.private_modes = modes;
                return result;
            }
        };
        parse_guard::process(parser, &self.out)
    }

    /// DECSET / DECRST with `47`, `66`, `1047`, `1048` or `1049` among `modes`, one
    /// mode at a time (each may depend on the screen the one before left).
    fn private_modes<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        modes: &[u16],
        set: bool,
    ) -> Result<(), ParserPanicked> {
        let hl = if set { 'h' } else { 'l' };
        for &mode in modes {
            self.out.clear();
            let _ = match (mode, set) {
                // xterm's screens share the cursor: it stays where it was.
                (47 | 1047, true) if !parser.screen().alternate_screen() => {
                    let (row, col) = parser.screen().cursor_position();
                    write!(self.out, "\x1b[?47h\x1b[{}d\x1b[{}G", row + 1, col + 1)
                }
                (1047, true) => write!(self.out, "\x1b[?47h"),
                // Leaving, xterm clears the alternate screen first.
                (47 | 1047, false) if parser.screen().alternate_screen() => {
                    let (row, col) = parser.screen().cursor_position();
                    let clear = if mode == 1047 { "\x1b[2J" } else { "" };
                    write!(
                        self.out,
                        "{clear}\x1b[?47l\x1b[{}d\x1b[{}G",
                        row + 1,
                        col + 1
                    )
                }
                (66, true) => write!(self.out, "\x1b="),
                (66, false) => write!(self.out, "\x1b>"),
                (1047, false) => write!(self.out, "\x1b[?47l"),
                (1048, true) => write!(self.out, "\x1b7"),
                (1048, false) => write!(self.out, "\x1b8"),
                (mode, _) => write!(self.out, "\x1b[?{mode}{hl}"),
            };
            parse_guard::process(parser, &self.out)?;
            if (mode, set) == (1049, true) {
                // vt100 clears the alternate grid, region and all.
                self.regions[1] = None;
            }
        }
        Ok(())
    }

    /// The scroll region of the main or alternate grid: (top, bottom).
    fn region(&self, alternate: bool) -> (u16, u16) {
        let rows = self.follower.rows;
        self.regions[usize::from(alternate)].unwrap_or((0, rows - 1))
    }

    /// After IL, DL, SU or SD: vt100 leaves the new rows in the default
    /// colours; a terminal with background colour erase (xterm, tmux)
    /// fills them with the current background. Erased here with EL, which
    /// vt100 does fill, moving with VPA (so the column, even a pending
    /// wrap, stays as it was).
    fn blank_in_background<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        what: Blanked,
        count: u16,
    ) -> Result<(), ParserPanicked> {
        let screen = parser.screen();
        if screen.bgcolor() == vt100::Color::Default {
            return Ok(());
        }
        let (top, bottom) = self.region(screen.alternate_screen());
        let (row, _) = screen.cursor_position();
        let in_region = (top..=bottom).contains(&row);
        let count = count.max(1);
        let blanked = match what {
            Blanked::InsertLines if in_region => row..=bottom.min(row.saturating_add(count - 1)),
            Blanked::DeleteLines if in_region => bottom.saturating_sub(count - 1).max(row)..=bottom,
            Blanked::ScrollUp => bottom.saturating_sub(count - 1).max(top)..=bottom,
            Blanked::ScrollDown => top..=bottom.min(top.saturating_add(count - 1)),
            _ => return Ok(()),
        };
        self.out.clear();
        for r in blanked {
            move_to_row(&mut self.out, r);
            self.out.extend_from_slice(b"\x1b[2K");
        }
        move_to_row(&mut self.out, row);
        parse_guard::process(parser, &self.out)
    }
}

/// Appends a move to row `row`: VPA, which in vt100 is absolute whatever
/// the origin mode and region, and leaves the column (even a pending wrap)
/// as it is.
fn move_to_row(out: &mut Vec<u8>, row: u16) {
    let _ = write!(out, "\x1b[{}d", row + 1);
}

/// Printable ASCII.
fn is_ascii_text(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use invalid_utf8::INVALID_UTF8_PIECE;

    #[test]
    fn invalid_utf8_shows_the_replacement_character() {
        for (bytes, shown) in [
            (&b"ab\xffcd"[..], "ab\u{FFFD}cd"),
            ("x\u{FFFD}".as_bytes(), "x\u{FFFD}"),
            (b"\x1b[4hab\r\xff", "\u{FFFD}ab"),
            // A character cut off by an ESC, read a byte at a time (insert
            // mode): the ESC still starts its sequence.
            (b"\x1b[4h\xc2\x1b[1mok", "\u{FFFD}ok"),
            (b"\x1b[4h\xc2\x1bcok", "ok"),
        ] {
            let mut p = parser();
            Fidelity::live().process(&mut p, bytes).unwrap();
            let screen = crate::pane::term::screen::ScreenView::new(p.screen());
            assert_eq!(screen.contents(), shown, "{bytes:?}");
        }
    }

    fn parser() -> vt100::Parser<crate::pane::term::terminal_queries::PaneEvents> {
        vt100::Parser::new_with_callbacks(
            std::num::NonZeroU16::new(6).unwrap(),
            std::num::NonZeroU16::new(40).unwrap(),
            0,
            crate::pane::term::terminal_queries::PaneEvents::default(),
        )
    }

    #[test]
    fn output_with_invalid_utf8_in_pieces_shows_what_it_shows_in_one() {
        let mut line: Vec<u8> = Vec::new();
        for i in 0..40_u8 {
            line.extend_from_slice(&[0xff, 0xfe]);
            line.extend_from_slice(b"caf\xe9 na\xefve ");
            line.extend_from_slice("\u{2764}\u{e9}".as_bytes());
            line.extend_from_slice(&[0x80 + (i % 0x20), 0xf0, 0x9f, b'x']);
            line.extend_from_slice(format!("\x1b[3{}m{i}\r\n", i % 8).as_bytes());
        }
        assert!(line.len() > 4 * INVALID_UTF8_PIECE);
        // Every byte of the line comes to lie at a cut with some padding.
        for pad in 0..INVALID_UTF8_PIECE {
            let bytes = [&vec![b'.'; pad][..], &line].concat();
            let mut pieces = parser();
            Fidelity::live().process(&mut pieces, &bytes).unwrap();
            let mut whole = parser();
            Fidelity::live().process_piece(&mut whole, &bytes).unwrap();
            assert_eq!(
                pieces.screen().contents_formatted(),
                whole.screen().contents_formatted(),
                "padded by {pad}"
            );
            assert_eq!(
                pieces.screen().cursor_position(),
                whole.screen().cursor_position()
            );
        }
    }
}
