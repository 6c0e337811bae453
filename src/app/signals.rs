//! SIGTERM, SIGHUP and SIGINT end the workspace cleanly through the loop
//! (SIGHUP in a session follows `on_hangup`, by default a detach).

use anyhow::{Context, Result};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use super::loop_event::LoopEvent;

/// Forwards SIGTERM/SIGHUP/SIGINT to the loop, which shuts down cleanly. A
/// second signal to quit means the loop is stuck: restore the terminal and
/// exit.
pub(super) fn spawn_signal_thread(tx: crossbeam_channel::Sender<LoopEvent>) -> Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])
        .context("installing signal handlers")?;
    crate::jobs::named("signals", move || {
        let mut tally = Tally::default();
        for sig in signals.forever() {
            let sent = tx.try_send(LoopEvent::Signal(sig)).is_ok();
            crate::wake::wake_loop();
            // A quit ends the workspace even if its loop cannot.
            if sig != SIGHUP {
                crate::diag::exit_watchdog::arm(128 + sig);
            }
            if tally.stuck_after(sig, sent) {
                crate::terminal::guard::restore();
                crate::pane::program::children::kill_all();
                std::process::exit(128 + sig);
            }
        }
    })
    .context("starting the signal thread")?;
    Ok(())
}

/// Which signals say the loop is stuck.
#[derive(Default)]
struct Tally {
    quits: u32,
}

impl Tally {
    /// Whether the loop must be given up on after `sig` (`sent`: whether it
    /// reached the loop's channel). A second SIGTERM or SIGINT: the first
    /// did not end the workspace. SIGHUP does not count: in a session it
    /// detaches and the workspace rightly goes on.
    fn stuck_after(&mut self, sig: i32, sent: bool) -> bool {
        if sig != SIGHUP {
            self.quits += 1;
        }
        self.quits > 1 || !sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hangup_does_not_make_the_next_sigterm_look_stuck() {
        let mut tally = Tally::default();
        assert!(!tally.stuck_after(SIGHUP, true));
        assert!(!tally.stuck_after(SIGHUP, true));
        assert!(!tally.stuck_after(SIGTERM, true));
        assert!(tally.stuck_after(SIGTERM, true));
    }

    #[test]
    fn a_second_quit_or_a_full_channel_gives_up() {
        let mut tally = Tally::default();
        assert!(!tally.stuck_after(SIGINT, true));
        assert!(tally.stuck_after(SIGTERM, true));
        assert!(Tally::default().stuck_after(SIGHUP, false));
    }
}
