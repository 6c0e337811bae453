//! How a terminal joins a workspace (`tilework attach`'s `-d` and `-r`)
//! and the environment it brings, as words of the attach request.
//!
//! The environment is the attaching shell's values of the variables the
//! config's `update_environment` names (tmux's `update-environment`):
//! after a reattach over a new ssh connection, new panes get the new
//! `SSH_AUTH_SOCK`, `DISPLAY`, ... A variable named there but unset in the
//! attaching shell is sent as unset: new panes lose it, as in tmux.

/// How an attaching terminal treats the terminals already attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttachMode {
    /// Joins them: every attached terminal shows the workspace and types
    /// into it (tmux's `attach`).
    #[default]
    Join,
    /// Detaches them first (tmux's `attach -d`).
    DetachOthers,
    /// Joins them, looking only: its keys and mouse scroll its own view
    /// and detach, nothing else (tmux's `attach -r`).
    ReadOnly,
}

impl AttachMode {
    fn word(self) -> Option<&'static str> {
        match self {
            AttachMode::Join => None,
            AttachMode::DetachOthers => Some("detach-others"),
            AttachMode::ReadOnly => Some("read-only"),
        }
    }
}

/// What the attach request carries besides the terminal's facts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Joining {
    pub mode: AttachMode,
    /// Each variable of `update_environment`: its value in the attaching
    /// shell, or `None` where it is unset there.
    pub env: Vec<(String, Option<String>)>,
    /// The tab (from 1) and pane to show once attached (`C-b s` chose
    /// them in another workspace).
    pub select: Option<(usize, Option<u32>)>,
}

/// The longest value sent (a path or a display name is far shorter; the
/// request line has room for a dozen of these).
const MAX_VALUE: usize = 256;

impl Joining {
    /// The attaching process's own values of `names`.
    pub fn from_process(mode: AttachMode, names: &[String]) -> Self {
        let env = names
            .iter()
            .filter(|name| valid_name(name))
            .map(|name| {
                let value = std::env::var(name).ok().filter(|v| v.len() <= MAX_VALUE);
                (name.clone(), value)
            })
            .collect();
        Self {
            mode,
            env,
            select: None,
        }
    }

    /// The words after `attach` (each starts with a space): ` mode=…`,
    /// ` env=NAME=VALUE` with the value percent-encoded, ` unset=NAME`.
    pub fn words(&self) -> String {
        let mut words = String::new();
        if let Some(mode) = self.mode.word() {
            words.push_str(" mode=");
            words.push_str(mode);
        }
        words.push_str(&select_words(self.select));
        for (name, value) in &self.env {
            match value {
                Some(value) => {
                    words.push_str(" env=");
                    words.push_str(name);
                    words.push('=');
                    words.push_str(&encode(value));
                }
                None => {
                    words.push_str(" unset=");
                    words.push_str(name);
                }
            }
        }
        words
    }

    /// The reverse of [`Joining::words`]; other words (the terminal's
    /// facts, a newer client's) are skipped.
    pub fn parse(words: &str) -> Self {
        let mut joining = Self {
            select: parse_select(words),
            ..Self::default()
        };
        for word in words.split_whitespace() {
            if let Some(mode) = word.strip_prefix("mode=") {
                joining.mode = match mode {
                    "detach-others" => AttachMode::DetachOthers,
                    "read-only" => AttachMode::ReadOnly,
                    _ => AttachMode::Join,
                };
            } else if let Some(pair) = word.strip_prefix("env=")
                && let Some((name, value)) = pair.split_once('=')
                && valid_name(name)
                && let Some(value) = decode(value)
            {
                joining.env.push((name.to_string(), Some(value)));
            } else if let Some(name) = word.strip_prefix("unset=")
                && valid_name(name)
            {
                joining.env.push((name.to_string(), None));
            }
        }
        joining
    }
}

/// ` tab=N pane=M` for a tab and pane to show, nothing for none.
pub fn select_words(select: Option<(usize, Option<u32>)>) -> String {
    match select {
        None => String::new(),
        Some((tab, None)) => format!(" tab={tab}"),
        Some((tab, Some(pane))) => format!(" tab={tab} pane={pane}"),
    }
}

/// The reverse of [`select_words`]; other words are skipped.
pub fn parse_select(words: &str) -> Option<(usize, Option<u32>)> {
    let field = |name: &str| {
        words
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
    };
    let tab = field("tab")?.parse().ok()?;
    Some((tab, field("pane").and_then(|p| p.parse().ok())))
}

/// A variable name a shell would take; anything else is not passed on.
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

/// Bytes that travel as they are; everything else (spaces, `%`, `=`,
/// control characters, non-ASCII) as `%XX`.
fn plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"/._:,@+-".contains(&byte)
}

fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for &byte in value.as_bytes() {
        if plain(byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `None` for a malformed encoding, or a value that is not UTF-8 or holds
/// a control character (it would reach every new pane's environment).
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    let value = String::from_utf8(out).ok()?;
    (!value.chars().any(char::is_control) && value.len() <= MAX_VALUE).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joining_survives_its_words() {
        let joining = Joining {
            mode: AttachMode::ReadOnly,
            env: vec![
                ("SSH_AUTH_SOCK".into(), Some("/tmp/ssh-x 1/agent.42".into())),
                ("DISPLAY".into(), Some("localhost:10.0".into())),
                (
                    "SSH_CONNECTION".into(),
                    Some("10.0.0.1 5022 10.0.0.2 22".into()),
                ),
                ("KRB5CCNAME".into(), None),
                ("ODD".into(), Some("a=b%c ü".into())),
            ],
            select: Some((3, Some(12))),
        };
        let words = joining.words();
        assert!(!words.contains("a=b%c"), "{words}");
        assert_eq!(Joining::parse(&format!(" fg=1/2/3 kitty{words}")), joining);
        assert_eq!(Joining::parse(""), Joining::default());
    }

    #[test]
    fn bad_names_and_values_are_not_passed_on() {
        let parsed = Joining::parse(" env=LD_PRELOAD%=x env=A=%1 env=B=%0A env=1X=y unset=C;D");
        assert!(parsed.env.is_empty(), "{parsed:?}");
        let sent = Joining::from_process(AttachMode::Join, &["NOT A NAME".into()]);
        assert!(sent.env.is_empty());
    }
}
