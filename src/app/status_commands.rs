//! The status bar's command segments (`"cmd:…"`): each command runs on a
//! thread of its own (`shell_job`), never two runs of one command at once,
//! and again `[status] command_interval` after its last run ended; its
//! last line comes back through a mailbox and the bar is redrawn only when
//! it changed. The next run is one of the loop's deadlines: an idle
//! workspace wakes for a command once per interval, and never without one.

use std::time::{Duration, Instant};

use crate::config::appearance::StatusLayout;
use crate::mailbox::Mailbox;
use crate::shell_job::{self, Stream};

/// The most a command's output is read (the rest is dropped).
const OUTPUT_LIMIT: usize = 64 * 1024;
/// The most characters a segment shows.
const SHOWN_WIDTH: usize = 120;

/// One run's answer.
pub struct CommandReport {
    pub command: String,
    /// Its last line, sanitized (a failure's shows as `cmd failed`).
    pub shown: String,
}

struct Job {
    command: String,
    next_run: Instant,
    running: bool,
}

/// See the module's doc.
#[derive(Default)]
pub struct StatusCommands {
    jobs: Vec<Job>,
    interval: Duration,
    timeout: Duration,
    mailbox: Option<Mailbox<CommandReport>>,
}

impl StatusCommands {
    pub fn new(mailbox: Mailbox<CommandReport>) -> Self {
        Self {
            mailbox: Some(mailbox),
            ..Self::default()
        }
    }

    /// The commands `layout` shows, due now; a command kept from the last
    /// layout keeps its schedule (and its run, if one is out).
    pub fn configure(&mut self, layout: &StatusLayout, now: Instant) {
        let commands = layout.commands();
        self.jobs.retain(|job| commands.contains(&job.command));
        for command in commands {
            if !self.jobs.iter().any(|job| job.command == command) {
                self.jobs.push(Job {
                    command,
                    next_run: now,
                    running: false,
                });
            }
        }
        self.interval = layout.command_interval;
        self.timeout = layout.command_timeout;
    }

    /// When the next run is due (none while every command is running).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.jobs
            .iter()
            .filter(|job| !job.running)
            .map(|job| job.next_run)
            .min()
    }

    /// Starts the runs that are due.
    pub fn run_due(&mut self, now: Instant) {
        let Some(mailbox) = &self.mailbox else {
            return;
        };
        for job in &mut self.jobs {
            if job.running || now < job.next_run {
                continue;
            }
            let (command, timeout, mailbox) = (job.command.clone(), self.timeout, mailbox.clone());
            let started = crate::jobs::run("status-command", mailbox, move || {
                let shown = run_once(&command, timeout);
                CommandReport { command, shown }
            });
            if started {
                job.running = true;
            } else {
                job.next_run = now + self.interval;
            }
        }
    }

    /// A run came back: the command runs again an interval from now.
    pub fn finished(&mut self, report: &CommandReport, now: Instant) {
        if let Some(job) = self.jobs.iter_mut().find(|j| j.command == report.command) {
            job.running = false;
            job.next_run = now + self.interval;
        }
    }
}

/// One run of `command`: its last line, or a short word on what went
/// wrong (the details go to the log).
fn run_once(command: &str, timeout: Duration) -> String {
    match shell_job::run(command, &[], Stream::Stdout, OUTPUT_LIMIT, timeout) {
        Ok(done) => {
            match done.status {
                None => tracing::warn!(command, "status command killed after {timeout:?}"),
                Some(status) if !status.success() => {
                    tracing::warn!(command, %status, "status command failed");
                }
                Some(_) => {}
            }
            shell_job::last_line(&done.output, SHOWN_WIDTH)
        }
        Err(err) => {
            tracing::warn!(command, "running a status command: {err}");
            String::new()
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::appearance::Segment;

    fn layout(commands: &[&str]) -> StatusLayout {
        StatusLayout {
            right: commands
                .iter()
                .map(|c| Segment::Command((*c).to_string()))
                .collect(),
            ..StatusLayout::default()
        }
    }

    #[test]
    fn a_command_runs_once_at_a_time_and_again_an_interval_after_it_ended() {
        let (tx, rx) = crossbeam_channel::bounded(4);
        let mut jobs = StatusCommands::new(tx.into());
        let start = Instant::now();
        jobs.configure(&layout(&["echo hi", "echo hi"]), start);
        assert_eq!(jobs.next_deadline(), Some(start));
        jobs.run_due(start);
        assert_eq!(jobs.next_deadline(), None, "running: no deadline");
        jobs.run_due(start);
        let report = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(report.shown, "hi");
        assert!(rx.try_recv().is_err(), "one run, for one command");
        let later = start + Duration::from_millis(10);
        jobs.finished(&report, later);
        assert_eq!(jobs.next_deadline(), Some(later + jobs.interval));
    }

    #[test]
    fn no_command_segment_means_no_deadline() {
        let mut jobs = StatusCommands::new(Mailbox::discarding());
        jobs.configure(&StatusLayout::default(), Instant::now());
        assert_eq!(jobs.next_deadline(), None);
    }

    #[test]
    fn the_config_refuses_an_empty_command_and_an_interval_out_of_bounds() {
        let parse = |text: &str| crate::config::parse(text, std::path::Path::new("c.toml"));
        let err = parse("[status]\nright = [\"cmd: \"]\n").err().unwrap();
        assert!(err.to_string().contains("needs a command"), "{err}");
        let err = parse("[status]\ncommand_interval = 0\n").err().unwrap();
        assert!(
            err.to_string()
                .starts_with("c.toml:2:20: status.command_interval: command_interval is 1 to"),
            "{err}"
        );
        let config = parse("[status]\nleft = [\"cmd:date\"]\ncommand_timeout = 9\n").unwrap();
        assert_eq!(config.appearance.status.commands(), ["date"]);
        assert_eq!(
            config.appearance.status.command_timeout,
            Duration::from_secs(9)
        );
    }
}
