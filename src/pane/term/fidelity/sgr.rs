//! SGR forms vt100 misreads, rewritten into ones it reads.
//!
//! vt100 0.18.1 takes `38:2:r:g:b` but not the ITU form with a colour-space
//! slot, `38:2::r:g:b` (which `tmux`, kitty and many programs send): the
//! text fell back to the default colour. Curly and other styled underlines
//! (`4:3`) and double underline (`21`) did nothing; they now underline, the
//! closest vt100 can store. The underline colour (`58`) is dropped whole: in
//! its `58;5;n` and `58;2;r;g;b` forms vt100 read the arguments as
//! attributes of their own (`58;2;1;…` turned on dim and bold).

use std::io::Write as _;

/// One attribute of an SGR as vt100 should read it.
enum Attr {
    /// Passed on as it is.
    Plain(u16),
    /// `38` or `48` with an indexed colour.
    Indexed(u16, u16),
    /// `38` or `48` with a direct colour.
    Direct(u16, [u16; 3]),
    /// Nothing vt100 can show (an underline colour, an unknown form).
    Dropped,
}

/// Walks the parameters as vt100 does (a `38`, `48` or `58` followed by
/// `;`-separated arguments takes them along), calling `each` per attribute
/// with whether vt100 would read it otherwise.
fn walk(params: &vte::Params, mut each: impl FnMut(Attr, bool)) {
    let mut iter = params.iter();
    while let Some(param) = iter.next() {
        let (attr, changed) = match param {
            [n @ (38 | 48 | 58)] => {
                let n = *n;
                let mut next = || iter.next().and_then(|p| p.first().copied());
                let attr = match next() {
                    Some(5) => match next() {
                        Some(i) if n != 58 => Attr::Indexed(n, i),
                        _ => Attr::Dropped,
                    },
                    Some(2) => match (next(), next(), next()) {
                        (Some(r), Some(g), Some(b)) if n != 58 => Attr::Direct(n, [r, g, b]),
                        _ => Attr::Dropped,
                    },
                    _ => Attr::Dropped,
                };
                let changed = matches!(attr, Attr::Dropped);
                (attr, changed)
            }
            [n @ (38 | 48), 2, r, g, b] => (Attr::Direct(*n, [*r, *g, *b]), false),
            [n @ (38 | 48), 2, _, r, g, b, ..] => (Attr::Direct(*n, [*r, *g, *b]), true),
            [n @ (38 | 48), 5, i] => (Attr::Indexed(*n, *i), false),
            [4, 0] => (Attr::Plain(24), true),
            [4, _] | [21] => (Attr::Plain(4), true),
            [n] => (Attr::Plain(*n), false),
            [] => (Attr::Plain(0), false),
            _ => (Attr::Dropped, true),
        };
        each(attr, changed);
    }
}

/// Whether vt100 would misread this SGR's parameters.
pub fn needs_rewrite(params: &vte::Params) -> bool {
    // Cheap for the everyday `1;31`: one look at each parameter.
    let suspicious = params.iter().any(|p| p.len() > 1 || matches!(p, [21 | 58]));
    if !suspicious {
        return false;
    }
    let mut rewrite = false;
    walk(params, |_, changed| rewrite |= changed);
    rewrite
}

/// Appends the SGR vt100 reads as meant (nothing when no attribute is
/// left: an empty SGR would reset them all).
pub fn rewrite(params: &vte::Params, out: &mut Vec<u8>) {
    let mut body = Vec::new();
    // Writing to a Vec cannot fail.
    walk(params, |attr, _| {
        let sep = if body.is_empty() { "" } else { ";" };
        let _ = match attr {
            Attr::Plain(n) => write!(body, "{sep}{n}"),
            Attr::Indexed(n, i) => write!(body, "{sep}{n};5;{i}"),
            Attr::Direct(n, [r, g, b]) => write!(body, "{sep}{n};2;{r};{g};{b}"),
            Attr::Dropped => Ok(()),
        };
    });
    if !body.is_empty() {
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(&body);
        out.push(b'm');
    }
}

/// Whether the pen's background is other than the default after `params`
/// (`was`: before it). Colour forms are skipped whole, so `38;5;41` sets
/// no background.
pub fn sets_background(params: &vte::Params, was: bool) -> bool {
    if params.is_empty() {
        return false;
    }
    let mut background = was;
    // Parameters left of a `38;5;n` / `38;2;r;g;b` written with
    // semicolons: its numbers are parameters of their own.
    let mut skip = 0;
    let mut colour_form = false;
    for p in params {
        let code = p.first().copied().unwrap_or(0);
        if colour_form {
            colour_form = false;
            skip = match code {
                5 => 1,
                2 => 3,
                _ => 0,
            };
            continue;
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        match code {
            0 | 49 => background = false,
            40..=47 | 100..=107 => background = true,
            38 | 48 | 58 => {
                background |= code == 48;
                colour_form = p.len() == 1;
            }
            _ => {}
        }
    }
    background
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    /// The parameters vte reads from `CSI <body> m`.
    fn rewritten(body: &str) -> Option<String> {
        struct Grab(Option<String>);
        impl vte::Perform for Grab {
            fn csi_dispatch(&mut self, params: &vte::Params, _: &[u8], _: bool, _: char) {
                self.0 = needs_rewrite(params).then(|| {
                    let mut out = Vec::new();
                    rewrite(params, &mut out);
                    String::from_utf8(out).unwrap()
                });
            }
        }
        let mut grab = Grab(None);
        vte::Parser::new().advance(&mut grab, format!("\x1b[{body}m").as_bytes());
        grab.0
    }

    fn background_after(body: &str, was: bool) -> bool {
        struct Bg(bool, bool);
        impl vte::Perform for Bg {
            fn csi_dispatch(&mut self, params: &vte::Params, _: &[u8], _: bool, _: char) {
                self.1 = sets_background(params, self.0);
            }
        }
        let mut bg = Bg(was, was);
        vte::Parser::new().advance(&mut bg, format!("\x1b[{body}m").as_bytes());
        bg.1
    }

    #[test]
    fn the_background_is_followed_through_every_colour_form() {
        for (body, was, set) in [
            ("44", false, true),
            ("1;104", false, true),
            ("48;5;1", false, true),
            ("48:2::1:2:3", false, true),
            ("38;5;41", false, false),
            ("38;2;44;45;46;1", false, false),
            ("1", true, true),
            ("", true, false),
            ("0", true, false),
            ("49", true, false),
            ("44;0", false, false),
            ("38;5;1;49", true, false),
        ] {
            assert_eq!(background_after(body, was), set, "{body:?} after {was}");
        }
    }

    #[test]
    fn everyday_sgrs_pass_untouched() {
        for body in [
            "",
            "0",
            "1;31",
            "38;5;21",
            "38;2;21;58;4",
            "38:2:1:2:3",
            "48:5:9",
            "4",
            "24",
        ] {
            assert_eq!(rewritten(body), None, "{body}");
        }
    }

    #[test]
    fn forms_vt100_misreads_are_rewritten() {
        let cases = [
            ("38:2::1:2:3", "\x1b[38;2;1;2;3m"),
            ("1;48:2:0:10:20:30;4", "\x1b[1;48;2;10;20;30;4m"),
            ("4:3", "\x1b[4m"),
            ("4:0", "\x1b[24m"),
            ("21", "\x1b[4m"),
            ("58;2;1;2;3;31", "\x1b[31m"),
            ("58:5:9;1", "\x1b[1m"),
            ("58;5;9", ""),
        ];
        for (body, want) in cases {
            assert_eq!(rewritten(body).as_deref(), Some(want), "{body}");
        }
    }
}
