//! Drawing: reads state, never changes it. [`frame`] lays out one frame,
//! [`pane_view`] draws a pane's screen into the buffer (through [`cache`],
//! which converts only what changed; [`pane_colours`] in the colours the
//! pane's program set), [`dividers`] between panes in tmux's
//! look, [`status_bar`] and the fps overlay draw on top, the layers'
//! which-key popup and the popups over them (each draws itself:
//! `input::layers::draw`), and
//! [`painter`] sends the terminal only the rows that differ.

pub mod cache;
pub mod cell_extras;
pub mod cluster_cells;
pub mod dividers;
pub mod fit;
pub mod fps_overlay;
pub mod frame;
pub mod painter;
pub mod pane_colours;
pub mod pane_view;
pub mod pictures;
pub mod progress;
pub mod status_bar;
pub mod terminal_title;
