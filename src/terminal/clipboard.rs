//! Putting copied text on the user's clipboard: OSC 52 through the user's
//! terminal (works over ssh, inside tmux with `set-clipboard on`), plus a
//! local command (`wl-copy`, `xclip`) when one is configured or found.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::Engine as _;

/// The OSC 52 sequence that sets the clipboard to `text`.
pub fn osc52(text: &str) -> Vec<u8> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = Vec::with_capacity(encoded.len() + 8);
    out.extend_from_slice(b"\x1b]52;c;");
    out.extend_from_slice(encoded.as_bytes());
    out.push(0x07);
    out
}

/// The local copy command: the configured one, else `wl-copy` under
/// Wayland or `xclip` under X11 when installed, else none.
pub fn local_command(configured: Option<&str>) -> Option<Vec<String>> {
    if let Some(line) = configured {
        let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
        return (!argv.is_empty()).then_some(argv);
    }
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
    };
    if std::env::var_os("WAYLAND_DISPLAY").is_some() && on_path("wl-copy") {
        return Some(vec!["wl-copy".into()]);
    }
    if std::env::var_os("DISPLAY").is_some() && on_path("xclip") {
        return Some(vec![
            "xclip".into(),
            "-selection".into(),
            "clipboard".into(),
        ]);
    }
    None
}

/// Runs the copy command with `text` on its stdin, on its own thread: a
/// clipboard daemon that hangs must not freeze the workspace.
pub fn copy_with_command(argv: Vec<String>, text: String) {
    // A thread that cannot start is said in the log by `jobs::named`.
    let _ = crate::jobs::named("clipboard", move || {
        let Some((program, args)) = argv.split_first() else {
            return;
        };
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match child {
            Ok(mut child) => {
                if let Some(mut stdin) = child.stdin.take() {
                    let _ = stdin.write_all(text.as_bytes());
                }
                let _ = child.wait();
            }
            Err(err) => tracing::warn!("running {program}: {err}"),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_is_base64_in_an_osc() {
        assert_eq!(osc52("hello"), b"\x1b]52;c;aGVsbG8=\x07".to_vec());
        // Escapes in copied text cannot break out: they are base64 too.
        assert!(!osc52("\x1b[2J").windows(2).any(|w| w == b"\x1b["));
    }

    #[test]
    fn a_configured_command_is_split_into_words() {
        assert_eq!(
            local_command(Some("xclip -selection clipboard")),
            Some(vec![
                "xclip".into(),
                "-selection".into(),
                "clipboard".into()
            ])
        );
        assert_eq!(local_command(Some("  ")), None);
    }
}
