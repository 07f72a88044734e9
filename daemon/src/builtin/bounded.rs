//! Where the built-in checks (the guard, self-protection, the approval's
//! matcher) run: first where the call is, on a small work budget, and only
//! the calls that need more on tokio's blocking pool, never at length on an
//! async worker (issue #24: a line the shell parser works long on must not
//! stall every hook of every agent).
//!
//! [`inline`] is the first attempt: `hookgate_guard::INLINE_WORK` units and
//! [`INLINE_TIME`] on the worker that holds the call, no spawn, no slot, so
//! an ordinary call costs no hand-off between threads (issue #33: two
//! cross-thread wake-ups per call were most of the gateway's own part). An
//! attempt that ran out of either gives no answer; the check runs again
//! from the start with the full budget through [`run`], counted in the
//! built-in's `pooled` counter. The time limit is needed: units are not
//! alike in time (a byte tree-sitter recovers from costs up to a
//! microsecond, a pattern step a tenth of that), so work alone could not
//! keep a crafted line's attempt short.
//!
//! Measured with `cargo run --release -p hookgate-config --example
//! inline_cost -- --quick --cap-us=50 131072` (the embedded default guard,
//! a self-protection like the gateway's; 200 attempts per line) on the
//! project's shared 2-core machine at load 3.2–3.5: over the 783 lines of
//! the held-out corpora an attempt took 34 µs (guard) and 17 µs
//! (self-protection) at the median; lines built to use up any budget
//! (long, nested, unparseable) 67 µs, and 100 µs for the slowest line's
//! median; glob lines built to have the lazy DFAs build states (many
//! parts, `[...]` classes, `*`, `**`, long words, `find -name .env`) 67 µs,
//! the slowest line's median 164 µs (a 2,000-byte word ending in `*`,
//! the guard and self-protection alike). The DFAs' state building is
//! charged as work (the guard's `pattern::search`), so the clock is read
//! while it goes on: `find . -name .env -exec cat {} +`, 1.6–2.5 ms in
//! full, gives up inline after about 100 µs (the guard's attempt and
//! self-protection's together, at load 4–7). Still not bounded: a
//! `pkill -f` pattern self-protection compiles per call, and a runtime
//! worker being preempted on a loaded machine (single attempts of several
//! milliseconds, seen at that load for every kind of line).
//!
//! [`run`] uses the blocking pool in two lanes, each at most one check per
//! core at once in the whole process (2 to 16), each check under a
//! deadline well below the shim's, so the reply still gets out. The light
//! lane first tries the check again with the first attempt's units and no
//! 50 µs: an ordinary line whose first attempt only ran out of time (a busy
//! core, a debug build) answers there. Only a check that needs more units
//! takes a slot of the full lane. A light slot is held for at most
//! `INLINE_WORK` units of work, so ordinary calls never queue behind lines
//! that use up the full budget (a test of the gateway saw six such lines
//! hold both full slots past an ordinary call's deadline, and deny it).
//!
//! A check is given its own deadline a little before the caller's, so it
//! stops itself and says why; a check that has still not answered at the
//! caller's deadline, or that found no free slot in time, is an error the
//! caller answers with a deny.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use hookgate_guard::INLINE_WORK;
use tokio::sync::Semaphore;

/// The pool's two lanes: checks in flight at once in each, across every
/// built-in check.
#[derive(Debug)]
pub(crate) struct Lanes {
    light: Arc<Semaphore>,
    full: Arc<Semaphore>,
}

impl Lanes {
    fn new(slots: usize) -> Lanes {
        Lanes {
            light: Arc::new(Semaphore::new(slots)),
            full: Arc::new(Semaphore::new(slots)),
        }
    }
}

static LANES: LazyLock<Lanes> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    Lanes::new(cores.clamp(2, 16))
});

/// How long a first attempt may take on the async worker.
pub(crate) const INLINE_TIME: Duration = Duration::from_micros(50);

/// Why a check gave no answer (the text the agent and the log get).
pub(crate) type Unanswered = &'static str;

/// The first attempt at a check, here and now: `attempt` is given
/// [`INLINE_WORK`] units and [`INLINE_TIME`] and answers, or gives up
/// (`None`) only when those ran out; a `None` is counted in `pooled`, as
/// the caller then hands the check to [`run`] with the full budget.
pub(crate) fn inline<T>(
    pooled: &AtomicU64,
    attempt: impl FnOnce(u64, Instant) -> Option<T>,
) -> Option<T> {
    let answer = attempt(INLINE_WORK, Instant::now() + INLINE_TIME);
    if answer.is_none() {
        pooled.fetch_add(1, Ordering::Relaxed);
    }
    answer
}

/// Runs `check` on the blocking pool within `limit` from `started`, first
/// in the light lane as `check(Some(INLINE_WORK), own)` (it may give up:
/// `None`), then, if it did, in the full lane as `check(None, own)`, which
/// must answer; `own` is the check's own deadline (90 % of the limit).
pub(crate) async fn run<T: Send + 'static>(
    started: Instant,
    limit: Duration,
    check: impl Fn(Option<u64>, Instant) -> Option<T> + Send + Sync + 'static,
) -> Result<T, Unanswered> {
    run_in(&LANES, started, limit, check).await
}

async fn run_in<T: Send + 'static>(
    lanes: &Lanes,
    started: Instant,
    limit: Duration,
    check: impl Fn(Option<u64>, Instant) -> Option<T> + Send + Sync + 'static,
) -> Result<T, Unanswered> {
    let until = tokio::time::Instant::from_std(started + limit);
    let own = started + limit.mul_f32(0.9);
    let check = Arc::new(check);
    let light = Arc::clone(&check);
    if let Some(answer) =
        on_pool(&lanes.light, until, move || light(Some(INLINE_WORK), own)).await?
    {
        return Ok(answer);
    }
    on_pool(&lanes.full, until, move || check(None, own))
        .await?
        .ok_or("the check gave no answer")
}

/// Runs `work` on the blocking pool holding one of `slots`, both the wait
/// for the slot and the work bounded by `until`.
async fn on_pool<R: Send + 'static>(
    slots: &Arc<Semaphore>,
    until: tokio::time::Instant,
    work: impl FnOnce() -> R + Send + 'static,
) -> Result<R, Unanswered> {
    let slot = tokio::time::timeout_at(until, Arc::clone(slots).acquire_owned())
        .await
        .map_err(|_| "no check slot came free before the deadline")?
        .map_err(|_| "the check slots are closed")?;
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        work()
    });
    match tokio::time::timeout_at(until, task).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(_)) => Err("the check failed on this call"),
        Err(_) => Err("the check did not answer within its deadline"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_answer_in_time_and_a_late_one() {
        let lanes = Lanes::new(2);
        let started = Instant::now();
        let answer = run_in(&lanes, started, Duration::from_secs(5), move |_, own| {
            Some(own > started)
        })
        .await;
        assert_eq!(answer, Ok(true));
        // A check that ignores its deadline is given up on at the limit.
        let late = run_in(&lanes, Instant::now(), Duration::from_millis(50), |_, _| {
            std::thread::sleep(Duration::from_millis(300));
            Some(())
        })
        .await;
        assert_eq!(late, Err("the check did not answer within its deadline"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_light_check_answers_while_the_full_lane_is_taken() {
        let lanes = Lanes::new(1);
        let _held = Arc::clone(&lanes.full)
            .acquire_owned()
            .await
            .expect("the full lane's slot");
        let light = run_in(&lanes, Instant::now(), Duration::from_secs(5), |work, _| {
            work.map(|units| units == INLINE_WORK)
        })
        .await;
        assert_eq!(light, Ok(true), "answered with the first attempt's units");
        let full = run_in(
            &lanes,
            Instant::now(),
            Duration::from_millis(100),
            |work, _| work.is_none().then_some(()),
        )
        .await;
        assert_eq!(full, Err("no check slot came free before the deadline"));
    }

    #[test]
    fn only_an_attempt_that_gives_up_is_counted_as_pooled() {
        let pooled = AtomicU64::new(0);
        assert_eq!(inline(&pooled, |work, _| Some(work)), Some(INLINE_WORK));
        assert_eq!(pooled.load(Ordering::Relaxed), 0);
        assert_eq!(inline(&pooled, |_, _| None::<u64>), None);
        assert_eq!(pooled.load(Ordering::Relaxed), 1);
    }
}
