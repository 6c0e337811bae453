//! Follows vte's state over a pane's output, once per byte, and reports
//! what the stages after it need to know.
//!
//! The pane's intake ([`crate::pane::fast_forward`]) runs every byte of
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
//! [`crate::pane::rep_bound`]).

use std::collections::VecDeque;

use memchr::{memchr, memchr2, memchr3};

use crate::pane::osc_guard::OscGuard;

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
    /// SOS, PM and APC strings.
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
        // Input bytes dropped so far, and where the part not yet copied
        // to `out` starts.
        let mut cut = 0;
        let mut copy_from = 0;
        let mut i = 0;
        while i < input.len() {
            let at = start + (i - cut) as u64;
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
                    if keep < run {
                        out.extend_from_slice(&input[copy_from..i + keep]);
                        copy_from = i + run;
                        cut += run - keep;
                    }
                    self.osc_seen = self.osc_seen.saturating_add(run);
                    i += run;
                    if end.is_some() {
                        let at = start + (i - cut) as u64;
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
        self.pos = start + (input.len() - cut) as u64;
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

    /// Follows one byte at position `at` outside ground (or an ESC, CAN or
    /// SUB anywhere) and reports what it starts or ends.
    fn step(&mut self, byte: u8, at: u64, findings: &mut VecDeque<Finding>) {
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
            findings.push_back(Finding::Ends(at + 1, ended));
        }
    }

    /// Follows vte over one byte (not in ground, or an ESC, CAN or SUB).
    fn follow(&mut self, byte: u8) -> Ended {
        // CAN and SUB abort any sequence; ESC starts a new one (vte's
        // "anywhere" transitions).
        match byte {
            CAN | SUB => {
                self.seq = Seq::Ground;
                return Ended::Other;
            }
            ESC => {
                self.seq = Seq::Escape;
                return Ended::Other;
            }
            _ => {}
        }
        match self.seq {
            Seq::Ground => {}
            Seq::Escape => {
                self.seq = match byte {
                    0x20..=0x2f => Seq::EscIntermediate,
                    b'P' => Seq::Dcs,
                    b'[' => {
                        self.csi = CsiParams::default();
                        Seq::Csi
                    }
                    b']' => {
                        self.osc_seen = 0;
                        Seq::Osc
                    }
                    b'X' | b'^' | b'_' => Seq::Ignored,
                    b'c' => {
                        self.seq = Seq::Ground;
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
            Seq::Dcs | Seq::Ignored => {}
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
                return match byte {
                    b'r' if !csi.marked => Ended::Decstbm(*csi),
                    // ED 3 erases the scrollback, whatever the details.
                    b'J' => Ended::ScrollbackCleared,
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
    use super::*;
    use crate::pane::osc_guard::MAX_OSC;

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
}
