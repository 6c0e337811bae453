//! The terminal-fidelity layer: what vt100 lacks, completed or rewritten
//! in the bytes before vt100 sees them, so programs look and behave as in a
//! first-class terminal. vt100 stays the parser; every byte a vt100 parser
//! gets (a pane's live screen, a replayed history) goes through
//! [`Fidelity::process`].
//!
//! A second vte parser (vt100's own, so every byte is read the same way)
//! follows the bytes and stops after the sequences the layer handles. The
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
//! into a move to its stop ([`tabs`]). That needs the cursor before each
//! character, so text then goes through the follower a byte at a time,
//! runs of ASCII at once. Otherwise (nearly always) text goes through in
//! bulk and costs what the follower alone costs.
//!
//! Handled here: DEC special graphics and the UK set with SI/SO; `CSI s` /
//! `CSI u`; IND and NEL; DECSTR; `?1047` / `?1048`; DECALN; HTS, TBC, CHT,
//! CBT; IRM; no auto-wrap (`?7l`); SGR colon forms and styled underlines
//! ([`sgr`]); background colour erase for IL, DL, SU and SD; focus event
//! mode `?1004`; the kitty keyboard flags ([`keyboard`]); XTVERSION,
//! DECRQM and OSC 10/11/12 answers.
//!
//! [`rep_bound`]: crate::pane::rep_bound

pub mod answers;
pub mod charsets;
pub mod keyboard;
pub mod sgr;
pub mod tabs;

use std::io::Write as _;

use memchr::memchr2;
use unicode_width::UnicodeWidthChar as _;

use crate::pane::parse_guard::{self, ParserPanicked};
use crate::pane::rep_bound::{self, Region, RepBound, param};
use answers::{Answers, Query};
use charsets::{Charset, Charsets};
use keyboard::KeyboardFlags;
use tabs::TabStops;

const ESC: u8 = 0x1b;
const CAN: u8 = 0x18;
const SUB: u8 = 0x1a;
const SO: u8 = 0x0e;
const SI: u8 = 0x0f;
const TAB: u8 = 0x09;

/// Modes vt100 does not keep, as the program set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modes {
    /// IRM (`CSI 4 h`): printed characters push the rest of the row right.
    pub insert: bool,
    /// DECAWM (`CSI ? 7 h`, on by default): text wraps at the last column.
    pub autowrap: bool,
    /// `CSI ? 1004 h`: the program wants `CSI I` / `CSI O` on focus changes.
    pub focus_events: bool,
}

impl Default for Modes {
    fn default() -> Self {
        Self {
            insert: false,
            autowrap: true,
            focus_events: false,
        }
    }
}

/// A sequence replaced by ones vt100 reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replace {
    /// `CSI s` (SCOSC): as DECSC.
    SaveCursor,
    /// `CSI u` (SCORC): as DECRC.
    RestoreCursor,
    /// IND (`ESC D`): down a row, scrolling at the bottom (vt100's LF).
    Index,
    /// NEL (`ESC E`): CR LF.
    NextLine,
    /// DECSTR (`CSI ! p`).
    SoftReset,
    /// DECALN (`ESC # 8`): the screen filled with `E`.
    Alignment,
    /// CHT (`CSI n I`).
    TabForward(u16),
    /// CBT (`CSI n Z`).
    TabBackward(u16),
    /// An SGR vt100 misreads; the follower wrote the rewritten one.
    Sgr,
    /// DECSET (true) or DECRST with `1047`, `1048` or `1049` among the
    /// follower's `private_modes`.
    PrivateModes(bool),
}

/// What IL, DL, SU and SD blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blanked {
    InsertLines,
    DeleteLines,
    ScrollUp,
    ScrollDown,
}

/// A kitty keyboard flags change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyboardChange {
    Push(u16),
    Pop(u16),
    Set(u16, u16),
}

/// Where the follower stopped, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// A REP with this count, worth bounding.
    Rep(u16),
    /// DECSTBM setting this region on the grid the parser shows.
    Region(Region),
    /// A mode changed how text prints: the text after it takes the other
    /// path.
    Recheck,
    /// Auto-wrap back on (`?7h`). Without it the cursor stayed in the last
    /// column, where vt100 may hold it one column further (its pending
    /// wrap): brought back, so the next character lands in the last column
    /// as in xterm.
    AutowrapOn,
    /// RIS.
    Reset,
    Replace(Replace),
    /// HTS: a stop at the cursor's column.
    TabSet,
    /// TBC with its parameter.
    TabClear(u16),
    /// IL, DL, SU or SD with its count: blank rows take the background.
    Blank(Blanked, u16),
    Answer(Query),
    Keyboard(KeyboardChange),
}

/// What the last byte fed one at a time did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    Nothing,
    Print(char),
    Execute(u8),
}

/// The follower's view of the output: vte calls it for every byte the
/// parser gets.
#[derive(Debug)]
struct Follower {
    /// The parser's size during this call.
    rows: u16,
    cols: u16,
    rep: RepBound,
    modes: Modes,
    charsets: Charsets,
    tabs: TabStops,
    /// vte is in its ground state (false when unsure): a run of ASCII can
    /// then be taken as printed text.
    ground: bool,
    last: Last,
    stop: Option<Stop>,
    /// The rewritten SGR of a [`Replace::Sgr`].
    sgr: Vec<u8>,
    /// The parameters of a [`Replace::PrivateModes`].
    private_modes: Vec<u16>,
}

/// Feeds a vt100 parser with what it lacks completed. One per parser, fed
/// every byte that parser gets, from the parser's start.
pub struct Fidelity {
    vte: vte::Parser,
    follower: Follower,
    /// The scroll regions of the main and alternate grids (blanking rows in
    /// the background colour needs them).
    regions: [Region; 2],
    keyboard: KeyboardFlags,
    /// Bytes written for vt100 in place of the program's.
    out: Vec<u8>,
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
        Self::new(RepBound::history())
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
                sgr: Vec::new(),
                private_modes: Vec::new(),
            },
            regions: [None; 2],
            keyboard: KeyboardFlags::default(),
            out: Vec::new(),
        }
    }

    /// Starts over for a fresh parser.
    pub fn reset(&mut self) {
        let mut rep = std::mem::replace(&mut self.follower.rep, RepBound::unbounded());
        rep.reset();
        *self = Self::new(rep);
    }

    /// After the parser's grid changed size: vt100 (like xterm) then resets
    /// the scroll region of both grids.
    pub fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        self.regions = [None; 2];
        self.follower.rep.grid_resized(old_rows, new_rows);
    }

    /// What REP bounding keeps, for tests and the log.
    pub fn rep(&self) -> &RepBound {
        &self.follower.rep
    }

    /// The modes vt100 does not keep.
    pub fn modes(&self) -> Modes {
        self.follower.modes
    }

    /// The kitty keyboard flags in force on the main or alternate screen.
    pub fn keyboard_flags(&self, alternate: bool) -> u8 {
        self.keyboard.current(alternate)
    }

    /// Whether plain text prints as vt100 alone would print it, cell for
    /// cell (the fast-forward counts rows and wraps by that).
    pub fn text_prints_plainly(&self) -> bool {
        let f = &self.follower;
        !f.modes.insert && f.modes.autowrap && !f.tabs.custom()
    }

    /// `parser.process(bytes)` through [`parse_guard::process`], with what
    /// vt100 lacks completed.
    pub fn process<C: vt100::Callbacks + Answers>(
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
        let chunk = &bytes[..shift.map_or(bytes.len(), |at| at + 1)];
        let read = self.vte.advance_until_terminated(&mut self.follower, chunk);
        let through = &chunk[..read];
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
                i += printed;
                start = i;
                continue;
            }
            self.follower.last = Last::Nothing;
            let byte = bytes[i];
            let _ = self
                .vte
                .advance_until_terminated(&mut self.follower, &bytes[i..=i]);
            i += 1;
            if byte == ESC {
                self.follower.ground = false;
            }
            if let Some(stop) = self.follower.stop.take() {
                self.act(parser, stop, &bytes[start..i])?;
                start = i;
                continue;
            }
            match self.follower.last {
                Last::Print(c) if i - start >= c.len_utf8() => {
                    let at = i - c.len_utf8();
                    parse_guard::process(parser, &bytes[start..at])?;
                    self.print_char(parser, c, &bytes[at..i])?;
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
        self.out.clear();
        let fits = run.len().min(room);
        if insert && fits > 0 {
            let _ = write!(self.out, "\x1b[{fits}@");
        }
        for &b in &run[..fits] {
            push_char(&mut self.out, set, b);
        }
        if fits < run.len() {
            // Past the last column: with auto-wrap one character wraps;
            // without, each overwrites the last column and only the last
            // one shows.
            if !autowrap {
                let _ = write!(self.out, "\x1b[{}G", f.cols);
            }
            push_char(&mut self.out, set, run[run.len() - 1]);
        }
        parse_guard::process(parser, &self.out)?;
        Ok(take)
    }

    /// Prints one character read a byte at a time (its `bytes` are all in
    /// this call) as the modes say.
    fn print_char<C: vt100::Callbacks + Answers>(
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
                let mut buf = [0; 4];
                self.out
                    .extend_from_slice(m.encode_utf8(&mut buf).as_bytes());
            }
            None => self.out.extend_from_slice(bytes),
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
            Stop::Blank(what, count) => {
                parse_guard::process(parser, through)?;
                self.blank_in_background(parser, what, count)?;
            }
            Stop::Answer(query) => {
                parse_guard::process(parser, through)?;
                let screen = parser.screen();
                let flags = self.keyboard.current(screen.alternate_screen());
                self.out.clear();
                answers::answer(query, screen, &self.follower.modes, flags, &mut self.out);
                parser.callbacks_mut().answer(&self.out);
            }
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
                out.extend_from_slice(&f.sgr);
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
                let modes = std::mem::take(&mut f.private_modes);
                let result = self.private_modes(parser, &modes, set);
                self.follower.private_modes = modes;
                return result;
            }
        };
        parse_guard::process(parser, &self.out)
    }

    /// DECSET / DECRST with `1047`, `1048` or `1049` among `modes`, one
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
                (1047, true) => write!(self.out, "\x1b[?47h"),
                // Leaving, xterm clears the alternate screen first.
                (1047, false) if parser.screen().alternate_screen() => {
                    write!(self.out, "\x1b[2J\x1b[?47l")
                }
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
        let rows = self.follower.rows;
        let (top, bottom) =
            self.regions[usize::from(screen.alternate_screen())].unwrap_or((0, rows - 1));
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

/// Appends printable ASCII `b` as `set` shows it.
fn push_char(out: &mut Vec<u8>, set: Charset, b: u8) {
    match set.map(b) {
        Some(c) => {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        None => out.push(b),
    }
}

impl Follower {
    /// Whether printed text must be rewritten.
    fn rewrites_text(&self) -> bool {
        self.charsets.active() != Charset::Ascii
            || self.modes.insert
            || !self.modes.autowrap
            || self.tabs.custom()
    }

    fn stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }

    /// DECSET / DECRST: notes the modes vt100 ignores; replaces the
    /// sequence when it holds one vt100 gets wrong.
    fn private_modes(&mut self, params: &vte::Params, set: bool) {
        let mut replace = false;
        let mut recheck = None;
        for p in params {
            match p {
                [7] => {
                    let was = self.modes.autowrap;
                    self.modes.autowrap = set;
                    recheck = Some(if set && !was {
                        Stop::AutowrapOn
                    } else {
                        Stop::Recheck
                    });
                }
                [1004] => self.modes.focus_events = set,
                [1047..=1049] => replace = true,
                _ => {}
            }
            // xterm keeps the character sets with the saved cursor.
            match (p, set) {
                ([1048 | 1049], true) => self.charsets.save(),
                ([1048 | 1049], false) => {
                    let _ = self.charsets.restore();
                }
                _ => {}
            }
        }
        if replace {
            self.private_modes.clear();
            self.private_modes
                .extend(params.iter().filter_map(|p| p.first().copied()));
            self.stop(Stop::Replace(Replace::PrivateModes(set)));
        } else if let Some(stop) = recheck {
            self.stop(stop);
        }
    }
}

impl vte::Perform for Follower {
    #[inline]
    fn print(&mut self, c: char) {
        self.ground = true;
        self.last = Last::Print(c);
        self.rep.printed(c, self.cols);
    }

    #[inline]
    fn execute(&mut self, byte: u8) {
        self.last = Last::Execute(byte);
        match byte {
            SO => self.charsets.shift(true),
            SI => self.charsets.shift(false),
            CAN | SUB => self.ground = true,
            _ => {}
        }
    }

    fn csi_dispatch(
        &mut self,
        params: &vte::Params,
        intermediates: &[u8],
        _ignore: bool,
        action: char,
    ) {
        self.ground = true;
        // SGR first: nearly every sequence is one, and most need no look at
        // their parameters beyond this.
        if let ([], 'm') = (intermediates, action) {
            if sgr::needs_rewrite(params) {
                self.sgr.clear();
                sgr::rewrite(params, &mut self.sgr);
                self.stop(Stop::Replace(Replace::Sgr));
            }
            return;
        }
        let first = param(params, 0, 0);
        // A lone parameter (or none): `CSI s` but not DECSLRM's `CSI 1;5 s`.
        let bare = params.len() <= 1 && first == 0;
        match (intermediates, action) {
            ([], 'b') => {
                let count = param(params, 0, 1);
                if self.rep.worth_bounding(count, self.rows, self.cols) {
                    self.stop(Stop::Rep(count));
                }
            }
            ([], 'r') => self.stop(Stop::Region(rep_bound::region(params, self.rows))),
            // ED 3 (and DECSED 3) clear the count of scrolled-off rows.
            ([] | [b'?'], 'J') if first == 3 => self.rep.count_cleared(),
            ([], 's') if bare => {
                self.charsets.save();
                self.stop(Stop::Replace(Replace::SaveCursor));
            }
            ([], 'u') if bare => {
                let _ = self.charsets.restore();
                self.stop(Stop::Replace(Replace::RestoreCursor));
            }
            ([], 'g') => self.stop(Stop::TabClear(first)),
            ([], 'I') => self.stop(Stop::Replace(Replace::TabForward(param(params, 0, 1)))),
            ([], 'Z') => self.stop(Stop::Replace(Replace::TabBackward(param(params, 0, 1)))),
            ([], 'L' | 'M' | 'S' | 'T') => {
                let what = match action {
                    'L' => Blanked::InsertLines,
                    'M' => Blanked::DeleteLines,
                    'S' => Blanked::ScrollUp,
                    _ => Blanked::ScrollDown,
                };
                self.stop(Stop::Blank(what, param(params, 0, 1)));
            }
            ([], 'h' | 'l') if params.iter().any(|p| p == [4]) => {
                self.modes.insert = action == 'h';
                self.stop(Stop::Recheck);
            }
            ([b'?'], 'h' | 'l') => self.private_modes(params, action == 'h'),
            ([b'!'], 'p') => {
                // DECSTR resets these at once; the rest when replaced.
                self.modes.insert = false;
                self.modes.autowrap = true;
                self.stop(Stop::Replace(Replace::SoftReset));
            }
            ([b'?', b'$'], 'p') => self.stop(Stop::Answer(Query::Mode {
                private: true,
                mode: first,
            })),
            ([b'$'], 'p') => self.stop(Stop::Answer(Query::Mode {
                private: false,
                mode: first,
            })),
            ([b'>'], 'q') if first == 0 => self.stop(Stop::Answer(Query::Version)),
            ([b'?'], 'u') => self.stop(Stop::Answer(Query::KeyboardFlags)),
            ([b'>'], 'u') => self.stop(Stop::Keyboard(KeyboardChange::Push(first))),
            ([b'<'], 'u') => self.stop(Stop::Keyboard(KeyboardChange::Pop(param(params, 0, 1)))),
            ([b'='], 'u') => self.stop(Stop::Keyboard(KeyboardChange::Set(
                first,
                param(params, 1, 1),
            ))),
            _ => {}
        }
    }

    fn esc_dispatch(&mut self, intermediates: &[u8], _ignore: bool, byte: u8) {
        self.ground = true;
        match (intermediates, byte) {
            // RIS: vt100 starts a new screen.
            ([], b'c') => {
                self.rep.reset();
                self.modes = Modes::default();
                self.charsets.reset();
                self.tabs.reset();
                self.stop(Stop::Reset);
            }
            ([], b'D') => self.stop(Stop::Replace(Replace::Index)),
            ([], b'E') => self.stop(Stop::Replace(Replace::NextLine)),
            ([], b'H') => self.stop(Stop::TabSet),
            ([], b'7') => self.charsets.save(),
            ([], b'8') => {
                let changed = self.charsets.restore();
                if changed {
                    self.stop(Stop::Recheck);
                }
            }
            ([b'#'], b'8') => self.stop(Stop::Replace(Replace::Alignment)),
            ([b'(' | b')'], set) => {
                let slot = usize::from(intermediates == b")");
                if self.charsets.designate(slot, set) {
                    self.stop(Stop::Recheck);
                }
            }
            _ => {}
        }
    }

    fn osc_dispatch(&mut self, params: &[&[u8]], bell_terminated: bool) {
        self.ground = true;
        // `OSC 10 ; ? ; ?` asks for 10 and 11: each `?` the next colour.
        let first = match params.first().copied() {
            Some(b"10") => 0,
            Some(b"11") => 1,
            Some(b"12") => 2,
            _ => return,
        };
        let mut asked = 0u8;
        for (i, p) in params.iter().skip(1).enumerate() {
            if *p == b"?" && first + i < 3 {
                asked |= 1 << (first + i);
            }
        }
        if asked != 0 {
            self.stop(Stop::Answer(Query::Colours {
                asked,
                bel: bell_terminated,
            }));
        }
    }

    fn terminated(&self) -> bool {
        self.stop.is_some()
    }
}
