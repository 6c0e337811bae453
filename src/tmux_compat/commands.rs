//! tmux's commands: their names, aliases and flags, and what runs each.
//! A command that fails says so as tmux does (`can't find pane: %99`) and
//! the whole line exits 1.

mod buffers;
mod moves;
mod options;
mod pane_commands;
mod sessions;
mod text;

use super::argv::{self, Parsed};
use super::format;
use super::server::{Server, Session};
use super::store::Store;
use super::tmux_target::{self, Current, Found, Kind};
use super::vars::Scope;
use crate::session::tmux_call::TmuxCall;

/// What runs a command.
type Run = fn(&mut Ctx, &Parsed) -> Result<(), String>;

/// A command: name, alias, getopt string, what runs it.
struct Spec(&'static str, &'static str, &'static str, Run);

const COMMANDS: &[Spec] = &[
    Spec("attach-session", "attach", "dErt:c:f:x", sessions::attach),
    Spec("detach-client", "detach", "aPs:t:E:", sessions::detach),
    Spec("has-session", "has", "t:", sessions::has),
    Spec("kill-server", "", "", sessions::kill_server),
    Spec("kill-session", "", "aCt:", sessions::kill_session),
    Spec("list-clients", "lsc", "F:t:f:", sessions::list_clients),
    Spec("list-sessions", "ls", "F:f:", sessions::list_sessions),
    Spec(
        "new-session",
        "new",
        "AdDEPXc:e:F:f:n:s:t:x:y:",
        sessions::new_session,
    ),
    Spec("rename-session", "rename", "t:", sessions::rename_session),
    Spec("start-server", "start", "", sessions::start_server),
    Spec(
        "switch-client",
        "switchc",
        "ElnprZc:t:T:",
        sessions::switch_client,
    ),
    Spec("break-pane", "breakp", "abdPF:n:s:t:", moves::break_pane),
    Spec("join-pane", "joinp", "bdfhvl:p:s:t:", moves::join_pane),
    Spec("kill-pane", "killp", "at:", pane_commands::kill_pane),
    Spec("kill-window", "killw", "at:", pane_commands::kill_window),
    Spec("last-pane", "lastp", "deZt:", pane_commands::last_pane),
    Spec("last-window", "last", "t:", pane_commands::last_window),
    Spec("list-panes", "lsp", "asF:f:t:", pane_commands::list_panes),
    Spec(
        "list-windows",
        "lsw",
        "aF:f:t:",
        pane_commands::list_windows,
    ),
    Spec("move-pane", "movep", "bdfhvl:p:s:t:", moves::join_pane),
    Spec("next-layout", "nextl", "t:", pane_commands::next_layout),
    Spec("previous-layout", "prevl", "t:", pane_commands::next_layout),
    Spec(
        "respawn-window",
        "respawnw",
        "c:e:kt:",
        pane_commands::respawn_window,
    ),
    Spec(
        "move-window",
        "movew",
        "abdkrs:t:",
        pane_commands::move_window,
    ),
    Spec(
        "new-window",
        "neww",
        "abc:de:F:kn:PSt:",
        pane_commands::new_window,
    ),
    Spec("next-window", "next", "at:", pane_commands::next_window),
    Spec(
        "previous-window",
        "prev",
        "at:",
        pane_commands::previous_window,
    ),
    Spec(
        "rename-window",
        "renamew",
        "t:",
        pane_commands::rename_window,
    ),
    Spec(
        "resize-pane",
        "resizep",
        "DLMRTt:Ux:y:Z",
        pane_commands::resize_pane,
    ),
    Spec(
        "resize-window",
        "resizew",
        "aADLRt:Ux:y:",
        pane_commands::resize_window,
    ),
    Spec(
        "respawn-pane",
        "respawnp",
        "c:e:kt:",
        pane_commands::respawn_pane,
    ),
    Spec(
        "rotate-window",
        "rotatew",
        "DUZt:",
        pane_commands::rotate_window,
    ),
    Spec(
        "select-layout",
        "selectl",
        "Enopt:",
        pane_commands::select_layout,
    ),
    Spec(
        "select-pane",
        "selectp",
        "DdegLlMmP:RT:t:UZ",
        pane_commands::select_pane,
    ),
    Spec(
        "select-window",
        "selectw",
        "lnpTt:",
        pane_commands::select_window,
    ),
    Spec(
        "split-window",
        "splitw",
        "bc:de:fF:hIl:p:Pt:vZ",
        pane_commands::split_window,
    ),
    Spec("swap-pane", "swapp", "dDs:t:UZ", moves::swap_pane),
    Spec("swap-window", "swapw", "ds:t:", moves::swap_window),
    Spec(
        "choose-buffer",
        "",
        "F:f:GK:NO:rt:Z",
        pane_commands::choose_buffer,
    ),
    Spec(
        "choose-client",
        "",
        "F:f:K:NO:rt:Z",
        pane_commands::choose_tree,
    ),
    Spec(
        "choose-tree",
        "",
        "F:f:GK:NO:rst:wZ",
        pane_commands::choose_tree,
    ),
    Spec("copy-mode", "", "eHMqSt:u", pane_commands::copy_mode),
    Spec(
        "display-panes",
        "displayp",
        "bd:Nt:",
        pane_commands::display_panes,
    ),
    Spec("pipe-pane", "pipep", "IOot:", text::pipe_pane),
    Spec("send-prefix", "", "2t:", pane_commands::send_prefix),
    Spec(
        "capture-pane",
        "capturep",
        "ab:CeE:JNpPqS:Tt:",
        text::capture_pane,
    ),
    Spec(
        "display-message",
        "display",
        "aCc:d:lINpt:F:v",
        text::display_message,
    ),
    Spec(
        "display-popup",
        "popup",
        "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:",
        text::display_popup,
    ),
    Spec("send-keys", "send", "c:FHKlMN:RXt:", text::send_keys),
    Spec("delete-buffer", "deleteb", "b:", buffers::delete_buffer),
    Spec("list-buffers", "lsb", "F:f:", buffers::list_buffers),
    Spec("load-buffer", "loadb", "b:t:w", buffers::load_buffer),
    Spec(
        "paste-buffer",
        "pasteb",
        "db:prSs:t:",
        buffers::paste_buffer,
    ),
    Spec("save-buffer", "saveb", "ab:", buffers::save_buffer),
    Spec("set-buffer", "setb", "ab:t:n:w", buffers::set_buffer),
    Spec("show-buffer", "showb", "b:", buffers::show_buffer),
    Spec("bind-key", "bind", "nrN:T:", options::bind_key),
    Spec("if-shell", "if", "bFt:", options::if_shell),
    Spec("list-keys", "lsk", "1aNP:T:", options::list_keys),
    Spec("run-shell", "run", "bd:Ct:", options::run_shell),
    Spec(
        "set-environment",
        "setenv",
        "Fhgrt:u",
        options::set_environment,
    ),
    Spec("set-hook", "", "agpRt:uw", options::set_hook),
    Spec("set-option", "set", "aFgopqst:uUw", options::set_option),
    Spec(
        "set-window-option",
        "setw",
        "aFgoqt:u",
        options::set_window_option,
    ),
    Spec(
        "show-environment",
        "showenv",
        "hgst:",
        options::show_environment,
    ),
    Spec("show-hooks", "", "gpt:w", options::show_hooks),
    Spec("show-options", "show", "AgHpqst:vw", options::show_options),
    Spec(
        "show-window-options",
        "showw",
        "gvt:",
        options::show_window_options,
    ),
    Spec("source-file", "source", "Fnqv", options::source_file),
    Spec("unbind-key", "unbind", "anqT:", options::unbind_key),
    Spec("wait-for", "wait", "LSU", options::wait_for),
    Spec(
        "refresh-client",
        "refresh",
        "A:B:cC:Df:F:l:LRSt:U",
        options::accept,
    ),
];

/// The command `name` names: exactly, by alias, or by a unique prefix.
fn lookup(name: &str) -> Result<&'static Spec, String> {
    if let Some(spec) = COMMANDS
        .iter()
        .find(|s| s.0 == name || (!s.1.is_empty() && s.1 == name))
    {
        return Ok(spec);
    }
    let found: Vec<&Spec> = COMMANDS.iter().filter(|s| s.0.starts_with(name)).collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("unknown command: {name}")),
        many => {
            let names: Vec<&str> = many.iter().map(|s| s.0).collect();
            Err(format!(
                "ambiguous command: {name}, could be: {}",
                names.join(", ")
            ))
        }
    }
}

/// One invocation's state: the server, its sessions as last read, and
/// what goes to stdout.
pub struct Ctx {
    pub server: Server,
    sessions: Option<Vec<Session>>,
    /// A change was made since `sessions` was read: the next look reads
    /// them again (until then, what a command found stays valid).
    stale: bool,
    pub out: Vec<u8>,
    /// Set by a command that ended the invocation early (`attach`).
    pub exit: Option<i32>,
}

impl Ctx {
    pub fn new(server: Server) -> Self {
        Self {
            server,
            sessions: None,
            stale: false,
            out: Vec::new(),
            exit: None,
        }
    }

    /// The sessions, read once and again after a change.
    pub fn sessions(&mut self) -> Result<&[Session], String> {
        if self.sessions.is_none() || self.stale {
            self.stale = false;
            let sessions = self.server.sessions().map_err(|e| format!("{e:#}"))?;
            self.sessions = Some(sessions);
        }
        Ok(self.sessions.as_deref().unwrap_or_default())
    }

    /// The sessions, or tmux's "no server running" when there are none.
    pub fn live(&mut self) -> Result<&[Session], String> {
        let path = self.server.socket_path();
        let sessions = self.sessions()?;
        if sessions.is_empty() {
            return Err(format!("no server running on {path}"));
        }
        Ok(sessions)
    }

    /// Forgets what was read: the next look asks again.
    pub fn changed(&mut self) {
        self.stale = true;
    }

    pub fn store(&self) -> Result<Store, String> {
        Store::of(&self.server).map_err(|e| format!("{e:#}"))
    }

    fn current(&self) -> Current {
        let session = self.server.current.as_ref().and_then(|ws| {
            self.sessions
                .as_ref()
                .and_then(|s| s.iter().position(|x| &x.workspace == ws))
        });
        Current {
            session,
            pane: self.server.current_pane,
            marked: self.sessions.as_ref().and_then(|sessions| {
                sessions.iter().find_map(|s| {
                    let pane = s.state.marked?;
                    Some(crate::workspace::tmux_env::tmux_id(
                        s.state.number,
                        u64::from(pane),
                    ))
                })
            }),
        }
    }

    /// Resolves `target` as a `kind`.
    pub fn find(&mut self, target: Option<&str>, kind: Kind) -> Result<Found, String> {
        self.live()?;
        let now = self.current();
        tmux_target::resolve(
            self.sessions.as_deref().unwrap_or_default(),
            now,
            target,
            kind,
        )
    }

    pub fn session(&self, found: Found) -> &Session {
        &self.sessions.as_deref().unwrap_or_default()[found.session]
    }

    /// The script id of the pane `found` names.
    pub fn pane_number(&self, found: Found) -> u32 {
        self.session(found).state.tabs[found.tab].panes[found.pane].id
    }

    pub fn tab_serial(&self, found: Found) -> u64 {
        self.session(found).state.tabs[found.tab].serial
    }

    /// Sends `call` to the session `found` is in.
    pub fn call(&mut self, found: Found, call: TmuxCall) -> Result<String, String> {
        let session = self.session(found).clone();
        let answer = self.server.call(&session, call);
        self.changed();
        answer
    }

    /// Expands `template` at `found`.
    pub fn expand(&self, template: &str, found: Option<Found>) -> String {
        let sessions = self.sessions.as_deref().unwrap_or_default();
        let scope = match found {
            Some(f) => {
                Scope::new(&self.server, sessions.get(f.session)).at(Some(f.tab), Some(f.pane))
            }
            None => Scope::new(&self.server, None),
        };
        format::expand(template, &scope)
    }

    pub fn print(&mut self, line: &str) {
        self.out.extend_from_slice(line.as_bytes());
        self.out.push(b'\n');
    }

    /// Every session, window or pane as `found`s, for `list-*`.
    pub fn all_found(&self) -> Vec<Found> {
        let mut all = Vec::new();
        for (s, session) in self
            .sessions
            .as_deref()
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            for (t, tab) in session.state.tabs.iter().enumerate() {
                for p in 0..tab.panes.len() {
                    all.push(Found {
                        session: s,
                        tab: t,
                        pane: p,
                    });
                }
            }
        }
        all
    }
}

/// Runs one command (its words); output collects in `ctx.out`.
pub fn run(ctx: &mut Ctx, words: &[String]) -> Result<(), String> {
    let Some((name, args)) = words.split_first() else {
        return Ok(());
    };
    let spec = lookup(name)?;
    let parsed = argv::parse(spec.0, spec.2, args)?;
    (spec.3)(ctx, &parsed)
}

/// Runs a line of tmux commands as a config file or `if-shell` has them:
/// words split as a shell would, `;` between commands.
pub fn run_line(ctx: &mut Ctx, line: &str) -> Result<(), String> {
    let words = shell_words(line)?;
    for command in argv::split_commands(&words) {
        run(ctx, &command)?;
    }
    Ok(())
}

/// Splits `line` into words: quotes, backslashes, `#` comments.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '#' if !in_word => break,
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("syntax error: missing '".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => word.extend(chars.next()),
                        Some(c) => word.push(c),
                        None => return Err("syntax error: missing \"".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(';') => word.push_str("\\;"),
                    Some(c) => word.push(c),
                    None => {}
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_unique_prefixes() {
        assert_eq!(lookup("splitw").map(|s| s.0), Ok("split-window"));
        assert_eq!(lookup("send").map(|s| s.0), Ok("send-keys"));
        assert_eq!(lookup("capturep").map(|s| s.0), Ok("capture-pane"));
        assert_eq!(lookup("display").map(|s| s.0), Ok("display-message"));
        assert_eq!(lookup("lsp").map(|s| s.0), Ok("list-panes"));
        assert_eq!(lookup("new-w").map(|s| s.0), Ok("new-window"));
        assert_eq!(
            lookup("fly").err(),
            Some("unknown command: fly".to_string())
        );
        assert!(lookup("list").is_err_and(|e| e.starts_with("ambiguous command: list")));
    }

    #[test]
    fn config_lines_split_like_a_shell() {
        assert_eq!(
            shell_words(r#"bind -n C-h if "$is_vim" 'send C-h' 'select-pane -L' # x"#),
            Ok(vec![
                "bind".into(),
                "-n".into(),
                "C-h".into(),
                "if".into(),
                "$is_vim".into(),
                "send C-h".into(),
                "select-pane -L".into()
            ])
        );
    }
}
