//! `clipboard_read`: whether a program in a pane may read the user's
//! clipboard (`OSC 52 ; c ; ?`). Off by default: a program, or a file
//! you `cat`, could otherwise take whatever you copied (a password).

/// What becomes of a program's clipboard read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClipboardRead {
    /// Never answered, as before the setting existed (and as tmux does
    /// without `get-clipboard`).
    #[default]
    Off,
    /// The status bar asks (`pane 3 wants to read the clipboard: y/n`), as
    /// ghostty and kitty do.
    Ask,
    /// Passed to the terminal without asking (tmux 3.7's `get-clipboard`).
    Allow,
}

impl ClipboardRead {
    pub fn name(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Ask => "ask",
            Self::Allow => "allow",
        }
    }

    /// The setting's value in the config file.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "off" => Ok(Self::Off),
            "ask" => Ok(Self::Ask),
            "allow" => Ok(Self::Allow),
            other => Err(format!(
                "clipboard_read is \"off\", \"ask\" or \"allow\", not {other:?}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_parses_back() {
        for read in [ClipboardRead::Off, ClipboardRead::Ask, ClipboardRead::Allow] {
            assert_eq!(ClipboardRead::parse(read.name()), Ok(read));
        }
        assert!(ClipboardRead::parse("yes").is_err());
    }
}
