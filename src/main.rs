use std::io::{self, IsTerminal};
use std::os::fd::AsFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;

use tilework::app::{self, RunOptions, Startup};
use tilework::cli::{Cli, SessionCommand};
use tilework::config::{self, profile};
use tilework::diag::logging;
use tilework::remote::{self, target::Target};
use tilework::sanitize::escape_controls;
use tilework::session::proto::{AttachMode, Joining};
use tilework::session::{self, attach_process, host, host::SessionStart};
use tilework::terminal::output::WriterKind;

fn main() -> ExitCode {
    match run() {
        Ok(code) => ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1)),
        Err(err) => {
            // The terminal is restored by now (guards drop before we get here).
            // Every error reaches the terminal here, and any of them may
            // quote a file, a path or a program's words: escaped, none of it
            // can act on the terminal.
            eprintln!("tilework: {}", escape_controls(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<i32> {
    // An old workspace process become its programs' reaper (an upgrade).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == tilework::upgrade::reaper::REAP_FLAG)
    {
        let rest: Vec<_> = std::env::args_os().skip(2).collect();
        return Ok(tilework::upgrade::reaper::run(&rest));
    }
    // Run as `tmux` (a symlink) or `tilework tmux ARGS`: tmux's command
    // line (see `tmux_compat`), before clap sees any of it.
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let called = args
        .first()
        .map(|a| a.rsplit('/').next().unwrap_or(a).to_string())
        .unwrap_or_default();
    if called == "tmux" {
        return Ok(tilework::tmux_compat::main(&args[1..]));
    }
    if args.get(1).map(String::as_str) == Some("tmux") {
        return Ok(tilework::tmux_compat::main(&args[2..]));
    }
    // The attaching client run afresh to wait small (`session::small_wait`).
    if args.get(1).map(String::as_str) == Some(session::small_wait::FLAG) {
        return attach_process::resume_attached();
    }
    let cli = Cli::parse();
    if cli.print_config {
        print!("{}", config::default_toml());
        return Ok(0);
    }
    if let Some(command) = &cli.command {
        if is_remote_attach(command) {
            // A remote attach stays in the user's terminal for the whole
            // visit and reconnects on its own: its log is the only place
            // that says why a link dropped.
            init_log(&cli)?;
        }
        return session_command(cli.session.as_deref(), cli.config.as_deref(), command);
    }
    if cli.serve_session {
        return serve(&cli);
    }
    // Everything that can fail because of the user's files fails here,
    // before the terminal is touched (and again in the workspace process,
    // which reads the same files a moment later).
    let setup = Setup::from_cli(&cli)?;
    // The launcher logs too (to the same file, appending): and a log path
    // that cannot be used is refused here, before the terminal is touched.
    init_log(&cli)?;
    // Saved workspaces are read from and deleted in the state directory:
    // one that is not the user's own is refused here, before the TUI.
    tilework::persist::dirs::check_state_dirs()?;
    require_terminal(cli.writer)?;
    attach_process::require_terminals()?;
    let dir = session::dir::runtime_dir()?;
    let joining = Joining::from_process(AttachMode::Join, &setup.config.update_environment);
    let (claim, given) = match &cli.session {
        Some(name) => {
            session::dir::check_name(name)?;
            let claim = session::claim::claim_named(&dir, name)?;
            if tilework::persist::is_saved(name) {
                // Its name after a crash or reboot: it comes back, unless
                // told to run something else.
                if cli.argv.is_empty() && cli.commands.is_empty() && cli.profile.is_none() {
                    return attach_process::launch_restored(claim, name, joining);
                }
                anyhow::bail!(
                    "a workspace named {name} is saved: `tilework attach {name}` brings it \
                     back, `tilework forget {name}` deletes it"
                );
            }
            (claim, true)
        }
        None => (
            session::claim::claim_free(&dir, cli.profile.as_deref())?,
            false,
        ),
    };
    attach_process::launch(claim, given, joining)
}

/// The config `tilework attach` and `ls` go by (the variables brought for
/// new panes, how other machines are reached). A config that cannot be
/// read does not stop an attach (the workspace read it already): the
/// defaults are used.
fn config_for_attach(config_path: Option<&std::path::Path>) -> config::Config {
    let loaded = match config_path {
        Some(path) => config::load(path, true).map(Some),
        None => config::default_path()
            .map(|path| config::load(&path, false))
            .transpose(),
    };
    match loaded {
        Ok(Some(config)) => config,
        Ok(None) => config::Config::default(),
        Err(err) => {
            tracing::warn!("reading the config for attach: {err}");
            config::Config::default()
        }
    }
}

/// `tilework ls`, `attach`, `kill`; and `action`, `send-keys`, `run`,
/// `capture`, `list-panes`: a script driving the workspace `session` names
/// (or the one it runs in).
fn session_command(
    session: Option<&str>,
    config_path: Option<&std::path::Path>,
    command: &SessionCommand,
) -> Result<i32> {
    use session::script::Place;
    use session::script_client as script;
    use tilework::cli::SplitSide;
    if matches!(
        command,
        SessionCommand::Ls { .. } | SessionCommand::Forget { .. } | SessionCommand::Attach { .. }
    ) {
        // These read or delete saved workspaces: not in a state directory
        // another user could have made.
        tilework::persist::dirs::check_state_dirs()?;
    }
    match command {
        SessionCommand::Ls {
            long,
            host: Some(host),
        } => {
            let target = remote_host(host)?;
            remote::ls(&config_for_attach(config_path).remote, &target, *long)
        }
        SessionCommand::Ls { long, host: None } => attach_process::ls(*long),
        SessionCommand::Forget { name } => forget(name),
        SessionCommand::Upgrade { name, all, force } => {
            tilework::upgrade::request::upgrade(name.as_deref(), *all, *force)
        }
        SessionCommand::Attach {
            name,
            detach_others,
            read_only,
            create,
            client_version,
            named_as,
        } => {
            // Run by another machine's tilework over ssh: the same version,
            // or a message naming both.
            if let Some(refused) = remote::versions::refusal(client_version.as_deref()) {
                eprintln!("tilework: {}", escape_controls(&refused));
                return Ok(remote::versions::VERSION_MISMATCH);
            }
            let mode = match (*detach_others, *read_only) {
                (true, _) => AttachMode::DetachOthers,
                (_, true) => AttachMode::ReadOnly,
                _ => AttachMode::Join,
            };
            let config = config_for_attach(config_path);
            if let Some(target) = name.as_deref().map(Target::parse).transpose()?.flatten() {
                let mut flags: Vec<&str> = match mode {
                    AttachMode::DetachOthers => vec!["-d"],
                    AttachMode::ReadOnly => vec!["-r"],
                    AttachMode::Join => vec![],
                };
                if *create {
                    anyhow::ensure!(
                        target.name.is_some(),
                        "`attach -c` needs the workspace's name: HOST:NAME"
                    );
                    flags.push("-c");
                }
                return remote::attach_remote(&config.remote, &target, &flags);
            }
            if let Some(name) = name.as_deref() {
                tilework::upgrade::request::offer_on_attach(name);
            }
            let names = config.update_environment;
            let create = if *create {
                Some(new_workspace_args(config_path)?)
            } else {
                None
            };
            let attached = attach_process::attach(
                name.as_deref(),
                Joining::from_process(mode, &names),
                create,
            );
            remote::remote_attach::as_named(attached, named_as.as_deref())
        }
        SessionCommand::Kill { name } => attach_process::kill(name),
        SessionCommand::Action { list, name, args } => {
            script::action(session, *list, name.as_deref(), args)
        }
        SessionCommand::SendKeys {
            pane,
            literal,
            keys,
        } => script::send_keys(session, *pane, *literal, keys),
        SessionCommand::Run {
            split,
            float,
            tab,
            cwd,
            no_save,
            host,
            argv,
        } => {
            let remote_argv;
            let argv = match host {
                Some(host) => {
                    remote_argv = remote_pane_argv(config_path, host, cwd.as_deref(), argv)?;
                    &remote_argv
                }
                None => argv,
            };
            let cwd = if host.is_some() { None } else { cwd.as_deref() };
            let place = match (split, float, tab) {
                (_, true, _) => Place::Float,
                (_, _, true) => Place::Tab,
                (Some(SplitSide::Down), _, _) => Place::Down,
                _ => Place::Right,
            };
            script::run(session, place, cwd, argv, *no_save)
        }
        SessionCommand::Capture {
            pane,
            history,
            ansi,
            command,
            commands,
            json,
        } => match (command, commands) {
            (Some(index), _) => {
                session::script_commands::capture_command(session, *pane, *index, *ansi)
            }
            (None, true) => session::script_commands::list_commands(session, *pane, *json),
            (None, false) => script::capture(session, *pane, *history, *ansi),
        },
        SessionCommand::Wait {
            pane,
            output,
            prompt,
            exit,
            silence,
            notification,
            timeout,
        } => {
            use session::command_calls::{WaitCall, WaitFor};
            let millis = |secs: f64| (secs.max(0.0) * 1000.0) as u64;
            let until = match (output, prompt, exit, silence, notification) {
                (Some(regex), ..) => WaitFor::Output {
                    regex: regex.clone(),
                },
                (_, true, ..) => WaitFor::Prompt,
                (_, _, true, ..) => WaitFor::Exit,
                (_, _, _, Some(secs), _) => WaitFor::Silence { ms: millis(*secs) },
                _ => WaitFor::Notification,
            };
            let call = WaitCall {
                pane: *pane,
                until,
                timeout_ms: timeout.map(millis),
            };
            session::script_commands::wait(session, call)
        }
        SessionCommand::Subscribe {
            pane,
            events,
            escapes,
        } => session::script_commands::subscribe(
            session,
            session::command_calls::SubscribeCall {
                pane: *pane,
                events: events.clone(),
                escapes: *escapes,
            },
        ),
        SessionCommand::ShellIntegration { shell } => {
            print!("{}", tilework::shell_integration::snippet(*shell));
            Ok(0)
        }
        SessionCommand::ListPanes { json } => script::list_panes(session, *json),
        SessionCommand::Buffers { print } => script::buffers(session, *print),
        SessionCommand::Pipe { pane, command } => script::pipe(session, *pane, command),
        SessionCommand::Proxy {
            workspace,
            pane,
            from,
            close,
            cwd,
            cols,
            rows,
            client_version,
            argv,
        } => remote::proxy::proxy(&remote::proxy::ProxyRequest {
            workspace: workspace.clone(),
            pane: *pane,
            from: *from,
            close: *close,
            cwd: cwd.clone(),
            cols: *cols,
            rows: *rows,
            client_version: client_version.clone(),
            argv: argv.clone(),
        }),
        SessionCommand::RemotePane {
            host,
            ssh_command,
            remote_tilework,
            keepalive,
            cwd,
            argv,
        } => remote::relay::run(&tilework::config::remote_pane::RemotePane {
            host: host.clone(),
            settings: tilework::config::remote_settings::Remote {
                ssh_command: ssh_command.clone(),
                tilework: remote_tilework.clone(),
                keepalive_secs: *keepalive,
            },
            cwd: cwd.clone(),
            command: argv.clone(),
        }),
    }
}

/// `tilework run --host HOST`: the local pane runs this binary as the
/// remote pane's relay, with the `[remote]` settings of the config named
/// (or the default one).
fn remote_pane_argv(
    config_path: Option<&std::path::Path>,
    host: &str,
    cwd: Option<&std::path::Path>,
    argv: &[String],
) -> Result<Vec<String>> {
    let exe = std::env::current_exe().context("finding tilework's own binary")?;
    let pane = tilework::config::remote_pane::RemotePane {
        host: host.to_string(),
        settings: config_for_attach(config_path).remote,
        cwd: cwd.map(|d| d.to_string_lossy().into_owned()),
        command: argv.to_vec(),
    };
    Ok(pane.argv(&exe.to_string_lossy()))
}

/// What a workspace `attach -c` creates is started with besides its name:
/// the config named, checked first, so a bad one is refused before the
/// terminal is touched (as `tilework` itself refuses it).
fn new_workspace_args(config_path: Option<&std::path::Path>) -> Result<Vec<std::ffi::OsString>> {
    config::reload::ConfigSource::new(config_path.map(std::path::Path::to_path_buf), false)
        .load()?;
    Ok(config_path
        .map(|path| vec!["--config".into(), path.as_os_str().to_owned()])
        .unwrap_or_default())
}

/// `HOST:` of `tilework ls HOST:` (or an `ssh://` address).
fn remote_host(text: &str) -> Result<Target> {
    match Target::parse(text)? {
        Some(target) if target.name.is_none() => Ok(target),
        _ => anyhow::bail!(
            "`tilework ls` takes another machine as HOST: (with the colon) or \
             ssh://[user@]host[:port], not {text:?}"
        ),
    }
}

/// `tilework forget NAME`: deletes a saved workspace.
fn forget(name: &str) -> Result<i32> {
    if tilework::persist::dirs::forget(name)? {
        Ok(0)
    } else {
        anyhow::bail!("no workspace named {name} is saved (tilework ls lists them)")
    }
}

/// What the command line and the user's files say to run.
struct Setup {
    config: config::Config,
    /// Where `config` came from, read again by `source-config`.
    source: config::reload::ConfigSource,
    startup: Startup,
    exit_after: Option<Duration>,
}

impl Setup {
    fn from_cli(cli: &Cli) -> Result<Self> {
        let source = config::reload::ConfigSource::new(cli.config.clone(), cli.keep_exited);
        let config = source.load()?;
        let startup = if !cli.argv.is_empty() {
            Startup::Argv(cli.argv.clone())
        } else if cli.restore {
            let name = cli
                .session
                .as_deref()
                .context("--restore needs --session")?;
            Startup::Restore(Box::new(tilework::persist::load(name, &config)?))
        } else if !cli.commands.is_empty() {
            Startup::Commands(cli.commands.clone())
        } else {
            let name = cli.profile.as_deref().unwrap_or("default");
            Startup::Profile(profile::load(name)?)
        };
        let panes = match &startup {
            Startup::Argv(_) => 1,
            Startup::Commands(lines) => lines.len(),
            Startup::Profile(p) => p.tabs.iter().map(|t| t.layout.panes().len()).sum(),
            Startup::Restore(saved) => saved.histories.len(),
            Startup::TakeOver(taken) => taken.panes.len(),
        };
        if panes > config.max_panes {
            anyhow::bail!(
                "this would open {panes} panes; max_panes allows {}",
                config.max_panes
            );
        }
        let exit_after = match cli.exit_after {
            Some(secs) if secs.is_finite() && secs >= 0.0 => Some(Duration::from_secs_f64(secs)),
            Some(secs) => anyhow::bail!("--exit-after must be a number of seconds, got {secs}"),
            None => None,
        };
        Ok(Self {
            config,
            source,
            startup,
            exit_after,
        })
    }
}

/// The workspace process of a new session: started by the launcher with
/// the listening socket on stdin and the launcher's own connection on
/// stdout, it takes the launcher's terminal and runs the workspace until it
/// ends (however many detaches later).
fn serve(cli: &Cli) -> Result<i32> {
    // A session of its own: no controlling terminal, so a terminal's
    // hangup, ^C and job control never reach the workspace; it uses
    // terminals through their descriptors only.
    rustix::process::setsid().context("starting a session of its own")?;
    if cli.take_over {
        return take_over(cli);
    }
    let take = |fd: std::os::fd::BorrowedFd<'_>, what: &str| {
        fd.try_clone_to_owned()
            .with_context(|| format!("taking {what}"))
    };
    let listener = UnixListener::from(take(io::stdin().as_fd(), "the listening socket")?);
    let first = UnixStream::from(take(io::stdout().as_fd(), "the launcher's connection")?);
    tilework::terminal::stdio::park().context("parking stdio")?;
    let Started {
        name,
        path,
        setup,
        first,
    } = match start_serving(cli, first) {
        Ok(started) => started,
        Err(err) => {
            // Nobody sees this process's stderr: the log tells why (the
            // launcher says "its log may say why"). The socket is this
            // process's, and nobody else would remove it but `ls`.
            tracing::error!("the workspace did not start: {err:#}");
            if let Ok(addr) = listener.local_addr()
                && let Some(path) = addr.as_pathname()
            {
                let _ = std::fs::remove_file(path);
            }
            return Err(err);
        }
    };
    run_session(cli, setup, name, path, listener, first)
}

/// The workspace process of `tilework upgrade`: takes the running
/// workspace of its name over (see `tilework::upgrade`) and runs it. How it
/// went is written on stdout, which `tilework upgrade` reads.
fn take_over(cli: &Cli) -> Result<i32> {
    let report = io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .context("taking the report pipe")?;
    tilework::terminal::stdio::park().context("parking stdio")?;
    let taken = (|| {
        let name = cli.session.clone().context("--take-over needs --session")?;
        let path = session::dir::socket_path(&session::dir::runtime_dir()?, &name);
        init_log(cli)?;
        tracing::info!(version = %tilework::release::version(), session = %name, "taking over");
        let mut setup = Setup::from_cli(cli)?;
        let mut taken = tilework::upgrade::take::take(&path, report.try_clone()?)?;
        tilework::upgrade::request::test_stall();
        let first = match taken.terminals.is_empty() {
            true => tilework::upgrade::take::parked_terminal(taken.header.size)?,
            false => taken.terminals.remove(0),
        };
        let listener = taken.listener.try_clone().context("the listening socket")?;
        setup.startup = Startup::TakeOver(Box::new(taken));
        anyhow::Ok((name, path, setup, first, listener))
    })();
    let (name, path, setup, first, listener) = match taken {
        Ok(parts) => parts,
        Err(err) => {
            tracing::error!("the takeover failed: {err:#}");
            tilework::upgrade::take::report_failure(report, &err);
            return Err(err);
        }
    };
    drop(report);
    run_session(cli, setup, name, path, listener, first)
}

/// Runs the workspace process's loop on its socket, with `first` as its
/// first terminal (a fresh workspace's, or the one an upgrade took over),
/// its panes told `tmux` (see `tmux_compat::announce`) whether it started
/// here or took over from an upgrade: the panes opened after an upgrade
/// need `$TMUX` as much as those opened before it.
fn run_session(
    cli: &Cli,
    setup: Setup,
    name: String,
    path: std::path::PathBuf,
    listener: UnixListener,
    first: session::host::Arrival,
) -> Result<i32> {
    let on_hangup = setup.config.on_hangup;
    let tmux = match setup.config.tmux_compat {
        true => Some(tilework::tmux_compat::announce(
            &session::dir::runtime_dir()?,
            path.clone(),
        )),
        false => None,
    };
    app::run(RunOptions {
        tmux,
        config: setup.config,
        config_source: setup.source,
        startup: setup.startup,
        show_fps: cli.fps,
        writer: cli.writer,
        exit_after: setup.exit_after,
        stats: cli.stats.clone(),
        save_profile: cli.save_profile.clone(),
        session: SessionStart {
            name,
            path,
            listener,
            first,
            on_hangup,
        },
    })
    .context("running the workspace")
}

/// What [`serve`] needs before the workspace runs.
struct Started {
    name: String,
    path: std::path::PathBuf,
    /// The user's files, read again: they may have changed since the
    /// launcher read them.
    setup: Setup,
    /// The launcher, with its terminal.
    first: host::Arrival,
}

fn start_serving(cli: &Cli, first: UnixStream) -> Result<Started> {
    let name = cli
        .session
        .clone()
        .context("--serve-session needs --session")?;
    let path = session::dir::socket_path(&session::dir::runtime_dir()?, &name);
    init_log(cli)?;
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        session = %name,
        "tilework starting"
    );
    let setup = Setup::from_cli(cli)?;
    let first = host::take_first(first)?;
    Ok(Started {
        name,
        path,
        setup,
        first,
    })
}

fn is_remote_attach(command: &SessionCommand) -> bool {
    matches!(command, SessionCommand::RemotePane { .. })
        || matches!(command, SessionCommand::Attach { name: Some(name), .. }
        if Target::parse(name).ok().flatten().is_some())
}

fn init_log(cli: &Cli) -> Result<()> {
    match &cli.log {
        Some(path) => logging::init(path),
        None => logging::init_default(),
    }
}

/// The workspace is drawn on the stream frames go to. A pipe or a file there
/// would fail much later with a bare `os error 6` (or fill with escape
/// sequences): say what is wrong while nothing has been touched yet.
fn require_terminal(writer: WriterKind) -> Result<()> {
    let (name, is_terminal) = if writer.uses_stderr() {
        ("stderr", io::stderr().is_terminal())
    } else {
        ("stdout", io::stdout().is_terminal())
    };
    if is_terminal {
        return Ok(());
    }
    anyhow::bail!(
        "{name} is not a terminal: tilework draws its workspace there, so run it in a \
         terminal without redirecting {name}"
    )
}
