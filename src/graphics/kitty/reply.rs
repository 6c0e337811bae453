//! What a program hears back from a graphics command: `ESC _ G i=…;OK ESC \`
//! or an error such as `ENOENT:…`, only when the command named its picture
//! (`i` or `I`, as kitty does), and as its `q` key allows.

use std::fmt;
use std::io::Write as _;

use super::command::Command;

/// A failed command, as kitty words it: an errno-like code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KittyError {
    pub code: &'static str,
    pub message: String,
}

impl KittyError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        KittyError {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new("EINVAL", message)
    }
}

impl fmt::Display for KittyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.code, self.message)
    }
}

impl std::error::Error for KittyError {}

/// Appends the reply to `cmd` to `out`, when one is due: the command named
/// its picture, and `q` does not silence it (1: no OK, 2: nothing).
pub fn reply(cmd: &Command, result: &Result<(), KittyError>, out: &mut Vec<u8>) {
    reply_for(cmd, cmd.image_id, result, out);
}

/// As [`reply`], with the id tilework gave a picture the program named
/// only by number (`I`).
pub fn reply_for(cmd: &Command, image_id: u32, result: &Result<(), KittyError>, out: &mut Vec<u8>) {
    if cmd.image_id == 0 && cmd.image_number == 0 {
        return;
    }
    let silenced = match result {
        Ok(()) => cmd.quiet >= 1,
        Err(_) => cmd.quiet >= 2,
    };
    if silenced {
        return;
    }
    out.extend_from_slice(b"\x1b_G");
    let mut keys = Vec::new();
    if image_id != 0 {
        keys.push(format!("i={image_id}"));
    }
    if cmd.image_number != 0 {
        keys.push(format!("I={}", cmd.image_number));
    }
    if cmd.placement_id != 0 {
        keys.push(format!("p={}", cmd.placement_id));
    }
    out.extend_from_slice(keys.join(",").as_bytes());
    out.push(b';');
    // Writing to a Vec cannot fail.
    let _ = match result {
        Ok(()) => write!(out, "OK"),
        Err(err) => write!(out, "{}", printable(&err.to_string())),
    };
    out.extend_from_slice(b"\x1b\\");
}

/// The message as kitty promises it: printable ASCII and spaces only, so
/// nothing in it can end the reply early.
fn printable(message: &str) -> String {
    message
        .chars()
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .take(200)
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn said(control: &[u8], result: Result<(), KittyError>) -> String {
        let cmd = Command::parse(control).unwrap();
        let mut out = Vec::new();
        reply(&cmd, &result, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_named_picture_hears_ok_or_its_error() {
        assert_eq!(said(b"a=q,i=31", Ok(())), "\x1b_Gi=31;OK\x1b\\");
        assert_eq!(
            said(
                b"a=p,i=5,p=2",
                Err(KittyError::new("ENOENT", "no such image"))
            ),
            "\x1b_Gi=5,p=2;ENOENT:no such image\x1b\\"
        );
    }

    #[test]
    fn an_unnamed_picture_hears_nothing() {
        assert_eq!(said(b"a=T,f=100", Ok(())), "");
        assert_eq!(said(b"a=T", Err(KittyError::invalid("x"))), "");
    }

    #[test]
    fn quiet_levels_silence_ok_then_everything() {
        assert_eq!(said(b"i=1,q=1", Ok(())), "");
        assert_eq!(
            said(b"i=1,q=1", Err(KittyError::invalid("bad"))),
            "\x1b_Gi=1;EINVAL:bad\x1b\\"
        );
        assert_eq!(said(b"i=1,q=2", Err(KittyError::invalid("bad"))), "");
    }

    #[test]
    fn messages_cannot_end_the_reply_early() {
        assert_eq!(
            said(b"i=1", Err(KittyError::invalid("a\x1b\\b"))),
            "\x1b_Gi=1;EINVAL:a?\\b\x1b\\"
        );
    }

    #[test]
    fn a_picture_named_by_number_hears_its_new_id() {
        let cmd = Command::parse(b"I=13").unwrap();
        let mut out = Vec::new();
        reply_for(&cmd, 99, &Ok(()), &mut out);
        assert_eq!(out, b"\x1b_Gi=99,I=13;OK\x1b\\");
    }
}
