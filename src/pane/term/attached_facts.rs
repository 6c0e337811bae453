//! [`AttachedFacts`]: what a pane's program is told of the attached
//! terminals (their colours, theme, pictures and cell size), as one value. The loop works it out from the terminals'
//! facts and hands it to every pane when it changes (and the workspace's
//! spawner to every new pane), so a pane answers from its own copy and
//! nothing here is shared between threads.

/// What the attached terminals told, as a pane's program is told it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttachedFacts {
    /// The terminal's foreground, background and cursor colours, told to a
    /// program that asks (OSC 10/11/12 `?`; the attached terminal's, under
    /// the config's); `None`: no answer.
    pub colours: [Option<crate::config::colour::Rgb>; 3],
    /// The terminals' theme, dark (`Some(true)`) or light, as the last one
    /// to tell it (mode 2031) said; `None` until one did (then the
    /// background answered to OSC 11 judges, see `fidelity::theme::dark`).
    pub dark: Option<bool>,
    /// Whether pictures reach a user, and the cell's size in pixels: what
    /// DA1's `4`, XTSMGRAPHICS, kitty's `a=q`, `CSI 14/16 t` and the PTY's
    /// pixel size say, and the cells a picture covers.
    pub reach: crate::graphics::reach::Reach,
}
