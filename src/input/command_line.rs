//! `C-b :`, tmux's command prompt: one line read as `tilework action`
//! and the CLI read theirs. An action's name with its argument written
//! apart or not (`focus left`, `focus-left`, `action new-tab`), the
//! prompting actions with their answer (`rename-tab logs`, `select-tab 2`,
//! `move-tab 1`), and `send-keys` and `run` with the CLI's own options
//! (clap parses them, so they are exactly the CLI's). Words are split as a
//! shell would, with quotes and backslashes; Tab completes the command's
//! name.

use clap::Parser;

use crate::cli::{Cli, SessionCommand, SplitSide};
use crate::config::action::Action;
use crate::input::remote_run::RemoteRun;
use crate::session::script::{Call, Place, parse_args};

/// What a command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandLine {
    Action(Action),
    /// A prompting action given its answer.
    RenameTab(String),
    SelectTab(String),
    MoveTab(String),
    RenameWorkspace(String),
    /// `send-keys` or `run`: what the loop does for a script.
    Script(Call),
    /// `run --host HOST`: a remote pane.
    RemoteRun(RemoteRun),
}

/// The commands beyond the actions' names.
const CLI_COMMANDS: [&str; 3] = ["send-keys", "run", "action"];

/// Commands whose answer is text for a terminal, not for the status bar.
const PRINTING: [&str; 6] = ["capture", "list-panes", "ls", "list", "attach", "kill"];

pub fn parse(line: &str) -> Result<CommandLine, String> {
    let mut words = split_words(line)?;
    if words.first().is_some_and(|w| w == "action") {
        words.remove(0);
    }
    let Some(first) = words.first().cloned() else {
        return Err("no command given (Tab lists them)".into());
    };
    let rest = words[1..].join(" ");
    match first.as_str() {
        "send-keys" | "run" => return script_call(&words),
        name if PRINTING.contains(&name) => {
            return Err(format!("`{name}` prints its answer: run it from a shell"));
        }
        "rename-tab" if words.len() > 1 => return Ok(CommandLine::RenameTab(rest)),
        "select-tab" if words.len() > 1 => return Ok(CommandLine::SelectTab(rest)),
        "move-tab" if words.len() > 1 => return Ok(CommandLine::MoveTab(rest)),
        "rename-workspace" if words.len() > 1 => {
            return Ok(CommandLine::RenameWorkspace(rest));
        }
        _ => {}
    }
    let joined = words.join("-");
    joined
        .parse::<Action>()
        .map(CommandLine::Action)
        .map_err(|_| {
            format!(
                "unknown command `{}` (Tab completes, tilework action --list lists them)",
                words.join(" ")
            )
        })
}

/// `send-keys ...` and `run ...`, through the CLI's own parser.
fn script_call(words: &[String]) -> Result<CommandLine, String> {
    let argv = std::iter::once("tilework".to_string()).chain(words.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|err| first_line(&err.to_string()))?;
    let call = match cli.command {
        Some(SessionCommand::SendKeys {
            pane,
            literal,
            keys,
        }) => Call::SendKeys {
            pane,
            keys: parse_args(&keys, literal),
        },
        Some(SessionCommand::Run {
            split,
            float,
            tab,
            cwd,
            no_save,
            host,
            argv,
        }) => {
            let place = match (split, float, tab) {
                (_, true, _) => Place::Float,
                (_, _, true) => Place::Tab,
                (Some(SplitSide::Down), _, _) => Place::Down,
                _ => Place::Right,
            };
            let cwd = cwd.map(|dir| dir.to_string_lossy().into_owned());
            if let Some(host) = host {
                return Ok(CommandLine::RemoteRun(RemoteRun {
                    place,
                    host,
                    cwd,
                    argv,
                    no_save,
                }));
            }
            Call::Run {
                no_save,
                place,
                cwd,
                argv,
            }
        }
        _ => return Err("expected send-keys or run".into()),
    };
    Ok(CommandLine::Script(call))
}

/// clap's message without its `error: ` and usage lines.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// Every command name the prompt takes, sorted.
pub fn command_names() -> Vec<String> {
    let mut names: Vec<String> = Action::all().iter().map(Action::name).collect();
    names.extend(CLI_COMMANDS.iter().map(|c| c.to_string()));
    names.sort();
    names.dedup();
    names
}

/// Tab on `text`: the command's name completed as far as it is the only
/// one (a space after a whole name), and the names it could still be.
/// Only the first word completes; after it, Tab changes nothing.
pub fn complete(text: &str) -> (String, Vec<String>) {
    let start = text.len() - text.trim_start().len();
    let typed = &text[start..];
    if typed.contains(char::is_whitespace) {
        return (text.to_string(), Vec::new());
    }
    let matches: Vec<String> = command_names()
        .into_iter()
        .filter(|n| n.starts_with(typed))
        .collect();
    let completed = match matches.as_slice() {
        [] => typed.to_string(),
        [only] => format!("{only} "),
        [first, rest @ ..] => rest.iter().fold(first.clone(), |common, name| {
            common
                .chars()
                .zip(name.chars())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect()
        }),
    };
    let candidates = if matches.len() > 1 {
        matches
    } else {
        Vec::new()
    };
    (format!("{}{completed}", &text[..start]), candidates)
}

/// Splits a line into words as a shell does: blanks between words,
/// `'...'` taken as written, `"..."` with `\"` and `\\`, a backslash
/// outside quotes taking the next character as it is.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a \" is not closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::action::Direction;
    use crate::session::script::KeyArg;

    fn words(line: &str) -> Vec<String> {
        split_words(line).expect("splits")
    }

    #[test]
    fn words_split_as_a_shell_splits_them() {
        assert_eq!(
            words("  send-keys  'a b' \"c \\\"d\\\"\" e\\ f "),
            ["send-keys", "a b", "c \"d\"", "e f"]
        );
        assert_eq!(words("''"), [""]);
        assert!(split_words("run -- 'oops").is_err());
    }

    #[test]
    fn actions_are_named_as_tilework_action_names_them() {
        assert_eq!(
            parse("split-right"),
            Ok(CommandLine::Action(Action::SplitRight))
        );
        assert_eq!(
            parse("focus left"),
            Ok(CommandLine::Action(Action::Focus(Direction::Left)))
        );
        assert_eq!(
            parse("action new-tab"),
            Ok(CommandLine::Action(Action::NewTab))
        );
        assert_eq!(
            parse("go-to-tab 3"),
            Ok(CommandLine::Action(Action::GoToTab(3)))
        );
        assert_eq!(
            parse("rename-tab"),
            Ok(CommandLine::Action(Action::RenameTab))
        );
        assert_eq!(
            parse("rename-tab my logs"),
            Ok(CommandLine::RenameTab("my logs".into()))
        );
        let err = parse("split-sideways").expect_err("unknown");
        assert!(err.starts_with("unknown command `split-sideways`"), "{err}");
        assert!(parse("   ").is_err());
        assert!(
            parse("list-panes")
                .expect_err("printing")
                .contains("from a shell")
        );
    }

    #[test]
    fn send_keys_and_run_take_the_clis_options() {
        assert_eq!(
            parse("send-keys --pane 3 'echo hi' Enter"),
            Ok(CommandLine::Script(Call::SendKeys {
                pane: Some(3),
                keys: vec![KeyArg::Text("echo hi".into()), KeyArg::Key("Enter".into())],
            }))
        );
        assert_eq!(
            parse("run --float -- htop -d 5"),
            Ok(CommandLine::Script(Call::Run {
                place: Place::Float,
                cwd: None,
                argv: vec!["htop".into(), "-d".into(), "5".into()],
                no_save: false,
            }))
        );
        assert_eq!(
            parse("run --host build1 --tab --cwd /srv -- make"),
            Ok(CommandLine::RemoteRun(RemoteRun {
                place: Place::Tab,
                host: "build1".into(),
                cwd: Some("/srv".into()),
                argv: vec!["make".into()],
                no_save: false,
            }))
        );
        let err = parse("run --sideways -- top").expect_err("bad option");
        assert!(err.contains("--sideways"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn tab_completes_the_commands_name() {
        assert_eq!(complete("split-r"), ("split-right ".into(), vec![]));
        let (text, candidates) = complete("split");
        assert_eq!(text, "split-");
        assert_eq!(candidates, ["split-down", "split-right"]);
        assert_eq!(complete("send-k").0, "send-keys ");
        assert_eq!(complete("zzz"), ("zzz".into(), vec![]));
        assert_eq!(complete("send-keys x"), ("send-keys x".into(), vec![]));
    }
}
