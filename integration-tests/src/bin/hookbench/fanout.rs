//! Section 2: fan-out scaling. 1, 2, 4, 8 and 16 decide subscribers each
//! answer after the same delay L; if the gateway asks them in parallel, the
//! end-to-end latency stays near L whatever the width.
//!
//! One gateway per width, all running at once and asked round-robin (one
//! event at a time, by an in-process client) so noise hits every width
//! alike. A direct gRPC call to one delayed subscriber, interleaved too,
//! shows what L costs without any gateway; direct calls to
//! [`DIRECT_WIDE`] of them at once, what that many subscribers answering
//! together cost this machine without a gateway (issue 33's floor of the
//! 8-way row).
//!
//! The client blocks on its socket like the shim, and the direct call runs
//! on a current-thread runtime on the same thread; each subscriber has a
//! thread of its own (`subscriber`). So the only thread hand-offs measured
//! are the gateway's and the ones a reply between processes needs.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures_util::future::try_join_all;
use hookgate_proto::v1::HookEvent;
use hookgate_proto::v1::subscriber_client::SubscriberClient;
use tonic::transport::Endpoint;

use crate::artifacts::Artifacts;
use crate::client;
use crate::gateway::{Decider, Gateway, config_toml};
use crate::options::Sizes;
use crate::stats::{Summary, slope};
use crate::subscriber::BenchSubscriber;

/// The fan-out widths measured.
pub(crate) const WIDTHS: [usize; 5] = [1, 2, 4, 8, 16];
/// How many subscribers the wide direct call asks at once: the width of
/// the fan-out target's row (8-way), whose floor it is.
pub(crate) const DIRECT_WIDE: usize = 8;

/// Section 2's results.
#[derive(Debug, Clone)]
pub(crate) struct Fanout {
    pub(crate) delay: Duration,
    /// A direct gRPC call to one subscriber with delay L (no gateway).
    pub(crate) direct: Summary,
    /// Direct gRPC calls to [`DIRECT_WIDE`] subscribers at once (no
    /// gateway), timed until the last answer.
    pub(crate) direct_wide: Summary,
    /// (width, end-to-end latency through the gateway).
    pub(crate) widths: Vec<(usize, Summary)>,
    /// Least-squares slope of the median against the width, in µs per
    /// added subscriber (signed: noise can make it negative).
    pub(crate) per_subscriber_us: f64,
    /// Medians of each quarter of the rounds, in time order: the direct
    /// call first, the wide direct call, then each width. Shows how far the machine drifted
    /// during the run.
    pub(crate) quarters: Vec<[Duration; QUARTERS]>,
}

/// Into how many consecutive blocks the rounds are split for `quarters`.
pub(crate) const QUARTERS: usize = 4;

impl Fanout {
    pub(crate) fn median_at(&self, width: usize) -> Option<Duration> {
        self.widths
            .iter()
            .find(|(w, _)| *w == width)
            .map(|(_, s)| s.median)
    }
}

pub(crate) fn run(artifacts: &Artifacts, sizes: &Sizes, payload: &[u8]) -> anyhow::Result<Fanout> {
    let delay = sizes.fanout_delay;
    let max = WIDTHS.iter().copied().max().unwrap_or(1);
    let subscribers = (0..max)
        .map(|_| BenchSubscriber::start_delayed(delay))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let deciders: Vec<Decider> = subscribers
        .iter()
        .map(|s| Decider {
            endpoint: s.endpoint().to_owned(),
            timeout: Duration::from_millis(1000),
        })
        .collect();
    let gateways = WIDTHS
        .iter()
        .map(|&w| Gateway::start(&artifacts.gateway, &config_toml(&deciders[..w])))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let frame = client::request_frame(payload);

    // The direct call's client: its channel's tasks run while it waits.
    let direct_runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the direct client's runtime")?;
    let mut direct = direct_runtime.block_on(async {
        let mut clients = Vec::with_capacity(DIRECT_WIDE);
        for subscriber in subscribers.iter().take(DIRECT_WIDE) {
            let channel = Endpoint::from_shared(subscriber.endpoint().to_owned())?
                .tcp_nodelay(true)
                .connect()
                .await
                .context("connecting to a subscriber directly")?;
            clients.push(SubscriberClient::new(channel));
        }
        anyhow::Ok(clients)
    })?;
    anyhow::ensure!(
        direct.len() == DIRECT_WIDE,
        "fewer subscribers than the wide direct call asks"
    );
    let event = |round: usize| HookEvent {
        id: format!("direct-{round}"),
        ..HookEvent::default()
    };
    // Slot 0 is the direct call, slot 1 the wide one; slot i + 2 is
    // WIDTHS[i].
    const DIRECT_SLOTS: usize = 2;
    let slots = WIDTHS.len() + DIRECT_SLOTS;
    let mut samples = vec![Vec::new(); slots];
    let rounds = sizes.fanout_warmup + sizes.fanout_runs;
    for round in 0..rounds {
        for i in 0..slots {
            let slot = (round + i) % slots;
            let start = Instant::now();
            match slot {
                0 => {
                    direct_runtime
                        .block_on(direct[0].on_event(event(round)))
                        .context("direct subscriber call")?;
                }
                1 => {
                    let calls = direct.iter_mut().map(|c| c.on_event(event(round)));
                    direct_runtime
                        .block_on(try_join_all(calls))
                        .context("direct subscriber calls")?;
                }
                _ => {
                    let i = slot - DIRECT_SLOTS;
                    client::call_blocking(gateways[i].socket(), &frame)
                        .with_context(|| format!("fan-out width {}", WIDTHS[i]))?;
                }
            }
            if round >= sizes.fanout_warmup {
                samples[slot].push(start.elapsed());
            }
        }
    }
    let quarters = samples
        .iter()
        .map(|series| quarter_medians(series))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let direct = Summary::of(&samples[0]).context("no direct samples")?;
    let direct_wide = Summary::of(&samples[1]).context("no wide direct samples")?;
    let widths = WIDTHS
        .iter()
        .zip(&samples[DIRECT_SLOTS..])
        .map(|(&w, s)| Ok((w, Summary::of(s).context("no samples")?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let points: Vec<(f64, f64)> = widths
        .iter()
        .map(|(w, s)| (*w as f64, s.median.as_secs_f64()))
        .collect();
    for (i, subscriber) in subscribers.iter().enumerate() {
        let users = WIDTHS.iter().filter(|&&w| w > i).count()
            + usize::from(i == 0)
            + usize::from(i < DIRECT_WIDE);
        let expected = (rounds * users) as u64;
        anyhow::ensure!(
            subscriber.calls() >= expected,
            "subscriber {i} answered {} of {expected} calls",
            subscriber.calls()
        );
    }
    Ok(Fanout {
        delay,
        direct,
        direct_wide,
        widths,
        per_subscriber_us: slope(&points) * 1e6,
        quarters,
    })
}

/// The median of each of [`QUARTERS`] consecutive blocks of `series`.
fn quarter_medians(series: &[Duration]) -> anyhow::Result<[Duration; QUARTERS]> {
    let block = series.len().div_ceil(QUARTERS).max(1);
    let mut out = [Duration::ZERO; QUARTERS];
    for (slot, chunk) in out.iter_mut().zip(series.chunks(block)) {
        *slot = Summary::of(chunk).context("an empty block")?.median;
    }
    Ok(out)
}
