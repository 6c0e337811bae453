//! What the status bar shows that the workspace does not hold: the clock's
//! text, this machine's name, the workspace's name and whether this
//! terminal only looks (`attach -r`). The clock is a deadline the loop waits
//! for (through the router's `next_deadline`), due when its text changes:
//! an idle workspace showing `%H:%M` wakes once a minute, and one without
//! a clock segment never.

use std::time::Instant;

use crate::config::appearance::{Segment, StatusLayout};
use crate::config::clock::{self, Granularity};

#[derive(Debug, Default)]
pub struct StatusFacts {
    /// The clock's text, empty without a clock segment.
    pub clock: String,
    pub host: String,
    /// The workspace's name, as `tilework ls` shows it (none outside a
    /// session).
    pub workspace: Option<String>,
    /// This terminal was attached with `attach -r`: the bar says so.
    pub read_only: bool,
    /// The tabs (by serial) other terminals show, with views of their own
    /// (`client_views = "own"`): marked on the bar.
    pub seen_elsewhere: Vec<u64>,
    ticking: Option<Ticking>,
    /// What each command segment's command printed last (its last line,
    /// sanitized), by command.
    commands: Vec<(String, String)>,
}

#[derive(Debug)]
struct Ticking {
    format: String,
    granularity: Granularity,
    due: Instant,
}

impl StatusFacts {
    /// The facts `layout` shows, read now.
    pub fn for_layout(layout: &StatusLayout) -> Self {
        let host = if layout.has(&Segment::Host)
            || (layout.set_titles && layout.titles_string.contains("#H"))
        {
            host_name()
        } else {
            String::new()
        };
        let mut facts = Self {
            clock: String::new(),
            host,
            workspace: None,
            read_only: false,
            seen_elsewhere: Vec::new(),
            ticking: None,
            commands: Vec::new(),
        };
        if layout.has(&Segment::Clock) {
            let granularity = clock::granularity(&layout.clock);
            facts.ticking = Some(Ticking {
                format: layout.clock.clone(),
                granularity,
                due: Instant::now(),
            });
            facts.tick(Instant::now());
        }
        facts
    }

    /// Facts that never change (tests, benches).
    pub fn fixed(clock: &str, host: &str) -> Self {
        Self {
            clock: clock.into(),
            host: host.into(),
            workspace: None,
            read_only: false,
            seen_elsewhere: Vec::new(),
            ticking: None,
            commands: Vec::new(),
        }
    }

    /// What command segment `command` shows (empty until it has run).
    pub fn command_output(&self, command: &str) -> &str {
        self.commands
            .iter()
            .find(|(c, _)| c == command)
            .map_or("", |(_, shown)| shown.as_str())
    }

    /// Keeps what `old`'s command segments showed (a reload keeps them
    /// until they run again).
    pub fn keep_commands_of(&mut self, old: &mut StatusFacts) {
        self.commands = std::mem::take(&mut old.commands);
        self.workspace = old.workspace.take();
        self.read_only = old.read_only;
    }

    /// `command` printed `shown`. Returns whether the bar changes.
    pub fn command_ran(&mut self, command: &str, shown: String) -> bool {
        match self.commands.iter_mut().find(|(c, _)| c == command) {
            Some((_, old)) if *old == shown => false,
            Some((_, old)) => {
                *old = shown;
                true
            }
            None => {
                self.commands.push((command.to_string(), shown));
                true
            }
        }
    }

    /// When the clock's text next changes.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.ticking.as_ref().map(|t| t.due)
    }

    /// Reads the clock if it is due. Returns whether its text changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let Some(t) = &mut self.ticking else {
            return false;
        };
        if now < t.due {
            return false;
        }
        t.due = now + clock::until_next_change_now(t.granularity);
        let text = clock::text_now(&t.format);
        let changed = text != self.clock;
        self.clock = text;
        changed
    }
}

/// This machine's name, without anything that could move the cursor.
fn host_name() -> String {
    match nix::unistd::gethostname() {
        Ok(name) => crate::sanitize::sanitize_title(name.to_string_lossy().as_bytes()),
        Err(err) => {
            tracing::warn!("reading the host name: {err}");
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_clock_nothing_is_ever_due() {
        let mut facts = StatusFacts::for_layout(&StatusLayout::default());
        assert_eq!(facts.next_deadline(), None);
        assert!(!facts.tick(Instant::now()));
        assert!(facts.clock.is_empty());
    }

    /// A minute clock is due at most a minute ahead, and reading it before
    /// then does nothing.
    #[test]
    fn a_minute_clock_is_due_within_the_minute() {
        let mut layout = StatusLayout::default();
        layout.right.push(Segment::Clock);
        let mut facts = StatusFacts::for_layout(&layout);
        assert_eq!(facts.clock.len(), "12:34".len(), "{:?}", facts.clock);
        let now = Instant::now();
        let due = facts.next_deadline().unwrap_or(now);
        assert!(due > now && due <= now + std::time::Duration::from_secs(61));
        assert!(!facts.tick(now), "nothing changes before it is due");
        assert_eq!(facts.next_deadline(), Some(due));
    }
}
