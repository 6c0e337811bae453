//! Key bindings: which key presses become which [`Action`]s.
//!
//! Keys are written the way tmux and zellij users already know (`C-b`,
//! `M-h`, `S-Up`, `PageUp`, `%`), so config files and the help overlay speak
//! the same language. Matching is tolerant of the ways terminals actually
//! report keys (shifted characters, legacy control codes), because a binding
//! that never fires is worse than one that is slightly too eager.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::config::action::{Action, Direction, Preset};
pub use crate::config::key_spec::KeySpec;

/// All key bindings: the prefix key, the keys that act after the prefix, and
/// the keys that act on their own (without the prefix).
///
/// Bindings are ordered lists rather than maps so the help overlay can show
/// them in a stable, meaningful order, and so that re-binding a key in a
/// config keeps its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    pub prefix: KeySpec,
    pub prefixed: Vec<(KeySpec, Action)>,
    pub direct: Vec<(KeySpec, Action)>,
    /// Copy mode's keys (`[keys.copy]`).
    pub copy: crate::config::copy_keymap::CopyKeymap,
}

impl Keymap {
    /// Whether `ev` is the prefix key (which arms the prefixed table).
    pub fn is_prefix(&self, ev: &KeyEvent) -> bool {
        self.prefix.matches(ev)
    }

    /// The action for a key pressed right after the prefix.
    pub fn lookup_prefixed(&self, ev: &KeyEvent) -> Option<Action> {
        lookup(&self.prefixed, ev)
    }

    /// The action for a key pressed without the prefix; `None` means the key
    /// belongs to the pane.
    pub fn lookup_direct(&self, ev: &KeyEvent) -> Option<Action> {
        lookup(&self.direct, ev)
    }

    /// Changes the prefix, taking `send-prefix` along: in tmux tradition the
    /// prefix pressed twice sends it to the pane, so a `send-prefix` bound to
    /// the old prefix moves to the new one. Other prefixed bindings on the new
    /// prefix key are dropped so that "prefix twice" stays unambiguous, and so
    /// is a direct binding of it, which would otherwise shadow the prefix.
    pub fn set_prefix(&mut self, prefix: KeySpec) {
        let old = self.prefix;
        self.prefix = prefix;
        if old.same_key(&prefix) {
            return;
        }
        self.direct.retain(|(k, _)| !k.same_key(&prefix));
        let moves_send_prefix = self
            .prefixed
            .iter()
            .any(|(k, a)| *a == Action::SendPrefix && k.same_key(&old));
        if !moves_send_prefix {
            return;
        }
        self.prefixed
            .retain(|(k, a)| !(k.same_key(&prefix) && *a != Action::SendPrefix));
        for (key, action) in &mut self.prefixed {
            if *action == Action::SendPrefix && key.same_key(&old) {
                *key = prefix;
            }
        }
    }

    /// Binds `key` (after the prefix) to `action`, replacing any binding of
    /// the same key in place.
    pub fn bind_prefixed(&mut self, key: KeySpec, action: Action) {
        bind(&mut self.prefixed, key, action);
    }

    /// Binds `key` (without prefix) to `action`, replacing any binding of the
    /// same key in place.
    pub fn bind_direct(&mut self, key: KeySpec, action: Action) {
        bind(&mut self.direct, key, action);
    }

    /// Removes the prefixed binding of `key`; returns whether there was one.
    pub fn unbind_prefixed(&mut self, key: &KeySpec) -> bool {
        unbind(&mut self.prefixed, key)
    }

    /// Removes the direct binding of `key`; returns whether there was one.
    pub fn unbind_direct(&mut self, key: &KeySpec) -> bool {
        unbind(&mut self.direct, key)
    }

    /// Every key text bound to `action`: prefixed ones first (`C-b %`), then
    /// direct ones (`M-n`).
    pub fn keys_for(&self, action: Action) -> Vec<String> {
        let prefixed = self
            .prefixed
            .iter()
            .filter(|(_, a)| *a == action)
            .map(|(k, _)| format!("{} {k}", self.prefix));
        let direct = self
            .direct
            .iter()
            .filter(|(_, a)| *a == action)
            .map(|(k, _)| k.to_string());
        prefixed.chain(direct).collect()
    }

    /// The shortest key text for `action`, for status-bar hints where space
    /// is scarce.
    pub fn hint(&self, action: Action) -> Option<String> {
        self.keys_for(action)
            .into_iter()
            .min_by_key(|k| k.chars().count())
    }

    /// `(keys, description)` rows for the help overlay, in [`Action::all`]
    /// order, one row per bound action.
    ///
    /// Generated from the bindings rather than written by hand, so the help
    /// can never disagree with what the keys do. The nine go-to-tab bindings
    /// fold into one row when they are the usual digits, to keep the overlay
    /// short enough for small terminals.
    pub fn help_lines(&self) -> Vec<(String, String)> {
        let digits_are_tabs = (1..=9u8).all(|n| {
            let keys = self.keys_for(Action::GoToTab(n));
            keys.len() == 1 && keys[0] == format!("{} {n}", self.prefix)
        });
        let mut lines = Vec::new();
        for action in Action::all() {
            if digits_are_tabs && let Action::GoToTab(n) = action {
                if n == 1 {
                    lines.push((
                        format!("{} 1..9", self.prefix),
                        "go to tab 1..9".to_string(),
                    ));
                }
                continue;
            }
            let keys = self.keys_for(action);
            if !keys.is_empty() {
                lines.push((keys.join(", "), action.description()));
            }
        }
        lines
    }
}

fn lookup(table: &[(KeySpec, Action)], ev: &KeyEvent) -> Option<Action> {
    table
        .iter()
        .find(|(key, _)| key.matches(ev))
        .map(|&(_, action)| action)
}

fn bind(table: &mut Vec<(KeySpec, Action)>, key: KeySpec, action: Action) {
    match table.iter_mut().find(|(k, _)| k.same_key(&key)) {
        Some(slot) => *slot = (key, action),
        None => table.push((key, action)),
    }
}

fn unbind(table: &mut Vec<(KeySpec, Action)>, key: &KeySpec) -> bool {
    let before = table.len();
    table.retain(|(k, _)| !k.same_key(key));
    table.len() != before
}

impl Default for Keymap {
    /// tmux's layout of keys, plus a few Alt shortcuts for the most frequent
    /// moves. Quit is `Q` (shift) so a stray `q` after the prefix is harmless;
    /// Alt+digit is left alone because shells and editors use it.
    fn default() -> Self {
        use KeyCode::Char;
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let alt = KeyModifiers::ALT;
        let key = KeySpec::new;
        let prefix = key(Char('b'), ctrl);

        let arrow = |d: Direction| match d {
            Direction::Left => KeyCode::Left,
            Direction::Right => KeyCode::Right,
            Direction::Up => KeyCode::Up,
            Direction::Down => KeyCode::Down,
        };
        let vi = |d: Direction| match d {
            Direction::Left => 'h',
            Direction::Down => 'j',
            Direction::Up => 'k',
            Direction::Right => 'l',
        };

        let mut prefixed = vec![
            (key(Char('%'), none), Action::SplitRight),
            (key(Char('"'), none), Action::SplitDown),
            (key(Char('|'), none), Action::SplitRight),
            (key(Char('-'), none), Action::SplitDown),
        ];
        for d in Direction::ALL {
            prefixed.push((key(arrow(d), none), Action::Focus(d)));
        }
        for d in Direction::ALL {
            prefixed.push((key(Char(vi(d)), none), Action::Focus(d)));
        }
        prefixed.push((key(Char('o'), none), Action::FocusNext));
        prefixed.push((key(Char(';'), none), Action::FocusPrev));
        for d in Direction::ALL {
            prefixed.push((key(arrow(d), ctrl), Action::Resize(d)));
        }
        for d in Direction::ALL {
            let upper = vi(d).to_ascii_uppercase();
            prefixed.push((key(Char(upper), none), Action::Resize(d)));
        }
        prefixed.extend([
            (key(Char('z'), none), Action::ToggleZoom),
            (key(Char('x'), none), Action::ClosePane),
            (key(Char('c'), none), Action::NewTab),
            (key(Char('n'), none), Action::NextTab),
            (key(Char('p'), none), Action::PrevTab),
        ]);
        for n in 1..=9u8 {
            prefixed.push((key(Char(char::from(b'0' + n)), none), Action::GoToTab(n)));
        }
        prefixed.extend([
            (key(Char('['), none), Action::ScrollMode),
            (key(KeyCode::PageUp, none), Action::ScrollPageUp),
            (key(Char('?'), none), Action::ToggleHelp),
            (key(Char('f'), none), Action::ToggleFps),
            (prefix, Action::SendPrefix),
            (key(Char('Q'), none), Action::Quit),
            (key(Char('d'), none), Action::Detach),
            (key(Char('s'), none), Action::ChooseWorkspace),
            (key(Char('('), none), Action::PrevWorkspace),
            (key(Char(')'), none), Action::NextWorkspace),
            // Tabs and panes, tmux's keys where tmux has one.
            (key(Char('&'), none), Action::CloseTab),
            (key(Char(','), none), Action::RenameTab),
            (key(Char('!'), none), Action::BreakPane),
            (key(Char('N'), none), Action::MovePaneToNextTab),
            (key(Char('m'), none), Action::MarkPane),
            (key(Char('M'), none), Action::ClearPaneMark),
            (key(Char('}'), none), Action::SwapNext),
            (key(Char('{'), none), Action::SwapPrev),
            (key(Char('o'), ctrl), Action::RotatePanes),
            (key(Char(' '), none), Action::NextLayout),
            (key(Char('1'), alt), Action::Layout(Preset::EvenHorizontal)),
            (key(Char('2'), alt), Action::Layout(Preset::EvenVertical)),
            (key(Char('4'), alt), Action::Layout(Preset::MainVertical)),
            (key(Char('5'), alt), Action::Layout(Preset::Tiled)),
            (key(Char(']'), none), Action::PasteBuffer),
            (key(Char('/'), none), Action::SearchBackward),
            (key(Char('F'), none), Action::SearchAllPanes),
            (key(Char('B'), none), Action::ToggleBroadcast),
            (key(Char('S'), none), Action::SaveProfile),
            (key(Char('r'), none), Action::RestartPane),
            // Floating panes (zellij's `w` and `e` are taken here by tmux's
            // keys, so `w` toggles and `W` opens another, `E` embeds).
            (key(Char('w'), none), Action::ToggleFloating),
            (key(Char('W'), none), Action::NewFloating),
            (key(Char('E'), none), Action::ToggleEmbed),
            (key(Char('e'), none), Action::EditScrollback),
            (key(Char('y'), none), Action::CopyLastOutput),
            (key(Char('Y'), none), Action::EditLastOutput),
            (key(Char('P'), none), Action::TogglePin),
            (key(Char('R'), none), Action::SourceConfig),
            (key(Char('='), none), Action::ChooseBuffer),
        ]);
        for d in Direction::ALL {
            prefixed.push((key(arrow(d), alt), Action::MoveFloating(d)));
        }

        let mut direct = Vec::new();
        for d in Direction::ALL {
            direct.push((key(Char(vi(d)), alt), Action::Focus(d)));
        }
        for d in Direction::ALL {
            direct.push((key(arrow(d), alt), Action::Focus(d)));
        }
        direct.extend([
            (key(Char('n'), alt), Action::SplitRight),
            (key(Char('m'), alt), Action::SplitDown),
            (key(Char('z'), alt), Action::ToggleZoom),
            (key(Char('o'), alt), Action::FocusNext),
            (key(Char('t'), alt), Action::NewTab),
        ]);

        let mut keymap = Keymap {
            prefix,
            prefixed,
            direct,
            copy: crate::config::copy_keymap::CopyKeymap::default(),
        };
        // tmux's keys for these, in place of the vi `l` (focus right: the
        // arrows and `M-l`) and of `;` as previous pane (now `O`).
        for (key, action) in [
            (key(Char('l'), none), Action::LastTab),
            (key(Char(';'), none), Action::LastPane),
            (key(Char('O'), none), Action::FocusPrev),
            (key(Char('q'), none), Action::DisplayPanes),
            (key(Char('i'), none), Action::PaneInfo),
            (key(Char('\''), none), Action::SelectTab),
            (key(Char('.'), none), Action::MoveTab),
            (key(Char('<'), none), Action::MoveTabLeft),
            (key(Char('>'), none), Action::MoveTabRight),
            (key(Char(':'), none), Action::CommandPrompt),
            (key(Char('$'), none), Action::RenameWorkspace),
        ] {
            keymap.bind_prefixed(key, action);
        }
        keymap
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use ratatui::crossterm::event::{KeyEventKind, KeyEventState};

    fn spec(s: &str) -> KeySpec {
        s.parse().unwrap()
    }

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn ch(c: char) -> KeyEvent {
        press(KeyCode::Char(c), KeyModifiers::NONE)
    }

    const CTRL: KeyModifiers = KeyModifiers::CONTROL;
    const ALT: KeyModifiers = KeyModifiers::ALT;
    const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

    #[test]
    fn parses_modifier_spellings_case_insensitively() {
        let c_b = KeySpec::new(KeyCode::Char('b'), CTRL);
        for s in "C-b c-b Ctrl-b CTRL-b ctrl+b Control-b C-B".split(' ') {
            assert_eq!(spec(s), c_b, "{s}");
        }
        let m_h = KeySpec::new(KeyCode::Char('h'), ALT);
        for s in ["M-h", "m-h", "Alt-h", "alt+h", "Meta-h"] {
            assert_eq!(spec(s), m_h, "{s}");
        }
        assert_eq!(spec("S-Up"), KeySpec::new(KeyCode::Up, SHIFT));
        assert_eq!(spec("C-S-Left"), KeySpec::new(KeyCode::Left, CTRL | SHIFT));
        assert_eq!(spec("shift-ctrl-left"), spec("C-S-Left"));
        assert_eq!(spec("C-M-x"), KeySpec::new(KeyCode::Char('x'), CTRL | ALT));
    }

    #[test]
    fn parses_named_keys_and_characters() {
        let plain = KeySpec::plain;
        assert_eq!(spec("F5"), plain(KeyCode::F(5)));
        assert_eq!(spec("f12"), plain(KeyCode::F(12)));
        assert_eq!(spec("PageUp"), plain(KeyCode::PageUp));
        assert_eq!(spec("PgUp"), plain(KeyCode::PageUp));
        assert_eq!(spec("pgdn"), plain(KeyCode::PageDown));
        assert_eq!(spec("NPage"), plain(KeyCode::PageDown));
        assert_eq!(spec("Home"), plain(KeyCode::Home));
        assert_eq!(spec("End"), plain(KeyCode::End));
        assert_eq!(spec("Insert"), plain(KeyCode::Insert));
        assert_eq!(spec("Delete"), plain(KeyCode::Delete));
        assert_eq!(spec("Del"), plain(KeyCode::Delete));
        assert_eq!(spec("Tab"), plain(KeyCode::Tab));
        assert_eq!(spec("BackTab"), plain(KeyCode::BackTab));
        assert_eq!(spec("S-Tab"), plain(KeyCode::BackTab));
        assert_eq!(spec("Enter"), plain(KeyCode::Enter));
        assert_eq!(spec("Esc"), plain(KeyCode::Esc));
        assert_eq!(spec("Space"), plain(KeyCode::Char(' ')));
        assert_eq!(spec(" "), plain(KeyCode::Char(' ')));
        assert_eq!(spec("Backspace"), plain(KeyCode::Backspace));
        for d in ["Left", "Right", "Up", "Down", "left", "DOWN"] {
            assert!(d.parse::<KeySpec>().is_ok(), "{d}");
        }
        for c in ['%', '"', '?', '[', '-', '|', 'z', 'Z', '+', 'é'] {
            assert_eq!(spec(&c.to_string()), plain(KeyCode::Char(c)), "{c}");
        }
        assert_eq!(spec("C--"), KeySpec::new(KeyCode::Char('-'), CTRL));
        assert_eq!(spec("M-+"), KeySpec::new(KeyCode::Char('+'), ALT));
        assert_eq!(spec("S-a"), plain(KeyCode::Char('A')));
        assert_eq!(spec("M-N"), KeySpec::new(KeyCode::Char('N'), ALT));
    }

    #[test]
    fn rejects_unknown_keys_naming_them() {
        for (s, bad) in [
            ("C-foo", "foo"),
            ("Hyper-x", "Hyper-x"),
            ("F0", "F0"),
            ("F99", "F99"),
            ("M-", "M-"),
            ("C-b ", "b "),
            ("\u{1}", "\u{1}"),
        ] {
            let err = s.parse::<KeySpec>().unwrap_err();
            assert_eq!(err.key, bad, "{s}");
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
        let empty = "".parse::<KeySpec>().unwrap_err();
        assert!(empty.to_string().starts_with("empty key"), "{empty}");
        let msg = "C-foo".parse::<KeySpec>().unwrap_err().to_string();
        assert!(msg.starts_with("unknown key `foo` in `C-foo`"), "{msg}");
    }

    #[test]
    fn display_round_trips() {
        let specs = "C-b Ctrl-B M-h Alt-h S-Up C-S-Left F5 PageUp PgUp Home End Insert Delete \
            Tab BackTab S-Tab Enter Esc Space Backspace Left Right Up Down % \" ? [ - | z Z \
            C-- M-+ C-\\ C-] C-_ M-N S-a C-M-Delete M-Space F35";
        for s in specs.split_whitespace() {
            let parsed = spec(s);
            let shown = parsed.to_string();
            assert_eq!(spec(&shown), parsed, "{s} -> {shown}");
        }
        assert_eq!(spec("Ctrl-B").to_string(), "C-b");
        assert_eq!(spec("alt+shift+up").to_string(), "M-S-Up");
        assert_eq!(spec("PgUp").to_string(), "PageUp");
        assert_eq!(spec(" ").to_string(), "Space");
        assert_eq!(spec("S-Tab").to_string(), "BackTab");
    }

    #[test]
    fn shifted_characters_match_regardless_of_reported_shift() {
        assert!(spec("%").matches(&press(KeyCode::Char('%'), SHIFT)));
        assert!(spec("%").matches(&ch('%')));
        assert!(spec("Z").matches(&press(KeyCode::Char('Z'), SHIFT)));
        assert!(!spec("Z").matches(&ch('z')));
        assert!(!spec("z").matches(&press(KeyCode::Char('Z'), SHIFT)));
        assert!(spec("M-N").matches(&press(KeyCode::Char('N'), ALT | SHIFT)));
        assert!(!spec("M-n").matches(&press(KeyCode::Char('N'), ALT | SHIFT)));
        assert!(spec("M-N").matches(&press(KeyCode::Char('n'), ALT | SHIFT)));
        assert!(spec("Z").matches(&press(KeyCode::Char('z'), SHIFT)));
    }

    #[test]
    fn control_letters_match_case_insensitively() {
        assert!(spec("C-b").matches(&press(KeyCode::Char('b'), CTRL)));
        assert!(spec("C-b").matches(&press(KeyCode::Char('B'), CTRL)));
        assert!(spec("C-b").matches(&press(KeyCode::Char('B'), CTRL | SHIFT)));
        assert!(spec("C-B").matches(&press(KeyCode::Char('b'), CTRL)));
        assert!(!spec("C-b").matches(&ch('b')));
        assert!(!spec("C-b").matches(&press(KeyCode::Char('b'), CTRL | ALT)));
    }

    #[test]
    fn legacy_control_codes_match() {
        assert!(spec("C-\\").matches(&press(KeyCode::Char('4'), CTRL)));
        assert!(spec("C-]").matches(&press(KeyCode::Char('5'), CTRL)));
        assert!(spec("C-_").matches(&press(KeyCode::Char('7'), CTRL)));
        assert!(spec("C-/").matches(&press(KeyCode::Char('7'), CTRL)));
        assert!(spec("C-Space").matches(&press(KeyCode::Char(' '), CTRL)));
        // The kitty protocol reports them as themselves; those match too.
        assert!(spec("C-\\").matches(&press(KeyCode::Char('\\'), CTRL)));
        assert!(spec("C-]").matches(&press(KeyCode::Char(']'), CTRL)));
        assert!(spec("C-i").matches(&press(KeyCode::Tab, KeyModifiers::NONE)));
        assert!(!spec("C-\\").matches(&ch('4')));
    }

    #[test]
    fn backtab_matches_with_or_without_shift() {
        assert!(spec("BackTab").matches(&press(KeyCode::BackTab, SHIFT)));
        assert!(spec("BackTab").matches(&press(KeyCode::BackTab, KeyModifiers::NONE)));
        assert!(spec("S-Tab").matches(&press(KeyCode::BackTab, SHIFT)));
        assert!(!spec("Tab").matches(&press(KeyCode::BackTab, SHIFT)));
    }

    #[test]
    fn named_keys_keep_shift() {
        assert!(spec("S-Up").matches(&press(KeyCode::Up, SHIFT)));
        assert!(!spec("S-Up").matches(&press(KeyCode::Up, KeyModifiers::NONE)));
        assert!(!spec("Up").matches(&press(KeyCode::Up, SHIFT)));
        assert!(spec("C-S-Left").matches(&press(KeyCode::Left, CTRL | SHIFT)));
    }

    #[test]
    fn only_presses_and_repeats_match() {
        let mk = |kind| {
            KeyEvent::new_with_kind_and_state(KeyCode::Char('b'), CTRL, kind, KeyEventState::NONE)
        };
        assert!(spec("C-b").matches(&mk(KeyEventKind::Press)));
        assert!(spec("C-b").matches(&mk(KeyEventKind::Repeat)));
        assert!(!spec("C-b").matches(&mk(KeyEventKind::Release)));
    }

    #[test]
    fn default_keymap_lookups() {
        let km = Keymap::default();
        assert!(km.is_prefix(&press(KeyCode::Char('b'), CTRL)));
        assert!(!km.is_prefix(&ch('b')));
        let p = |ev: KeyEvent| km.lookup_prefixed(&ev);
        assert_eq!(
            p(press(KeyCode::Char('%'), SHIFT)),
            Some(Action::SplitRight)
        );
        assert_eq!(p(press(KeyCode::Char('"'), SHIFT)), Some(Action::SplitDown));
        assert_eq!(p(ch('|')), Some(Action::SplitRight));
        assert_eq!(p(ch('-')), Some(Action::SplitDown));
        assert_eq!(p(ch('h')), Some(Action::Focus(Direction::Left)));
        // tmux's last window, where the vi keys would have focus right.
        assert_eq!(p(ch('l')), Some(Action::LastTab));
        assert_eq!(
            p(press(KeyCode::Up, KeyModifiers::NONE)),
            Some(Action::Focus(Direction::Up))
        );
        assert_eq!(
            p(press(KeyCode::Left, CTRL)),
            Some(Action::Resize(Direction::Left))
        );
        assert_eq!(
            p(press(KeyCode::Char('J'), SHIFT)),
            Some(Action::Resize(Direction::Down))
        );
        assert_eq!(p(ch('o')), Some(Action::FocusNext));
        // tmux's last pane; previous pane is `O`.
        assert_eq!(p(ch(';')), Some(Action::LastPane));
        assert_eq!(p(ch('O')), Some(Action::FocusPrev));
        assert_eq!(p(ch('z')), Some(Action::ToggleZoom));
        assert_eq!(p(ch('x')), Some(Action::ClosePane));
        assert_eq!(p(ch('c')), Some(Action::NewTab));
        assert_eq!(p(ch('n')), Some(Action::NextTab));
        assert_eq!(p(ch('p')), Some(Action::PrevTab));
        assert_eq!(p(ch('1')), Some(Action::GoToTab(1)));
        assert_eq!(p(ch('9')), Some(Action::GoToTab(9)));
        assert_eq!(p(ch('[')), Some(Action::ScrollMode));
        assert_eq!(
            p(press(KeyCode::PageUp, KeyModifiers::NONE)),
            Some(Action::ScrollPageUp)
        );
        assert_eq!(
            p(press(KeyCode::Char('?'), SHIFT)),
            Some(Action::ToggleHelp)
        );
        assert_eq!(p(ch('f')), Some(Action::ToggleFps));
        assert_eq!(p(press(KeyCode::Char('b'), CTRL)), Some(Action::SendPrefix));
        assert_eq!(p(press(KeyCode::Char('Q'), SHIFT)), Some(Action::Quit));
        assert_eq!(p(ch('q')), Some(Action::DisplayPanes));
        assert_eq!(p(ch('y')), Some(Action::CopyLastOutput));
        assert_eq!(p(ch('u')), None);

        let d = |ev: KeyEvent| km.lookup_direct(&ev);
        assert_eq!(
            d(press(KeyCode::Char('h'), ALT)),
            Some(Action::Focus(Direction::Left))
        );
        assert_eq!(
            d(press(KeyCode::Down, ALT)),
            Some(Action::Focus(Direction::Down))
        );
        assert_eq!(d(press(KeyCode::Char('n'), ALT)), Some(Action::SplitRight));
        assert_eq!(d(press(KeyCode::Char('m'), ALT)), Some(Action::SplitDown));
        assert_eq!(d(press(KeyCode::Char('z'), ALT)), Some(Action::ToggleZoom));
        assert_eq!(d(press(KeyCode::Char('o'), ALT)), Some(Action::FocusNext));
        assert_eq!(d(press(KeyCode::Char('t'), ALT)), Some(Action::NewTab));
        assert_eq!(d(ch('h')), None);
        assert_eq!(d(press(KeyCode::Char('1'), ALT)), None);
    }

    #[test]
    fn default_keymap_has_no_duplicate_keys() {
        let km = Keymap::default();
        for table in [&km.prefixed, &km.direct] {
            for (i, (a, _)) in table.iter().enumerate() {
                for (b, _) in &table[i + 1..] {
                    assert!(!a.same_key(b), "{a} bound twice");
                }
            }
        }
        assert!(!km.direct.iter().any(|(k, _)| k.same_key(&km.prefix)));
    }

    #[test]
    fn send_prefix_follows_a_new_prefix() {
        let mut km = Keymap::default();
        km.set_prefix(spec("C-a"));
        assert!(km.is_prefix(&press(KeyCode::Char('a'), CTRL)));
        assert!(!km.is_prefix(&press(KeyCode::Char('b'), CTRL)));
        assert_eq!(
            km.lookup_prefixed(&press(KeyCode::Char('a'), CTRL)),
            Some(Action::SendPrefix)
        );
        assert_eq!(km.lookup_prefixed(&press(KeyCode::Char('b'), CTRL)), None);
        assert_eq!(km.hint(Action::SplitRight).as_deref(), Some("M-n"));
        assert_eq!(km.hint(Action::ClosePane).as_deref(), Some("C-a x"));
        assert_eq!(km.hint(Action::SendPrefix).as_deref(), Some("C-a C-a"));

        // A prefix that collides with a prefixed key takes that key over.
        km.set_prefix(spec("z"));
        assert_eq!(km.lookup_prefixed(&ch('z')), Some(Action::SendPrefix));
        assert_eq!(km.keys_for(Action::ToggleZoom), vec!["M-z".to_string()]);
    }

    #[test]
    fn binding_replaces_in_place_and_unbinding_removes() {
        let mut km = Keymap::default();
        let pos = km.prefixed.iter().position(|(k, _)| *k == spec("x"));
        km.bind_prefixed(spec("x"), Action::Quit);
        assert_eq!(km.prefixed.iter().position(|(k, _)| *k == spec("x")), pos);
        assert_eq!(km.lookup_prefixed(&ch('x')), Some(Action::Quit));
        assert!(km.unbind_prefixed(&spec("x")));
        assert!(!km.unbind_prefixed(&spec("x")));
        assert_eq!(km.lookup_prefixed(&ch('x')), None);
        km.bind_direct(spec("F5"), Action::ToggleHelp);
        assert_eq!(
            km.lookup_direct(&press(KeyCode::F(5), KeyModifiers::NONE)),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn help_lines_come_from_the_bindings() {
        let km = Keymap::default();
        let lines = km.help_lines();
        let find = |desc: &str| {
            lines
                .iter()
                .find(|(_, d)| d == desc)
                .map(|(k, _)| k.as_str())
        };
        assert_eq!(
            find(&Action::SplitRight.description()),
            Some("C-b %, C-b |, M-n")
        );
        assert_eq!(find("go to tab 1..9"), Some("C-b 1..9"));
        assert_eq!(find(&Action::Quit.description()), Some("C-b Q"));
        assert_eq!(find(&Action::SendPrefix.description()), Some("C-b C-b"));
        // scroll-page-down has no default binding, so no row.
        assert_eq!(find(&Action::ScrollPageDown.description()), None);

        let mut km = km;
        km.unbind_prefixed(&spec("3"));
        let lines = km.help_lines();
        assert!(lines.iter().any(|(k, _)| k == "C-b 2"));
        assert!(!lines.iter().any(|(k, _)| k == "C-b 3"));
    }

    #[test]
    fn hint_is_the_shortest_binding() {
        let km = Keymap::default();
        assert_eq!(km.hint(Action::ToggleZoom).as_deref(), Some("M-z"));
        assert_eq!(km.hint(Action::ToggleHelp).as_deref(), Some("C-b ?"));
        assert_eq!(km.hint(Action::ScrollPageDown), None);
    }
}
