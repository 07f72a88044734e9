//! WARN lines, rate-limited per kind.
//!
//! A failure that repeats on every event (a dead subscriber, a flood of
//! bad frames, a stalled gateway's backlog) must not turn into thousands
//! of identical log lines: the counters in `gateway status` carry the
//! totals. Each kind may log [`BURST`] lines per [`WINDOW`]; the rest are
//! counted, and the first line of the next window says how many were
//! suppressed. Only failure paths come here, so a short mutex per kind is
//! fine.

use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Lines per kind per window.
pub(crate) const BURST: u32 = 5;
/// The window.
pub(crate) const WINDOW: Duration = Duration::from_secs(10);

/// What a WARN line is about: each kind has its own budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Warning {
    /// A payload was not understood.
    Unparsed,
    /// A connection was refused or failed before a reply.
    Connection,
    /// A subscriber call failed or timed out.
    Subscriber,
    /// The in-flight byte budget turned work away.
    Budget,
    /// The OpenTelemetry export failed.
    Telemetry,
    /// A session's follow-ups in a row reached the cap.
    Followup,
}

impl Warning {
    const ALL: [Warning; 6] = [
        Warning::Unparsed,
        Warning::Connection,
        Warning::Subscriber,
        Warning::Budget,
        Warning::Telemetry,
        Warning::Followup,
    ];

    fn index(self) -> usize {
        Warning::ALL.iter().position(|w| *w == self).unwrap_or(0)
    }
}

#[derive(Debug)]
struct Slot {
    window_start: Option<Instant>,
    logged: u32,
    suppressed: u64,
}

static SLOTS: [Mutex<Slot>; Warning::ALL.len()] = [const {
    Mutex::new(Slot {
        window_start: None,
        logged: 0,
        suppressed: 0,
    })
}; Warning::ALL.len()];

/// Logs `line` at WARN unless `kind` used up its budget in this window.
pub(crate) fn warn(kind: Warning, line: fmt::Arguments<'_>) {
    let now = Instant::now();
    let (log, suppressed) = {
        let mut slot = match SLOTS[kind.index()].lock() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        admit(&mut slot, now)
    };
    if !log {
        return;
    }
    if suppressed > 0 {
        tracing::warn!(kind = ?kind, suppressed, window = ?WINDOW, "similar warnings suppressed");
    }
    tracing::warn!("{line}");
}

/// Whether the slot admits one more line at `now`, and how many lines the
/// previous window suppressed (reported once, with the first new line).
fn admit(slot: &mut Slot, now: Instant) -> (bool, u64) {
    let expired = slot
        .window_start
        .is_none_or(|start| now.saturating_duration_since(start) >= WINDOW);
    let mut reported = 0;
    if expired {
        slot.window_start = Some(now);
        slot.logged = 0;
        reported = std::mem::take(&mut slot.suppressed);
    }
    if slot.logged < BURST {
        slot.logged += 1;
        (true, reported)
    } else {
        slot.suppressed += 1;
        (false, reported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_per_window_then_a_summary() {
        let mut slot = Slot {
            window_start: None,
            logged: 0,
            suppressed: 0,
        };
        let t0 = Instant::now();
        let admitted: Vec<bool> = (0..8).map(|_| admit(&mut slot, t0).0).collect();
        assert_eq!(
            admitted,
            [true, true, true, true, true, false, false, false]
        );
        assert_eq!(admit(&mut slot, t0 + WINDOW / 2), (false, 0));
        assert_eq!(
            admit(&mut slot, t0 + WINDOW),
            (true, 4),
            "4 suppressed reported"
        );
        assert_eq!(admit(&mut slot, t0 + WINDOW), (true, 0));
    }
}
