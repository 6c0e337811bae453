//! Draws one frame of the workspace. Reads state only.

use ratatui::backend::Backend;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Widget};
use ratatui::{Frame, Terminal};

use crate::input::copy_mode::{self, CopyMode};
use crate::input::ui_state::{Mode, UiState, UiView};
use crate::pane::PaneId;
use crate::pane::history::History;
use crate::pane::{Pane, ScrollView};
use crate::render::cache::{BorderKey, RenderCache};
use crate::render::fps_overlay::{FpsOverlay, OverlayData};
use crate::render::help_overlay::HelpOverlay;
use crate::render::painter::{FrameShape, Painter};
use crate::render::popups::SearchAllOverlay;
use crate::render::status_bar::{ConfirmBar, StatusBar};
use crate::render::which_key::WhichKey;
use crate::workspace::{Workspace, content_rect};

/// Splits the terminal into the pane area and the status bar.
pub fn split_screen(size: Rect) -> (Rect, Rect) {
    let bar_h = u16::from(size.height > 1);
    let panes = Rect {
        height: size.height - bar_h,
        ..size
    };
    let bar = Rect {
        y: size.y + size.height - bar_h,
        height: bar_h,
        ..size
    };
    (panes, bar)
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
    let full = painter.begin(frame_shape(ws, ui.state, overlay.is_some()));
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
    let next = std::mem::take(terminal.current_buffer_mut());
    let flushed = painter.flush(&next, terminal.backend_mut());
    *terminal.current_buffer_mut() = next;
    flushed?;
    match cursor {
        None => terminal.hide_cursor()?,
        Some(at) => {
            terminal.show_cursor()?;
            terminal.set_cursor_position(at)?;
        }
    }
    Ok(left_stale)
}

/// What decides whether the next frame can reuse the last one.
pub fn frame_shape(ws: &Workspace, ui: &UiState, fps_overlay: bool) -> FrameShape {
    FrameShape {
        panes: ws.visible(),
        focused: ws.focused_id(),
        overlays: fps_overlay
            || ui.help_shown()
            || ui.which_key_shown()
            || ui.search_all().is_some()
            || ui.copy().is_active()
            || ui.mouse_selection().is_some(),
    }
}

pub fn draw(
    frame: &mut Frame<'_>,
    ws: &Workspace,
    ui: UiView<'_>,
    overlay: Option<&OverlayData>,
    cache: &mut FrameCache<'_>,
) {
    let UiView { state, keymap } = ui;
    let (_, bar) = split_screen(frame.area());
    let focused = ws.focused_id();
    let zoomed = ws.tab().is_some_and(|t| t.zoomed);
    for (id, rect) in ws.visible() {
        let Some(pane) = ws.pane(id) else {
            continue;
        };
        let is_focused = Some(id) == focused;
        let title = ws.pane_title(id);
        draw_pane(frame, pane, title, rect, is_focused, zoomed, state, cache);
    }
    if bar.height > 0 {
        let status = StatusBar {
            ws,
            keymap,
            mode: state.mode(),
            notice: state.notice(),
        };
        // The prompt and a question are drawn every frame; the bar only
        // when it changed (its signature also notes when the prompt or
        // question was shown instead).
        let replaced = state.prompt().is_some() || state.confirm().is_some();
        let key = if replaced {
            String::new()
        } else {
            status.signature()
        };
        let changed = cache.cache.bar_changed(key);
        if !cache.partial || replaced || changed {
            // The bar's widgets leave cells they do not write alone, and a
            // frame drawn in place still holds the last bar there.
            frame.render_widget(Clear, bar);
            cache.mark(bar.y..bar.bottom());
            match (state.confirm(), state.prompt()) {
                (Some(confirm), _) => frame.render_widget(ConfirmBar { confirm }, bar),
                (None, Some(prompt)) => frame.render_widget(prompt, bar),
                (None, None) => frame.render_widget(status, bar),
            }
        }
    }
    let (panes_area, _) = split_screen(frame.area());
    if state.which_key_shown() {
        frame.render_widget(WhichKey { keymap }, panes_area);
    }
    if let Some(results) = state.search_all() {
        frame.render_widget(SearchAllOverlay { results }, panes_area);
    }
    if let Some(view) = state.help() {
        frame.render_widget(HelpOverlay { keymap, view }, frame.area());
    }
    // Drawn last so it is on top; it only covers cells, never moves panes.
    if let Some(data) = overlay {
        frame.render_widget(FpsOverlay { data }, frame.area());
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_pane(
    frame: &mut Frame<'_>,
    pane: &Pane,
    title: &str,
    rect: Rect,
    focused: bool,
    zoomed: bool,
    ui: &UiState,
    cache: &mut FrameCache<'_>,
) {
    let (border_style, border_type) = if focused {
        (
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
            BorderType::Thick,
        )
    } else {
        (Style::default().fg(Color::DarkGray), BorderType::Plain)
    };
    let mut block = Block::bordered()
        .border_type(border_type)
        .border_style(border_style)
        .title(Line::from(Span::styled(format!(" {title} "), border_style)));
    let mut status = Vec::new();
    if zoomed {
        status.push("zoom".to_string());
    }
    match pane.view() {
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
    if let Some(exit) = pane.exit() {
        status.push(if exit.signal {
            format!("exited: signal {}", exit.code - 128)
        } else {
            format!("exited: {}", exit.code)
        });
    }
    if !status.is_empty() {
        let style = Style::default().fg(Color::Black).bg(Color::Yellow);
        block = block.title_top(
            Line::from(Span::styled(format!(" {} ", status.join(" · ")), style)).right_aligned(),
        );
    }
    let inner = content_rect(rect);
    let border_key = BorderKey {
        focused,
        zoomed,
        generation: pane.border_generation(),
    };
    // Noted in every frame, full ones included, so the next partial frame
    // compares with what is really on screen.
    let border_changed = cache.cache.border_changed(pane.id, border_key);
    if !cache.partial || border_changed {
        block.render(rect, frame.buffer_mut());
        cache.mark(rect.y..rect.bottom());
    }
    let screen = pane.screen();
    let may_be_stale = cache.echo_of.is_some_and(|echo| echo != pane.id);
    let in_place = cache.partial.then_some(&mut *cache.dirty);
    cache.left_stale |= cache
        .cache
        .draw(pane, inner, frame.buffer_mut(), may_be_stale, in_place);

    let copy = ui.copy().view().filter(|c| c.pane == pane.id);
    if let (Some(copy), Some(history)) = (copy, pane.history()) {
        if let Some(pos) = paint_copy_mode(frame, copy, history, inner)
            && !ui.popup_shown()
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
                    cell.set_style(selection_style());
                }
            }
        }
    }

    let live = !pane.is_scrolled();
    if focused
        && live
        && ui.mode() != Mode::Copy
        && ui.prompt().is_none()
        && ui.confirm().is_none()
        && !ui.popup_shown()
        && !screen.hide_cursor()
        && pane.exit().is_none()
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

fn selection_style() -> Style {
    Style::default().bg(Color::LightBlue).fg(Color::Black)
}

/// Search matches, the selection and the copy cursor over the history view.
/// Returns where the cursor goes.
fn paint_copy_mode(
    frame: &mut Frame<'_>,
    copy: &CopyMode,
    history: &History,
    inner: Rect,
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
                    Style::default().bg(Color::LightRed).fg(Color::Black)
                } else {
                    Style::default().bg(Color::Yellow).fg(Color::Black)
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
                    cell.set_style(selection_style());
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
    match ws.focused().map(|p| p.live_screen().cursor_style()) {
        Some(vt100::CursorStyle::BlinkBlock) => b"\x1b[1 q",
        Some(vt100::CursorStyle::SteadyBlock) => b"\x1b[2 q",
        Some(vt100::CursorStyle::BlinkUnderline) => b"\x1b[3 q",
        Some(vt100::CursorStyle::SteadyUnderline) => b"\x1b[4 q",
        Some(vt100::CursorStyle::BlinkVerticalBar) => b"\x1b[5 q",
        Some(vt100::CursorStyle::SteadyVerticalBar) => b"\x1b[6 q",
        _ => b"\x1b[0 q",
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::keymap::Keymap;
    use crate::mailbox::Mailbox;
    use crate::pane::Pane;
    use crate::pane::spawn::ChildEnv;
    use crate::workspace::WorkspaceSettings;
    use crate::workspace::layout::Layout;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// A workspace of detached panes (no programs) laid out side by side.
    fn workspace(area: Rect, feeds: &[&[u8]]) -> Workspace {
        let settings = WorkspaceSettings {
            env: ChildEnv::new(Some("/bin/sh"), "xterm-256color"),
            scrollback_bytes: 1 << 20,
            keep_exited_panes: false,
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
        draw_with(ws, &UiState::new(false), w, h)
    }

    fn draw_with(ws: &Workspace, ui: &UiState, w: u16, h: u16) -> Terminal<TestBackend> {
        let keymap = Keymap::default();
        let ui = UiView {
            state: ui,
            keymap: &keymap,
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
        t.draw(|f| draw(f, ws, ui, None, &mut fc)).unwrap();
        t
    }

    /// A terminal for frames: the bytes go into a vt100 parser, which keeps
    /// what a real terminal shows (e.g. a wide character overwritten by
    /// half is gone, which ratatui's `TestBackend` does not model).
    type ByteTerminal = Terminal<ratatui::backend::CrosstermBackend<Vec<u8>>>;

    fn byte_terminal(w: u16, h: u16) -> ByteTerminal {
        Terminal::with_options(
            ratatui::backend::CrosstermBackend::new(Vec::new()),
            ratatui::TerminalOptions {
                viewport: ratatui::Viewport::Fixed(Rect::new(0, 0, w, h)),
            },
        )
        .unwrap()
    }

    fn screen_parser(w: u16, h: u16) -> vt100::Parser {
        let nz = |n| std::num::NonZeroU16::new(n).unwrap();
        vt100::Parser::new(nz(h), nz(w), 0)
    }

    /// What the terminal shows: every cell with its attributes, and the
    /// cursor when it is shown.
    fn shown(parser: &vt100::Parser) -> (Vec<String>, Option<(u16, u16)>) {
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
                // (vt100's `rows_diff`, which the render cache uses, does
                // not report a change of it either).
                let text = match cell.contents() {
                    "" => " ",
                    text => text,
                };
                let fg = if text == " " && !cell.underline() && !cell.inverse() {
                    vt100::Color::Default
                } else {
                    cell.fgcolor()
                };
                cells.push(format!(
                    "{row},{col} {text:?} {fg:?} {:?} {}{}{}{}",
                    cell.bgcolor(),
                    u8::from(cell.bold()),
                    u8::from(cell.italic()),
                    u8::from(cell.underline()),
                    u8::from(cell.inverse())
                ));
            }
        }
        let cursor = (!screen.hide_cursor()).then(|| screen.cursor_position());
        (cells, cursor)
    }

    /// The render loop's frame state over a terminal read back by vt100.
    struct Frames {
        terminal: ByteTerminal,
        painter: Painter,
        cache: RenderCache,
        outer: vt100::Parser,
    }

    impl Frames {
        fn new(w: u16, h: u16) -> Self {
            Self {
                terminal: byte_terminal(w, h),
                painter: Painter::new(Rect::new(0, 0, w, h)),
                cache: RenderCache::default(),
                outer: screen_parser(w, h),
            }
        }

        /// Draws a frame and feeds its bytes to the outer terminal.
        fn draw(&mut self, ws: &Workspace, ui: &UiState) {
            let keymap = Keymap::default();
            render_frame(
                &mut self.terminal,
                &mut self.painter,
                &mut self.cache,
                ws,
                UiView {
                    state: ui,
                    keymap: &keymap,
                },
                None,
                None,
            )
            .unwrap();
            let bytes = std::mem::take(self.terminal.backend_mut().writer_mut());
            self.outer.process(&bytes);
        }
    }

    /// Frames drawn in place (only what changed) leave the terminal showing
    /// exactly what a frame drawn from scratch shows, cursor included,
    /// through output, title changes, focus changes and popups.
    #[test]
    fn frames_drawn_in_place_show_what_full_frames_show() {
        let (w, h) = (61, 15);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"", b"", b""]);
        let mut ui = UiState::new(false);
        let mut frames = Frames::new(w, h);
        let ids: Vec<PaneId> = ws.visible().into_iter().map(|(id, _)| id).collect();
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
            let id = ids[(seed % 3) as usize];
            let pane = ws.pane_mut(id).unwrap();
            pane.feed(outputs[((seed >> 8) % outputs.len() as u64) as usize].to_vec());
            pane.settle();
            if step % 17 == 0 {
                ws.focus_pane(ids[(step / 17) % ids.len()]);
            }
            // Now and then a popup: full frames, with titles changing under it.
            ui.set_help_shown(step % 23 < 4);
            // As the render loop does; every other step, so that changes
            // not noted (compared instead) are covered too.
            if step % 2 == 0 {
                frames.cache.note_changes(ws.panes_mut());
            }
            frames.draw(&ws, &ui);
            let mut fresh = Frames::new(w, h);
            fresh.draw(&ws, &ui);
            assert_eq!(shown(&frames.outer), shown(&fresh.outer), "step {step}");
        }
    }

    /// A border drawn in a full frame (under or after a popup) is what the
    /// next frame drawn in place compares with.
    #[test]
    fn a_title_changed_under_a_popup_and_back_is_redrawn() {
        let (w, h) = (40, 10);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"\x1b]0;zsh\x07"]);
        let mut ui = UiState::new(false);
        let mut frames = Frames::new(w, h);
        let id = ws.focused_id().unwrap();
        let steps: [(&[u8], bool); 5] = [
            (b"", false),
            (b"", false),
            (b"\x1b]0;make\x07", true),
            (b"", false),
            (b"\x1b]0;zsh\x07", false),
        ];
        for (output, help) in steps {
            let pane = ws.pane_mut(id).unwrap();
            pane.feed(output.to_vec());
            pane.settle();
            ui.set_help_shown(help);
            frames.cache.note_changes(ws.panes_mut());
            frames.draw(&ws, &ui);
        }
        let top = frames.outer.screen().contents_between(0, 0, 0, w);
        assert!(top.contains(" zsh "), "{top:?}");
    }

    /// The border's status (exit, history view) is redrawn in frames drawn
    /// in place, as the pane's damage says, with no output to go with it.
    #[test]
    fn a_border_status_change_alone_is_redrawn_in_place() {
        let (w, h) = (40, 10);
        let mut ws = workspace(Rect::new(0, 0, w, h - 1), &[b"hello"]);
        let ui = UiState::new(false);
        let mut frames = Frames::new(w, h);
        let id = ws.focused_id().unwrap();
        let top = |frames: &Frames| frames.outer.screen().contents_between(0, 0, 0, w);
        frames.cache.note_changes(ws.panes_mut());
        frames.draw(&ws, &ui);
        ws.pane_mut(id)
            .unwrap()
            .open_history(&Mailbox::discarding());
        frames.cache.note_changes(ws.panes_mut());
        frames.draw(&ws, &ui);
        assert!(
            top(&frames).contains("loading history"),
            "{:?}",
            top(&frames)
        );
        let pane = ws.pane_mut(id).unwrap();
        pane.scroll_to_bottom();
        pane.mark_exited(crate::pane::pty::ExitInfo {
            code: 3,
            signal: false,
        });
        frames.cache.note_changes(ws.panes_mut());
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
        let mut ui = UiState::new(false);
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
        let mut ui = UiState::new(false);
        ui.set_help_shown(true);
        ui.set_help_scroll(usize::MAX);
        let t = draw_with(&ws, &ui, w, h);
        let buf = t.backend().buffer();
        let rows: Vec<String> = (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        assert!(rows[21].contains("quit tilework"), "{rows:#?}");
        assert!(rows[23].starts_with('╰'), "{rows:#?}");
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
}
