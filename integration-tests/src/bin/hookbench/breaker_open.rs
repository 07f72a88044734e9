//! Section 1's row (j), issue 17's figure: a hook call through a gateway
//! whose only remote subscriber was killed, so its circuit breaker is open
//! and `on_error` applies without a call (but for one probe per cool-down).

use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::baselines::HookCommand;
use crate::gateway::Gateway;
use crate::spawn::{Expect, HookIo, run_once};
use crate::subscriber::BenchSubscriber;

/// Breaker settings of the breaker-open gateway: the defaults, written out
/// so the report can name them.
pub(crate) const BREAKER_FAILURES: u32 = 5;
pub(crate) const BREAKER_COOLDOWN: Duration = Duration::from_millis(5000);

/// What the breaker-open gateway reported about its dead subscriber.
#[derive(Debug, Clone, Default)]
pub(crate) struct BreakerSeen {
    pub(crate) state: String,
    /// Calls answered by `on_error` without calling (`breaker_open`).
    pub(crate) skipped: u64,
    /// Failed connect attempts (the opening ones and the probes).
    pub(crate) attempts: u64,
}

/// Calls through `gateway` while `doomed` answers, kills it, then calls
/// until the gateway reports the breaker open.
pub(crate) fn open_breaker(
    io: &mut HookIo,
    shim: &HookCommand,
    gateway: &Gateway,
    doomed: BenchSubscriber,
) -> anyhow::Result<()> {
    for _ in 0..5 {
        run_once(io, shim, Expect::GatewayAllow)?;
    }
    if doomed.calls() < 5 {
        bail!(
            "the subscriber to kill answered {} of 5 calls",
            doomed.calls()
        );
    }
    drop(doomed);
    for _ in 0..=BREAKER_FAILURES * 4 {
        run_once(io, shim, Expect::GatewayAllow)?;
        if breaker_seen(gateway)?.state == "open" {
            return Ok(());
        }
    }
    bail!("the breaker did not open after the subscriber was killed")
}

/// The breaker-open gateway's view of its dead subscriber.
pub(crate) fn breaker_seen(gateway: &Gateway) -> anyhow::Result<BreakerSeen> {
    let status = gateway.status_json()?;
    let sub = status["subscribers"]
        .get(0)
        .context("gateway status lists no subscriber")?;
    let n = |key: &str| sub[key].as_u64().unwrap_or(0);
    Ok(BreakerSeen {
        state: sub["breaker"].as_str().unwrap_or("?").to_owned(),
        skipped: n("breaker_open"),
        attempts: sub["errors_by_kind"]["connect"].as_u64().unwrap_or(0) + n("timeouts"),
    })
}
