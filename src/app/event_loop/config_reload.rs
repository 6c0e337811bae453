//! Reading the config again while running (`source-config`, `C-b R`,
//! `tilework action source-config`): the file is read on a thread of its
//! own (`config::reload`), and its answer lands here as a loop event. A
//! good file changes keys, theme, borders, status bar and hooks at once;
//! a refused one leaves the running config as it is and says why, by
//! file, line and column, in the status bar, the log and to the script
//! that asked.

use crossbeam_channel::Sender;

use super::App;
use crate::app::attached::Attached;
use crate::app::frame_clock::FrameClock;
use crate::config::Config;
use crate::config::reload::{ConfigSource, Reloaded};
use crate::input::router::Command;
use crate::mailbox::Mailbox;
use crate::session::script::Reply;
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::pane_frame::PaneFrame;

/// The loop's side of reloading.
/// How long a read of the config may take (a hung network file system)
/// before a new reload reads it again instead of waiting on it.
const READ_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

#[derive(Default)]
pub(in crate::app) struct Reload {
    source: ConfigSource,
    /// Where the reading thread answers (`None`: no reload, as in tests).
    mailbox: Option<Mailbox<Reloaded>>,
    /// A read is out since then: one at a time, the others join its
    /// answer (one out longer than [`READ_LIMIT`] is given up).
    running: Option<std::time::Instant>,
    /// Scripts waiting to hear how the reload went.
    replies: Vec<Sender<Reply>>,
}

impl Reload {
    /// Takes [`Command::SourceConfig`] out of `commands`: whether there
    /// was one.
    pub(in crate::app) fn take_command(commands: &mut Vec<Command>) -> bool {
        let asked = commands.contains(&Command::SourceConfig);
        if asked {
            commands.retain(|c| *c != Command::SourceConfig);
        }
        asked
    }

    pub(in crate::app) fn new(source: ConfigSource, mailbox: Mailbox<Reloaded>) -> Self {
        Self {
            source,
            mailbox: Some(mailbox),
            running: None,
            replies: Vec::new(),
        }
    }

    /// Starts reading the config file again; `reply` hears the outcome.
    pub(super) fn start<B: FrameSink>(
        &mut self,
        reply: Option<Sender<Reply>>,
        clients: &mut Attached<B>,
        clock: &mut FrameClock,
    ) {
        self.replies.extend(reply);
        let now = std::time::Instant::now();
        match self.running {
            Some(since) if now < since + READ_LIMIT => return,
            Some(_) => tracing::warn!("the last config read is stuck: reading it again"),
            None => {}
        }
        let Some(mailbox) = self.mailbox.clone() else {
            self.finish(
                clients,
                clock,
                Err("the config cannot be read again here".into()),
            );
            return;
        };
        tracing::info!(file = %self.source.describe(), "reloading the config");
        let started = crate::config::reload::start(self.source.clone(), mailbox);
        self.running = started.then_some(now);
        if !started {
            self.finish(
                clients,
                clock,
                Err("no thread could be started to read the config".into()),
            );
        }
    }

    /// Says how the reload went in every status bar, the log and to the
    /// scripts that asked.
    pub(super) fn finish<B: FrameSink>(
        &mut self,
        clients: &mut Attached<B>,
        clock: &mut FrameClock,
        outcome: Result<String, String>,
    ) {
        match &outcome {
            Ok(done) => tracing::info!("{done}"),
            Err(why) => tracing::warn!("{why}"),
        }
        let text = match &outcome {
            Ok(text) | Err(text) => text.clone(),
        };
        clients.notify_all(&text);
        clock.changed_now();
        for reply in self.replies.drain(..) {
            // Capacity one, one reply: never blocks.
            let _ = reply.send(match &outcome {
                Ok(done) => Reply::Text(format!("{done}\n").into_bytes()),
                Err(why) => Reply::Error(why.clone()),
            });
        }
    }
}

impl<B: FrameSink> App<B> {
    /// The read came back.
    pub(super) fn reloaded(&mut self, result: Reloaded) {
        self.reload.running = None;
        match result {
            Ok(config) => {
                self.apply_config(&config);
                let done = format!("config reloaded: {}", self.reload.source.describe());
                self.reload
                    .finish(&mut self.clients, &mut self.clock, Ok(done));
            }
            Err(err) => self.reload.finish(
                &mut self.clients,
                &mut self.clock,
                Err(format!("config not reloaded: {err}")),
            ),
        }
    }

    /// What the new config changes in a running workspace: what the keys
    /// do, the look, the questions asked, and (for what opens next) the
    /// pane limit and the editor's colours. The shell, `TERM` and the
    /// scrollback of panes already open stay as they started.
    pub(super) fn apply_config(&mut self, config: &Config) {
        for client in &mut self.clients.list {
            client.router.reconfigure(config);
        }
        self.clients.spare_router.reconfigure(config);
        for at in 0..self.clients.list.len() {
            if self.clients.theme_from_terminal(at) {
                self.clock.changed_now();
            }
        }
        // Terminals that attach later get it too.
        self.clients.reloaded_config = Some(Box::new(config.clone()));
        self.ws
            .set_pane_frame(PaneFrame::of(config.appearance.borders));
        self.ws
            .panes_mut()
            .spawner_mut()
            .set_editor_ansi(config.editor_ansi);
        self.ws.panes_mut().set_max_panes(config.max_panes);
        self.status_commands
            .configure(&config.appearance.status, std::time::Instant::now());
        self.hooks.configure(&config.hooks, &self.ws);
        self.signals
            .clipboard_reads
            .set_policy(config.clipboard_read);
        self.signals
            .progress
            .set_by_config(config.terminal_features.progress);
        // The theme may colour every cell tilework draws: a whole frame.
        for client in &mut self.clients.list {
            let frame = client.frame_area();
            client.refit(frame);
        }
    }
}
