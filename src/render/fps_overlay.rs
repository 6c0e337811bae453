//! The `--fps` overlay: in the top-right corner, over the panes and the
//! status bar, under the popups (help, which-key, search results).
//! It shows what the loop measured up to the previous frame; it never
//! causes frames of its own except one, a second after activity stops, so
//! it can read 0 fps.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Sparkline, Widget};

use crate::diag::metrics::{Metrics, PaneMetrics};

/// Pane lines shown before "+N more".
const MAX_PANE_LINES: usize = 8;
const WIDTH: u16 = 50;

/// A snapshot of the metrics, taken by the loop just before drawing.
#[derive(Debug, Clone, Default)]
pub struct OverlayData {
    pub fps: usize,
    pub frames: u64,
    pub frame_p50: Option<Duration>,
    pub frame_p99: Option<Duration>,
    /// Recent frame times in µs, oldest first.
    pub sparkline: Vec<u64>,
    pub bytes_per_frame: u64,
    pub writes_per_frame: u64,
    pub key_p50: Option<Duration>,
    pub key_p99: Option<Duration>,
    pub writer: &'static str,
    pub panes: Vec<PaneMetrics>,
}

impl OverlayData {
    /// Snapshots what the loop measured, with the per-pane numbers the
    /// caller sampled.
    pub fn from_metrics(m: &mut Metrics, now: Instant, panes: Vec<PaneMetrics>) -> Self {
        Self {
            fps: m.fps.fps(now),
            frames: m.frames,
            frame_p50: m.frame_times.percentile(50.0),
            frame_p99: m.frame_times.percentile(99.0),
            sparkline: m
                .frame_times
                .iter()
                .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
                .collect(),
            bytes_per_frame: m.last_frame_bytes,
            writes_per_frame: m.last_frame_writes,
            key_p50: m.key_latency.percentile(50.0),
            key_p99: m.key_latency.percentile(99.0),
            writer: m.writer_name,
            panes,
        }
    }
}

fn ms(d: Option<Duration>) -> String {
    d.map_or_else(
        || "-".into(),
        |d| format!("{:.2}", d.as_secs_f64() * 1000.0),
    )
}

fn human_bytes(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.1} MB", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1} KB", n / 1e3)
    } else {
        format!("{n:.0} B")
    }
}

pub struct FpsOverlay<'a> {
    pub data: &'a OverlayData,
}

impl FpsOverlay<'_> {
    fn lines(&self) -> Vec<Line<'static>> {
        let d = self.data;
        let key = Style::default().fg(Color::DarkGray);
        let val = Style::default()
            .fg(Color::White)
            .add_modifier(Modifier::BOLD);
        let mut lines = vec![
            Line::from(vec![
                Span::styled(format!("{:>4}", d.fps), val),
                Span::styled(" fps  frame p50 ", key),
                Span::styled(ms(d.frame_p50), val),
                Span::styled(" p99 ", key),
                Span::styled(ms(d.frame_p99), val),
                Span::styled(" ms", key),
            ]),
            Line::from(vec![
                Span::styled("out  ", key),
                Span::styled(human_bytes(d.bytes_per_frame as f64), val),
                Span::styled(" in ", key),
                Span::styled(d.writes_per_frame.to_string(), val),
                Span::styled(" write(2) last frame", key),
            ]),
            Line::from(vec![
                Span::styled("key→frame p50 ", key),
                Span::styled(ms(d.key_p50), val),
                Span::styled(" p99 ", key),
                Span::styled(ms(d.key_p99), val),
                Span::styled(" ms", key),
            ]),
            Line::from(vec![
                Span::styled("writer ", key),
                Span::styled(d.writer, val),
                Span::styled(format!("  frames {}", d.frames), key),
            ]),
        ];
        for (i, pane) in d.panes.iter().enumerate() {
            if i == MAX_PANE_LINES {
                lines.push(Line::styled(
                    format!("+{} more panes", d.panes.len() - i),
                    key,
                ));
                break;
            }
            let queue_style = if pane.blocked() {
                Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
            } else {
                val
            };
            let mut label: String = pane.label.chars().take(14).collect();
            if pane.label.chars().count() > 14 {
                label.push('…');
            }
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<15} "), key),
                Span::styled(format!("{:>9}/s", human_bytes(pane.bytes_per_sec)), val),
                Span::styled(" queue ", key),
                Span::styled(format!("{:>2}/{}", pane.queued, pane.capacity), queue_style),
                Span::styled(if pane.blocked() { " blocked" } else { "" }, queue_style),
            ]));
        }
        lines
    }
}

impl Widget for FpsOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines();
        let width = WIDTH.min(area.width);
        // Text, a sparkline row, and the border.
        let height = (u16::try_from(lines.len()).unwrap_or(u16::MAX) + 3).min(area.height);
        if width < 4 || height < 3 {
            return;
        }
        let rect = Rect {
            x: area.right() - width,
            y: area.y,
            width,
            height,
        };
        Clear.render(rect, buf);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(Style::default().fg(Color::Magenta))
            .title(" --fps ");
        let inner = block.inner(rect);
        block.render(rect, buf);
        let text_h = inner.height.saturating_sub(1);
        Paragraph::new(lines).render(
            Rect {
                height: text_h,
                ..inner
            },
            buf,
        );
        let spark_area = Rect {
            y: inner.y + text_h,
            height: inner.height - text_h,
            ..inner
        };
        let take = usize::from(spark_area.width);
        let start = self.data.sparkline.len().saturating_sub(take);
        Sparkline::default()
            .data(&self.data.sparkline[start..])
            .style(Style::default().fg(Color::Magenta))
            .render(spark_area, buf);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn render(data: &OverlayData, w: u16, h: u16) -> Buffer {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| f.render_widget(FpsOverlay { data }, f.area()))
            .unwrap();
        t.backend().buffer().clone()
    }

    fn text(buf: &Buffer) -> String {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn shows_every_number_in_the_top_right_corner() {
        let data = OverlayData {
            fps: 60,
            frames: 1234,
            frame_p50: Some(Duration::from_micros(420)),
            frame_p99: Some(Duration::from_micros(1100)),
            sparkline: vec![1, 2, 3],
            bytes_per_frame: 12_300,
            writes_per_frame: 1,
            key_p50: Some(Duration::from_micros(210)),
            key_p99: None,
            writer: "bufwriter-raw",
            panes: vec![PaneMetrics {
                label: "cat bigfile".into(),
                bytes_per_sec: 75_200_000.0,
                queued: 16,
                capacity: 16,
            }],
        };
        let buf = render(&data, 80, 20);
        let screen = text(&buf);
        for needle in [
            "--fps",
            "60 fps",
            "p50 0.42",
            "p99 1.10",
            "12.3 KB",
            "1 write(2)",
            "key→frame p50 0.21",
            "p99 -",
            "bufwriter-raw",
            "frames 1234",
            "cat bigfile",
            "75.2 MB/s",
            "16/16 blocked",
        ] {
            assert!(screen.contains(needle), "{needle:?} missing in\n{screen}");
        }
        // Anchored to the right edge, leaving the left of the screen alone.
        assert_eq!(buf[(79, 0)].symbol(), "╮");
        assert_eq!(buf[(0, 0)].symbol(), " ");
    }

    #[test]
    fn tiny_areas_do_not_panic() {
        let data = OverlayData::default();
        for (w, h) in [(1, 1), (3, 2), (10, 3), (50, 4)] {
            render(&data, w, h);
        }
    }
}
