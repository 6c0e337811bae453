//! Character sets: `ESC ( F` / `ESC ) F` designate G0 / G1, SI and SO
//! shift between them, and the DEC special graphics set draws lines.
//!
//! vt100 ignores all of this, so `ESC ( 0 lqqk` printed `lqqk` instead of
//! `┌──┐`. ncurses only avoids it when told (`NCURSES_NO_UTF8_ACS=1`,
//! which `ssh`, `sudo` and non-ncurses programs do not pass on). The layer
//! translates printed characters through the set in use before vt100 sees
//! them; every translated character is one cell wide, like the one it
//! replaces, so widths and wrapping stay the same.

/// A set a G slot can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Charset {
    #[default]
    Ascii,
    /// DEC special graphics (`ESC ( 0`): line drawing and symbols.
    DecGraphics,
    /// The UK set (`ESC ( A`): `#` is `£`.
    Uk,
}

impl Charset {
    /// Appends printable ASCII `b` as this set shows it.
    pub fn push(self, out: &mut Vec<u8>, b: u8) {
        match self.map(b) {
            Some(c) => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            None => out.push(b),
        }
    }

    /// The set a designation's final byte names (unknown ones read as ASCII,
    /// as xterm does for sets it lacks).
    fn designated_by(byte: u8) -> Self {
        match byte {
            b'0' => Self::DecGraphics,
            b'A' => Self::Uk,
            _ => Self::Ascii,
        }
    }

    /// What printing `byte` (printable ASCII) shows in this set.
    pub fn map(self, byte: u8) -> Option<char> {
        match self {
            Self::Ascii => None,
            Self::Uk => (byte == b'#').then_some('£'),
            Self::DecGraphics => dec_graphics(byte),
        }
    }
}

/// G0 and G1, which of them is in use (GL), and what DECSC saved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Charsets {
    slots: [Charset; 2],
    /// SO: G1 is in use.
    shifted: bool,
    saved: Option<([Charset; 2], bool)>,
}

impl Charsets {
    /// `ESC (` (slot 0) or `ESC )` (slot 1) with its final byte. Returns
    /// whether the slot changed (`ESC ( B`, part of ncurses' `sgr0`, mostly
    /// does not).
    pub fn designate(&mut self, slot: usize, byte: u8) -> bool {
        let set = Charset::designated_by(byte);
        match self.slots.get_mut(slot) {
            Some(s) if *s != set => {
                *s = set;
                true
            }
            _ => false,
        }
    }

    /// SO (true) or SI (false).
    pub fn shift(&mut self, out: bool) {
        self.shifted = out;
    }

    /// The set printed characters go through.
    pub fn active(&self) -> Charset {
        self.slots[usize::from(self.shifted)]
    }

    /// Whether SI or SO can change what prints (a slot holds another set).
    pub fn shifts_matter(&self) -> bool {
        self.slots != [Charset::Ascii; 2]
    }

    /// DECSC keeps the sets with the cursor; DECRC brings them back.
    pub fn save(&mut self) {
        self.saved = Some((self.slots, self.shifted));
    }

    /// Returns whether the set in use may have changed.
    pub fn restore(&mut self) -> bool {
        let (slots, shifted) = self.saved.unwrap_or_default();
        let changed = (slots, shifted) != (self.slots, self.shifted);
        self.slots = slots;
        self.shifted = shifted;
        changed
    }

    /// Everything back to ASCII (RIS, DECSTR).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// The DEC special graphics set, as xterm draws it: `0x5f..=0x7e`.
pub fn dec_graphics(byte: u8) -> Option<char> {
    Some(match byte {
        b'_' => ' ',
        b'`' => '◆',
        b'a' => '▒',
        b'b' => '␉',
        b'c' => '␌',
        b'd' => '␍',
        b'e' => '␊',
        b'f' => '°',
        b'g' => '±',
        b'h' => '␤',
        b'i' => '␋',
        b'j' => '┘',
        b'k' => '┐',
        b'l' => '┌',
        b'm' => '└',
        b'n' => '┼',
        b'o' => '⎺',
        b'p' => '⎻',
        b'q' => '─',
        b'r' => '⎼',
        b's' => '⎽',
        b't' => '├',
        b'u' => '┤',
        b'v' => '┴',
        b'w' => '┬',
        b'x' => '│',
        b'y' => '≤',
        b'z' => '≥',
        b'{' => 'π',
        b'|' => '≠',
        b'}' => '£',
        b'~' => '·',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthChar as _;

    #[test]
    fn every_graphic_is_one_cell_wide_like_the_letter_it_replaces() {
        for byte in 0x5f..=0x7e {
            let c = dec_graphics(byte);
            assert_eq!(c.and_then(|c| c.width()), Some(1), "{byte:#x}");
        }
        assert_eq!(dec_graphics(b'A'), None);
    }

    #[test]
    fn shifts_pick_the_slot_and_decrc_brings_back_what_decsc_saved() {
        let mut sets = Charsets::default();
        assert!(!sets.shifts_matter());
        assert!(sets.designate(1, b'0'));
        assert!(!sets.designate(1, b'0'), "no change");
        assert!(sets.shifts_matter());
        assert_eq!(sets.active(), Charset::Ascii);
        sets.shift(true);
        assert_eq!(sets.active(), Charset::DecGraphics);
        sets.save();
        sets.shift(false);
        sets.designate(0, b'A');
        assert_eq!(sets.active(), Charset::Uk);
        sets.restore();
        assert_eq!(sets.active(), Charset::DecGraphics);
    }
}
