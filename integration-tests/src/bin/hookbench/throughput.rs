//! Section 3: events per second through the gateway's Unix socket, with
//! many concurrent in-process clients (no process spawn), for 0, 1 and 4
//! no-op gRPC subscribers.
//!
//! Beside them, the floor of the same load (issue 33): the minimal tokio
//! server of section 1c, alone and asking the same subscriber over the same
//! transport (`floor_forward`) before each reply. What the gateway adds to
//! its floor is its own work per event.
//!
//! The gateways and floors run at once and are loaded in turns of equal
//! slices, round-robin, so a burst of noise from the rest of the machine
//! lands on all of them rather than on one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use tokio::runtime::Runtime;

use hookgate_wire::ReplyFrame as _;

use crate::artifacts::Artifacts;
use crate::client;
use crate::floor_tokio::TokioEcho;
use crate::gateway::{Decider, Gateway, config_toml, cpu_time};
use crate::options::Sizes;
use crate::subscriber::BenchSubscriber;

/// The configurations measured: (no-op subscribers, over a Unix socket
/// rather than TCP). The issue asks for 0, 1 and 4 over gRPC; one over a
/// `unix://` endpoint shows what the TCP loopback stack costs.
pub(crate) const CONFIGS: [(usize, bool); 4] = [(0, false), (1, false), (1, true), (4, false)];
/// The floors measured beside them: (subscribers, over `unix://`).
const FLOORS: [(usize, bool); 3] = [(0, false), (1, false), (1, true)];

/// One configuration's throughput.
#[derive(Debug, Clone)]
pub(crate) struct Rate {
    /// The minimal tokio server, not a gateway.
    pub(crate) floor: bool,
    pub(crate) subscribers: usize,
    /// The subscriber listens on a Unix socket (`unix://`), not TCP.
    pub(crate) unix: bool,
    pub(crate) events: u64,
    pub(crate) elapsed: Duration,
    /// Events/s of each slice, sorted.
    pub(crate) slice_rates: Vec<f64>,
    /// CPU time the server (the gateway, or the floor's runtime threads)
    /// and the rest of the bench process (clients and the in-process
    /// subscribers) used over the measured slices.
    pub(crate) server_cpu: Duration,
    pub(crate) bench_cpu: Duration,
}

impl Rate {
    /// Events/s over all measured slices.
    pub(crate) fn overall(&self) -> f64 {
        self.events as f64 / self.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    /// CPU µs per event: (server, bench).
    pub(crate) fn cpu_per_event_us(&self) -> (f64, f64) {
        let per = |d: Duration| d.as_secs_f64() * 1e6 / (self.events.max(1) as f64);
        (per(self.server_cpu), per(self.bench_cpu))
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
    /// A gateway's rate.
    pub(crate) fn with(&self, subscribers: usize, unix: bool) -> Option<&Rate> {
        self.find(false, subscribers, unix)
    }

    /// The floor's rate for the same load.
    pub(crate) fn floor(&self, subscribers: usize, unix: bool) -> Option<&Rate> {
        self.find(true, subscribers, unix)
    }

    fn find(&self, floor: bool, subscribers: usize, unix: bool) -> Option<&Rate> {
        self.rates.iter().find(|r| {
            r.floor == floor && r.subscribers == subscribers && (r.unix == unix || subscribers == 0)
        })
    }
}

/// What one row loads: a gateway process, or a floor in the bench's own.
enum Server {
    Gateway(Gateway),
    Floor(TokioEcho),
}

impl Server {
    fn socket(&self) -> &std::path::Path {
        match self {
            Server::Gateway(gateway) => gateway.socket(),
            Server::Floor(floor) => floor.socket(),
        }
    }

    /// The server's CPU time so far, and the rest of the bench's.
    fn cpu(&self) -> anyhow::Result<(Duration, Duration)> {
        let bench = cpu_time("self")?;
        Ok(match self {
            Server::Gateway(gateway) => (cpu_time(&gateway.pid().to_string())?, bench),
            Server::Floor(floor) => {
                let floor = floor.cpu_time()?;
                (floor, bench.saturating_sub(floor))
            }
        })
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
    let mut servers = CONFIGS
        .iter()
        .map(|&(n, over_unix)| {
            let deciders: Vec<Decider> = if over_unix {
                vec![decider(&unix)]
            } else {
                tcp[..n].iter().map(decider).collect()
            };
            Gateway::start(&artifacts.gateway, &config_toml(&deciders)).map(Server::Gateway)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let frame = client::request_frame(payload);
    for &(n, over_unix) in &FLOORS {
        // The reply of the gateway with the same subscribers, byte for byte.
        let like = CONFIGS
            .iter()
            .position(|&c| c == (n, over_unix))
            .context("a floor without its gateway")?;
        let reply = client::call_blocking(servers[like].socket(), &frame)
            .context("the gateway's reply")?
            .encode();
        let floor = match (n, over_unix) {
            (0, _) => TokioEcho::start(reply)?,
            (_, true) => TokioEcho::forwarding(reply, unix.endpoint())?,
            (_, false) => TokioEcho::forwarding(reply, tcp[0].endpoint())?,
        };
        servers.push(Server::Floor(floor));
    }
    let frames = Arc::new(vec![frame]);
    let clients = sizes.throughput_clients;

    let mut rates: Vec<Rate> = CONFIGS
        .iter()
        .map(|&c| (false, c))
        .chain(FLOORS.iter().map(|&c| (true, c)))
        .map(|(floor, (n, unix))| Rate {
            floor,
            subscribers: n,
            unix,
            events: 0,
            elapsed: Duration::ZERO,
            slice_rates: Vec::new(),
            server_cpu: Duration::ZERO,
            bench_cpu: Duration::ZERO,
        })
        .collect();
    // One unmeasured warm-up slice each (connections, allocator, caches).
    for round in 0..=sizes.throughput_slices {
        for i in 0..servers.len() {
            let slot = (round + i) % servers.len();
            let (server_cpu, bench_cpu) = servers[slot].cpu()?;
            let (events, elapsed) = runtime.block_on(slice(
                servers[slot].socket(),
                &frames,
                clients,
                sizes.throughput_slice,
            ))?;
            if round > 0 {
                let rate = &mut rates[slot];
                let (server_after, bench_after) = servers[slot].cpu()?;
                rate.server_cpu += server_after.saturating_sub(server_cpu);
                rate.bench_cpu += bench_after.saturating_sub(bench_cpu);
                rate.events += events;
                rate.elapsed += elapsed;
                rate.slice_rates
                    .push(events as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE));
            }
        }
    }
    for (server, rate) in servers.iter_mut().zip(&mut rates) {
        if let Server::Gateway(gateway) = server {
            gateway.check_alive()?;
        }
        rate.slice_rates.sort_by(f64::total_cmp);
    }
    Ok(Throughput { clients, rates })
}

/// Loads the server at `socket` with `clients` concurrent clients for
/// `duration`.
async fn slice(
    socket: &std::path::Path,
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
    let events = client::load(socket, Arc::clone(frames), clients, None, stop)
        .await
        .context("throughput load")?;
    let elapsed = start.elapsed();
    timer.abort();
    Ok((events, elapsed))
}
