//! The follower: vte calls it for every byte a parser gets, and it keeps
//! what the layer needs of them (modes, character sets, tab stops, REP's
//! character) and stops vte after a sequence the layer must act on
//! ([`Stop`]). What to do at each stop is [`super::Fidelity`]'s.

use crate::pane::term::cell_marks::{self, Link};
use crate::pane::term::fidelity::Modes;
use crate::pane::term::fidelity::answers::Query;
use crate::pane::term::fidelity::charsets::{Charset, Charsets};
use crate::pane::term::fidelity::colour_sets::ColourSets;
use crate::pane::term::fidelity::pen::Pen;
use crate::pane::term::fidelity::sgr;
use crate::pane::term::fidelity::sixel_images::SixelIntake;
use crate::pane::term::fidelity::tab_stops::TabStops;
use crate::pane::term::picture_queries::PictureQuery;
use crate::pane::term::rep_bound::{self, Region, RepBound, param};

const CAN: u8 = 0x18;
const SUB: u8 = 0x1a;
const SO: u8 = 0x0e;
const SI: u8 = 0x0f;
const LF: u8 = 0x0a;
const VT: u8 = 0x0b;
const FF: u8 = 0x0c;

/// A sequence replaced by ones vt100 reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Replace {
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

/// What IL, DL, SU and SD blank; LF and RI blank a row when they scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Blanked {
    InsertLines,
    DeleteLines,
    ScrollUp,
    ScrollDown,
    /// LF (or VT, FF): a row scrolled in at the bottom of the region if
    /// the cursor was on it.
    LineFeed,
    /// RI: a row scrolled in at the top of the region if the cursor was
    /// on it.
    ReverseIndex,
}

/// A kitty keyboard flags change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyboardChange {
    Push(u16),
    Pop(u16),
    Set(u16, u16),
}

/// Where the follower stopped, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// A REP with this count, worth bounding or to be marked.
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
    /// U+FFFD printed (the program's, or vte's for invalid UTF-8), which
    /// vt100 drops; the follower's [`Replacements`] say how many.
    Replacement,
    /// A sixel picture's DCS ended (at its ST's `\`).
    Picture,
}

/// The U+FFFDs printed in the step that ended in [`Stop::Replacement`]: a
/// program's own are in valid text, where vte goes on to the end of the
/// run of text (or its ESC) before the stop is seen.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Replacements {
    pub(super) count: u16,
    /// Nothing printed or executed after the last of them.
    pub(super) last: bool,
}

/// What the last byte fed one at a time did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Last {
    Nothing,
    Print(char),
    Execute(u8),
}

/// The parameters a [`Replace`] writes instead of the program's, kept
/// from one replacement to the next so their buffers are reused.
#[derive(Debug, Default)]
pub(super) struct Rewritten {
    /// The rewritten SGR of a [`Replace::Sgr`].
    pub(super) sgr: Vec<u8>,
    /// The parameters of a [`Replace::PrivateModes`].
    pub(super) private_modes: Vec<u16>,
}

/// The follower's view of the output: vte calls it for every byte the
/// parser gets.
#[derive(Debug)]
pub(super) struct Follower {
    /// The parser's size during this call.
    pub(super) rows: u16,
    pub(super) cols: u16,
    pub(super) rep: RepBound,
    pub(super) modes: Modes,
    pub(super) charsets: Charsets,
    pub(super) tabs: TabStops,
    /// vte is in its ground state (false when unsure): a run of ASCII can
    /// then be taken as printed text.
    pub(super) ground: bool,
    pub(super) last: Last,
    pub(super) stop: Option<Stop>,
    /// What a [`Replace`] of SGR or private modes writes instead.
    pub(super) rewritten: Rewritten,
    /// Colours the program set for its pane (OSC 4, 10-12 and resets).
    pub(super) colour_sets: ColourSets,
    /// What of the pen vt100 does not keep.
    pub(super) pen: Pen,
    pub(super) replacements: Replacements,
    /// The sixel picture being read.
    pub(super) pictures: SixelIntake,
    /// The pen's background may not be the default (an SGR set one): LF
    /// and RI then stop, as rows they scroll in take it.
    pub(super) background: bool,
}

impl Follower {
    /// Whether printed text must be rewritten.
    pub(super) fn rewrites_text(&self) -> bool {
        self.charsets.active() != Charset::Ascii
            || self.modes.insert
            || !self.modes.autowrap
            || self.tabs.custom()
            || self.pen.active()
    }

    /// DECSC (and its forms): xterm saves the character sets and the
    /// attributes with the cursor.
    fn save_cursor(&mut self) {
        self.charsets.save();
        self.modes.origin.save();
        self.pen.save();
    }

    /// DECRC. Returns whether text may print otherwise now.
    fn restore_cursor(&mut self) -> bool {
        let was = self.pen.active();
        self.pen.restore();
        self.modes.origin.restore();
        self.charsets.restore() || was != self.pen.active()
    }

    fn stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }

    /// Something other than U+FFFD followed one in the same step of vte's.
    #[inline]
    fn not_replaced(&mut self) {
        if self.replacements.count > 0 {
            self.replacements.last = false;
        }
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
                [6] => self.modes.origin.set(set),
                [1004] => self.modes.focus_events = set,
                [2026] => self.modes.synchronized = set,
                [2048] => self.modes.in_band_resize = set,
                [2031] => self.modes.theme_reports = set,
                // `?47` and `?1047` keep the cursor where it was, as
                // xterm's screens share it; `?66` is DECKPAM / DECKPNM.
                [47 | 66 | 1047..=1049] => replace = true,
                _ => {}
            }
            if let [mode @ (47 | 1047..=1049)] = p {
                self.modes.origin.screen_mode(*mode, set);
            }
            // xterm keeps the character sets with the saved cursor.
            match (p, set) {
                ([1048 | 1049], true) => self.save_cursor(),
                ([1048 | 1049], false) => {
                    let changed = self.restore_cursor();
                    recheck = recheck.or(changed.then_some(Stop::Recheck));
                }
                _ => {}
            }
        }
        if replace {
            self.rewritten.private_modes.clear();
            self.rewritten
                .private_modes
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
        // Printable ASCII, nearly every character: one column, no U+FFFD.
        if (' '..='~').contains(&c) {
            self.rep.printed_narrow(c, self.cols);
            self.not_replaced();
            return;
        }
        self.rep.printed(c, self.cols);
        // vte reads invalid UTF-8 as U+FFFD and ends its step there; in a
        // run of valid text more may follow in the same step (a program's
        // own U+FFFD): the stop comes after the run, which
        // [`Replacements`] tells where to look back in.
        if c == '\u{FFFD}' && matches!(self.stop, None | Some(Stop::Replacement)) {
            self.stop(Stop::Replacement);
            self.replacements.count = self.replacements.count.saturating_add(1);
            self.replacements.last = true;
        } else {
            self.not_replaced();
        }
    }

    #[inline]
    fn execute(&mut self, byte: u8) {
        self.not_replaced();
        self.pictures.cancel();
        self.last = Last::Execute(byte);
        match byte {
            SO => self.charsets.shift(true),
            SI => self.charsets.shift(false),
            CAN | SUB => self.ground = true,
            LF | VT | FF if self.background => {
                self.stop(Stop::Blank(Blanked::LineFeed, 1));
            }
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
        self.pictures.cancel();
        // SGR first: nearly every sequence is one, and most need no look at
        // their parameters beyond this.
        if let ([], 'm') = (intermediates, action) {
            let had_background = self.background;
            self.background = sgr::sets_background(params, had_background);
            let was = self.pen.active();
            let suspicious = self.pen.sgr(params);
            if suspicious && sgr::needs_rewrite(params) {
                self.rewritten.sgr.clear();
                sgr::rewrite(params, &mut self.rewritten.sgr);
                self.stop(Stop::Replace(Replace::Sgr));
            } else if was != self.pen.active() || (self.background && !had_background) {
                // (A background set: the text after it is cut at each LF.)
                self.stop(Stop::Recheck);
            }
            return;
        }
        let first = param(params, 0, 0);
        // A lone parameter (or none): `CSI s` but not DECSLRM's `CSI 1;5 s`.
        let bare = params.len() <= 1 && first == 0;
        match (intermediates, action) {
            ([], 'b') => {
                let count = param(params, 0, 1);
                // With the pen marking, every REP is written out marked.
                let marked = self.pen.active() && self.rep.last_char().is_some();
                if marked || self.rep.worth_bounding(count, self.rows, self.cols) {
                    self.stop(Stop::Rep(count));
                }
            }
            ([], 'r') => self.stop(Stop::Region(rep_bound::region(params, self.rows))),
            // ED 3 (and DECSED 3) clear the count of scrolled-off rows.
            ([] | [b'?'], 'J') if first == 3 => self.rep.count_cleared(),
            ([], 's') if bare => {
                self.save_cursor();
                self.stop(Stop::Replace(Replace::SaveCursor));
            }
            ([], 'u') if bare => {
                let _ = self.restore_cursor();
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
                self.pen.reset_attributes();
                self.modes.insert = false;
                self.modes.autowrap = true;
                // Written as `?6l` then DECSC (see `Replace::SoftReset`).
                self.modes.origin.set(false);
                self.modes.origin.save();
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
            ([b'?'], 'n') if first == 996 => self.stop(Stop::Answer(Query::Theme)),
            ([b'?'], 'u') => self.stop(Stop::Answer(Query::KeyboardFlags)),
            ([], 'c') if first == 0 => self.stop(Stop::Answer(Query::Pictures(
                PictureQuery::DeviceAttributes,
            ))),
            ([b'?'], 'S') => self.stop(Stop::Answer(Query::Pictures(PictureQuery::Graphics {
                item: first,
                action: param(params, 1, 0),
            }))),
            ([], 't') if first == 14 => {
                self.stop(Stop::Answer(Query::Pictures(PictureQuery::AreaPixels)));
            }
            ([], 't') if first == 16 => {
                self.stop(Stop::Answer(Query::Pictures(PictureQuery::CellPixels)));
            }
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
        if self.pictures.ended() {
            if (intermediates, byte) == (&[][..], b'\\') {
                return self.stop(Stop::Picture);
            }
            self.pictures.cancel();
        }
        match (intermediates, byte) {
            // RIS: vt100 starts a new screen.
            ([], b'c') => {
                self.rep.reset();
                self.modes = Modes::default();
                self.charsets.reset();
                self.tabs.reset();
                self.colour_sets.reset();
                self.pen.reset();
                self.background = false;
                self.stop(Stop::Reset);
            }
            ([], b'D') => self.stop(Stop::Replace(Replace::Index)),
            ([], b'M') if self.background => self.stop(Stop::Blank(Blanked::ReverseIndex, 1)),
            ([], b'E') => self.stop(Stop::Replace(Replace::NextLine)),
            ([], b'H') => self.stop(Stop::TabSet),
            ([], b'7') => self.save_cursor(),
            ([], b'8') => {
                let changed = self.restore_cursor();
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

    fn hook(&mut self, params: &vte::Params, intermediates: &[u8], _ignore: bool, action: char) {
        self.not_replaced();
        self.pictures
            .hook(params, intermediates, action, (self.rows, self.cols));
    }

    #[inline]
    fn put(&mut self, byte: u8) {
        self.pictures.put(byte);
    }

    fn unhook(&mut self) {
        self.pictures.unhook();
    }

    fn osc_dispatch(&mut self, params: &[&[u8]], bell_terminated: bool) {
        // Ended by ESC (ST's first byte), vte is not in ground yet: the `\`
        // that follows is no printed text.
        self.ground = bell_terminated;
        if params.first().copied() == Some(b"8") {
            return self.hyperlink(params);
        }
        let effect = self.colour_sets.osc(params);
        if effect.asked_dynamic != 0 {
            self.stop(Stop::Answer(Query::Colours {
                asked: effect.asked_dynamic,
                bel: bell_terminated,
            }));
        } else if effect.asked_palette {
            self.stop(Stop::Answer(Query::Palette {
                bel: bell_terminated,
            }));
        }
    }

    fn terminated(&self) -> bool {
        self.stop.is_some()
    }
}

impl Follower {
    /// `OSC 8 ; params ; uri`: the link printed text gets from now on (none
    /// for an empty URI, one not kept, or links switched off).
    fn hyperlink(&mut self, params: &[&[u8]]) {
        let was = self.pen.active();
        let link = match params {
            [_, link_params, uri @ ..] if !uri.is_empty() => {
                // vte split the URI at its `;`s.
                let uri = uri.join(&b';');
                Link::sanitized(link_params, &uri).and_then(cell_marks::intern_link)
            }
            _ => None,
        };
        self.pen.set_link(link);
        if was != self.pen.active() {
            self.stop(Stop::Recheck);
        }
    }
}
