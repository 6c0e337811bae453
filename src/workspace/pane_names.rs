//! The names of the workspace's panes and tabs as looked up: [`Names`]
//! knows when to look again at what the panes run ([`NAME_CHECK_DELAY`]
//! after output or keys) and how (off the loop, or in place with a probe);
//! [`Panes`] keeps what each look found (foreground program, directory,
//! git branch) and tabs and borders show it. How a name follows from what a
//! pane runs is [`naming`](crate::workspace::naming).

use std::path::PathBuf;
use std::time::Instant;

use crate::pane::PaneId;
use crate::pane::program::spawn::current_dir;
use crate::workspace::Panes;
use crate::workspace::cwd::place_of;
use crate::workspace::name_lookup::{NameQuery, NameReport};
use crate::workspace::names::{NAME_CHECK_DELAY, Names};
use crate::workspace::naming::is_busy;

impl Panes {
    pub fn names(&self) -> &Names {
        &self.names
    }

    pub fn names_mut(&mut self) -> &mut Names {
        &mut self.names
    }

    /// Looks at what the panes run when that is due. Returns whether a
    /// name changed (the screen is to be drawn).
    pub fn check_names(&mut self, now: Instant) -> bool {
        match self.names.due {
            Some(due) if due <= now => {
                self.names.due = None;
                let Some(lookup) = self.names.lookup.as_mut() else {
                    return self.refresh_names();
                };
                let panes = self
                    .members
                    .values()
                    .map(|member| NameQuery {
                        id: member.pane.id,
                        pid: member.pane.program().pid(),
                        osc7: member.pane.term().told().cwd().map(str::to_string),
                    })
                    .collect();
                if !lookup.ask(panes, now) {
                    // The last look is still out: look again later.
                    self.names.due = Some(now + NAME_CHECK_DELAY);
                }
                false
            }
            _ => false,
        }
    }

    /// A look at what the panes run came back. Returns whether a name
    /// changed (the screen is to be drawn).
    pub fn names_found(&mut self, report: NameReport) -> bool {
        if !self
            .names
            .lookup
            .as_mut()
            .is_some_and(|lookup| lookup.answered(&report))
        {
            return false;
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut changed = false;
        for facts in report.facts {
            if let Some(member) = self.members.get_mut(&facts.id) {
                member.job = facts.job;
                changed |= member.learn(
                    facts.foreground.as_ref(),
                    facts.dir,
                    facts.place,
                    home.as_deref(),
                );
            }
        }
        changed
    }

    /// Looks at what every pane runs now. Returns whether a name changed.
    pub fn refresh_names(&mut self) -> bool {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut changed = false;
        for member in self.members.values_mut() {
            let pane = &member.pane;
            let fg = (self.names.probe)(pane);
            let dir = current_dir(pane.term().told().cwd(), pane.program().pid());
            let place = dir.as_deref().map(|d| place_of(d, home.as_deref()));
            changed |= member.learn(fg.as_ref(), dir, place, home.as_deref());
        }
        changed
    }

    /// The programs that closing these panes would stop (more than a
    /// shell at its prompt), by name, for the question asked first.
    pub fn busy_programs(&self, ids: &[PaneId]) -> Vec<String> {
        ids.iter()
            .filter_map(|id| self.members.get(id))
            .filter_map(|member| {
                let fg = (self.names.probe)(&member.pane);
                if !is_busy(&member.pane, fg.as_ref()) {
                    return None;
                }
                Some(match fg {
                    Some(fg) if !fg.is_pane_process => fg.program,
                    // A command pane: its command line.
                    _ => member.pane.label().to_string(),
                })
            })
            .collect()
    }
}
