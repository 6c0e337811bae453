//! SIGTERM, SIGHUP and SIGINT end the workspace cleanly through the loop.

use anyhow::{Context, Result};

use super::loop_event::LoopEvent;

/// Forwards SIGTERM/SIGHUP/SIGINT to the loop, which shuts down cleanly. A
/// second signal means the loop is stuck: restore the terminal and exit.
pub(super) fn spawn_signal_thread(tx: crossbeam_channel::Sender<LoopEvent>) -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])
        .context("installing signal handlers")?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut seen = 0;
            for sig in signals.forever() {
                seen += 1;
                let sent = tx.try_send(LoopEvent::Signal(sig)).is_ok();
                crate::wake::wake_loop();
                if seen > 1 || !sent {
                    crate::terminal::guard::restore();
                    crate::pane::children::kill_all();
                    std::process::exit(128 + sig);
                }
            }
        })
        .context("starting the signal thread")?;
    Ok(())
}
