//! `terminal_features = [...]`: what the user says their terminal draws,
//! for terminals that cannot be asked (tmux's `terminal-features`), and
//! `hyperlinks`, the switch for OSC 8 links.

use std::ops::Range;

use toml::Spanned;

/// What the config says the user's terminal draws, beyond what it answers
/// when asked at attach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerminalFeatures {
    /// `styled-underlines` (tmux's `usstyle`): `4:2`..`4:5` and underline
    /// colours (`58`).
    pub styled_underlines: bool,
    /// `underline-colours`: `58` alone.
    pub underline_colours: bool,
    /// `progress`: programs' progress (`OSC 9 ; 4`) is passed on, as to
    /// the terminals known to draw it (`app::progress_forward`).
    pub progress: bool,
}

/// The names `terminal_features` takes.
const NAMES: &str = "\"styled-underlines\", \"underline-colours\", \"hyperlinks\", \"progress\"";

/// Reads the list; an unknown name is an error at its place.
pub fn parse(list: &[Spanned<String>]) -> Result<TerminalFeatures, (Range<usize>, String)> {
    let mut features = TerminalFeatures::default();
    for name in list {
        match name.get_ref().as_str() {
            "styled-underlines" | "usstyle" => {
                features.styled_underlines = true;
                features.underline_colours = true;
            }
            "underline-colours" | "underline-colors" => features.underline_colours = true,
            "progress" => features.progress = true,
            // Links are drawn unless `hyperlinks = false`: terminals that
            // do not know OSC 8 ignore it.
            "hyperlinks" => {}
            other => {
                return Err((
                    name.span(),
                    format!("unknown terminal feature {other:?}; known: {NAMES}"),
                ));
            }
        }
    }
    Ok(features)
}
