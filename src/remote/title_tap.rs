//! A remote pane's titles, with its host in front: the local workspace
//! shows a pane's title on its border, and a remote pane's border names
//! its host (issue 47 §2). The relay passes the remote output through
//! this tap, which rewrites each OSC 0/2 title `T` to `HOST: T` and keeps
//! the last one, so a reconnect can put it back after the border said
//! the link was down.

/// The longest title kept whole; a longer OSC passes unchanged.
const MAX_TITLE: usize = 4096;

pub struct TitleTap {
    host: String,
    /// The start of an OSC held from the last chunk (it may be a title
    /// cut in two).
    held: Vec<u8>,
    /// The remote program's last title.
    last: Option<Vec<u8>>,
}

impl TitleTap {
    pub fn new(host: &str) -> Self {
        Self {
            host: host.to_string(),
            held: Vec::new(),
            last: None,
        }
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    /// The title sequence the border shows now: `HOST: LAST`, or `HOST`
    /// before the program set one.
    pub fn current(&self) -> Vec<u8> {
        match &self.last {
            Some(title) if !title.is_empty() => self.title(b"2", title, b"\x07"),
            _ => self.said(""),
        }
    }

    /// A title saying `state` beside the host (`link down, reconnecting`).
    pub fn said(&self, state: &str) -> Vec<u8> {
        let text = if state.is_empty() {
            self.host.clone()
        } else {
            format!("{} ({state})", self.host)
        };
        format!("\x1b]2;{text}\x07").into_bytes()
    }

    fn title(&self, kind: &[u8], title: &[u8], end: &[u8]) -> Vec<u8> {
        let mut out = b"\x1b]".to_vec();
        out.extend_from_slice(kind);
        out.push(b';');
        out.extend_from_slice(self.host.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(title);
        out.extend_from_slice(end);
        out
    }

    /// Whether `bytes` pass unchanged: no title can start or end in them
    /// (no `ESC ]`, no ESC at their end, nothing held), so they may be
    /// written as they are, without [`TitleTap::pass`]'s copy.
    pub fn passes_unchanged(&self, bytes: &[u8]) -> bool {
        self.held.is_empty()
            && bytes.last() != Some(&0x1b)
            && memchr::memmem::find(bytes, b"\x1b]").is_none()
    }

    /// Appends `bytes` to `out` with their titles rewritten; the start of
    /// a title cut at the end is held for the next call.
    pub fn pass(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        let joined;
        let input: &[u8] = if self.held.is_empty() {
            bytes
        } else {
            let mut all = std::mem::take(&mut self.held);
            all.extend_from_slice(bytes);
            joined = all;
            &joined
        };
        let mut at = 0;
        while let Some(found) = memchr::memmem::find(&input[at..], b"\x1b]") {
            let osc = at + found;
            out.extend_from_slice(&input[at..osc]);
            match self.title_at(&input[osc..]) {
                Title::Whole { len, rewritten } => {
                    out.extend_from_slice(&rewritten);
                    at = osc + len;
                }
                Title::Cut => {
                    self.held = input[osc..].to_vec();
                    return;
                }
                Title::Not => {
                    out.extend_from_slice(b"\x1b]");
                    at = osc + 2;
                }
            }
        }
        let rest = &input[at..];
        // An ESC at the very end may start a title.
        if rest.last() == Some(&0x1b) {
            out.extend_from_slice(&rest[..rest.len() - 1]);
            self.held = vec![0x1b];
        } else {
            out.extend_from_slice(rest);
        }
    }

    /// What starts at `seq` (`ESC ]`...).
    fn title_at(&mut self, seq: &[u8]) -> Title {
        let body = &seq[2..];
        let kind = match body {
            [] | [b'0' | b'2'] => return Title::Cut,
            [k @ (b'0' | b'2'), b';', ..] => *k,
            _ => return Title::Not,
        };
        let text = &body[2..];
        let end = text
            .iter()
            .position(|&b| b == 0x07 || b == 0x1b)
            .map(|i| (i, text[i]));
        match end {
            Some((i, 0x07)) => self.whole(kind, &text[..i], b"\x07", 4 + i + 1),
            Some((i, _)) if text.get(i + 1) == Some(&b'\\') => {
                self.whole(kind, &text[..i], b"\x1b\\", 4 + i + 2)
            }
            Some((i, _)) if i + 1 == text.len() => Title::Cut,
            // An ESC that ends it some other way: left as it is.
            Some(_) => Title::Not,
            None if text.len() < MAX_TITLE => Title::Cut,
            None => Title::Not,
        }
    }

    fn whole(&mut self, kind: u8, title: &[u8], end: &[u8], len: usize) -> Title {
        self.last = Some(title.to_vec());
        Title::Whole {
            len,
            rewritten: self.title(&[kind], title, end),
        }
    }
}

enum Title {
    Whole { len: usize, rewritten: Vec<u8> },
    Cut,
    Not,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass_in(tap: &mut TitleTap, stream: &[u8], cut: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for piece in stream.chunks(cut) {
            tap.pass(piece, &mut out);
        }
        out
    }

    #[test]
    fn titles_get_the_host_in_front_wherever_the_stream_is_cut() {
        let stream = b"a\x1b[1mb\x1b]2;vim\x07c\x1b]0;top\x1b\\d\x1b]7;file://h/x\x07e";
        for cut in 1..stream.len() {
            let mut tap = TitleTap::new("build1");
            let out = pass_in(&mut tap, stream, cut);
            assert_eq!(
                out,
                b"a\x1b[1mb\x1b]2;build1: vim\x07c\x1b]0;build1: top\x1b\\d\x1b]7;file://h/x\x07e"
                    .to_vec(),
                "cut every {cut}"
            );
            assert_eq!(tap.current(), b"\x1b]2;build1: top\x07".to_vec());
        }
    }

    #[test]
    fn only_output_without_a_title_start_passes_unchanged() {
        let mut tap = TitleTap::new("h");
        assert!(tap.passes_unchanged(b"1\r\n2\x1b[m\r\n"));
        assert!(!tap.passes_unchanged(b"a\x1b]2;t\x07"));
        assert!(!tap.passes_unchanged(b"a\x1b"));
        let mut out = Vec::new();
        tap.pass(b"a\x1b]2;cut", &mut out);
        assert!(!tap.passes_unchanged(b"plain"), "a title is held");
    }

    #[test]
    fn before_any_title_the_border_names_the_host() {
        let tap = TitleTap::new("build1");
        assert_eq!(tap.current(), b"\x1b]2;build1\x07".to_vec());
        assert_eq!(
            tap.said("reconnecting"),
            b"\x1b]2;build1 (reconnecting)\x07".to_vec()
        );
    }
}
