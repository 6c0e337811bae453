//! What a restored pane's shell is given to type: the job it ran in the
//! foreground when the workspace was saved (`workspace::foreground::Job`),
//! as tmux-resurrect and zellij bring programs back. A program that
//! `restore_commands` lists is started again at once (typed with Enter);
//! any other, and a pipeline, is typed at the prompt and waits for Enter.
//! vim or nvim with a `Session.vim` in its directory comes back as
//! `vim -S` (tmux-resurrect's session strategy).
//!
//! What cannot come back: the shell's variables and functions, what a
//! program held in memory (an unsaved buffer, a server's connections), a
//! job's own children, a job started in a subshell or in the background.

use std::path::Path;

use crate::config::saving::Saving;
use crate::workspace::foreground::{Job, is_shell};

/// What to type into a restored pane's shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// The command line, quoted for the shell.
    pub line: String,
    /// Enter is typed too: the program starts at once.
    pub at_once: bool,
}

impl Typed {
    /// The bytes typed.
    pub fn keys(&self) -> Vec<u8> {
        let mut keys = self.line.clone().into_bytes();
        if self.at_once {
            keys.push(b'\r');
        }
        keys
    }
}

/// What pane whose shell was in `shell_dir` types for `job`; `None` when
/// there is nothing to type (no program, or a shell started from it).
pub fn typed_for(job: &Job, shell_dir: Option<&Path>, saving: &Saving) -> Option<Typed> {
    let programs: Vec<&Vec<String>> = job.programs.iter().filter(|p| !p.is_empty()).collect();
    let first = programs.first()?.first()?;
    if programs.len() == 1 && is_shell(first) {
        return None;
    }
    let dir = job.dir.as_deref().map(Path::new);
    let mut lines: Vec<String> = programs.iter().map(|argv| quoted(argv)).collect();
    let at_once = programs.len() == 1 && saving.lists(first);
    if at_once && is_vim(first) && dir.is_some_and(|d| d.join("Session.vim").is_file()) {
        lines = vec![quoted(&[first.clone(), "-S".to_string()])];
    }
    let mut line = lines.join(" | ");
    if let Some(dir) = dir.filter(|d| Some(*d) != shell_dir) {
        line = format!("cd {} && {line}", shell_quote(&dir.to_string_lossy()));
    }
    Some(Typed { line, at_once })
}

fn is_vim(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "vim" | "nvim")
}

fn quoted(argv: &[String]) -> String {
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `arg` as one word for a POSIX shell.
fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn job(programs: &[&[&str]], dir: Option<&str>) -> Job {
        Job {
            programs: programs
                .iter()
                .map(|p| p.iter().map(|a| a.to_string()).collect())
                .collect(),
            dir: dir.map(str::to_string),
        }
    }

    #[test]
    fn a_listed_program_starts_at_once_and_others_wait() {
        let saving = Saving::default();
        let vim = typed_for(
            &job(&[&["vim", "my notes.md"]], Some("/w")),
            Some(Path::new("/w")),
            &saving,
        );
        assert_eq!(
            vim,
            Some(Typed {
                line: "vim 'my notes.md'".into(),
                at_once: true
            })
        );
        assert_eq!(vim.unwrap().keys(), b"vim 'my notes.md'\r");
        let make = typed_for(
            &job(&[&["make", "-j4"]], Some("/w")),
            Some(Path::new("/w")),
            &saving,
        );
        assert_eq!(make.as_ref().map(|t| t.at_once), Some(false));
        assert_eq!(make.unwrap().keys(), b"make -j4");
    }

    #[test]
    fn a_pipeline_waits_and_a_job_elsewhere_goes_there_first() {
        let saving = Saving::default();
        let piped = job(&[&["tail", "-f", "log"], &["grep", "x y"]], Some("/logs"));
        assert_eq!(
            typed_for(&piped, Some(Path::new("/home")), &saving),
            Some(Typed {
                line: "cd /logs && tail -f log | grep 'x y'".into(),
                at_once: false
            })
        );
        assert_eq!(typed_for(&job(&[&["bash"]], None), None, &saving), None);
        assert_eq!(typed_for(&job(&[], None), None, &saving), None);
    }

    #[test]
    fn vim_with_a_session_file_comes_back_with_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Session.vim"), "").unwrap();
        let here = dir.path().to_str().unwrap();
        let typed = typed_for(
            &job(&[&["nvim", "a.rs"]], Some(here)),
            Some(dir.path()),
            &Saving::default(),
        );
        assert_eq!(typed.map(|t| t.line), Some("nvim -S".to_string()));
    }
}
