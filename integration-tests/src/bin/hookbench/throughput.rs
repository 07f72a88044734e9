//! Section 3: events per second through the gateway's Unix socket, with
//! many concurrent in-process clients (no process spawn), for 0, 1 and 4
//! no-op gRPC subscribers.
//!
//! The three gateways run at once and are loaded in turns of equal slices,
//! round-robin, so a burst of noise from the rest of the machine lands on
//! all of them rather than on one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::client;
use crate::gateway::{Decider, Gateway, config_toml, cpu_time};
use crate::options::Sizes;
use crate::subscriber::BenchSubscriber;

/// The configurations measured: (no-op subscribers, over a Unix socket
/// rather than TCP). The issue asks for 0, 1 and 4 over gRPC; one over a
/// `unix://` endpoint shows what the TCP loopback stack costs.
pub(crate) const CONFIGS: [(usize, bool); 4] = [(0, false), (1, false), (1, true), (4, false)];

/// One configuration's throughput.
#[derive(Debug, Clone)]
pub(crate) struct Rate {
    pub(crate) subscribers: usize,
    /// The subscriber listens on a Unix socket (`unix://`), not TCP.
    pub(crate) unix: bool,
    pub(crate) events: u64,
    pub(crate) elapsed: Duration,
    /// Events/s of each slice, sorted.
    pub(crate) slice_rates: Vec<f64>,
    /// CPU time the gateway and the bench process (clients and the
    /// in-process subscribers) used over the measured slices.
    pub(crate) gateway_cpu: Duration,
    pub(crate) bench_cpu: Duration,
}

impl Rate {
    /// Events/s over all measured slices.
    pub(crate) fn overall(&self) -> f64 {
        self.events as f64 / self.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    /// CPU µs per event: (gateway, bench).
    pub(crate) fn cpu_per_event_us(&self) -> (f64, f64) {
        let per = |d: Duration| d.as_secs_f64() * 1e6 / (self.events.max(1) as f64);
        (per(self.gateway_cpu), per(self.bench_cpu))
    }

    pub(crate) fn median_slice(&self) -> f64 {
        self.slice_rates
            .get(self.slice_rates.len() / 2)
            .copied()
            .unwrap_or(0.0)
    }
}

/// Section 3's results.
#[derive(Debug, Clone)]
pub(crate) struct Throughput {
    pub(crate) clients: usize,
    pub(crate) rates: Vec<Rate>,
}

impl Throughput {
    pub(crate) fn with(&self, subscribers: usize, unix: bool) -> Option<&Rate> {
        self.rates
            .iter()
            .find(|r| r.subscribers == subscribers && r.unix == unix)
    }
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<Throughput> {
    let max = CONFIGS.iter().map(|c| c.0).max().unwrap_or(0);
    let tcp = runtime.block_on(BenchSubscriber::start_many(max))?;
    let unix = runtime.block_on(BenchSubscriber::start_unix())?;
    let decider = |s: &BenchSubscriber| Decider {
        endpoint: s.endpoint().to_owned(),
        timeout: Duration::from_millis(1000),
    };
    let mut gateways = CONFIGS
        .iter()
        .map(|&(n, over_unix)| {
            let deciders: Vec<Decider> = if over_unix {
                vec![decider(&unix)]
            } else {
                tcp[..n].iter().map(decider).collect()
            };
            Gateway::start(&artifacts.gateway, &config_toml(&deciders))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let frames = Arc::new(vec![client::request_frame(payload)]);
    let clients = sizes.throughput_clients;

    let mut rates: Vec<Rate> = CONFIGS
        .iter()
        .map(|&(n, unix)| Rate {
            subscribers: n,
            unix,
            events: 0,
            elapsed: Duration::ZERO,
            slice_rates: Vec::new(),
            gateway_cpu: Duration::ZERO,
            bench_cpu: Duration::ZERO,
        })
        .collect();
    // One unmeasured warm-up slice each (connections, allocator, caches).
    for round in 0..=sizes.throughput_slices {
        for i in 0..gateways.len() {
            let slot = (round + i) % gateways.len();
            let pid = gateways[slot].pid().to_string();
            let (gateway_cpu, bench_cpu) = (cpu_time(&pid)?, cpu_time("self")?);
            let (events, elapsed) = runtime.block_on(slice(
                &gateways[slot],
                &frames,
                clients,
                sizes.throughput_slice,
            ))?;
            if round > 0 {
                let rate = &mut rates[slot];
                rate.gateway_cpu += cpu_time(&pid)?.saturating_sub(gateway_cpu);
                rate.bench_cpu += cpu_time("self")?.saturating_sub(bench_cpu);
                rate.events += events;
                rate.elapsed += elapsed;
                rate.slice_rates
                    .push(events as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE));
            }
        }
    }
    for (gateway, rate) in gateways.iter_mut().zip(&mut rates) {
        gateway.check_alive()?;
        rate.slice_rates.sort_by(f64::total_cmp);
    }
    Ok(Throughput { clients, rates })
}

/// Loads `gateway` with `clients` concurrent clients for `duration`.
async fn slice(
    gateway: &Gateway,
    frames: &Arc<Vec<Vec<u8>>>,
    clients: usize,
    duration: Duration,
) -> anyhow::Result<(u64, Duration)> {
    let stop = Arc::new(AtomicBool::new(false));
    let timer = {
        let stop = Arc::clone(&stop);
        tokio::spawn(async move {
            tokio::time::sleep(duration).await;
            stop.store(true, Ordering::Relaxed);
        })
    };
    let start = Instant::now();
    let events = client::load(gateway.socket(), Arc::clone(frames), clients, None, stop)
        .await
        .context("throughput load")?;
    let elapsed = start.elapsed();
    timer.abort();
    Ok((events, elapsed))
}
