//! The one place that starts work off the loop (helix's `job.rs` is the
//! model). The loop never waits on a file, a socket conversation or a
//! child; such work runs here and its result comes back to the loop
//! through a [`Mailbox`] (which wakes it), to be handled on a later turn.
//!
//! - [`run`]: a one-off job (a file read, a rename, a command's output, a
//!   list gathered): its result is posted to the loop's mailbox.
//! - [`named`]: a long-lived thread of its own (a reader, a listener, a
//!   watcher, a hook's queue), started the same way and named for the
//!   log and for `ps -T`.
//!
//! Either says whether the thread could start; the caller answers as for
//! a failure (the thread is never retried behind its back). A thread that
//! cannot start is said in the log here, once, under its name: a caller
//! does not say it again (it falls back, tells the user, or passes the
//! error on).

use std::thread::JoinHandle;

use crate::mailbox::Mailbox;

/// Runs `work` on a thread named `name` and posts what it returns to
/// `done`. Returns false when no thread could be started (said in the
/// log): nothing is posted then.
pub fn run<T: Send + 'static>(
    name: &str,
    done: Mailbox<T>,
    work: impl FnOnce() -> T + Send + 'static,
) -> bool {
    named(name, move || {
        done.post(work());
    })
    .is_ok()
}

/// Starts `body` on a long-lived thread named `name`. A thread that cannot
/// be started is said in the log, and the error returned.
pub fn named<T: Send + 'static>(
    name: &str,
    body: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<JoinHandle<T>> {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(body)
        .inspect_err(|err| tracing::warn!("starting the {name} thread: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_posts_its_result_to_the_mailbox() {
        let (tx, rx) = crossbeam_channel::bounded(1);
        assert!(run("test-job", Mailbox::from(tx), || 6 * 7));
        let posted = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(posted.ok(), Some(42));
    }

    #[test]
    fn a_named_thread_carries_its_name() {
        let name = named("test-named", || {
            std::thread::current().name().map(String::from)
        });
        let name = name.ok().and_then(|handle| handle.join().ok()).flatten();
        assert_eq!(name.as_deref(), Some("test-named"));
    }
}
