//! The workspace's changes `tilework subscribe` tells that no hook runs
//! on (issue 43): a pane opened or resized, a tab closed, renamed or
//! selected. Each turn the loop has subscribers, the workspace is compared
//! with what it was at the last turn (a few numbers a pane and a tab);
//! with no subscriber nothing is kept or compared.
//!
//! Panes go by the number scripts use (`--pane N`, the `output` events'
//! `pane`), tabs by their place from 1 (`TILEWORK_TAB`).

use crate::workspace::Workspace;

/// What the workspace looked like at the last turn.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Each pane's script number and size (rows, columns).
    panes: Vec<(u32, (u16, u16))>,
    /// Each tab's serial and the name it was given (`None`: named after
    /// its pane).
    tabs: Vec<(u64, Option<String>)>,
    /// The serial of the tab shown.
    shown: Option<u64>,
}

/// One change to tell: its event name, its pane and its other fields as
/// JSON members.
pub type Change = (&'static str, Option<u32>, String);

impl Snapshot {
    pub fn of(ws: &Workspace) -> Self {
        let mut panes: Vec<(u32, (u16, u16))> = ws
            .panes()
            .iter()
            .map(|p| (ws.panes().script_id(p.id), p.term().size()))
            .collect();
        panes.sort_unstable();
        let tabs = ws
            .tabs()
            .iter()
            .map(|t| (t.serial, t.name.clone()))
            .collect();
        let shown = ws.tabs().get(ws.tabs().active()).map(|t| t.serial);
        Self { panes, tabs, shown }
    }

    /// What changed from `self` to `now`, in the workspace `ws` (which
    /// `now` was taken of), oldest kind first.
    pub fn changes(&self, now: &Snapshot, ws: &Workspace) -> Vec<Change> {
        let mut out = Vec::new();
        let tab_of = |serial: u64| ws.tabs().iter().position(|t| t.serial == serial);
        for &(pane, (rows, cols)) in &now.panes {
            let tab = ws
                .panes()
                .by_script_id(pane)
                .and_then(|id| ws.tabs().iter().position(|t| t.holds(id)))
                .map(|i| format!(",\"tab\":{}", i + 1))
                .unwrap_or_default();
            let size = format!("\"rows\":{rows},\"cols\":{cols}");
            match self.panes.binary_search_by_key(&pane, |&(p, _)| p) {
                Err(_) => out.push(("pane-opened", Some(pane), format!("{size}{tab}"))),
                Ok(at) if self.panes[at].1 != (rows, cols) => {
                    out.push(("pane-resized", Some(pane), size));
                }
                Ok(_) => {}
            }
        }
        for (place, (serial, _)) in self.tabs.iter().enumerate() {
            if tab_of(*serial).is_none() {
                // Its place when it was closed: the others moved up.
                out.push(("tab-closed", None, format!("\"tab\":{}", place + 1)));
            }
        }
        for (place, (serial, name)) in now.tabs.iter().enumerate() {
            let renamed = self
                .tabs
                .iter()
                .find(|(s, _)| s == serial)
                .is_some_and(|(_, was)| was != name);
            if renamed {
                let name =
                    serde_json::to_string(&ws.tabs().name(place, ws.panes())).unwrap_or_default();
                out.push((
                    "tab-renamed",
                    None,
                    format!("\"tab\":{},\"name\":{name}", place + 1),
                ));
            }
        }
        if now.shown != self.shown
            && let Some(place) = now.shown.and_then(tab_of)
        {
            out.push(("tab-selected", None, format!("\"tab\":{}", place + 1)));
        }
        out
    }
}
