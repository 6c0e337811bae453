//! Draws one frame of the workspace. Reads state only.

use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Widget};
use ratatui::{Frame, Terminal};

use crate::config::appearance::{BorderStyle, Theme};
use crate::input::copy_mode::{self, CopyMode};
use crate::input::popups::DrawCx;
use crate::input::ui_state::Mode;
use crate::input::ui_view::UiView;
use crate::pane::PaneId;
use crate::pane::history::window::Window;
use crate::pane::term::screen::CursorStyle;
use crate::pane::{Pane, ScrollView};
use crate::render::cache::{BorderKey, RenderCache};
use crate::render::dividers::draw_dividers;
use crate::render::fps_overlay::{FpsOverlay, OverlayData};
use crate::render::painter::{FrameShape, Painter};
// `split_screen` is the status bar's to know; the loop finds it here.
use crate::render::status_bar::StatusBar;
pub use crate::render::status_bar::split_screen;
use crate::workspace::Workspace;
use unicode_width::UnicodeWidthStr;

/// The largest terminal drawn on: 1024 columns, 512 rows (an 8K screen in
/// a 6x8-pixel font is ~1280x540). A terminal that says it is larger (a
/// broken one, or `stty rows 65535 cols 65535`) is drawn on at its top
/// left: each cell costs ~150 bytes across the frame buffers and the panes'
/// grids, and 65535x65535 asked for a 206 GB buffer and ended the
/// workspace with every program in it.
pub use crate::pane::history::size_log::{MAX_COLS, MAX_ROWS};

/// The area drawn on a terminal of `cols` x `rows`.
pub fn drawable_area(cols: u16, rows: u16) -> Rect {
    Rect::new(0, 0, cols.min(MAX_COLS), rows.min(MAX_ROWS))
}

/// How a frame may use the render cache.
pub struct FrameCache<'a> {
    pub cache: &'a mut RenderCache,
    /// In a frame drawn early for this pane's echo, other panes may show
    /// their previous image.
    pub echo_of: Option<PaneId>,
    /// Set when some pane was drawn from a stale image: the loop schedules a
    /// regular frame to refresh it.
    pub left_stale: bool,
    /// The buffer still holds the previous frame (see `painter`): draw only
    /// what changed and mark its rows in `dirty`.
    pub partial: bool,
    pub dirty: &'a mut [bool],
    /// Where the terminal's cursor goes, if shown.
    pub cursor: Option<Position>,
}

impl FrameCache<'_> {
    fn mark(&mut self, rows: std::ops::Range<u16>) {
        for y in rows {
            if let Some(d) = self.dirty.get_mut(usize::from(y)) {
                *d = true;
            }
        }
    }
}

/// Draws a frame and sends what changed to the terminal's backend (not
/// flushed: the caller ends the frame). Not `Terminal::draw`: the buffer
/// keeps the last frame, so a frame redraws and sends only what changed
/// (see `painter`). Returns whether some pane was drawn from a stale image.
pub fn render_frame<B: Backend>(
    terminal: &mut Terminal<B>,
    painter: &mut Painter,
    render_cache: &mut RenderCache,
    ws: &Workspace,
    ui: UiView<'_>,
    overlay: Option<&OverlayData>,
    echo_of: Option<PaneId>,
) -> Result<bool, B::Error> {
    let full = painter.begin(frame_shape(ws, ui, overlay.is_some()));
    let fit = painter.fit();
    let mut frame = terminal.get_frame();
    if full {
        frame.buffer_mut().reset();
    }
    let mut cache = FrameCache {
        cache: render_cache,
        echo_of,
        left_stale: false,
        partial: !full,
        dirty: painter.dirty_rows(),
        cursor: None,
    };
    draw(&mut frame, ws, ui, overlay, &mut cache);
    let (left_stale, cursor) = (cache.left_stale, cache.cursor);
    if let Some(y) = fit.mark_cut(frame.buffer_mut())
        && let Some(dirty) = painter.dirty_rows().get_mut(usize::from(y))
    {
        *dirty = true;
    }
    painter.set_markers(render_cache.markers_drawn());
    let next = std::mem::take(terminal.current_buffer_mut());
    let flushed = painter.flush(&next, terminal.backend_mut());
    *terminal.current_buffer_mut() = next;
    flushed?;
    match cursor.and_then(|at| fit.place(at.x, at.y)) {
        None => terminal.hide_cursor()?,
        Some((x, y)) => {
            let at = Position::new(x, y);
            terminal.show_cursor()?;
            terminal.set_cursor_position(at)?;
        }
    }
    Ok(left_stale)
}

/// Frees the second buffer ratatui's `Terminal` keeps for its own diff.
/// Frames here never go through `Terminal::draw` (the painter keeps what
/// the terminal shows), so that buffer is allocated, filled and never read
/// again: a whole screen of cells (~310 KB at 106x62, over 1 MB on a large
/// terminal) of resident memory for nothing. Call after creating the
/// terminal and after every `Terminal::resize`, which sizes both again.
pub fn release_back_buffer<B: Backend>(terminal: &mut Terminal<B>) {
    // `swap_buffers` clears the other buffer and makes it current: the
    // spare one becomes current for a moment, is replaced by an empty one,
    // and the real one (cleared, as after a resize) is current again.
    terminal.swap_buffers();
    *terminal.current_buffer_mut() = Buffer::default();
    terminal.swap_buffers();
}

/// What decides whether the next frame can reuse the last one.
pub fn frame_shape(ws: &Workspace, ui: UiView<'_>, fps_overlay: bool) -> FrameShape {
    FrameShape {
        panes: ws.tiling().visible(ws.tabs().shown()),
        focused: ws.tabs().focused_id(),
        // Every popup over the panes, from the one stack of them: `C-b =`'s
        // chooser was left out of a list once, and was not drawn by a
        // frame that reused the last, nor wiped when it closed.
        overlays: fps_overlay
            || ui.popups.over_panes()
            || ui.state.which_key_shown()
            || ui.state.copy().is_active()
            || ui.state.mouse_selection().is_some(),
    }
}

pub fn draw(
    frame: &mut Frame<'_>,
    ws: &Workspace,
    ui: UiView<'_>,
    overlay: Option<&OverlayData>,
    cache: &mut FrameCache<'_>,
) {
    let UiView {
        state,
        keymap,
        look,
        ..
    } = ui;
    let theme = &look.theme;
    let (panes_area, bar) = split_screen(frame.area());
    let focused = ws.tabs().focused_id();
    let zoomed = ws.tabs().shown().is_some_and(|t| t.zoomed);
    let visible = ws.tiling().visible(ws.tabs().shown());
    let marked = crate::workspace::pane_moves::marked(ws);
    // Dividers change only with the layout or the focus, and either makes
    // the frame a full one.
    let mut dividers_due = look.borders == BorderStyle::Dividers && !cache.partial;
    for &(id, rect) in &visible {
        let Some(pane) = ws.panes().get(id) else {
            continue;
        };
        let floating = ws.tabs().is_floating(id);
        if floating && dividers_due {
            // The tiled panes are all drawn: their dividers go under the
            // floating ones.
            draw_tiled_dividers(frame, ws, &visible, panes_area, theme);
            dividers_due = false;
        }
        let pane_look = PaneLook {
            title: ws.panes().title(id),
            rect,
            inner: ws.tiling().content(rect, ws.tabs().is_floating(id)),
            focused: Some(id) == focused,
            marked: Some(id) == marked,
            // Dividers leave a badge no border to sit on: it would hide the
            // end of the program's first row for as long as the zoom lasts.
            // The status bar's `Z` says it instead, as tmux's window flag
            // does; the history view's place is still drawn there, for as
            // long as you scroll, as tmux draws copy mode's `[n/N]`.
            zoomed: zoomed && !floating && look.borders != BorderStyle::Dividers,
            borders: if floating {
                BorderStyle::Rounded
            } else {
                look.borders
            },
            theme,
            floating,
        };
        if floating && cache.partial {
            // Over the tiled panes: a row of theirs drawn this frame under
            // it is drawn over again, the whole pane with its border.
            let covered = (rect.y..rect.bottom())
                .any(|y| cache.dirty.get(usize::from(y)).is_some_and(|d| *d));
            if covered {
                cache.cache.redraw_whole(id);
                cache.cache.forget_border(id);
            }
        }
        if floating && rect.x > 0 {
            // Half a wide character left of its edge would swallow the
            // border's cell: it becomes a blank, as at a pane's edge.
            let buf = frame.buffer_mut();
            for y in rect.y..rect.bottom() {
                if let Some(cell) = buf.cell_mut((rect.x - 1, y))
                    && cell.symbol().width() > 1
                {
                    cell.reset();
                    cache.mark(y..y + 1);
                }
            }
        }
        if floating && cache.cursor.is_some_and(|at| rect.contains(at)) {
            // The cursor of a pane below would blink over this one.
            cache.cursor = None;
        }
        draw_pane(frame, pane, &pane_look, ui, cache);
    }
    if dividers_due {
        draw_tiled_dividers(frame, ws, &visible, panes_area, theme);
    }
    let replaced = ui.popups.hold_bar();
    if bar.height > 0 && cache.partial && cache.echo_of.is_some() && !replaced {
        // A frame drawn early for an echo leaves the bar to the regular
        // frame that follows: working out whether the bar changed was ~7%
        // of the CPU a typed key costs (`perf`, 300 keys).
        cache.left_stale = true;
    } else if bar.height > 0 {
        let hints = cache.cache.status_hints(keymap, state.mode()).to_string();
        let status = StatusBar {
            ws,
            ui,
            hints: &hints,
        };
        // The prompt and a question are drawn every frame; the bar only
        // when it changed (its signature also notes when the prompt or
        // question was shown instead).
        let key = if replaced { 0 } else { status.signature(bar) };
        let changed = cache.cache.bar_changed(key);
        if !cache.partial || replaced || changed {
            // The bar's widgets leave cells they do not write alone, and a
            // frame drawn in place still holds the last bar there.
            frame.render_widget(Clear, bar);
            cache.mark(bar.y..bar.bottom());
            // The prompt or question in its place is drawn with the popups.
            if !replaced {
                frame.render_widget(status, bar);
            }
        }
    }
    // Over the panes, under the popups: a popup has the keyboard until it
    // closes, and the overlay (which only covers cells, never moves panes)
    // would hide the part of it in the top-right corner.
    if let Some(data) = overlay {
        frame.render_widget(FpsOverlay { data }, frame.area());
    }
    let at = DrawCx {
        ws,
        ui: state,
        keymap,
        theme,
        screen: frame.area(),
        panes: panes_area,
        bar,
    };
    crate::input::layers::draw(frame.buffer_mut(), &at, ui.popups);
}

/// The lines between the tiled panes (tmux's look).
fn draw_tiled_dividers(
    frame: &mut Frame<'_>,
    ws: &Workspace,
    visible: &[(PaneId, Rect)],
    area: Rect,
    theme: &Theme,
) {
    let tiled = visible.iter().filter(|(id, _)| !ws.tabs().is_floating(*id));
    let panes: Vec<Rect> = tiled
        .clone()
        .map(|&(id, r)| ws.tiling().content(r, ws.tabs().is_floating(id)))
        .collect();
    let focus = tiled
        .clone()
        .find(|(id, _)| Some(*id) == ws.tabs().focused_id())
        .map(|&(id, r)| ws.tiling().content(r, ws.tabs().is_floating(id)));
    draw_dividers(frame.buffer_mut(), area, &panes, focus, theme);
}

/// How one pane is framed this frame.
struct PaneLook<'a> {
    title: &'a str,
    /// Its rectangle in the layout, frame included.
    rect: Rect,
    /// Where its screen goes.
    inner: Rect,
    focused: bool,
    /// Its border says `zoom`.
    zoomed: bool,
    /// Its border says `marked` (tmux's marked pane).
    marked: bool,
    borders: BorderStyle,
    theme: &'a Theme,
    /// Over other panes: what its border does not cover must not show them.
    floating: bool,
}

/// What the pane's frame says besides its title: zoom, the history view,
/// how its program ended.
fn pane_badge(pane: &Pane, zoomed: bool, marked: bool) -> Option<String> {
    let mut status = Vec::new();
    if marked {
        status.push("marked".to_string());
    }
    if zoomed {
        status.push("zoom".to_string());
    }
    match pane.history().view() {
        ScrollView::Live => {}
        ScrollView::Loading { .. } => status.push("loading history…".into()),
        ScrollView::Viewing(h) => {
            // Offsets count from the live screen in the newest window; an
            // older window is too far back to count cheaply.
            let place = if h.is_tail {
                format!("{}/{} lines up", h.offset(), h.len())
            } else {
                "further back".to_string()
            };
            let begin = if !h.at_top {
                " · more above"
            } else if h.truncated {
                " (older output dropped)"
            } else {
                ""
            };
            status.push(format!("{place}{begin}"));
        }
    }
    status.extend(pane.history().command_marks().failure_badge());
    status.extend(pane.term().told().progress().label());
    if let Some(exit) = pane.program().exit() {
        status.push(if exit.signal {
            format!("exited: signal {}", exit.code - 128)
        } else {
            format!("exited: {}", exit.code)
        });
        status.extend(pane.program().exit_note().map(str::to_string));
    }
    (!status.is_empty()).then(|| format!(" {} ", status.join(" · ")))
}

fn draw_pane(
    frame: &mut Frame<'_>,
    pane: &Pane,
    look: &PaneLook<'_>,
    view: UiView<'_>,
    cache: &mut FrameCache<'_>,
) {
    let ui = view.state;
    let PaneLook {
        title,
        rect,
        inner,
        focused,
        zoomed,
        marked,
        borders,
        theme,
        floating,
    } = *look;
    let badge = pane_badge(pane, zoomed, marked);
    let border_key = BorderKey {
        focused,
        zoomed,
        marked,
        generation: pane.border_generation(),
    };
    // Noted in every frame, full ones included, so the next partial frame
    // compares with what is really on screen.
    let border_changed = cache.cache.border_changed(pane.id, border_key);
    if borders == BorderStyle::Dividers {
        // No box: a badge goes over the screen's top right corner, and
        // when it changes the rows under it come back from the screen.
        if border_changed {
            cache.cache.redraw_whole(pane.id);
        }
    } else if !cache.partial || border_changed {
        let style = if focused {
            theme.focus_border
        } else {
            theme.border
        };
        let border_type = match (borders, focused) {
            (BorderStyle::Rounded, _) => BorderType::Rounded,
            (BorderStyle::Double, _) => BorderType::Double,
            (_, true) => BorderType::Thick,
            (_, false) => BorderType::Plain,
        };
        let mut block = Block::bordered()
            .border_type(border_type)
            .border_style(style)
            .title(Line::from(Span::styled(format!(" {title} "), style)));
        if let Some(badge) = &badge {
            block = block
                .title_top(Line::from(Span::styled(badge.clone(), theme.badge)).right_aligned());
        }
        if cache.partial || floating {
            // The buffer holds last frame's border (or a pane below): a badge gone from it
            // would leave its colours behind under the new border.
            clear_edges(frame.buffer_mut(), rect);
        }
        block.render(rect, frame.buffer_mut());
        cache.mark(rect.y..rect.bottom());
    }
    let screen = pane.screen();
    let may_be_stale = cache.echo_of.is_some_and(|echo| echo != pane.id);
    let in_place = cache.partial.then_some(&mut *cache.dirty);
    cache.left_stale |= cache
        .cache
        .draw(pane, inner, frame.buffer_mut(), may_be_stale, in_place);
    if borders == BorderStyle::Dividers
        && let Some(badge) = &badge
    {
        // Over the screen's first row, drawn again every frame (the row
        // under it may have been copied from the pane's image).
        let w = u16::try_from(badge.width())
            .unwrap_or(u16::MAX)
            .min(inner.width);
        let x = inner.right().saturating_sub(w);
        let buf = frame.buffer_mut();
        // Half a wide character left of the badge would swallow its first
        // cell: it becomes a blank, as at a pane's edge.
        if x > inner.x
            && let Some(cell) = buf.cell_mut((x - 1, inner.y))
            && cell.symbol().width() > 1
        {
            cell.reset();
        }
        buf.set_stringn(x, inner.y, badge, usize::from(w), theme.badge);
        cache.mark(inner.y..inner.y.saturating_add(1).min(inner.bottom()));
    }

    let copy = ui.copy().view().filter(|c| c.pane == pane.id);
    if let (Some(copy), Some(history)) = (copy, pane.history().window()) {
        if let Some(pos) = paint_copy_mode(frame, copy, history, inner, theme)
            && !view.popup_shown()
        {
            frame.set_cursor_position(pos);
            cache.cursor = Some(pos);
        }
        return;
    }
    if let Some(sel) = ui
        .mouse_selection()
        .filter(|s| s.pane == pane.id && !s.pending)
    {
        let buf = frame.buffer_mut();
        for row in 0..inner.height {
            for col in 0..inner.width {
                if copy_mode::screen_selected(sel.start, sel.end, sel.kind, row, col)
                    && let Some(cell) = buf.cell_mut((inner.x + col, inner.y + row))
                {
                    cell.set_style(theme.selection);
                }
            }
        }
    }

    let live = !pane.history().is_scrolled();
    if focused
        && live
        && ui.mode() != Mode::Copy
        && !view.popups.hold_bar()
        && !view.popup_shown()
        && !screen.hide_cursor()
        && pane.program().exit().is_none()
    {
        let (row, col) = screen.cursor_position();
        let pos = Position {
            x: inner.x.saturating_add(col),
            y: inner.y.saturating_add(row),
        };
        if inner.contains(pos) {
            frame.set_cursor_position(pos);
            cache.cursor = Some(pos);
        }
    }
}

/// Resets the cells of `rect`'s outermost rows and columns.
fn clear_edges(buf: &mut ratatui::buffer::Buffer, rect: Rect) {
    let rect = rect.intersection(buf.area);
    if rect.is_empty() {
        return;
    }
    for x in rect.left()..rect.right() {
        for y in [rect.top(), rect.bottom() - 1] {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
            }
        }
    }
    for y in rect.top()..rect.bottom() {
        for x in [rect.left(), rect.right() - 1] {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
            }
        }
    }
}

/// Search matches, the selection and the copy cursor over the history view.
/// Returns where the cursor goes.
fn paint_copy_mode(
    frame: &mut Frame<'_>,
    copy: &CopyMode,
    history: &Window,
    inner: Rect,
    theme: &Theme,
) -> Option<Position> {
    let top = history.top_row();
    let buf = frame.buffer_mut();
    let matches = copy
        .search
        .as_ref()
        .map(|s| (s.matches.as_slice(), s.current_match()));
    for row in 0..inner.height {
        let abs = top + usize::from(row);
        if let Some((all, current)) = matches {
            // Matches are in order and do not overlap: those ending before
            // this row come first. A match may span wrapped rows.
            let first = all.partition_point(|m| m.end_row < abs);
            for m in all[first..].iter().take_while(|m| m.row <= abs) {
                let Some((from, to)) = m.cols_on(abs, inner.width) else {
                    continue;
                };
                let style = if Some(*m) == current {
                    theme.search_current
                } else {
                    theme.search_match
                };
                for col in from..to.min(inner.width) {
                    if let Some(cell) = buf.cell_mut((inner.x + col, inner.y + row)) {
                        cell.set_style(style);
                    }
                }
            }
        }
        if copy.selection.is_some() {
            for col in 0..inner.width {
                if copy.is_selected(abs, col)
                    && let Some(cell) = buf.cell_mut((inner.x + col, inner.y + row))
                {
                    cell.set_style(theme.selection);
                }
            }
        }
    }
    if copy.cursor.row >= top && copy.cursor.row < top + usize::from(inner.height) {
        let pos = Position {
            x: inner.x + copy.cursor.col.min(inner.width.saturating_sub(1)),
            y: inner.y + u16::try_from(copy.cursor.row - top).unwrap_or(0),
        };
        if let Some(cell) = frame.buffer_mut().cell_mut(pos) {
            cell.set_style(Style::default().add_modifier(Modifier::REVERSED));
        }
        return Some(pos);
    }
    None
}

/// The cursor shape the focused program asked for, as DECSCUSR.
pub fn cursor_style_sequence(ws: &Workspace) -> &'static [u8] {
    match ws.focused().map(|p| p.term().screen().cursor_style()) {
        Some(CursorStyle::BlinkBlock) => b"\x1b[1 q",
        Some(CursorStyle::SteadyBlock) => b"\x1b[2 q",
        Some(CursorStyle::BlinkUnderline) => b"\x1b[3 q",
        Some(CursorStyle::SteadyUnderline) => b"\x1b[4 q",
        Some(CursorStyle::BlinkVerticalBar) => b"\x1b[5 q",
        Some(CursorStyle::SteadyVerticalBar) => b"\x1b[6 q",
        _ => b"\x1b[0 q",
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::action::Action;
    use crate::config::appearance::{Appearance, Segment, StatusLayout};
    use crate::config::keymap::Keymap;
    use crate::input::popups::Popups;
    use crate::input::popups::help::HelpView;
    use crate::input::status_facts::StatusFacts;
    use crate::input::ui_state::UiState;
    use crate::mailbox::Mailbox;
    use crate::pane::Pane;
    use crate::pane::term::screen::{Attrs, Colour, PlainTerminal};
    use crate::workspace::layout::Layout;
    use crate::workspace::pane_frame::PaneFrame;
    use crate::workspace::{WorkspaceSettings, content_rect};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// The UI state and the popups, as a router holds them.
    #[derive(Default)]
    struct TestUi {
        state: UiState,
        popups: Popups,
    }

    impl TestUi {
        fn new(show_fps: bool) -> Self {
            Self {
                state: UiState::new(show_fps),
                popups: Popups::default(),
            }
        }

        /// Opens or closes help, as `C-b ?` does.
        fn set_help_shown(&mut self, shown: bool) {
            self.popups.close::<HelpView>();
            if shown {
                self.popups.open(HelpView::default());
            }
        }

        /// Scrolls help to line `scroll`.
        fn set_help_scroll(&mut self, scroll: usize) {
            if let Some(help) = self.popups.get_mut::<HelpView>() {
                help.scroll = scroll;
            }
        }
    }

    /// A workspace of detached panes (no programs) laid out side by side.
    fn workspace(area: Rect, feeds: &[&[u8]]) -> Workspace {
        let settings = WorkspaceSettings {
            scrollback_bytes: 1 << 20,
            ..crate::workspace::fake_workspace::settings()
        };
        let mut ws = Workspace::new(settings, area, Mailbox::discarding());
        let ids: Vec<PaneId> = (1..=feeds.len() as u32).map(PaneId).collect();
        let layout = Layout::even(crate::workspace::layout::Axis::Horizontal, &ids).unwrap();
        let mut panes = Vec::new();
        for ((id, rect), bytes) in layout.rects(area).into_iter().zip(feeds) {
            let inner = content_rect(rect);
            let mut pane = Pane::detached(id, inner.height, inner.width, 1 << 20);
            pane.feed(bytes.to_vec());
            pane.settle();
            panes.push(pane);
        }
        ws.open_tab_of("t", layout, panes);
        ws
    }

    fn draw_to(ws: &Workspace, w: u16, h: u16) -> Terminal<TestBackend> {
        draw_with(ws, &TestUi::new(false), w, h)
    }

    fn draw_with(ws: &Workspace, ui: &TestUi, w: u16, h: u16) -> Terminal<TestBackend> {
        let (look, facts) = (Appearance::default(), StatusFacts::default());
        draw_full(ws, ui, &look, &facts, None, w, h)
    }

    /// One full frame of `ws` with this UI state and look, and the `--fps`
    /// overlay if given its data.
    fn draw_full(
        ws: &Workspace,
        ui: &TestUi,
        look: &Appearance,
        facts: &StatusFacts,
        overlay: Option<&OverlayData>,
        w: u16,
        h: u16,
    ) -> Terminal<TestBackend> {
        let keymap = Keymap::default();
        let ui = UiView {
            state: &ui.state,
            popups: &ui.popups,
            keymap: &keymap,
            look,
            facts,
        };
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut cache = RenderCache::default();
        let mut dirty = vec![true; usize::from(h)];
        let mut fc = FrameCache {
            cache: &mut cache,
            echo_of: None,
            left_stale: false,
            partial: false,
            dirty: &mut dirty,
            cursor: None,
        };
        t.draw(|f| draw(f, ws, ui, overlay, &mut fc)).unwrap();
        t
    }

    /// A terminal for frames: the bytes go into a terminal parser, which keeps
    /// what a real terminal shows (e.g. a wide character overwritten by
    /// half is gone, which ratatui's `TestBackend` does not model).
    type ByteTerminal = Terminal<ratatui::backend::CrosstermBackend<Vec<u8>>>;

    fn byte_terminal(w: u16, h: u16) -> ByteTerminal {
        let mut t = Terminal::with_options(
            ratatui::backend::CrosstermBackend::new(Vec::new()),
            ratatui::TerminalOptions {
                viewport: ratatui::Viewport::Fixed(Rect::new(0, 0, w, h)),
            },
        )
        .unwrap();
        // As the loop does: every frame test runs without the spare buffer.
        release_back_buffer(&mut t);
        t
    }

    /// The spare buffer is empty after creation and after a resize; the
    /// one frames are drawn into keeps the terminal's size.
    #[test]
    fn the_back_buffer_holds_no_cells() {
        let mut t = byte_terminal(30, 10);
        assert_eq!(t.current_buffer_mut().area, Rect::new(0, 0, 30, 10));
        t.resize(Rect::new(0, 0, 50, 20)).unwrap();
        release_back_buffer(&mut t);
        assert_eq!(t.current_buffer_mut().area, Rect::new(0, 0, 50, 20));
        t.swap_buffers();
        assert!(t.current_buffer_mut().content.is_empty());
    }

    fn screen_parser(w: u16, h: u16) -> PlainTerminal {
        PlainTerminal::new(h, w)
    }

    /// What the terminal shows: every cell with its attributes, and the
    /// cursor when it is shown.
    fn shown(parser: &PlainTerminal) -> (Vec<String>, Option<(u16, u16)>) {
        let screen = parser.screen();
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let mut cells = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let Some(cell) = screen.cell(row, col) else {
                    continue;
                };
                // A cell never written and one written with a space look
                // the same, and a space's foreground colour does not show
                // (`rows_changed_since`, which the render cache uses, does
                // not report a change of it either).
                let contents = cell.contents();
                let text = match &*contents {
                    "" => " ",
                    text => text,
                };
                let style = cell.style();
                let fg = if text == " " && !style.is_underlined() && !style.has(Attrs::INVERSE) {
                    Colour::Default
                } else {
                    style.fg
                };
                cells.push(format!(
                    "{row},{col} {text:?} {fg:?} {:?} {}{}{}{}",
                    style.bg,
                    u8::from(style.has(Attrs::BOLD)),
                    u8::from(style.has(Attrs::ITALIC)),
                    u8::from(style.is_underlined()),
                    u8::from(style.has(Attrs::INVERSE))
                ));
            }
        }
        let cursor = (!screen.hide_cursor()).then(|| screen.cursor_position());
        (cells, cursor)
    }

    /// The render loop's frame state over a terminal read back by the parser.
    struct Frames {
        terminal: ByteTerminal,
        painter: Painter,
        cache: RenderCache,
        outer: PlainTerminal,
        look: Appearance,
    }

    impl Frames {
        fn new(w: u16, h: u16) -> Self {
            Self {
                terminal: byte_terminal(w, h),
                painter: Painter::new(Rect::new(0, 0, w, h)),
                cache: RenderCache::default(),
                outer: screen_parser(w, h),
                look: Appearance::default(),
            }
        }

        /// Draws a frame and feeds its bytes to the outer terminal.
        fn draw(&mut self, ws: &Workspace, ui: &TestUi) {
            self.draw_for(ws, ui, None);
        }

        /// Draws a frame (early for `echo_of`'s echo, if given); returns
        /// whether it left something stale.
        fn draw_for(&mut self, ws: &Workspace, ui: &TestUi, echo_of: Option<PaneId>) -> bool {
            let keymap = Keymap::default();
            let left_stale = render_frame(
                &mut self.terminal,
                &mut self.painter,
                &mut self.cache,
                ws,
                UiView {
                    state: &ui.state,
                    popups: &ui.popups,
                    keymap: &keymap,
                    look: &self.look,
                    facts: &StatusFacts::default(),
                },
                None,
                echo_of,
            )
            .unwrap();
            let bytes = std::mem::take(self.terminal.backend_mut().writer_mut());
            self.outer.process(&bytes);
            left_stale
        }
    }

    /// Frames drawn in place (only what changed) leave the terminal showing
    /// exactly what a frame drawn from scratch shows, cursor included,
    /// through output, title changes, focus changes and popups.
    #[test]
    fn frames_drawn_in_place_show_what_full_frames_show() {
        in_place_equals_full(Appearance::default(), true, false);
    }

    /// The same with a floating pane over the tiled ones, both printing,
    /// in boxes and with dividers.
    #[test]
    fn frames_drawn_in_place_show_what_full_frames_show_under_a_floating_pane() {
        in_place_equals_full(Appearance::default(), true, true);
        let look = Appearance {
            borders: BorderStyle::Dividers,
            ..Appearance::default()
        };
        in_place_equals_full(look, false, true);
    }

    /// The same with tmux-like dividers (badges drawn over the screens)
    /// and with every other theme and border style.
    #[test]
    fn frames_drawn_in_place_show_what_full_frames_show_in_every_look() {
        for (theme, borders) in [
            ("default", BorderStyle::Dividers),
            ("light", BorderStyle::Rounded),
            ("high-contrast", BorderStyle::Double),
            ("none", BorderStyle::Dividers),
        ] {
            let look = Appearance {
                theme: Theme::builtin(theme).unwrap(),
                borders,
                ..Appearance::default()
            };
            in_place_equals_full(look, false, false);
        }
    }

    fn in_place_equals_full(look: Appearance, popups: bool, float: bool) {
        let (w, h) = (61, 15);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"", b"", b""]);
        ws.set_pane_frame(PaneFrame::of(look.borders));
        if float {
            ws.open_floating_of(Pane::detached(PaneId(9), 5, 10, 1 << 20));
        }
        let mut ui = TestUi::new(false);
        let mut frames = Frames::new(w, h);
        frames.look = look.clone();
        let mut ids: Vec<PaneId> = ws
            .tiling()
            .visible(ws.tabs().shown())
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        // The floating pane prints as often as the three others together.
        if float {
            ids.extend([PaneId(9); 2]);
        }
        let outputs: [&[u8]; 12] = [
            b"ab",
            b"\r\nnext",
            b"\x08\x08z\t|",
            b"line of output\r\n",
            b"\x1b[31mred\x1b[m and more text that wraps around the pane\r\n",
            b"x",
            "漢字🙂 wide\r\n".as_bytes(),
            b"\x1b]0;a new title\x07",
            b"\x1b[2J\x1b[H",
            b"\x1b[3;5H\x1b[7mhere\x1b[m",
            b"\x1b[?25l",
            b"\x1b[?25h\x1b]0;t\x07",
        ];
        let mut seed = 0x2545_f491_u64;
        for step in 0..400 {
            // A small xorshift: which pane prints what.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let id = ids[(seed % ids.len() as u64) as usize];
            let pane = ws.panes_mut().get_mut(id).unwrap();
            pane.feed(outputs[((seed >> 8) % outputs.len() as u64) as usize].to_vec());
            pane.settle();
            if step % 17 == 0 {
                ws.focus_pane(ids[(step / 17) % ids.len()]);
            }
            // Now and then a badge on a border (or over a screen).
            match step % 29 {
                5 => ws
                    .panes_mut()
                    .get_mut(id)
                    .unwrap()
                    .history_mut()
                    .open_history(&Mailbox::discarding()),
                11 => ws
                    .panes_mut()
                    .get_mut(id)
                    .unwrap()
                    .history_mut()
                    .scroll_to_bottom(),
                _ => {}
            }
            // Now and then a popup: full frames, with titles changing under
            // it. Only in the default look: where help's underlined text
            // lands on half of a wide character, ratatui leaves the other
            // half to the terminal, and the parser (our terminal here) blanks it
            // underlined where a real terminal blanks it plain; the looks'
            // geometries put such a character there.
            ui.set_help_shown(popups && step % 23 < 4);
            // As the render loop does; every other step, so that changes
            // not noted (compared instead) are covered too.
            if step % 2 == 0 {
                frames.cache.note_changes(ws.panes_mut().iter_mut());
            }
            frames.draw(&ws, &ui);
            let mut fresh = Frames::new(w, h);
            fresh.look = look.clone();
            fresh.draw(&ws, &ui);
            let (a, b) = (shown(&frames.outer), shown(&fresh.outer));
            let differ: Vec<_> = a.0.iter().zip(&b.0).filter(|(x, y)| x != y).collect();
            assert!(
                differ.is_empty() && a.1 == b.1,
                "step {step} {} {:?}: {differ:?} cursor {:?} {:?}",
                look.theme.name,
                look.borders,
                a.1,
                b.1
            );
        }
    }

    /// A border drawn in a full frame (under or after a popup) is what the
    /// next frame drawn in place compares with.
    #[test]
    fn a_title_changed_under_a_popup_and_back_is_redrawn() {
        let (w, h) = (40, 10);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"\x1b]0;zsh\x07"]);
        let mut ui = TestUi::new(false);
        let mut frames = Frames::new(w, h);
        let id = ws.tabs().focused_id().unwrap();
        let steps: [(&[u8], bool); 5] = [
            (b"", false),
            (b"", false),
            (b"\x1b]0;make\x07", true),
            (b"", false),
            (b"\x1b]0;zsh\x07", false),
        ];
        for (output, help) in steps {
            let pane = ws.panes_mut().get_mut(id).unwrap();
            pane.feed(output.to_vec());
            pane.settle();
            ui.set_help_shown(help);
            frames.cache.note_changes(ws.panes_mut().iter_mut());
            frames.draw(&ws, &ui);
        }
        let top = frames.outer.screen().contents_between(0, 0, 0, w);
        assert!(top.contains(" zsh "), "{top:?}");
    }

    /// A frame drawn early for an echo leaves the status bar to the regular
    /// frame it asks for, which shows what changed (here the title the
    /// program set with its output).
    #[test]
    fn an_echo_frame_leaves_the_status_bar_to_the_next_frame() {
        let (w, h) = (40, 10);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"\x1b]0;zsh\x07"]);
        let ui = TestUi::new(false);
        let mut frames = Frames::new(w, h);
        let id = ws.tabs().focused_id().unwrap();
        let bar = |frames: &Frames| frames.outer.screen().contents_between(h - 1, 0, h - 1, w);
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        assert!(!frames.draw_for(&ws, &ui, None));
        assert!(bar(&frames).contains("zsh"), "{:?}", bar(&frames));
        let pane = ws.panes_mut().get_mut(id).unwrap();
        pane.feed(b"\x1b]0;make\x07x".to_vec());
        pane.settle();
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        assert!(
            frames.draw_for(&ws, &ui, Some(id)),
            "a regular frame is asked for"
        );
        assert!(
            frames.outer.screen().contents().contains('x'),
            "the echo is drawn"
        );
        assert!(bar(&frames).contains("zsh"), "{:?}", bar(&frames));
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        assert!(!frames.draw_for(&ws, &ui, None));
        assert!(bar(&frames).contains("make"), "{:?}", bar(&frames));
    }

    /// The border's status (exit, history view) is redrawn in frames drawn
    /// in place, as the pane's damage says, with no output to go with it.
    #[test]
    fn a_border_status_change_alone_is_redrawn_in_place() {
        let (w, h) = (40, 10);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"hello"]);
        let ui = TestUi::new(false);
        let mut frames = Frames::new(w, h);
        let id = ws.tabs().focused_id().unwrap();
        let top = |frames: &Frames| frames.outer.screen().contents_between(0, 0, 0, w);
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        frames.draw(&ws, &ui);
        ws.panes_mut()
            .get_mut(id)
            .unwrap()
            .history_mut()
            .open_history(&Mailbox::discarding());
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        frames.draw(&ws, &ui);
        assert!(
            top(&frames).contains("loading history"),
            "{:?}",
            top(&frames)
        );
        let pane = ws.panes_mut().get_mut(id).unwrap();
        pane.history_mut().scroll_to_bottom();
        pane.mark_exited(crate::pane::program::pty::ExitInfo {
            code: 3,
            signal: false,
        });
        frames.cache.note_changes(ws.panes_mut().iter_mut());
        frames.draw(&ws, &ui);
        let shown = top(&frames);
        assert!(
            shown.contains("exited: 3") && !shown.contains("loading"),
            "{shown:?}"
        );
    }

    #[test]
    fn the_focused_panes_cursor_is_the_real_cursor() {
        let (w, h) = (40, 10);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc\r\nde", b"xyz"]);
        let mut t = draw_to(&ws, w, h);
        // Pane 1's content starts at (1, 1); its cursor is after "de".
        assert_eq!(t.get_cursor_position().unwrap(), Position { x: 3, y: 2 });
        t.backend_mut()
            .assert_cursor_position(Position { x: 3, y: 2 });
    }

    /// The cursor would blink on top of help, which-key or the search
    /// results: while one is open the terminal's cursor is hidden, and it
    /// comes back when it closes.
    #[test]
    fn the_cursor_is_hidden_while_a_popup_is_open() {
        let (w, h) = (80, 24);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc"]);
        let mut ui = TestUi::new(false);
        let mut frames = Frames::new(w, h);
        frames.draw(&ws, &ui);
        assert!(shown(&frames.outer).1.is_some(), "shown without a popup");
        ui.set_help_shown(true);
        frames.draw(&ws, &ui);
        assert_eq!(shown(&frames.outer).1, None, "hidden under help");
        assert!(!draw_with(&ws, &ui, w, h).backend().cursor_visible());
        ui.set_help_shown(false);
        frames.draw(&ws, &ui);
        assert!(shown(&frames.outer).1.is_some(), "back when it closes");
    }

    /// Help over a whole 80x24 terminal, scrolled to the end: its last
    /// line is on screen, above the popup's own bottom lines.
    #[test]
    fn help_at_80x24_scrolled_down_shows_its_last_line() {
        let (w, h) = (80, 24);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc"]);
        let mut ui = TestUi::new(false);
        ui.set_help_shown(true);
        ui.set_help_scroll(usize::MAX);
        let t = draw_with(&ws, &ui, w, h);
        let buf = t.backend().buffer();
        let rows: Vec<String> = (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        assert!(rows[21].contains("rename the workspace"), "{rows:#?}");
        assert!(rows[23].starts_with('╰'), "{rows:#?}");
    }

    /// Help has the keyboard: opened with the `--fps` overlay on, it is
    /// drawn whole over the overlay, its top-right corner included; closed,
    /// the overlay is there again.
    #[test]
    fn help_is_drawn_over_the_fps_overlay() {
        let (w, h) = (80, 20);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc"]);
        let (look, facts) = (Appearance::default(), StatusFacts::default());
        let data = OverlayData::default();
        let rows = |ui: &TestUi| -> Vec<String> {
            let t = draw_full(&ws, ui, &look, &facts, Some(&data), w, h);
            let buf = t.backend().buffer();
            (0..h)
                .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
                .collect()
        };
        let mut ui = TestUi::new(true);
        let plain = rows(&ui);
        assert!(plain[0].contains("╭ --fps "), "{plain:#?}");

        ui.set_help_shown(true);
        let help = rows(&ui);
        assert!(help.iter().all(|r| !r.contains("--fps")), "{help:#?}");
        assert!(help[0].starts_with("╭ tilework keys"), "{help:#?}");
        assert!(help[0].ends_with('╮'), "{help:#?}");
        assert!(help[1].ends_with('│'), "{help:#?}");

        ui.set_help_shown(false);
        assert_eq!(rows(&ui), plain);
    }

    /// Every kind of popup is drawn by the frame while it is open, and
    /// makes the frame a whole one (`C-b =`'s chooser was once left out of
    /// the frame's list of popups); closed, the frame is as before.
    #[test]
    fn every_popup_open_is_drawn_and_closed_leaves_no_trace() {
        use crate::input::popups::buffer_chooser::BufferChooser;
        use crate::input::popups::confirm::Confirm;
        use crate::input::popups::pane_numbers::PaneNumbers;
        use crate::input::popups::prompt::{Prompt, PromptKind};
        use crate::input::popups::search_all::SearchAllResults;
        use crate::input::popups::workspace_chooser::WorkspaceChooser;

        let (w, h) = (60, 16);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc"]);
        let keymap = Keymap::default();
        let (look, facts) = (Appearance::default(), StatusFacts::default());
        let view = |ui: &TestUi| -> String {
            let t = draw_full(&ws, ui, &look, &facts, None, w, h);
            let buf = t.backend().buffer();
            (0..h)
                .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
                .collect()
        };
        let over_panes = |ui: &TestUi| {
            let ui = UiView {
                state: &ui.state,
                popups: &ui.popups,
                keymap: &keymap,
                look: &look,
                facts: &facts,
            };
            frame_shape(&ws, ui, false).overlays
        };
        let mut ui = TestUi::new(false);
        ui.state.copied_for_test("a copy");
        let plain = view(&ui);
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        /// Opens a popup; what it shows; whether it covers the panes.
        type Case = (fn(&mut Popups), &'static str, bool);
        let open: Vec<Case> = vec![
            (|p| p.open(BufferChooser { at: 0 }), "paste buffers", true),
            (|p| p.open(WorkspaceChooser::waiting()), "workspaces", true),
            (
                |p| {
                    p.open(SearchAllResults {
                        pattern: "abc".into(),
                        ..SearchAllResults::default()
                    });
                },
                "search /abc/",
                true,
            ),
            (|p| p.open(HelpView::default()), "tilework keys", true),
            (
                |p| p.open(Prompt::new(PromptKind::SelectTab, "2")),
                "go to tab",
                false,
            ),
            (
                |p| {
                    p.open(Confirm {
                        action: crate::config::action::Action::Quit,
                        question: "quit tilework? it stops vim".into(),
                    });
                },
                "it stops vim",
                false,
            ),
        ];
        for (open, shows, covers) in open {
            open(&mut ui.popups);
            let shown = view(&ui);
            assert!(shown.contains(shows), "{shows}: {shown}");
            assert_eq!(over_panes(&ui), covers, "{shows}");
            ui.popups = Popups::default();
            assert_eq!(view(&ui), plain, "{shows} left a trace");
        }
        ui.popups.open(PaneNumbers { until });
        assert!(view(&ui).contains("│ 1 │"), "{}", view(&ui));
        assert!(over_panes(&ui));
    }

    #[test]
    fn a_hidden_cursor_stays_hidden() {
        let (w, h) = (40, 10);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"abc\x1b[?25l"]);
        let t = draw_to(&ws, w, h);
        assert!(!t.backend().cursor_visible());
    }

    #[test]
    fn borders_carry_titles_and_mark_the_focused_pane() {
        let (w, h) = (40, 10);
        let ws = workspace(
            Rect::new(0, 0, w, h - 1),
            &[b"\x1b]2;left\x07", b"\x1b]2;right\x07"],
        );
        let t = draw_to(&ws, w, h);
        let buf = t.backend().buffer();
        let top: String = (0..w).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert!(top.starts_with("┏ left ━"), "{top}");
        assert!(top.contains("┌ right ─"), "{top}");
        let status: String = (0..w)
            .map(|x| buf[(x, h - 1)].symbol().to_string())
            .collect();
        assert!(
            status.contains("pane 1/2") && status.contains("left"),
            "{status}"
        );
    }

    fn draw_look(
        ws: &Workspace,
        look: &Appearance,
        facts: &StatusFacts,
        w: u16,
        h: u16,
    ) -> Vec<String> {
        let t = draw_full(ws, &TestUi::new(false), look, facts, None, w, h);
        let buf = t.backend().buffer();
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    /// With dividers, two panes side by side share one line and have no
    /// box: their screens start at the top left corner and at the column
    /// after the line, and their programs get the room.
    #[test]
    fn dividers_draw_one_line_between_panes_and_no_box() {
        let (w, h) = (21, 6);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"left", b"right"]);
        let boxed: Vec<(u16, u16)> = ws.panes().iter().map(|p| p.term().size()).collect();
        ws.set_pane_frame(PaneFrame::Dividers);
        let sizes: Vec<(u16, u16)> = ws.panes().iter().map(|p| p.term().size()).collect();
        assert_eq!(boxed, vec![(3, 9), (3, 8)]);
        assert_eq!(sizes, vec![(5, 10), (5, 10)], "two more rows and columns");
        let look = Appearance {
            borders: BorderStyle::Dividers,
            ..Appearance::default()
        };
        let rows = draw_look(&ws, &look, &StatusFacts::default(), w, h);
        assert_eq!(rows[0], "left      │right     ", "{rows:#?}");
        assert_eq!(rows[4], "          │          ", "{rows:#?}");
        assert!(rows.iter().all(|r| !r.contains('┌') && !r.contains('┏')));
    }

    /// Zoomed with dividers, the program's first row is on screen to its
    /// last column, as long as the zoom lasts: the zoom shows as the tab's
    /// `Z` in the status bar, not as a badge over the row. With boxes the
    /// border still says `zoom`, over no content.
    #[test]
    fn a_zoomed_pane_with_dividers_keeps_its_first_row() {
        let (w, h) = (30, 6);
        let first = "first row to the very last col";
        assert_eq!(first.len(), usize::from(w));
        for borders in [BorderStyle::Dividers, BorderStyle::Box] {
            let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"", b""]);
            ws.set_pane_frame(PaneFrame::of(borders));
            assert!(ws.apply(Action::ToggleZoom), "zoomed");
            let pane = ws
                .tabs()
                .focused_id()
                .and_then(|id| ws.panes_mut().get_mut(id))
                .unwrap();
            pane.feed(format!("{first}\r\nsecond").into_bytes());
            pane.settle();
            let look = Appearance {
                borders,
                ..Appearance::default()
            };
            let rows = draw_look(&ws, &look, &StatusFacts::default(), w, h);
            assert!(rows[usize::from(h - 1)].contains(" 1:t Z "), "{rows:#?}");
            if borders == BorderStyle::Dividers {
                assert_eq!(rows[0], first, "{rows:#?}");
                assert_eq!(rows[1].trim_end(), "second", "{rows:#?}");
            } else {
                assert!(rows[0].contains(" zoom "), "{rows:#?}");
                assert!(rows[1].contains(&first[..w as usize - 2]), "{rows:#?}");
            }
        }
    }

    /// Segments from the config, left and right, with the clock's text and
    /// text of the user's own; a theme's colours on the bar.
    #[test]
    fn status_segments_follow_the_config() {
        let (w, h) = (60, 6);
        let ws = workspace(Rect::new(0, 0, w, h - 1), &[b"\x1b]2;vim\x07"]);
        let look = Appearance {
            theme: Theme::builtin("light").unwrap(),
            status: StatusLayout {
                left: vec![Segment::Text("hello".into()), Segment::Title],
                right: vec![Segment::Pane, Segment::Clock],
                clock: "%H:%M".into(),
                ..StatusLayout::default()
            },
            ..Appearance::default()
        };
        let facts = StatusFacts::fixed("12:34", "");
        let rows = draw_look(&ws, &look, &facts, w, h);
        let bar = &rows[usize::from(h - 1)];
        assert!(bar.starts_with("hello  vim "), "{bar:?}");
        assert!(bar.ends_with("pane 1/1  12:34 "), "{bar:?}");
        assert!(!bar.contains(" 1:"), "no tabs segment: {bar:?}");
    }
}
