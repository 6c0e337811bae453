//! `attach NAME` found no workspace of that name, running or saved: an
//! error of its own type, so a remote attach (`attach HOST:NAME`, run over
//! ssh) can say it in the words the user typed (`remote::remote_attach`).

use std::fmt;

#[derive(Debug)]
pub struct MissingWorkspace {
    pub name: String,
}

impl fmt::Display for MissingWorkspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        write!(
            f,
            "no workspace named {name} is running (tilework ls lists them; \
             `tilework attach -c {name}` creates it)"
        )
    }
}

impl std::error::Error for MissingWorkspace {}
