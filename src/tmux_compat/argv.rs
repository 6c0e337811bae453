//! tmux's command line: the options before the command, commands split on
//! `;`, and each command's flags read as tmux's getopt reads them (flags
//! bundled, `-F FMT` or `-FFMT`, `--` ends them).

use std::collections::HashMap;

/// The options before the command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Globals {
    /// `-L NAME`.
    pub label: Option<String>,
    /// `-S PATH`.
    pub socket: Option<String>,
    /// `-V`.
    pub version: bool,
    /// `-C`: control mode, which tilework does not speak.
    pub control: bool,
}

/// Reads the options before the command; returns them and the rest.
pub fn globals(args: &[String]) -> Result<(Globals, Vec<String>), String> {
    let mut globals = Globals::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        let mut chars = arg[1..].chars();
        while let Some(flag) = chars.next() {
            match flag {
                'L' | 'S' | 'f' | 'c' | 'T' => {
                    let rest: String = chars.by_ref().collect();
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i)
                            .cloned()
                            .ok_or_else(|| format!("option requires an argument -- {flag}"))?
                    } else {
                        rest
                    };
                    match flag {
                        'L' => globals.label = Some(value),
                        'S' => globals.socket = Some(value),
                        // -f: tmux's config file, which tilework does not
                        // read (its own is config.toml); -c: a shell
                        // command, run as `run-shell` would.
                        'c' => return Ok((globals, vec!["run-shell".into(), value])),
                        _ => {}
                    }
                }
                'V' => globals.version = true,
                'C' => globals.control = true,
                // -2, -u, -l, -N, -D, -v: no bearing here.
                '2' | 'u' | 'l' | 'N' | 'D' | 'v' | 'q' => {}
                other => return Err(format!("unknown option -- {other}")),
            }
        }
        i += 1;
    }
    Ok((globals, args[i..].to_vec()))
}

/// Splits the words after the options into commands on `;` (a word of its
/// own, or a word's trailing `;`, as `\;` reaches us from a shell); `\;`
/// at a word's end stays a `;` of the word.
pub fn split_commands(words: &[String]) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    for word in words {
        if word == ";" {
            commands.push(Vec::new());
            continue;
        }
        if let Some(head) = word.strip_suffix("\\;") {
            if let Some(last) = commands.last_mut() {
                last.push(format!("{head};"));
            }
            continue;
        }
        if let Some(head) = word.strip_suffix(';') {
            if let Some(last) = commands.last_mut()
                && !head.is_empty()
            {
                last.push(head.to_string());
            }
            commands.push(Vec::new());
            continue;
        }
        if let Some(last) = commands.last_mut() {
            last.push(word.clone());
        }
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// A command's flags and arguments, as its getopt string reads them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Parsed {
    flags: HashMap<char, Vec<String>>,
    pub args: Vec<String>,
}

impl Parsed {
    pub fn has(&self, flag: char) -> bool {
        self.flags.contains_key(&flag)
    }

    /// The last value of `-flag` (tmux keeps the last).
    pub fn value(&self, flag: char) -> Option<&str> {
        self.flags
            .get(&flag)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of `-flag`, in order (`-e A=1 -e B=2`).
    pub fn values(&self, flag: char) -> &[String] {
        self.flags.get(&flag).map_or(&[], Vec::as_slice)
    }

    /// How many times `-flag` was given (`-a -a`).
    pub fn count(&self, flag: char) -> usize {
        self.flags.get(&flag).map_or(0, Vec::len)
    }
}

/// Reads `args` by `spec` (tmux's getopt string: a letter, `:` after one
/// that takes a value). Flags stop at the first word that is not one, or
/// `--`.
pub fn parse(command: &str, spec: &str, args: &[String]) -> Result<Parsed, String> {
    let takes = |flag: char| -> Option<bool> {
        let at = spec.find(flag)?;
        Some(spec[at + flag.len_utf8()..].starts_with(':'))
    };
    let mut parsed = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg.len() == 1 {
            break;
        }
        let body: Vec<char> = arg[1..].chars().collect();
        let mut j = 0;
        while j < body.len() {
            let flag = body[j];
            match takes(flag) {
                None if flag != ':' => {
                    return Err(format!("command {command}: unknown flag -{flag}"));
                }
                None => return Err(format!("command {command}: unknown flag -{flag}")),
                Some(false) => {
                    parsed.flags.entry(flag).or_default().push(String::new());
                    j += 1;
                }
                Some(true) => {
                    let rest: String = body[j + 1..].iter().collect();
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i).cloned().ok_or_else(|| {
                            format!("command {command}: -{flag} expects an argument")
                        })?
                    } else {
                        rest
                    };
                    parsed.flags.entry(flag).or_default().push(value);
                    break;
                }
            }
        }
        i += 1;
    }
    parsed.args = args[i..].to_vec();
    Ok(parsed)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn options_before_the_command_are_read_and_the_rest_kept() {
        let (g, rest) = globals(&words("-L x -2 -u -f /dev/null new -d")).unwrap();
        assert_eq!(g.label.as_deref(), Some("x"));
        assert_eq!(rest, words("new -d"));
        let (g, rest) = globals(&words("-Ssock -V")).unwrap();
        assert_eq!(g.socket.as_deref(), Some("sock"));
        assert!(g.version);
        assert!(rest.is_empty());
        assert!(globals(&words("-Z ls")).is_err());
    }

    #[test]
    fn commands_split_on_semicolons_alone_or_trailing() {
        let cmds = split_commands(&words("neww ; splitw -h \\; lsp;"));
        assert_eq!(cmds, vec![words("neww"), words("splitw -h ; lsp")]);
        let cmds = split_commands(&words("neww; splitw -h ; lsp"));
        assert_eq!(cmds, vec![words("neww"), words("splitw -h"), words("lsp")]);
    }

    #[test]
    fn flags_bundle_take_values_joined_or_apart_and_stop_at_words() {
        let p = parse(
            "split-window",
            "bdhvPF:t:e:",
            &words("-hdP -F#{pane_id} -t %1 -e A=1 -e B=2 cat -n"),
        )
        .unwrap();
        assert!(p.has('h') && p.has('d') && p.has('P'));
        assert_eq!(p.value('F'), Some("#{pane_id}"));
        assert_eq!(p.value('t'), Some("%1"));
        assert_eq!(p.values('e'), ["A=1", "B=2"]);
        assert_eq!(p.args, words("cat -n"));
        let p = parse("send-keys", "lt:", &words("-t %1 -- -l x")).unwrap();
        assert_eq!(p.args, words("-l x"));
        let err = parse("kill-pane", "at:", &words("-z")).unwrap_err();
        assert_eq!(err, "command kill-pane: unknown flag -z");
    }
}
