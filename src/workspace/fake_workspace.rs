//! A workspace for unit tests: one 80x24 pane whose program is faked, so
//! a test feeds it output and reads what it wrote back.

use crossbeam_channel::bounded;
use ratatui::layout::Rect;

use crate::pane::program::process::fake::FakeLauncher;
use crate::pane::program::spawn::ChildEnv;
use crate::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

/// What unit tests' panes start with: `/bin/sh`, xterm-256color, 64 KiB
/// of history, and no pane kept once it ended.
pub fn settings() -> WorkspaceSettings {
    WorkspaceSettings {
        env: ChildEnv::new(Some("/bin/sh"), "xterm-256color"),
        scrollback_bytes: 1 << 16,
        keep_exited_panes: false,
    }
}

/// A workspace with one pane "running" `program` (nothing runs: the
/// launcher is the returned fake).
pub fn one_pane(program: &str) -> (Workspace, FakeLauncher) {
    let (tx, _events) = bounded(256);
    let fake = FakeLauncher::new(tx.clone().into());
    let settings = settings();
    let area = Rect::new(0, 0, 80, 24);
    let mut ws = Workspace::with_launcher(settings, area, tx.into(), Box::new(fake.clone()));
    let first = launch(&ws, program);
    ws.open_row(vec![first]);
    (ws, fake)
}

/// What opening a pane that runs `program` in `ws` takes.
pub fn launch(ws: &Workspace, program: &str) -> PaneLaunch {
    let (spec, label) = ws
        .panes()
        .spawner()
        .settings()
        .env
        .argv(&[program.to_string()], None);
    PaneLaunch::new(spec, label)
}
