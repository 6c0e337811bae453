//! Panics as an exit path, and the panics that are not one.
//!
//! The parser panics on some program output, and one pane's program must not end
//! the workspace: [`contain`] catches those (see `pane::term::parse_guard`). Any
//! other panic ends tilework, after the clean-up the loop armed with
//! [`clean_up_on_panic`] (terminal restored, children ended).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Once, OnceLock};

/// What an uncontained panic runs before the message is printed.
// why process-wide: the panic hook (and this module's statics
// below) runs on any thread, past the loop.
static CLEAN_UP: OnceLock<fn()> = OnceLock::new();

/// The message of the uncontained panic being handled, for the clean-up to
/// show on the terminals it restores (the workspace's own stderr reaches
/// none of them).
static LAST_PANIC: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// The uncontained panic's message, while its clean-up runs.
pub fn last_panic() -> Option<String> {
    LAST_PANIC
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

thread_local! {
    /// Set while this thread runs code under [`contain`], whose caller
    /// catches a panic and recovers from it.
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

/// From now on an uncontained panic runs `clean_up` first. Armed once per
/// process; later calls change nothing.
pub fn clean_up_on_panic(clean_up: fn()) {
    let _ = CLEAN_UP.set(clean_up);
    install_panic_hook();
}

/// Runs `f`; a panic in it is caught and returned as its message instead
/// of ending the workspace. The panic hook stays quiet about it: no
/// clean-up, no message on stderr (the user's terminal), only a line in the
/// log. The caller must treat whatever `f` was changing as broken.
pub fn contain<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    install_panic_hook();
    let outer = CONTAINED.replace(true);
    let result = catch_unwind(AssertUnwindSafe(f));
    CONTAINED.set(outer);
    result.map_err(|payload| panic_message(payload.as_ref()))
}

/// Runs the clean-up armed with [`clean_up_on_panic`], if any: for other
/// exits that cannot go through the loop (`exit_watchdog`).
pub fn clean_up_now() {
    if let Some(clean_up) = CLEAN_UP.get() {
        clean_up();
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// For a panic that [`contain`] will catch: only logs it. For any other, once
/// armed: runs the clean-up (restores the terminal, ends the children)
/// before the default hook prints the panic message, so the message lands
/// on the main screen where the user can read it.
fn install_panic_hook() {
    // A load once installed: `contain` runs for every sequence parsed.
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CONTAINED.get() {
                tracing::warn!("contained panic: {info}");
                return;
            }
            *LAST_PANIC
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(format!("{info}"));
            if let Some(clean_up) = CLEAN_UP.get() {
                clean_up();
            }
            tracing::error!("panic: {info}");
            previous(info);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_panic_comes_back_as_its_message() {
        assert_eq!(contain(|| 7), Ok(7));
        let caught = contain(|| -> u8 { panic!("parser broke at {}", 985) });
        assert_eq!(caught, Err("parser broke at 985".to_string()));
        assert!(!CONTAINED.get(), "the flag outlived the call");
        // Nested: the inner call leaves the outer one contained.
        let outer = contain(|| {
            let inner = contain(|| -> () { panic!("inner") });
            assert!(CONTAINED.get());
            inner
        });
        assert_eq!(outer, Ok(Err("inner".to_string())));
        assert!(!CONTAINED.get());
    }
}
