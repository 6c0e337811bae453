//! How the workspace looks: the colour theme, the pane borders and the
//! status bar's segments, from the `[theme]` and `[status]` tables of the
//! config file.
//!
//! Kept apart from `settings` (which reads the file) because the renderer
//! and the workspace read these values on every frame and every relayout,
//! and because a theme is data, not parsing.

use std::collections::BTreeMap;
use std::ops::Range;
use std::str::FromStr;
use std::time::Duration;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use toml::Spanned;

/// Everything the `[theme]` and `[status]` tables set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Appearance {
    pub theme: Theme,
    pub borders: BorderStyle,
    pub status: StatusLayout,
}

/// The built-in themes, by the name `[theme] name` takes.
pub const THEME_NAMES: [&str; 5] = ["default", "light", "high-contrast", "none", "auto"];

/// The styles of everything tilework draws itself (panes draw their own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    pub name: String,
    /// The focused pane's border (or its dividers).
    pub focus_border: Style,
    pub border: Style,
    /// The shown tab's pill in the status bar.
    pub tab_active: Style,
    pub tab: Style,
    /// A hidden tab with output or a bell.
    pub tab_alert: Style,
    /// The status bar's background and plain text.
    pub status: Style,
    /// Key hints at the status bar's right.
    pub hints: Style,
    /// A notice or the broadcast warning in the status bar.
    pub notice: Style,
    /// The PREFIX / COPY pill.
    pub mode: Style,
    pub selection: Style,
    pub search_match: Style,
    /// The search match the cursor is on.
    pub search_current: Style,
    /// The frame of help, which-key and the search results.
    pub popup: Style,
    /// Labels on a pane's border: `zoom`, `exited: 1`, the history view.
    pub badge: Style,
}

fn fg(c: Color) -> Style {
    Style::default().fg(c)
}

fn on(f: Color, b: Color) -> Style {
    Style::default().fg(f).bg(b)
}

impl Theme {
    /// `auto`: `default` on a dark terminal, `light` on a light one, as
    /// the terminal tells (mode 2031, or its background answered to OSC
    /// 11); named `auto` so it keeps following.
    pub fn auto(dark: bool) -> Theme {
        let mut theme = Self::builtin(if dark { "default" } else { "light" }).unwrap_or_default();
        theme.name = "auto".into();
        theme
    }

    /// Whether it follows the terminal's light or dark (`auto`).
    pub fn follows_terminal(&self) -> bool {
        self.name == "auto"
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        if name == "auto" {
            // Dark until a terminal tells otherwise: most are.
            return Some(Self::auto(true));
        }
        let bold = Modifier::BOLD;
        let theme = match name {
            "default" => Theme {
                name: name.into(),
                focus_border: fg(Color::Green).add_modifier(bold),
                border: fg(Color::DarkGray),
                tab_active: on(Color::Black, Color::Green).add_modifier(bold),
                tab: on(Color::Gray, Color::Indexed(236)),
                tab_alert: on(Color::LightRed, Color::Indexed(236)).add_modifier(bold),
                status: on(Color::Gray, Color::Indexed(236)),
                hints: on(Color::DarkGray, Color::Indexed(236)),
                notice: on(Color::Yellow, Color::Indexed(236)).add_modifier(bold),
                mode: on(Color::Black, Color::Yellow).add_modifier(bold),
                selection: on(Color::Black, Color::LightBlue),
                search_match: on(Color::Black, Color::Yellow),
                search_current: on(Color::Black, Color::LightRed),
                popup: fg(Color::Yellow),
                badge: on(Color::Black, Color::Yellow),
            },
            "light" => Theme {
                name: name.into(),
                focus_border: fg(Color::Blue).add_modifier(bold),
                border: fg(Color::Gray),
                tab_active: on(Color::White, Color::Blue).add_modifier(bold),
                tab: on(Color::Black, Color::Indexed(254)),
                tab_alert: on(Color::Red, Color::Indexed(254)).add_modifier(bold),
                status: on(Color::Black, Color::Indexed(254)),
                hints: on(Color::Indexed(244), Color::Indexed(254)),
                notice: on(Color::Magenta, Color::Indexed(254)).add_modifier(bold),
                mode: on(Color::White, Color::Magenta).add_modifier(bold),
                selection: on(Color::Black, Color::LightCyan),
                search_match: on(Color::Black, Color::LightYellow),
                search_current: on(Color::White, Color::Red),
                popup: fg(Color::Blue),
                badge: on(Color::White, Color::Magenta),
            },
            // Only black, white and the brightest colours, everything that
            // matters bold: readable on a projector or with low vision.
            "high-contrast" => Theme {
                name: name.into(),
                focus_border: fg(Color::LightYellow).add_modifier(bold),
                border: fg(Color::White),
                tab_active: on(Color::Black, Color::LightYellow).add_modifier(bold),
                tab: on(Color::White, Color::Black).add_modifier(bold),
                tab_alert: on(Color::LightRed, Color::Black).add_modifier(bold),
                status: on(Color::White, Color::Black),
                hints: on(Color::White, Color::Black),
                notice: on(Color::Black, Color::LightYellow).add_modifier(bold),
                mode: on(Color::Black, Color::LightCyan).add_modifier(bold),
                selection: on(Color::Black, Color::White),
                search_match: on(Color::Black, Color::LightYellow).add_modifier(bold),
                search_current: on(Color::Black, Color::LightMagenta).add_modifier(bold),
                popup: fg(Color::LightYellow).add_modifier(bold),
                badge: on(Color::Black, Color::LightYellow).add_modifier(bold),
            },
            // No colour at all: the terminal's own foreground and background,
            // told apart by reverse video, bold and underline only.
            "none" => {
                let plain = Style::default();
                let rev = plain.add_modifier(Modifier::REVERSED);
                Theme {
                    name: name.into(),
                    focus_border: plain.add_modifier(bold),
                    border: plain.add_modifier(Modifier::DIM),
                    tab_active: rev.add_modifier(bold),
                    tab: plain,
                    tab_alert: plain.add_modifier(bold | Modifier::UNDERLINED),
                    status: plain,
                    hints: plain.add_modifier(Modifier::DIM),
                    notice: plain.add_modifier(bold),
                    mode: rev.add_modifier(bold),
                    selection: rev,
                    search_match: plain.add_modifier(Modifier::UNDERLINED),
                    search_current: rev.add_modifier(Modifier::UNDERLINED),
                    popup: plain.add_modifier(bold),
                    badge: rev,
                }
            }
            _ => return None,
        };
        Some(theme)
    }

    /// The style `[theme]` key `key` sets, if there is one by that name.
    fn slot(&mut self, key: &str) -> Option<&mut Style> {
        Some(match key {
            "focus_border" => &mut self.focus_border,
            "border" => &mut self.border,
            "tab_active" => &mut self.tab_active,
            "tab" => &mut self.tab,
            "tab_alert" => &mut self.tab_alert,
            "status" => &mut self.status,
            "hints" => &mut self.hints,
            "notice" => &mut self.notice,
            "mode" => &mut self.mode,
            "selection" => &mut self.selection,
            "search_match" => &mut self.search_match,
            "search_current" => &mut self.search_current,
            "popup" => &mut self.popup,
            "badge" => &mut self.badge,
            _ => return None,
        })
    }
}

/// The names of the styles `[theme]` can set, for messages and the docs.
pub const STYLE_KEYS: [&str; 14] = [
    "focus_border",
    "border",
    "tab_active",
    "tab",
    "tab_alert",
    "status",
    "hints",
    "notice",
    "mode",
    "selection",
    "search_match",
    "search_current",
    "popup",
    "badge",
];

impl Default for Theme {
    fn default() -> Self {
        match Theme::builtin("default") {
            Some(theme) => theme,
            None => unreachable!("the default theme is built in"),
        }
    }
}

/// How panes are framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BorderStyle {
    /// A box per pane, the focused one thick, with the title in the top
    /// border.
    #[default]
    Box,
    Rounded,
    Double,
    /// tmux's look: no box, one line between panes, titles in the status
    /// bar. A pane gets back two columns and two rows.
    Dividers,
}

impl BorderStyle {
    pub const NAMES: [&str; 4] = ["box", "rounded", "double", "dividers"];

    pub fn name(self) -> &'static str {
        match self {
            BorderStyle::Box => "box",
            BorderStyle::Rounded => "rounded",
            BorderStyle::Double => "double",
            BorderStyle::Dividers => "dividers",
        }
    }
}

impl FromStr for BorderStyle {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "box" => Ok(BorderStyle::Box),
            "rounded" => Ok(BorderStyle::Rounded),
            "double" => Ok(BorderStyle::Double),
            "dividers" => Ok(BorderStyle::Dividers),
            _ => Err(format!(
                "unknown border style `{s}` (one of: {})",
                BorderStyle::NAMES.join(", ")
            )),
        }
    }
}

/// One part of the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// The workspace's name, `[work]` (tmux's `[#S]`).
    Session,
    /// The tabs, as clickable pills.
    Tabs,
    /// PREFIX or COPY while in those modes.
    Mode,
    /// `pane 2/3`: the focused pane's place in its tab.
    Pane,
    /// The focused pane's title.
    Title,
    /// The focused pane's directory (`~/src/tilework`).
    Cwd,
    /// The git branch of that directory.
    Git,
    /// The focused pane's host: a remote pane's, else this machine's name.
    Host,
    /// The local time, in `[status] clock` format.
    Clock,
    /// The keys a newcomer needs first.
    Hints,
    /// Text of the user's own (`"text:…"`).
    Text(String),
    /// The last line a shell command printed (`"cmd:…"`), run off the
    /// loop every `[status] command_interval` (`app::status_commands`).
    Command(String),
}

impl Segment {
    pub const NAMES: [&str; 10] = [
        "session", "tabs", "mode", "pane", "title", "cwd", "git", "host", "clock", "hints",
    ];

    fn name(&self) -> String {
        match self {
            Segment::Session => "session".into(),
            Segment::Tabs => "tabs".into(),
            Segment::Mode => "mode".into(),
            Segment::Pane => "pane".into(),
            Segment::Title => "title".into(),
            Segment::Cwd => "cwd".into(),
            Segment::Git => "git".into(),
            Segment::Host => "host".into(),
            Segment::Clock => "clock".into(),
            Segment::Hints => "hints".into(),
            Segment::Text(t) => format!("text:{t}"),
            Segment::Command(c) => format!("cmd:{c}"),
        }
    }
}

impl FromStr for Segment {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(text) = s.strip_prefix("text:") {
            if text.chars().any(char::is_control) {
                return Err("a text segment cannot hold control characters".into());
            }
            return Ok(Segment::Text(text.to_string()));
        }
        if let Some(command) = s.strip_prefix("cmd:") {
            if command.trim().is_empty() {
                return Err(
                    "a command segment needs a command: \"cmd:git rev-parse --short HEAD\"".into(),
                );
            }
            if command.chars().any(char::is_control) {
                return Err("a command segment cannot hold control characters".into());
            }
            return Ok(Segment::Command(command.to_string()));
        }
        Ok(match s {
            "session" => Segment::Session,
            "tabs" => Segment::Tabs,
            "mode" => Segment::Mode,
            "pane" => Segment::Pane,
            "title" => Segment::Title,
            "cwd" => Segment::Cwd,
            "git" => Segment::Git,
            "host" => Segment::Host,
            "clock" => Segment::Clock,
            "hints" => Segment::Hints,
            _ => {
                return Err(format!(
                    "unknown status segment `{s}` (one of: {}, or \"text:…\", \"cmd:…\")",
                    Segment::NAMES.join(", ")
                ));
            }
        })
    }
}

/// The status bar's segments, left- and right-aligned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLayout {
    pub left: Vec<Segment>,
    pub right: Vec<Segment>,
    /// strftime format of the clock segment.
    pub clock: String,
    /// How long after a command segment's last run it runs again.
    pub command_interval: Duration,
    /// How long a command segment's command may run before it is killed.
    pub command_timeout: Duration,
    /// Set the terminal's title (tmux's `set-titles`), to
    /// [`Self::titles_string`] expanded (`render::terminal_title`).
    pub set_titles: bool,
    pub titles_string: String,
}

/// `[status] command_interval`'s default, in seconds.
pub const DEFAULT_COMMAND_INTERVAL_SECS: u64 = 5;
/// `[status] command_timeout`'s default, in seconds.
pub const DEFAULT_COMMAND_TIMEOUT_SECS: u64 = 2;
/// The longest either may be: a day, and a minute.
pub const MAX_COMMAND_INTERVAL_SECS: u64 = 86_400;
pub const MAX_COMMAND_TIMEOUT_SECS: u64 = 60;

pub const DEFAULT_CLOCK: &str = "%H:%M";

/// `[status] set_titles_string`'s default: tmux's own, without its alerts.
pub const DEFAULT_TITLES_STRING: &str = "#S:#I:#W - \"#T\"";

impl Default for StatusLayout {
    fn default() -> Self {
        Self {
            left: vec![
                Segment::Session,
                Segment::Tabs,
                Segment::Mode,
                Segment::Pane,
                Segment::Title,
            ],
            right: vec![Segment::Hints],
            clock: DEFAULT_CLOCK.to_string(),
            command_interval: Duration::from_secs(DEFAULT_COMMAND_INTERVAL_SECS),
            command_timeout: Duration::from_secs(DEFAULT_COMMAND_TIMEOUT_SECS),
            set_titles: true,
            titles_string: DEFAULT_TITLES_STRING.to_string(),
        }
    }
}

impl StatusLayout {
    pub fn has(&self, segment: &Segment) -> bool {
        self.left.iter().chain(&self.right).any(|s| s == segment)
    }

    /// The commands of the command segments, each once.
    pub fn commands(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for segment in self.left.iter().chain(&self.right) {
            if let Segment::Command(c) = segment
                && !out.contains(c)
            {
                out.push(c.clone());
            }
        }
        out
    }
}

/// The `[theme]` table as written: `name`, `borders`, and styles by key.
/// Each style is a colour (`"green"`, `"#88c0d0"`, `"236"`) for the
/// foreground, or a table of `fg`, `bg` and `bold`.
pub(crate) type RawTheme = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

/// The `[status]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table with `left`, `right`, `clock`, `command_interval`, `command_timeout`, \
                 `set_titles` and `set_titles_string`"
)]
pub(crate) struct RawStatus {
    left: Option<Vec<Spanned<String>>>,
    right: Option<Vec<Spanned<String>>>,
    clock: Option<Spanned<String>>,
    command_interval: Option<Spanned<i64>>,
    command_timeout: Option<Spanned<i64>>,
    set_titles: Option<bool>,
    set_titles_string: Option<Spanned<String>>,
}

/// `base` with what a `[theme]` value sets.
fn style_over(base: Style, value: &toml::Value) -> Result<Style, String> {
    const EXPECTED: &str = "a colour or a table with `fg`, `bg`, `bold`";
    match value {
        toml::Value::String(c) => Ok(base.fg(color(c)?)),
        toml::Value::Table(table) => {
            let mut style = base;
            for (key, v) in table {
                style = match (key.as_str(), v) {
                    ("fg", toml::Value::String(c)) => style.fg(color(c)?),
                    ("bg", toml::Value::String(c)) => style.bg(color(c)?),
                    ("bold", toml::Value::Boolean(true)) => style.add_modifier(Modifier::BOLD),
                    ("bold", toml::Value::Boolean(false)) => style.remove_modifier(Modifier::BOLD),
                    _ => return Err(format!("unexpected `{key}`: expected {EXPECTED}")),
                };
            }
            Ok(style)
        }
        _ => Err(format!("expected {EXPECTED}")),
    }
}

fn color(text: &str) -> Result<Color, String> {
    Color::from_str(text).map_err(|_| {
        format!("unknown colour `{text}` (a name like \"green\", \"#rrggbb\" or 0-255)")
    })
}

/// An error and the span of the text it is about.
type Located = (Range<usize>, String);

/// Reads the two tables; errors carry the span of what is wrong.
pub(crate) fn parse(theme: RawTheme, status: RawStatus) -> Result<Appearance, Located> {
    let mut out = Appearance::default();
    let get = |key: &str| theme.iter().find(|(k, _)| k.get_ref() == key);
    let text = |key: &str| -> Result<Option<(String, Range<usize>)>, Located> {
        match get(key) {
            None => Ok(None),
            Some((_, v)) => match v.get_ref() {
                toml::Value::String(s) => Ok(Some((s.clone(), v.span()))),
                _ => Err((v.span(), format!("`{key}` must be a string"))),
            },
        }
    };
    if let Some((name, span)) = text("name")? {
        out.theme = Theme::builtin(&name).ok_or_else(|| {
            (
                span,
                format!(
                    "unknown theme `{name}` (one of: {})",
                    THEME_NAMES.join(", ")
                ),
            )
        })?;
    }
    if let Some((borders, span)) = text("borders")? {
        out.borders = borders.parse().map_err(|e| (span, e))?;
    }
    for (key, raw) in &theme {
        if matches!(key.get_ref().as_str(), "name" | "borders") {
            continue;
        }
        let span = raw.span();
        let Some(slot) = out.theme.slot(key.get_ref()) else {
            return Err((
                key.span(),
                format!(
                    "unknown theme key `{}` (name, borders, {})",
                    key.get_ref(),
                    STYLE_KEYS.join(", ")
                ),
            ));
        };
        *slot = style_over(*slot, raw.get_ref()).map_err(|e| (span, e))?;
    }
    let segments = |list: &Option<Vec<Spanned<String>>>, default: &Vec<Segment>| match list {
        None => Ok(default.clone()),
        Some(list) => list
            .iter()
            .map(|s| s.get_ref().parse::<Segment>().map_err(|e| (s.span(), e)))
            .collect(),
    };
    out.status.left = segments(&status.left, &out.status.left)?;
    out.status.right = segments(&status.right, &out.status.right)?;
    if let Some(clock) = status.clock {
        crate::config::clock::check_format(clock.get_ref()).map_err(|e| (clock.span(), e))?;
        out.status.clock = clock.into_inner();
    }
    let seconds = |value: &Option<Spanned<i64>>, key: &str, max: u64| match value {
        None => Ok(None),
        Some(v) => match u64::try_from(*v.get_ref()) {
            Ok(n) if (1..=max).contains(&n) => Ok(Some(Duration::from_secs(n))),
            _ => Err((
                v.span(),
                format!("{key} is 1 to {max} seconds, not {}", v.get_ref()),
            )),
        },
    };
    if let Some(d) = seconds(
        &status.command_interval,
        "command_interval",
        MAX_COMMAND_INTERVAL_SECS,
    )? {
        out.status.command_interval = d;
    }
    if let Some(d) = seconds(
        &status.command_timeout,
        "command_timeout",
        MAX_COMMAND_TIMEOUT_SECS,
    )? {
        out.status.command_timeout = d;
    }
    if let Some(on) = status.set_titles {
        out.status.set_titles = on;
    }
    if let Some(titles) = status.set_titles_string {
        if titles.get_ref().chars().any(char::is_control) {
            return Err((
                titles.span(),
                "set_titles_string cannot hold control characters".into(),
            ));
        }
        out.status.titles_string = titles.into_inner();
    }
    Ok(out)
}

/// The config file's text for these tables, every setting at its default
/// and commented out (see `config::default_toml`).
pub fn default_toml() -> String {
    let d = Appearance::default();
    let list = |segments: &[Segment]| {
        let names: Vec<String> = segments
            .iter()
            .map(|s| format!("\"{}\"", s.name()))
            .collect();
        format!("[{}]", names.join(", "))
    };
    let lines = [
        "[theme]".to_string(),
        format!("# Built-in themes: {}.", THEME_NAMES.join(", ")),
        "# `none` uses no colours, only your terminal's own, with bold and reverse.".into(),
        format!("# name = \"{}\"", d.theme.name),
        format!("# Pane borders: {}.", BorderStyle::NAMES.join(", ")),
        "# `dividers` draws one line between panes, like tmux, and no box: each pane".into(),
        "# gets two more columns and rows; titles are in the status bar.".into(),
        format!("# borders = \"{}\"", d.borders.name()),
        "# Colours over the theme's: a colour (\"green\", \"#88c0d0\", 0-255) for the".into(),
        "# foreground, or a table: selection = { fg = \"black\", bg = \"#ffd700\" }.".into(),
        format!("# Keys: {}.", STYLE_KEYS.join(", ")),
        String::new(),
        "[status]".into(),
        format!(
            "# Segments: {}, your own \"text:…\", or the last line a shell",
            Segment::NAMES.join(", ")
        ),
        "# command prints, \"cmd:git status --short | wc -l\" (run off the loop).".into(),
        format!("# left = {}", list(&d.status.left)),
        format!("# right = {}", list(&d.status.right)),
        "# The clock's format (strftime). The bar is redrawn when the clock's text".into(),
        "# changes: once a minute for \"%H:%M\", once a second with %S.".into(),
        format!("# clock = \"{}\"", d.status.clock),
        "# A \"cmd:…\" segment's command runs again this many seconds after its".into(),
        "# last run ended, and is killed after command_timeout seconds.".into(),
        format!(
            "# command_interval = {}",
            d.status.command_interval.as_secs()
        ),
        format!("# command_timeout = {}", d.status.command_timeout.as_secs()),
        "# The terminal's title (tmux's set-titles), put back on detach: #S the".into(),
        "# workspace, #I the tab's number, #W its name, #T the pane's title, #H the host.".into(),
        format!("# set_titles = {}", d.status.set_titles),
        format!(
            "# set_titles_string = {}",
            toml::Value::String(d.status.titles_string.clone())
        ),
    ];
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn parse_text(text: &str) -> Result<Appearance, String> {
        #[derive(Deserialize)]
        struct Both {
            #[serde(default)]
            theme: RawTheme,
            #[serde(default)]
            status: RawStatus,
        }
        let both: Both = toml::from_str(text).map_err(|e| e.to_string())?;
        parse(both.theme, both.status).map_err(|(_, e)| e)
    }

    #[test]
    fn every_builtin_theme_exists_and_none_uses_no_colour() {
        for name in THEME_NAMES {
            assert!(Theme::builtin(name).is_some(), "{name}");
        }
        let none = Theme::builtin("none").unwrap();
        let mut copy = none.clone();
        for key in STYLE_KEYS {
            let style = *copy.slot(key).unwrap();
            assert_eq!((style.fg, style.bg), (None, None), "{key}");
        }
    }

    #[test]
    fn colours_override_the_named_theme() {
        let a = parse_text(
            "[theme]\nname = \"light\"\nfocus_border = \"#ff0000\"\n\
             selection = { fg = \"black\", bg = \"214\", bold = true }\nborders = \"dividers\"\n",
        )
        .unwrap();
        assert_eq!(a.theme.name, "light");
        assert_eq!(a.theme.focus_border.fg, Some(Color::Rgb(255, 0, 0)));
        assert_eq!(a.theme.selection.bg, Some(Color::Indexed(214)));
        assert!(a.theme.selection.add_modifier.contains(Modifier::BOLD));
        assert_eq!(a.theme.border, Theme::builtin("light").unwrap().border);
        assert_eq!(a.borders, BorderStyle::Dividers);
    }

    #[test]
    fn mistakes_are_named() {
        let err = parse_text("[theme]\nname = \"solarized\"\n").unwrap_err();
        assert!(err.contains("unknown theme `solarized`"), "{err}");
        let err = parse_text("[theme]\nborder = \"mauve\"\n").unwrap_err();
        assert!(err.contains("unknown colour `mauve`"), "{err}");
        let err = parse_text("[theme]\nbordr = \"red\"\n").unwrap_err();
        assert!(err.contains("unknown theme key `bordr`"), "{err}");
        let err = parse_text("[theme]\nborders = \"fat\"\n").unwrap_err();
        assert!(err.contains("unknown border style"), "{err}");
        let err = parse_text("[status]\nleft = [\"tabs\", \"weather\"]\n").unwrap_err();
        assert!(err.contains("unknown status segment `weather`"), "{err}");
        let err = parse_text("[status]\nclock = \"%H %\"\n").unwrap_err();
        assert!(err.contains("clock"), "{err}");
    }

    #[test]
    fn segments_and_custom_text() {
        let a = parse_text(
            "[status]\nleft = [\"tabs\"]\nright = [\"git\", \"text:hi there\", \"clock\"]\n\
             clock = \"%H:%M:%S\"\n",
        )
        .unwrap();
        assert_eq!(a.status.left, vec![Segment::Tabs]);
        assert_eq!(
            a.status.right,
            vec![
                Segment::Git,
                Segment::Text("hi there".into()),
                Segment::Clock
            ]
        );
        assert_eq!(a.status.clock, "%H:%M:%S");
    }

    #[test]
    fn the_documented_defaults_parse_to_the_defaults() {
        let uncommented: String = default_toml()
            .lines()
            .map(|l| {
                let setting = l.strip_prefix("# ").filter(|rest| {
                    toml::from_str::<toml::Table>(rest).is_ok_and(|t| !t.is_empty())
                });
                format!("{}\n", setting.unwrap_or(l))
            })
            .collect();
        assert_eq!(parse_text(&uncommented).unwrap(), Appearance::default());
    }
}
