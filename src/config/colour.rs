//! A colour as terminals report it (OSC 10/11/12 answers) and as the
//! config writes it: what a program asking for the terminal's colours is
//! told.

/// A colour as xterm reports it: 16 bits a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u16, pub u16, pub u16);

/// Reads `rgb:r/g/b` (1 to 4 hex digits a channel, as terminals answer) or
/// `#rrggbb`.
pub fn parse_colour(spec: &str) -> Option<Rgb> {
    let spec = spec.trim();
    if let Some(hex) = spec.strip_prefix('#') {
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let channel = |i: usize| channel(&hex[i..i + 2]);
        return Some(Rgb(channel(0)?, channel(2)?, channel(4)?));
    }
    let mut parts = spec.strip_prefix("rgb:")?.split('/');
    let rgb = Rgb(
        channel(parts.next()?)?,
        channel(parts.next()?)?,
        channel(parts.next()?)?,
    );
    parts.next().is_none().then_some(rgb)
}

/// One channel of 1 to 4 hex digits, scaled to 16 bits.
fn channel(hex: &str) -> Option<u16> {
    if hex.is_empty() || hex.len() > 4 {
        return None;
    }
    let value = u32::from_str_radix(hex, 16).ok()?;
    let max = (1u32 << (4 * hex.len())) - 1;
    u16::try_from(value * 0xffff / max).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_as_terminals_answer_and_as_configs_write_them() {
        assert_eq!(
            parse_colour("rgb:ffff/8080/0000"),
            Some(Rgb(0xffff, 0x8080, 0))
        );
        assert_eq!(parse_colour("rgb:f/80/000"), Some(Rgb(0xffff, 0x8080, 0)));
        assert_eq!(parse_colour("#1e1e2e"), Some(Rgb(0x1e1e, 0x1e1e, 0x2e2e)));
        assert_eq!(parse_colour("rgb:1/2"), None);
        assert_eq!(parse_colour("#12345"), None);
        assert_eq!(parse_colour("blue"), None);
    }
}
