//! `C-b s`'s chooser (tmux's `choose-tree`): the running workspaces, each
//! with its tabs and their panes, one row each; Enter shows the chosen one
//! on this terminal (a tab or pane row also selects it there). Up and
//! down (or `k` `j`) pick a row, Esc or `q` closes the list.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use super::{Cx, DrawCx, Popup, Reply, centered};
use crate::input::outcome::{Command, Outcome};
use crate::sanitize::escape_controls;
use crate::session::workspace_list::WorkspaceEntry;

// What the chooser hands the loop; the loop names them by this path.
pub use crate::input::outcome::{WorkspaceTarget, WorkspacesWanted};

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

impl Popup for WorkspaceChooser {
    fn handle_key(&mut self, _cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        let step = match key.code {
            KeyCode::Up | KeyCode::Char('k') => -1,
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => 1,
            KeyCode::PageUp => -10,
            KeyCode::PageDown => 10,
            KeyCode::Enter => {
                let mut out = Outcome::redraw();
                if let Some(target) = self.target().cloned() {
                    out.commands.push(Command::SwitchWorkspace(target));
                }
                return Reply::close(out);
            }
            KeyCode::Esc | KeyCode::Char('q') => return Reply::close(Outcome::redraw()),
            // Other keys do nothing while the list is open.
            _ => return Reply::stay(Outcome::default()),
        };
        self.step(step);
        Reply::stay(Outcome::redraw())
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        WorkspaceChooserPopup {
            chooser: self,
            frame: at.theme.popup,
        }
        .render(at.panes, buf);
    }
}

struct WorkspaceChooserPopup<'a> {
    chooser: &'a WorkspaceChooser,
    /// The frame's style (the theme's `popup`).
    frame: Style,
}

impl Widget for WorkspaceChooserPopup<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = area.width.saturating_sub(8).clamp(20, 100);
        let hint = Line::styled(
            " ↑↓ or j/k pick · Enter: show it here · Esc: close",
            Style::default().fg(Color::DarkGray),
        );
        let Some(rows) = self.chooser.rows() else {
            let rect = centered(area, width, 3);
            Clear.render(rect, buf);
            Paragraph::new(vec![Line::from(" looking for workspaces…")])
                .block(self.block())
                .render(rect, buf);
            return;
        };
        // With a preview of the chosen row's tab, the list takes the top
        // half and the preview the rest, as tmux's choose-tree.
        let preview = self.chooser.preview();
        let list_area = if preview.is_some() {
            Rect {
                height: area.height / 2,
                ..area
            }
        } else {
            area
        };
        // Rows that fit between the frame and the hint; the chosen one in
        // view.
        let room = usize::from(list_area.height.saturating_sub(3)).max(1);
        let shown = rows.len().min(room);
        let first = self
            .chooser
            .chosen()
            .saturating_sub(shown.saturating_sub(1))
            .min(rows.len() - shown);
        let mut lines: Vec<Line<'_>> = rows
            .iter()
            .enumerate()
            .skip(first)
            .take(shown)
            .map(|(i, row)| {
                // Names and titles come from programs and other users'
                // workspaces: shown, never acted on.
                let text = format!(" {}", escape_controls(&row.text));
                let style = if i == self.chooser.chosen() {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else if row.current {
                    Style::default().add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                };
                Line::styled(text, style)
            })
            .collect();
        lines.push(hint);
        let Some((name, tab, text)) = preview else {
            let rect = centered(area, width, lines.len() + 2);
            Clear.render(rect, buf);
            Paragraph::new(lines).block(self.block()).render(rect, buf);
            return;
        };
        let list_h = u16::try_from(lines.len() + 2)
            .unwrap_or(u16::MAX)
            .min(list_area.height);
        let list = Rect {
            y: area.y + list_area.height - list_h,
            ..centered(area, width, usize::from(list_h))
        };
        Clear.render(list, buf);
        Paragraph::new(lines).block(self.block()).render(list, buf);
        let below = Rect {
            y: list.bottom(),
            height: area.bottom().saturating_sub(list.bottom()),
            ..list
        };
        if below.height < 3 {
            return;
        }
        // Another workspace's screen, as text: shown, never acted on.
        let inner = usize::from(below.height - 2);
        let shown: Vec<Line<'_>> = text
            .lines()
            .take(inner)
            .map(|l| Line::from(escape_controls(l).into_owned()))
            .collect();
        Clear.render(below, buf);
        Paragraph::new(shown)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(self.frame)
                    .title(format!(" {} · tab {tab} ", escape_controls(name))),
            )
            .render(below, buf);
    }
}

impl WorkspaceChooserPopup<'_> {
    fn block(&self) -> Block<'static> {
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(self.frame)
            .title(" workspaces ")
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
