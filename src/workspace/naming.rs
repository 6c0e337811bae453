//! Names that say something: a tab is named after the program in its
//! focused pane, or that pane's directory when it is a shell at its
//! prompt (unless the user or the profile named it), and a pane whose
//! program sets no title shows the same on its border. Also whether
//! closing a pane would stop more than an idle shell.

use std::path::Path;

use crate::pane::Pane;
use crate::workspace::foreground::{Foreground, is_shell};

/// What a pane is known by, besides the title its program sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaneName {
    /// A program started from the pane's shell (`vim`, `cargo`).
    Program(String),
    /// The pane's shell waits at its prompt in this directory, written
    /// with `~` for the home directory.
    Dir(String),
}

impl PaneName {
    /// For a tab: the program, or the directory's last part.
    pub fn short(&self) -> &str {
        match self {
            PaneName::Program(p) => p,
            PaneName::Dir(d) if d == "/" || d == "~" => d,
            PaneName::Dir(d) => d.rsplit('/').find(|s| !s.is_empty()).unwrap_or(d),
        }
    }

    /// For a border: the program, or the whole directory.
    pub fn long(&self) -> &str {
        match self {
            PaneName::Program(p) | PaneName::Dir(p) => p,
        }
    }
}

/// The pane runs an interactive shell (not a command line run by one).
pub fn is_shell_pane(pane: &Pane) -> bool {
    matches!(pane.spec.argv.as_slice(), [program] if is_shell(program))
}

/// Whether closing the pane would stop something: its program runs and is
/// not a shell waiting at its own prompt. `None` (the kernel could not
/// say) counts as idle: asking needlessly is the lesser fault only when we
/// know.
pub fn is_busy(pane: &Pane, foreground: Option<&Foreground>) -> bool {
    if pane.program().exit().is_some() {
        return false;
    }
    match foreground {
        None => false,
        Some(fg) => !(fg.is_pane_process && is_shell_pane(pane)),
    }
}

/// What the pane is known by now; `None` for a command pane running its
/// own command (its command line says it best) or when nothing is known.
pub fn name_of(
    pane: &Pane,
    foreground: Option<&Foreground>,
    dir: Option<&Path>,
    home: Option<&Path>,
) -> Option<PaneName> {
    if pane.program().exit().is_some() {
        return None;
    }
    let fg = foreground?;
    if !fg.is_pane_process {
        return Some(PaneName::Program(fg.program.clone()));
    }
    if !is_shell_pane(pane) {
        return None;
    }
    dir.map(|d| PaneName::Dir(with_tilde(d, home)))
}

/// `dir` with the home directory written `~`.
pub fn with_tilde(dir: &Path, home: Option<&Path>) -> String {
    if let Some(rest) = home
        .filter(|h| h.is_absolute() && h.parent().is_some())
        .and_then(|h| dir.strip_prefix(h).ok())
    {
        if rest.as_os_str().is_empty() {
            return "~".into();
        }
        return format!("~/{}", rest.display());
    }
    dir.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::PaneId;

    fn pane(argv: &[&str]) -> Pane {
        let mut pane = Pane::detached(PaneId(1), 5, 20, 1 << 10);
        pane.spec.argv = argv.iter().map(|s| s.to_string()).collect();
        pane
    }

    fn fg(program: &str, own: bool) -> Foreground {
        Foreground {
            program: program.into(),
            is_pane_process: own,
        }
    }

    #[test]
    fn an_idle_shell_is_named_by_its_directory_and_a_job_by_its_program() {
        let shell = pane(&["/bin/bash"]);
        let home = Path::new("/home/ann");
        let dir = Path::new("/home/ann/src/tilework");
        let idle = name_of(&shell, Some(&fg("bash", true)), Some(dir), Some(home));
        assert_eq!(idle, Some(PaneName::Dir("~/src/tilework".into())));
        assert_eq!(idle.as_ref().map(PaneName::short), Some("tilework"));
        let vim = name_of(&shell, Some(&fg("vim", false)), Some(dir), Some(home));
        assert_eq!(vim.as_ref().map(PaneName::short), Some("vim"));
        let at_home = name_of(&shell, Some(&fg("bash", true)), Some(home), Some(home));
        assert_eq!(at_home.as_ref().map(PaneName::short), Some("~"));
        let command = pane(&["/bin/sh", "-c", "make"]);
        assert_eq!(
            name_of(&command, Some(&fg("sh", true)), Some(dir), None),
            None
        );
    }

    #[test]
    fn only_a_shell_at_its_prompt_is_idle() {
        let shell = pane(&["/bin/sh"]);
        assert!(!is_busy(&shell, Some(&fg("sh", true))));
        assert!(is_busy(&shell, Some(&fg("vim", false))));
        assert!(is_busy(&shell, Some(&fg("sleep", false))));
        assert!(!is_busy(&shell, None), "unknown: no question");
        let command = pane(&["/bin/sh", "-c", "sleep 100"]);
        assert!(is_busy(&command, Some(&fg("sleep", true))));
        assert!(is_busy(&command, Some(&fg("sh", true))));
    }
}
