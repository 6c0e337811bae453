//! tmux's `copy-mode` and `send-keys -X` on tilework's copy mode: each of
//! tmux's copy-mode commands is the key `[keys.copy]` binds to the same
//! command, typed into copy mode as the terminal acting for scripts (the
//! one that typed last) would type it, so counts, the history's loading
//! and the copy's way to the paste buffers and clipboard are the keys'.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::App;
use crate::config::action::Action;
use crate::config::copy_keymap::{CopyAction, CopyKeymap};
use crate::input::ui_state::Mode;
use crate::terminal::frame_sink::FrameSink;

/// What one of tmux's copy-mode commands types.
#[derive(Debug, PartialEq, Eq)]
struct Typed {
    keys: Vec<KeyEvent>,
    /// Pipe the copied text to this command (`copy-pipe CMD`).
    pipe: Option<String>,
}

/// tmux's name for a copy-mode command, as `[keys.copy]` names it.
fn copy_action(tmux: &str) -> Result<CopyAction, String> {
    let name = match tmux {
        "search-backward"
        | "search-forward"
        | "search-backward-text"
        | "search-forward-text"
        | "search-backward-incremental"
        | "search-forward-incremental" => "search",
        "copy-selection-no-clear" => "copy-selection",
        "copy-pipe-no-clear" => "copy-pipe",
        "select-word" => "begin-selection",
        "stop-selection" | "clear-selection" => "clear-selection",
        other => other,
    };
    name.parse().map_err(|_| format!("unknown command: {tmux}"))
}

/// The key `table` binds to `action`.
fn key_of(table: &CopyKeymap, action: CopyAction) -> Result<KeyEvent, String> {
    table
        .bindings
        .iter()
        .find(|(_, a)| *a == action)
        .map(|(spec, _)| KeyEvent::new(spec.code, spec.modifiers))
        .ok_or_else(|| format!("{action}: no key is bound to it in [keys.copy]"))
}

/// The keys tmux's copy-mode command `command` with `args` is, in
/// `table`.
fn typed_for(table: &CopyKeymap, command: &str, args: &[String]) -> Result<Typed, String> {
    let action = copy_action(command)?;
    let arg = args.join(" ");
    if action == CopyAction::Search {
        let mut keys = vec![key_of(table, action)?];
        keys.extend(
            arg.chars()
                .map(|c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
        keys.push(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        return Ok(Typed { keys, pipe: None });
    }
    // A command given to `copy-pipe` is piped to here: the key's own is
    // the one its binding names.
    let (action, pipe) = match action {
        CopyAction::CopyPipe if !arg.is_empty() => (CopyAction::CopySelection, Some(arg)),
        CopyAction::CopyPipeAndCancel if !arg.is_empty() => {
            (CopyAction::CopySelectionAndCancel, Some(arg))
        }
        other => (other, None),
    };
    Ok(Typed {
        keys: vec![key_of(table, action)?],
        pipe,
    })
}

/// Runs `command` (`sh -c`) with `text` on its standard input, off the
/// loop (as the clipboard's copy command runs): the loop never waits on it.
fn pipe_to(command: String, text: String) {
    let argv = vec!["/bin/sh".to_string(), "-c".to_string(), command];
    crate::terminal::clipboard::copy_with_command(argv, text);
}

impl<B: FrameSink> App<B> {
    /// `TmuxCall::CopyMode`: enters copy mode on pane `pane`, or types
    /// tmux's copy-mode `command` there. Answers the text copied, if any.
    pub(super) fn tmux_copy_mode(
        &mut self,
        pane: u32,
        command: Option<&str>,
        args: &[String],
    ) -> Result<String, String> {
        let id = self
            .ws
            .panes()
            .by_script_id(pane)
            .ok_or_else(|| format!("can't find pane: {pane}"))?;
        self.ws.show_pane(id);
        let (router, ws) = (self.clients.acting_router(), &mut self.ws);
        router.focus_moved(ws);
        let in_copy = router.ui().mode() == Mode::Copy;
        let Some(command) = command else {
            if !in_copy {
                let outcome = router.run_action(ws, Action::ScrollMode);
                self.follow_outcome(None, outcome);
            }
            return Ok(String::new());
        };
        if !in_copy {
            return Err("not in a mode".into());
        }
        if router.ui().copy().pane() != Some(id) {
            // Its history is still being read: the caller asks again (a
            // key would wait for it, but its copy would be answered late).
            return Err(crate::session::tmux_call::COPY_LOADING.into());
        }
        let typed = typed_for(&router.view().keymap.copy, command, args)?;
        let before = router.ui().buffers().newest();
        for key in &typed.keys {
            let (router, ws) = (self.clients.acting_router(), &mut self.ws);
            let outcome = router.handle_key(ws, key);
            self.follow_outcome(None, outcome);
        }
        let after = self.clients.acting_router().ui().buffers().newest();
        let copied = after
            .filter(|a| before.as_ref() != Some(a))
            .unwrap_or_default();
        if let Some(command) = typed.pipe
            && !copied.is_empty()
        {
            pipe_to(command, copied.clone());
        }
        Ok(copied)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn plain(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn tmux_copy_commands_are_the_keys_bound_to_them() {
        let table = CopyKeymap::default();
        let keys = |c: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            typed_for(&table, c, &args).unwrap()
        };
        assert_eq!(keys("cursor-up", &[]).keys.len(), 1);
        assert_eq!(keys("begin-selection", &[]).keys, vec![plain('v')]);
        let search = keys("search-backward", &["ab"]);
        assert_eq!(search.keys.len(), 4);
        assert_eq!(search.keys[1..3], [plain('a'), plain('b')]);
        let piped = keys("copy-pipe-and-cancel", &["wc", "-c"]);
        assert_eq!(piped.pipe.as_deref(), Some("wc -c"));
        assert!(typed_for(&table, "no-such-command", &[]).is_err());
    }
}
