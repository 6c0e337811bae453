//! The three things we compare, each launched so the pane the benchmark
//! runs in is 104 columns by 59 rows (the zellij write-up's pane).

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use crate::outer::{Launch, base_env};

/// The pane the benchmark's program sees.
pub const PANE_COLS: u16 = 104;
pub const PANE_ROWS: u16 = 59;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Contender {
    /// The program straight on the outer PTY: nothing in between.
    Bare,
    /// tilework with its defaults, in a terminal 2 columns and 3 rows larger
    /// than the pane (border and status bar).
    Tilework,
    /// tmux with no config but `status off`, one session per run.
    Tmux,
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Bare => "bare",
            Self::Tilework => "tilework",
            Self::Tmux => "tmux",
        })
    }
}

/// Where the multiplexers are.
#[derive(Debug, Clone, clap::Args)]
pub struct Tools {
    /// The tilework binary to measure.
    #[arg(long, value_name = "PATH", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/tilework"))]
    pub tilework: PathBuf,
    /// The tmux binary.
    #[arg(long, value_name = "PATH", default_value = "tmux")]
    pub tmux: String,
    /// An extra argument for tilework (repeatable), e.g.
    /// `--tilework-arg=--stats=/tmp/stats.jsonl`.
    #[arg(long = "tilework-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub tilework_args: Vec<String>,
}

/// A scratch directory for one run, removed when dropped.
pub struct Workdir {
    path: PathBuf,
}

impl Workdir {
    pub fn new(tag: &str) -> Result<Self> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("tilework-bench-{}-{tag}-{n}", std::process::id()));
        if path.exists() {
            std::fs::remove_dir_all(&path)
                .with_context(|| format!("clearing {}", path.display()))?;
        }
        std::fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Self { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Workdir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Ends a benchmark's tmux server, whatever happened to the run.
pub struct TmuxServer {
    tmux: String,
    socket: String,
    tmpdir: PathBuf,
}

impl TmuxServer {
    pub fn kill(&self) {
        let _ = Command::new(&self.tmux)
            .args(["-L", &self.socket, "kill-server"])
            .env("TMUX_TMPDIR", &self.tmpdir)
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Single-quotes `s` for sh.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// How a contender lays out several panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrangement {
    /// Side by side, left to right.
    SideBySide,
    /// An even grid, row by row (tmux's `tiled` layout): how 33 panes fit.
    Tiled,
}

/// The outer terminal for `contender` with `panes` (sh command lines)
/// arranged as asked, the first one focused. Extra tilework arguments go
/// before the panes.
pub fn launch(
    contender: Contender,
    tools: &Tools,
    dir: &Workdir,
    panes: &[String],
    tilework_args: &[String],
) -> Result<(Launch, Option<TmuxServer>)> {
    launch_arranged(
        contender,
        tools,
        dir,
        panes,
        tilework_args,
        Arrangement::SideBySide,
    )
}

pub fn launch_arranged(
    contender: Contender,
    tools: &Tools,
    dir: &Workdir,
    panes: &[String],
    tilework_args: &[String],
    arrangement: Arrangement,
) -> Result<(Launch, Option<TmuxServer>)> {
    let mut env = base_env();
    match contender {
        Contender::Bare => {
            let [pane] = panes else {
                bail!("a bare PTY holds exactly one program");
            };
            Ok((
                Launch {
                    argv: vec!["/bin/sh".into(), "-c".into(), pane.clone()],
                    cols: PANE_COLS,
                    rows: PANE_ROWS,
                    env,
                    cwd: Some(dir.path().to_path_buf()),
                },
                None,
            ))
        }
        Contender::Tilework => {
            // No user config or state: the defaults are what we measure.
            for sub in ["config", "state"] {
                std::fs::create_dir_all(dir.file(sub))
                    .with_context(|| format!("creating {}", dir.file(sub).display()))?;
            }
            env.push(("XDG_CONFIG_HOME".into(), path_string(&dir.file("config"))));
            env.push(("XDG_STATE_HOME".into(), path_string(&dir.file("state"))));
            // The outer terminal starts in the scratch directory: no relative paths.
            let tilework = tools
                .tilework
                .canonicalize()
                .with_context(|| format!("resolving {}", tools.tilework.display()))?;
            let mut argv = vec![
                path_string(&tilework),
                "--log".into(),
                path_string(&dir.file("tilework.log")),
            ];
            argv.extend(tools.tilework_args.iter().cloned());
            argv.extend(tilework_args.iter().cloned());
            match arrangement {
                Arrangement::SideBySide => {
                    for pane in panes {
                        argv.push("-c".into());
                        argv.push(pane.clone());
                    }
                }
                Arrangement::Tiled => {
                    let profile = dir.file("tiled.toml");
                    std::fs::write(&profile, tiled_profile(panes))
                        .with_context(|| format!("writing {}", profile.display()))?;
                    argv.push("--profile".into());
                    argv.push(path_string(&profile));
                }
            }
            // A 1-cell border around the pane and a 1-row status bar.
            Ok((
                Launch {
                    argv,
                    cols: PANE_COLS + 2,
                    rows: PANE_ROWS + 3,
                    env,
                    cwd: Some(dir.path().to_path_buf()),
                },
                None,
            ))
        }
        Contender::Tmux => {
            let Some((first, rest)) = panes.split_first() else {
                bail!("tmux needs a pane command");
            };
            let conf = dir.file("tmux.conf");
            std::fs::write(&conf, "set -g status off\n")
                .with_context(|| format!("writing {}", conf.display()))?;
            let socket = format!("tilework-bench-{}", std::process::id());
            env.push(("TMUX_TMPDIR".into(), path_string(dir.path())));
            let mut argv = vec![
                tools.tmux.clone(),
                "-u".into(),
                "-f".into(),
                path_string(&conf),
                "-L".into(),
                socket.clone(),
                "new-session".into(),
                "-x".into(),
                PANE_COLS.to_string(),
                "-y".into(),
                PANE_ROWS.to_string(),
                first.clone(),
            ];
            for pane in rest {
                argv.extend([";".into(), "split-window".into(), "-h".into(), pane.clone()]);
                if arrangement == Arrangement::Tiled {
                    // Re-tiled after every split, or tmux runs out of room.
                    argv.extend([";".into(), "select-layout".into(), "tiled".into()]);
                }
            }
            if !rest.is_empty() {
                // Back to the first pane: leftmost, or top left in a grid.
                let first = match arrangement {
                    Arrangement::SideBySide => "{left}",
                    Arrangement::Tiled => "{top-left}",
                };
                argv.extend([";".into(), "select-pane".into(), "-t".into(), first.into()]);
            }
            Ok((
                Launch {
                    argv,
                    cols: PANE_COLS,
                    rows: PANE_ROWS,
                    env,
                    cwd: Some(dir.path().to_path_buf()),
                },
                Some(TmuxServer {
                    tmux: tools.tmux.clone(),
                    socket,
                    tmpdir: dir.path().to_path_buf(),
                }),
            ))
        }
    }
}

/// A tilework profile holding `panes` in an even grid, row by row, the
/// first focused: the same grid tmux's `tiled` layout makes.
fn tiled_profile(panes: &[String]) -> String {
    let columns = (1..).find(|c| c * c >= panes.len()).unwrap_or(1);
    let mut toml = String::from("[[tab]]\nname = \"tiled\"\n\n[tab.layout]\nsplit = \"down\"\n");
    for (row, chunk) in panes.chunks(columns).enumerate() {
        let focus = |col: usize| {
            if row == 0 && col == 0 {
                ", focus = true"
            } else {
                ""
            }
        };
        toml.push_str("\n[[tab.layout.panes]]\n");
        if let [pane] = chunk {
            // A split needs two panes: a lone last pane fills its row.
            // (Never the focused one: a grid of two or more has two per row.)
            toml.push_str(&format!("command = {}\n", toml_string(pane)));
            continue;
        }
        toml.push_str("split = \"right\"\npanes = [\n");
        for (col, pane) in chunk.iter().enumerate() {
            toml.push_str(&format!(
                "    {{ command = {}{} }},\n",
                toml_string(pane),
                focus(col)
            ));
        }
        toml.push_str("]\n");
    }
    toml
}

/// A TOML basic string holding `s`.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn path_string(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Whether the tilework binary has a flag (by its `--help`).
pub fn tilework_has_flag(tools: &Tools, flag: &str) -> bool {
    Command::new(&tools.tilework)
        .arg("--help")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout)
                .split(|c: char| c.is_whitespace() || c == ',' || c == '=')
                .any(|word| word == flag)
        })
}

/// Fails early, with a useful message, when a contender cannot run.
pub fn check(contender: Contender, tools: &Tools) -> Result<()> {
    match contender {
        Contender::Bare => Ok(()),
        Contender::Tilework => {
            if tools.tilework.is_file() {
                Ok(())
            } else {
                bail!(
                    "{} not found: build it with `cargo build --release`",
                    tools.tilework.display()
                )
            }
        }
        Contender::Tmux => {
            let ok = Command::new(&tools.tmux)
                .arg("-V")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                Ok(())
            } else {
                bail!(
                    "`{} -V` failed: install tmux (apt-get install tmux) or pass --tmux PATH",
                    tools.tmux
                )
            }
        }
    }
}
