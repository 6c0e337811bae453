//! Finding OSC 133 (semantic prompt) sequences in a pane's output, and
//! what each says.
//!
//! The scan runs over every piece of output the pane takes, after the OSC
//! guard, so it must cost nothing on a flood: between escapes it is one
//! `memchr` for ESC, and an ESC that does not start `ESC ] 133 ;` is let
//! go at its second byte. A sequence split across pieces is carried over
//! (at most [`MAX_BODY`] bytes; a longer one is not a mark).
//!
//! The forms taken (FinalTerm's, as kitty, wezterm, iTerm2, fish 4,
//! starship and oh-my-posh write them):
//! - `A` (a prompt starts; `k=s` / `k=r` mark a continuation or right
//!   prompt, which start no command), wezterm's `P` (the same, `k=i` the
//!   primary prompt), `N` (a new command: the last one ended);
//! - `B` (the command line starts), `C` (its output starts; kitty's
//!   `cmdline=` / `cmdline_url=` carry the command line);
//! - `D` or `D;STATUS` (the command finished), with `aid=`, `cl=` and
//!   other `key=value` options accepted and ignored where they say
//!   nothing we use.

use memchr::{memchr, memchr2};

const ESC: u8 = 0x1b;
const BEL: u8 = 0x07;
const INTRO: &[u8] = b"\x1b]133;";

/// The longest OSC 133 body taken; longer ones are not marks.
pub const MAX_BODY: usize = 4096;

/// The longest command line kept from `cmdline=`.
pub const MAX_COMMAND_LINE: usize = 1024;

/// What one OSC 133 sequence says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Osc133 {
    /// A (primary) prompt starts here.
    Prompt,
    /// The command line the user types starts here.
    Input,
    /// The command's output starts here; the command line when the shell
    /// told it.
    Output { command_line: Option<String> },
    /// The command finished, with its exit status when told.
    Finished { status: Option<i32> },
    /// The last command ended and a new prompt starts (`N`).
    NewCommand,
    /// A continuation or right prompt, a fresh-line request, or a letter
    /// we do not know.
    Ignored,
}

/// Reads the body after `133;`.
pub fn parse(body: &[u8]) -> Osc133 {
    let mut fields = body.split(|&b| b == b';');
    let kind = fields.next().unwrap_or_default();
    let rest: Vec<&[u8]> = fields.collect();
    let option = |key: &[u8]| {
        rest.iter().find_map(|f| {
            let (k, v) = split_option(f)?;
            (k == key).then_some(v)
        })
    };
    match kind {
        b"A" | b"P" => match option(b"k") {
            Some(b"s" | b"r" | b"c") => Osc133::Ignored,
            _ => Osc133::Prompt,
        },
        b"N" => Osc133::NewCommand,
        b"B" | b"I" => Osc133::Input,
        b"C" => {
            let command_line = option(b"cmdline_url")
                .map(percent_decoded)
                .or_else(|| option(b"cmdline").map(<[u8]>::to_vec))
                .map(|line| clean_command_line(&line));
            Osc133::Output { command_line }
        }
        b"D" => {
            // The status is the first field that is not an option.
            let status = rest
                .iter()
                .find(|f| split_option(f).is_none())
                .and_then(|f| std::str::from_utf8(f).ok())
                .and_then(|s| s.trim().parse::<i32>().ok());
            Osc133::Finished { status }
        }
        _ => Osc133::Ignored,
    }
}

fn split_option(field: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = memchr(b'=', field)?;
    Some((&field[..eq], &field[eq + 1..]))
}

fn percent_decoded(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Some(v) = std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// A command line a program sent: no controls, capped.
fn clean_command_line(line: &[u8]) -> String {
    String::from_utf8_lossy(line)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_COMMAND_LINE)
        .collect()
}

/// Follows OSC 133 sequences across pieces of output.
#[derive(Debug, Default)]
pub struct Osc133Scanner {
    /// The sequence being read (from its ESC), when a piece ended inside
    /// one.
    partial: Vec<u8>,
    /// The position of its ESC.
    start: u64,
    /// The piece ended on an ESC inside the body: ST if `\` comes next.
    escaped: bool,
}

impl Osc133Scanner {
    /// Scans `bytes`, whose first byte is at position `pos`, calling
    /// `found` with the position of each OSC 133's ESC, the position just
    /// after it, and its body.
    pub fn scan(&mut self, bytes: &[u8], pos: u64, found: &mut impl FnMut(u64, u64, &[u8])) {
        let mut i = 0;
        if !self.partial.is_empty() {
            i = self.resume(bytes, 0, found);
        }
        while i < bytes.len() {
            let Some(off) = memchr(ESC, &bytes[i..]) else {
                return;
            };
            let at = i + off;
            self.partial.clear();
            self.partial.push(ESC);
            self.start = pos + at as u64;
            self.escaped = false;
            i = self.resume(bytes, at + 1, found);
        }
    }

    /// Goes on with the sequence in `partial` from `bytes[i]`; returns
    /// where scanning for the next ESC goes on.
    fn resume(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        found: &mut impl FnMut(u64, u64, &[u8]),
    ) -> usize {
        while self.partial.len() < INTRO.len() {
            let Some(&b) = bytes.get(i) else {
                return i;
            };
            if b != INTRO[self.partial.len()] {
                // Not ours; that byte may start the next one.
                self.partial.clear();
                return i;
            }
            self.partial.push(b);
            i += 1;
        }
        if std::mem::take(&mut self.escaped) {
            match bytes.get(i) {
                None => {
                    self.escaped = true;
                    return i;
                }
                Some(b'\\') => {
                    self.finish(found, 2);
                    return i + 1;
                }
                // An ESC that is no ST aborts the string.
                Some(_) => {
                    self.partial.clear();
                    return i;
                }
            }
        }
        let rest = &bytes[i..];
        match memchr2(BEL, ESC, rest) {
            None => {
                self.take(rest);
                bytes.len()
            }
            Some(k) => {
                self.take(&rest[..k]);
                if self.partial.is_empty() {
                    return i + k;
                }
                if rest[k] == BEL {
                    self.finish(found, 1);
                    return i + k + 1;
                }
                match rest.get(k + 1) {
                    None => {
                        self.escaped = true;
                        bytes.len()
                    }
                    Some(b'\\') => {
                        self.finish(found, 2);
                        i + k + 2
                    }
                    Some(_) => {
                        self.partial.clear();
                        i + k
                    }
                }
            }
        }
    }

    fn take(&mut self, run: &[u8]) {
        if self.partial.len() + run.len() > INTRO.len() + MAX_BODY {
            self.partial.clear();
        } else {
            self.partial.extend_from_slice(run);
        }
    }

    /// The sequence ended with a terminator of `end` bytes.
    fn finish(&mut self, found: &mut impl FnMut(u64, u64, &[u8]), end: u64) {
        if !self.partial.is_empty() {
            let after = self.start + self.partial.len() as u64 + end;
            found(self.start, after, &self.partial[INTRO.len()..]);
        }
        self.partial.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(pieces: &[&[u8]]) -> Vec<(u64, Osc133)> {
        let mut scanner = Osc133Scanner::default();
        let mut out = Vec::new();
        let mut pos = 0;
        for piece in pieces {
            scanner.scan(piece, pos, &mut |at, _, body| out.push((at, parse(body))));
            pos += piece.len() as u64;
        }
        out
    }

    #[test]
    fn each_form_is_read() {
        let text =
            b"\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x1b\\out\r\n\x1b]133;D;2;aid=7\x07";
        let found = all(&[text]);
        let kinds: Vec<Osc133> = found.iter().map(|(_, k)| k.clone()).collect();
        assert_eq!(
            kinds,
            [
                Osc133::Prompt,
                Osc133::Input,
                Osc133::Output { command_line: None },
                Osc133::Finished { status: Some(2) }
            ]
        );
        assert_eq!(found[0].0, 0);
        assert_eq!(found[1].0, 10);
    }

    #[test]
    fn a_sequence_split_anywhere_is_found_once_at_its_start() {
        let text: &[u8] = b"abc\x1b[31mred\x1b]133;D;1\x1b\\tail\x1b]0;title\x07";
        for cut in 0..text.len() {
            for cut2 in cut..text.len() {
                let found = all(&[&text[..cut], &text[cut..cut2], &text[cut2..]]);
                assert_eq!(
                    found,
                    [(11, Osc133::Finished { status: Some(1) })],
                    "{cut} {cut2}"
                );
            }
        }
    }

    #[test]
    fn kitty_and_wezterm_forms() {
        assert_eq!(parse(b"A;k=s"), Osc133::Ignored);
        assert_eq!(parse(b"P;k=i"), Osc133::Prompt);
        assert_eq!(parse(b"A;aid=12;cl=m"), Osc133::Prompt);
        assert_eq!(parse(b"D"), Osc133::Finished { status: None });
        assert_eq!(parse(b"D;aid=3;0"), Osc133::Finished { status: Some(0) });
        assert_eq!(
            parse(b"C;cmdline_url=echo%20hi"),
            Osc133::Output {
                command_line: Some("echo hi".into())
            }
        );
        assert_eq!(parse(b"N"), Osc133::NewCommand);
    }

    #[test]
    fn an_overlong_body_is_no_mark() {
        let long = [b"\x1b]133;D;".as_slice(), &[b'x'; MAX_BODY + 10], b"\x07"].concat();
        assert!(all(&[&long]).is_empty());
    }
}
