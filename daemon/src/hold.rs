//! Holding one hook call for a person: how a built-in (the `approval`)
//! asks the shim to wait longer, and how much longer it may.
//!
//! Each shim connection gets a [`HoldLine`]. A shim that takes holds
//! forwards its hold limit (`hookgate_wire::HOLD_UNTIL_VAR`: the latest it
//! ever waits, set by its own command line or environment as installed);
//! [`HoldLine::extend`] then sends it a hold frame through the connection
//! (`server`), and answers with the instant the reply must be ready by: the
//! asked one, cut at that limit less a margin for the answer to get there. A shim that takes
//! no holds (an older one, or one installed without a maximum), an HTTP hook
//! and `gateway eval` get no frame: their calls are held only within the
//! deadline they already had.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc;

use crate::call_terms::{REPLY_MARGIN, instant_within};

/// Hold frames that may wait for the connection to write them; more is a
/// built-in asking faster than a socket takes a few bytes, and is dropped
/// (the next one carries the newer wait anyway).
const QUEUED_HOLDS: usize = 4;

/// What a held call leaves between its answer and the shim's deadline:
/// more than an ordinary reply's margin (`REPLY_MARGIN`), since a person's
/// answer, or `on_timeout`, must still reach a shim on a busy machine, and
/// a few hundred milliseconds more of a hold change nothing.
const HOLD_MARGIN: Duration = Duration::from_millis(500);

/// A limit further than this is not believed: the shim caps its own
/// maximum at `MAX_HOLD_MS`, plus its normal deadline.
const MAX_AHEAD: Duration = Duration::from_millis(hookgate_wire::MAX_HOLD_MS + 15 * 60 * 1000);

/// One hook call's way to the shim for hold frames.
#[derive(Debug)]
pub(crate) struct HoldLine {
    /// Where hold frames (their wait, in ms) go; `None`: this caller takes
    /// none.
    frames: Option<mpsc::Sender<u32>>,
    /// The latest the shim waits, on this process's clock.
    limit: Option<Instant>,
    /// The deadline the call had without a hold (the shim's).
    base: Option<Instant>,
    /// The furthest deadline granted so far: the reply's real deadline.
    granted: Mutex<Option<Instant>>,
}

impl HoldLine {
    /// A caller that takes no hold frames (an HTTP hook, `gateway eval`).
    pub(crate) fn none() -> HoldLine {
        HoldLine {
            frames: None,
            limit: None,
            base: None,
            granted: Mutex::new(None),
        }
    }

    /// The line for a shim call whose hold limit is `hold_until_ms` (Unix
    /// ms, when it takes holds) and whose deadline is `base`; the receiving
    /// end, for the connection to write, when the shim takes holds.
    pub(crate) fn for_shim(
        hold_until_ms: Option<u64>,
        base: Option<Instant>,
    ) -> (HoldLine, Option<mpsc::Receiver<u32>>) {
        let limit = hold_until_ms
            .and_then(|ms| instant_within(ms, SystemTime::now(), Instant::now(), MAX_AHEAD))
            .filter(|limit| base.is_none_or(|base| *limit > base));
        let Some(limit) = limit else {
            let line = HoldLine {
                base,
                ..HoldLine::none()
            };
            return (line, None);
        };
        let (tx, rx) = mpsc::channel(QUEUED_HOLDS);
        let line = HoldLine {
            frames: Some(tx),
            limit: Some(limit),
            base,
            granted: Mutex::new(None),
        };
        (line, Some(rx))
    }

    /// Asks the shim to wait for the reply until `until`; the instant the
    /// reply must be ready by (the reply's margin before what the shim
    /// grants): `until` when the shim allows it, else as far as it does,
    /// else the call's own deadline. `None`: no deadline at all (a caller
    /// that never gives up, such as `gateway eval`).
    pub(crate) fn extend(&self, until: Instant) -> Option<Instant> {
        let margin = HOLD_MARGIN.max(REPLY_MARGIN);
        let ready_by = |deadline: Instant| deadline.checked_sub(margin).unwrap_or(deadline);
        let (Some(frames), Some(limit)) = (&self.frames, self.limit) else {
            return self.base.map(ready_by).map(|base| base.min(until));
        };
        let deadline = (until + margin).min(limit);
        let wait = deadline.saturating_duration_since(Instant::now());
        let wait_ms = u32::try_from(wait.as_millis()).unwrap_or(u32::MAX);
        if frames.try_send(wait_ms).is_err() {
            tracing::debug!("a hold frame was dropped: the connection is behind or gone");
        }
        if let Ok(mut granted) = self.granted.lock() {
            *granted = Some(granted.map_or(deadline, |g| g.max(deadline)));
        }
        Some(ready_by(deadline).min(until))
    }

    /// The shim's deadline after the holds granted so far.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        let granted = self.granted.lock().ok().and_then(|g| *g);
        match (self.base, granted) {
            (Some(base), Some(granted)) => Some(base.max(granted)),
            (base, granted) => base.or(granted),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shim's hold limit `ms_ahead` from now, in Unix ms.
    fn limit_in(ms_ahead: u64) -> Option<u64> {
        let wall = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default();
        u64::try_from(wall).ok().map(|wall| wall + ms_ahead)
    }

    #[tokio::test]
    async fn a_shim_that_takes_holds_gets_a_frame_and_its_limit_is_kept() {
        let base = Instant::now() + Duration::from_secs(5);
        let (line, rx) = HoldLine::for_shim(limit_in(30_000), Some(base));
        let mut rx = rx.expect("the shim takes holds");
        // Asked for ten minutes: granted up to the shim's 30 s.
        let ready = line
            .extend(Instant::now() + Duration::from_secs(600))
            .expect("a deadline");
        let wait_ms = rx.recv().await.expect("a hold frame");
        assert!((25_000..=30_000).contains(&wait_ms), "{wait_ms}");
        assert!(ready < Instant::now() + Duration::from_secs(30));
        assert!(ready > Instant::now() + Duration::from_secs(25));
        assert!(line.deadline().expect("a deadline") > base);
    }

    #[test]
    fn a_shim_without_a_limit_is_held_within_its_deadline_only() {
        let base = Instant::now() + Duration::from_secs(5);
        let (line, rx) = HoldLine::for_shim(None, Some(base));
        assert!(rx.is_none());
        let ready = line.extend(Instant::now() + Duration::from_secs(600));
        assert_eq!(ready, Some(base - HOLD_MARGIN));
        assert_eq!(line.deadline(), Some(base));
        // A limit before its deadline, or absurdly far, is no hold either.
        let (_, rx) = HoldLine::for_shim(limit_in(1000), Some(base));
        assert!(rx.is_none());
        let (_, rx) = HoldLine::for_shim(limit_in(24 * 3_600_000), Some(base));
        assert!(rx.is_none());
        // No deadline at all: held as long as asked.
        let until = Instant::now() + Duration::from_secs(60);
        assert_eq!(HoldLine::none().extend(until), None);
    }
}
