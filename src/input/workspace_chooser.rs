//! `C-b s`'s chooser (tmux's `choose-tree`): the running workspaces, each
//! with its tabs and their panes, one row each; Enter shows the chosen one
//! on this terminal (a tab or pane row also selects it there).

use crate::session::workspace_list::WorkspaceEntry;

/// Where `C-b s`, `C-b (` or `C-b )` sends this terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceTarget {
    pub name: String,
    /// The tab to show there (from 1, as the status bar numbers them).
    pub tab: Option<usize>,
    /// The pane to focus there (`--pane`'s number).
    pub pane: Option<u32>,
}

/// What a list of the workspaces is wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkspacesWanted {
    /// `C-b s`: the chooser.
    Chooser,
    /// `C-b (` (-1) or `C-b )` (+1): the previous or next by name.
    Step(isize),
}

/// One row of the chooser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// What the row shows (its indentation says its depth).
    pub text: String,
    pub target: WorkspaceTarget,
    /// The workspace this terminal shows.
    pub current: bool,
    /// What its tab shows (an index into the chooser's previews).
    preview: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkspaceChooser {
    /// `None` while the list is being gathered.
    rows: Option<Vec<Row>>,
    chosen: usize,
    /// Each previewed tab: its workspace's name, its number and its text.
    previews: Vec<(String, usize, String)>,
}

impl WorkspaceChooser {
    /// Open, waiting for the list.
    pub fn waiting() -> Self {
        Self::default()
    }

    /// The list came: one row per workspace, tab and pane; the current
    /// workspace's row chosen.
    pub fn fill(&mut self, entries: &[WorkspaceEntry], current: &str) {
        let mut rows = Vec::new();
        self.previews.clear();
        for entry in entries {
            let first = self.previews.len();
            self.previews.extend(
                entry
                    .previews
                    .iter()
                    .map(|(tab, text)| (entry.name.clone(), *tab, text.clone())),
            );
            let preview_of = |tab: usize| {
                entry
                    .previews
                    .iter()
                    .position(|(t, _)| *t == tab)
                    .map(|at| first + at)
            };
            // A workspace's row shows the tab its focused pane is in.
            let shown_tab = entry.panes.iter().find(|p| p.focused).map_or(1, |p| p.tab);
            if let Some(panes) = entry.saved {
                rows.push(Row {
                    text: format!(
                        "{}  (saved, {panes} panes: Enter brings it back)",
                        entry.name
                    ),
                    target: WorkspaceTarget {
                        name: entry.name.clone(),
                        tab: None,
                        pane: None,
                    },
                    current: false,
                    preview: None,
                });
                continue;
            }
            let is_current = entry.name == current;
            let tabs = entry.panes.iter().map(|p| p.tab).max().unwrap_or(0);
            let terminals = match entry.clients {
                0 => "detached".to_string(),
                1 => "1 terminal".to_string(),
                n => format!("{n} terminals"),
            };
            rows.push(Row {
                text: format!(
                    "{}{}  ({} tabs, {} panes, {terminals})",
                    entry.name,
                    if is_current { " *" } else { "" },
                    tabs,
                    entry.panes.len()
                ),
                target: WorkspaceTarget {
                    name: entry.name.clone(),
                    tab: None,
                    pane: None,
                },
                current: is_current,
                preview: preview_of(shown_tab),
            });
            let mut last_tab = 0;
            for pane in &entry.panes {
                if pane.tab != last_tab {
                    last_tab = pane.tab;
                    rows.push(Row {
                        text: format!("  {}: {}", pane.tab, pane.tab_name),
                        target: WorkspaceTarget {
                            name: entry.name.clone(),
                            tab: Some(pane.tab),
                            pane: None,
                        },
                        current: false,
                        preview: preview_of(pane.tab),
                    });
                }
                rows.push(Row {
                    text: format!(
                        "    {} {}{}",
                        pane.id,
                        pane.title,
                        if pane.focused { " *" } else { "" }
                    ),
                    target: WorkspaceTarget {
                        name: entry.name.clone(),
                        tab: Some(pane.tab),
                        pane: Some(pane.id),
                    },
                    current: false,
                    preview: preview_of(pane.tab),
                });
            }
        }
        self.chosen = rows.iter().position(|r| r.current).unwrap_or(0);
        self.rows = Some(rows);
    }

    pub fn rows(&self) -> Option<&[Row]> {
        self.rows.as_deref()
    }

    pub fn chosen(&self) -> usize {
        self.chosen
    }

    /// Moves the choice `step` rows, staying in the list.
    pub fn step(&mut self, step: isize) {
        let len = self.rows.as_ref().map_or(0, Vec::len);
        if len == 0 {
            return;
        }
        let at = isize::try_from(self.chosen).unwrap_or(0) + step;
        self.chosen = usize::try_from(at.clamp(0, len as isize - 1)).unwrap_or(0);
    }

    /// The chosen row's tab as it looks now: (workspace, tab, its text).
    pub fn preview(&self) -> Option<(&str, usize, &str)> {
        let row = self.rows.as_ref()?.get(self.chosen)?;
        let (name, tab, text) = self.previews.get(row.preview?)?;
        Some((name, *tab, text))
    }

    /// Where Enter goes.
    pub fn target(&self) -> Option<&WorkspaceTarget> {
        self.rows.as_ref()?.get(self.chosen).map(|r| &r.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::script::PaneInfo;

    fn pane(id: u32, tab: usize, title: &str) -> PaneInfo {
        serde_json::from_value(serde_json::json!({
            "id": id, "tab": tab, "tab_name": format!("t{tab}"), "title": title,
            "command": [], "cwd": null, "rows": 10, "cols": 10, "focused": false,
            "tab_focused": false, "floating": false, "zoomed": false, "pid": null,
            "exit_code": null
        }))
        .unwrap_or_else(|err| panic!("a PaneInfo: {err}"))
    }

    #[test]
    fn the_tree_has_a_row_per_workspace_tab_and_pane_and_starts_on_this_one() {
        let entries = vec![
            WorkspaceEntry {
                name: "a".into(),
                clients: 0,
                panes: vec![pane(1, 1, "sh"), pane(2, 2, "vim")],
                saved: None,
                previews: vec![(2, "vim's screen".into())],
            },
            WorkspaceEntry {
                name: "b".into(),
                clients: 2,
                panes: vec![pane(1, 1, "top")],
                saved: None,
                previews: Vec::new(),
            },
            WorkspaceEntry {
                name: "c".into(),
                clients: 0,
                panes: Vec::new(),
                saved: Some(3),
                previews: Vec::new(),
            },
        ];
        let mut chooser = WorkspaceChooser::waiting();
        assert!(chooser.rows().is_none());
        chooser.fill(&entries, "b");
        let rows = chooser.rows().unwrap_or_default();
        assert_eq!(rows.len(), 9, "{rows:#?}");
        assert!(
            rows[8].text.starts_with("c  (saved, 3 panes"),
            "{}",
            rows[8].text
        );
        assert!(rows[5].text.starts_with("b *"), "{}", rows[5].text);
        assert_eq!(chooser.chosen(), 5);
        chooser.step(-2);
        assert_eq!(chooser.preview(), Some(("a", 2, "vim's screen")));
        assert_eq!(
            chooser.target(),
            Some(&WorkspaceTarget {
                name: "a".into(),
                tab: Some(2),
                pane: None
            })
        );
        chooser.step(-100);
        assert_eq!(chooser.chosen(), 0);
    }
}
