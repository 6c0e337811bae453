//! The last command's output (issue 43), in a pane whose shell marks its
//! commands (OSC 133, `tilework shell-integration`): `copy-last-output`
//! copies it as copy mode's `y` does (a paste buffer and the clipboard);
//! `edit-last-output` opens it in `$VISUAL`/`$EDITOR` in a floating pane,
//! as `C-b e` opens the whole history (the file is private and goes when
//! that pane closes).

use std::io;

use anyhow::Context as _;

use super::Cx;
use crate::input::outcome::{Command, Outcome};
use crate::pane::event::PaneEvent;
use crate::pane::history::as_text;
use crate::pane::{Pane, PaneId};
use crate::workspace::history_editor::FILE_PREFIX;

/// The most ring bytes copied here, on the loop's thread (a replay of
/// 1 MiB takes milliseconds); a longer output goes to the editor or
/// `tilework capture --command -1`, off the loop.
const MAX_COPIED: u64 = 1 << 20;

/// Where the focused pane's last finished command's output is in its
/// ring, or what to say instead.
fn last_output(cx: &mut Cx<'_>) -> Result<(PaneId, u64, u64), String> {
    let id = cx.ws.tabs().focused_id().ok_or("no pane is focused")?;
    let pane = cx.ws.panes().get(id).ok_or("no pane is focused")?;
    let command = pane.history().command_marks().last_finished().ok_or(
        "no finished command here: the shell marks none (tilework shell-integration --help)",
    )?;
    let from = command.output.unwrap_or(command.prompt);
    let to = command.end.unwrap_or(from);
    if from.max(pane.history().ring().first_line_start()) >= to {
        return Err("the last command printed nothing (or it left the history)".into());
    }
    Ok((id, from, to))
}

/// The text of `pane`'s output in `[from, to)`, run by the caller's thread.
fn text_of(pane: &mut Pane, from: u64, to: u64) -> impl FnOnce() -> io::Result<String> + use<> {
    pane.settle();
    let job = as_text::write_range(pane, from, to, false);
    move || {
        let mut bytes = Vec::new();
        job(&mut |piece| {
            bytes.extend_from_slice(piece);
            Ok(())
        })?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// `copy-last-output`.
pub fn copy(cx: &mut Cx<'_>) -> Outcome {
    let (id, from, to) = match last_output(cx) {
        Ok(found) => found,
        Err(why) => return notify(cx, why),
    };
    if to - from > MAX_COPIED {
        let why = format!(
            "the last output is {} KiB, more than is copied here: \
             edit-last-output (C-b Y) or tilework capture --command -1",
            (to - from) / 1024
        );
        return notify(cx, why);
    }
    let Some(pane) = cx.ws.panes_mut().get_mut(id) else {
        return Outcome::default();
    };
    let text = match text_of(pane, from, to)() {
        Ok(text) => text,
        Err(err) => return notify(cx, format!("the last output was not read: {err}")),
    };
    // Pasted into a shell, a last newline would run it.
    let text = text.trim_end_matches('\n').to_string();
    cx.ui.copied(&text);
    Outcome::redraw().with(Command::Clipboard(text))
}

/// `edit-last-output`: the text is written on a thread of its own; the
/// loop opens the editor when it comes ([`PaneEvent::HistoryFile`]).
pub fn edit(cx: &mut Cx<'_>) -> Outcome {
    let (id, from, to) = match last_output(cx) {
        Ok(found) => found,
        Err(why) => return notify(cx, why),
    };
    if let Err(why) = cx.ws.panes().room_for_pane() {
        return notify(cx, why);
    }
    let mailbox = cx.ws.panes().spawner().events();
    let Some(pane) = cx.ws.panes_mut().get_mut(id) else {
        return Outcome::default();
    };
    let text = text_of(pane, from, to);
    let spawned = crate::jobs::named("last-output-file", move || {
        let file = text()
            .context("reading the last command's output")
            .and_then(|text| {
                crate::config::private_file::temp_file(FILE_PREFIX, ".txt", text.as_bytes())
            });
        mailbox.post(PaneEvent::HistoryFile(id, file));
    });
    if let Err(err) = spawned {
        return notify(cx, format!("the last output was not opened: {err}"));
    }
    Outcome::default()
}

fn notify(cx: &mut Cx<'_>, why: String) -> Outcome {
    cx.ui.notify(why);
    Outcome::redraw()
}
