//! What a hook call says of itself beyond its payload, in the variables the
//! shim forwards: the fail mode it answers by when no reply comes
//! (`HOOKGATE_FAIL`), and when that is (`HOOKGATE_DEADLINE_UNIX_MS`, from
//! shims that announce it).
//!
//! The deadline bounds the fan-out: a subscriber call that would outlast it
//! is cut [`REPLY_MARGIN`] before it, so the reply still reaches the shim,
//! and the audit record says so (`failed: "no answer before the shim's
//! deadline"`). Without it, every subscriber has only its own deadline.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hookgate_adapters::FailMode;
use hookgate_wire::Request;

/// What the reply needs after the fan-out: merging, rendering, the write,
/// the shim's output.
pub(crate) const REPLY_MARGIN: Duration = Duration::from_millis(100);

/// A deadline further than this is not believed (a shim's longest
/// `HOOKGATE_TIMEOUT_MS` is ten minutes).
const MAX_AHEAD: Duration = Duration::from_secs(15 * 60);

/// The hook call's own terms.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallTerms {
    /// What the shim answers by itself if no reply comes in time.
    pub(crate) fail_mode: FailMode,
    /// When it stops waiting, if it said (on this process's clock).
    pub(crate) deadline: Option<Instant>,
    /// What it had left of that when the gateway began on the call.
    pub(crate) had: Option<Duration>,
}

impl CallTerms {
    /// The terms `request` carries, its deadline read against the wall
    /// clock now.
    pub(crate) fn of(request: &Request) -> CallTerms {
        let now = Instant::now();
        let deadline = var(request, hookgate_wire::DEADLINE_VAR)
            .and_then(|ms| ms.parse::<u64>().ok())
            .and_then(|ms| deadline_at(ms, SystemTime::now(), now));
        CallTerms {
            fail_mode: forwarded_fail_mode(request),
            deadline,
            had: deadline.map(|d| d.saturating_duration_since(now)),
        }
    }

    /// Terms with no deadline: an HTTP hook's, whose agent does not
    /// announce its timeout.
    pub(crate) fn without_deadline(fail_mode: FailMode) -> CallTerms {
        CallTerms {
            fail_mode,
            deadline: None,
            had: None,
        }
    }

    /// When the fan-out must be over for the reply to make it.
    pub(crate) fn fan_out_deadline(&self) -> Option<Instant> {
        self.deadline
            .map(|d| d.checked_sub(REPLY_MARGIN).unwrap_or_else(Instant::now))
    }
}

/// The value of the forwarded variable `name`.
fn var<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
    request
        .env
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, value)| value.as_str())
}

/// The fail mode the shim resolved for this hook call (it forwards it as
/// `HOOKGATE_FAIL`); open when absent or unknown.
pub(crate) fn forwarded_fail_mode(request: &Request) -> FailMode {
    match var(request, hookgate_wire::FAIL_MODE_VAR) {
        Some("closed") => FailMode::Closed,
        _ => FailMode::Open,
    }
}

/// The Unix-epoch millisecond `ms` as an instant, given the wall clock and
/// the monotonic one read together; `None` for a deadline too far ahead to
/// be a shim's. One already past is now.
fn deadline_at(ms: u64, wall: SystemTime, mono: Instant) -> Option<Instant> {
    instant_within(ms, wall, mono, MAX_AHEAD)
}

/// [`deadline_at`] with `max_ahead` instead of a shim deadline's bound (a
/// shim's hold limit, `crate::hold`).
pub(crate) fn instant_within(
    ms: u64,
    wall: SystemTime,
    mono: Instant,
    max_ahead: Duration,
) -> Option<Instant> {
    let at = UNIX_EPOCH.checked_add(Duration::from_millis(ms))?;
    match at.duration_since(wall) {
        Ok(ahead) if ahead > max_ahead => None,
        Ok(ahead) => mono.checked_add(ahead),
        Err(_) => Some(mono),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(env: &[(&str, &str)]) -> Request {
        Request {
            env: env
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            ..Request::default()
        }
    }

    #[test]
    fn the_shims_terms_are_read() {
        let ms = |at: SystemTime| {
            at.duration_since(UNIX_EPOCH)
                .unwrap()
                .as_millis()
                .to_string()
        };
        let in_5s = ms(SystemTime::now() + Duration::from_secs(5));
        let terms = CallTerms::of(&request(&[
            ("HOOKGATE_DEADLINE_UNIX_MS", &in_5s),
            ("HOOKGATE_FAIL", "closed"),
        ]));
        assert_eq!(terms.fail_mode, FailMode::Closed);
        let left = terms.had.unwrap();
        assert!(
            left <= Duration::from_secs(5) && left > Duration::from_secs(3),
            "{left:?}"
        );
        let cut = terms.fan_out_deadline().unwrap();
        assert!(cut < terms.deadline.unwrap());

        let old = CallTerms::of(&request(&[]));
        assert_eq!(old.fail_mode, FailMode::Open);
        assert!(old.deadline.is_none() && old.fan_out_deadline().is_none());
        assert_eq!(old.had, None);
        for bad in ["soon", "-5", ""] {
            let terms = CallTerms::of(&request(&[("HOOKGATE_DEADLINE_UNIX_MS", bad)]));
            assert!(terms.deadline.is_none(), "{bad}");
        }
    }

    #[test]
    fn deadlines_are_placed_on_the_monotonic_clock() {
        let wall = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mono = Instant::now();
        let ms = 1_700_000_000_000u64;
        assert_eq!(
            deadline_at(ms + 2500, wall, mono),
            Some(mono + Duration::from_millis(2500))
        );
        assert_eq!(deadline_at(ms - 10, wall, mono), Some(mono), "already past");
        assert_eq!(
            deadline_at(ms + 3_600_000, wall, mono),
            None,
            "an hour ahead"
        );
        assert_eq!(deadline_at(u64::MAX, wall, mono), None);
    }
}
