//! Section 1: what one hook call costs the agent, whole process, side by
//! side. Every variant answers the same Claude Code `PreToolUse` payload on
//! stdin; the variants run round-robin in one loop (the starting variant
//! rotates each round) so machine noise hits all of them alike.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::baselines::{HookCommand, Scripts};
use crate::gateway::{Decider, Gateway, Memory, config_toml};
use crate::http_stub::HttpStub;
use crate::options::Sizes;
use crate::stats::Summary;
use crate::subscriber::BenchSubscriber;

/// One measured hook variant.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// (a) .. (f), as in the issue.
    pub(crate) key: char,
    pub(crate) label: &'static str,
    pub(crate) summary: Summary,
}

/// Section 1's results.
#[derive(Debug, Clone)]
pub(crate) struct HookCost {
    pub(crate) rows: Vec<Row>,
    pub(crate) tool_versions: Vec<String>,
    /// The no-subscriber gateway right after startup, before any event.
    pub(crate) idle_memory: Memory,
}

impl HookCost {
    pub(crate) fn median(&self, key: char) -> Option<Duration> {
        self.rows
            .iter()
            .find(|r| r.key == key)
            .map(|r| r.summary.median)
    }
}

/// What a variant's stdout must look like.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// /bin/true: nothing.
    Nothing,
    /// The gateway's allow: exit 0, no deny. The shims run with
    /// `HOOKGATE_FAIL=closed`, so a call that missed the gateway denies.
    GatewayAllow,
    /// The HTTP stub's `{}`.
    StubReply,
    /// `gateway-shim --version`.
    Version,
}

/// How a variant is run.
#[derive(Debug, Clone)]
enum Kind {
    /// Spawned like an agent spawns a hook.
    Process(HookCommand),
    /// Reference only: the same request sent by the bench itself over the
    /// gateway's socket, no process spawned.
    InProcess(std::path::PathBuf),
}

struct Variant {
    key: char,
    label: &'static str,
    kind: Kind,
    expect: Expect,
    samples: Vec<Duration>,
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<HookCost> {
    let stub = runtime.block_on(HttpStub::start())?;
    let subscriber = runtime.block_on(BenchSubscriber::start())?;
    let bare = Gateway::start(&artifacts.gateway, &config_toml(&[]))?;
    let idle_memory = bare.memory()?;
    let with_sub = Gateway::start(
        &artifacts.gateway,
        &config_toml(&[Decider {
            endpoint: subscriber.endpoint().to_owned(),
            timeout: Duration::from_millis(1000),
        }]),
    )?;
    let dir = tempfile::tempdir().context("creating the scripts directory")?;
    let scripts = Scripts::write(dir.path(), stub.port())?;
    // The shims fail closed: a call that misses the gateway denies, and
    // `run_once` rejects denies, so no fallback can pass for an answer.
    let shim = |gateway: &Gateway| HookCommand {
        program: artifacts.shim.clone(),
        args: vec!["claude-code".to_owned()],
        env: vec![
            (
                "HOOKGATE_SOCKET".to_owned(),
                gateway.socket().display().to_string(),
            ),
            ("HOOKGATE_FAIL".to_owned(), "closed".to_owned()),
        ],
    };

    let mut variants = vec![
        variant(
            'a',
            "gateway-shim → gateway, no subscribers",
            shim(&bare),
            Expect::GatewayAllow,
        ),
        variant(
            'b',
            "gateway-shim → gateway → 1 gRPC subscriber",
            shim(&with_sub),
            Expect::GatewayAllow,
        ),
        variant(
            'c',
            "spawn /bin/true (the floor)",
            HookCommand {
                program: "/bin/true".into(),
                args: Vec::new(),
                env: Vec::new(),
            },
            Expect::Nothing,
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
        variant(
            'g',
            "reference: spawn gateway-shim --version (no call)",
            HookCommand {
                program: artifacts.shim.clone(),
                args: vec!["--version".to_owned()],
                env: Vec::new(),
            },
            Expect::Version,
        ),
        Variant {
            key: 'h',
            label: "reference: (a)'s request sent by the bench, no spawn",
            kind: Kind::InProcess(bare.socket().to_path_buf()),
            expect: Expect::GatewayAllow,
            samples: Vec::new(),
        },
    ];
    let frame = crate::client::request_frame(payload);

    let rounds = sizes.hook_warmup + sizes.hook_runs;
    for round in 0..rounds {
        let count = variants.len();
        for i in 0..count {
            let variant = &mut variants[(round + i) % count];
            let elapsed = match &variant.kind {
                Kind::Process(command) => run_once(command, variant.expect, payload),
                Kind::InProcess(socket) => {
                    let start = Instant::now();
                    runtime
                        .block_on(crate::client::call(socket, &frame))
                        .map(|_| start.elapsed())
                }
            }
            .with_context(|| format!("({}) {}", variant.key, variant.label))?;
            if round >= sizes.hook_warmup {
                variant.samples.push(elapsed);
            }
        }
        if (round + 1) % 50 == 0 {
            eprintln!("hookbench: hook cost: round {}/{rounds}", round + 1);
        }
    }

    verify(&bare, &with_sub, &subscriber, &stub, rounds)?;
    let rows = variants
        .into_iter()
        .map(|v| {
            let summary = Summary::of(&v.samples).context("no samples")?;
            Ok(Row {
                key: v.key,
                label: v.label,
                summary,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(HookCost {
        rows,
        tool_versions: scripts.versions,
        idle_memory,
    })
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

/// Spawns the hook like an agent does (payload on a stdin pipe, stdout and
/// stderr captured) and times it from spawn to exit.
fn run_once(hook: &HookCommand, expect: Expect, payload: &[u8]) -> anyhow::Result<Duration> {
    let mut command = Command::new(&hook.program);
    command
        .args(&hook.args)
        .envs(hook.env.iter().map(|(k, v)| (k, v)))
        .env("CLAUDE_PROJECT_DIR", "/home/dev/acme-api")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());

    let start = Instant::now();
    let mut child = command.spawn().context("spawning")?;
    if let Some(mut stdin) = child.stdin.take() {
        // /bin/true never reads: a closed pipe is expected there.
        match stdin.write_all(payload) {
            Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(err).context("writing the payload");
            }
            _ => {}
        }
    }
    let output = child.wait_with_output().context("waiting for the hook")?;
    let elapsed = start.elapsed();

    let stdout = String::from_utf8_lossy(&output.stdout);
    let ok = output.status.success()
        && match expect {
            Expect::Nothing => stdout.is_empty(),
            Expect::GatewayAllow => !stdout.contains("deny"),
            Expect::StubReply => stdout.trim() == "{}",
            Expect::Version => stdout.starts_with("gateway-shim "),
        };
    if !ok {
        bail!(
            "unexpected result: {} stdout {stdout:?} stderr {:?}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(elapsed)
}

/// Checks every call really took the measured path.
fn verify(
    bare: &Gateway,
    with_sub: &Gateway,
    subscriber: &BenchSubscriber,
    stub: &HttpStub,
    rounds: usize,
) -> anyhow::Result<()> {
    for gateway in [bare, with_sub] {
        if let Some(record) = gateway.fallback_record() {
            bail!("some shim calls fell back instead of reaching the gateway:\n{record}");
        }
    }
    let rounds = rounds as u64;
    if subscriber.calls() < rounds {
        bail!(
            "the subscriber answered {} of {rounds} events",
            subscriber.calls()
        );
    }
    if stub.requests() < 3 * rounds {
        bail!(
            "the HTTP stub got {} of {} requests",
            stub.requests(),
            3 * rounds
        );
    }
    Ok(())
}
