//! A screen's marks carried to another process (an upgrade,
//! `crate::upgrade::state`).
//!
//! A cell's marks, a style's (`cell_marks`) and a joined cluster's
//! (`cluster_marks`), are ids into tables of this process, and the screen
//! an upgrade hands over (`Pane::screen_state`) holds them as they are. The
//! new process numbers its tables' entries in the order it meets them, so
//! there an id names another link or style, or none. So the old process
//! tells what each id the screen uses stands for ([`CarriedMarks::of`]),
//! and the new one interns those in its own tables and writes its own ids
//! in their place ([`CarriedMarks::renumber`]). A picture's anchor needs
//! none of this: the picture store is carried whole, ids and all.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::pane::term::cell_marks::{self, EXTRA_ATTRS, Extra, Link};
use crate::pane::term::cell_style::{Attrs, Colour, UnderlineStyle};
use crate::pane::term::cluster_marks;
use crate::pane::term::mark_part::MarkPart;

/// What one told mark takes in the header besides its text (JSON's
/// names and numbers), counted against the budget of [`CarriedMarks::of`].
const ENTRY_BYTES: usize = 128;

/// What the marks of one screen stand for, by their ids in the process
/// that drew it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CarriedMarks {
    #[serde(default)]
    styles: Vec<CarriedStyle>,
    #[serde(default)]
    clusters: Vec<CarriedCluster>,
}

/// A `cell_marks::Extra`, its link spelled out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CarriedStyle {
    id: u32,
    attrs: u16,
    underline: UnderlineStyle,
    underline_colour: Colour,
    link: Option<CarriedLink>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CarriedLink {
    uri: String,
    id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CarriedCluster {
    id: u32,
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Style,
    Cluster,
}

impl CarriedMarks {
    /// What the marks in `screen` (bytes that draw a screen) stand for in
    /// this process's tables, in at most about `budget` bytes (taken from
    /// it): the state's header is bounded, and every cell of a screen may
    /// name a link of its own, 2 KiB long. A mark past the budget is not
    /// told (its cell is drawn without it, its text kept).
    pub fn of(screen: &[u8], budget: &mut usize) -> Self {
        let mut styles = BTreeSet::new();
        let mut clusters = BTreeSet::new();
        each_mark(screen, |kind, id, _| {
            match kind {
                Kind::Style => styles.insert(id),
                Kind::Cluster => clusters.insert(id),
            };
        });
        let mut fits = |text_len: usize| {
            let cost = ENTRY_BYTES + text_len;
            let fits = cost <= *budget;
            if fits {
                *budget -= cost;
            }
            fits
        };
        Self {
            styles: (styles.into_iter())
                .filter_map(CarriedStyle::of)
                .filter(|style| fits(style.text_len()))
                .collect(),
            clusters: (clusters.into_iter())
                .filter_map(|id| {
                    let text: String = cluster_marks::cluster(id)?.into();
                    fits(text.len()).then_some(CarriedCluster { id, text })
                })
                .collect(),
        }
    }

    /// `screen`, drawn by the process that told these marks, with each
    /// mark naming the same thing in this process's tables (interned
    /// here); a mark it did not tell, or that this process's tables do not
    /// take (full, or links turned off), is left out.
    pub fn renumber(&self, screen: &[u8]) -> Vec<u8> {
        let styles: HashMap<u32, u32> = (self.styles.iter())
            .filter_map(|style| Some((style.id, style.intern()?)))
            .collect();
        let clusters: HashMap<u32, u32> = (self.clusters.iter())
            .filter_map(|c| Some((c.id, cluster_marks::intern(&c.text)?)))
            .collect();
        let mut out = Vec::with_capacity(screen.len());
        let mut copied = 0;
        each_mark(screen, |kind, id, at| {
            out.extend_from_slice(&screen[copied..at.start]);
            copied = at.end;
            match kind {
                Kind::Style => {
                    if let Some(&new) = styles.get(&id) {
                        cell_marks::push_marker(&mut out, new);
                    }
                }
                Kind::Cluster => {
                    if let Some(&new) = clusters.get(&id) {
                        cluster_marks::push_mark(&mut out, new);
                    }
                }
            }
        });
        out.extend_from_slice(&screen[copied..]);
        out
    }
}

impl CarriedStyle {
    fn of(id: u32) -> Option<Self> {
        let extra = cell_marks::extra(id);
        let link = extra
            .link
            .and_then(cell_marks::link)
            .map(|link| CarriedLink {
                uri: link.uri.to_string(),
                id: link.id.as_deref().map(str::to_string),
            });
        (!extra.is_empty()).then(|| Self {
            id,
            attrs: extra.attrs.bits(),
            underline: extra.underline,
            underline_colour: extra.underline_colour,
            link,
        })
    }

    /// The bytes of its link.
    fn text_len(&self) -> usize {
        self.link.as_ref().map_or(0, |link| {
            link.uri.len() + link.id.as_ref().map_or(0, String::len)
        })
    }

    /// Its id in this process's table.
    fn intern(&self) -> Option<u32> {
        // Checked as a program's link is: the state came over a socket.
        let link = self.link.as_ref().and_then(|link| {
            let params = link
                .id
                .as_ref()
                .map_or(String::new(), |id| format!("id={id}"));
            Link::sanitized(params.as_bytes(), link.uri.as_bytes())
        });
        let extra = Extra {
            attrs: Attrs::from_bits(self.attrs & EXTRA_ATTRS.bits()),
            underline: self.underline,
            underline_colour: self.underline_colour,
            link: link.and_then(cell_marks::intern_link),
        };
        (!extra.is_empty()).then(|| cell_marks::intern(extra))?
    }
}

/// Calls `found` with each mark in `bytes` (UTF-8; other bytes are passed
/// over), in order: its kind, its id and where its bytes are. Every mark's
/// code point is four bytes starting 0xF3.
fn each_mark(bytes: &[u8], mut found: impl FnMut(Kind, u32, Range<usize>)) {
    let mut from = 0;
    // A mark's first code point (of two): its kind, high bits, start.
    let mut lead: Option<(Kind, u32, usize)> = None;
    while let Some(skip) = memchr::memchr(0xF3, &bytes[from..]) {
        let at = from + skip;
        let c = (bytes.get(at..at + 4))
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|s| s.chars().next());
        let part = c.and_then(|c| {
            (cell_marks::marker_part(c).map(|p| (Kind::Style, p)))
                .or_else(|| cluster_marks::mark_part(c).map(|p| (Kind::Cluster, p)))
        });
        let Some((kind, part)) = part else {
            lead = None;
            from = at + 1;
            continue;
        };
        match part {
            MarkPart::Lead(high) => lead = Some((kind, high, at)),
            MarkPart::Last(low) => {
                let (id, start) = match lead.take() {
                    Some((k, high, start)) if k == kind && start + 4 == at => (high | low, start),
                    _ => (low, at),
                };
                found(kind, id, start..at + 4);
            }
        }
        from = at + 4;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn style(id: u32, uri: &str) -> CarriedStyle {
        CarriedStyle {
            id,
            attrs: Attrs::OVERLINE.bits(),
            underline: UnderlineStyle::Curly,
            underline_colour: Colour::Indexed(196),
            link: Some(CarriedLink {
                uri: uri.into(),
                id: Some("r1".into()),
            }),
        }
    }

    #[test]
    fn marks_of_another_process_name_the_same_things_here() {
        // Ids another process gave: one of two code points, one of one.
        let carried = CarriedMarks {
            styles: vec![
                style(50_000, "https://carried.test/a"),
                style(3, "https://carried.test/b"),
            ],
            clusters: vec![CarriedCluster {
                id: 9_000,
                text: "\u{1F468}\u{200D}\u{1F469}".into(),
            }],
        };
        let mut screen = b"\x1b[1mA".to_vec();
        cell_marks::push_marker(&mut screen, 50_000);
        screen.extend_from_slice("\u{1F468}".as_bytes());
        cluster_marks::push_mark(&mut screen, 9_000);
        screen.push(b'B');
        cell_marks::push_marker(&mut screen, 3);
        screen.push(b'C');
        // Told by nobody: left out rather than naming something here.
        cell_marks::push_marker(&mut screen, 7_777);
        let renumbered = String::from_utf8(carried.renumber(&screen)).unwrap();
        let cells: Vec<String> = ["A", "\u{1F468}", "B", "C"]
            .iter()
            .map(|start| {
                let at = renumbered.find(start).unwrap();
                renumbered[at..]
                    .chars()
                    .take_while(|&c| {
                        c == start.chars().next().unwrap()
                            || cell_marks::is_marker(c)
                            || cluster_marks::is_mark(c)
                    })
                    .collect()
            })
            .collect();
        let uri_of = |cell: &str| {
            let id = cell_marks::split(cell).1.unwrap();
            let link = cell_marks::link(cell_marks::extra(id).link.unwrap()).unwrap();
            (link.uri.to_string(), cell_marks::extra(id).underline)
        };
        assert_eq!(
            uri_of(&cells[0]),
            ("https://carried.test/a".into(), UnderlineStyle::Curly)
        );
        assert_eq!(
            cluster_marks::expand(&cells[1]).unwrap(),
            "\u{1F468}\u{200D}\u{1F469}"
        );
        assert_eq!(uri_of(&cells[2]).0, "https://carried.test/b");
        assert_eq!(cell_marks::split(&cells[3]), ("C".into(), None));
        assert!(renumbered.starts_with("\x1b[1mA"));
    }

    #[test]
    fn a_screen_s_marks_are_told_by_what_they_stand_for() {
        let link = Link::sanitized(b"", b"https://told.test/").unwrap();
        let extra = Extra {
            attrs: Attrs::STRIKETHROUGH,
            link: cell_marks::intern_link(link),
            ..Extra::default()
        };
        let id = cell_marks::intern(extra).unwrap();
        let mut screen = b"x".to_vec();
        cell_marks::push_marker(&mut screen, id);
        let mut budget = 1 << 20;
        let told = CarriedMarks::of(&screen, &mut budget);
        assert_eq!(budget, (1 << 20) - ENTRY_BYTES - "https://told.test/".len());
        assert_eq!(told.styles.len(), 1);
        assert_eq!(told.styles[0].id, id);
        assert_eq!(
            told.styles[0].link.as_ref().unwrap().uri,
            "https://told.test/"
        );
        // In the same process, the same ids.
        assert_eq!(told.renumber(&screen), screen);
        // Past the budget, nothing is told, and the mark is left out.
        let mut spent = ENTRY_BYTES;
        let none = CarriedMarks::of(&screen, &mut spent);
        assert!(none.styles.is_empty());
        assert_eq!(none.renumber(&screen), b"x");
    }
}
