//! The layout serialized once: what a saved profile says reads back as
//! the same layout, whatever the names in it, and the profiles earlier
//! versions wrote still open.

use super::*;

/// Names a careless writer would break TOML with.
const HOSTILE: &[&str] = &[
    "say \"hi\"",
    "C:\\dir\\",
    "two\nlines",
    "]]\n[[tab]]",
    "a = b",
    "# not a comment",
    "日本語 ✓ é",
    "'single' and \\\"both\\\"",
    "tab\there\r",
    "",
];

/// A workspace with a hostile name in every place a name goes: the tab's
/// name, a pane's title, a command line, a floating pane's title.
fn hostile_workspace() -> Harness {
    let mut h = Harness::with_commands(
        false,
        vec![
            PaneSpec {
                command: Some("printf '%s\\n' \"a]b\" # c = d".into()),
                title: Some(HOSTILE[0].into()),
                ..PaneSpec::default()
            },
            PaneSpec {
                title: Some(HOSTILE[3].into()),
                cwd: Some("/".into()),
                unsaved: true,
                ..PaneSpec::default()
            },
            PaneSpec {
                command: Some(HOSTILE[7].into()),
                title: Some(HOSTILE[1].into()),
                ..PaneSpec::default()
            },
        ],
    );
    h.ws.tabs_mut().rename_shown(HOSTILE[2]);
    assert!(h.ws.apply(Action::SplitDown));
    h.ws.apply(Action::NewTab);
    h.ws.tabs_mut().rename_shown(HOSTILE[6]);
    assert!(h.ws.apply(Action::NewFloating));
    assert!(h.ws.apply(Action::TogglePin));
    h
}

/// A profile saved by the hand-written writer before the layout was
/// serialized with serde (`fixtures/saved_before_serde.toml`, written by
/// `to_toml` from [`hostile_workspace`] at commit c22d918) still opens,
/// and says what today's writer says of the same workspace.
#[test]
fn a_profile_saved_before_serde_still_opens_the_same() {
    let old = include_str!("fixtures/saved_before_serde.toml");
    let path = std::path::Path::new("hostile.toml");
    let before = crate::config::profile::parse(old, path).unwrap();
    let h = hostile_workspace();
    let now = crate::workspace::profile_save::to_toml(&h.ws, "hostile");
    assert_eq!(
        crate::config::profile::parse(&now, path).unwrap(),
        before,
        "{now}"
    );

    let mut reopened = Harness::new(false);
    reopened.ws.open_profile(&before);
    assert_eq!(reopened.ws.tabs()[0].name.as_deref(), Some("twolines"));
    assert_eq!(reopened.ws.tabs()[1].name.as_deref(), Some("日本語 ✓ é"));
    let panes = reopened.ws.tabs()[0].layout.panes();
    let titles: Vec<Option<&str>> = panes
        .iter()
        .map(|&id| reopened.ws.panes().given_title(id))
        .collect();
    assert_eq!(
        titles,
        [
            Some("say \"hi\""),
            None,
            Some("]][[tab]]"),
            Some("C:\\dir\\")
        ]
    );
    let saved: Vec<bool> = panes
        .iter()
        .map(|&id| reopened.ws.panes().history_saved(id))
        .collect();
    assert_eq!(saved, [true, true, false, true]);
    let command = |id: PaneId| {
        reopened
            .ws
            .panes()
            .get(id)
            .unwrap()
            .spec
            .argv
            .last()
            .cloned()
    };
    assert_eq!(
        command(panes[0]).as_deref(),
        Some("printf '%s\\n' \"a]b\" # c = d")
    );
    assert_eq!(command(panes[3]).as_deref(), Some(HOSTILE[7]));
    let floats: Vec<bool> = reopened.ws.tabs()[1]
        .floats
        .iter()
        .map(|f| f.pinned)
        .collect();
    assert_eq!(floats, [true]);
}

mod round_trip {
    use std::path::{Path, PathBuf};

    use proptest::prelude::*;

    use super::*;

    /// Names made of what breaks hand-written TOML, and some plain letters.
    fn hostile_name() -> impl Strategy<Value = String> {
        let pick = prop::sample::select(vec![
            '"', '\\', '\n', ']', '[', '=', '#', '\'', '{', '}', ',', '\t', ' ', 'é', '日', '✓',
            '\u{202e}', 'a', 'Z',
        ]);
        prop_oneof![
            prop::collection::vec(pick, 0..10).prop_map(|c| c.into_iter().collect()),
            prop::sample::select(HOSTILE.to_vec()).prop_map(String::from),
        ]
    }

    fn pane() -> impl Strategy<Value = PaneSpec> {
        (
            prop::option::of(hostile_name()),
            prop::option::of(hostile_name()),
            prop::option::of(hostile_name()),
            any::<bool>(),
        )
            .prop_map(|(title, command, cwd, unsaved)| PaneSpec {
                title,
                // A command is never blank (the profile refuses it).
                command: command.map(|c| format!("echo {c}")),
                // Made a directory under the test's own before it opens.
                cwd: cwd.map(PathBuf::from),
                unsaved,
                ..PaneSpec::default()
            })
    }

    fn layout() -> impl Strategy<Value = LayoutSpec> {
        pane()
            .prop_map(LayoutSpec::Pane)
            .prop_recursive(3, 12, 3, |inner| {
                (any::<bool>(), prop::collection::vec((1u32..5, inner), 2..4)).prop_map(
                    |(down, children)| LayoutSpec::Split {
                        direction: if down {
                            SplitDirection::Down
                        } else {
                            SplitDirection::Right
                        },
                        weights: children.iter().map(|(w, _)| *w).collect(),
                        children: children.into_iter().map(|(_, c)| c).collect(),
                    },
                )
            })
    }

    fn profile() -> impl Strategy<Value = Profile> {
        let tab = (
            prop::option::of(hostile_name()),
            layout(),
            prop::collection::vec((pane(), any::<bool>()), 0..3),
        )
            .prop_map(|(name, layout, floating)| TabSpec {
                name,
                layout,
                floating: floating
                    .into_iter()
                    .map(|(pane, pinned)| PaneSpec { pinned, ..pane })
                    .collect(),
            });
        prop::collection::vec(tab, 1..4).prop_map(|tabs| Profile {
            name: "p".into(),
            tabs,
        })
    }

    /// Every pane of `layout`, mutably.
    fn panes_mut<'a>(layout: &'a mut LayoutSpec, out: &mut Vec<&'a mut PaneSpec>) {
        match layout {
            LayoutSpec::Pane(p) => out.push(p),
            LayoutSpec::Split { children, .. } => {
                for child in children {
                    panes_mut(child, out);
                }
            }
        }
    }

    /// The generated directories made real under `base`.
    fn make_dirs(profile: &mut Profile, base: &Path) {
        for tab in &mut profile.tabs {
            let mut panes = Vec::new();
            panes_mut(&mut tab.layout, &mut panes);
            panes.extend(tab.floating.iter_mut());
            for pane in panes {
                if let Some(name) = pane.cwd.take() {
                    let dir = base.join(name);
                    std::fs::create_dir_all(&dir).unwrap();
                    pane.cwd = Some(dir);
                }
            }
        }
    }

    /// What a user would see of the workspace's layout: each tab's name,
    /// and each pane's title, directory, command and whether its history
    /// is saved, tiled panes in reading order then floating ones.
    type Seen = Vec<(
        Option<String>,
        Vec<(Option<String>, Option<PathBuf>, String, bool)>,
    )>;

    fn seen(ws: &Workspace) -> Seen {
        ws.tabs()
            .iter()
            .map(|tab| {
                let ids = tab
                    .layout
                    .panes()
                    .into_iter()
                    .chain(tab.floats.iter().map(|f| f.id));
                let panes = ids
                    .map(|id| {
                        let argv = &ws.panes().get(id).unwrap().spec.argv;
                        (
                            ws.panes().given_title(id).map(String::from),
                            ws.panes().known_dir(id),
                            argv.last().cloned().unwrap_or_default(),
                            ws.panes().history_saved(id),
                        )
                    })
                    .collect();
                (tab.name.clone(), panes)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Live layout -> file -> layout: the same tabs, names, titles,
        /// commands and directories, whatever characters they hold; and
        /// saving the reopened workspace writes the same file.
        #[test]
        fn a_saved_layout_reads_back_the_same(mut profile in profile()) {
            let base = tempfile::tempdir().unwrap();
            make_dirs(&mut profile, base.path());
            let mut live = Harness::new(false);
            live.ws.open_profile(&profile);

            let text = crate::workspace::profile_save::to_toml_from_lookups(&live.ws, "p");
            let read = crate::config::profile::parse(&text, Path::new("p.toml"));
            prop_assert!(read.is_ok(), "{:?}\n{}", read.err(), text);
            let mut reopened = Harness::new(false);
            reopened.ws.open_profile(&read.unwrap());

            let (before, after) = (seen(&live.ws), seen(&reopened.ws));
            // Commands come back waiting for Enter, their line the same.
            prop_assert_eq!(before, after, "{}", text);
            let again = crate::workspace::profile_save::to_toml_from_lookups(&reopened.ws, "p");
            prop_assert_eq!(again, text);
        }
    }
}
