//! Release builds of the `tilework` binary place the functions a workspace
//! runs (start-up, a flood, typed keys: `scripts/hot-functions.txt`) next to
//! each other. The kernel maps code 64 KiB around every page touched, and
//! those few hundred functions were spread over all 3.3 MB of it: 2.7 MB of
//! code resident in the flood benchmark, 0.8 MB once they are together.
//!
//! Its relative relocations are packed too (`-z pack-relative-relocs`,
//! DT_RELR): the dynamic loader reads all of them at start, and as 11,500
//! 24-byte entries they kept 0.27 MB of the file resident; packed they take
//! 3.5 KB. Such a binary needs glibc 2.36 or newer, so only a build on such
//! a system gets it.
//!
//! Only where rustc links with its own lld (x86_64 Linux from Rust 1.90),
//! which reads the list; other linkers would refuse the flag. Names the
//! binary no longer has (a renamed function, another toolchain) are skipped
//! by the linker: a stale list costs memory, never a build.
//! `TILEWORK_NO_LINK_ORDER=1` turns both off.

use std::env;
use std::path::Path;
use std::process::Command;

const LIST: &str = "scripts/hot-functions.txt";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={LIST}");
    println!("cargo:rerun-if-env-changed=TILEWORK_NO_LINK_ORDER");
    if env::var("PROFILE").as_deref() != Ok("release")
        || env::var_os("TILEWORK_NO_LINK_ORDER").is_some_and(|v| v != "0")
        || !links_with_rust_lld()
    {
        return;
    }
    let Some(dir) = env::var_os("CARGO_MANIFEST_DIR") else {
        return;
    };
    let list = Path::new(&dir).join(LIST);
    if !list.is_file() {
        return;
    }
    println!(
        "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        list.display()
    );
    println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    if glibc_at_least(2, 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether this system's glibc is `major.minor` or newer (the binary is
/// built for the system it is built on).
fn glibc_at_least(major: u32, minor: u32) -> bool {
    // "glibc 2.36"
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else {
        return false;
    };
    version_at_least(version, (major, minor))
}

/// Whether a dotted version ("1.95.0", "2.36") is at least `want`.
fn version_at_least(version: &str, want: (u32, u32)) -> bool {
    let mut numbers = version.split('.').map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    (major, minor) >= want
}

/// Whether the binary will be linked by rustc's own lld: the default for
/// x86_64-unknown-linux-gnu since Rust 1.90, unless the build names a
/// linker or changes how rustc links.
fn links_with_rust_lld() -> bool {
    if env::var("TARGET").as_deref() != Ok("x86_64-unknown-linux-gnu")
        || env::var_os("RUSTC_LINKER").is_some()
    {
        return false;
    }
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if ["linker", "link-self-contained"]
        .iter()
        .any(|f| flags.contains(f))
    {
        return false;
    }
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let text = String::from_utf8_lossy(&out.stdout);
    version_at_least(text.split_whitespace().nth(1).unwrap_or(""), (1, 90))
}
