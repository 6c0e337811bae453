//! What vt100 leaves to the embedder: answers to terminal queries, titles,
//! the bell, notifications and the working directory a shell reports.
//!
//! vt100 sends no replies. Shells and libraries that ask for the cursor
//! position or device attributes wait (crossterm 2 s, some shells forever)
//! unless we answer, so every pane's parser carries this state object and
//! the pane forwards `replies` to the child after each `process` call.

use crate::pane::term::notifications::{self, KittyChunks, Notification};
use crate::pane::term::program_signals::{ProgramSignals, Progress};
use crate::sanitize::sanitize_title;

/// Collected while parsing; drained by the pane after each chunk.
#[derive(Debug, Default)]
pub struct PaneEvents {
    /// Bytes to send back to the child (query answers).
    pub replies: Vec<u8>,
    /// A new title (OSC 0/2), already sanitized.
    pub title: Option<String>,
    pub bell: bool,
    /// The shell's working directory from OSC 7 (`file://host/path`).
    pub cwd: Option<String>,
    /// OSC 52 clipboard writes (base64 data, checked by vt100), newest last.
    /// Whether they reach the user's terminal is the config's decision.
    pub clipboard: Vec<Vec<u8>>,
    /// The notifications (OSC 9, 777, 99) not yet taken, oldest first,
    /// already sanitized (at most `notifications::BURST`).
    pub notifications: Vec<Notification>,
    /// A kitty notification whose last chunk has not come yet.
    pub kitty_chunks: KittyChunks,
    /// Clipboard reads and progress (see `program_signals`).
    pub signals: ProgramSignals,
}

/// At most this much base64 per clipboard write (about 768 KB of text):
/// more is refused rather than flooding the user's terminal.
pub const MAX_CLIPBOARD_BASE64: usize = 1024 * 1024;

impl vt100::Callbacks for PaneEvents {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bell = true;
    }

    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.title = Some(sanitize_title(title));
    }

    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _ty: &[u8], data: &[u8]) {
        // vt100 only calls this for pure base64 data; keep just the newest.
        if !data.is_empty() && data.len() <= MAX_CLIPBOARD_BASE64 {
            self.clipboard.clear();
            self.clipboard.push(data.to_vec());
        }
    }

    /// Reading the user's clipboard: whether it is answered is the
    /// config's (`clipboard_read`) and the user's decision, in the loop.
    fn paste_from_clipboard(&mut self, _: &mut vt100::Screen, ty: &[u8]) {
        self.signals.clipboard_asked(ty);
    }

    fn unhandled_csi(
        &mut self,
        screen: &mut vt100::Screen,
        i1: Option<u8>,
        _i2: Option<u8>,
        params: &[&[u16]],
        c: char,
    ) {
        let first = params.first().and_then(|p| p.first()).copied().unwrap_or(0);
        match (i1, c, first) {
            // DSR: cursor position report (CPR), 1-based.
            (None, 'n', 6) => {
                let (row, col) = screen.cursor_position();
                self.reply(format_args!("\x1b[{};{}R", row + 1, col + 1));
            }
            // DECXCPR: the same with a `?`.
            (Some(b'?'), 'n', 6) => {
                let (row, col) = screen.cursor_position();
                self.reply(format_args!("\x1b[?{};{}R", row + 1, col + 1));
            }
            // DSR: operating status, "OK".
            (None, 'n', 5) => self.replies.extend_from_slice(b"\x1b[0n"),
            // Primary device attributes, XTSMGRAPHICS and the pane's size
            // in pixels depend on what the attached terminals told: the
            // fidelity layer answers them (`picture_queries`), so the
            // callbacks stay alike in every pane (idle parking compares
            // them with a fresh one's).
            // Secondary device attributes: VT100-class, no version claims.
            (Some(b'>'), 'c', 0) => self.replies.extend_from_slice(b"\x1b[>0;10;1c"),
            // XTWINOPS 18: text area size in characters.
            (None, 't', 18) => {
                let (rows, cols) = screen.size();
                self.reply(format_args!("\x1b[8;{rows};{cols}t"));
            }
            _ => {}
        }
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        if params.first() == Some(&&b"7"[..])
            && let Some(url) = params.get(1)
        {
            self.cwd = parse_osc7_path(url);
        } else if let [b"9", rest @ ..] = params
            && let Some(progress) = Progress::from_osc9(rest)
        {
            self.signals.progress = Some(progress);
        } else if let [b"99", metadata, ..] = params
            && let Some(request) = crate::pane::term::kitty_notify::Request::read(metadata)
        {
            match request {
                crate::pane::term::kitty_notify::Request::Query { id } => {
                    let answer = crate::pane::term::kitty_notify::query_answer(&id);
                    self.replies.extend_from_slice(&answer);
                }
                crate::pane::term::kitty_notify::Request::Close { id } => self.signals.closed(id),
            }
        } else if let Some(notification) = notifications::from_osc(params, &mut self.kitty_chunks) {
            notifications::queue(&mut self.notifications, notification);
        }
    }
}

/// The fidelity layer's answers join vt100's in the order of the queries.
impl crate::pane::term::fidelity::answers::Answers for PaneEvents {
    fn answer(&mut self, bytes: &[u8]) {
        self.replies.extend_from_slice(bytes);
    }
}

impl PaneEvents {
    fn reply(&mut self, args: std::fmt::Arguments<'_>) {
        use std::io::Write as _;
        // Writing to a Vec cannot fail.
        let _ = self.replies.write_fmt(args);
    }
}

/// `file://host/some%20dir` → `/some dir`.
fn parse_osc7_path(url: &[u8]) -> Option<String> {
    let url = std::str::from_utf8(url).ok()?;
    let rest = url.strip_prefix("file://")?;
    let path = &rest[rest.find('/')?..];
    let mut out = Vec::with_capacity(path.len());
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = path.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let decoded = String::from_utf8(out).ok()?;
    (!decoded.chars().any(char::is_control)).then_some(decoded)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::num::NonZeroU16;

    fn parser() -> vt100::Parser<PaneEvents> {
        vt100::Parser::new_with_callbacks(
            NonZeroU16::new(24).unwrap(),
            NonZeroU16::new(80).unwrap(),
            0,
            PaneEvents::default(),
        )
    }

    fn replies_to(input: &[u8]) -> Vec<u8> {
        let mut p = parser();
        p.process(input);
        std::mem::take(&mut p.callbacks_mut().replies)
    }

    #[test]
    fn answers_cursor_position_reports() {
        assert_eq!(replies_to(b"\x1b[5;10H\x1b[6n"), b"\x1b[5;10R");
        assert_eq!(replies_to(b"\x1b[?6n"), b"\x1b[?1;1R");
    }

    #[test]
    fn answers_device_attributes_and_status() {
        // DA1 is the fidelity layer's (see `picture_queries`).
        assert_eq!(replies_to(b"\x1b[c"), b"");
        assert_eq!(replies_to(b"\x1b[>c"), b"\x1b[>0;10;1c");
        assert_eq!(replies_to(b"\x1b[5n"), b"\x1b[0n");
        assert_eq!(replies_to(b"\x1b[18t"), b"\x1b[8;24;80t");
    }

    #[test]
    fn ignores_other_sequences() {
        assert_eq!(replies_to(b"hello \x1b[31mred\x1b[m \x1b[?1049h"), b"");
    }

    #[test]
    fn titles_are_sanitized() {
        let mut p = parser();
        p.process(b"\x1b]2;evil\x1b[2J\x07");
        // The ESC inside ends the OSC early in vt100; what remains is text.
        let title = p.callbacks_mut().title.take().unwrap_or_default();
        assert!(!title.contains('\x1b'));
        p.process(b"\x1b]0;my title\x07");
        assert_eq!(p.callbacks_mut().title.take().unwrap(), "my title");
    }

    #[test]
    fn osc7_reports_the_working_directory() {
        let mut p = parser();
        p.process(b"\x1b]7;file://host/home/u/my%20dir\x07");
        assert_eq!(p.callbacks().cwd.as_deref(), Some("/home/u/my dir"));
    }

    #[test]
    fn clipboard_writes_are_collected_and_reads_get_no_reply() {
        let mut p = parser();
        p.process(b"\x1b]52;c;aGVsbG8=\x07");
        assert_eq!(p.callbacks().clipboard, vec![b"aGVsbG8=".to_vec()]);
        p.process(b"\x1b]52;c;?\x07");
        assert!(p.callbacks().replies.is_empty());
        assert_eq!(p.callbacks().signals.clipboard_read.as_deref(), Some("c"));
        // Not base64: never collected.
        p.callbacks_mut().clipboard.clear();
        p.process(b"\x1b]52;c;not base64!\x07\x1b]52;c;\x1b[2J\x07");
        assert!(p.callbacks().clipboard.is_empty());
    }

    #[test]
    fn notifications_are_noticed_sanitized() {
        let mut p = parser();
        p.process(b"\x1b]777;notify;agent;needs \xe2\x80\xae input\x1b\\");
        let n = p.callbacks_mut().notifications.pop().unwrap();
        assert_eq!(n.summary(), "agent: needs  input");
        p.process(b"\x1b]9;done\x07\x1b]9;and more\x07");
        let bodies: Vec<_> = p
            .callbacks()
            .notifications
            .iter()
            .map(|n| &n.body[..])
            .collect();
        assert_eq!(bodies, ["done", "and more"]);
    }

    #[test]
    fn kitty_notification_queries_are_answered_and_closes_kept() {
        let mut p = parser();
        p.process(b"\x1b]99;i=q1:p=?;\x1b\\");
        let answer = std::mem::take(&mut p.callbacks_mut().replies);
        assert!(answer.starts_with(b"\x1b]99;i=q1:p=?;a=focus,report"));
        p.process(b"\x1b]99;i=n1:p=close;\x1b\\");
        assert_eq!(p.callbacks().signals.closed, ["n1"]);
        assert!(p.callbacks().notifications.is_empty());
    }

    #[test]
    fn bell_is_noticed() {
        let mut p = parser();
        p.process(b"\x07");
        assert!(p.callbacks().bell);
    }
}
