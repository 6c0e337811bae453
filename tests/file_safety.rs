//! Files another user can race: nothing tilework reads or deletes on a
//! program's word, or keeps for itself, leads it outside the places it
//! means (issue 40).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::os::fd::AsFd as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{TempDir, Tilework};
use tilework::graphics::kitty::command::Command;
use tilework::graphics::kitty::medium::read_medium;

/// The temporary directories a `t=t` file may be in (as tilework counts
/// them), so the victim below is certainly outside all of them.
fn temp_roots() -> Vec<PathBuf> {
    [std::env::temp_dir(), "/tmp".into(), "/dev/shm".into()]
        .into_iter()
        .flat_map(|dir| [std::fs::canonicalize(&dir).ok(), Some(dir)])
        .flatten()
        .collect()
}

/// A new directory outside every temporary directory, wherever this
/// checkout is: the build's scratch directory, else `/var/tmp`, else home.
fn outside_temp_dirs(tag: &str) -> tempfile::TempDir {
    let candidates = [
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
        "/var/tmp".into(),
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default(),
    ];
    let roots = temp_roots();
    let base = candidates
        .into_iter()
        .filter_map(|c| std::fs::canonicalize(c).ok())
        .find(|c| !roots.iter().any(|root| c.starts_with(root)))
        .expect("a directory outside the temporary directories");
    tempfile::Builder::new()
        .prefix(tag)
        .tempdir_in(base)
        .unwrap()
}

const FILE: &str = "data-tty-graphics-protocol";

/// Another user's trick (issue 40): a directory of theirs under `/tmp`,
/// named with the mark, swapped for a link to one of the victim's
/// directories and back, over and over (`renameat2(RENAME_EXCHANGE)`, so
/// the name is always one or the other), while a pane sends `t=t` for a
/// file in it. Whatever the timing, tilework deletes only in the
/// attacker's own directory: the victim's file of the same name survives.
#[test]
fn a_temporary_file_race_with_a_swapping_directory_never_deletes_outside() {
    let victim = outside_temp_dirs("tilework-victim-");
    let canary = victim.path().join(FILE);
    std::fs::write(&canary, b"the victim's own file").unwrap();

    let attacker = tempfile::Builder::new()
        .prefix("tilework-attacker-")
        .tempdir()
        .unwrap();
    let swapped = attacker.path().join("d-tty-graphics-protocol");
    let other = attacker.path().join("other");
    std::fs::create_dir(&swapped).unwrap();
    std::os::unix::fs::symlink(victim.path(), &other).unwrap();
    // The real directory, held open so its file can be put back after
    // each delete wherever its name is at the moment.
    let real = std::fs::File::open(&swapped).unwrap();
    let put_back = |real: &std::fs::File| {
        let fd = rustix::fs::openat(
            real.as_fd(),
            FILE,
            rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CREATE,
            rustix::fs::Mode::from_raw_mode(0o600),
        );
        if let Ok(fd) = fd {
            let _ = rustix::io::write(&fd, b"\x01\x02\x03\x04");
        }
    };
    put_back(&real);

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, swapped, other) = (stop.clone(), swapped.clone(), other.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    &swapped,
                    rustix::fs::CWD,
                    &other,
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .unwrap();
                put_back(&real);
                swaps += 1;
            }
            swaps
        })
    };

    let command = Command::parse(b"t=t").unwrap();
    let name = swapped.join(FILE);
    let name = name.as_os_str().as_encoded_bytes();
    let mut read = 0;
    let mut survived = true;
    for _ in 0..50_000 {
        read += usize::from(read_medium(&command, name).is_ok());
        if !canary.exists() {
            survived = false;
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(
        survived,
        "the victim's file outside the temporary directories was deleted \
         ({read} reads, {swaps} swaps)"
    );
    assert!(read > 0, "no read got through: the race was not run");
    assert!(swaps > 0);
    assert_eq!(
        std::fs::read(&canary).unwrap(),
        b"the victim's own file",
        "the victim's file changed"
    );
    assert!(Path::new(&canary).exists());
}

/// `tilework ARGS` (no terminal) with `state` as `XDG_STATE_HOME` and a
/// private runtime directory of its own: stderr and the exit status. One
/// that has not ended after a generous while is killed and fails the test
/// (a hang, not a slow machine).
fn cli(state: &Path, args: &[&str]) -> (String, i32) {
    let runtime = state.join("run");
    std::fs::DirBuilder::new()
        .recursive(true)
        .create(&runtime)
        .unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let mut child = std::process::Command::new(common::binary())
        .args(args)
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state.join("config"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("HOME", state)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > give_up {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tilework {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (stderr, status.code().unwrap_or(-1))
}

/// `XDG_STATE_HOME` whose `tilework/saved/w` is a saved workspace's
/// directory, private as tilework makes them, for a test to plant in.
fn saved_dir(state: &TempDir) -> PathBuf {
    let own = state.path().join("tilework");
    let dir = own.join("saved/w");
    std::fs::create_dir_all(&dir).unwrap();
    for d in [&own, &own.join("saved"), &dir] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    dir
}

/// A manifest whose only pane's history files start with `prefix`.
fn manifest_with_prefix(prefix: &str) -> String {
    format!(
        r#"{{"version":1,"saved_at":0,"layout":"[[tab]]\nname = \"one\"\n","panes":[{{"files":"{prefix}","budget":1048576}}]}}"#
    )
}

/// A state directory another user made first (issue 40): they could read
/// the log (pane commands, paths) and put a link in place of `saved/`. It
/// is refused, with a sentence on the terminal before the workspace is
/// drawn, by `tilework` and by `ls`, `attach` and `forget`. Both ways of
/// not being the user's own: open to others (any user can try this one),
/// and owned by another uid (only root can make one, as CI runs).
#[test]
fn a_state_directory_not_the_users_own_is_refused_before_the_terminal_is_touched() {
    let mut cases = vec![("open to other users", None)];
    if rustix::process::getuid().is_root() {
        cases.push(("belongs to uid 65534, not to you", Some(65534)));
    }
    for (said, owner) in cases {
        let state = TempDir::new("foreign-state");
        let theirs = state.path().join("tilework");
        std::fs::create_dir_all(theirs.join("saved/w")).unwrap();
        std::fs::write(theirs.join("saved/w/manifest.json"), "{}").unwrap();
        let mode = if owner.is_some() { 0o700 } else { 0o777 };
        std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(mode)).unwrap();
        if let Some(uid) = owner {
            let uid = Some(rustix::fs::Uid::from_raw(uid));
            rustix::fs::chown(&theirs, uid, None).unwrap();
        }

        let env = [("XDG_STATE_HOME", state.path().to_str().unwrap())];
        let mut tw = Tilework::start_with(&[], 24, 100, &env);
        let status = tw.wait_exit();
        let screen = tw.screen_text();
        assert_eq!(status.exit_code(), 2, "{screen}");
        assert!(
            screen.contains(said) && screen.contains("refusing to use it"),
            "not said on the terminal:\n{screen}"
        );
        assert!(!tw.raw_contains(b"\x1b[?1049h"), "the workspace was drawn");

        for args in [&["ls"][..], &["attach", "w"], &["forget", "w"]] {
            let (stderr, code) = cli(state.path(), args);
            assert_eq!(code, 2, "tilework {args:?}: {stderr}");
            assert!(stderr.contains(said), "tilework {args:?}: {stderr}");
        }
        assert!(theirs.join("saved/w/manifest.json").exists());
        assert!(!theirs.join("tilework.log").exists(), "a log written there");
    }
}

/// `saved/` replaced by a link to a directory of the victim's: `tilework
/// forget` deletes nothing through it (before, `remove_dir_all` followed
/// it and emptied the victim's directory of that name).
#[test]
fn forget_through_a_saved_directory_replaced_by_a_link_leaves_the_victims_files() {
    let state = TempDir::new("saved-link");
    let own = state.path().join("tilework");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o700)).unwrap();
    let victim = TempDir::new("saved-link-victim");
    std::fs::create_dir_all(victim.path().join("w")).unwrap();
    std::fs::write(victim.path().join("w/manifest.json"), "{}").unwrap();
    std::fs::write(victim.path().join("w/precious"), "the victim's own").unwrap();
    std::os::unix::fs::symlink(victim.path(), own.join("saved")).unwrap();

    let (stderr, code) = cli(state.path(), &["forget", "w"]);
    assert_eq!(
        std::fs::read_to_string(victim.path().join("w/precious")).unwrap_or_default(),
        "the victim's own",
        "a file was deleted through the link ({stderr})"
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not a directory"), "{stderr}");
}

/// Saved files that are not what tilework wrote (issue 40, §3): a FIFO
/// planted as the manifest (reading it would wait for a writer forever),
/// a 300 MB manifest (read whole, it took `ls` to 880 MiB), text that is
/// not a manifest, and a history prefix leading out of the save's
/// directory. Each: `ls` ends and says which save is damaged and how to
/// remove it, `attach` refuses it with the same sentence, `forget` removes
/// it.
#[test]
fn saved_files_that_are_not_what_tilework_wrote_are_refused_with_a_sentence() {
    type Plant = fn(&Path);
    let cases: [(&str, &str, Plant); 5] = [
        ("a FIFO", "not a regular file", |manifest| {
            nix::unistd::mkfifo(manifest, nix::sys::stat::Mode::S_IRWXU).unwrap();
        }),
        ("300 MB", "larger than 1048576 bytes", |manifest| {
            let file = std::fs::File::create(manifest).unwrap();
            file.set_len(300 << 20).unwrap();
        }),
        ("not JSON", "expected value", |manifest| {
            std::fs::write(manifest, "garbage").unwrap();
        }),
        (
            "../ prefix",
            "is not the name of a pane's history files",
            |manifest| {
                std::fs::write(manifest, manifest_with_prefix("../../victim")).unwrap();
            },
        ),
        (
            "/ prefix",
            "is not the name of a pane's history files",
            |manifest| {
                std::fs::write(manifest, manifest_with_prefix("/etc/x")).unwrap();
            },
        ),
    ];
    for (case, why, plant) in cases {
        let state = TempDir::new("damaged-save");
        let dir = saved_dir(&state);
        plant(&dir.join("manifest.json"));

        let said = "saved workspace \"w\" is damaged (";
        let remedy = "`tilework forget w` removes it";
        let (stderr, code) = cli(state.path(), &["ls"]);
        assert_eq!(code, 0, "{case}: ls: {stderr}");
        for text in [said, why, remedy] {
            assert!(stderr.contains(text), "{case}: ls said {stderr:?}");
        }
        // On a terminal, as a user attaches: said there, nothing drawn.
        let env = [("XDG_STATE_HOME", state.path().to_str().unwrap())];
        let mut tw = Tilework::start_with(&["attach", "w"], 24, 200, &env);
        let status = tw.wait_exit();
        let screen = tw.screen_text().replace('\n', "");
        assert_eq!(status.exit_code(), 2, "{case}: attach: {screen}");
        for text in [said, why, remedy] {
            assert!(screen.contains(text), "{case}: attach said {screen:?}");
        }
        assert!(
            !tw.raw_contains(b"\x1b[?1049h"),
            "{case}: a workspace was drawn"
        );
        let (stderr, code) = cli(state.path(), &["forget", "w"]);
        assert_eq!(code, 0, "{case}: forget: {stderr}");
        assert!(!dir.exists(), "{case}: forget left it");
    }
}

/// A save whose files claim what no pane has (issue 40, §3): a size file
/// saying its history was printed at 65535x65535 (a replay at that size
/// wants gigabytes of cells), blocks each claiming 16 MiB of output (a
/// few KiB of packed zeros) and budgets of 16 EiB. Restored, the
/// workspace takes what a pane could really have held: the real history
/// comes back, the claims are not believed, and its peak memory stays
/// within a pane's worth (before, such a save took a restore past 3 GiB).
#[test]
fn a_save_claiming_huge_sizes_and_blocks_restores_in_bounded_memory() {
    use tilework::pane::history::scrollback::BLOCK_BYTES;
    use tilework::pane::history::size_log::SizeFrom;
    use tilework::persist::block_file;
    use tilework::persist::manifest::{Manifest, SavedPane};
    use tilework::persist::size_file::SavedSizes;

    let state = TempDir::new("huge-claims");
    let dir = saved_dir(&state);
    // The first pane: two real blocks of numbered lines, and sizes no
    // terminal has.
    let mut text = Vec::new();
    let mut n = 0;
    while text.len() < 2 * BLOCK_BYTES {
        n += 1;
        text.extend_from_slice(format!("saved-line-{n:06}\r\n").as_bytes());
    }
    text.truncate(2 * BLOCK_BYTES);
    let last_whole = String::from_utf8_lossy(&text)
        .rsplit("\r\n")
        .nth(1)
        .unwrap()
        .to_string();
    let mut segment = Vec::new();
    for (k, block) in text.chunks(BLOCK_BYTES).enumerate() {
        block_file::encode(k as u64, block.len(), false, block, &mut segment);
    }
    std::fs::write(dir.join("r-p1-000000.blk"), segment).unwrap();
    let sizes = SavedSizes {
        block_len: BLOCK_BYTES as u64,
        sizes: vec![SizeFrom {
            from: 0,
            rows: 65535,
            cols: 65535,
        }],
    };
    std::fs::write(dir.join("r-p1.sizes"), sizes.encode()).unwrap();
    // The second pane: blocks claiming 16 MiB each.
    let huge = vec![0u8; 16 << 20];
    let packed = lz4_flex::block::compress(&huge);
    let mut segment = Vec::new();
    for k in 0..32 {
        block_file::encode(k, huge.len(), true, &packed, &mut segment);
    }
    std::fs::write(dir.join("r-p2-000000.blk"), segment).unwrap();
    let pane = |files: &str| SavedPane {
        files: Some(files.into()),
        budget: u64::MAX,
        job: None,
    };
    Manifest {
        version: 1,
        saved_at: 0,
        layout: "[[tab]]\nlayout = { split = \"right\", panes = [{ focus = true }, {}] }\n".into(),
        panes: vec![pane("r-p1"), pane("r-p2")],
        active_tab: 0,
        zoomed_tabs: Vec::new(),
        ids: None,
    }
    .write(&dir)
    .unwrap();

    let env = [("XDG_STATE_HOME", state.path().to_str().unwrap())];
    let tw = Tilework::start_with(&["attach", "w"], 24, 100, &env);
    tw.wait_for_text(&last_whole);
    tw.wait_for("both panes restored", |s| {
        s.contents().matches("restored from").count() == 2
    });
    let pid = tw.workspace_pid();
    let peak_kib = common::proc_status_kib(pid, "VmHWM").unwrap();
    eprintln!("restore of huge claims: peak RSS {peak_kib} KiB");
    assert!(
        peak_kib < 256 * 1024,
        "the restore peaked at {} MiB",
        peak_kib / 1024
    );
    assert!(common::alive(pid));
}
