//! Which tilework this is: the version `tilework ls` shows beside each
//! workspace, and the format of the state an upgrade hands from one binary
//! to the next (`crate::upgrade`).
//!
//! The state format is bumped when what passes between two binaries
//! changes meaning. A binary reads its own format and at least the last
//! released one ([`OLDEST_STATE_FORMAT_READ`]); a workspace keeping
//! another is not upgraded (it keeps running on its own binary).
//!
//! **Test switch.** Debug builds only (`cfg(debug_assertions)`): the
//! environment variables `TILEWORK_TEST_VERSION` (a version string) and
//! `TILEWORK_TEST_STATE_FORMAT` (a number) make this binary report another
//! version and keep another state format, so an end-to-end test plays two
//! builds with one (`tests/upgrade.rs`). Release builds ignore them.

use std::cmp::Ordering;

/// The state format this build writes.
pub const STATE_FORMAT: u32 = 2;

/// The oldest state format this build reads: the last released one at
/// least.
pub const OLDEST_STATE_FORMAT_READ: u32 = 1;

/// The test switch's variables (see the module's comment).
pub const TEST_VERSION_VAR: &str = "TILEWORK_TEST_VERSION";
pub const TEST_STATE_FORMAT_VAR: &str = "TILEWORK_TEST_STATE_FORMAT";

/// This binary's version, as `tilework ls` shows it.
pub fn version() -> String {
    test_override(TEST_VERSION_VAR)
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_graphic()))
        .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string())
}

/// The state format this binary writes.
pub fn state_format() -> u32 {
    test_override(TEST_STATE_FORMAT_VAR)
        .and_then(|v| v.parse().ok())
        .unwrap_or(STATE_FORMAT)
}

/// The state formats this binary reads, oldest first.
pub fn formats_read() -> (u32, u32) {
    let newest = state_format();
    (OLDEST_STATE_FORMAT_READ.min(newest), newest)
}

/// Whether this binary reads state of `format`.
pub fn reads(format: u32) -> bool {
    let (oldest, newest) = formats_read();
    (oldest..=newest).contains(&format)
}

/// The switch's value, in debug builds only.
fn test_override(var: &str) -> Option<String> {
    if cfg!(debug_assertions) {
        std::env::var(var).ok()
    } else {
        None
    }
}

/// Orders two versions by their dotted numbers (`0.10.0` after `0.9.1`);
/// a part that is not a number orders as text.
pub fn compare(a: &str, b: &str) -> Ordering {
    let mut left = a.split(['.', '-', '+']);
    let mut right = b.split(['.', '-', '+']);
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(l), Some(r)) => {
                let order = match (l.parse::<u64>(), r.parse::<u64>()) {
                    (Ok(l), Ok(r)) => l.cmp(&r),
                    _ => l.cmp(r),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// Whether a workspace running `theirs` runs an older binary than this one.
pub fn is_older(theirs: &str) -> bool {
    compare(theirs, &version()) == Ordering::Less
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_by_their_numbers() {
        assert_eq!(compare("0.10.0", "0.9.1"), Ordering::Greater);
        assert_eq!(compare("1.2", "1.2.0"), Ordering::Less);
        assert_eq!(compare("1.2.3", "1.2.3"), Ordering::Equal);
        assert_eq!(compare("0.1.0", "0.2.0"), Ordering::Less);
    }

    #[test]
    fn a_build_reads_its_own_format_and_the_last_released_one() {
        assert!(reads(STATE_FORMAT));
        assert!(reads(OLDEST_STATE_FORMAT_READ));
        assert!(!reads(STATE_FORMAT + 1));
        assert!(!reads(0));
    }
}
