//! What a workspace keeps on disk so that it comes back after a crash, a
//! kill or a reboot (`persist_history`, `keep_on_quit`, `restore_commands`;
//! the saving itself is `crate::persist`).

/// tmux-resurrect's conservative list: programs that are safe to start
/// again at once, without being asked.
pub const DEFAULT_RESTORE_COMMANDS: [&str; 7] =
    ["vim", "nvim", "less", "man", "htop", "top", "tail"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saving {
    /// Each pane's output is written to disk too (`false`: the layout,
    /// directories and commands only).
    pub history: bool,
    /// A clean quit (`C-b Q`, `tilework kill`, the last pane closed) keeps
    /// the saved workspace instead of forgetting it.
    pub keep_on_quit: bool,
    /// Programs started again at once when their workspace comes back;
    /// any other command waits for Enter.
    pub restore_commands: Vec<String>,
}

impl Default for Saving {
    fn default() -> Self {
        Self {
            history: true,
            keep_on_quit: false,
            restore_commands: DEFAULT_RESTORE_COMMANDS
                .iter()
                .map(|c| c.to_string())
                .collect(),
        }
    }
}

impl Saving {
    /// Whether the command line `line` is one program of
    /// [`Self::restore_commands`] (by its first word's file name) and its
    /// arguments. A compound line (`tail log; touch MARK`, a pipe, a
    /// redirection, a substitution) never is: run at once, the rest would
    /// run too.
    pub fn restarts_at_once(&self, line: &str) -> bool {
        if line.contains(|c| ";&|<>()$`\\{}\n".contains(c)) {
            return false;
        }
        line.split_whitespace()
            .next()
            .is_some_and(|first| self.lists(first))
    }

    /// Whether `program` (a name or a path) is one of
    /// [`Self::restore_commands`].
    pub fn lists(&self, program: &str) -> bool {
        let name = program.rsplit('/').next().unwrap_or(program);
        self.restore_commands.iter().any(|c| c == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_programs_restart_by_their_name_wherever_they_live() {
        let saving = Saving::default();
        assert!(saving.restarts_at_once("vim notes.md"));
        assert!(saving.restarts_at_once("/usr/bin/tail -f log"));
        assert!(!saving.restarts_at_once("make deploy"));
        assert!(!saving.restarts_at_once(""));
    }

    #[test]
    fn a_compound_line_is_never_restarted_at_once() {
        let saving = Saving::default();
        for line in [
            "tail -n1 log; touch MARK",
            "tail -f log | grep x",
            "tail -f log && rm x",
            "vim $(ls)",
            "less log > copy",
            "top\nrm x",
        ] {
            assert!(!saving.restarts_at_once(line), "{line}");
        }
    }
}
