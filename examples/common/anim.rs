//! The workload: a status line over a full-screen half-block gradient in
//! which every cell changes every frame, so ratatui's diff can skip nothing
//! and each frame is a worst case of escape sequences (the post's
//! `colors_rgb` animation, without the random numbers).

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::backend::CrosstermBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::Widget;
use ratatui::{Frame, Terminal, TerminalOptions, Viewport};
use tilework::terminal::output::WriteCounters;

use super::{FrameOut, table};

/// The terminal every experiment draws on.
pub type Term<W> = Terminal<CrosstermBackend<W>>;

/// A fixed viewport, as in the app: a fullscreen one would query the size
/// of the controlling terminal every frame, which in headless runs is not
/// the PTY we draw on (and may not exist at all in CI).
pub fn terminal<W: FrameOut>(out: W, cols: u16, rows: u16) -> io::Result<Term<W>> {
    Terminal::with_options(
        CrosstermBackend::new(out),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, cols, rows)),
        },
    )
}

/// Draws frame number `t` and pushes it out: begin, one `draw`, one
/// `end_frame`, exactly like the app's render loop.
pub fn draw_frame<W: FrameOut>(term: &mut Term<W>, t: u64, status: &str) -> io::Result<()> {
    term.backend_mut().writer_mut().begin_frame()?;
    term.draw(|frame| render(frame, t, status))?;
    term.backend_mut().writer_mut().end_frame()
}

fn render(frame: &mut Frame, t: u64, status: &str) {
    let area = frame.area();
    let status_area = Rect { height: 1, ..area };
    let gradient_area = Rect {
        y: area.y.saturating_add(1),
        height: area.height.saturating_sub(1),
        ..area
    };
    frame.render_widget(
        Line::from(status).style(Style::new().bold().black().on_white()),
        status_area,
    );
    frame.render_widget(Gradient { t }, gradient_area);
}

/// Two "pixels" per cell: the upper half is `▀` in the foreground colour,
/// the lower half is the background colour.
struct Gradient {
    t: u64,
}

impl Widget for Gradient {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for y in area.top()..area.bottom() {
            let py = u64::from(y - area.top()) * 2;
            for x in area.left()..area.right() {
                let px = u64::from(x - area.left());
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_char('▀')
                        .set_fg(pixel(px, py, self.t))
                        .set_bg(pixel(px, py + 1, self.t));
                }
            }
        }
    }
}

/// The colour of one half-cell pixel at frame `t`. Red moves by an odd step
/// per frame through a triangle wave, and a triangle wave returns to a value
/// only after an even distance, so red differs from the previous frame in
/// every pixel: no cell is ever left out of the diff.
fn pixel(px: u64, py: u64, t: u64) -> Color {
    Color::Rgb(
        triangle(px * 4 + py + t * 5),
        triangle(py * 5 + t * 2),
        triangle(px * 2 + py * 3 + t * 3 + 170),
    )
}

/// 0, 1, … 255, 254, … 1, 0, 1, …: a gradient without the jump from 255
/// back to 0.
fn triangle(v: u64) -> u8 {
    let v = v % 510;
    let folded = if v < 256 { v } else { 510 - v };
    // Always in 0..=255 by construction.
    u8::try_from(folded).unwrap_or(u8::MAX)
}

/// Rates over a span of frames, from the writer's own counters.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sample {
    pub fps: f64,
    pub writes_per_frame: f64,
    pub bytes_per_frame: f64,
}

/// Counts frames and reads the write counters at the start and end of a
/// span, so what was written before (alternate screen, earlier variants)
/// does not count.
pub struct Tally {
    counters: Arc<WriteCounters>,
    start: Instant,
    frames: u64,
    writes: u64,
    bytes: u64,
}

impl Tally {
    pub fn new(counters: Arc<WriteCounters>) -> Self {
        let (writes, bytes) = (counters.writes(), counters.bytes());
        Self {
            counters,
            start: Instant::now(),
            frames: 0,
            writes,
            bytes,
        }
    }

    pub fn frame_done(&mut self) {
        self.frames += 1;
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn sample(&self) -> Sample {
        let secs = self.elapsed().as_secs_f64();
        let frames = self.frames.max(1) as f64;
        Sample {
            fps: if secs > 0.0 {
                self.frames as f64 / secs
            } else {
                0.0
            },
            writes_per_frame: self.counters.writes().saturating_sub(self.writes) as f64 / frames,
            bytes_per_frame: self.counters.bytes().saturating_sub(self.bytes) as f64 / frames,
        }
    }

    fn restart(&mut self) {
        *self = Self::new(Arc::clone(&self.counters));
    }
}

/// The FPS line: rates over the last half second, so a switch of writer
/// shows its effect at once but the numbers stay readable.
pub struct Meter {
    label: String,
    hint: &'static str,
    window: Tally,
    shown: Option<Sample>,
}

impl Meter {
    const WINDOW: Duration = Duration::from_millis(500);

    pub fn new(label: String, hint: &'static str, counters: Arc<WriteCounters>) -> Self {
        Self {
            label,
            hint,
            window: Tally::new(counters),
            shown: None,
        }
    }

    pub fn frame_done(&mut self) {
        self.window.frame_done();
        if self.window.elapsed() >= Self::WINDOW {
            self.shown = Some(self.window.sample());
            self.window.restart();
        }
    }

    pub fn status(&self) -> String {
        let rates = match self.shown {
            Some(s) => format!(
                "{} fps | {} writes/frame | {} bytes/frame",
                table::fps(s.fps),
                table::per_frame(s.writes_per_frame),
                table::per_frame(s.bytes_per_frame)
            ),
            None => "measuring…".to_string(),
        };
        format!(" {} | {rates} | {}", self.label, self.hint)
    }
}
