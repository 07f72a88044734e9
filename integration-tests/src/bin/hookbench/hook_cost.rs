//! Section 1: what one hook call costs the agent, whole process, side by
//! side. Every variant answers the same Claude Code `PreToolUse` payload,
//! spawned as an agent spawns it (`spawn`); the variants run round-robin in
//! one loop (in a new shuffled order each round) so machine noise hits
//! all of them alike. The same binaries are then timed by an independent C
//! loop (`native`) to check the figures.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::baselines::{HookCommand, Scripts};
use crate::breaker_open::{
    BREAKER_COOLDOWN, BREAKER_FAILURES, BreakerSeen, breaker_seen, open_breaker,
};
use crate::gateway::{Decider, Gateway, Memory, config_toml};
use crate::http_stub::HttpStub;
use crate::native::Native;
use crate::options::Sizes;
use crate::spawn::{Expect, HookIo, run_once};
use crate::stats::Summary;
use crate::subscriber::BenchSubscriber;
use hookgate_integration_tests::http_hook::HttpEndpoint;

/// One measured hook variant.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// (a) .. (f) as in the benchmarks issue, then the references.
    pub(crate) key: char,
    pub(crate) label: &'static str,
    pub(crate) summary: Summary,
    /// The independent C loop's median of the same command, if spawned.
    pub(crate) independent: Option<Duration>,
}

/// Section 1's results.
#[derive(Debug, Clone)]
pub(crate) struct HookCost {
    pub(crate) rows: Vec<Row>,
    pub(crate) tool_versions: Vec<String>,
    /// The no-subscriber gateway right after startup, before any event.
    pub(crate) idle_memory: Memory,
    pub(crate) cc_version: String,
    pub(crate) noop_build: String,
    /// Rounds of the independent loop.
    pub(crate) independent_runs: usize,
    /// The breaker-open gateway's subscriber status after the loop.
    pub(crate) breaker: BreakerSeen,
    /// Times (k)'s keep-alive connection had been closed (idle) and was
    /// reopened, untimed.
    pub(crate) http_reconnects: usize,
}

impl HookCost {
    pub(crate) fn median(&self, key: char) -> Option<Duration> {
        self.rows
            .iter()
            .find(|r| r.key == key)
            .map(|r| r.summary.median)
    }
}

/// How a variant is run.
#[derive(Debug, Clone)]
enum Kind {
    /// Spawned like an agent spawns a hook.
    Process(HookCommand),
    /// Reference only: the same request sent by the bench itself over the
    /// gateway's socket, no process spawned.
    InProcess(std::path::PathBuf),
    /// The HTTP hook: no process, the payload POSTed by the bench's
    /// keep-alive client (an agent's `type: "http"` hook).
    Http,
}

struct Variant {
    key: char,
    label: &'static str,
    kind: Kind,
    expect: Expect,
    samples: Vec<Duration>,
}

/// The gateways, subscribers and scripts the variants talk to; dropped
/// (stopped) when the section ends.
struct Peers {
    stub: HttpStub,
    subscriber: BenchSubscriber,
    bare: Gateway,
    /// Like `bare`, for (h) alone: its calls must not warm (a)'s gateway.
    reference: Gateway,
    with_sub: Gateway,
    /// Its only subscriber was killed; its breaker is open.
    breaker: Gateway,
    scripts: Scripts,
    /// Serves HTTP hooks, no subscribers.
    http: (Gateway, HttpEndpoint),
    _dir: tempfile::TempDir,
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    sizes: &Sizes,
    (payload, payload_path): (&[u8], &Path),
) -> anyhow::Result<HookCost> {
    let native = Native::build()?;
    let mut io = HookIo::open(payload_path)?;
    let peers = start_peers(runtime, artifacts, &mut io)?;
    let idle_memory = peers.bare.memory()?;
    let mut variants = variants(artifacts, &native, &peers);
    let frame = crate::client::request_frame(payload);
    let endpoint = &peers.http.1;
    let mut http = runtime.block_on(crate::http_hook::connect(endpoint.addr))?;
    let mut http_reconnects = 0;

    let spawned: Vec<(char, HookCommand)> = variants
        .iter()
        .filter_map(|v| match &v.kind {
            Kind::Process(command) => Some((v.key, command.clone())),
            Kind::InProcess(_) | Kind::Http => None,
        })
        .collect();
    let spawned: Vec<(char, &HookCommand)> = spawned.iter().map(|(k, c)| (*k, c)).collect();
    let mut independent = vec![Vec::new(); spawned.len()];

    // The C loop runs between chunks of this loop, so both see the same
    // stretches of a drifting machine.
    let rounds = sizes.hook_warmup + sizes.hook_runs;
    let chunk = sizes.hook_runs.div_ceil(CHUNKS).max(1);
    let mut order = Shuffle::new(variants.len());
    for round in 0..rounds {
        for &index in order.next_round() {
            let variant = &mut variants[index];
            let elapsed = match &variant.kind {
                Kind::Process(command) => run_once(&mut io, command, variant.expect),
                Kind::InProcess(socket) => {
                    let start = Instant::now();
                    runtime
                        .block_on(crate::client::call(socket, &frame))
                        .map(|_| start.elapsed())
                }
                Kind::Http => {
                    let timed = |http: &mut _| {
                        let start = Instant::now();
                        runtime
                            .block_on(crate::http_hook::call(http, endpoint, payload))
                            .map(|()| start.elapsed())
                    };
                    // The gateway closes a keep-alive connection idle past
                    // its read deadline (the C loop's chunks take longer):
                    // reconnect, untimed, as an agent's client would.
                    timed(&mut http).or_else(|_| {
                        http = runtime.block_on(crate::http_hook::connect(endpoint.addr))?;
                        http_reconnects += 1;
                        timed(&mut http)
                    })
                }
            }
            .with_context(|| format!("({}) {}", variant.key, variant.label))?;
            if round >= sizes.hook_warmup {
                variant.samples.push(elapsed);
            }
        }
        let measured = (round + 1).saturating_sub(sizes.hook_warmup);
        if measured > 0 && (measured % chunk == 0 || round + 1 == rounds) {
            crate::crosscheck::run(
                &native,
                payload_path,
                &spawned,
                (chunk, INDEPENDENT_WARMUP),
                &mut independent,
            )?;
            eprintln!(
                "hookbench: hook cost: round {}/{rounds}, then the C loop",
                round + 1
            );
        }
    }
    let independent_runs = independent.first().map_or(0, Vec::len);
    verify(&peers, rounds)?;
    let breaker = breaker_seen(&peers.breaker)?;

    let rows = variants
        .into_iter()
        .map(|v| {
            let summary = Summary::of(&v.samples).context("no samples")?;
            Ok(Row {
                key: v.key,
                label: v.label,
                summary,
                independent: spawned
                    .iter()
                    .position(|(key, _)| *key == v.key)
                    .and_then(|i| Summary::of(&independent[i]))
                    .map(|s| s.median),
            })
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(HookCost {
        rows,
        tool_versions: peers.scripts.versions.clone(),
        idle_memory,
        cc_version: native.cc_version.clone(),
        noop_build: native.noop_build.clone(),
        independent_runs,
        breaker,
        http_reconnects,
    })
}

/// The C loop runs after each of this many chunks of the bench's loop.
const CHUNKS: usize = 6;
/// Discarded rounds at the start of each C loop call.
const INDEPENDENT_WARMUP: usize = 3;

fn start_peers(runtime: &Runtime, artifacts: &Artifacts, io: &mut HookIo) -> anyhow::Result<Peers> {
    let stub = runtime.block_on(HttpStub::start())?;
    let subscriber = runtime.block_on(BenchSubscriber::start())?;
    let bare = Gateway::start(&artifacts.gateway, &config_toml(&[]))?;
    let reference = Gateway::start(&artifacts.gateway, &config_toml(&[]))?;
    let decider = |endpoint: &str| Decider {
        endpoint: endpoint.to_owned(),
        timeout: Duration::from_millis(1000),
    };
    let with_sub = Gateway::start(
        &artifacts.gateway,
        &config_toml(&[decider(subscriber.endpoint())]),
    )?;
    // A subscriber on a thread of its own, so that stopping it closes its
    // connections too (as killing its process would).
    let doomed = BenchSubscriber::start_delayed(Duration::ZERO)?;
    let breaker_toml = format!(
        "{}breaker_failures = {BREAKER_FAILURES}\nbreaker_cooldown_ms = {}\n",
        config_toml(&[decider(doomed.endpoint())]),
        BREAKER_COOLDOWN.as_millis()
    );
    let breaker = Gateway::start(&artifacts.gateway, &breaker_toml)?;
    let http = crate::http_hook::start(artifacts)?;
    let dir = tempfile::tempdir().context("creating the scripts directory")?;
    let scripts = Scripts::write(dir.path(), stub.port())?;
    open_breaker(io, &shim_command(artifacts, &breaker), &breaker, doomed)?;
    Ok(Peers {
        stub,
        subscriber,
        bare,
        reference,
        with_sub,
        breaker,
        scripts,
        http,
        _dir: dir,
    })
}

/// The shims fail closed: a call that misses the gateway denies, and
/// `run_once` rejects denies, so no fallback can pass for an answer.
fn shim_command(artifacts: &Artifacts, gateway: &Gateway) -> HookCommand {
    HookCommand {
        program: artifacts.shim.clone(),
        args: vec!["claude-code".to_owned()],
        env: vec![
            (
                "HOOKGATE_SOCKET".to_owned(),
                gateway.socket().display().to_string(),
            ),
            ("HOOKGATE_FAIL".to_owned(), "closed".to_owned()),
        ],
    }
}

fn variants(artifacts: &Artifacts, native: &Native, peers: &Peers) -> Vec<Variant> {
    let plain = |program: &Path, args: &[&str]| HookCommand {
        program: program.to_path_buf(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        env: Vec::new(),
    };
    let scripts = &peers.scripts;
    vec![
        variant(
            'c',
            "spawn /bin/true (the floor)",
            plain(Path::new("/bin/true"), &[]),
            Expect::Nothing,
        ),
        variant(
            'i',
            "reference: spawn a static C no-op",
            plain(&native.noop, &[]),
            Expect::Nothing,
        ),
        variant(
            'g',
            "reference: spawn gateway-shim --version (no call)",
            plain(&artifacts.shim, &["--version"]),
            Expect::Version,
        ),
        variant(
            'a',
            "gateway-shim → gateway, no subscribers",
            shim_command(artifacts, &peers.bare),
            Expect::GatewayAllow,
        ),
        variant(
            'j',
            "gateway-shim → gateway, 1 subscriber killed (breaker open)",
            shim_command(artifacts, &peers.breaker),
            Expect::GatewayAllow,
        ),
        variant(
            'b',
            "gateway-shim → gateway → 1 gRPC subscriber",
            shim_command(artifacts, &peers.with_sub),
            Expect::GatewayAllow,
        ),
        variant(
            'd',
            "bash + jq + curl → local HTTP",
            scripts.bash.clone(),
            Expect::StubReply,
        ),
        variant(
            'e',
            "node → local HTTP",
            scripts.node.clone(),
            Expect::StubReply,
        ),
        variant(
            'f',
            "python → local HTTP",
            scripts.python.clone(),
            Expect::StubReply,
        ),
        Variant {
            key: 'k',
            label: "HTTP hook: the payload POSTed to the gateway by a keep-alive client, no process",
            kind: Kind::Http,
            expect: Expect::GatewayAllow,
            samples: Vec::new(),
        },
        Variant {
            key: 'h',
            label: "reference: (a)'s request sent by the bench, no spawn",
            kind: Kind::InProcess(peers.reference.socket().to_path_buf()),
            expect: Expect::GatewayAllow,
            samples: Vec::new(),
        },
    ]
}

fn variant(key: char, label: &'static str, command: HookCommand, expect: Expect) -> Variant {
    Variant {
        key,
        label,
        kind: Kind::Process(command),
        expect,
        samples: Vec::new(),
    }
}

/// Checks every call really took the measured path: no shim fell back,
/// the subscriber and the HTTP stub answered every round.
fn verify(peers: &Peers, rounds: usize) -> anyhow::Result<()> {
    for gateway in [&peers.bare, &peers.with_sub, &peers.breaker] {
        if let Some(record) = gateway.fallback_record() {
            bail!("some shim calls fell back instead of reaching the gateway:\n{record}");
        }
    }
    let rounds = rounds as u64;
    let over_http = peers.http.0.pre_tool_events()?;
    if over_http < rounds {
        bail!("the HTTP endpoint answered {over_http} of {rounds} hook calls");
    }
    if peers.subscriber.calls() < rounds {
        bail!(
            "the subscriber answered {} of {rounds} events",
            peers.subscriber.calls()
        );
    }
    if peers.stub.requests() < 3 * rounds {
        bail!(
            "the HTTP stub got {} of {} requests",
            peers.stub.requests(),
            3 * rounds
        );
    }
    Ok(())
}

/// A new order of the variants every round (Fisher-Yates over a fixed-seed
/// LCG, so runs are repeatable). A fixed cyclic order gave every variant a
/// fixed predecessor, and its aftermath: (g) always ran right after the
/// python hook, (a) right after (h) had just called (a)'s gateway.
#[derive(Debug)]
pub(crate) struct Shuffle {
    order: Vec<usize>,
    seed: u32,
}

impl Shuffle {
    pub(crate) fn new(count: usize) -> Shuffle {
        Shuffle {
            order: (0..count).collect(),
            seed: 0x9e37_79b9,
        }
    }

    pub(crate) fn next_round(&mut self) -> &[usize] {
        for k in (1..self.order.len()).rev() {
            self.seed = self.seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let j = (self.seed >> 8) as usize % (k + 1);
            self.order.swap(k, j);
        }
        &self.order
    }
}
