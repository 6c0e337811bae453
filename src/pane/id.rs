//! The name of a pane, stable for its whole life: layout trees, the loop
//! and every message between threads refer to panes by it.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaneId(pub u32);
