//! How many panes may be open at once: each holds a PTY, a process or
//! more and threads, so a script looping on `tilework run` (or a key held
//! down) must not open them without end. Every way of opening a pane asks
//! first ([`Panes::room_for_pane`](crate::workspace::Panes::room_for_pane);
//! [`Tabs::opens_pane`](crate::workspace::Tabs::opens_pane) says which
//! actions would open one); the caller says the refusal where its user
//! looks (the status bar for keys, an error for the command line).

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use ratatui::layout::Rect;

    use crate::config::action::Action;
    use crate::pane::program::process::fake::FakeLauncher;
    use crate::workspace::PaneLaunch;
    use crate::workspace::Workspace;
    use crate::workspace::layout::Axis;

    fn workspace(max_panes: usize) -> Workspace {
        let (tx, _events) = crossbeam_channel::unbounded();
        let fake = FakeLauncher::new(tx.clone().into());
        let settings = crate::workspace::fake_workspace::settings();
        let area = Rect::new(0, 0, 80, 24);
        let mut ws = Workspace::with_launcher(settings, area, tx.into(), Box::new(fake));
        ws.panes_mut().set_max_panes(max_panes);
        ws
    }

    fn shell(ws: &Workspace) -> PaneLaunch {
        crate::workspace::fake_workspace::launch(ws, "sh")
    }

    #[test]
    fn no_way_of_opening_a_pane_goes_past_the_limit() {
        let mut ws = workspace(3);
        let first = shell(&ws);
        ws.open_row(vec![first]);
        assert!(ws.split_with(Axis::Horizontal, shell(&ws)).is_some());
        assert!(ws.new_tab_with(shell(&ws)).is_some());
        assert_eq!(ws.panes().iter().count(), 3);
        let why = ws.panes().room_for_pane().unwrap_err();
        assert!(
            why.contains("3 panes are open") && why.contains("max_panes"),
            "{why}"
        );
        assert!(ws.split_with(Axis::Vertical, shell(&ws)).is_none());
        assert!(ws.new_tab_with(shell(&ws)).is_none());
        assert!(ws.open_floating(shell(&ws)).is_none());
        for action in [
            Action::SplitRight,
            Action::SplitDown,
            Action::NewTab,
            Action::NewFloating,
            Action::ToggleFloating,
        ] {
            assert!(ws.tabs().opens_pane(action), "{action}");
            ws.apply(action);
        }
        assert_eq!(ws.panes().iter().count(), 3);
        assert_eq!(ws.tabs().len(), 2);
        // One closed makes room for one.
        let id = ws.tabs.focused_id().unwrap();
        ws.close_pane(id, None);
        assert!(ws.panes().room_for_pane().is_ok());
        assert!(ws.open_floating(shell(&ws)).is_some());
    }
}
