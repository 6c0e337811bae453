//! kitty's notifications both ways (`OSC 99`), beyond their text
//! (`notifications`): each pane's ids are namespaced on the way out
//! (`i=tw.3.build`, as zellij's `namespace_notification_id` does), so
//! two panes' `i=1` stay two notifications and an update or a close
//! reaches the right one; every forward asks the terminal to report a
//! click (`a=focus,report`), which focuses the pane; a program that asked
//! for the report itself (`a=report`) is told, under its own id. Queries
//! (`p=?`) are answered by tilework, with what it passes on.

use std::io::Write as _;

use crate::pane::PaneId;
use crate::pane::term::notification_id::clean_id;
use crate::pane::term::notifications::{Kind, Notification};

/// A program's `OSC 99` that is not a text to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `p=?`: what the terminal supports (answered by tilework).
    Query { id: String },
    /// `p=close`: take notification `id` away.
    Close { id: String },
}

impl Request {
    pub fn read(metadata: &[u8]) -> Option<Self> {
        let mut payload: &[u8] = b"";
        let mut id: &[u8] = b"";
        for pair in metadata.split(|&b| b == b':') {
            match pair {
                [b'p', b'=', value @ ..] => payload = value,
                [b'i', b'=', value @ ..] => id = value,
                _ => {}
            }
        }
        let id = clean_id(id);
        match payload {
            b"?" => Some(Self::Query { id }),
            b"close" => Some(Self::Close { id }),
            _ => None,
        }
    }
}

/// The answer to `p=?`: what tilework passes on (titles, bodies, closes,
/// a click reported), kitty's form.
pub fn query_answer(id: &str) -> Vec<u8> {
    format!("\x1b]99;i={id}:p=?;a=focus,report:o=always:p=title,body,?,close\x1b\\").into_bytes()
}

/// The id pane `pane`'s notification `id` has in the user's terminal.
pub fn namespaced(pane: PaneId, id: &str) -> String {
    if id.is_empty() {
        format!("tw.{}", pane.0)
    } else {
        format!("tw.{}.{id}", pane.0)
    }
}

/// The pane and the program's id a namespaced id names.
fn unnamespaced(id: &str) -> Option<(PaneId, &str)> {
    let rest = id.strip_prefix("tw.")?;
    let (pane, id) = rest.split_once('.').unwrap_or((rest, ""));
    Some((PaneId(pane.parse().ok()?), id))
}

/// A click the terminal reported (`OSC 99 ; i=tw.3.build ;` : the text
/// after `99;`): the pane and its program's id. A close report
/// (`p=close`) or another terminal's id is none.
pub fn activation(text: &str) -> Option<(PaneId, &str)> {
    let (metadata, _) = text.split_once(';').unwrap_or((text, ""));
    let mut id = None;
    for pair in metadata.split(':') {
        match pair.split_once('=') {
            Some(("i", value)) => id = Some(value),
            Some(("p", _)) => return None,
            _ => {}
        }
    }
    unnamespaced(id?)
}

/// The report a program that asked for one (`a=report`) gets of a click.
pub fn activation_report(id: &str) -> Vec<u8> {
    format!("\x1b]99;i={id};\x1b\\").into_bytes()
}

/// How pane `pane`'s `notification` is passed on: a kitty one under its
/// namespaced id, asking for a click's report; the others as they came.
pub fn forward(notification: &Notification, pane: PaneId) -> Vec<u8> {
    if notification.kind != Kind::Kitty {
        return notification.forward();
    }
    let id = notification
        .kitty_id
        .as_ref()
        .map_or_else(|| namespaced(pane, ""), |k| namespaced(pane, &k.id));
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = if notification.body.is_empty() {
        write!(
            out,
            "\x1b]99;i={id}:a=focus,report;{}\x1b\\",
            notification.title
        )
    } else {
        write!(
            out,
            "\x1b]99;i={id}:a=focus,report:d=0;{}\x1b\\\x1b]99;i={id}:p=body;{}\x1b\\",
            notification.title, notification.body
        )
    };
    out
}

/// How a program's close of its notification `id` is passed on.
pub fn forward_close(pane: PaneId, id: &str) -> Vec<u8> {
    format!("\x1b]99;i={}:p=close;\x1b\\", namespaced(pane, id)).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::term::notification_id::KittyId;

    #[test]
    fn ids_and_actions_are_read_and_kept_clean() {
        let told = KittyId::read(b"i=build-1:a=-focus,report:d=0");
        assert_eq!((told.id.as_str(), told.report), ("build-1", true));
        assert_eq!(KittyId::read(b"i=a\x1b[2J").id, "");
        assert!(!KittyId::read(b"i=x").report);
    }

    #[test]
    fn queries_and_closes_are_requests() {
        assert_eq!(
            Request::read(b"i=q1:p=?"),
            Some(Request::Query { id: "q1".into() })
        );
        assert_eq!(
            Request::read(b"i=n:p=close"),
            Some(Request::Close { id: "n".into() })
        );
        assert_eq!(Request::read(b"i=n:p=title"), None);
        assert!(query_answer("q1").starts_with(b"\x1b]99;i=q1:p=?;a=focus,report"));
    }

    #[test]
    fn a_click_names_its_pane_and_the_programs_id() {
        let pane = PaneId(3);
        let id = namespaced(pane, "build.2");
        assert_eq!(activation(&format!("i={id};")), Some((pane, "build.2")));
        assert_eq!(activation("i=tw.4;"), Some((PaneId(4), "")));
        assert_eq!(activation("i=tw.3.x:p=close;"), None);
        assert_eq!(activation("i=other;"), None);
    }

    #[test]
    fn a_kitty_notification_goes_out_namespaced_and_asking_for_clicks() {
        let notification = Notification {
            kind: Kind::Kitty,
            title: "Build".into(),
            body: "done".into(),
            kitty_id: Some(KittyId {
                id: "1".into(),
                report: false,
            }),
        };
        assert_eq!(
            forward(&notification, PaneId(2)),
            b"\x1b]99;i=tw.2.1:a=focus,report:d=0;Build\x1b\\\x1b]99;i=tw.2.1:p=body;done\x1b\\"
        );
        assert_eq!(
            forward_close(PaneId(2), "1"),
            b"\x1b]99;i=tw.2.1:p=close;\x1b\\"
        );
    }
}
