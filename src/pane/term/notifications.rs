//! Notifications programs send to ask for attention (agent CLIs waiting for
//! input, long builds): `OSC 9 ; text` (iTerm2), `OSC 777 ; notify ; title ;
//! body` (urxvt, foot, Ghostty) and kitty's `OSC 99 ; metadata ; payload`.
//!
//! Read from vt100's unhandled OSCs ([`from_osc`]); the text is sanitized
//! here, at once, like a title: nothing a program wrote reaches the status
//! bar or the user's terminal as it was. A forward to the user's terminal
//! is written anew from the sanitized text ([`Notification::forward`]).
//!
//! ConEmu's `OSC 9 ; n ; …` commands (progress `9;4`, a working directory
//! `9;9`) share OSC 9's number: a number and more parameters after it are
//! read as one of those and ignored.

use std::io::Write as _;

use base64::Engine as _;

use crate::sanitize::sanitize_title;

/// The longest payload of one kitty chunk sequence kept (title and body
/// together); more is dropped.
const MAX_KITTY_TEXT: usize = 4096;

/// Which sequence a notification came in, so a forward uses the same one
/// (the user's terminal understands what the program expected it to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Osc9,
    Osc777,
    Kitty,
}

/// A notification, its text sanitized (no controls, no bidi overrides,
/// capped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub kind: Kind,
    pub title: String,
    pub body: String,
    /// A kitty notification's id and wish for a click's report
    /// (`kitty_notify`).
    pub kitty_id: Option<crate::pane::term::notification_id::KittyId>,
}

impl Notification {
    /// One line for the status bar: `title: body`, or whichever is set.
    pub fn summary(&self) -> String {
        match (self.title.is_empty(), self.body.is_empty()) {
            (false, false) => format!("{}: {}", self.title, self.body),
            (false, true) => self.title.clone(),
            _ => self.body.clone(),
        }
    }

    /// The sequence that passes it on to the user's terminal, in the form
    /// it came in, built from the sanitized text.
    pub fn forward(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail. A `;` inside a field would start
        // the next one: only the last field may hold it.
        let _ = match self.kind {
            Kind::Osc9 => write!(out, "\x1b]9;{}\x1b\\", self.summary()),
            Kind::Osc777 => write!(
                out,
                "\x1b]777;notify;{};{}\x1b\\",
                self.title.replace(';', ","),
                self.body
            ),
            Kind::Kitty if self.body.is_empty() => write!(out, "\x1b]99;;{}\x1b\\", self.title),
            Kind::Kitty => write!(
                out,
                "\x1b]99;i=tw:d=0;{}\x1b\\\x1b]99;i=tw:p=body;{}\x1b\\",
                self.title, self.body
            ),
        };
        out
    }
}

/// A kitty notification sent in several chunks (`d=0` until the last),
/// as far as it has come.
#[derive(Debug, Default)]
pub struct KittyChunks {
    id: Vec<u8>,
    /// The id and actions, as the first chunk said.
    told: crate::pane::term::notification_id::KittyId,
    title: Vec<u8>,
    body: Vec<u8>,
}

/// The notification an OSC carries, if it is one (and complete).
/// The most notifications a pane's output holds between two looks of the
/// loop: a burst of them reaches the user whole (each shown and
/// forwarded); a program sending more at once has its oldest dropped.
pub const BURST: usize = 8;

/// Adds `notification` to `waiting`, dropping the oldest past [`BURST`].
pub fn queue(waiting: &mut Vec<Notification>, notification: Notification) {
    if waiting.len() >= BURST {
        waiting.remove(0);
    }
    waiting.push(notification);
}

pub fn from_osc(params: &[&[u8]], kitty: &mut KittyChunks) -> Option<Notification> {
    let (&number, rest) = params.split_first()?;
    let notification = match number {
        b"9" => {
            let conemu = rest.len() > 1 && rest[0].iter().all(u8::is_ascii_digit);
            if conemu {
                return None;
            }
            Notification {
                kind: Kind::Osc9,
                title: String::new(),
                body: sanitize_title(&rest.join(&b';')),
                kitty_id: None,
            }
        }
        b"777" => {
            let [b"notify", title, body @ ..] = rest else {
                return None;
            };
            Notification {
                kind: Kind::Osc777,
                title: sanitize_title(title),
                body: sanitize_title(&body.join(&b';')),
                kitty_id: None,
            }
        }
        b"99" => {
            let (metadata, payload) = rest.split_first()?;
            kitty.chunk(metadata, &payload.join(&b';'))?
        }
        _ => return None,
    };
    (!notification.title.is_empty() || !notification.body.is_empty()).then_some(notification)
}

impl KittyChunks {
    /// Takes one `OSC 99`; returns the notification once its last chunk
    /// came.
    fn chunk(&mut self, metadata: &[u8], payload: &[u8]) -> Option<Notification> {
        let mut id: &[u8] = b"";
        let mut done = true;
        let mut body = false;
        let mut base64 = false;
        for pair in metadata.split(|&b| b == b':') {
            match pair {
                [b'i', b'=', value @ ..] => id = value,
                [b'd', b'=', value @ ..] => done = value != b"0",
                [b'e', b'=', value @ ..] => base64 = value == b"1",
                [b'p', b'=', b't', b'i', b't', b'l', b'e'] => body = false,
                [b'p', b'=', b'b', b'o', b'd', b'y'] => body = true,
                // Queries, icons, buttons, closing: not a text to show.
                [b'p', b'=', ..] => return None,
                _ => {}
            }
        }
        if id != self.id.as_slice() {
            *self = Self {
                id: id.to_vec(),
                told: crate::pane::term::notification_id::KittyId::read(metadata),
                ..Self::default()
            };
        } else if self.title.is_empty() && self.body.is_empty() {
            self.told = crate::pane::term::notification_id::KittyId::read(metadata);
        }
        let decoded;
        let text = if base64 {
            decoded = base64::engine::general_purpose::STANDARD
                .decode(payload)
                .ok()?;
            &decoded[..]
        } else {
            payload
        };
        let room = MAX_KITTY_TEXT.saturating_sub(self.title.len() + self.body.len());
        let part = if body {
            &mut self.body
        } else {
            &mut self.title
        };
        part.extend_from_slice(&text[..text.len().min(room)]);
        if !done {
            return None;
        }
        let taken = std::mem::take(self);
        Some(Notification {
            kind: Kind::Kitty,
            title: sanitize_title(&taken.title),
            body: sanitize_title(&taken.body),
            kitty_id: Some(taken.told),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(osc: &[u8]) -> Option<Notification> {
        read_with(osc, &mut KittyChunks::default())
    }

    fn read_with(osc: &[u8], kitty: &mut KittyChunks) -> Option<Notification> {
        let params: Vec<&[u8]> = osc.split(|&b| b == b';').collect();
        from_osc(&params, kitty)
    }

    #[test]
    fn the_three_forms_are_read() {
        let n = read(b"9;build done; 3 warnings").unwrap_or_else(|| panic!("OSC 9"));
        assert_eq!(
            (n.kind, n.summary().as_str()),
            (Kind::Osc9, "build done; 3 warnings")
        );
        let n = read(b"777;notify;Claude;waiting for input").unwrap_or_else(|| panic!("777"));
        assert_eq!(n.summary(), "Claude: waiting for input");
        let n = read(b"99;;Hello").unwrap_or_else(|| panic!("99"));
        assert_eq!((n.kind, n.title.as_str()), (Kind::Kitty, "Hello"));
    }

    #[test]
    fn kitty_chunks_come_together_and_base64_is_decoded() {
        let mut chunks = KittyChunks::default();
        assert_eq!(read_with(b"99;i=1:d=0;Build", &mut chunks), None);
        // "finished" in base64.
        let n = read_with(b"99;i=1:p=body:e=1;ZmluaXNoZWQ=", &mut chunks)
            .unwrap_or_else(|| panic!("the last chunk"));
        assert_eq!(n.summary(), "Build: finished");
        assert_eq!(read(b"99;i=1:p=?;"), None, "a query shows nothing");
        assert_eq!(read(b"99;p=close;"), None);
    }

    #[test]
    fn other_oscs_and_conemu_commands_are_not_notifications() {
        assert_eq!(read(b"9;4;1;50"), None, "ConEmu progress");
        assert_eq!(read(b"9;9;/home/u"), None);
        assert_eq!(read(b"9;"), None);
        assert_eq!(read(b"777;preexec"), None);
        assert_eq!(read(b"7;file://h/x"), None);
        // A bare number is text.
        assert!(read(b"9;42").is_some());
    }

    #[test]
    fn text_is_sanitized_and_forwards_are_written_anew() {
        let n = read(b"777;notify;a;b\x1b]52;c;AAAA\x07\x1b[2J\xe2\x80\xae")
            .unwrap_or_else(|| panic!("777"));
        let forward = n.forward();
        // Only the sequence's own ESC and its terminator.
        assert_eq!(forward.iter().filter(|&&b| b == 0x1b).count(), 2);
        assert!(!forward.contains(&0x07));
        assert!(!n.body.contains('\u{202e}'));
        assert_eq!(
            read(b"777;notify;x;y").map(|n| n.forward()),
            Some(b"\x1b]777;notify;x;y\x1b\\".to_vec())
        );
        assert_eq!(
            read(b"9;hi").map(|n| n.forward()),
            Some(b"\x1b]9;hi\x1b\\".to_vec())
        );
        let long = [b"9;".as_slice(), &[b'x'; 5000]].concat();
        assert!(read(&long).is_some_and(|n| n.body.chars().count() <= 256));
    }
}
