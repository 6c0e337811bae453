//! tmux's marked pane: one pane of the workspace, marked with `C-b m`
//! (again: unmarked), cleared with `C-b M`, shown on its border, and the
//! pane tmux's `{marked}` target and `join-pane` without `-s` take (see
//! `pane_moves::marked`). Kept by script id, so a respawned pane stays
//! marked; a closed pane's id is never given again, so its mark is gone
//! with it.

/// Which pane is marked, if any, by script id.
#[derive(Debug, Default, Clone, Copy)]
pub struct PaneMark {
    script_id: Option<u32>,
}

impl PaneMark {
    /// The marked pane's script id (maybe of a pane closed since).
    pub fn script_id(&self) -> Option<u32> {
        self.script_id
    }

    /// Marks pane `script_id` (`None`: none). Returns whether it changed.
    pub fn set(&mut self, script_id: Option<u32>) -> bool {
        std::mem::replace(&mut self.script_id, script_id) != script_id
    }

    /// `C-b m` on pane `focused`: marks it, or unmarks it when marked.
    pub fn toggle(&mut self, focused: Option<u32>) -> bool {
        let Some(focused) = focused else {
            return false;
        };
        let on = self.script_id != Some(focused);
        self.set(on.then_some(focused))
    }

    /// `C-b M`: no pane is marked. False when none was.
    pub fn clear(&mut self) -> bool {
        self.set(None)
    }
}
