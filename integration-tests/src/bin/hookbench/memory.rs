//! Section 4: memory and size. The gateway's RSS idle and after 100k, 500k
//! and 1M events (it should stay flat: every per-event allocation must be
//! freed), a gateway's idle on the embedded default config, and the
//! shipped `gateway-shim`'s size and linkage.
//!
//! The events go through one no-op gRPC subscriber, so the whole hook path
//! (socket, adapters, tonic channel, merge, render) is exercised, with
//! distinct session and tool-call ids so per-key state would show up.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::client;
use crate::gateway::{Decider, Gateway, Memory, config_toml};
use crate::options::Sizes;
use crate::subscriber::BenchSubscriber;

/// Distinct payloads cycled through.
const VARIANTS: usize = 1024;
/// Pause before reading RSS, so in-flight work has settled.
const SETTLE: Duration = Duration::from_millis(500);
/// The same for a gateway on the default config, whose decision log
/// compiles its masking patterns on a blocking thread after the start.
pub(crate) const DEFAULT_SETTLE: Duration = Duration::from_secs(2);

/// Section 4's gateway results.
#[derive(Debug, Clone)]
pub(crate) struct MemoryRun {
    pub(crate) idle: Memory,
    /// A gateway on the embedded default config, idle.
    pub(crate) default_idle: Memory,
    /// (events so far, memory then).
    pub(crate) checkpoints: Vec<(u64, Memory)>,
    pub(crate) clients: usize,
    pub(crate) events_per_sec: f64,
}

/// The shim binary's size and linkage.
#[derive(Debug, Clone)]
pub(crate) struct ShimBinary {
    pub(crate) bytes: u64,
    /// No program interpreter and no NEEDED shared libraries.
    pub(crate) is_static: bool,
    /// `file`'s verdict, verbatim.
    pub(crate) file: String,
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    sizes: &Sizes,
    payload: &[u8],
) -> anyhow::Result<MemoryRun> {
    let default_idle = {
        let gateway = Gateway::start_default(&artifacts.gateway)?;
        std::thread::sleep(DEFAULT_SETTLE);
        gateway.memory()?
    };
    let subscriber = runtime.block_on(BenchSubscriber::start())?;
    let mut gateway = Gateway::start(
        &artifacts.gateway,
        &config_toml(&[Decider {
            endpoint: subscriber.endpoint().to_owned(),
            timeout: Duration::from_millis(1000),
        }]),
    )?;
    std::thread::sleep(SETTLE);
    let idle = gateway.memory()?;

    let frames = Arc::new(variants(payload)?);
    let clients = sizes.memory_clients;
    let mut checkpoints = Vec::new();
    let mut done = 0u64;
    let mut busy = Duration::ZERO;
    for &target in &sizes.memory_checkpoints {
        let batch = target.saturating_sub(done);
        let start = Instant::now();
        let sent = runtime
            .block_on(client::load(
                gateway.socket(),
                Arc::clone(&frames),
                clients,
                Some(batch),
                Arc::new(AtomicBool::new(false)),
            ))
            .with_context(|| format!("memory run towards {target} events"))?;
        busy += start.elapsed();
        done += sent;
        eprintln!("hookbench: memory: {done} events");
        std::thread::sleep(SETTLE);
        gateway.check_alive()?;
        checkpoints.push((done, gateway.memory()?));
    }
    anyhow::ensure!(
        subscriber.calls() >= done,
        "the subscriber answered {} of {done} events",
        subscriber.calls()
    );
    Ok(MemoryRun {
        idle,
        default_idle,
        checkpoints,
        clients,
        events_per_sec: done as f64 / busy.as_secs_f64().max(f64::MIN_POSITIVE),
    })
}

/// `VARIANTS` encoded requests, each with its own session and tool-call id.
fn variants(payload: &[u8]) -> anyhow::Result<Vec<Vec<u8>>> {
    let mut event: serde_json::Value =
        serde_json::from_slice(payload).context("parsing the sample payload")?;
    (0..VARIANTS)
        .map(|i| {
            let object = event
                .as_object_mut()
                .context("the sample payload is not a JSON object")?;
            object.insert(
                "session_id".to_owned(),
                format!("3f1c2b7e-8d4a-4b0e-9c61-{i:012x}").into(),
            );
            object.insert(
                "tool_use_id".to_owned(),
                format!("toolu_bench{i:08}").into(),
            );
            Ok(client::request_frame(&serde_json::to_vec(&event)?))
        })
        .collect()
}

/// Size and linkage of the shim binary.
pub(crate) fn shim_binary(path: &Path) -> anyhow::Result<ShimBinary> {
    let bytes = std::fs::metadata(path)
        .with_context(|| format!("stat {}", path.display()))?
        .len();
    let program_headers = output("readelf", &["-lW"], path)?;
    let dynamic = output("readelf", &["-dW"], path)?;
    let is_static = !program_headers.contains("INTERP") && !dynamic.contains("(NEEDED)");
    let file = output("file", &["-b"], path)?.trim().to_owned();
    Ok(ShimBinary {
        bytes,
        is_static,
        file,
    })
}

fn output(program: &str, args: &[&str], path: &Path) -> anyhow::Result<String> {
    let out = Command::new(program)
        .args(args)
        .arg(path)
        .output()
        .with_context(|| format!("running {program}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
