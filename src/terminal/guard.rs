//! Puts the user's terminal into workspace mode and, on every exit path,
//! back exactly as it was: normal exit, error, panic, and signals.
//!
//! Turning modes on and off lives here and only here, so no exit path can
//! forget one of them.
//!
//! A panic is an exit path too, except one that [`contain`] catches: vt100
//! panics on some program output, and one pane's program must not end the
//! workspace (see `parse_guard`).

use std::cell::Cell;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::terminal;

/// Set while the terminal is in workspace mode, so restoring twice (panic
/// hook, then the guard's drop) writes nothing the second time.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Set once the terminal was put into workspace mode: from then on an
/// uncontained panic restores it and ends every child.
static CLEAN_UP_ON_PANIC: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Set while this thread runs code under [`contain`], whose caller
    /// catches a panic and recovers from it.
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

/// Alternate screen, SGR mouse with button motion, bracketed paste, focus
/// events, hidden cursor.
const ENTER: &[u8] = b"\x1b[?1049h\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h\x1b[?25l";
/// The reverse of [`ENTER`], plus a reset of the cursor shape and of SGR.
const LEAVE: &[u8] =
    b"\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[0 q\x1b[m\x1b[?1049l\x1b[?25h";

/// While alive, the terminal is in workspace mode.
pub struct TerminalGuard {
    _private: (),
}

impl TerminalGuard {
    /// Enables raw mode and the workspace modes. `mouse` false leaves mouse
    /// reporting off so the outer terminal's own selection keeps working.
    pub fn enter(mouse: bool) -> io::Result<Self> {
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = raw_stdout()?;
        if mouse {
            out.write_all(ENTER)?;
        } else {
            out.write_all(b"\x1b[?1049h\x1b[?2004h\x1b[?1004h\x1b[?25l")?;
        }
        CLEAN_UP_ON_PANIC.store(true, Ordering::SeqCst);
        install_panic_hook();
        Ok(Self { _private: () })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves workspace mode. Safe to call from any thread, any number of times.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    if let Ok(mut out) = raw_stdout() {
        // Best effort: the terminal may be gone (SIGHUP); nothing to report to.
        let _ = out.write_all(LEAVE);
    }
    let _ = terminal::disable_raw_mode();
}

fn raw_stdout() -> io::Result<File> {
    Ok(File::from(io::stdout().as_fd().try_clone_to_owned()?))
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
/// the workspace is up: restores the terminal and ends the children before
/// the default hook prints the panic message, so the message lands on the
/// main screen where the user can read it.
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
            if CLEAN_UP_ON_PANIC.load(Ordering::SeqCst) {
                restore();
                crate::pane::children::kill_all();
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
