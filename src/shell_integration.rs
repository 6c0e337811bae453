//! `tilework shell-integration bash|zsh|fish` (issue 43): the shell code a
//! user evaluates in their shell's startup file so that the shell marks
//! its prompts, command lines, output and exit statuses with OSC 133
//! (see `pane::history::command_marks`). Opt-in: tilework never edits a shell's
//! startup. A shell or prompt that marks its prompts already (fish 4,
//! starship, oh-my-posh) needs none.

/// The shells there is code for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// The code to evaluate in `shell`.
pub fn snippet(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => include_str!("shell_integration/bash.sh"),
        Shell::Zsh => include_str!("shell_integration/zsh.sh"),
        Shell::Fish => include_str!("shell_integration/fish.fish"),
    }
}
