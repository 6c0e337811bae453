//! The remote end of `tilework attach HOST:NAME`: the `tilework attach`
//! ssh runs on the host. It is told how the user named the workspace
//! (`--named-as HOST:NAME`), so what it says is in those words: no such
//! workspace offers `tilework attach -c HOST:NAME`, which the user can
//! type on their side, not `attach -c NAME`, which would look for it
//! there.

use anyhow::Result;

use crate::session::missing_workspace::MissingWorkspace;

/// The attach's outcome, its "no such workspace" said as `named_as`.
pub fn as_named(attached: Result<i32>, named_as: Option<&str>) -> Result<i32> {
    let (Err(err), Some(named_as)) = (&attached, named_as) else {
        return attached;
    };
    let Some(missing) = err.downcast_ref::<MissingWorkspace>() else {
        return attached;
    };
    anyhow::bail!(
        "no workspace named {} is running there (`tilework ls {}` lists them; \
         `tilework attach -c {named_as}` creates it)",
        missing.name,
        host_part(named_as),
    )
}

/// `HOST:NAME` → `HOST:`; `ssh://host:22/NAME` → `ssh://host:22/`.
fn host_part(named_as: &str) -> String {
    let cut = if named_as.starts_with("ssh://") {
        named_as.rfind('/')
    } else {
        named_as.rfind(':')
    };
    match cut {
        Some(at) => named_as[..=at].to_string(),
        None => named_as.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ls_hint_names_the_host_as_the_user_did() {
        assert_eq!(host_part("build1:dev"), "build1:");
        assert_eq!(host_part("[::1]:dev"), "[::1]:");
        assert_eq!(host_part("ssh://me@b:2222/dev"), "ssh://me@b:2222/");
    }
}
