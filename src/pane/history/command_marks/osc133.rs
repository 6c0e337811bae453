//! What an OSC 133 (semantic prompt) sequence says. The pane's escape
//! scanner finds them in the output (`escape_scanner::osc133`, no second
//! pass over it) and hands over each body after `133;`.
//!
//! The forms taken (FinalTerm's, as kitty, wezterm, iTerm2, fish 4,
//! starship and oh-my-posh write them):
//! - `A` (a prompt starts; `k=s` / `k=r` mark a continuation or right
//!   prompt, which start no command), wezterm's `P` (the same, `k=i` the
//!   primary prompt), `N` (a new command: the last one ended);
//! - `B` (the command line starts), `C` (its output starts; kitty's
//!   `cmdline=` / `cmdline_url=` carry the command line);
//! - `D` or `D;STATUS` (the command finished), with `aid=`, `cl=` and
//!   other `key=value` options accepted and ignored where they say
//!   nothing we use.

use memchr::memchr;

/// The longest command line kept from `cmdline=`.
pub const MAX_COMMAND_LINE: usize = 1024;

/// What one OSC 133 sequence says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Osc133 {
    /// A (primary) prompt starts here.
    Prompt,
    /// The command line the user types starts here.
    Input,
    /// The command's output starts here; the command line when the shell
    /// told it.
    Output { command_line: Option<String> },
    /// The command finished, with its exit status when told.
    Finished { status: Option<i32> },
    /// The last command ended and a new prompt starts (`N`).
    NewCommand,
    /// A continuation or right prompt, a fresh-line request, or a letter
    /// we do not know.
    Ignored,
}

/// Reads the body after `133;`.
pub fn parse(body: &[u8]) -> Osc133 {
    let mut fields = body.split(|&b| b == b';');
    let kind = fields.next().unwrap_or_default();
    let rest: Vec<&[u8]> = fields.collect();
    let option = |key: &[u8]| {
        rest.iter().find_map(|f| {
            let (k, v) = split_option(f)?;
            (k == key).then_some(v)
        })
    };
    match kind {
        b"A" | b"P" => match option(b"k") {
            Some(b"s" | b"r" | b"c") => Osc133::Ignored,
            _ => Osc133::Prompt,
        },
        b"N" => Osc133::NewCommand,
        b"B" | b"I" => Osc133::Input,
        b"C" => {
            let command_line = option(b"cmdline_url")
                .map(percent_decoded)
                .or_else(|| option(b"cmdline").map(<[u8]>::to_vec))
                .map(|line| clean_command_line(&line));
            Osc133::Output { command_line }
        }
        b"D" => {
            // The status is the first field that is not an option.
            let status = rest
                .iter()
                .find(|f| split_option(f).is_none())
                .and_then(|f| std::str::from_utf8(f).ok())
                .and_then(|s| s.trim().parse::<i32>().ok());
            Osc133::Finished { status }
        }
        _ => Osc133::Ignored,
    }
}

fn split_option(field: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = memchr(b'=', field)?;
    Some((&field[..eq], &field[eq + 1..]))
}

fn percent_decoded(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Some(v) = std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// A command line a program sent: no controls, capped.
fn clean_command_line(line: &[u8]) -> String {
    String::from_utf8_lossy(line)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_COMMAND_LINE)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kitty_and_wezterm_forms() {
        assert_eq!(parse(b"A;k=s"), Osc133::Ignored);
        assert_eq!(parse(b"P;k=i"), Osc133::Prompt);
        assert_eq!(parse(b"A;aid=12;cl=m"), Osc133::Prompt);
        assert_eq!(parse(b"D"), Osc133::Finished { status: None });
        assert_eq!(parse(b"D;aid=3;0"), Osc133::Finished { status: Some(0) });
        assert_eq!(
            parse(b"C;cmdline_url=echo%20hi"),
            Osc133::Output {
                command_line: Some("echo hi".into())
            }
        );
        assert_eq!(parse(b"N"), Osc133::NewCommand);
    }
}
