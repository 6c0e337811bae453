//! What ratatui's cells cannot say (styled and coloured underlines,
//! overline, hyperlinks) on its way to the user's terminal.
//!
//! A pane cell with any of these is drawn into the frame's buffer with a
//! zero-width marker after its text ([`crate::pane::term::cell_marks`]), so the
//! painter's comparison of frames sees a change of link or underline as it
//! sees a change of colour. [`draw`] hands runs of unmarked cells to the
//! backend as they are (a frame without marked cells is one `draw`, the
//! same bytes as before), and a run of cells with the same marker as one
//! `draw` whose first cell's text starts with the SGR and OSC 8 that set
//! the extras and whose last cell's text ends with the OSC 8 that closes
//! the link (the backend's reset after each `draw` ends the rest).
//!
//! Styled underlines (`4:3`) and underline colours (`58`) go only to a
//! terminal known to understand them ([`Features`]): an older terminal
//! reads `4:3` as underline and italic. Elsewhere they are a plain
//! underline.

use std::fmt::Write as _;

use ratatui::backend::Backend;
use ratatui::buffer::Cell;

use crate::config::terminal_features::TerminalFeatures;
use crate::pane::term::cell_marks::{self, Extra};
use crate::pane::term::screen::{Attrs, CellStyle, Colour, UnderlineStyle};
use crate::terminal::outer_terminal::OuterTerminal as TerminalFacts;

/// What the user's terminal is known to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// `4:2`..`4:5` (XTGETTCAP `Smulx`, or `styled-underlines` in the
    /// config's `terminal_features`).
    pub styled_underlines: bool,
    /// `58` (XTGETTCAP `Setulc`, or `underline-colours`).
    pub underline_colours: bool,
    /// OSC 8 (on unless the config's `hyperlinks` is off: terminals that do
    /// not know it ignore it).
    pub hyperlinks: bool,
}

impl Features {
    /// What the config says every terminal draws (`terminal_features`,
    /// `hyperlinks`), whatever it tells.
    pub fn configured(features: &TerminalFeatures, hyperlinks: bool) -> Self {
        Self {
            styled_underlines: features.styled_underlines,
            underline_colours: features.underline_colours,
            hyperlinks,
        }
    }

    /// What a terminal that told `facts` draws, with the config's word
    /// (`configured`, see [`Self::configured`]).
    pub fn of(facts: &TerminalFacts, configured: Self) -> Self {
        Self {
            styled_underlines: facts.styled_underlines || configured.styled_underlines,
            underline_colours: facts.underline_colours || configured.underline_colours,
            hyperlinks: configured.hyperlinks,
        }
    }
}

/// The marker a pane cell of `style` gets in the frame's buffer: `None`
/// when ratatui draws all of it (the common case, told without a look-up).
#[inline]
pub fn frame_marker(style: &CellStyle, extra_id: Option<u32>) -> Option<u32> {
    let id = extra_id?;
    let extra = cell_marks::extra(id);
    let underline_plain = matches!(
        style.underline,
        UnderlineStyle::None | UnderlineStyle::Single
    ) && style.underline_colour == Colour::Default;
    if underline_plain && !style.has(Attrs::OVERLINE) && extra.link.is_none() {
        return None;
    }
    cell_marks::intern(Extra {
        attrs: Attrs::from_bits(style.attrs.bits() & Attrs::OVERLINE.bits()),
        underline: style.underline,
        underline_colour: style.underline_colour,
        link: extra.link,
    })
}

/// Sends `cells` to `backend` with their extras drawn (see the module doc).
/// `markers`: whether any frame drawn for this terminal has held a cell
/// with a frame marker (the render cache tells, see
/// `RenderCache::markers_drawn`); until one has, the cells are handed on
/// without a look at each (output without styles or links costs the
/// painter nothing).
pub fn draw<'a, B: Backend>(
    backend: &mut B,
    cells: impl Iterator<Item = (u16, u16, &'a Cell)>,
    features: Features,
    markers: bool,
) -> Result<(), B::Error> {
    if !markers {
        return backend.draw(cells);
    }
    let mut cells = cells.peekable();
    let mut run: Vec<(u16, u16, Cell)> = Vec::new();
    while let Some(&(_, _, first)) = cells.peek() {
        let Some(id) = marker_of(first) else {
            backend.draw(std::iter::from_fn(|| {
                cells.next_if(|(_, _, c)| marker_of(c).is_none())
            }))?;
            continue;
        };
        run.clear();
        while let Some((x, y, cell)) = cells.next_if(|(_, _, c)| marker_of(c) == Some(id)) {
            let mut cell = cell.clone();
            let text = cell_marks::split(cell.symbol()).0.into_owned();
            cell.set_symbol(&text);
            run.push((x, y, cell));
        }
        let (open, close) = sequences(cell_marks::extra(id), features);
        if let Some((_, _, cell)) = run.first_mut() {
            let text = format!("{open}{}", cell.symbol());
            cell.set_symbol(&text);
        }
        if let Some((_, _, cell)) = run.last_mut() {
            let text = format!("{}{close}", cell.symbol());
            cell.set_symbol(&text);
        }
        backend.draw(run.iter().map(|(x, y, c)| (*x, *y, c)))?;
    }
    Ok(())
}

#[inline]
fn marker_of(cell: &Cell) -> Option<u32> {
    cell_marks::split(cell.symbol()).1
}

/// What turns the extras of a frame marker on, and what closes its link.
fn sequences(extra: Extra, features: Features) -> (String, &'static str) {
    let mut open = String::new();
    // Writing to a String cannot fail.
    let style = match extra.underline {
        UnderlineStyle::None => None,
        _ if !features.styled_underlines => Some(1),
        UnderlineStyle::Single => Some(1),
        UnderlineStyle::Double => Some(2),
        UnderlineStyle::Curly => Some(3),
        UnderlineStyle::Dotted => Some(4),
        UnderlineStyle::Dashed => Some(5),
    };
    match style {
        Some(1) => open.push_str("\x1b[4m"),
        Some(n) => {
            let _ = write!(open, "\x1b[4:{n}m");
        }
        None => {}
    }
    if style.is_some() && features.underline_colours {
        let _ = match extra.underline_colour {
            Colour::Default => Ok(()),
            Colour::Indexed(i) => write!(open, "\x1b[58:5:{i}m"),
            Colour::Rgb(r, g, b) => write!(open, "\x1b[58:2::{r}:{g}:{b}m"),
        };
    }
    if extra.attrs.contains(Attrs::OVERLINE) {
        open.push_str("\x1b[53m");
    }
    let mut close = "";
    if features.hyperlinks
        && let Some(link) = extra.link.and_then(cell_marks::link)
    {
        // Sanitized when kept: no control character can end it early.
        let id = link.id.as_deref().unwrap_or("");
        let sep = if id.is_empty() { "" } else { "id=" };
        let _ = write!(open, "\x1b]8;{sep}{id};{}\x1b\\", link.uri);
        close = "\x1b]8;;\x1b\\";
    }
    (open, close)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::term::cell_marks::Link;
    use ratatui::backend::CrosstermBackend;

    fn cell(text: &str) -> Cell {
        let mut c = Cell::default();
        c.set_symbol(text);
        c
    }

    fn drawn(cells: &[(u16, u16, Cell)], features: Features) -> String {
        let mut backend = CrosstermBackend::new(Vec::new());
        draw(
            &mut backend,
            cells.iter().map(|(x, y, c)| (*x, *y, c)),
            features,
            true,
        )
        .unwrap();
        String::from_utf8(backend.writer().clone()).unwrap()
    }

    #[test]
    fn unmarked_cells_are_drawn_as_ratatui_draws_them() {
        let cells = [(0, 0, cell("a")), (1, 0, cell("b"))];
        let mut plain = CrosstermBackend::new(Vec::new());
        plain
            .draw(cells.iter().map(|(x, y, c)| (*x, *y, c)))
            .unwrap();
        let plain = String::from_utf8(plain.writer().clone()).unwrap();
        assert_eq!(drawn(&cells, Features::default()), plain);
    }

    #[test]
    fn the_configs_word_adds_to_what_the_terminal_told() {
        let configured = Features::configured(
            &TerminalFeatures {
                styled_underlines: true,
                ..Default::default()
            },
            false,
        );
        let told = TerminalFacts {
            underline_colours: true,
            ..TerminalFacts::default()
        };
        let features = Features::of(&told, configured);
        assert_eq!(
            features,
            Features {
                styled_underlines: true,
                underline_colours: true,
                hyperlinks: false,
            }
        );
        let plain = Features::of(&TerminalFacts::default(), Features::default());
        assert_eq!(plain, Features::default());
    }

    #[test]
    fn a_run_of_marked_cells_is_wrapped_in_its_extras() {
        let link = cell_marks::intern_link(Link::sanitized(b"id=a", b"https://x.test").unwrap());
        let extra = Extra {
            underline: UnderlineStyle::Curly,
            underline_colour: Colour::Indexed(9),
            attrs: Attrs::OVERLINE,
            link,
        };
        let m = cell_marks::marker(cell_marks::intern(extra).unwrap());
        let cells = [
            (0, 0, cell("x")),
            (1, 0, cell(&format!("a{m}"))),
            (2, 0, cell(&format!("b{m}"))),
            (3, 0, cell("y")),
        ];
        let all = Features {
            styled_underlines: true,
            underline_colours: true,
            hyperlinks: true,
        };
        let out = drawn(&cells, all);
        assert!(
            out.contains(
                "\x1b[4:3m\x1b[58:5:9m\x1b[53m\x1b]8;id=a;https://x.test\x1b\\ab\x1b]8;;\x1b\\"
            ),
            "{out:?}"
        );
        assert!(!out.contains(&m));
        let old = drawn(&cells, Features::default());
        assert!(old.contains("\x1b[4m\x1b[53mab"), "{old:?}");
        assert!(!old.contains("4:3") && !old.contains("58") && !old.contains("]8;"));
    }
}
