//! A new user's first steps (issue 16): `cargo test` on a machine with only
//! Rust, and errors that say what to do.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::{Command, Stdio};

use common::{REQUIRE_ALL, TempDir, Tilework};

const ROWS: u16 = 24;
const COLS: u16 = 100;

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

/// A `bin` directory standing in for `$PATH` in the `scripts/profile.sh`
/// tests: a `cargo` that only logs its arguments (and "installs" samply),
/// `perf` when asked for, and `cat`.
struct FakePath {
    dir: TempDir,
}

impl FakePath {
    fn new(with_perf: bool) -> Self {
        use std::os::unix::fs::PermissionsExt;
        let dir = TempDir::new("fakepath");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let script = |name: &str, body: &str| {
            let path = bin.join(name);
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        let log = dir.path().join("cargo.log");
        script(
            "cargo",
            &format!(
                "echo \"$@\" >> '{}'\nprintf '#!/bin/sh\\n' > '{}/samply'\nchmod +x '{}/samply'",
                log.display(),
                bin.display(),
                bin.display()
            ),
        );
        if with_perf {
            script("perf", "exit 0");
        }
        std::os::unix::fs::symlink("/bin/cat", bin.join("cat")).unwrap();
        std::os::unix::fs::symlink("/bin/chmod", bin.join("chmod")).unwrap();
        Self { dir }
    }

    fn path(&self) -> String {
        self.dir.path().join("bin").display().to_string()
    }

    /// What the fake cargo was asked to do.
    fn cargo_calls(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("cargo.log")).unwrap_or_default()
    }
}

/// Sources `scripts/profile.sh` (which then only defines its functions) and
/// prints `chose-` and the recorder it picks.
const CHOOSE: &str = r#"source "$0/scripts/profile.sh"; r=$(choose_profiler) && echo "chose-$r""#;

/// `choose_profiler` with no terminal: stdin is /dev/null.
fn choose_without_terminal(fake: &FakePath) -> (bool, String, String) {
    let out = Command::new("/bin/bash")
        .args(["-c", CHOOSE, env!("CARGO_MANIFEST_DIR")])
        .env("PATH", fake.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn profile_sh_without_a_terminal_uses_perf_and_installs_nothing() {
    let fake = FakePath::new(true);
    let (ok, stdout, stderr) = choose_without_terminal(&fake);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), "chose-perf", "{stderr}");
    assert_eq!(fake.cargo_calls(), "", "nothing installed");

    let fake = FakePath::new(false);
    let (ok, stdout, stderr) = choose_without_terminal(&fake);
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("Neither samply nor perf"), "{stderr}");
    assert_eq!(fake.cargo_calls(), "");
}

/// `choose_profiler` in a terminal, answering `answer` to its question.
fn choose_in_terminal(fake: &FakePath, answer: &str, expect: &str) {
    let path = fake.path();
    let mut tw = Tilework::start_program(
        "/bin/bash",
        &["-c", CHOOSE, env!("CARGO_MANIFEST_DIR")],
        ROWS,
        COLS,
        &[("PATH", &path)],
    );
    tw.wait_for_text("Install it now with 'cargo install --locked samply'");
    tw.type_line(answer);
    tw.wait_for_text(expect);
}

#[test]
fn profile_sh_asks_before_installing_samply() {
    let fake = FakePath::new(true);
    choose_in_terminal(&fake, "n", "chose-perf");
    assert_eq!(fake.cargo_calls(), "", "no means no");

    let fake = FakePath::new(true);
    choose_in_terminal(&fake, "y", "chose-samply");
    assert_eq!(fake.cargo_calls().trim(), "install --locked samply");
}

#[test]
fn with_stdout_redirected_tilework_says_stdout_is_not_a_terminal() {
    let dir = TempDir::new("notty");
    let out = dir.path().join("out");
    let out = out.to_string_lossy();
    // As a user types `tilework > out` in a terminal: stdin and stderr are it.
    let mut tw = Tilework::start_program(
        "/bin/sh",
        &["-c", r#"exec "$0" > "$1""#, common::binary(), &out],
        ROWS,
        COLS,
        &[],
    );
    let status = tw.wait_exit();
    assert_eq!(status.exit_code(), 2, "{}", tw.screen_text());
    let text = tw.screen_text();
    assert!(
        text.contains("tilework: stdout is not a terminal"),
        "{text}"
    );
    assert!(!text.contains("os error"), "{text}");
    assert_eq!(
        std::fs::read(&*out).unwrap(),
        b"",
        "nothing drawn into the file"
    );
    tw.assert_terminal_restored();
}

#[test]
fn a_config_whose_shell_cannot_run_is_refused_with_its_line() {
    let dir = TempDir::new("badshell");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "mouse = true\nshell = \"/bin/zsh-typo\"\n").unwrap();
    let out = Command::new(common::binary())
        .arg("--config")
        .arg(&config)
        .env("HOME", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("config.toml:2:9: shell: cannot run shell `/bin/zsh-typo`: no such file"),
        "{stderr}"
    );
}

#[test]
fn a_profile_and_a_command_together_are_refused_as_a_conflict() {
    let out = Command::new(common::binary())
        .args(["--profile", "dev", "--", "htop"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn the_readme_set_up_names_the_rust_version_cargo_checks() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let set_up = readme
        .split("## Set-up")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a Set-up section");
    let version = env!("CARGO_PKG_RUST_VERSION");
    assert!(!version.is_empty(), "Cargo.toml sets rust-version");
    assert!(
        set_up.contains(&format!("Rust {version} or newer")),
        "{set_up}"
    );
    assert!(set_up.contains("cargo install --path ."), "{set_up}");
    // The two commands a fresh machine needs: run the workspace, run the tests.
    assert!(set_up.contains("cargo run --release"), "{set_up}");
    assert!(set_up.contains("cargo test"), "{set_up}");
}
