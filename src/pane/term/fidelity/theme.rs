//! Light or dark (mode 2031): what the attached terminals say of their
//! theme, for programs that ask (`CSI ? 996 n`) or subscribed
//! (`CSI ? 2031 h`, told `CSI ? 997 ; 1 n` dark / `2 n` light on a change).
//! A terminal that speaks 2031 tells its theme when tilework subscribes it
//! at attach and on every change (the pane's `AttachedFacts::dark`); one
//! that does not is judged by the background colour it answered to OSC 11.

use crate::config::colour::Rgb;

/// Dark (`Some(true)`) or light, as a terminal `told`, else as the
/// background `background` is; `None` when nothing is known.
pub fn dark(told: Option<bool>, background: Option<Rgb>) -> Option<bool> {
    told.or_else(|| background.map(is_dark))
}

/// Whether a background is dark: its relative luminance under a half.
pub fn is_dark(colour: Rgb) -> bool {
    let (r, g, b) = super::colour_sets::to_rgb8(colour);
    let luminance = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    luminance < 128.0
}

/// The 2031 report of `dark`: `CSI ? 997 ; 1 n` (dark) or `2 n` (light).
pub fn report(dark: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(if dark {
        b"\x1b[?997;1n"
    } else {
        b"\x1b[?997;2n"
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_is_dark_and_white_is_light() {
        assert!(is_dark(Rgb(0x1e1e, 0x1e1e, 0x2e2e)));
        assert!(!is_dark(Rgb(0xfdfd, 0xf6f6, 0xe3e3)));
    }
}
