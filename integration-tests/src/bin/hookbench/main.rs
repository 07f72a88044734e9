//! hookbench: the whole-process benchmark suite of hookgate, run by one
//! command and writing BENCHMARKS.md at the workspace root:
//!
//! ```text
//! cargo run --release -p hookgate-integration-tests --bin hookbench [-- --quick]
//! ```
//!
//! It builds the release `gateway` and the static `gateway-shim`, then
//! measures (1) one hook call's cost against /bin/true and bash/node/python
//! hooks, (2) fan-out scaling, (3) throughput and (4) memory and size, and
//! checks the figures against the targets of the benchmarks issue; and
//! (5) runs the held-out guard corpus through the real shim and gateway,
//! and (6) measures a Rego policy's cost per event next to the guard's,
//! (7) an `approval` built-in's cost to calls it does not hold and (8) the
//! `memory` built-in's capture and injection costs.
//! Benchmarks are not tests: nothing here runs under `cargo test`.

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
mod adapters_cost;
mod agent_cost;
mod approval_cost;
mod artifacts;
mod baselines;
mod breaker_open;
mod client;
mod crosscheck;
mod fanout;
mod floor;
mod floor_echo;
mod floor_forward;
mod floor_native;
mod floor_report;
mod floor_tokio;
mod gateway;
mod guard_corpus;
mod hook_cost;
mod http_hook;
mod http_stub;
mod machine;
mod memory;
mod memory_builtin;
mod native;
mod options;
mod rego_cost;
mod report;
mod report_hook;
mod side_by_side;
mod spawn;
mod stats;
mod subscriber;
mod targets;
mod throughput;
mod transcript;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use machine::Machine;
use options::{Options, Section, USAGE};

/// The sample payload every section sends, relative to the workspace root.
pub(crate) const PAYLOAD: &str = "adapters/test_data/claude-code/PreToolUse.json";
/// Hand-written analysis appended to the report (its "Why" section).
const FINDINGS: &str = "integration-tests/src/bin/hookbench/why.md";

/// Everything measured, for the report.
#[derive(Debug)]
pub(crate) struct Results {
    pub(crate) quick: bool,
    pub(crate) command: String,
    pub(crate) shim_build_command: String,
    pub(crate) machine: Machine,
    pub(crate) load_at_end: String,
    pub(crate) wall: Duration,
    pub(crate) hook: Option<hook_cost::HookCost>,
    pub(crate) floor: Option<floor::Floor>,
    pub(crate) agent: Option<agent_cost::AgentCost>,
    pub(crate) adapters: Option<adapters_cost::AdaptersCost>,
    pub(crate) fanout: Option<fanout::Fanout>,
    pub(crate) throughput: Option<throughput::Throughput>,
    pub(crate) http: Option<http_hook::HttpHook>,
    pub(crate) memory: Option<memory::MemoryRun>,
    pub(crate) shim: Option<memory::ShimBinary>,
    pub(crate) guard: Option<guard_corpus::GuardCorpus>,
    pub(crate) rego: Option<rego_cost::RegoCost>,
    pub(crate) approval: Option<approval_cost::ApprovalCost>,
    pub(crate) memory_builtin: Option<memory_builtin::MemoryBuiltinCost>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match Options::parse(&args) {
        Ok(Some(options)) => options,
        Ok(None) => {
            emit(&format!("{USAGE}\n"));
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("hookbench: {err:#}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(path) => {
            eprintln!("hookbench: report written to {}", path.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("hookbench: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `--refresh-findings`: the report's measured part stays as it is.
fn refresh_findings(options: &Options) -> anyhow::Result<PathBuf> {
    let root = artifacts::workspace_root();
    let path = options
        .out
        .clone()
        .unwrap_or_else(|| root.join("BENCHMARKS.md"));
    let report =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let findings = std::fs::read_to_string(root.join(FINDINGS))
        .with_context(|| format!("reading {FINDINGS}"))?;
    std::fs::write(&path, report::with_findings(&report, &findings))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

fn run(options: &Options) -> anyhow::Result<PathBuf> {
    if options.refresh_findings {
        return refresh_findings(options);
    }
    let started = Instant::now();
    let machine = Machine::probe();
    let root = artifacts::workspace_root();
    let artifacts = artifacts::prepare(options.build)?;
    let payload =
        std::fs::read(root.join(PAYLOAD)).with_context(|| format!("reading {PAYLOAD}"))?;
    // The bench's own servers (subscribers, HTTP stub) and clients.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the bench runtime")?;

    let section = |s: Section| {
        let run = options.runs(s);
        if run {
            eprintln!("hookbench: section {}", s.name());
        }
        run
    };
    let sizes = &options.sizes;
    let hook = section(Section::Hook)
        .then(|| hook_cost::run(&runtime, &artifacts, sizes, (&payload, &root.join(PAYLOAD))))
        .transpose()?;
    let adapters = options
        .runs(Section::Hook)
        .then(|| adapters_cost::run(&payload, sizes.adapters_batches, sizes.adapters_per_batch))
        .transpose()?;
    let floor = section(Section::Floor)
        .then(|| floor::run(&artifacts, sizes.floor_runs, &payload))
        .transpose()?;
    let agent = section(Section::Agent)
        .then(|| agent_cost::run(&runtime, &artifacts, sizes.agent_runs))
        .transpose()?;
    let fanout = section(Section::Fanout)
        .then(|| fanout::run(&artifacts, sizes, &payload))
        .transpose()?;
    let throughput = section(Section::Throughput)
        .then(|| throughput::run(&runtime, &artifacts, sizes, &payload))
        .transpose()?;
    let http = section(Section::Http)
        .then(|| http_hook::run(&runtime, &artifacts, sizes, &payload))
        .transpose()?;
    let (memory, shim) = if section(Section::Memory) {
        (
            Some(memory::run(&runtime, &artifacts, sizes, &payload)?),
            Some(memory::shim_binary(&artifacts.shim)?),
        )
    } else {
        (None, None)
    };

    let guard = section(Section::Guard)
        .then(|| guard_corpus::run(&runtime, &artifacts))
        .transpose()?;
    if options.write_known_gaps
        && let Some(guard) = &guard
    {
        guard_corpus::write_known_gaps(guard)?;
    }
    let rego = section(Section::Rego)
        .then(|| rego_cost::run(&runtime, &artifacts, sizes.rego_rounds))
        .transpose()?;
    let approval = section(Section::Approval)
        .then(|| {
            approval_cost::run(
                &artifacts,
                &root.join(PAYLOAD),
                sizes.hook_warmup,
                sizes.hook_runs,
            )
        })
        .transpose()?;
    let memory_builtin = section(Section::MemoryBuiltin)
        .then(|| {
            memory_builtin::run(
                &artifacts,
                sizes.memory_builtin_fill,
                sizes.hook_warmup,
                sizes.hook_runs,
            )
        })
        .transpose()?;
    let path = match &options.out {
        Some(path) => path.clone(),
        None if options.quick => root.join("target/hookbench/BENCHMARKS.quick.md"),
        None => root.join("BENCHMARKS.md"),
    };
    if options.splice {
        let report = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} to splice into", path.display()))?;
        let mut text = String::new();
        let heading = if options.runs(Section::Floor) {
            floor_report::section(&mut text, floor.as_ref(), &machine);
            floor_report::HEADING
        } else if options.runs(Section::Rego) {
            rego_cost::section(&mut text, rego.as_ref(), &machine);
            rego_cost::HEADING
        } else if options.runs(Section::Approval) {
            approval_cost::section(&mut text, approval.as_ref(), &machine);
            approval_cost::HEADING
        } else if options.runs(Section::MemoryBuiltin) {
            memory_builtin::section(&mut text, memory_builtin.as_ref(), &machine);
            memory_builtin::HEADING
        } else {
            guard_corpus::section(&mut text, guard.as_ref(), &machine.date);
            guard_corpus::HEADING
        };
        std::fs::write(&path, report::with_section(&report, heading, &text))
            .with_context(|| format!("writing {}", path.display()))?;
        emit(&text);
        return Ok(path);
    }

    let results = Results {
        quick: options.quick,
        command: options.command.clone(),
        shim_build_command: artifacts.shim_build_command.clone(),
        machine,
        load_at_end: Machine::load_now(),
        wall: started.elapsed(),
        hook,
        floor,
        agent,
        adapters,
        fanout,
        throughput,
        http,
        memory,
        shim,
        guard,
        rego,
        approval,
        memory_builtin,
    };
    let findings = std::fs::read_to_string(root.join(FINDINGS)).ok();
    let text = report::render(&results, findings.as_deref());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
    emit(&text);
    Ok(path)
}

/// Writes the report to stdout; a reader that closed the pipe
/// (`hookbench | head`) only ends the output (`print!` would panic).
fn emit(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
