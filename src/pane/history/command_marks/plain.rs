//! Output bytes as plain text without replaying them: escape sequences
//! dropped, CR LF as a newline, other controls dropped. For what needs
//! text from a few bytes at once (an echoed command line, output a `wait`
//! matches), where a replay's exactness is not worth its cost.

const ESC: u8 = 0x1b;

/// Follows escape sequences across pieces.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Plain {
    #[default]
    Text,
    Escape,
    Csi,
    /// OSC, DCS, APC, PM, SOS: until BEL or ST.
    Str,
    StrEscape,
}

impl Plain {
    /// Appends the text of `bytes` to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        for &b in bytes {
            *self = match (*self, b) {
                (Plain::Text, ESC) => Plain::Escape,
                (Plain::Text, b'\n') => {
                    out.push(b'\n');
                    Plain::Text
                }
                (Plain::Text, b'\t') => {
                    out.push(b' ');
                    Plain::Text
                }
                (Plain::Text, 0..=0x1f | 0x7f) => Plain::Text,
                (Plain::Text, _) => {
                    out.push(b);
                    Plain::Text
                }
                (Plain::Escape, b'[') => Plain::Csi,
                (Plain::Escape, b']' | b'P' | b'_' | b'^' | b'X') => Plain::Str,
                (Plain::Escape, 0x20..=0x2f) => Plain::Escape,
                (Plain::Escape, _) => Plain::Text,
                (Plain::Csi, 0x40..=0x7e) => Plain::Text,
                (Plain::Csi, _) => Plain::Csi,
                (Plain::Str, 0x07) => Plain::Text,
                (Plain::Str, ESC) => Plain::StrEscape,
                (Plain::Str, _) => Plain::Str,
                (Plain::StrEscape, b'\\') => Plain::Text,
                (Plain::StrEscape, _) => Plain::Str,
            };
        }
    }
}

/// The text of `bytes` on their own, as a string.
pub fn plain_text(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len());
    Plain::default().push(bytes, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// A command line as its echo left it on the screen: `bytes` (what the
/// shell wrote between the prompt's end and the output) replayed on a
/// small screen `cols` wide, which undoes a line editor's redraws (zsh
/// writes a typed line's first letter, then the line again). Rows of one
/// line are joined.
pub fn echoed_text(bytes: &[u8], cols: u16) -> String {
    const ROWS: u16 = 16;
    let mut parser = crate::pane::term::replay::quiet_replay_parser(ROWS, cols);
    if crate::diag::panic_guard::contain(|| parser.process(bytes)).is_err() {
        return plain_text(bytes);
    }
    let screen = parser.screen();
    let mut out = String::new();
    for (i, row) in screen.rows(0, cols.max(2)).enumerate() {
        out.push_str(&row);
        let wrapped = u16::try_from(i).is_ok_and(|r| screen.row_wrapped(r));
        if !wrapped {
            out.push('\n');
        }
    }
    out.trim()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_go_and_text_stays() {
        let text = plain_text(b"\x1b[1mls\x1b[m -l\r\n\x1b]0;t\x07ok\x1b]133;D\x1b\\!");
        assert_eq!(text, "ls -l\nok!");
    }

    #[test]
    fn an_echo_redrawn_by_a_line_editor_reads_as_typed() {
        assert_eq!(echoed_text(b"f\x08false\r\n", 20), "false");
        assert_eq!(echoed_text(b"echo abcdefghij\r\n", 8), "echo abcdefghij");
    }
}
