//! What `tilework attach` was given when it names another machine:
//! `HOST:NAME` (HOST as ssh takes it, `~/.ssh/config` aliases included)
//! or `ssh://[user@]host[:port]/NAME`. A workspace name never holds `:`
//! (`session::dir::check_name`), so a name with one is a remote one.

use anyhow::{Result, bail};

/// A workspace on another machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// What ssh is given as the destination (`user@host` or an alias).
    pub destination: String,
    /// `-p PORT` from an `ssh://` address.
    pub port: Option<u16>,
    /// The workspace there; `None`: the only one it runs.
    pub name: Option<String>,
}

impl Target {
    /// `None` when `text` names a workspace on this machine.
    pub fn parse(text: &str) -> Result<Option<Self>> {
        let target = if let Some(rest) = text.strip_prefix("ssh://") {
            parse_url(rest)?
        } else if let Some((host, name)) = split_host(text) {
            Self {
                destination: host.to_string(),
                port: None,
                name: (!name.is_empty()).then(|| name.to_string()),
            }
        } else {
            return Ok(None);
        };
        target.check()?;
        Ok(Some(target))
    }

    /// The host as the user would say it (for messages).
    pub fn host(&self) -> &str {
        self.destination
            .rsplit_once('@')
            .map_or(self.destination.as_str(), |(_, host)| host)
    }

    fn check(&self) -> Result<()> {
        // ssh would take a leading `-` as an option.
        if self.destination.is_empty() || self.destination.starts_with('-') {
            bail!("{:?} is not a host to reach over ssh", self.destination);
        }
        if self
            .destination
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
        {
            bail!("{:?} is not a host to reach over ssh", self.destination);
        }
        if let Some(name) = &self.name {
            crate::session::dir::check_name(name)?;
        }
        Ok(())
    }
}

/// `HOST:NAME` split at its last `:` (`[::1]:NAME` for an IPv6 address);
/// `None` without a `:`.
fn split_host(text: &str) -> Option<(&str, &str)> {
    if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return Some((host, after.strip_prefix(':')?));
    }
    text.rsplit_once(':')
}

/// `[user@]host[:port]/NAME` (after `ssh://`).
fn parse_url(rest: &str) -> Result<Target> {
    let (authority, name) = rest.split_once('/').unwrap_or((rest, ""));
    let (user, host_port) = match authority.rsplit_once('@') {
        Some((user, hp)) => (Some(user), hp),
        None => (None, authority),
    };
    let (host, port) = if let Some(inner) = host_port.strip_prefix('[') {
        let Some((host, after)) = inner.split_once(']') else {
            bail!("ssh://{rest}: an IPv6 address ends with `]`");
        };
        (host, after.strip_prefix(':'))
    } else {
        match host_port.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    let port = match port {
        Some(port) => Some(
            port.parse::<u16>()
                .ok()
                .filter(|&p| p != 0)
                .ok_or_else(|| anyhow::anyhow!("ssh://{rest}: {port:?} is not a port"))?,
        ),
        None => None,
    };
    let destination = match user {
        Some("") => bail!("ssh://{rest}: the user before `@` is empty"),
        Some(user) => format!("{user}@{host}"),
        None => host.to_string(),
    };
    Ok(Target {
        destination,
        port,
        name: (!name.is_empty()).then(|| name.to_string()),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Target {
        Target::parse(text).unwrap().unwrap()
    }

    #[test]
    fn host_colon_name_and_ssh_addresses_name_remote_workspaces() {
        let t = parse("build1:dev");
        assert_eq!(
            (t.destination.as_str(), t.port, t.name.as_deref()),
            ("build1", None, Some("dev"))
        );
        let t = parse("me@build1:");
        assert_eq!(
            (t.destination.as_str(), t.name.clone()),
            ("me@build1", None)
        );
        assert_eq!(t.host(), "build1");
        let t = parse("[::1]:w");
        assert_eq!(
            (t.destination.as_str(), t.name.as_deref()),
            ("::1", Some("w"))
        );
        let t = parse("ssh://me@example.org:2222/work");
        assert_eq!(
            (t.destination.as_str(), t.port, t.name.as_deref()),
            ("me@example.org", Some(2222), Some("work"))
        );
        let t = parse("ssh://[::1]:22/w");
        assert_eq!((t.destination.as_str(), t.port), ("::1", Some(22)));
        let t = parse("ssh://host");
        assert_eq!(
            (t.destination.as_str(), t.port, t.name),
            ("host", None, None)
        );
    }

    #[test]
    fn local_names_stay_local_and_nonsense_is_refused() {
        assert_eq!(Target::parse("dev").unwrap(), None);
        for bad in [
            ":dev",
            "-oProxyCommand=x:dev",
            "host:../etc",
            "ho st:w",
            "ssh://h:0/w",
            "ssh://h:99999/w",
            "ssh://@h/w",
            "ssh://[::1/w",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
    }
}
