//! A profile's file as TOML sees it, both ways: [`profile::parse`] reads
//! these types (with their spans, to point at mistakes) and checks them;
//! saving a workspace fills them in and serde writes them
//! (`workspace::profile_save`). One shape for both, so what tilework writes
//! is what it reads, whatever a name holds: quotes, backslashes, `]`,
//! newlines.
//!
//! Written, spans are empty and ignored ([`Spanned`] writes its value).
//! Fields that are `None` are left out, so a saved profile holds only what
//! differs from the defaults, as a hand-written one does. The order of the
//! fields is the order of the keys in a saved file.
//!
//! [`profile::parse`]: crate::config::profile::parse

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::float_place::RawExtent;

/// A whole profile file.
#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, expecting = "a table with `[[tab]]` entries")]
pub struct RawProfile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default)]
    pub tab: Vec<Spanned<RawTab>>,
}

/// One `[[tab]]`.
#[derive(Deserialize, Serialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a tab table (`name`, `layout`, `floating`)"
)]
pub struct RawTab {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<Spanned<RawNode>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floating: Option<Vec<Spanned<RawNode>>>,
}

/// A pane and a split share one table shape in the file (`split` tells them
/// apart), so both sets of keys are accepted here and mixing is refused in
/// `profile::convert_node` with a message that says which kind the node is.
#[derive(Deserialize, Serialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a layout table: a pane (`command`, `cwd`, ...) or a split (`split`, `panes`)"
)]
pub struct RawNode {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<Spanned<String>>,
    #[serde(alias = "weights", skip_serializing_if = "Option::is_none")]
    pub ratios: Option<Spanned<Vec<Spanned<i64>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Spanned<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Spanned<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<Spanned<String>>,
    /// Another machine the pane runs on (issue 47 §2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<Spanned<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Spanned<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_open: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart: Option<Spanned<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focus: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub float: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<Spanned<RawExtent>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<Spanned<RawExtent>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<Spanned<RawExtent>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<Spanned<RawExtent>>,
    /// Last: a split's panes are tables of their own, after its keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panes: Option<Spanned<Vec<Spanned<RawNode>>>>,
}

/// A value to write: its span is for reading only.
pub fn written<T>(value: T) -> Spanned<T> {
    Spanned::new(0..0, value)
}
