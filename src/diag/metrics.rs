//! Numbers behind `--fps` and `--stats`, counted where the work happens:
//! the loop times frames and key-to-frame latency, the writer counts its
//! `write(2)` calls, each pane counts the bytes it parsed.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Frames kept for the frame-time percentiles and sparkline.
pub const FRAME_HISTORY: usize = 300;
/// Key latencies kept for the percentiles.
pub const LATENCY_HISTORY: usize = 200;
/// A key whose effect takes longer than this to appear (a program that does
/// not echo) is not a latency sample.
const MAX_KEY_LATENCY: Duration = Duration::from_secs(1);

/// A fixed-size window of recent samples.
#[derive(Debug, Clone)]
pub struct Samples {
    values: VecDeque<Duration>,
    cap: usize,
}

impl Samples {
    pub fn new(cap: usize) -> Self {
        Self {
            values: VecDeque::with_capacity(cap),
            cap: cap.max(1),
        }
    }

    pub fn push(&mut self, value: Duration) {
        if self.values.len() == self.cap {
            self.values.pop_front();
        }
        self.values.push_back(value);
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = Duration> + '_ {
        self.values.iter().copied()
    }

    /// Nearest-rank percentile (`p` in 0..=100); `None` without samples.
    pub fn percentile(&self, p: f64) -> Option<Duration> {
        if self.values.is_empty() {
            return None;
        }
        let mut sorted: Vec<Duration> = self.values.iter().copied().collect();
        sorted.sort_unstable();
        let rank = ((p.clamp(0.0, 100.0) / 100.0) * sorted.len() as f64).ceil() as usize;
        Some(sorted[rank.clamp(1, sorted.len()) - 1])
    }
}

/// Frames per second over the last second, from frame timestamps.
#[derive(Debug, Default, Clone)]
pub struct RollingFps {
    frames: VecDeque<Instant>,
}

impl RollingFps {
    pub fn record(&mut self, at: Instant) {
        self.frames.push_back(at);
        self.trim(at);
    }

    /// Frames in the second before `now`, not counting one drawn at `now`.
    pub fn fps(&mut self, now: Instant) -> usize {
        self.trim(now);
        self.frames.iter().filter(|&&t| t < now).count()
    }

    fn trim(&mut self, now: Instant) {
        while let Some(&first) = self.frames.front() {
            if now.duration_since(first) > Duration::from_secs(1) {
                self.frames.pop_front();
            } else {
                break;
            }
        }
    }
}

/// Bytes per second of one counter over the last second.
#[derive(Debug, Default, Clone)]
pub struct Rate {
    points: VecDeque<(Instant, u64)>,
}

impl Rate {
    pub fn record(&mut self, at: Instant, total: u64) {
        self.points.push_back((at, total));
        while self.points.len() > 2
            && self
                .points
                .get(1)
                .is_some_and(|&(t, _)| at.duration_since(t) >= Duration::from_secs(1))
        {
            self.points.pop_front();
        }
    }

    pub fn per_second(&self, now: Instant) -> f64 {
        let (Some(&(t0, b0)), Some(&(_, b1))) = (self.points.front(), self.points.back()) else {
            return 0.0;
        };
        let secs = now.duration_since(t0).as_secs_f64().max(1e-3);
        b1.saturating_sub(b0) as f64 / secs
    }
}

/// Per-pane numbers the overlay shows.
#[derive(Debug, Clone, Default)]
pub struct PaneMetrics {
    pub label: String,
    pub bytes_per_sec: f64,
    pub queued: usize,
    pub capacity: usize,
}

impl PaneMetrics {
    /// A full channel means the reader is blocked in `send`: backpressure.
    pub fn blocked(&self) -> bool {
        self.capacity > 0 && self.queued >= self.capacity
    }
}

/// Everything the loop measures.
#[derive(Debug)]
pub struct Metrics {
    pub frames: u64,
    pub frame_times: Samples,
    pub fps: RollingFps,
    pub key_latency: Samples,
    /// The input-to-frame time of the last frame, if it showed input.
    pub last_key_latency: Option<Duration>,
    /// Bytes and writes of the last frame.
    pub last_frame_bytes: u64,
    pub last_frame_writes: u64,
    pub writer_name: &'static str,
    /// Oldest input not yet shown, and whether its effect has arrived.
    key_started: Option<Instant>,
    key_reflected: bool,
    pub pane_rates: std::collections::BTreeMap<u32, Rate>,
}

impl Metrics {
    pub fn new(writer_name: &'static str) -> Self {
        Self {
            frames: 0,
            frame_times: Samples::new(FRAME_HISTORY),
            fps: RollingFps::default(),
            key_latency: Samples::new(LATENCY_HISTORY),
            last_key_latency: None,
            last_frame_bytes: 0,
            last_frame_writes: 0,
            writer_name,
            key_started: None,
            key_reflected: false,
            pane_rates: std::collections::BTreeMap::new(),
        }
    }

    /// An input event arrived at `at` (stamped when it was read).
    pub fn key_arrived(&mut self, at: Instant) {
        if self.key_started.is_none() {
            self.key_started = Some(at);
            self.key_reflected = false;
        }
    }

    /// The effect of pending input (an echo, a redraw) is ready to be drawn.
    pub fn key_reflected(&mut self) {
        if self.key_started.is_some() {
            self.key_reflected = true;
        }
    }

    /// A frame was flushed at `at` after taking `duration`.
    pub fn frame_done(&mut self, at: Instant, duration: Duration, bytes: u64, writes: u64) {
        self.frames += 1;
        self.frame_times.push(duration);
        self.fps.record(at);
        self.last_frame_bytes = bytes;
        self.last_frame_writes = writes;
        self.last_key_latency = None;
        if let Some(start) = self.key_started {
            let waited = at.saturating_duration_since(start);
            if self.key_reflected {
                self.key_latency.push(waited);
                self.last_key_latency = Some(waited);
                self.key_started = None;
            } else if waited > MAX_KEY_LATENCY {
                self.key_started = None;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let mut s = Samples::new(100);
        for i in 1..=100 {
            s.push(ms(i));
        }
        assert_eq!(s.percentile(50.0), Some(ms(50)));
        assert_eq!(s.percentile(99.0), Some(ms(99)));
        assert_eq!(s.percentile(100.0), Some(ms(100)));
        assert_eq!(s.percentile(0.0), Some(ms(1)));
        assert_eq!(Samples::new(3).percentile(50.0), None);
    }

    #[test]
    fn samples_keep_only_the_newest() {
        let mut s = Samples::new(3);
        for i in 1..=5 {
            s.push(ms(i));
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![ms(3), ms(4), ms(5)]);
    }

    #[test]
    fn fps_counts_the_last_second_and_decays_to_zero() {
        let t0 = Instant::now();
        let mut fps = RollingFps::default();
        for i in 0..30 {
            fps.record(t0 + ms(i * 10));
        }
        assert_eq!(fps.fps(t0 + ms(300)), 30);
        assert_eq!(fps.fps(t0 + ms(1250)), 5);
        assert_eq!(fps.fps(t0 + ms(2000)), 0);
    }

    #[test]
    fn fps_does_not_count_the_frame_being_drawn() {
        let t0 = Instant::now();
        let mut fps = RollingFps::default();
        fps.record(t0);
        assert_eq!(fps.fps(t0), 0);
    }

    #[test]
    fn rate_is_bytes_per_second_over_the_window() {
        let t0 = Instant::now();
        let mut r = Rate::default();
        r.record(t0, 0);
        r.record(t0 + ms(500), 50_000);
        assert!((r.per_second(t0 + ms(500)) - 100_000.0).abs() < 1.0);
    }

    #[test]
    fn key_latency_runs_from_arrival_to_the_frame_that_shows_it() {
        let t0 = Instant::now();
        let mut m = Metrics::new("test");
        m.key_arrived(t0);
        // A frame before the echo arrived does not end the measurement.
        m.frame_done(t0 + ms(1), ms(1), 10, 1);
        assert!(m.key_latency.is_empty());
        m.key_reflected();
        m.frame_done(t0 + ms(3), ms(1), 10, 1);
        assert_eq!(m.key_latency.percentile(50.0), Some(ms(3)));
    }

    #[test]
    fn a_key_that_never_shows_is_dropped_not_counted() {
        let t0 = Instant::now();
        let mut m = Metrics::new("test");
        m.key_arrived(t0);
        m.frame_done(t0 + Duration::from_secs(2), ms(1), 10, 1);
        assert!(m.key_latency.is_empty());
        m.key_arrived(t0 + Duration::from_secs(3));
        m.key_reflected();
        m.frame_done(t0 + Duration::from_secs(3) + ms(1), ms(1), 10, 1);
        assert_eq!(m.key_latency.len(), 1);
    }

    #[test]
    fn full_channel_means_blocked() {
        let p = PaneMetrics {
            queued: 16,
            capacity: 16,
            ..PaneMetrics::default()
        };
        assert!(p.blocked());
    }
}
