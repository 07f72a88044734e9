//! Section "Floor": the gateway's two in-process doors (the shim's socket,
//! the HTTP hook) next to their physical floor, a bare echo of the same
//! bytes (`floor_echo`), hot (back to back) and cold (an idle gap before
//! each call, as agents leave between tool calls), each figure checked by
//! an independent C client (`floor_native`) in the same run.
//!
//! The socket door has a second reference, a minimal tokio server of the
//! same exchange (`floor_tokio`): the runtime's part, apart from the
//! gateway's own work.
//!
//! Within a regime every round calls the five targets (gateway socket,
//! bare socket, gateway HTTP, bare HTTP, tokio socket) in a new shuffled
//! order, and the bench's chunks alternate with the C client's, so machine
//! noise hits all alike: the ratios are the figures to read.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use hookgate_integration_tests::http_hook::HttpEndpoint;
use hookgate_wire::ReplyFrame as _;

use crate::artifacts::Artifacts;
use crate::floor_echo::{BlockingHttp, HttpEcho, UnixEcho, http_response};
use crate::floor_native::{FloorClient, Target};
use crate::floor_tokio::TokioEcho;
use crate::hook_cost::Shuffle;
use crate::stats::Summary;

/// The idle gaps measured: none, a short pause, an agent between tool
/// calls.
pub(crate) const REGIMES: [Duration; 3] = [
    Duration::ZERO,
    Duration::from_millis(2),
    Duration::from_millis(20),
];
/// The bench's and the C client's chunks alternate this many times per
/// regime.
pub(crate) const CHUNKS: usize = 3;
/// The targets called in each round.
const TARGETS: usize = 5;
/// Discarded calls at the start of each C client run.
const C_WARMUP: usize = 3;

/// The two doors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Door {
    /// A fresh AF_UNIX connection per call, as the shim makes.
    Socket,
    /// One keep-alive loopback connection.
    Http,
}

/// One door in one regime: [gateway, bare] by the bench and by the C
/// client.
#[derive(Debug, Clone)]
pub(crate) struct FloorRow {
    pub(crate) idle: Duration,
    pub(crate) door: Door,
    pub(crate) bench: [Summary; 2],
    pub(crate) c: [Summary; 2],
    /// The socket door's minimal tokio server: [bench, C client].
    pub(crate) runtime: Option<[Summary; 2]>,
}

/// The section's results.
#[derive(Debug, Clone)]
pub(crate) struct Floor {
    pub(crate) rows: Vec<FloorRow>,
    pub(crate) c_build: String,
    /// Times the bench's keep-alive connection to the gateway was found
    /// closed (idle past its read deadline while the C client ran) and
    /// reopened, untimed.
    pub(crate) reconnects: usize,
    pub(crate) load_at_start: String,
    pub(crate) load_at_end: String,
}

/// What the five targets are, in one place.
struct Targets {
    gateway_socket: std::path::PathBuf,
    echo: UnixEcho,
    tokio_echo: TokioEcho,
    endpoint: HttpEndpoint,
    http_echo: HttpEcho,
    frame: Vec<u8>,
    http_request: Vec<u8>,
}

pub(crate) fn run(artifacts: &Artifacts, runs: usize, payload: &[u8]) -> anyhow::Result<Floor> {
    let load_at_start = crate::machine::Machine::load_now();
    let (gateway, endpoint) = crate::http_hook::start(artifacts)?;
    let frame = crate::client::request_frame(payload);
    let socket = gateway.socket().to_path_buf();
    let reply = crate::client::call_blocking(&socket, &frame).context("the gateway's reply")?;
    let http_request = http_request(&endpoint, payload);
    let mut gateway_http = connect_retrying(&endpoint)?;
    let body = gateway_http
        .call(&http_request)
        .context("the gateway's HTTP answer")?;
    let targets = Targets {
        gateway_socket: socket,
        echo: UnixEcho::start(reply.encode())?,
        tokio_echo: TokioEcho::start(reply.encode())?,
        http_echo: HttpEcho::start(http_response(&body))?,
        endpoint,
        frame,
        http_request,
    };
    let client = FloorClient::build(&targets.frame, &targets.http_request)?;
    let mut http = [
        gateway_http,
        BlockingHttp::connect(targets.http_echo.addr())?,
    ];
    let mut reconnects = 0;
    let mut rows = Vec::new();
    for idle in REGIMES {
        let mut bench = vec![Vec::new(); TARGETS];
        let mut c = vec![Vec::new(); TARGETS];
        let chunk = runs.div_ceil(CHUNKS).max(1);
        let mut order = Shuffle::new(TARGETS);
        for index in 0..CHUNKS {
            let warmup = if index == 0 { C_WARMUP } else { 0 };
            for round in 0..warmup + chunk {
                for &target in order.next_round() {
                    sleep(idle);
                    let elapsed = call(&targets, &mut http, target, &mut reconnects)?;
                    if round >= warmup {
                        bench[target].push(elapsed);
                    }
                }
            }
            let c_targets = [
                Target::Unix(targets.gateway_socket.clone()),
                Target::Unix(targets.echo.socket().to_path_buf()),
                Target::Http(targets.endpoint.addr.port()),
                Target::Http(targets.http_echo.addr().port()),
                Target::Unix(targets.tokio_echo.socket().to_path_buf()),
            ];
            client.run(&c_targets, (chunk, C_WARMUP, idle), &mut c)?;
            eprintln!(
                "hookbench: floor: {} ms idle, chunk {}/{CHUNKS}",
                idle.as_millis(),
                index + 1
            );
        }
        let summary = |series: &[Duration]| Summary::of(series).context("no floor samples");
        for (door, at) in [(Door::Socket, 0), (Door::Http, 2)] {
            rows.push(FloorRow {
                idle,
                door,
                bench: [summary(&bench[at])?, summary(&bench[at + 1])?],
                c: [summary(&c[at])?, summary(&c[at + 1])?],
                runtime: match door {
                    Door::Socket => Some([summary(&bench[4])?, summary(&c[4])?]),
                    Door::Http => None,
                },
            });
        }
    }
    drop(gateway);
    Ok(Floor {
        rows,
        c_build: client.build.clone(),
        reconnects,
        load_at_start,
        load_at_end: crate::machine::Machine::load_now(),
    })
}

/// One timed call to target `index` (0 gateway socket, 1 bare socket, 2
/// gateway HTTP, 3 bare HTTP, 4 tokio socket); a keep-alive connection
/// found closed is reopened untimed, as an agent's client would.
fn call(
    targets: &Targets,
    http: &mut [BlockingHttp; 2],
    index: usize,
    reconnects: &mut usize,
) -> anyhow::Result<Duration> {
    let socket = match index {
        0 => Some(targets.gateway_socket.as_path()),
        1 => Some(targets.echo.socket()),
        4 => Some(targets.tokio_echo.socket()),
        _ => None,
    };
    if let Some(socket) = socket {
        let start = Instant::now();
        crate::client::call_blocking(socket, &targets.frame)
            .with_context(|| format!("floor call to {}", socket.display()))?;
        return Ok(start.elapsed());
    }
    let which = index - 2;
    let start = Instant::now();
    if http[which].call(&targets.http_request).is_ok() {
        return Ok(start.elapsed());
    }
    let addr = [targets.endpoint.addr, targets.http_echo.addr()][which];
    http[which] = BlockingHttp::connect(addr)?;
    *reconnects += 1;
    let start = Instant::now();
    http[which]
        .call(&targets.http_request)
        .context("floor HTTP call")?;
    Ok(start.elapsed())
}

fn sleep(idle: Duration) {
    if !idle.is_zero() {
        std::thread::sleep(idle);
    }
}

/// The whole request an agent's HTTP hook sends (what `HttpClient` sends).
fn http_request(endpoint: &HttpEndpoint, payload: &[u8]) -> Vec<u8> {
    let mut bytes = format!(
        "POST /hook/claude-code HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\nauthorization: Bearer {}\r\n\r\n",
        payload.len(),
        endpoint.token
    )
    .into_bytes();
    bytes.extend_from_slice(payload);
    bytes
}

/// The endpoint's first connection, retried until it listens.
fn connect_retrying(endpoint: &HttpEndpoint) -> anyhow::Result<BlockingHttp> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match BlockingHttp::connect(endpoint.addr) {
            Ok(client) => return Ok(client),
            Err(err) if Instant::now() > deadline => return Err(err),
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}
