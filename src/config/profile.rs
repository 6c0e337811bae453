//! Workspace profiles: the tabs and pane layouts to open at start.
//!
//! A profile is a hand-written TOML file. Splits are n-ary with optional
//! weights because that is how people think about a screen ("editor 60%,
//! then two stacked panes"); the workspace turns them into its binary tree.
//! Everything is validated up front with `file:line:col` messages, so a typo
//! is reported before any program is spawned rather than half-way through
//! building the workspace.

use std::cell::Cell;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;

use super::file_error::line_col;
use super::float_place::{FloatPlace, RawExtent};
use super::profile_toml::{RawNode, RawProfile};
use crate::config::file_error::{self, FileError};

/// The most panes one profile may open, over all its tabs. Each pane is a
/// PTY, a process or more and three threads; 100 is several full screens of
/// small panes (the built-in `many-panes` has 16), while macOS allows only
/// 511 PTYs for the whole system and a profile of 10,000 panes would use up
/// Linux's 4,096 too.
pub const MAX_PANES: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    /// At least one.
    pub tabs: Vec<TabSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabSpec {
    pub name: Option<String>,
    pub layout: LayoutSpec,
    /// Panes floating over the layout (`float = true` in the layout, or
    /// the tab's `floating` list), in the order they open (the last on
    /// top). Hidden at start unless one has the focus or is pinned.
    pub floating: Vec<PaneSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutSpec {
    Pane(PaneSpec),
    /// `children.len() >= 2` and `weights.len() == children.len()`, every
    /// weight > 0; weights are relative (`[60, 40]` and `[3, 2]` are equal).
    Split {
        direction: SplitDirection,
        weights: Vec<u32>,
        children: Vec<LayoutSpec>,
    },
}

/// Where the children of a split go relative to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitDirection {
    /// Side by side, the first child leftmost.
    Right,
    /// Stacked, the first child on top.
    Down,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaneSpec {
    /// A shell command line, run with `sh -c` so `$VARS`, `${X:-y}` and
    /// pipes work; `None` runs the user's shell.
    pub command: Option<String>,
    /// Working directory, `~` already expanded and checked to exist;
    /// relative paths are relative to tilework's own working directory.
    /// `None` inherits tilework's.
    pub cwd: Option<PathBuf>,
    /// The pane focused when its tab opens; at most one per tab. If none is
    /// marked, the first pane is.
    pub focus: bool,
    pub title: Option<String>,
    /// Overrides the config's `keep_exited_panes` for this pane.
    pub keep_open: Option<bool>,
    /// What happens when the command ends (command panes, like mprocs).
    pub restart: RestartPolicy,
    /// `manual`: show the command and run it when the user presses Enter
    /// (restored sessions never silently re-run commands).
    pub start: StartMode,
    /// A floating pane that stays on screen while the others are hidden.
    pub pinned: bool,
    /// A floating pane's box (`x`, `y`, `width`, `height`); what is left
    /// out is where a new floating pane goes.
    pub place: FloatPlace,
    /// `save = false`: the pane's output is never written to disk (the
    /// workspace's saving); it comes back without its history.
    pub unsaved: bool,
    /// `host = "build1"`: the pane runs there, a remote pane (issue 47
    /// §2); its `cwd` is a directory there.
    pub host: Option<String>,
}

/// When a command pane is started again after its program ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RestartPolicy {
    #[default]
    Never,
    OnFailure,
    Always,
}

impl RestartPolicy {
    pub fn name(self) -> &'static str {
        match self {
            RestartPolicy::Never => "never",
            RestartPolicy::OnFailure => "on-failure",
            RestartPolicy::Always => "always",
        }
    }

    /// Whether a program that ended with `code` is started again.
    pub fn restarts(self, code: i32) -> bool {
        match self {
            RestartPolicy::Never => false,
            RestartPolicy::OnFailure => code != 0,
            RestartPolicy::Always => true,
        }
    }
}

/// Whether a pane's command runs at once or waits for Enter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StartMode {
    #[default]
    Auto,
    Manual,
}

impl LayoutSpec {
    /// The panes in reading order (depth first, first child first), which is
    /// also the order focus-next visits them in a fresh tab.
    pub fn panes(&self) -> Vec<&PaneSpec> {
        let mut out = Vec::new();
        self.collect_panes(&mut out);
        out
    }

    fn collect_panes<'a>(&'a self, out: &mut Vec<&'a PaneSpec>) {
        match self {
            LayoutSpec::Pane(p) => out.push(p),
            LayoutSpec::Split { children, .. } => {
                for child in children {
                    child.collect_panes(out);
                }
            }
        }
    }
}

/// A profile that could not be found, read or understood (see
/// [`FileError`]).
pub type ProfileError = FileError;

/// Profiles shipped inside the binary, so `--profile dev` works on a fresh
/// install and the examples in the docs are guaranteed to parse.
const BUILTINS: &[(&str, &str)] = &[
    ("default", include_str!("../../profiles/default.toml")),
    ("dev", include_str!("../../profiles/dev.toml")),
    ("idle", include_str!("../../profiles/idle.toml")),
    ("flood", include_str!("../../profiles/flood.toml")),
    ("many-panes", include_str!("../../profiles/many-panes.toml")),
];

/// The text of a built-in profile.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|(n, _)| *n).collect()
}

/// `$XDG_CONFIG_HOME/tilework/profiles`, where user profiles shadow built-in
/// ones of the same name.
pub fn user_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("tilework").join("profiles"))
}

/// Every profile name `load` would find: the user's and the built-in ones,
/// sorted.
pub fn available() -> Vec<String> {
    let mut names: Vec<String> = builtin_names().into_iter().map(String::from).collect();
    if let Some(entries) = user_dir().and_then(|d| std::fs::read_dir(d).ok()) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "toml")
                && let Some(stem) = path.file_stem().and_then(|s| s.to_str())
            {
                names.push(stem.to_string());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Finds and parses a profile.
///
/// Anything that looks like a path (contains `/` or ends in `.toml`) is read
/// as one; a bare name is looked up in [`user_dir`], then among the built-in
/// profiles.
pub fn load(name_or_path: &str) -> Result<Profile, ProfileError> {
    if name_or_path.contains('/') || name_or_path.ends_with(".toml") {
        let path = Path::new(name_or_path);
        return match file_error::read_bounded(path) {
            Ok(text) => parse(&text, path),
            Err(e) => Err(ProfileError::whole_file(
                path,
                format!("cannot read the profile: {e}"),
            )),
        };
    }
    let name = name_or_path;
    if let Some(path) = user_dir().map(|d| d.join(format!("{name}.toml"))) {
        match file_error::read_bounded(&path) {
            Ok(text) => return parse(&text, &path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(ProfileError::whole_file(
                    &path,
                    format!("cannot read the profile: {e}"),
                ));
            }
        }
    }
    if let Some(text) = builtin(name) {
        return parse(text, &builtin_path(name));
    }
    let shown = if name.is_empty() { "\"\"" } else { name };
    Err(ProfileError::whole_file(
        Path::new(shown),
        format!(
            "no profile named `{name}`; available: {} (or give a path to a .toml file)",
            available().join(", ")
        ),
    ))
}

/// A pseudo-path for messages about built-in profiles, whose stem is the
/// profile's name.
fn builtin_path(name: &str) -> PathBuf {
    PathBuf::from(format!("<built-in>/{name}.toml"))
}

/// One tab with one pane running the user's shell: what tilework opens
/// when no profile is named.
pub fn default_profile() -> Profile {
    Profile {
        name: "default".to_string(),
        tabs: vec![TabSpec {
            name: None,
            layout: LayoutSpec::Pane(PaneSpec::default()),
            floating: Vec::new(),
        }],
    }
}

/// Parses a profile text; `source` labels errors and, by its file stem,
/// names the profile unless the file sets `name`.
pub fn parse(text: &str, source: &Path) -> Result<Profile, ProfileError> {
    let raw: RawProfile =
        toml::from_str(text).map_err(|e| ProfileError::from_toml(text, source, &e))?;
    let cx = Cx {
        text,
        source,
        panes: Cell::new(0),
    };

    if raw.tab.is_empty() {
        return Err(ProfileError::whole_file(
            source,
            "no tabs: a profile needs at least one [[tab]]".to_string(),
        ));
    }
    let mut tabs = Vec::with_capacity(raw.tab.len());
    for tab in raw.tab {
        let tab_span = tab.span();
        let tab = tab.into_inner();
        let mut found = Found::default();
        let layout = match tab.layout {
            Some(node) => {
                let span = node.span();
                match convert_node(&cx, node, &mut found)? {
                    Some(layout) => layout,
                    None => {
                        return Err(cx.err(
                            span,
                            "every pane of this layout floats: a tab needs a pane that does not"
                                .to_string(),
                        ));
                    }
                }
            }
            None => {
                cx.count_pane(tab_span.clone())?;
                LayoutSpec::Pane(PaneSpec::default())
            }
        };
        for node in tab.floating.unwrap_or_default() {
            let span = node.span();
            let mut node = node.into_inner();
            if node.split.is_some() || node.panes.is_some() {
                return Err(cx.err(span, "a floating pane is a pane, not a split".to_string()));
            }
            // Listed under `floating`: it floats whether it says so or not.
            if node.float.as_ref().is_some_and(|f| !*f.get_ref()) {
                return Err(cx.err(
                    span,
                    "`float = false` in the tab's `floating` list".to_string(),
                ));
            }
            node.float = None;
            cx.count_pane(span)?;
            let pane = convert_pane(&cx, node, &mut found.focused, true)?;
            found.floating.push(pane);
        }
        tabs.push(TabSpec {
            name: tab.name,
            layout,
            floating: found.floating,
        });
    }
    let name = raw.name.unwrap_or_else(|| {
        source.file_stem().map_or_else(
            || "profile".to_string(),
            |s| s.to_string_lossy().into_owned(),
        )
    });
    Ok(Profile { name, tabs })
}

/// What validation needs to point at a spot in the file.
struct Cx<'a> {
    text: &'a str,
    source: &'a Path,
    /// Panes seen so far, over all tabs.
    panes: Cell<usize>,
}

impl Cx<'_> {
    fn err(&self, span: Range<usize>, message: String) -> ProfileError {
        ProfileError::at(self.text, self.source, span, message)
    }

    /// Counts the pane at `span`, refusing the one past [`MAX_PANES`].
    fn count_pane(&self, span: Range<usize>) -> Result<(), ProfileError> {
        let n = self.panes.get() + 1;
        self.panes.set(n);
        if n > MAX_PANES {
            return Err(self.err(
                span,
                format!("this is pane {n}: a profile may open at most {MAX_PANES} panes"),
            ));
        }
        Ok(())
    }
}

/// What a tab's layout holds besides its tree.
#[derive(Default)]
struct Found {
    /// The spans of `focus = true`.
    focused: Vec<Range<usize>>,
    /// Panes with `float = true`, taken out of the tree.
    floating: Vec<PaneSpec>,
}

/// The tiled layout of `node`, or `None` when all of it floats (its
/// floating panes go to `found`).
fn convert_node(
    cx: &Cx<'_>,
    node: Spanned<RawNode>,
    found: &mut Found,
) -> Result<Option<LayoutSpec>, ProfileError> {
    let span = node.span();
    let mut node = node.into_inner();
    match node.split.take() {
        Some(split) => convert_split(cx, split, node, found),
        None => {
            if let Some(panes) = &node.panes {
                return Err(cx.err(
                    panes.span(),
                    "`panes` needs `split = \"right\"` or `split = \"down\"` next to it"
                        .to_string(),
                ));
            }
            if let Some(ratios) = &node.ratios {
                return Err(cx.err(
                    ratios.span(),
                    "`ratios` only makes sense in a split (with `split` and `panes`)".to_string(),
                ));
            }
            cx.count_pane(span)?;
            let floats = node.float.as_ref().is_some_and(|f| *f.get_ref());
            let pane = convert_pane(cx, node, &mut found.focused, floats)?;
            if floats {
                found.floating.push(pane);
                return Ok(None);
            }
            Ok(Some(LayoutSpec::Pane(pane)))
        }
    }
}

fn convert_split(
    cx: &Cx<'_>,
    split: Spanned<String>,
    node: RawNode,
    found: &mut Found,
) -> Result<Option<LayoutSpec>, ProfileError> {
    // Pane settings on a split would be silently meaningless.
    let pane_keys = [
        ("command", node.command.as_ref().map(Spanned::span)),
        ("cwd", node.cwd.as_ref().map(Spanned::span)),
        ("host", node.host.as_ref().map(Spanned::span)),
        ("focus", node.focus.as_ref().map(Spanned::span)),
        ("title", node.title.as_ref().map(Spanned::span)),
        ("keep_open", node.keep_open.as_ref().map(Spanned::span)),
        ("restart", node.restart.as_ref().map(Spanned::span)),
        ("start", node.start.as_ref().map(Spanned::span)),
        ("float", node.float.as_ref().map(Spanned::span)),
        ("pinned", node.pinned.as_ref().map(Spanned::span)),
        ("save", node.save.as_ref().map(Spanned::span)),
        ("x", node.x.as_ref().map(Spanned::span)),
        ("y", node.y.as_ref().map(Spanned::span)),
        ("width", node.width.as_ref().map(Spanned::span)),
        ("height", node.height.as_ref().map(Spanned::span)),
    ];
    if let Some((key, Some(span))) = pane_keys.into_iter().find(|(_, s)| s.is_some()) {
        return Err(cx.err(
            span,
            format!("`{key}` belongs to a pane, but this is a split (it has `split`)"),
        ));
    }

    let direction = match split.get_ref().to_ascii_lowercase().as_str() {
        "right" => SplitDirection::Right,
        "down" => SplitDirection::Down,
        _ => {
            return Err(cx.err(
                split.span(),
                format!(
                    "unknown split `{}`: use \"right\" (side by side) or \"down\" (stacked)",
                    split.get_ref()
                ),
            ));
        }
    };
    let Some(panes) = node.panes else {
        return Err(cx.err(
            split.span(),
            "a split needs `panes`, a list of at least 2 layouts".to_string(),
        ));
    };
    let panes_span = panes.span();
    let panes = panes.into_inner();
    if panes.len() < 2 {
        return Err(cx.err(
            panes_span,
            format!(
                "a split needs at least 2 panes, this one has {}",
                panes.len()
            ),
        ));
    }
    let weights = match node.ratios {
        None => vec![1; panes.len()],
        Some(ratios) => {
            if ratios.get_ref().len() != panes.len() {
                return Err(cx.err(
                    ratios.span(),
                    format!(
                        "{} ratios for {} panes: give one per pane, or leave `ratios` out for equal sizes",
                        ratios.get_ref().len(),
                        panes.len()
                    ),
                ));
            }
            let mut weights = Vec::with_capacity(panes.len());
            for r in ratios.into_inner() {
                match u32::try_from(*r.get_ref()) {
                    Ok(w) if w > 0 => weights.push(w),
                    _ => {
                        return Err(cx.err(
                            r.span(),
                            format!(
                                "ratio {} is out of range: ratios are positive whole numbers",
                                r.get_ref()
                            ),
                        ));
                    }
                }
            }
            weights
        }
    };
    let mut children = Vec::with_capacity(panes.len());
    let mut kept_weights = Vec::with_capacity(panes.len());
    for (child, weight) in panes.into_iter().zip(weights) {
        // Floating panes leave the tree; their siblings share the space.
        if let Some(child) = convert_node(cx, child, found)? {
            children.push(child);
            kept_weights.push(weight);
        }
    }
    Ok(match children.len() {
        0 => None,
        1 => children.pop(),
        _ => Some(LayoutSpec::Split {
            direction,
            weights: kept_weights,
            children,
        }),
    })
}

/// `floats`: the pane floats (`float = true`, or the `floating` list).
fn convert_pane(
    cx: &Cx<'_>,
    node: RawNode,
    focused: &mut Vec<Range<usize>>,
    floats: bool,
) -> Result<PaneSpec, ProfileError> {
    let place = float_place(cx, &node, floats)?;
    let pinned = match node.pinned {
        Some(p) if *p.get_ref() && !floats => {
            return Err(cx.err(
                p.span(),
                "only a floating pane can be pinned: add `float = true`".to_string(),
            ));
        }
        p => p.is_some_and(|p| p.into_inner()),
    };
    let command = match node.command {
        Some(c) if c.get_ref().trim().is_empty() => {
            return Err(cx.err(
                c.span(),
                "empty command: leave `command` out to run the shell".to_string(),
            ));
        }
        c => c.map(Spanned::into_inner),
    };
    let host = match node.host {
        Some(h) if h.get_ref().trim().is_empty() || h.get_ref().starts_with('-') => {
            return Err(cx.err(h.span(), "`host` is a host as ssh takes it".to_string()));
        }
        Some(h) if h.get_ref().chars().any(char::is_control) => {
            return Err(cx.err(
                h.span(),
                "`host` cannot hold control characters".to_string(),
            ));
        }
        h => h.map(Spanned::into_inner),
    };
    let cwd = match node.cwd {
        // A directory on the other machine: not looked for here.
        Some(cwd) if host.is_some() => Some(PathBuf::from(cwd.into_inner())),
        Some(cwd) => Some(check_cwd(cwd.get_ref()).map_err(|m| cx.err(cwd.span(), m))?),
        None => None,
    };
    let focus = match node.focus {
        Some(f) if *f.get_ref() => {
            if let Some(first) = focused.first() {
                let (line, _) = line_col(cx.text, first.start);
                return Err(cx.err(
                    f.span(),
                    format!("a second focused pane in this tab (the first is on line {line})"),
                ));
            }
            focused.push(f.span());
            true
        }
        _ => false,
    };
    let restart = match node.restart {
        None => RestartPolicy::Never,
        Some(r) => {
            match r.get_ref().as_str() {
                "never" => RestartPolicy::Never,
                "on-failure" => RestartPolicy::OnFailure,
                "always" => RestartPolicy::Always,
                other => {
                    return Err(cx.err(
                    r.span(),
                    format!("unknown restart policy `{other}` (expected never, on-failure or always)"),
                ));
                }
            }
        }
    };
    let start = match node.start {
        None => StartMode::Auto,
        Some(st) => match st.get_ref().as_str() {
            "auto" => StartMode::Auto,
            "manual" => StartMode::Manual,
            other => {
                return Err(cx.err(
                    st.span(),
                    format!("unknown start mode `{other}` (expected auto or manual)"),
                ));
            }
        },
    };
    Ok(PaneSpec {
        command,
        cwd,
        focus,
        title: node.title.map(Spanned::into_inner),
        keep_open: node.keep_open.map(Spanned::into_inner),
        restart,
        start,
        pinned,
        place,
        unsaved: node.save.is_some_and(|s| !s.into_inner()),
        host,
    })
}

/// A floating pane's `x`, `y`, `width` and `height`, checked; refused on
/// a tiled pane, whose box the layout decides.
fn float_place(cx: &Cx<'_>, node: &RawNode, floats: bool) -> Result<FloatPlace, ProfileError> {
    let check = |key: &str, value: &Option<Spanned<RawExtent>>, length: bool| match value {
        None => Ok(None),
        Some(v) if !floats => Err(cx.err(
            v.span(),
            format!("only a floating pane has `{key}`: add `float = true`"),
        )),
        Some(v) => v
            .get_ref()
            .check(key, length)
            .map(Some)
            .map_err(|m| cx.err(v.span(), m)),
    };
    Ok(FloatPlace {
        x: check("x", &node.x, false)?,
        y: check("y", &node.y, false)?,
        width: check("width", &node.width, true)?,
        height: check("height", &node.height, true)?,
    })
}

/// Expands `~` and checks the directory exists, so a typo fails now with
/// the file position instead of as a pane that dies on spawn.
fn check_cwd(written: &str) -> Result<PathBuf, String> {
    let expanded = expand_tilde(written)?;
    let shown = if expanded.as_os_str() == written {
        format!("`{written}`")
    } else {
        format!("`{written}` ({})", expanded.display())
    };
    match std::fs::metadata(&expanded) {
        Ok(m) if m.is_dir() => Ok(expanded),
        Ok(_) => Err(format!("cwd {shown} is not a directory")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(format!("cwd {shown} does not exist")),
        Err(e) => Err(format!("cwd {shown}: {e}")),
    }
}

fn expand_tilde(path: &str) -> Result<PathBuf, String> {
    let rest = match path.strip_prefix('~') {
        Some("") => "",
        Some(rest) if rest.starts_with('/') => rest.trim_start_matches('/'),
        // `~user` or no tilde: taken literally.
        _ => return Ok(PathBuf::from(path)),
    };
    let home = dirs::home_dir()
        .ok_or_else(|| format!("cannot expand `{path}`: no home directory is known"))?;
    Ok(if rest.is_empty() {
        home
    } else {
        home.join(rest)
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn src() -> PathBuf {
        PathBuf::from("/home/u/.config/tilework/profiles/work.toml")
    }

    fn parse_ok(text: &str) -> Profile {
        parse(text, &src()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> String {
        parse(text, &src()).unwrap_err().to_string()
    }

    fn pane(command: Option<&str>) -> LayoutSpec {
        LayoutSpec::Pane(PaneSpec {
            command: command.map(String::from),
            ..PaneSpec::default()
        })
    }

    #[test]
    fn float_panes_leave_the_tree_for_the_tabs_floating_list() {
        let p = parse_ok(
            r#"
[[tab]]
layout = { split = "right", ratios = [2, 1, 1], panes = [
    { command = "vim" },
    { command = "htop", float = true, pinned = true },
    { split = "down", panes = [{ }, { command = "fzf", float = true, focus = true }] },
] }
floating = [{ command = "lazygit" }]
"#,
        );
        let tab = &p.tabs[0];
        assert_eq!(
            tab.layout,
            LayoutSpec::Split {
                direction: SplitDirection::Right,
                weights: vec![2, 1],
                children: vec![pane(Some("vim")), pane(None)],
            }
        );
        let floats: Vec<(Option<&str>, bool, bool)> = tab
            .floating
            .iter()
            .map(|f| (f.command.as_deref(), f.pinned, f.focus))
            .collect();
        assert_eq!(
            floats,
            [
                (Some("htop"), true, false),
                (Some("fzf"), false, true),
                (Some("lazygit"), false, false)
            ]
        );
    }

    #[test]
    fn a_floating_panes_box_is_read_and_a_tiled_one_refused() {
        use crate::config::float_place::Extent;
        let p = parse_ok(
            "[[tab]]\nlayout = {}\nfloating = [{ x = 4, y = \"10%\", width = 40, height = \"50%\" }]\n",
        );
        let place = p.tabs[0].floating[0].place;
        assert_eq!(place.x, Some(Extent::Cells(4)));
        assert_eq!(place.y, Some(Extent::Percent(10)));
        assert_eq!(place.width, Some(Extent::Cells(40)));
        assert_eq!(place.height, Some(Extent::Percent(50)));
        let e = parse_err("[[tab]]\nlayout = { command = \"htop\", width = 40 }\n");
        assert!(e.contains(":2:") && e.contains("add `float = true`"), "{e}");
        let e = parse_err("[[tab]]\nlayout = {}\nfloating = [{ width = 0 }]\n");
        assert!(e.contains(":3:") && e.contains("out of range"), "{e}");
        let e = parse_err("[[tab]]\nlayout = {}\nfloating = [{ x = \"left\" }]\n");
        assert!(e.contains("percentage"), "{e}");
        let e = parse_err("[[tab]]\nlayout = { split = \"right\", x = 1, panes = [{}, {}] }\n");
        assert!(e.contains("`x` belongs to a pane"), "{e}");
    }

    #[test]
    fn floating_mistakes_are_pointed_at() {
        let e = parse_err("[[tab]]\nlayout = { command = \"htop\", float = true }\n");
        assert!(e.contains("a tab needs a pane that does not"), "{e}");
        let e = parse_err("[[tab]]\nlayout = { command = \"htop\", pinned = true }\n");
        assert!(e.contains(":2:") && e.contains("add `float = true`"), "{e}");
        let e = parse_err("[[tab]]\nfloating = [{ split = \"right\", panes = [{}, {}] }]\n");
        assert!(e.contains("a floating pane is a pane, not a split"), "{e}");
        let e =
            parse_err("[[tab]]\nlayout = { split = \"right\", float = true, panes = [{}, {}] }\n");
        assert!(e.contains("`float` belongs to a pane"), "{e}");
        let e = parse_err("[[tab]]\nlayout = { focus = true }\nfloating = [{ focus = true }]\n");
        assert!(e.contains("a second focused pane"), "{e}");
    }

    #[test]
    fn every_builtin_parses() {
        for name in builtin_names() {
            let text = builtin(name).unwrap();
            let profile = parse(text, &builtin_path(name)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(profile.name, name);
            assert!(!profile.tabs.is_empty());
        }
        assert!(builtin("nope").is_none());
    }

    #[test]
    fn builtin_default_is_default_profile() {
        let parsed = parse(builtin("default").unwrap(), &builtin_path("default")).unwrap();
        assert_eq!(parsed, default_profile());
    }

    #[test]
    fn builtin_dev_and_idle_have_the_documented_shape() {
        let dev = parse(builtin("dev").unwrap(), &builtin_path("dev")).unwrap();
        assert_eq!(dev.tabs.len(), 1);
        assert_eq!(dev.tabs[0].name.as_deref(), Some("dev"));
        let panes = dev.tabs[0].layout.panes();
        assert_eq!(panes.len(), 3);
        assert_eq!(panes[0].command.as_deref(), Some("${EDITOR:-vi} ."));
        assert!(panes[0].focus);
        assert_eq!(panes[1].command, None);
        assert_eq!(panes[2].command.as_deref(), Some("top"));
        let LayoutSpec::Split {
            direction, weights, ..
        } = &dev.tabs[0].layout
        else {
            panic!("dev is not a split");
        };
        assert_eq!(
            (*direction, weights.as_slice()),
            (SplitDirection::Right, &[60, 40][..])
        );

        let idle = parse(builtin("idle").unwrap(), &builtin_path("idle")).unwrap();
        let panes = idle.tabs[0].layout.panes();
        assert_eq!(panes.len(), 4);
        assert!(
            panes
                .iter()
                .all(|p| p.command.as_deref() == Some("sleep 100000"))
        );
    }

    #[test]
    fn parses_the_documented_example() {
        let p = parse_ok(
            r#"
[[tab]]
name = "dev"
[tab.layout]
split = "right"
ratios = [60, 40]
[[tab.layout.panes]]
command = "vim ."
focus = true
[[tab.layout.panes]]
split = "down"
panes = [ { }, { command = "tail -f /var/log/syslog", cwd = "/" } ]

[[tab]]
name = "logs"
"#,
        );
        assert_eq!(p.name, "work");
        assert_eq!(p.tabs.len(), 2);
        let expected = LayoutSpec::Split {
            direction: SplitDirection::Right,
            weights: vec![60, 40],
            children: vec![
                LayoutSpec::Pane(PaneSpec {
                    command: Some("vim .".into()),
                    focus: true,
                    ..PaneSpec::default()
                }),
                LayoutSpec::Split {
                    direction: SplitDirection::Down,
                    weights: vec![1, 1],
                    children: vec![
                        pane(None),
                        LayoutSpec::Pane(PaneSpec {
                            command: Some("tail -f /var/log/syslog".into()),
                            cwd: Some(PathBuf::from("/")),
                            ..PaneSpec::default()
                        }),
                    ],
                },
            ],
        };
        assert_eq!(p.tabs[0].layout, expected);
        assert_eq!(p.tabs[1].name.as_deref(), Some("logs"));
        assert_eq!(p.tabs[1].layout, pane(None));
    }

    #[test]
    fn pane_options_and_name_override() {
        let p = parse_ok(
            "name = \"mine\"\n[[tab]]\n[tab.layout]\ncommand = \"htop\"\ntitle = \"load\"\nkeep_open = true\ncwd = \"~\"\n",
        );
        assert_eq!(p.name, "mine");
        let LayoutSpec::Pane(pane) = &p.tabs[0].layout else {
            panic!("not a pane");
        };
        assert_eq!(pane.title.as_deref(), Some("load"));
        assert_eq!(pane.keep_open, Some(true));
        assert_eq!(pane.cwd, dirs::home_dir());
    }

    #[test]
    fn weights_alias_and_deep_nesting() {
        let p = parse_ok(
            "[[tab]]\n[tab.layout]\nsplit = \"down\"\nweights = [1, 2, 3]\npanes = [{}, {}, { split = \"right\", panes = [{}, {}] }]\n",
        );
        assert_eq!(p.tabs[0].layout.panes().len(), 4);
    }

    #[test]
    fn tilde_expansion() {
        let home = dirs::home_dir().unwrap();
        assert_eq!(expand_tilde("~").unwrap(), home);
        assert_eq!(expand_tilde("~/src").unwrap(), home.join("src"));
        assert_eq!(expand_tilde("~bob/x").unwrap(), PathBuf::from("~bob/x"));
        assert_eq!(expand_tilde("/tmp").unwrap(), PathBuf::from("/tmp"));
    }

    fn assert_located(e: &str, line_col: &str, key: &str, message: &str) {
        let head = format!("{}:{line_col}: {key}: ", src().display());
        assert!(e.starts_with(&head), "{e}\n  does not start with {head}");
        assert!(e.contains(message), "{e}\n  does not contain {message}");
    }

    #[test]
    fn split_with_one_child_is_refused() {
        let e = parse_err("[[tab]]\n[tab.layout]\nsplit = \"right\"\npanes = [{}]\n");
        assert_located(
            &e,
            "4:9",
            "tab[0].layout.panes",
            "at least 2 panes, this one has 1",
        );
        let e = parse_err("[[tab]]\n[tab.layout]\nsplit = \"right\"\n");
        assert_located(&e, "3:9", "tab[0].layout.split", "a split needs `panes`");
    }

    #[test]
    fn bad_ratios_are_refused() {
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\nratios = [1, 2, 3]\npanes = [{}, {}]\n",
        );
        assert_located(&e, "4:10", "tab[0].layout.ratios", "3 ratios for 2 panes");
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\nratios = [1, 0]\npanes = [{}, {}]\n",
        );
        assert_located(
            &e,
            "4:14",
            "tab[0].layout.ratios[1]",
            "ratio 0 is out of range",
        );
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\nratios = [-1, 1]\npanes = [{}, {}]\n",
        );
        assert_located(&e, "4:11", "tab[0].layout.ratios[0]", "ratio -1");
    }

    #[test]
    fn unknown_keys_are_refused() {
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"down\"\npanes = [ { }, { command = \"tail\", bogus = 1 } ]\n",
        );
        assert_located(
            &e,
            "4:36",
            "tab[0].layout.panes[1].bogus",
            "unknown field `bogus`",
        );
        let e = parse_err("[[tab]]\nnmae = \"x\"\n");
        assert_located(&e, "2:1", "tab[0].nmae", "unknown field `nmae`");
        let e = parse_err("[[tabs]]\n");
        assert!(e.contains("unknown field `tabs`"), "{e}");
    }

    #[test]
    fn two_focused_panes_are_refused() {
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"down\"\npanes = [\n  { focus = true },\n  { focus = true },\n]\n",
        );
        assert_located(
            &e,
            "6:13",
            "tab[0].layout.panes[1].focus",
            "a second focused pane in this tab (the first is on line 5)",
        );
        // One per tab is fine.
        parse_ok("[[tab]]\n[tab.layout]\nfocus = true\n[[tab]]\n[tab.layout]\nfocus = true\n");
    }

    #[test]
    fn missing_cwd_is_refused_by_name() {
        let e = parse_err("[[tab]]\n[tab.layout]\ncwd = \"/no/such/dir/for/tilework\"\n");
        assert_located(
            &e,
            "3:7",
            "tab[0].layout.cwd",
            "cwd `/no/such/dir/for/tilework` does not exist",
        );
        let e = parse_err("[[tab]]\n[tab.layout]\ncwd = \"~/no-such-dir-for-tilework\"\n");
        assert!(e.contains("cwd `~/no-such-dir-for-tilework` ("), "{e}");
        let e = parse_err("[[tab]]\n[tab.layout]\ncwd = \"/etc/hostname\"\n");
        if Path::new("/etc/hostname").is_file() {
            assert!(e.contains("is not a directory"), "{e}");
        }
    }

    #[test]
    fn mixed_and_malformed_nodes_are_refused() {
        let e = parse_err(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\ncommand = \"x\"\npanes = [{}, {}]\n",
        );
        assert_located(
            &e,
            "4:11",
            "tab[0].layout.command",
            "`command` belongs to a pane",
        );
        let e = parse_err("[[tab]]\n[tab.layout]\npanes = [{}, {}]\n");
        assert_located(&e, "3:9", "tab[0].layout.panes", "`panes` needs `split");
        let e = parse_err("[[tab]]\n[tab.layout]\nsplit = \"sideways\"\npanes = [{}, {}]\n");
        assert_located(&e, "3:9", "tab[0].layout.split", "unknown split `sideways`");
        let e = parse_err("[[tab]]\n[tab.layout]\ncommand = \"  \"\n");
        assert_located(&e, "3:11", "tab[0].layout.command", "empty command");
        let e = parse_err("[[tab]]\n[tab.layout]\nfocus = \"yes\"\n");
        assert_located(&e, "3:9", "tab[0].layout.focus", "invalid type");
    }

    #[test]
    fn empty_profile_is_refused() {
        let e = parse_err("# nothing\n");
        assert!(e.contains("at least one [[tab]]"), "{e}");
        let e = parse_err("[[tab]\n");
        assert!(e.starts_with(&format!("{}:1:", src().display())), "{e}");
    }

    #[test]
    fn load_by_path_and_unknown_name() {
        let dir =
            std::env::temp_dir().join(format!("tilework-profile-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("grid.toml");
        std::fs::write(&file, "[[tab]]\nname = \"one\"\n").unwrap();
        let p = load(file.to_str().unwrap()).unwrap();
        assert_eq!(p.name, "grid");
        assert_eq!(p.tabs[0].name.as_deref(), Some("one"));
        std::fs::remove_dir_all(&dir).unwrap();

        let e = load("/no/such/profile.toml").unwrap_err().to_string();
        assert!(
            e.starts_with("/no/such/profile.toml: cannot read the profile"),
            "{e}"
        );

        let e = load("no-such-profile-for-tilework")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no profile named `no-such-profile-for-tilework`"),
            "{e}"
        );
        assert!(e.contains("default, dev, idle") || e.contains("dev"), "{e}");
        for name in builtin_names() {
            assert!(e.contains(name), "{e}");
        }
    }

    #[test]
    fn load_finds_builtins_by_name() {
        // A user profile of the same name may shadow it; either way it loads.
        for name in builtin_names() {
            load(name).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// A split of `n` panes running `true`.
    fn split_of(n: usize) -> String {
        let panes = vec!["{ command = \"true\" }"; n].join(", ");
        format!("[[tab]]\n[tab.layout]\nsplit = \"right\"\npanes = [{panes}]\n")
    }

    #[test]
    fn a_profile_may_open_at_most_max_panes() {
        assert_eq!(
            parse_ok(&split_of(MAX_PANES)).tabs[0].layout.panes().len(),
            100
        );
        let e = parse_err(&split_of(MAX_PANES + 1));
        assert_located(
            &e,
            "4:2210",
            "tab[0].layout.panes[100]",
            "this is pane 101: a profile may open at most 100 panes",
        );
    }

    #[test]
    fn the_pane_limit_counts_every_tab() {
        // 60 + 40 is fine; one more tab (a shell) is one too many.
        let two_tabs = format!("{}{}", split_of(60), split_of(40));
        assert_eq!(parse_ok(&two_tabs).tabs.len(), 2);
        let e = parse_err(&format!("{two_tabs}[[tab]]\n"));
        assert_located(
            &e,
            "9:1",
            "tab[2]",
            "this is pane 101: a profile may open at most 100 panes",
        );
        let e = parse_err(&"[[tab]]\n".repeat(10_000));
        assert!(e.contains("at most 100 panes"), "{e}");
    }

    /// Every message that quotes the profile: what a shared profile could try
    /// to make tilework print.
    #[test]
    fn errors_quoting_the_profile_hold_no_control_characters() {
        let osc = "\\u001b]52;c;Y3VybCBldmlsfHNoCg==\\u0007";
        let layout = "[[tab]]\n[tab.layout]\n";
        for text in [
            format!("{layout}command = \"x\"\nstart = \"{osc}\"\n"),
            format!("{layout}command = \"x\"\nrestart = \"{osc}\"\n"),
            format!("{layout}split = \"{osc}\"\npanes = [{{}}, {{}}]\n"),
            format!("{layout}\"{osc}\" = 1\n"),
            format!("[[tab]]\n\"{osc}\" = 1\n"),
            format!("\"{osc}\" = 1\n"),
            format!("{layout}cwd = \"/nonexistent/{osc}\"\n"),
            format!("{layout}cwd = \"~/{osc}\"\n"),
        ] {
            let e = parse_err(&text);
            assert!(!e.chars().any(char::is_control), "{text}: {e:?}");
            assert!(
                e.contains("\\u{1b}]52;c;Y3VybCBldmlsfHNoCg==\\u{7}"),
                "{text}: the escaped form is not shown: {e}"
            );
        }
    }

    #[test]
    fn load_refuses_what_is_not_a_regular_file() {
        let e = load("/dev/zero").unwrap_err().to_string();
        assert_eq!(
            e,
            "/dev/zero: cannot read the profile: it is a character device, not a regular file"
        );
    }

    #[test]
    fn command_panes_have_restart_and_start_modes() {
        let p = parse(
            "[[tab]]\n[tab.layout]\ncommand = \"make watch\"\nrestart = \"on-failure\"\nstart = \"manual\"\n",
            Path::new("x.toml"),
        )
        .unwrap();
        let pane = p.tabs[0].layout.panes()[0].clone();
        assert_eq!(pane.restart, RestartPolicy::OnFailure);
        assert_eq!(pane.start, StartMode::Manual);
        assert!(RestartPolicy::OnFailure.restarts(1) && !RestartPolicy::OnFailure.restarts(0));
        let err = parse(
            "[[tab]]\n[tab.layout]\ncommand = \"x\"\nrestart = \"sometimes\"\n",
            Path::new("x.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("x.toml:4:11") && err.contains("sometimes"),
            "{err}"
        );
    }
}
