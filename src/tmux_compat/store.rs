//! What a tmux server keeps that no workspace holds: paste buffers by
//! name, options, the environment, hooks, key bindings and wait-for
//! channels. Files in a private directory per server (inside
//! tilework's socket directory), shared by every `tmux` call; removed by
//! `kill-server`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};

use super::server::Server;

pub struct Store {
    dir: PathBuf,
}

/// Options, environment, hooks and keys: scope → name → value.
pub type Table = BTreeMap<String, BTreeMap<String, String>>;

impl Store {
    pub fn of(server: &Server) -> Result<Self> {
        let dir = server.runtime.join(format!(".tmux-{}", server.name));
        std::fs::create_dir_all(dir.join("buffers"))
            .with_context(|| format!("making {}", dir.display()))?;
        Ok(Self { dir })
    }

    pub fn remove(server: &Server) {
        let _ = std::fs::remove_dir_all(server.runtime.join(format!(".tmux-{}", server.name)));
        let _ = std::fs::remove_file(
            server
                .runtime
                .join(format!(".tmux-{}.sessions", server.name)),
        );
    }

    /// Table `name` (`options`, `environment`…).
    pub fn table(&self, name: &str) -> Table {
        std::fs::read(self.dir.join(format!("{name}.json")))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn save_table(&self, name: &str, table: &Table) -> Result<()> {
        let path = self.dir.join(format!("{name}.json"));
        let tmp = self.dir.join(format!(".{name}.{}", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec(table)?)?;
        std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))
    }

    /// The buffers, newest first: (name, text).
    pub fn buffers(&self) -> Vec<(String, Vec<u8>)> {
        let mut found: Vec<(std::time::SystemTime, String, Vec<u8>)> = Vec::new();
        if let Ok(entries) = std::fs::read_dir(self.dir.join("buffers")) {
            for entry in entries.flatten() {
                let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                    continue;
                };
                let when = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                if let Ok(text) = std::fs::read(entry.path()) {
                    found.push((when, name, text));
                }
            }
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        found.into_iter().map(|(_, n, t)| (n, t)).collect()
    }

    pub fn buffer(&self, name: Option<&str>) -> Option<(String, Vec<u8>)> {
        match name {
            Some(name) => std::fs::read(self.buffer_path(name))
                .ok()
                .map(|t| (name.to_string(), t)),
            None => self.buffers().into_iter().next(),
        }
    }

    fn buffer_path(&self, name: &str) -> PathBuf {
        let safe: String = name
            .chars()
            .map(|c| if c == '/' || c == '\0' { '_' } else { c })
            .collect();
        self.dir.join("buffers").join(safe)
    }

    /// Sets buffer `name` (a new automatic one: `bufferN`).
    pub fn set_buffer(&self, name: Option<&str>, text: &[u8]) -> Result<String> {
        let name = match name {
            Some(name) => name.to_string(),
            None => {
                let taken: Vec<String> = self.buffers().into_iter().map(|(n, _)| n).collect();
                (0..)
                    .map(|i| format!("buffer{i}"))
                    .find(|n| !taken.contains(n))
                    .unwrap_or_else(|| "buffer".into())
            }
        };
        std::fs::write(self.buffer_path(&name), text)
            .with_context(|| format!("writing buffer {name}"))?;
        Ok(name)
    }

    pub fn delete_buffer(&self, name: &str) -> bool {
        std::fs::remove_file(self.buffer_path(name)).is_ok()
    }

    pub fn rename_buffer(&self, from: &str, to: &str) -> bool {
        std::fs::rename(self.buffer_path(from), self.buffer_path(to)).is_ok()
    }

    /// `wait-for NAME`: returns once `signal(NAME)` is called (or was,
    /// with nobody waiting).
    pub fn wait(&self, channel: &str) -> Result<()> {
        let base = self.channel(channel);
        let fifo = PathBuf::from(format!("{}.{}.fifo", base.display(), std::process::id()));
        nix::unistd::mkfifo(
            &fifo,
            nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
        )
        .with_context(|| format!("making {}", fifo.display()))?;
        let woken = PathBuf::from(format!("{}.woken", base.display()));
        if std::fs::remove_file(&woken).is_ok() {
            let _ = std::fs::remove_file(&fifo);
            return Ok(());
        }
        // Blocks until the signaller opens it, and reads to its close.
        let read = std::fs::read(&fifo);
        let _ = std::fs::remove_file(&fifo);
        read.map(|_| ()).context("waiting on the channel")
    }

    /// `wait-for -S NAME`: wakes every waiter, or the next one to come.
    pub fn signal(&self, channel: &str) {
        use std::os::unix::fs::OpenOptionsExt;
        let base = self.channel(channel);
        let prefix = format!(
            "{}.",
            base.file_name().and_then(|f| f.to_str()).unwrap_or("")
        );
        let mut woke = false;
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !(name.starts_with(&prefix) && name.ends_with(".fifo")) {
                    continue;
                }
                // The waiter may not have opened it yet: a moment's grace.
                for _ in 0..100 {
                    match std::fs::OpenOptions::new()
                        .write(true)
                        .custom_flags(libc_nonblock())
                        .open(entry.path())
                    {
                        Ok(_) => {
                            woke = true;
                            break;
                        }
                        Err(_) if entry.path().exists() => {
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        Err(_) => break,
                    }
                }
            }
        }
        if !woke {
            let _ = std::fs::write(format!("{}.woken", base.display()), b"");
        }
    }

    /// `wait-for -L NAME`: takes the channel's lock, waiting for it.
    pub fn lock(&self, channel: &str) {
        let lock = format!("{}.lock", self.channel(channel).display());
        loop {
            if std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
                .is_ok()
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// `wait-for -U NAME`.
    pub fn unlock(&self, channel: &str) -> bool {
        std::fs::remove_file(format!("{}.lock", self.channel(channel).display())).is_ok()
    }

    fn channel(&self, name: &str) -> PathBuf {
        let safe: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        self.dir.join(format!("wait-{safe}"))
    }
}

fn libc_nonblock() -> i32 {
    nix::fcntl::OFlag::O_NONBLOCK.bits()
}
