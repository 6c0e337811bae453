//! The text `tilework --print-config` prints: every setting and binding at
//! its default, commented out, so it doubles as documentation and as a
//! starting point for the config file.

use crate::config::action::Action;
use crate::config::appearance;
use crate::config::copy_keymap::CopyAction;
use crate::config::keymap::KeySpec;
use crate::config::settings::{
    Config, MAX_FPS, MAX_MAX_PANES, MAX_REPEAT_MS, MAX_SCROLLBACK_BYTES, UNBIND, format_size,
};

/// A TOML string literal for `s`, escaped as TOML requires.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The text `tilework --print-config` prints: every setting and binding at
/// its default, commented out, so it doubles as documentation and as a
/// starting point. Parsing it gives exactly [`Config::default`], and so does
/// parsing it with every setting uncommented.
pub fn default_toml() -> String {
    let d = Config::default();
    let km = &d.keymap;
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    line("# tilework configuration.");
    line("#");
    line("# Every setting is shown with its default value, commented out: uncomment a");
    line("# line to change it. The file lives at ~/.config/tilework/config.toml");
    line("# ($XDG_CONFIG_HOME/tilework/config.toml), or pass --config PATH.");
    line("");
    line("# The key that starts a prefixed binding: press it, then a key from");
    line("# [keys.prefixed]. Pressed twice it goes to the pane (send-prefix follows");
    line("# the prefix when you change it).");
    line(&format!(
        "# prefix = {}",
        toml_string(&km.prefix.to_string())
    ));
    line("");
    line("# Program run in new panes. Default: $SHELL, else /bin/sh.");
    line("# Example: shell = \"/bin/zsh\"");
    line("");
    line("# Scrollback kept per pane, in bytes of output (held compressed, so it");
    line("# takes about half that in memory): a number of bytes, or a size with a unit");
    line(&format!(
        "# (B, KiB, MiB, GiB, KB, MB, GB). At most {} GiB.",
        MAX_SCROLLBACK_BYTES >> 30
    ));
    line(&format!(
        "# scrollback = {}",
        format_size(d.scrollback_bytes)
    ));
    line("");
    line("# Memory for the pictures programs show in panes (sixel, kitty graphics), for");
    line("# the whole workspace; past it the oldest pictures are dropped. A size as above.");
    line(&format!("# image_memory = {}", format_size(d.image_memory)));
    line("");
    line(&format!(
        "# Highest redraw rate in frames per second (1 to {MAX_FPS}). Idle panes cost nothing."
    ));
    line(&format!("# fps = {}", d.fps));
    line("");
    line("# false: a pane closes when its program exits.");
    line("# true: the pane stays open and shows the program's exit status.");
    line(&format!("# keep_exited_panes = {}", d.keep_exited_panes));
    line("");
    line("# The most panes open at once, however they are opened (keys, tilework run,");
    line(&format!(
        "# actions); one more is refused with a reason. 1 to {MAX_MAX_PANES}."
    ));
    line(&format!("# max_panes = {}", d.max_panes));
    line("");
    line("# Ask (y/n in the status bar) before closing a pane or tab, or quitting,");
    line("# would stop a program other than a shell waiting at its prompt.");
    line(&format!("# confirm_close = {}", d.confirm_close));
    line("");
    line("# After a resize key (C-b C-Left, C-b H), how many milliseconds the resize");
    line("# keys work again without the prefix, each press starting it again (tmux's");
    line(&format!(
        "# repeat-time). 0 turns repeating off; at most {MAX_REPEAT_MS}."
    ));
    line(&format!("# repeat_time = {}", d.repeat_time.as_millis()));
    line("");
    line("# TERM given to programs in panes.");
    line(&format!("# term = {}", toml_string(&d.term)));
    line("");
    line("# Handle the mouse in tilework. false leaves it to the outer terminal,");
    line("# e.g. for the terminal's own text selection.");
    line(&format!("# mouse = {}", d.mouse));
    line("");
    line("# Let programs in panes set your clipboard with OSC 52 (e.g. vim, tmux");
    line("# inside tilework). Off: a program or a file you cat could overwrite it.");
    line(&format!(
        "# clipboard_from_programs = {}",
        d.clipboard_from_programs
    ));
    line("");
    line("# Let programs read your clipboard (OSC 52 ?): \"off\", \"ask\" (y/n in the");
    line("# status bar each time) or \"allow\".");
    line(&format!(
        "# clipboard_read = {}",
        toml_string(d.clipboard_read.name())
    ));
    line("");
    line("# C-b e opens the pane's history in $VISUAL / $EDITOR (else vi). true keeps");
    line("# its colours as SGR sequences, for an editor or pager that shows them.");
    line(&format!("# editor_ansi = {}", d.editor_ansi));
    line("");
    line("# Tools built for tmux (libtmux, tmuxp, agent teams, vim-slime) find tilework:");
    line("# panes get $TMUX, $TMUX_PANE and a `tmux` on PATH that is tilework.");
    line(&format!("# tmux_compat = {}", d.tmux_compat));
    line("");
    line("# OSC 8 hyperlinks that programs print (ls --hyperlink, gcc, cargo): kept");
    line("# on their cells and drawn as links in your terminal. false drops them.");
    line(&format!("# hyperlinks = {}", d.hyperlinks));
    line("");
    line("# What your terminal draws that it cannot be asked about (tmux's");
    line("# terminal-features). Styled underlines (curly, dotted...) and underline");
    line("# colours go only to terminals that answer XTGETTCAP for them or are");
    line("# listed here; others get a plain underline. \"progress\": programs'");
    line("# progress (OSC 9;4) is passed on (ghostty, WezTerm, iTerm2 get it anyway).");
    line("# Example: terminal_features = [\"styled-underlines\"]  (or \"underline-colours\")");
    line("");
    line("# The colours programs are told when they ask for the terminal's");
    line("# foreground, background and cursor colour (OSC 10/11/12; editors pick a");
    line("# light or dark theme by them). By default tilework asks your terminal at");
    line("# start and answers what it said (nothing when it did not say).");
    line("# Example: terminal_background = \"#1e1e2e\"");
    line("# (also terminal_foreground, terminal_cursor)");
    line("");
    line("# When the terminal hangs up (ssh dropped, window closed): \"detach\" keeps");
    line("# the workspace running for `tilework attach`; \"quit\" ends it.");
    line("# on_hangup = \"detach\"");
    line("");
    line("# Notifications programs send (OSC 9, OSC 777 notify, kitty's OSC 99): \"status\"");
    line("# marks the pane's tab and shows the text in the status bar until you focus");
    line("# the pane; \"forward\" also passes them (sanitized) to your terminal, for a");
    line("# desktop notification; \"off\" ignores them.");
    line(&format!(
        "# notifications = {}",
        toml_string(d.notifications.name())
    ));
    line("");
    line("# With several terminals attached (`tilework attach` joins), the layout");
    line("# takes the size of the \"latest\" one to type, the \"smallest\" or the");
    line("# \"largest\"; a smaller terminal shows its top left, marked `…`.");
    line("# window_size = \"latest\"");
    line("");
    line("# \"shared\": every terminal shows the same tab and focus (tmux's clients);");
    line("# \"own\": each terminal its own tab and focused pane (zellij's), the");
    line("# status bar marking with ◆ the tabs other terminals show; each tab is");
    line("# laid out at the window_size of the terminals showing it.");
    line("# client_views = \"shared\"");
    line("");
    line("# Variables an attaching terminal brings for panes opened after it attached");
    line("# (tmux's update-environment); one unset there is unset in new panes.");
    line(&format!(
        "# update_environment = [{}]",
        crate::config::clients::DEFAULT_UPDATE_ENVIRONMENT
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    line("");
    line("# Workspaces are saved as they change, under $XDG_STATE_HOME/tilework/saved/");
    line("# (0700), and come back after a crash or reboot with `tilework attach NAME`.");
    line("# persist_history = false saves the layout, directories and commands but not");
    line("# the panes' output. keep_on_quit = true keeps a workspace quit with C-b Q or");
    line("# `tilework kill` too (`tilework forget NAME` deletes it). restore_commands:");
    line("# programs started again at once (a program run from a shell is typed at its");
    line("# prompt with Enter); other commands, and compound lines, wait for Enter.");
    line(&format!("# persist_history = {}", d.saving.history));
    line(&format!("# keep_on_quit = {}", d.saving.keep_on_quit));
    let commands: Vec<String> = d
        .saving
        .restore_commands
        .iter()
        .map(|c| toml_string(c))
        .collect();
    line(&format!("# restore_commands = [{}]", commands.join(", ")));
    line("");
    line("# Key bindings. Keys: C-x (Ctrl), M-x (Alt), S-x (Shift), combined like");
    line("# C-S-Left; Enter, Esc, Tab, BackTab, Space, Backspace, Insert, Delete, Home,");
    line("# End, PageUp, PageDown, Left, Right, Up, Down, F1..F35; or any single");
    line("# character. Bindings here are merged over the defaults listed below;");
    line(&format!(
        "# the action \"{UNBIND}\" removes a default binding. Actions:"
    ));
    let names: Vec<String> = Action::all().iter().map(Action::name).collect();
    for wrapped in wrap(&names.join(", "), 76) {
        line(&format!("#   {wrapped}"));
    }
    line("");
    line("[keys.prefixed]");
    line(&format!("# After the prefix key ({}).", km.prefix));
    for (key, action) in &km.prefixed {
        line(&binding_line(key, *action));
    }
    line("");
    line("[keys.direct]");
    line("# Without the prefix. These keys never reach the programs in panes.");
    for (key, action) in &km.direct {
        line(&binding_line(key, *action));
    }
    line("");
    line("[keys.copy]");
    line("# In copy mode (C-b [), tmux's copy-mode-vi table. Digits before a key");
    line("# are its count; the prefix key works here too. Commands:");
    let names: Vec<&str> = CopyAction::all().map(CopyAction::name).collect();
    for wrapped in wrap(&names.join(", "), 76) {
        line(&format!("#   {wrapped}"));
    }
    for (key, action) in &km.copy.bindings {
        let assignment = format!(
            "{} = {}",
            toml_string(&key.to_string()),
            toml_string(action.name())
        );
        line(&format!("# {assignment:<32} # {}", action.description()));
    }
    line("");
    out.push_str(&appearance::default_toml());
    out.push('\n');
    out.push_str(&crate::config::hooks::default_toml());
    out.push('\n');
    out.push_str(&crate::config::remote_settings::default_toml());
    out
}

fn binding_line(key: &KeySpec, action: Action) -> String {
    let assignment = format!(
        "{} = {}",
        toml_string(&key.to_string()),
        toml_string(&action.name())
    );
    format!("# {assignment:<32} # {}", action.description())
}

/// Greedy word wrap at `width` characters, breaking after ", ".
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_inclusive(' ') {
        if !current.is_empty() && current.len() + word.trim_end().len() > width {
            lines.push(current.trim_end().to_string());
            current.clear();
        }
        current.push_str(word);
    }
    if !current.trim().is_empty() {
        lines.push(current.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::config::keymap::Keymap;
    use crate::config::parse;
    use std::path::Path;

    fn parse_ok(text: &str) -> Config {
        parse(text, Path::new("/home/u/.config/tilework/config.toml"))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn default_toml_round_trips() {
        let text = default_toml();
        assert_eq!(parse_ok(&text), Config::default());
        // Every binding is listed.
        let km = Keymap::default();
        for (k, a) in km.prefixed.iter().chain(&km.direct) {
            let needle = format!(
                "{} = {}",
                toml_string(&k.to_string()),
                toml_string(&a.name())
            );
            assert!(text.contains(&needle), "{needle} missing");
        }
        for action in Action::all() {
            assert!(text.contains(&action.name()), "{action} not listed");
        }
    }

    #[test]
    fn default_toml_uncommented_round_trips() {
        let mut uncommented = 0;
        let text: String = default_toml()
            .lines()
            .map(|l| {
                let setting = l.strip_prefix("# ").filter(|rest| {
                    toml::from_str::<toml::Table>(rest).is_ok_and(|t| !t.is_empty())
                });
                match setting {
                    Some(rest) => {
                        uncommented += 1;
                        format!("{rest}\n")
                    }
                    None => format!("{l}\n"),
                }
            })
            .collect();
        let km = Keymap::default();
        // Every setting but `shell` (whose default is "unset"), and every binding.
        assert_eq!(
            uncommented,
            // `image_memory`, `on_hangup`, `window_size`, `update_environment`,
            // `notifications`, `hyperlinks`, the three of saving, then
            // `[theme]` and `[status]`: name, borders; left, right, clock;
            // the `[status]` command settings, `[hooks]` timeout,
            // silence_after and notify_after, and the copy keys; `[status]`
            // set_titles and set_titles_string; client_views; `tmux_compat`;
            // `[remote]` ssh_command, tilework and keepalive; `clipboard_read`.
            14 + 1
                + 1
                + 1
                + 1
                + 3
                + 1
                + km.prefixed.len()
                + km.direct.len()
                + km.copy.bindings.len()
                + 13
                + 3,
            "{text}"
        );
        assert_eq!(parse_ok(&text), Config::default());
    }
}
