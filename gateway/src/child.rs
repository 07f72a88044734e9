//! Child processes the CLI commands start (`gateway-shim` for doctor's
//! probes, `systemctl` for install), waited for within a limit: a command
//! that hangs must not hang the one who ran it.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// Waits for `child` at most `limit`; past it, kills and reaps it and
/// says so.
pub(crate) fn wait_bounded(child: &mut Child, limit: Duration) -> anyhow::Result<ExitStatus> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            anyhow::bail!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
