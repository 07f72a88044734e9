//! Section: the gateway's HTTP hook endpoint (`[http]`), called the way an
//! agent's `type: "http"` hook calls it, with no process at all: one
//! keep-alive client POSTing the sample payload with the token (latency
//! of one hook, no subscribers), then many keep-alive clients at once
//! (throughput). Each request is checked for a 200 and a JSON body.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use hookgate_integration_tests::http_hook::{HttpClient, HttpEndpoint};
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::gateway::{Gateway, config_toml};
use crate::options::Sizes;
use crate::stats::{Summary, ms};

/// The route the sample (a Claude Code `PreToolUse`) is posted to.
const ROUTE: &str = "/hook/claude-code";
/// How long the endpoint may take to accept its first connection.
const CONNECT_DEADLINE: Duration = Duration::from_secs(10);
/// The goal the issue sets: clooks answers Claude Code's HTTP hooks in
/// 0.31 ms.
pub(crate) const GOAL: Duration = Duration::from_micros(310);

/// What the section measured.
#[derive(Debug, Clone)]
pub(crate) struct HttpHook {
    /// One hook's round trip on a warm keep-alive connection.
    pub(crate) latency: Summary,
    pub(crate) clients: usize,
    pub(crate) events: u64,
    pub(crate) elapsed: Duration,
}

impl HttpHook {
    pub(crate) fn rate(&self) -> f64 {
        self.events as f64 / self.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<HttpHook> {
    let (_gateway, endpoint) = start(artifacts)?;
    runtime.block_on(async {
        let latency = latency(&endpoint, sizes, payload).await?;
        let (events, elapsed) = throughput(&endpoint, sizes, payload).await?;
        Ok(HttpHook {
            latency,
            clients: sizes.throughput_clients,
            events,
            elapsed,
        })
    })
}

/// A no-subscriber gateway serving HTTP hooks on a free loopback port, and
/// its endpoint (address and token).
pub(crate) fn start(artifacts: &Artifacts) -> anyhow::Result<(Gateway, HttpEndpoint)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .context("finding a free port")?
        .port();
    let config = format!(
        "{}\n[http]\nlisten = \"127.0.0.1:{port}\"\nmax_open_connections = 1024\n",
        config_toml(&[])
    );
    let gateway = Gateway::start(&artifacts.gateway, &config)?;
    let token_path = gateway
        .socket()
        .parent()
        .context("the socket has a directory")?
        .join("http.token");
    // The socket answers before the HTTP endpoint is up, and the token
    // file is created before it is written: wait for a token in it.
    let deadline = Instant::now() + CONNECT_DEADLINE;
    let token = loop {
        let read = std::fs::read_to_string(&token_path);
        match read.as_deref().map(str::trim) {
            Ok(token) if !token.is_empty() => break token.to_owned(),
            _ if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                read.with_context(|| format!("reading {}", token_path.display()))?;
                anyhow::bail!("{} stayed empty", token_path.display());
            }
        }
    };
    let endpoint = HttpEndpoint {
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
        token,
    };
    Ok((gateway, endpoint))
}

/// A connection, retried until the endpoint listens.
pub(crate) async fn connect(addr: SocketAddr) -> anyhow::Result<HttpClient> {
    let deadline = Instant::now() + CONNECT_DEADLINE;
    loop {
        match HttpClient::connect(addr).await {
            Ok(client) => return Ok(client),
            Err(err) if Instant::now() > deadline => {
                bail!("the HTTP endpoint {addr} did not accept: {err}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

/// One hook call, checked.
pub(crate) async fn call(
    client: &mut HttpClient,
    endpoint: &HttpEndpoint,
    payload: &[u8],
) -> anyhow::Result<()> {
    let response = client.post_hook(endpoint, ROUTE, payload).await?;
    ensure!(
        response.status == 200 && response.body.first() == Some(&b'{'),
        "unexpected answer {}: {}",
        response.status,
        response.text()
    );
    Ok(())
}

async fn latency(
    endpoint: &HttpEndpoint,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<Summary> {
    let mut client = connect(endpoint.addr).await?;
    for _ in 0..sizes.hook_warmup {
        call(&mut client, endpoint, payload).await?;
    }
    let mut samples = Vec::with_capacity(sizes.hook_runs * 10);
    // Ten times the command hook's runs: a call costs far less than a spawn.
    for _ in 0..sizes.hook_runs * 10 {
        let started = Instant::now();
        call(&mut client, endpoint, payload).await?;
        samples.push(started.elapsed());
    }
    Summary::of(&samples).context("no latency samples")
}

async fn throughput(
    endpoint: &HttpEndpoint,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<(u64, Duration)> {
    let stop = Arc::new(AtomicBool::new(false));
    let events = Arc::new(AtomicU64::new(0));
    let mut clients = Vec::with_capacity(sizes.throughput_clients);
    for _ in 0..sizes.throughput_clients {
        let mut client = connect(endpoint.addr).await?;
        let (endpoint, payload) = (endpoint.clone(), payload.to_vec());
        let (stop, events) = (Arc::clone(&stop), Arc::clone(&events));
        clients.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                call(&mut client, &endpoint, &payload).await?;
                events.fetch_add(1, Ordering::Relaxed);
            }
            anyhow::Ok(())
        }));
    }
    // A short warm-up, then the measured window.
    tokio::time::sleep(sizes.throughput_slice / 4).await;
    let before = events.load(Ordering::Relaxed);
    let started = Instant::now();
    let window = sizes.throughput_slice * u32::try_from(sizes.throughput_slices).unwrap_or(1);
    tokio::time::sleep(window).await;
    let counted = events.load(Ordering::Relaxed) - before;
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.await.context("an HTTP client task failed")??;
    }
    Ok((counted, elapsed))
}

/// The report's section.
pub(crate) fn section(out: &mut String, http: Option<&HttpHook>) {
    let Some(h) = http else { return };
    let _ = writeln!(out, "## HTTP hook endpoint (no process)\n");
    let _ = writeln!(
        out,
        "The gateway's `[http]` endpoint called as Claude Code's `type: \"http\"` hook calls it: `POST {ROUTE}` with the sample payload and the bearer token, over warm keep-alive loopback connections, no subscribers. Every answer is checked (200, JSON).\n"
    );
    let _ = writeln!(out, "| Measure | Value |\n|---|---|");
    let _ = writeln!(
        out,
        "| One hook, median (ms) | {} |\n| One hook, p95 (ms) | {} |\n| One hook, fastest (ms) | {} |\n| Runs | {} |",
        ms(h.latency.median),
        ms(h.latency.p95),
        ms(h.latency.min),
        h.latency.n
    );
    let _ = writeln!(
        out,
        "| Throughput, {} keep-alive clients (events/s) | {:.0} |\n| Goal (clooks, per HTTP hook, ms) | {} |\n",
        h.clients,
        h.rate(),
        ms(GOAL)
    );
}
