//! What the loop measures of its frames: the metrics the fps overlay
//! shows, the `--stats` file, and the overlay's last frame after activity
//! stops.

use std::time::{Duration, Instant};

use crate::diag::metrics::{Metrics, PaneMetrics};
use crate::diag::stats::StatsFile;
use crate::pane::PaneId;
use crate::pane::program::pty::OUTPUT_CHANNEL_CAPACITY;
use crate::render::fps_overlay::OverlayData;
use crate::workspace::Workspace;

/// One frame as drawn, for [`FrameStats::frame_done`].
pub(super) struct Drawn {
    /// When drawing began and ended.
    pub(super) started: Instant,
    pub(super) done: Instant,
    pub(super) bytes: u64,
    pub(super) writes: u64,
    /// With the overlay shown: whether it counted frames.
    pub(super) overlay_active: Option<bool>,
}

pub(super) struct FrameStats {
    pub(super) metrics: Metrics,
    /// One JSON line per frame (`--stats`).
    pub(super) stats: Option<StatsFile>,
    /// With the overlay on, one frame a second after the last one so the
    /// overlay can show that activity stopped (then nothing more).
    pub(super) overlay_refresh_at: Option<Instant>,
    /// When the loop started (the `--stats` lines' times count from it).
    started: Instant,
}

impl FrameStats {
    /// `writer_name`: which writer the frames go through, for the overlay.
    pub(super) fn new(writer_name: &'static str) -> Self {
        Self {
            metrics: Metrics::new(writer_name),
            stats: None,
            overlay_refresh_at: None,
            started: Instant::now(),
        }
    }

    /// Whether the overlay's last frame is due by `now` (then it is no
    /// longer).
    pub(super) fn overlay_refresh_due(&mut self, now: Instant) -> bool {
        let due = self.overlay_refresh_at.is_some_and(|t| now >= t);
        if due {
            self.overlay_refresh_at = None;
        }
        due
    }

    /// A frame was drawn: counted, and written to the `--stats` file.
    pub(super) fn frame_done(&mut self, ws: &Workspace, frame: &Drawn) {
        let Drawn {
            started,
            done,
            bytes,
            writes,
            overlay_active,
        } = *frame;
        self.metrics.frame_done(done, done - started, bytes, writes);
        self.overlay_refresh_at = match overlay_active {
            Some(active) if active || self.metrics.fps.fps(done) > 0 => {
                Some(done + Duration::from_millis(1050))
            }
            _ => None,
        };
        if let Some(stats) = &mut self.stats {
            stats.frame(
                done.duration_since(self.started),
                done - started,
                bytes,
                writes,
                self.metrics.last_key_latency,
                ws.panes()
                    .iter()
                    .map(|pane| (pane.program().queued(), pane.term().bytes_received())),
            );
        }
    }

    /// Samples per-pane rates and snapshots the metrics for the overlay.
    pub(super) fn overlay_data(&mut self, ws: &Workspace, now: Instant) -> OverlayData {
        let mut panes = Vec::new();
        for pane in ws.panes().iter() {
            let rate = self.metrics.pane_rates.entry(pane.id.0).or_default();
            rate.record(now, pane.term().bytes_received());
            panes.push(PaneMetrics {
                label: pane.title().to_string(),
                bytes_per_sec: rate.per_second(now),
                queued: pane.program().queued(),
                capacity: OUTPUT_CHANNEL_CAPACITY,
            });
        }
        self.metrics
            .pane_rates
            .retain(|id, _| ws.panes().get(PaneId(*id)).is_some());
        OverlayData::from_metrics(&mut self.metrics, now, panes)
    }
}
