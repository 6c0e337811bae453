//! Files that can hold a user's secrets: a saved profile (pane commands)
//! and the log. They are private to the user and never written through a
//! symbolic link someone planted at their path.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use common::{TempDir, Tilework};

fn mode(path: &Path) -> String {
    let mode = std::fs::metadata(path).unwrap().permissions().mode();
    format!("{:o}", mode & 0o777)
}

#[test]
fn a_profile_saved_on_quit_is_private_and_a_planted_symlink_is_not_followed() {
    let config = TempDir::new("private-save");
    let profiles = config.path().join("tilework/profiles");
    std::fs::create_dir_all(&profiles).unwrap();
    let victim = config.path().join("victim");
    std::fs::write(&victim, "the victim's own text\n").unwrap();
    // The temporary name earlier versions wrote the profile to.
    std::os::unix::fs::symlink(&victim, profiles.join(".leaky.toml.tmp")).unwrap();

    let env = [("XDG_CONFIG_HOME", config.path().to_str().unwrap())];
    let args = [
        "--save-profile",
        "leaky",
        "-c",
        "echo token=s3cret; exec sleep 1000",
    ];
    let mut tw = Tilework::start_with(&args, 24, 80, &env);
    tw.wait_for_text("token=s3cret");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);

    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's own text\n",
        "the file the planted link points at was written"
    );
    let saved = profiles.join("leaky.toml");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("token=s3cret"), "{text}");
    assert_eq!(mode(&saved), "600", "the saved profile's mode");
}

#[test]
fn a_log_path_that_is_a_symlink_stops_tilework_with_a_clear_error() {
    let dir = TempDir::new("private-log");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "the victim's own text\n").unwrap();
    let log = dir.path().join("tilework.log");
    std::os::unix::fs::symlink(&victim, &log).unwrap();

    // The log is opened before the terminal is touched: no PTY needed.
    let out = std::process::Command::new(common::binary())
        .arg("--log")
        .arg(&log)
        .args(["-c", "true"])
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "the log file {} is a symbolic link",
            log.display()
        )),
        "stderr: {stderr}"
    );
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's own text\n"
    );
}

#[test]
fn a_profile_that_cannot_be_saved_on_quit_is_said_and_the_exit_fails() {
    let config = TempDir::new("unsaved");
    std::fs::create_dir_all(config.path().join("tilework")).unwrap();
    // Where profiles go is a file: the save fails, even for root.
    std::fs::write(config.path().join("tilework/profiles"), "").unwrap();
    let env = [("XDG_CONFIG_HOME", config.path().to_str().unwrap())];
    let args = [
        "--save-profile",
        "lost",
        "-c",
        "echo ready-$((1+1)); exec sleep 1000",
    ];
    let mut tw = Tilework::start_with(&args, 24, 80, &env);
    tw.wait_for_text("ready-2");
    tw.send("\x02Q");
    assert_ne!(tw.wait_exit().exit_code(), 0, "a lost save exited 0");
    tw.assert_terminal_restored();
    // On the terminal, after the workspace let go of it.
    tw.wait_for_text("the workspace was not saved as lost");
}
