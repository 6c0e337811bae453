//! The last word on ending: once the workspace is asked to end
//! (`tilework kill`, SIGTERM, SIGINT, or its loop is done: `C-b Q`, the
//! last pane closed), it is gone within [`QUIT_GRACE`]
//! whatever its loop is doing. The loop ends it cleanly well before that
//! (children hung up on, the profile saved, the socket removed, the
//! clients told); only a loop that cannot get there (a bug, a kernel
//! call that never returns) meets the watchdog, which restores the
//! terminal, ends the children as a panic would, and exits.

use std::sync::Once;
use std::time::Duration;

/// How long the loop has to end the workspace after it was asked.
pub const QUIT_GRACE: Duration = Duration::from_secs(3);

/// The workspace was asked to end, with exit status `code`: from now on
/// it ends within [`QUIT_GRACE`]. Armed once; later calls change nothing.
pub fn arm(code: i32) {
    // why process-wide: the watchdog ends the process when the loop is stuck.
    static ARMED: Once = Once::new();
    ARMED.call_once(|| {
        // A thread that cannot start is said in the log by `jobs::named`.
        let _ = crate::jobs::named("exit-watchdog", move || {
            std::thread::sleep(QUIT_GRACE);
            tracing::error!(
                "asked to end {QUIT_GRACE:?} ago and still running: the loop is stuck; \
                     ending here"
            );
            crate::diag::panic_guard::clean_up_now();
            std::process::exit(code);
        });
    });
}
