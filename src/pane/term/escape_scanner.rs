//! Follows vte's state over a pane's output, once per byte, and reports
//! what the stages after it need to know.
//!
//! The pane's intake ([`crate::pane::term::fast_forward`]) runs every byte of
//! program output through one [`EscapeScanner`] as it arrives. The
//! scanner keeps where vte (under vt100) will be after that byte, collapsed
//! to what decides where a sequence ends, and reports:
//! - each OSC string's bytes with the length so far, so the
//!   [`OscGuard`] can cap them (the only bytes it ever drops);
//! - where each BEL and each escape sequence other than a short SGR starts
//!   and ends ([`Finding`]), and what the ones the fast-forward follows
//!   did (DECSTBM with its parameters, ED, RIS, the start and end of a
//!   synchronized update: `CSI ? 2026 h` / `l`).
//!
//! SGR sequences (`ESC [ [0-9:;]* m`, at most [`MAX_SGR_PARAMS`] parameter
//! bytes) leave no finding: to the fast-forward they are plain output.
//! Between sequences the scan is `memchr`, so plain floods cost next to
//! nothing.
//!
//! The states are vte's with the DCS states merged: a DCS ended by a C1 ST
//! is seen to end a little later, at the next ESC, CAN or SUB, which only
//! means parsing directly for longer. REP is not followed here: bounding it
//! needs vte's exact reading of every byte the parser gets, which after
//! the fast-forward is not the program's output (see
//! [`crate::pane::term::rep_bound`]).

use std::collections::VecDeque;

use memchr::{memchr, memchr2, memchr3};

use crate::pane::term::osc_guard::OscGuard;

pub mod osc133_capture;

use osc133_capture::{Osc133Capture, Osc133Found};

const ESC: u8 = 0x1b;
const BEL: u8 = 0x07;
const CAN: u8 = 0x18;
const SUB: u8 = 0x1a;

/// The longest SGR parameter string taken as plain output; longer ones are
/// reported like any other sequence.
pub const MAX_SGR_PARAMS: usize = 64;

/// Where vte's state machine is, collapsed to what decides when a sequence
/// ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Seq {
    #[default]
    Ground,
    Escape,
    EscIntermediate,
    Csi,
    Dcs,
    Osc,
    /// An APC string (kitty graphics when it starts with `G`).
    Apc,
    /// SOS and PM strings.
    Ignored,
}

/// A CSI sequence's parameters, as far as DECSTBM needs them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CsiParams {
    params: [u8; 24],
    len: usize,
    /// A private marker or an intermediate: vt100 does not take it as
    /// DECSTBM.
    marked: bool,
    /// A sub-parameter or more bytes than `params` holds: DECSTBM, but not
    /// one this module reads (taken as setting a region).
    unreadable: bool,
    /// The only mark is a `?` before the parameters: DECSET or DECRST when
    /// it ends in `h` or `l`.
    private: bool,
}

impl CsiParams {
    /// Whether this DECSTBM may leave a scroll region smaller than a screen
    /// of `rows` (vt100's reading of its parameters).
    pub fn may_set_region(&self, rows: std::num::NonZeroU16) -> bool {
        if self.unreadable {
            return true;
        }
        let rows = u32::from(rows.get());
        let mut numbers = self.params[..self.len].split(|&b| b == b';').map(|digits| {
            digits.iter().fold(0u32, |n, d| {
                (n * 10 + u32::from(d - b'0')).min(u32::from(u16::MAX))
            })
        });
        let top = numbers.next().unwrap_or(0).max(1) - 1;
        let bottom = match numbers.next().unwrap_or(0) {
            0 => rows,
            b => b,
        };
        let bottom = bottom.saturating_sub(1).min(rows - 1);
        top < bottom && !(top == 0 && bottom == rows - 1)
    }

    /// Whether the parameters list `mode` (as vte reads numbers).
    fn lists(&self, mode: u32) -> bool {
        !self.unreadable
            && self.params[..self.len].split(|&b| b == b';').any(|digits| {
                digits.iter().fold(0u32, |n, d| {
                    (n * 10 + u32::from(d - b'0')).min(u32::from(u16::MAX))
                }) == mode
            })
    }
}

/// The private modes that show the alternate screen.
const ALTERNATE_MODES: [u32; 3] = [47, 1047, 1049];

/// Private modes that change what vt100 keeps but does not write out:
/// origin mode, the alternate screen (and the cursor `1049` saves), the
/// saved cursor (`1048`).
const HIDDEN_STATE_MODES: [u32; 5] = [6, 47, 1047, 1048, 1049];

/// Intermediates of `ESC` sequences that only designate character sets
/// (the fidelity layer translates those; vt100 keeps nothing of them).
const CHARSET_INTERMEDIATES: &[u8] = b"()*+-./";

/// The synchronized-update mode (`CSI ? 2026 h` starts one, `l` ends it).
pub const SYNC_MODE: u32 = 2026;

/// What a sequence that brought vte back to its ground state was, as far as
/// the fast-forward cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Decstbm(CsiParams),
    /// ED: vt100's count of scrolled-off rows may be back to 0.
    ScrollbackCleared,
    /// RIS: a new screen altogether.
    Reset,
    /// `CSI ? 2026 h`: a synchronized update starts.
    SyncStart,
    /// `CSI ? 2026 l`: the update ends.
    SyncEnd,
    /// An APC string starting with `G` (a kitty graphics command) ended
    /// with ST: its body waits in [`EscapeScanner::take_apc`].
    Apc,
    Other,
}

/// A boundary in the scanned output. Positions count the bytes the scanner
/// passed on (after the guard's cuts) since it was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// A BEL, or a sequence other than a short SGR, starts at this position,
    /// with vte in its ground state before it.
    Starts(u64),
    /// vte is back in its ground state before this position. Every
    /// [`Finding::Starts`] is followed by one of these.
    Ends(u64, Ended),
}

#[derive(Debug, Default)]
pub struct EscapeScanner {
    seq: Seq,
    csi: CsiParams,
    /// Where the sequence being scanned started, while it may still turn
    /// out to be a short SGR (so no finding was made for it yet).
    sgr_start: Option<u64>,
    /// Parameter bytes of that possible SGR.
    sgr_params: usize,
    /// Bytes of the OSC string being scanned so far.
    osc_seen: usize,
    /// The position of the next byte passed on.
    pos: u64,
    /// Synchronized updates ended so far ([`Ended::SyncEnd`] findings).
    sync_ends: u64,
    /// The kitty graphics command being scanned, and those ended.
    apc: ApcCapture,
    /// The alternate screen is shown (`?47`, `?1047`, `?1049`, as
    /// `fidelity` takes them): an ED 3 there leaves the history alone.
    alternate: bool,
    /// Where the newest ED 3 on the primary screen or RIS ended, since
    /// asked.
    erased: Option<u64>,
    /// Where the newest ESC that started a sequence is.
    esc_at: u64,
    /// The OSC 133 sequences (command marks) passed over.
    osc133: Osc133Capture,
    /// A sequence passed over may have changed what vt100 keeps but
    /// does not write out (see [`EscapeScanner::hidden_state_touched`]).
    hidden_touched: bool,
}

impl EscapeScanner {
    /// Scans `input`: appends it to `out` with the bytes `guard` drops from
    /// OSC strings left out, and appends what it finds to `findings`.
    pub fn scan(
        &mut self,
        input: &[u8],
        guard: &mut OscGuard,
        out: &mut Vec<u8>,
        findings: &mut VecDeque<Finding>,
    ) {
        let start = self.pos;
        self.osc133.forget_found();
        // Input bytes dropped so far, and where the part not yet copied
        // to `out` starts.
        let mut cut = 0;
        // Bytes added: the references that stand for graphics commands.
        let mut added = 0;
        let mut copy_from = 0;
        let mut i = 0;
        while i < input.len() {
            let at = start + (i + added - cut) as u64;
            match self.seq {
                Seq::Ground => {
                    let Some(off) = memchr2(ESC, BEL, &input[i..]) else {
                        break;
                    };
                    i += off;
                    let at = at + off as u64;
                    if input[i] == BEL {
                        findings.push_back(Finding::Starts(at));
                        findings.push_back(Finding::Ends(at + 1, Ended::Other));
                    } else if let Some(Some(n)) = sgr_len(&input[i..]) {
                        // A whole short SGR: stepping through it would end
                        // in ground with nothing to report.
                        i += n;
                        continue;
                    } else {
                        self.seq = Seq::Escape;
                        self.esc_at = at;
                        self.sgr_start = Some(at);
                        self.sgr_params = 0;
                    }
                    i += 1;
                }
                Seq::Osc => {
                    let rest = &input[i..];
                    let end = osc_end(rest);
                    let run = end.unwrap_or(rest.len());
                    let keep = guard.admit(self.osc_seen, run);
                    self.osc133.take(&rest[..keep]);
                    if keep < run {
                        out.extend_from_slice(&input[copy_from..i + keep]);
                        copy_from = i + run;
                        cut += run - keep;
                    }
                    self.osc_seen = self.osc_seen.saturating_add(run);
                    i += run;
                    if end.is_some() {
                        let at = start + (i + added - cut) as u64;
                        self.step(input[i], at, findings);
                        // After the step: an ESC awaits its next byte.
                        self.osc133.string_ended(input[i], at);
                        i += 1;
                    }
                }
                Seq::Apc => {
                    let rest = &input[i..];
                    let end = memchr3(ESC, CAN, SUB, rest);
                    let run = end.unwrap_or(rest.len());
                    if self.apc.take(&rest[..run]) {
                        // A graphics command's body leaves the output: the
                        // parsers ignore it, and the history ring keeps the
                        // short reference written at its end instead.
                        out.extend_from_slice(&input[copy_from..i]);
                        copy_from = i + run;
                        cut += run;
                    }
                    i += run;
                    if end.is_some() {
                        if input[i] == ESC {
                            let reference = self.apc.reference();
                            out.extend_from_slice(&input[copy_from..i]);
                            out.extend_from_slice(&reference);
                            copy_from = i;
                            added += reference.len();
                        }
                        let at = start + (i + added - cut) as u64;
                        self.step(input[i], at, findings);
                        i += 1;
                    }
                }
                // Only the "anywhere" bytes end these.
                Seq::Dcs | Seq::Ignored => match memchr3(ESC, CAN, SUB, &input[i..]) {
                    None => break,
                    Some(off) => {
                        i += off;
                        self.step(input[i], at + off as u64, findings);
                        i += 1;
                    }
                },
                _ => {
                    self.step(input[i], at, findings);
                    i += 1;
                }
            }
        }
        out.extend_from_slice(&input[copy_from..]);
        self.pos = start + (input.len() + added - cut) as u64;
    }

    /// How many synchronized updates the output so far ended.
    pub fn sync_ends(&self) -> u64 {
        self.sync_ends
    }

    /// Where a sequence that may still be a short SGR starts, when the
    /// output so far ends inside one.
    pub fn pending_sgr(&self) -> Option<u64> {
        self.sgr_start
    }

    /// The graphics command an [`Ended::Apc`] finding ended, oldest first.
    pub fn take_apc(&mut self) -> Option<ApcBody> {
        self.apc.ended.pop_front()
    }

    /// Follows one byte at position `at` outside ground (or an ESC, CAN or
    /// SUB anywhere) and reports what it starts or ends.
    fn step(&mut self, byte: u8, at: u64, findings: &mut VecDeque<Finding>) {
        if self.osc133.escaped() {
            self.osc133.after_escape(byte, at);
        }
        if byte == ESC {
            self.esc_at = at;
        }
        let before = self.seq;
        let ended = self.follow(byte);
        if let Some(start) = self.sgr_start {
            let still_sgr = match (before, byte) {
                (Seq::Escape, b'[') => true,
                (Seq::Csi, b'0'..=b'9' | b':' | b';') => {
                    self.sgr_params += 1;
                    self.sgr_params <= MAX_SGR_PARAMS
                }
                (Seq::Csi, b'm') => {
                    // A short SGR: plain output, nothing to report.
                    self.sgr_start = None;
                    return;
                }
                _ => false,
            };
            if !still_sgr {
                findings.push_back(Finding::Starts(start));
                self.sgr_start = None;
            }
        }
        if self.seq == Seq::Ground {
            // RIS starts a new screen, its history empty, on either grid.
            let erased = match ended {
                Ended::ScrollbackCleared => self.erases_history(),
                Ended::Reset => true,
                _ => false,
            };
            if erased {
                self.erased = Some(at + 1);
            }
            findings.push_back(Finding::Ends(at + 1, ended));
        }
    }

    /// Whether the CSI just ended is ED 3 (or DECSED 3) on the primary
    /// screen: the history before it is gone from every view (vt100
    /// erases its scrollback), so it is not to be kept on disk either.
    fn erases_history(&self) -> bool {
        let csi = &self.csi;
        let first = csi.params[..csi.len].split(|&b| b == b';').next();
        !self.alternate
            && (!csi.marked || csi.private)
            && !csi.unreadable
            && first.is_some_and(|digits| {
                digits.iter().fold(0u32, |n, d| {
                    (n * 10 + u32::from(d - b'0')).min(u32::from(u16::MAX))
                }) == 3
            })
    }

    /// Where the newest ED 3 on the primary screen (see
    /// [`Self::erases_history`]) or RIS scanned since the last call ended,
    /// if any: the history before it is gone from every view.
    pub fn take_erased(&mut self) -> Option<u64> {
        self.erased.take()
    }

    /// The OSC 133 sequences the latest scan found (the one ending in the
    /// scan counts), oldest first.
    pub fn osc133_found(&self) -> impl ExactSizeIterator<Item = Osc133Found<'_>> {
        self.osc133.found()
    }

    /// The position of the next byte passed on.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Whether anything scanned since this scanner was made may have set
    /// vt100's state that its formatted output leaves out: a saved cursor
    /// (DECSC, `CSI s`, modes 1048 and 1049, DECSTR), a scroll region
    /// (DECSTBM, DECALN), origin mode, the alternate screen, a reset. As
    /// long as it is false, that state is a fresh parser's, and putting
    /// the grid away need not read it (`screen_snapshot`). Erring towards
    /// true only costs that read.
    pub fn hidden_state_touched(&self) -> bool {
        self.hidden_touched
    }

    /// Follows vte over one byte (not in ground, or an ESC, CAN or SUB).
    fn follow(&mut self, byte: u8) -> Ended {
        // An APC's ESC, and now its `\`: ST ends it.
        if self.apc.closing(self.seq, byte) {
            self.seq = Seq::Ground;
            return Ended::Apc;
        }
        // CAN and SUB abort any sequence; ESC starts a new one (vte's
        // "anywhere" transitions).
        match byte {
            CAN | SUB => {
                self.apc.abort();
                self.seq = Seq::Ground;
                return Ended::Other;
            }
            ESC => {
                self.apc.escape(self.seq == Seq::Apc);
                self.seq = Seq::Escape;
                return Ended::Other;
            }
            _ => {}
        }
        match self.seq {
            Seq::Ground => {}
            Seq::Escape => {
                self.seq = match byte {
                    0x20..=0x2f => {
                        self.hidden_touched |= !CHARSET_INTERMEDIATES.contains(&byte);
                        Seq::EscIntermediate
                    }
                    // DECSC.
                    b'7' => {
                        self.hidden_touched = true;
                        Seq::Ground
                    }
                    b'P' => Seq::Dcs,
                    b'[' => {
                        self.csi = CsiParams::default();
                        Seq::Csi
                    }
                    b']' => {
                        self.osc_seen = 0;
                        self.osc133.start(self.esc_at);
                        Seq::Osc
                    }
                    b'_' => {
                        self.apc.start();
                        Seq::Apc
                    }
                    b'X' | b'^' => Seq::Ignored,
                    b'c' => {
                        self.seq = Seq::Ground;
                        self.alternate = false;
                        self.hidden_touched = true;
                        return Ended::Reset;
                    }
                    0x30..=0x7e => Seq::Ground,
                    _ => Seq::Escape,
                };
            }
            Seq::EscIntermediate => {
                if (0x30..=0x7e).contains(&byte) {
                    self.seq = Seq::Ground;
                }
            }
            Seq::Csi => return self.follow_csi(byte),
            Seq::Osc => {
                if byte == BEL {
                    self.seq = Seq::Ground;
                }
            }
            Seq::Dcs | Seq::Apc | Seq::Ignored => {}
        }
        Ended::Other
    }

    fn follow_csi(&mut self, byte: u8) -> Ended {
        let csi = &mut self.csi;
        match byte {
            b'0'..=b'9' | b';' => {
                if csi.len < csi.params.len() {
                    csi.params[csi.len] = byte;
                    csi.len += 1;
                } else {
                    csi.unreadable = true;
                }
            }
            b':' => csi.unreadable = true,
            0x20..=0x3f => {
                csi.private = byte == b'?' && !csi.marked && csi.len == 0;
                csi.marked = true;
            }
            0x40..=0x7e => {
                self.seq = Seq::Ground;
                self.hidden_touched |= match byte {
                    // DECSTBM, SCOSC (which the fidelity layer makes DECSC).
                    b'r' | b's' => true,
                    // DECSTR and the other marked `p`s.
                    b'p' => csi.marked,
                    b'h' | b'l' if csi.marked => {
                        !csi.private
                            || csi.unreadable
                            || HIDDEN_STATE_MODES.iter().any(|&m| csi.lists(m))
                    }
                    _ => false,
                };
                return match byte {
                    b'r' if !csi.marked => Ended::Decstbm(*csi),
                    // ED 3 erases the scrollback, whatever the details.
                    b'J' => Ended::ScrollbackCleared,
                    b'h' | b'l' if csi.private && ALTERNATE_MODES.iter().any(|&m| csi.lists(m)) => {
                        self.alternate = byte == b'h';
                        Ended::Other
                    }
                    b'h' if csi.private && csi.lists(SYNC_MODE) => Ended::SyncStart,
                    b'l' if csi.private && csi.lists(SYNC_MODE) => {
                        self.sync_ends += 1;
                        Ended::SyncEnd
                    }
                    _ => Ended::Other,
                };
            }
            _ => {}
        }
        Ended::Other
    }
}

/// The longest kitty graphics command taken whole (programs send chunks
/// of 4096 base64 bytes; a picture sent unchunked may be larger). The rest
/// of a longer one is dropped, and the command refused.
pub const MAX_APC: usize = 4 << 20;

/// A kitty graphics command's body (`G…`, between `ESC _` and ST), and the
/// reference that stands for it in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApcBody {
    pub body: Vec<u8>,
    /// Longer than [`MAX_APC`]: cut there.
    pub overflow: bool,
    /// The body of the reference written in its place: `G#` and a number
    /// no program can guess, or the body itself when it was one already
    /// (a replay of the pane's history).
    pub reference: Vec<u8>,
}

/// Follows APC strings, keeping those that are graphics commands.
#[derive(Debug, Default)]
struct ApcCapture {
    /// `None` until the first byte of the string: whether it is `G`.
    graphics: Option<bool>,
    body: Vec<u8>,
    overflow: bool,
    /// Its ESC came: ST if a `\` follows.
    escaped: bool,
    reference: Vec<u8>,
    ended: VecDeque<ApcBody>,
    references: Unguessable,
}

impl ApcCapture {
    fn start(&mut self) {
        self.graphics = None;
        self.body.clear();
        self.overflow = false;
        self.escaped = false;
        self.reference.clear();
    }

    /// Takes a run of the string's bytes. Returns whether they belong to a
    /// graphics command (and so leave the output).
    fn take(&mut self, run: &[u8]) -> bool {
        if run.is_empty() {
            return self.graphics == Some(true);
        }
        let graphics = *self.graphics.get_or_insert(run[0] == b'G');
        if graphics {
            let room = MAX_APC.saturating_sub(self.body.len());
            self.body.extend_from_slice(&run[..room.min(run.len())]);
            self.overflow |= run.len() > room;
        }
        graphics
    }

    /// What stands in the output for the command whose ESC came.
    fn reference(&mut self) -> Vec<u8> {
        if self.graphics != Some(true) {
            return Vec::new();
        }
        self.reference = if is_reference(&self.body) {
            self.body.clone()
        } else {
            // `s`: the command keeps the cursor where it is (`C=1`), and
            // so does its placement replayed.
            let control = self.body.split(|&b| b == b';').next().unwrap_or_default();
            let stays = control.split(|&b| b == b',').any(|key| key == b"C=1");
            let mark = if stays { "s" } else { "" };
            format!("G#{:016x}{mark}", self.references.next()).into_bytes()
        };
        self.reference.clone()
    }

    /// An ESC came, inside the string or not.
    fn escape(&mut self, in_apc: bool) {
        self.escaped = in_apc && self.graphics == Some(true);
    }

    /// Whether `byte` ends the graphics command (the `\` of its ST), which
    /// is then kept for [`EscapeScanner::take_apc`].
    fn closing(&mut self, seq: Seq, byte: u8) -> bool {
        if !std::mem::take(&mut self.escaped) {
            return false;
        }
        if seq != Seq::Escape || byte != b'\\' {
            self.abort();
            return false;
        }
        self.graphics = None;
        self.ended.push_back(ApcBody {
            body: std::mem::take(&mut self.body),
            overflow: self.overflow,
            reference: std::mem::take(&mut self.reference),
        });
        true
    }

    fn abort(&mut self) {
        self.graphics = None;
        self.escaped = false;
        self.body.clear();
    }
}

/// Whether an APC body is a reference tilework wrote (`G#`, 16 hex
/// digits, and `s` when the cursor stays).
pub fn is_reference(body: &[u8]) -> bool {
    matches!(body.len(), 18 | 19)
        && body.starts_with(b"G#")
        && body[2..18].iter().all(u8::is_ascii_hexdigit)
        && matches!(&body[18..], b"" | b"s")
}

/// Numbers no program in a pane can guess: a reference it could guess
/// would show it another pane's pictures. Each scanner's are keyed apart
/// (std keys each `RandomState` from the OS's randomness, a new key for
/// each), so two panes' references meet no more often than two random
/// 64-bit numbers.
#[derive(Debug, Default)]
struct Unguessable {
    key: std::collections::hash_map::RandomState,
    count: u64,
}

impl Unguessable {
    fn next(&mut self) -> u64 {
        use std::hash::BuildHasher as _;
        self.count += 1;
        self.key.hash_one(self.count)
    }
}

/// The length of the SGR sequence `ESC [ [0-9:;]* m` at the start of
/// `bytes`: `None` if it is something else, `Some(None)` if it may be one
/// but is cut off.
pub fn sgr_len(bytes: &[u8]) -> Option<Option<usize>> {
    match bytes.get(1) {
        None => return Some(None),
        Some(b'[') => {}
        Some(_) => return None,
    }
    for (i, &b) in bytes.iter().enumerate().skip(2).take(MAX_SGR_PARAMS + 1) {
        match b {
            b'0'..=b'9' | b':' | b';' => {}
            b'm' => return Some(Some(i + 1)),
            _ => return None,
        }
    }
    if bytes.len() <= 2 + MAX_SGR_PARAMS {
        Some(None)
    } else {
        None
    }
}

/// Where the OSC string at the start of `bytes` ends: BEL ends it, CAN and
/// SUB abort it, ESC starts ST (or aborts it).
fn osc_end(bytes: &[u8]) -> Option<usize> {
    let first = memchr3(BEL, ESC, CAN, bytes);
    let sub = memchr(SUB, &bytes[..first.unwrap_or(bytes.len())]);
    sub.or(first)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::term::osc_guard::MAX_OSC;

    #[test]
    fn two_scanners_never_hand_out_the_same_references() {
        let (mut a, mut b) = (Unguessable::default(), Unguessable::default());
        let mut seen: Vec<u64> = (0..100).flat_map(|_| [a.next(), b.next()]).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 200);
    }

    fn scan(scanner: &mut EscapeScanner, input: &[u8]) -> (Vec<u8>, Vec<Finding>) {
        let mut out = Vec::new();
        let mut findings = VecDeque::new();
        scanner.scan(input, &mut OscGuard::default(), &mut out, &mut findings);
        (out, findings.into())
    }

    fn bounds(input: &[u8]) -> Vec<(u64, u64)> {
        let (_, findings) = scan(&mut EscapeScanner::default(), input);
        let mut out = Vec::new();
        let mut start = None;
        for f in findings {
            match f {
                Finding::Starts(at) => start = Some(at),
                Finding::Ends(end, _) => out.push((start.take().unwrap_or(u64::MAX), end)),
            }
        }
        out
    }

    #[test]
    fn short_sgrs_are_plain_and_other_sequences_are_found() {
        assert_eq!(bounds(b"a\x1b[1;31mb\x1b[38:5:1mc"), []);
        assert_eq!(bounds(b"a\x07b"), [(1, 2)]);
        assert_eq!(bounds(b"a\x1b[2Jb\x1b[?25lc"), [(1, 5), (6, 12)]);
        assert_eq!(bounds(b"\x1b]0;t\x07x"), [(0, 6)]);
        assert_eq!(bounds(b"\x1b[3\x1b[m"), [(0, 6)], "an ESC inside");
        assert_eq!(bounds(b"\x1b7\x1b(B"), [(0, 2), (2, 5)]);
        assert_eq!(bounds(b"\x1bPq#0\x1b\\x"), [(0, 7)]);
        assert_eq!(bounds(b"\x1b[1\x18x"), [(0, 4)], "CAN aborts");
        let long = [b"\x1b[".as_slice(), &[b'1'; MAX_SGR_PARAMS + 1], b"m"].concat();
        assert_eq!(bounds(&long), [(0, long.len() as u64)]);
        let short = [b"\x1b[".as_slice(), &[b'1'; MAX_SGR_PARAMS], b"m"].concat();
        assert_eq!(bounds(&short), []);
    }

    fn touches_hidden_state(input: &[u8]) -> bool {
        let mut s = EscapeScanner::default();
        // Byte by byte too: a sequence cut across reads is followed alike.
        for byte in input {
            scan(&mut s, std::slice::from_ref(byte));
        }
        let whole = {
            let mut w = EscapeScanner::default();
            scan(&mut w, input);
            w.hidden_state_touched()
        };
        assert_eq!(s.hidden_state_touched(), whole, "{input:?}");
        whole
    }

    #[test]
    fn what_a_prompt_prints_leaves_the_hidden_state_untouched() {
        for prompt in [
            b"$ ".as_slice(),
            b"\x1b]0;user@host: ~\x07\x1b[?2004h\x1b[01;32muser\x1b[00m:~$ ",
            b"\x1b(B\x1b[m\x1b[K\x1b[?25l\x1b[2J\x1b[H\x1b[?25h\x1b[?1h\x1b=",
            b"\x1b]133;A\x07\x1b[6n\x1b[c\x1b[>4;1m\x1b[?1004h\x1b[?2026h\x1b[?2026l",
            b"\x1b[3J\x1b8\x1bM\x1b[5;10H\x1b[2@\x1b[?12l\x1b[4h\x1b[20l",
        ] {
            assert!(!touches_hidden_state(prompt), "{prompt:?}");
        }
    }

    #[test]
    fn a_saved_cursor_a_region_origin_mode_or_the_alternate_screen_touch_it() {
        for seq in [
            b"\x1b7".as_slice(),
            b"\x1b[s",
            b"\x1b[2;5r",
            b"\x1b[r",
            b"\x1b[?6h",
            b"\x1b[?25;6l",
            b"\x1b[?1049h",
            b"\x1b[?1047h",
            b"\x1b[?47l",
            b"\x1b[?1048h",
            b"\x1b[!p",
            b"\x1b#8",
            b"\x1bc",
            b"\x1b[>6h",
            b"\x1b[?6:1h",
        ] {
            assert!(touches_hidden_state(seq), "{seq:?}");
            let within = [b"text\x1b[1m".as_slice(), seq, b"\x1b[Kmore"].concat();
            assert!(touches_hidden_state(&within), "{within:?}");
        }
    }

    #[test]
    fn ed_3_on_the_primary_screen_is_where_the_history_was_erased() {
        let mut s = EscapeScanner::default();
        scan(&mut s, b"secret\r\n\x1b[H\x1b[2J\x1b[3Jafter");
        assert_eq!(s.take_erased(), Some(19), "just after bash's clear");
        assert_eq!(s.take_erased(), None, "told once");
        // Cut across reads, and DECSED 3.
        scan(&mut s, b"\x1b[?");
        scan(&mut s, b"3J");
        assert_eq!(s.take_erased(), Some(29));
        // Other EDs, and ED 3 on the alternate screen, erase no history.
        scan(&mut s, b"\x1b[2J\x1b[J\x1b[>3J\x1b[?1049h\x1b[3J");
        assert_eq!(s.take_erased(), None);
        scan(&mut s, b"\x1b[?1049l\x1b[3;1J");
        assert!(s.take_erased().is_some());
        scan(&mut s, b"\x1b[?47h\x1bcx");
        assert_eq!(s.take_erased(), Some(s.pos() - 1), "RIS erases it all");
        scan(&mut s, b"\x1b[3J");
        assert!(s.take_erased().is_some(), "RIS: back on the primary screen");
    }

    #[test]
    fn a_possible_sgr_cut_off_by_the_end_waits() {
        let mut s = EscapeScanner::default();
        assert_eq!(scan(&mut s, b"ab\x1b[3").1, []);
        assert_eq!(s.pending_sgr(), Some(2));
        assert_eq!(scan(&mut s, b"1mc").1, []);
        assert_eq!(s.pending_sgr(), None);
        scan(&mut s, b"\x1b[1");
        assert_eq!(
            scan(&mut s, b";2H").1,
            [Finding::Starts(8), Finding::Ends(14, Ended::Other)]
        );
    }

    #[test]
    fn what_the_fast_forward_follows_is_reported() {
        let (_, found) = scan(&mut EscapeScanner::default(), b"\x1b[2;5r\x1b[3J\x1bc");
        let ended: Vec<Ended> = found
            .iter()
            .filter_map(|f| match f {
                Finding::Ends(_, e) => Some(*e),
                Finding::Starts(_) => None,
            })
            .collect();
        assert!(matches!(ended[0], Ended::Decstbm(_)));
        assert_eq!(ended[1..], [Ended::ScrollbackCleared, Ended::Reset]);
    }

    #[test]
    fn synchronized_updates_are_found_and_their_ends_counted() {
        let mut s = EscapeScanner::default();
        let ended = |found: Vec<Finding>| -> Vec<Ended> {
            found
                .into_iter()
                .filter_map(|f| match f {
                    Finding::Ends(_, e) => Some(e),
                    Finding::Starts(_) => None,
                })
                .collect()
        };
        let (_, found) = scan(&mut s, b"\x1b[?2026hframe\x1b[?2026l");
        assert_eq!(ended(found), [Ended::SyncStart, Ended::SyncEnd]);
        assert_eq!(s.sync_ends(), 1);
        let (_, found) = scan(&mut s, b"\x1b[?25;02026l\x1b[?2026");
        assert_eq!(ended(found), [Ended::SyncEnd]);
        assert_eq!(scan(&mut s, b"h").1.len(), 1);
        assert_eq!(s.sync_ends(), 2);
        // Not the mode: another mark, no mark, a query, another number, a
        // string that only holds the bytes.
        for other in [
            &b"\x1b[>2026l"[..],
            b"\x1b[2026l",
            b"\x1b[?2026$p",
            b"\x1b[?20260l",
            b"\x1b[?1;2026:1l",
            b"\x1bPq[?2026l",
        ] {
            let (_, found) = scan(&mut EscapeScanner::default(), other);
            assert!(ended(found).iter().all(|e| *e == Ended::Other), "{other:?}");
        }
    }

    #[test]
    fn full_screen_regions_do_not_count() {
        let rows = std::num::NonZeroU16::new(24).unwrap_or(std::num::NonZeroU16::MIN);
        for (params, partial) in [
            (&b""[..], false),
            (b"1;24", false),
            (b"0;0", false),
            (b"5;5", false),
            (b"1;30", false),
            (b"2;24", true),
            (b"1;23", true),
        ] {
            let mut csi = CsiParams::default();
            csi.params[..params.len()].copy_from_slice(params);
            csi.len = params.len();
            assert_eq!(csi.may_set_region(rows), partial, "{params:?}");
        }
    }

    #[test]
    fn an_endless_osc_is_cut_at_the_limit_across_chunks_and_positions_follow() {
        let mut s = EscapeScanner::default();
        let mut guard = OscGuard::default();
        let mut out = Vec::new();
        let mut found = VecDeque::new();
        s.scan(b"\x1b]2;", &mut guard, &mut out, &mut found);
        let block = vec![b'x'; 256 * 1024];
        for _ in 0..10 {
            s.scan(&block, &mut guard, &mut out, &mut found);
        }
        assert!(out.len() <= MAX_OSC + 8, "{} bytes passed", out.len());
        assert!(guard.dropped > 0);
        // The terminator and what follows still arrive, where the findings
        // say.
        s.scan(b"\x07after\x07", &mut guard, &mut out, &mut found);
        assert!(out.ends_with(b"\x07after\x07"));
        let len = out.len() as u64;
        assert_eq!(
            Vec::from(found),
            [
                Finding::Starts(0),
                Finding::Ends(len - 6, Ended::Other),
                Finding::Starts(len - 1),
                Finding::Ends(len, Ended::Other)
            ]
        );
    }

    /// vte ends an OSC string at SUB too; text after it is not capped.
    #[test]
    fn an_osc_aborted_by_sub_ends_there() {
        let mut s = EscapeScanner::default();
        let mut guard = OscGuard::default();
        let mut out = Vec::new();
        let mut found = VecDeque::new();
        s.scan(b"\x1b]0;title\x1a", &mut guard, &mut out, &mut found);
        let text = vec![b'x'; 2 * MAX_OSC];
        s.scan(&text, &mut guard, &mut out, &mut found);
        assert_eq!(guard.dropped, 0);
        assert_eq!(out.len(), 10 + text.len());
    }

    #[test]
    fn an_esc_split_from_its_bracket_is_followed() {
        let mut s = EscapeScanner::default();
        scan(&mut s, b"text\x1b");
        scan(&mut s, b"]0;");
        assert_eq!((s.seq, s.osc_seen), (Seq::Osc, 2));
        scan(&mut s, b"t\x1b\\");
        assert_eq!(s.seq, Seq::Ground);
    }

    #[test]
    fn a_graphics_command_leaves_the_output_for_a_reference_and_is_kept_whole() {
        let mut s = EscapeScanner::default();
        let mut out = Vec::new();
        let mut findings = Vec::new();
        // Cut anywhere, as output arrives.
        let input = b"a\x1b_Ga=T,i=1;QUJD\x1b\\b";
        for piece in input.chunks(3) {
            let (o, f) = scan(&mut s, piece);
            out.extend(o);
            findings.extend(f);
        }
        let apc = s.take_apc().unwrap();
        assert_eq!(apc.body, b"Ga=T,i=1;QUJD");
        assert!(!apc.overflow);
        assert!(is_reference(&apc.reference));
        let mut expected = b"a\x1b_".to_vec();
        expected.extend_from_slice(&apc.reference);
        expected.extend_from_slice(b"\x1b\\b");
        assert_eq!(out, expected);
        // Positions count the bytes passed on.
        let end = expected.len() as u64 - 1;
        assert_eq!(
            findings,
            [Finding::Starts(1), Finding::Ends(end, Ended::Apc)]
        );
        assert!(s.take_apc().is_none());
    }

    #[test]
    fn a_reference_replayed_stays_itself_and_other_apcs_pass_untouched() {
        let mut s = EscapeScanner::default();
        let (out, _) = scan(&mut s, b"\x1b_G#0123456789abcdefs\x1b\\");
        assert_eq!(out, b"\x1b_G#0123456789abcdefs\x1b\\");
        assert_eq!(s.take_apc().unwrap().reference, b"G#0123456789abcdefs");
        let (out, findings) = scan(&mut s, b"\x1b_other\x1b\\\x1b_Gcut\x18x");
        assert_eq!(out, b"\x1b_other\x1b\\\x1b_\x18x");
        assert!(
            findings
                .iter()
                .all(|f| !matches!(f, Finding::Ends(_, Ended::Apc)))
        );
        assert!(
            s.take_apc().is_none(),
            "neither was a whole graphics command"
        );
    }

    #[test]
    fn an_endless_graphics_command_is_kept_up_to_the_limit_only() {
        let mut s = EscapeScanner::default();
        let (out, _) = scan(&mut s, b"\x1b_Gi=1;");
        let chunk = vec![b'A'; 1 << 20];
        for _ in 0..5 {
            let (o, _) = scan(&mut s, &chunk);
            assert!(o.is_empty());
        }
        scan(&mut s, b"\x1b\\");
        let apc = s.take_apc().unwrap();
        assert!(apc.overflow);
        assert_eq!(apc.body.len(), MAX_APC);
        assert_eq!(out, b"\x1b_");
    }

    #[test]
    fn references_cannot_be_guessed_from_one_another() {
        let mut s = EscapeScanner::default();
        scan(&mut s, b"\x1b_Ga=p,i=1\x1b\\\x1b_Ga=p,i=1,C=1\x1b\\");
        let (a, b) = (s.take_apc().unwrap(), s.take_apc().unwrap());
        assert_ne!(a.reference[..18], b.reference[..18]);
        assert!(!a.reference.ends_with(b"s") && b.reference.ends_with(b"s"));
    }
}
