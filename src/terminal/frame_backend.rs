//! The backend frames are drawn through: ratatui's crossterm backend, but
//! with the cells' colours written as a terminal expects them. crossterm
//! writes the 16 basic colours as `38;5;N`; xterm (and most terminals)
//! show a bold `38;5;1` dark, but a bold `31` bright, so a program's bold
//! red (`ls` directories, git, gcc) would change on its way through. Here
//! colours 0-15 go out as SGR 30-37 / 90-97 and 40-47 / 100-107, as tmux
//! writes them. Everything but the cells is crossterm's.

use std::io::{self, Write};

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::cursor::MoveTo;
use ratatui::crossterm::queue;
use ratatui::crossterm::style::{Attribute, Color as CrosstermColor, SetAttribute};
use ratatui::crossterm::style::{Print, SetUnderlineColor};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};

pub struct FrameBackend<W: Write> {
    inner: CrosstermBackend<W>,
}

impl<W: Write> FrameBackend<W> {
    pub fn new(writer: W) -> Self {
        Self {
            inner: CrosstermBackend::new(writer),
        }
    }

    pub fn writer(&self) -> &W {
        self.inner.writer()
    }

    pub fn writer_mut(&mut self) -> &mut W {
        self.inner.writer_mut()
    }
}

impl<W: Write> Write for FrameBackend<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

impl<W: Write> Backend for FrameBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let w = self.inner.writer_mut();
        let mut fg = Color::Reset;
        let mut bg = Color::Reset;
        let mut underline_color = Color::Reset;
        let mut modifier = Modifier::empty();
        let mut last: Option<Position> = None;
        for (x, y, cell) in content {
            if !matches!(last, Some(p) if x == p.x + 1 && y == p.y) {
                queue!(w, MoveTo(x, y))?;
            }
            last = Some(Position { x, y });
            if cell.modifier != modifier {
                write_modifier_change(w, modifier, cell.modifier)?;
                modifier = cell.modifier;
            }
            if cell.fg != fg || cell.bg != bg {
                write_colours(w, cell.fg, cell.bg)?;
                fg = cell.fg;
                bg = cell.bg;
            }
            if cell.underline_color != underline_color {
                let colour = crossterm_colour(cell.underline_color);
                queue!(w, SetUnderlineColor(colour))?;
                underline_color = cell.underline_color;
            }
            queue!(w, Print(cell.symbol()))?;
        }
        // As crossterm's backend ends: colours and attributes back to the
        // terminal's own.
        w.write_all(b"\x1b[39m\x1b[49m\x1b[59m\x1b[0m")
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

/// One SGR setting both colours.
fn write_colours(w: &mut impl Write, fg: Color, bg: Color) -> io::Result<()> {
    let mut sgr = [0u8; 48];
    let mut len = 2;
    sgr[..2].copy_from_slice(b"\x1b[");
    len += colour_params(&mut sgr[len..], fg, 30);
    sgr[len] = b';';
    len += 1;
    len += colour_params(&mut sgr[len..], bg, 40);
    sgr[len] = b'm';
    len += 1;
    w.write_all(&sgr[..len])
}

/// `colour`'s SGR parameters into `out` (at least 20 bytes), `base` 30 for
/// the foreground and 40 for the background; how many bytes were written.
fn colour_params(out: &mut [u8], colour: Color, base: u8) -> usize {
    let basic = |i: u8| if i < 8 { base + i } else { base + 60 + i - 8 };
    match colour {
        Color::Reset => put_number(out, u16::from(base + 9)),
        Color::Indexed(i) if i < 16 => put_number(out, u16::from(basic(i))),
        Color::Indexed(i) => {
            let mut n = put_number(out, u16::from(base + 8));
            out[n..n + 3].copy_from_slice(b";5;");
            n += 3;
            n + put_number(&mut out[n..], u16::from(i))
        }
        Color::Rgb(r, g, b) => {
            let mut n = put_number(out, u16::from(base + 8));
            out[n..n + 2].copy_from_slice(b";2");
            n += 2;
            for c in [r, g, b] {
                out[n] = b';';
                n += 1;
                n += put_number(&mut out[n..], u16::from(c));
            }
            n
        }
        named => put_number(out, u16::from(basic(palette_index(named).unwrap_or(0)))),
    }
}

/// The palette index of one of ratatui's 16 named colours (`None` for
/// `Reset`, `Rgb` and `Indexed`).
pub fn palette_index(colour: Color) -> Option<u8> {
    Some(match colour {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        _ => return None,
    })
}

fn put_number(out: &mut [u8], n: u16) -> usize {
    if n >= 100 {
        out[0] = b'0' + (n / 100) as u8;
        out[1] = b'0' + (n / 10 % 10) as u8;
        out[2] = b'0' + (n % 10) as u8;
        3
    } else if n >= 10 {
        out[0] = b'0' + (n / 10) as u8;
        out[1] = b'0' + (n % 10) as u8;
        2
    } else {
        out[0] = b'0' + n as u8;
        1
    }
}

fn crossterm_colour(colour: Color) -> CrosstermColor {
    match colour {
        Color::Reset => CrosstermColor::Reset,
        Color::Rgb(r, g, b) => CrosstermColor::Rgb { r, g, b },
        Color::Indexed(i) => CrosstermColor::AnsiValue(i),
        named => CrosstermColor::AnsiValue(palette_index(named).unwrap_or(0)),
    }
}

/// The attributes that change from `from` to `to`, as crossterm's backend
/// writes them (bold and dim share one reset).
fn write_modifier_change(w: &mut impl Write, from: Modifier, to: Modifier) -> io::Result<()> {
    let removed = from - to;
    let added = to - from;
    if removed.contains(Modifier::REVERSED) {
        queue!(w, SetAttribute(Attribute::NoReverse))?;
    }
    let reset_intensity = removed.intersects(Modifier::BOLD | Modifier::DIM);
    if reset_intensity {
        queue!(w, SetAttribute(Attribute::NormalIntensity))?;
        if to.contains(Modifier::DIM) {
            queue!(w, SetAttribute(Attribute::Dim))?;
        }
        if to.contains(Modifier::BOLD) {
            queue!(w, SetAttribute(Attribute::Bold))?;
        }
    }
    let off = [
        (Modifier::ITALIC, Attribute::NoItalic),
        (Modifier::UNDERLINED, Attribute::NoUnderline),
        (Modifier::CROSSED_OUT, Attribute::NotCrossedOut),
        (Modifier::HIDDEN, Attribute::NoHidden),
    ];
    for (m, attribute) in off {
        if removed.contains(m) {
            queue!(w, SetAttribute(attribute))?;
        }
    }
    if removed.intersects(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK) {
        queue!(w, SetAttribute(Attribute::NoBlink))?;
    }
    if added.contains(Modifier::REVERSED) {
        queue!(w, SetAttribute(Attribute::Reverse))?;
    }
    if added.contains(Modifier::BOLD) && !reset_intensity {
        queue!(w, SetAttribute(Attribute::Bold))?;
    }
    let on = [
        (Modifier::ITALIC, Attribute::Italic),
        (Modifier::UNDERLINED, Attribute::Underlined),
    ];
    for (m, attribute) in on {
        if added.contains(m) {
            queue!(w, SetAttribute(attribute))?;
        }
    }
    if added.contains(Modifier::DIM) && !reset_intensity {
        queue!(w, SetAttribute(Attribute::Dim))?;
    }
    let on = [
        (Modifier::CROSSED_OUT, Attribute::CrossedOut),
        (Modifier::HIDDEN, Attribute::Hidden),
        (Modifier::SLOW_BLINK, Attribute::SlowBlink),
        (Modifier::RAPID_BLINK, Attribute::RapidBlink),
    ];
    for (m, attribute) in on {
        if added.contains(m) {
            queue!(w, SetAttribute(attribute))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    fn drawn(style: Style) -> String {
        let mut backend = FrameBackend::new(Vec::new());
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 1));
        buf[(0, 0)].set_symbol("x").set_style(style);
        let cells = buf.content.iter().map(|c| (0, 0, c));
        backend.draw(cells).expect("drawing to a Vec");
        String::from_utf8(backend.writer().clone()).expect("UTF-8")
    }

    #[test]
    fn basic_colours_are_written_in_their_short_forms() {
        let bold_red = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
        assert_eq!(
            drawn(bold_red),
            "\x1b[1;1H\x1b[1m\x1b[31;49mx\x1b[39m\x1b[49m\x1b[59m\x1b[0m"
        );
        let bright = Style::new().fg(Color::White).bg(Color::DarkGray);
        assert!(drawn(bright).contains("\x1b[97;100mx"));
        let black_on_blue = Style::new().fg(Color::Black).bg(Color::LightBlue);
        assert!(drawn(black_on_blue).contains("\x1b[30;104mx"));
    }

    #[test]
    fn other_colours_are_written_as_crossterm_does() {
        let style = Style::new()
            .fg(Color::Indexed(200))
            .bg(Color::Rgb(1, 22, 255));
        assert!(drawn(style).contains("\x1b[38;5;200;48;2;1;22;255mx"));
        let style = Style::new().fg(Color::Indexed(3)).bg(Color::Indexed(12));
        assert!(drawn(style).contains("\x1b[33;104mx"));
        let underline = Style::new().underline_color(Color::Indexed(9));
        assert!(drawn(underline).contains("\x1b[58;5;9mx"));
    }

    /// Everything but the colours is written byte for byte as crossterm's
    /// own backend writes it.
    #[test]
    fn attributes_and_moves_are_crossterms() {
        let styles = [
            Style::new().add_modifier(Modifier::all()),
            Style::new().add_modifier(Modifier::DIM | Modifier::ITALIC),
            Style::new().add_modifier(Modifier::REVERSED | Modifier::SLOW_BLINK),
            Style::new(),
        ];
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 2));
        for (i, style) in styles.iter().enumerate() {
            let x = (i * 2 % 6) as u16;
            buf[(x, (i / 3) as u16)].set_symbol("é").set_style(*style);
        }
        let cells: Vec<_> = buf
            .content
            .iter()
            .enumerate()
            .map(|(i, c)| ((i % 6) as u16, (i / 6) as u16, c))
            .collect();
        let mut ours = FrameBackend::new(Vec::new());
        ours.draw(cells.iter().copied()).expect("drawing to a Vec");
        let mut theirs = CrosstermBackend::new(Vec::new());
        theirs
            .draw(cells.iter().copied())
            .expect("drawing to a Vec");
        assert_eq!(
            String::from_utf8_lossy(ours.writer()),
            String::from_utf8_lossy(theirs.writer())
        );
    }
}
