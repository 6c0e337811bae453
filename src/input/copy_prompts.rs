//! Copy mode over commands (OSC 133 marks, issue 43): jumping from prompt
//! to prompt (tmux's `previous-prompt` / `next-prompt`) and selecting a
//! command's output in one key. The marks are ring positions; the window
//! of history shown knows the rows their lines begin on
//! (`History::stop_row`), and a prompt outside it brings the window
//! around it (`copy_window::show_line`).

use crate::input::copy_mode::{CopyMode, Point, SelectKind};
use crate::input::copy_window;
use crate::pane::Pane;
use crate::pane::history::window::Window;

/// Moves the cursor `count` prompts back (or forward). Stops at the
/// oldest (newest) prompt held.
pub fn jump(pane: &mut Pane, copy: &mut CopyMode, forward: bool, count: usize) {
    for _ in 0..count.max(1) {
        if !jump_once(pane, copy, forward) {
            return;
        }
    }
}

/// The line starts of the pane's prompts, oldest first.
fn prompt_lines(pane: &Pane) -> Vec<u64> {
    let mut lines: Vec<u64> = pane
        .history()
        .command_marks()
        .commands()
        .map(|c| c.prompt_line)
        .collect();
    lines.dedup();
    lines
}

/// The row of the nearest prompt before (after) `row` in `history`.
fn nearest_row(history: &Window, prompts: &[u64], row: usize, forward: bool) -> Option<usize> {
    let rows = prompts.iter().filter_map(|&p| history.stop_row(p));
    if forward {
        rows.filter(|&r| r > row).min()
    } else {
        rows.filter(|&r| r < row).max()
    }
}

fn jump_once(pane: &mut Pane, copy: &mut CopyMode, forward: bool) -> bool {
    let prompts = prompt_lines(pane);
    let Some(history) = pane.history().window() else {
        return false;
    };
    let here = nearest_row(history, &prompts, copy.cursor.row, forward);
    if here.is_none() {
        // Beyond the window's edge: bring the window around it.
        let extent = history.extent();
        let beyond = if forward {
            prompts.iter().find(|&&p| p >= extent.end).copied()
        } else {
            prompts.iter().rev().find(|&&p| p < extent.start).copied()
        };
        let Some(pos) = beyond else {
            return false;
        };
        copy_window::show_line(pane, copy, pos);
        let Some(history) = pane.history_mut().window_mut() else {
            return false;
        };
        let Some(row) = history.stop_row(pos) else {
            return false;
        };
        copy.move_to(history, Point { row, col: 0 });
        return true;
    }
    let Some(history) = pane.history_mut().window_mut() else {
        return false;
    };
    match here {
        Some(row) => {
            copy.move_to(history, Point { row, col: 0 });
            true
        }
        None => false,
    }
}

/// Selects (by lines) the output of the command whose prompt is the
/// nearest at or before the cursor; nothing when it has no output in the
/// window shown.
pub fn select_output(pane: &mut Pane, copy: &mut CopyMode) {
    let commands: Vec<(u64, Option<u64>, Option<u64>)> = pane
        .history()
        .command_marks()
        .commands()
        .map(|c| (c.prompt_line, c.output_line, c.end_line))
        .collect();
    let Some(history) = pane.history_mut().window_mut() else {
        return;
    };
    let cursor = copy.cursor.row;
    let under = commands.iter().rev().find_map(|&(prompt, output, end)| {
        let row = history.stop_row(prompt)?;
        (row <= cursor).then_some((output?, end))
    });
    let Some((output, end)) = under else {
        return;
    };
    let Some(first) = history.stop_row(output) else {
        return;
    };
    let last_row = history.total_rows().saturating_sub(1);
    // The end's line is the output's last when the end is inside it.
    let last = match end.and_then(|e| history.stop_row(e)) {
        Some(row) => row.saturating_sub(1).max(first),
        None => last_row,
    };
    let width = history.screen().size().1.get();
    copy.move_to(history, Point { row: first, col: 0 });
    copy.selection = Some((copy.cursor, SelectKind::Line));
    copy.move_to(
        history,
        Point {
            row: last,
            col: width.saturating_sub(1),
        },
    );
}
