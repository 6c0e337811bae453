//! Colours a program set for its own pane: palette entries (`OSC 4`), the
//! default foreground, background and cursor colours (`OSC 10/11/12`), and
//! their resets (`OSC 104/110/111/112`). base16-shell, themes and some TUIs
//! set them; a terminal then paints with them, and so does tilework, for
//! that pane only: the renderer maps the pane's cells through them
//! (`render::pane_colours`), and later queries are answered with them.
//!
//! The follower reads every OSC, so a set and a query in one chunk are
//! seen in order. Nothing is kept until a program sets something: a pane
//! that never does costs an empty struct.

use std::io::Write as _;

use crate::config::colour::{Rgb, parse_colour};

/// The dynamic colours, in `OSC 10 + i` order.
pub const FOREGROUND: usize = 0;
pub const BACKGROUND: usize = 1;
pub const CURSOR: usize = 2;

#[derive(Debug, Default, Clone)]
pub struct ColourSets {
    /// Palette entries set by `OSC 4`; `None` until the first one.
    palette: Option<Box<[Option<Rgb>; 256]>>,
    /// Foreground, background and cursor colours set by `OSC 10/11/12`.
    dynamic: [Option<Rgb>; 3],
    /// Changes with every set or reset, so the renderer knows to redraw.
    generation: u64,
    /// Palette entries asked for by the last `OSC 4` query.
    asked: Vec<u8>,
}

/// What an OSC did to the colour sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Effect {
    /// Bit i: dynamic colour `10 + i` was asked for (`?`).
    pub asked_dynamic: u8,
    /// Palette entries were asked for (see [`ColourSets::answer_palette`]).
    pub asked_palette: bool,
}

impl ColourSets {
    /// Reads an OSC's parameters (`params[0]` is its number); sets, resets
    /// and notes queries. Other OSCs do nothing.
    pub fn osc(&mut self, params: &[&[u8]]) -> Effect {
        let mut effect = Effect::default();
        let Some((&number, rest)) = params.split_first() else {
            return effect;
        };
        match number {
            b"4" => {
                self.asked.clear();
                for pair in rest.chunks(2) {
                    let [index, spec] = pair else { break };
                    let Some(index) = number_of(index) else {
                        continue;
                    };
                    if *spec == b"?" {
                        self.asked.push(index);
                        effect.asked_palette = true;
                    } else if let Some(rgb) = colour_of(spec) {
                        self.palette.get_or_insert_with(|| Box::new([None; 256]))
                            [usize::from(index)] = Some(rgb);
                        self.changed();
                    }
                }
            }
            b"104" => {
                let indices: Vec<u8> = rest
                    .iter()
                    .flat_map(|p| p.split(|&b| b == b';'))
                    .filter_map(number_of)
                    .collect();
                if let Some(palette) = &mut self.palette {
                    if indices.is_empty() {
                        self.palette = None;
                    } else {
                        for i in indices {
                            palette[usize::from(i)] = None;
                        }
                    }
                    self.changed();
                }
            }
            // `OSC 10 ; a ; b` sets (or asks for) 10 then 11: each
            // parameter the next colour.
            b"10" | b"11" | b"12" => {
                let first = usize::from(number[1] - b'0');
                for (slot, spec) in (first..3).zip(rest) {
                    if *spec == b"?" {
                        effect.asked_dynamic |= 1 << slot;
                    } else if let Some(rgb) = colour_of(spec) {
                        self.dynamic[slot] = Some(rgb);
                        self.changed();
                    }
                }
            }
            b"110" | b"111" | b"112" => {
                let slot = usize::from(number[2] - b'0');
                if self.dynamic[slot].take().is_some() {
                    self.changed();
                }
            }
            _ => {}
        }
        effect
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Whether the program set nothing (the renderer then maps nothing).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.palette.is_none() && self.dynamic == [None; 3]
    }

    /// Changes whenever a colour is set or reset.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The colour the program gave palette entry `index`, if any.
    #[inline]
    pub fn palette(&self, index: u8) -> Option<Rgb> {
        self.palette.as_ref().and_then(|p| p[usize::from(index)])
    }

    /// The foreground, background or cursor colour the program set.
    #[inline]
    pub fn dynamic(&self, slot: usize) -> Option<Rgb> {
        self.dynamic.get(slot).copied().flatten()
    }

    /// What OSC 10/11/12 queries are told: the program's own colour, else
    /// the user's terminal's.
    pub fn effective(&self, terminal: &[Option<Rgb>; 3]) -> [Option<Rgb>; 3] {
        std::array::from_fn(|i| self.dynamic[i].or(terminal[i]))
    }

    /// Appends the answer to the last `OSC 4` query: the entries the
    /// program set (the user's terminal's palette is not known, so the
    /// others get no answer, as from a terminal that does not support it).
    pub fn answer_palette(&mut self, bel: bool, out: &mut Vec<u8>) {
        let end = if bel { "\x07" } else { "\x1b\\" };
        for index in std::mem::take(&mut self.asked) {
            if let Some(Rgb(r, g, b)) = self.palette(index) {
                let _ = write!(out, "\x1b]4;{index};rgb:{r:04x}/{g:04x}/{b:04x}{end}");
            }
        }
    }

    /// RIS: back to the terminal's own colours.
    pub fn reset(&mut self) {
        if !self.is_empty() {
            *self = Self {
                generation: self.generation.wrapping_add(1),
                ..Self::default()
            };
        }
    }
}

/// A palette index, 0-255.
fn number_of(digits: &[u8]) -> Option<u8> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// `rgb:r/g/b`, `#rrggbb` or `#rgb`.
fn colour_of(spec: &[u8]) -> Option<Rgb> {
    let spec = std::str::from_utf8(spec).ok()?;
    if let Some(hex) = spec.strip_prefix('#')
        && hex.len() == 3
        && hex.is_ascii()
    {
        let c = |i: usize| {
            u16::from_str_radix(&hex[i..=i], 16)
                .ok()
                .map(|v| v * 0x1111)
        };
        return Some(Rgb(c(0)?, c(1)?, c(2)?));
    }
    parse_colour(spec)
}

/// A colour as the user's terminal is told it: 8 bits a channel.
#[inline]
pub fn to_rgb8(Rgb(r, g, b): Rgb) -> (u8, u8, u8) {
    let c = |v: u16| u8::try_from(v >> 8).unwrap_or(u8::MAX);
    (c(r), c(g), c(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn osc(sets: &mut ColourSets, text: &str) -> Effect {
        let params: Vec<&[u8]> = text.split(';').map(str::as_bytes).collect();
        sets.osc(&params)
    }

    #[test]
    fn palette_entries_are_set_asked_for_and_reset() {
        let mut s = ColourSets::default();
        assert!(s.is_empty());
        osc(&mut s, "4;1;#ff0000;200;rgb:00/80/ff");
        assert_eq!(s.palette(1), Some(Rgb(0xffff, 0, 0)));
        assert_eq!(s.palette(200).map(to_rgb8), Some((0, 0x80, 0xff)));
        assert_eq!(s.palette(2), None);
        let effect = osc(&mut s, "4;1;?;2;?");
        assert!(effect.asked_palette);
        let mut out = Vec::new();
        s.answer_palette(true, &mut out);
        assert_eq!(out, b"\x1b]4;1;rgb:ffff/0000/0000\x07");
        osc(&mut s, "104;1");
        assert_eq!(s.palette(1), None);
        assert_eq!(s.palette(200).map(to_rgb8), Some((0, 0x80, 0xff)));
        osc(&mut s, "104");
        assert!(s.is_empty());
    }

    #[test]
    fn dynamic_colours_are_set_in_order_and_reset_one_by_one() {
        let mut s = ColourSets::default();
        let before = s.generation();
        osc(&mut s, "10;#102030;#405060");
        assert_ne!(s.generation(), before);
        assert_eq!(s.dynamic(FOREGROUND).map(to_rgb8), Some((0x10, 0x20, 0x30)));
        assert_eq!(s.dynamic(BACKGROUND).map(to_rgb8), Some((0x40, 0x50, 0x60)));
        osc(&mut s, "12;#abc");
        assert_eq!(s.dynamic(CURSOR), Some(Rgb(0xaaaa, 0xbbbb, 0xcccc)));
        let terminal = [Some(Rgb(1, 1, 1)); 3];
        assert_eq!(
            s.effective(&terminal)[BACKGROUND].map(to_rgb8),
            Some((0x40, 0x50, 0x60))
        );
        osc(&mut s, "111");
        assert_eq!(s.dynamic(BACKGROUND), None);
        assert_eq!(s.effective(&terminal)[BACKGROUND], Some(Rgb(1, 1, 1)));
        assert_eq!(osc(&mut s, "11;?").asked_dynamic, 1 << BACKGROUND);
        assert_eq!(osc(&mut s, "10;?;?").asked_dynamic, 0b11);
        osc(&mut s, "110");
        osc(&mut s, "112");
        assert!(s.is_empty());
    }

    #[test]
    fn what_is_not_a_colour_changes_nothing() {
        let mut s = ColourSets::default();
        osc(&mut s, "4;300;#ff0000;x;#00ff00;3;nonsense");
        osc(&mut s, "11;\x1b[2J");
        osc(&mut s, "2;a title");
        assert!(s.is_empty());
        assert_eq!(s.generation(), 0);
    }
}
