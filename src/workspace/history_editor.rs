//! `C-b e`: a pane's whole history in the user's editor. A thread replays
//! the history into text (`pane::history::as_text`) and writes it to a private
//! temporary file (mode 0600: output can hold secrets); the loop then opens
//! `$VISUAL`, else `$EDITOR`, else `vi` on it in a floating pane, which
//! owns the file: it is removed when that pane closes.

use std::path::Path;

use anyhow::Context as _;

use crate::pane::Pane;
use crate::pane::event::{PaneEvent, PaneMailbox};
use crate::pane::history::as_text;

/// The temporary files' names begin so: `ls /tmp` tells whose they are.
pub const FILE_PREFIX: &str = "tilework-history-";

/// Starts writing `pane`'s history to a private file on a thread of its
/// own; the result comes back as [`PaneEvent::HistoryFile`]. `ansi`
/// keeps colours as SGR.
pub fn start(pane: &Pane, ansi: bool, events: &PaneMailbox) {
    let id = pane.id;
    let text = as_text::history_text(pane, ansi);
    let mailbox = events.clone();
    let spawned = crate::jobs::named("history-file", move || {
        let file = crate::config::private_file::temp_file(FILE_PREFIX, ".txt", text().as_bytes());
        mailbox.post(PaneEvent::HistoryFile(id, file));
    });
    if let Err(err) = spawned {
        let err = Err(err).context("starting a thread to write the history");
        events.post(PaneEvent::HistoryFile(id, err));
    }
}

/// The editor to run: `$VISUAL`, else `$EDITOR`, else `vi` (unset and
/// empty are the same, as for git).
pub fn editor(visual: Option<&str>, editor: Option<&str>) -> String {
    [visual, editor]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|e| !e.is_empty())
        .unwrap_or("vi")
        .to_string()
}

/// `editor` on `path`, through `sh` as git runs it: the editor may carry
/// arguments (`code --wait`, `emacs -nw`); the path travels as `$1`, never
/// spliced into the script. Vim and Neovim open at the last line (`+`),
/// where the output just seen is, as tmux users look at a capture.
pub fn argv(editor: &str, path: &Path) -> Vec<String> {
    let at_end = if is_vim(editor) { " +" } else { "" };
    vec![
        "/bin/sh".into(),
        "-c".into(),
        format!("{editor}{at_end} \"$1\""),
        "editor".into(),
        path.to_string_lossy().into_owned(),
    ]
}

/// Whether `editor`'s program is Vim or Neovim, which read `+` as "the
/// last line". `vi` counts when it is Vim under that name (Debian's
/// alternatives): busybox's `vi` would open a file named `+`.
fn is_vim(editor: &str) -> bool {
    const VIMS: &[&str] = &[
        "vim",
        "nvim",
        "vim.basic",
        "vim.tiny",
        "vim.nox",
        "vim.gtk3",
        "gvim",
    ];
    let file_name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    let Some(program) = editor.split_whitespace().next() else {
        return false;
    };
    match file_name(program).as_str() {
        name if VIMS.contains(&name) => true,
        "vi" => which::which(program)
            .ok()
            .and_then(|p| p.canonicalize().ok())
            .and_then(|p| p.to_str().map(file_name))
            .is_some_and(|name| VIMS.contains(&name.as_str())),
        _ => false,
    }
}

/// The editor named by this process's environment.
pub fn from_env() -> String {
    let var = |name| std::env::var(name).ok();
    editor(var("VISUAL").as_deref(), var("EDITOR").as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visual_then_editor_then_vi() {
        assert_eq!(editor(Some("nvim"), Some("nano")), "nvim");
        assert_eq!(editor(Some(" "), Some("nano")), "nano");
        assert_eq!(editor(None, Some("code --wait")), "code --wait");
        assert_eq!(editor(None, Some("")), "vi");
        assert_eq!(editor(None, None), "vi");
    }

    #[test]
    fn vim_and_neovim_open_at_the_last_line_other_editors_as_given() {
        let script = |editor: &str| argv(editor, Path::new("/tmp/h.txt"))[2].clone();
        assert_eq!(script("vim"), "vim + \"$1\"");
        assert_eq!(script("/usr/bin/nvim -R"), "/usr/bin/nvim -R + \"$1\"");
        assert_eq!(script("nano"), "nano \"$1\"");
        assert_eq!(script("code --wait"), "code --wait \"$1\"");
        assert_eq!(script("emacs -nw"), "emacs -nw \"$1\"");
        // A `vi` that is no Vim (here: none on PATH) gets no `+`.
        assert_eq!(script("/nonexistent/vi"), "/nonexistent/vi \"$1\"");
    }

    #[test]
    fn the_path_is_an_argument_not_script() {
        let path = Path::new("/tmp/it's $(here)");
        let out = std::process::Command::new("/bin/sh")
            .args(&argv("printf %s", path)[1..])
            .output()
            .expect("sh runs");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "/tmp/it's $(here)");
    }
}
