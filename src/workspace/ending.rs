//! [`Ending`]: when the workspace is to end, and with which exit status:
//! the user quits (0, or the last program's status when every program
//! has ended), the last pane closes (its program's status), or a signal
//! comes.

use crate::workspace::Panes;

/// Whether the workspace is to end, and tilework's exit status then.
#[derive(Debug, Default)]
pub struct Ending {
    /// Set when the workspace should end: tilework's exit status.
    code: Option<i32>,
    /// The status of the program that ended last (see [`Ending::quitting`]).
    last_exit: Option<i32>,
}

impl Ending {
    /// Set when the workspace should end: tilework's exit status.
    pub fn code(&self) -> Option<i32> {
        self.code
    }

    /// Ends the workspace with exit status `code` (a signal arrived, the
    /// last pane closed).
    pub fn quit(&mut self, code: i32) {
        self.code = Some(code);
    }

    /// A pane's program ended with `code`.
    pub(super) fn program_ended(&mut self, code: i32) {
        self.last_exit = Some(code);
    }

    /// tilework's status when the user quits: when every pane's program
    /// has ended (panes kept open, `--keep-exited`), the last one's, as
    /// when the last pane closes by itself; else 0.
    pub(super) fn quitting(&self, panes: &Panes) -> i32 {
        let all_ended = panes.iter().all(|pane| pane.program().exit().is_some());
        match self.last_exit {
            Some(code) if all_ended => code,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::program::process::fake::FakeLauncher;

    fn no_panes() -> Panes {
        let (tx, _events) = crossbeam_channel::unbounded();
        let launcher = Box::new(FakeLauncher::new(tx.clone().into()));
        Panes::new(
            crate::workspace::fake_workspace::settings(),
            tx.into(),
            launcher,
        )
    }

    #[test]
    fn quitting_gives_the_last_programs_status_once_every_program_ended() {
        let mut ending = Ending::default();
        assert_eq!(ending.quitting(&no_panes()), 0, "no program ended yet");
        ending.program_ended(3);
        ending.program_ended(7);
        assert_eq!(ending.quitting(&no_panes()), 7, "none runs: the last one's");
        assert_eq!(ending.code(), None, "quitting is asked, not done");
        ending.quit(130);
        assert_eq!(ending.code(), Some(130));
    }
}
