//! A new user's first steps (issue 16): `cargo test` on a machine with only
//! Rust, and errors that say what to do.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::{Command, Stdio};

use common::REQUIRE_ALL;

/// Set, by the test below, for the copy of this test binary it runs.
const PROBE: &str = "TILEWORK_TEST_SKIP_PROBE";
const MISSING: &str = "tilework-no-such-program-xyz";

/// A test of a program that is not installed; a no-op unless [`PROBE`] is set.
#[test]
fn skip_probe() {
    if std::env::var_os(PROBE).is_none() {
        return;
    }
    assert!(!common::require_program(MISSING));
}

/// Runs [`skip_probe`] as `cargo test` would, without `--nocapture`.
fn run_probe(require_all: bool) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "skip_probe"])
        .env(PROBE, "1")
        .env_remove(REQUIRE_ALL)
        .stdin(Stdio::null());
    if require_all {
        cmd.env(REQUIRE_ALL, "1");
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_missing_program_skips_its_test_visibly_and_fails_it_under_ci() {
    let (passed, text) = run_probe(false);
    assert!(passed, "{text}");
    assert!(
        text.contains(&format!("skipped: {MISSING} not installed")),
        "the skip must show in a passing run:\n{text}"
    );

    let (passed, text) = run_probe(true);
    assert!(!passed, "a skip under {REQUIRE_ALL}=1 must fail:\n{text}");
    assert!(
        text.contains(&format!("{MISSING} is not installed and {REQUIRE_ALL}=1")),
        "{text}"
    );
}

#[test]
fn an_installed_program_runs_its_test() {
    assert!(common::require_program_in("sh", true));
}
