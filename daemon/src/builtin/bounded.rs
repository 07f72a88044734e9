//! Where the built-in checks (the guard, self-protection) run: on tokio's
//! blocking pool, never on an async worker, at most one per core at once
//! in the whole process (2 to 16), each under a deadline well below the
//! shim's, so the reply still gets out (issue #24: a line the shell parser
//! works long on must not stall every hook of every agent).
//!
//! A check is given its own deadline a little before the caller's, so it
//! stops itself and says why; a check that has still not answered at the
//! caller's deadline, or that found no free slot in time, is an error the
//! caller answers with a deny.

use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

/// Checks in flight at once, across every built-in check.
static SLOTS: LazyLock<Arc<Semaphore>> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    Arc::new(Semaphore::new(cores.clamp(2, 16)))
});

/// Why a check gave no answer (the text the agent and the log get).
pub(crate) type Unanswered = &'static str;

/// Runs `check` on the blocking pool within `limit` from `started`;
/// `check` gets its own deadline (90 % of the limit) to stop at.
pub(crate) async fn run<T: Send + 'static>(
    started: Instant,
    limit: Duration,
    check: impl FnOnce(Instant) -> T + Send + 'static,
) -> Result<T, Unanswered> {
    let until = tokio::time::Instant::from_std(started + limit);
    let own = started + limit.mul_f32(0.9);
    let slot = tokio::time::timeout_at(until, Arc::clone(&SLOTS).acquire_owned())
        .await
        .map_err(|_| "no check slot came free before the deadline")?
        .map_err(|_| "the check slots are closed")?;
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        check(own)
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
        let started = Instant::now();
        let answer = run(started, Duration::from_secs(5), move |own| own > started).await;
        assert_eq!(answer, Ok(true));
        // A check that ignores its deadline is given up on at the limit.
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let late = run(Instant::now(), Duration::from_millis(50), move |_| {
            let _ = rx.recv_timeout(Duration::from_secs(5));
        })
        .await;
        drop(tx);
        assert_eq!(late, Err("the check did not answer within its deadline"));
    }
}
