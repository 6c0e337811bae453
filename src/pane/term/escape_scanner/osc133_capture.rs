//! The OSC 133 (semantic prompt) sequences the [`EscapeScanner`] passes
//! over, kept for the pane's command marks (issue 43).
//!
//! The scanner already visits every OSC string once as it follows vte's
//! state; this keeps the body of those that start `133;` (at most
//! [`MAX_BODY`] bytes: a longer one is no mark) with where the sequence
//! starts and ends, so the marks cost no second pass over the output.
//! A sequence counts when BEL or ST (`ESC \`) ends it; CAN, SUB or an ESC
//! that starts anything else aborts it, as it does in vte.
//!
//! [`EscapeScanner`]: super::EscapeScanner

/// What follows `ESC ]` in an OSC 133 sequence.
const PREFIX: &[u8] = b"133;";

/// The longest OSC 133 body taken (after `133;`); longer ones are not marks.
pub const MAX_BODY: usize = 4096;

/// One OSC 133 sequence found: positions as the scanner counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Osc133Found<'a> {
    /// Where its ESC is.
    pub at: u64,
    /// Just after its terminator.
    pub after: u64,
    /// What follows `133;`.
    pub body: &'a [u8],
}

/// The sequences found by the latest scan, and the one being read.
#[derive(Debug, Default)]
pub struct Osc133Capture {
    /// The ESC position of the OSC being read while it may be a 133.
    reading: Option<u64>,
    /// Its ESC came (it ended that way): a `\` next makes it an ST.
    escaped: bool,
    /// Where its bytes (from `133;` on) start in `bodies`.
    from: usize,
    /// The bodies of the sequences found, then the one being read.
    bodies: Vec<u8>,
    /// Where each found one starts and ends, and its body in `bodies`.
    found: Vec<(u64, u64, std::ops::Range<usize>)>,
}

impl Osc133Capture {
    /// A new scan starts: what the last one found is forgotten; the one
    /// being read, if any, is kept.
    pub fn forget_found(&mut self) {
        if self.found.is_empty() {
            return;
        }
        self.found.clear();
        self.bodies.drain(..self.from);
        self.from = 0;
    }

    /// An OSC string starts; its ESC is at `at`.
    pub fn start(&mut self, at: u64) {
        self.drop_reading();
        self.reading = Some(at);
    }

    /// A run of the OSC string's bytes (as passed on).
    pub fn take(&mut self, run: &[u8]) {
        if self.reading.is_none() || run.is_empty() {
            return;
        }
        let have = self.bodies.len() - self.from;
        let need = PREFIX.len().saturating_sub(have).min(run.len());
        let prefix_ok = need == 0 || run[..need] == PREFIX[have..have + need];
        if !prefix_ok || have + run.len() > PREFIX.len() + MAX_BODY {
            self.drop_reading();
            return;
        }
        self.bodies.extend_from_slice(run);
    }

    /// The OSC string ended at `byte` (BEL, ESC, CAN or SUB), at `at`.
    pub fn string_ended(&mut self, byte: u8, at: u64) {
        match byte {
            0x07 => self.finish(at + 1),
            0x1b if self.reading.is_some() => self.escaped = true,
            _ => self.drop_reading(),
        }
    }

    /// Whether the byte after the string's ESC is awaited.
    pub fn escaped(&self) -> bool {
        self.escaped
    }

    /// The byte after the string's ESC, at `at`: ST if it is `\`.
    pub fn after_escape(&mut self, byte: u8, at: u64) {
        self.escaped = false;
        if byte == b'\\' {
            self.finish(at + 1);
        } else {
            self.drop_reading();
        }
    }

    /// The sequences the latest scan found, oldest first.
    pub fn found(&self) -> impl ExactSizeIterator<Item = Osc133Found<'_>> {
        self.found.iter().map(|(at, after, body)| Osc133Found {
            at: *at,
            after: *after,
            body: &self.bodies[body.clone()],
        })
    }

    fn finish(&mut self, after: u64) {
        let Some(at) = self.reading.take() else {
            return;
        };
        self.escaped = false;
        if self.bodies.len() - self.from < PREFIX.len() {
            self.bodies.truncate(self.from);
            return;
        }
        self.found
            .push((at, after, self.from + PREFIX.len()..self.bodies.len()));
        self.from = self.bodies.len();
    }

    fn drop_reading(&mut self) {
        self.reading = None;
        self.escaped = false;
        self.bodies.truncate(self.from);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::pane::term::escape_scanner::EscapeScanner;
    use crate::pane::term::osc_guard::OscGuard;

    /// Each sequence found in `pieces` fed one after another: its start,
    /// its end and its body.
    fn all(pieces: &[&[u8]]) -> Vec<(u64, u64, Vec<u8>)> {
        let (mut scanner, mut guard) = (EscapeScanner::default(), OscGuard::default());
        let mut out = Vec::new();
        for piece in pieces {
            scanner.scan(piece, &mut guard, &mut Vec::new(), &mut VecDeque::new());
            out.extend(
                scanner
                    .osc133_found()
                    .map(|m| (m.at, m.after, m.body.to_vec())),
            );
        }
        out
    }

    #[test]
    fn each_form_is_found_with_its_bounds() {
        let text =
            b"\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x1b\\out\r\n\x1b]133;D;2;aid=7\x07";
        let found = all(&[text]);
        let bodies: Vec<&[u8]> = found.iter().map(|(_, _, b)| b.as_slice()).collect();
        assert_eq!(bodies, [b"A".as_slice(), b"B", b"C", b"D;2;aid=7"]);
        assert_eq!((found[0].0, found[0].1), (0, 8));
        assert_eq!(found[1].0, 10);
        assert_eq!(found[2].1 - found[2].0, 9, "ST is two bytes");
    }

    #[test]
    fn a_sequence_split_anywhere_is_found_once_at_its_start() {
        let text: &[u8] = b"abc\x1b[31mred\x1b]133;D;1\x1b\\tail\x1b]0;title\x07";
        for cut in 0..text.len() {
            for cut2 in cut..text.len() {
                let found = all(&[&text[..cut], &text[cut..cut2], &text[cut2..]]);
                assert_eq!(found, [(11, 22, b"D;1".to_vec())], "{cut} {cut2}");
            }
        }
    }

    #[test]
    fn other_oscs_aborted_ones_and_overlong_ones_are_no_marks() {
        assert!(all(&[b"\x1b]1337;A\x07\x1b]13;A\x07\x1b]0;133;A\x07"]).is_empty());
        // An ESC that starts no ST, CAN and SUB abort the string.
        assert!(all(&[b"\x1b]133;A\x1b[m\x1b]133;A\x18\x1b]133;A\x1a"]).is_empty());
        let long = [b"\x1b]133;D;".as_slice(), &[b'x'; MAX_BODY + 10], b"\x07"].concat();
        assert!(all(&[&long]).is_empty());
        // The next one is found again, right after an aborted one.
        let found = all(&[b"\x1b]133;A\x1b]133;B\x07"]);
        assert_eq!(found, [(7, 15, b"B".to_vec())]);
    }

    #[test]
    fn what_a_scan_found_is_forgotten_by_the_next() {
        let (mut scanner, mut guard) = (EscapeScanner::default(), OscGuard::default());
        let mut scan = |bytes: &[u8]| {
            scanner.scan(bytes, &mut guard, &mut Vec::new(), &mut VecDeque::new());
            let found: Vec<Vec<u8>> = scanner.osc133_found().map(|m| m.body.to_vec()).collect();
            found
        };
        assert_eq!(scan(b"\x1b]133;A\x07\x1b]133;"), [b"A".to_vec()]);
        assert_eq!(scan(b"B\x07"), [b"B".to_vec()]);
        assert!(scan(b"text").is_empty());
    }
}
