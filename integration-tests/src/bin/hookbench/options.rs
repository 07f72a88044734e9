//! Command-line options and the run sizes they select.
//!
//! The full run is what BENCHMARKS.md holds; `--quick` runs every section
//! with small counts to check the suite itself in well under a minute.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, bail};

pub(crate) const USAGE: &str = "\
usage: hookbench [--quick] [--no-build] [--only SECTIONS] [--out PATH]
                 [--splice] [--write-known-gaps]
       hookbench --refresh-findings [--out PATH]

  --quick          small counts: checks the suite, numbers are not for publishing
  --no-build       use the already built release gateway and static gateway-shim
  --only SECTIONS  comma-separated subset of: hook,floor,claude,fanout,throughput,http,
                   memory,guard,rego,approval,memory-builtin
  --out PATH       where to write the report (default: BENCHMARKS.md at the
                   workspace root; with --quick: target/hookbench/BENCHMARKS.quick.md)
  --splice         with `--only` one of floor, guard, rego, approval, memory-builtin: replace
                   only that section of the existing report, keeping the rest
                   byte for byte
  --write-known-gaps
                   with the guard section: also rewrite
                   test-data/guard-corpus/known-gaps.tsv from this run
  --refresh-findings
                   measure nothing: replace the Why section of the report
                   with integration-tests/src/bin/hookbench/why.md (after
                   editing the analysis of the run the report holds)";

/// The benchmark sections, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Hook,
    Floor,
    Agent,
    Fanout,
    Throughput,
    Http,
    Memory,
    Guard,
    Rego,
    Approval,
    MemoryBuiltin,
}

impl Section {
    const ALL: [Section; 11] = [
        Section::Hook,
        Section::Floor,
        Section::Agent,
        Section::Fanout,
        Section::Throughput,
        Section::Http,
        Section::Memory,
        Section::Guard,
        Section::Rego,
        Section::Approval,
        Section::MemoryBuiltin,
    ];

    fn parse(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.name() == name.trim())
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Section::Hook => "hook",
            Section::Floor => "floor",
            Section::Agent => "claude",
            Section::Fanout => "fanout",
            Section::Throughput => "throughput",
            Section::Http => "http",
            Section::Memory => "memory",
            Section::Guard => "guard",
            Section::Rego => "rego",
            Section::Approval => "approval",
            Section::MemoryBuiltin => "memory-builtin",
        }
    }
}

/// How much of everything to run.
#[derive(Debug, Clone)]
pub(crate) struct Sizes {
    /// Section 1: discarded rounds, then measured rounds (each round runs
    /// every hook variant once, round-robin).
    pub(crate) hook_warmup: usize,
    pub(crate) hook_runs: usize,
    /// Section 1c: measured calls per server, client and idle regime.
    pub(crate) floor_runs: usize,
    /// Section 1b: real Claude Code runs per hook variant.
    pub(crate) agent_runs: usize,
    /// In-process adapters timing: batches and calls per batch.
    pub(crate) adapters_batches: usize,
    pub(crate) adapters_per_batch: usize,
    /// Section 2: the subscriber delay L and events per fan-out width.
    pub(crate) fanout_delay: Duration,
    pub(crate) fanout_warmup: usize,
    pub(crate) fanout_runs: usize,
    /// Section 3: concurrent clients, and interleaved measuring slices.
    pub(crate) throughput_clients: usize,
    pub(crate) throughput_slice: Duration,
    pub(crate) throughput_slices: usize,
    /// Section 4: RSS checkpoints (cumulative event counts) and clients.
    pub(crate) memory_checkpoints: Vec<u64>,
    pub(crate) memory_clients: usize,
    /// Section "Policy cost": rounds over the guard corpus per decider.
    pub(crate) rego_rounds: usize,
    /// Section "Memory built-in cost": memories in the filled store.
    pub(crate) memory_builtin_fill: usize,
}

impl Sizes {
    fn full() -> Sizes {
        Sizes {
            hook_warmup: 20,
            hook_runs: 300,
            floor_runs: 300,
            agent_runs: 8,
            adapters_batches: 50,
            adapters_per_batch: 2000,
            fanout_delay: Duration::from_millis(20),
            fanout_warmup: 10,
            fanout_runs: 400,
            throughput_clients: 64,
            throughput_slice: Duration::from_secs(1),
            throughput_slices: 5,
            memory_checkpoints: vec![100_000, 500_000, 1_000_000],
            memory_clients: 64,
            rego_rounds: 3,
            memory_builtin_fill: 100_000,
        }
    }

    fn quick() -> Sizes {
        Sizes {
            hook_warmup: 3,
            hook_runs: 20,
            floor_runs: 15,
            agent_runs: 1,
            adapters_batches: 10,
            adapters_per_batch: 200,
            fanout_delay: Duration::from_millis(20),
            fanout_warmup: 2,
            fanout_runs: 15,
            throughput_clients: 32,
            throughput_slice: Duration::from_millis(300),
            throughput_slices: 2,
            memory_checkpoints: vec![5_000, 10_000, 20_000],
            memory_clients: 32,
            rego_rounds: 1,
            memory_builtin_fill: 10_000,
        }
    }
}

/// Parsed command line.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) quick: bool,
    pub(crate) build: bool,
    /// Only rewrite the report's findings section.
    pub(crate) refresh_findings: bool,
    /// Replace only the measured (guard) section of the existing report.
    pub(crate) splice: bool,
    /// Rewrite the guard corpus's known-gaps.tsv from the run.
    pub(crate) write_known_gaps: bool,
    pub(crate) sections: Vec<Section>,
    pub(crate) out: Option<PathBuf>,
    pub(crate) sizes: Sizes,
    /// The command line as typed, for the report.
    pub(crate) command: String,
}

impl Options {
    /// Parses `args` (without the program name). `Ok(None)`: help shown.
    pub(crate) fn parse(args: &[String]) -> anyhow::Result<Option<Options>> {
        let mut quick = false;
        let mut build = true;
        let mut refresh_findings = false;
        let mut splice = false;
        let mut write_known_gaps = false;
        let mut sections = Section::ALL.to_vec();
        let mut out = None;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            match arg.as_str() {
                "--quick" => quick = true,
                "--no-build" => build = false,
                "--refresh-findings" => refresh_findings = true,
                "--splice" => splice = true,
                "--write-known-gaps" => write_known_gaps = true,
                "--only" => {
                    let list = iter.next().context("--only needs a value")?;
                    sections = list
                        .split(',')
                        .map(|name| {
                            Section::parse(name)
                                .with_context(|| format!("unknown section {name:?}"))
                        })
                        .collect::<anyhow::Result<_>>()?;
                }
                "--out" => out = Some(PathBuf::from(iter.next().context("--out needs a path")?)),
                "-h" | "--help" => return Ok(None),
                other => bail!("unknown argument {other:?}\n{USAGE}"),
            }
        }
        let spliceable = [
            Section::Floor,
            Section::Guard,
            Section::Rego,
            Section::Approval,
            Section::MemoryBuiltin,
        ];
        if splice && !matches!(sections.as_slice(), [one] if spliceable.contains(one)) {
            bail!(
                "--splice needs `--only` one of floor, guard, rego, approval, memory-builtin (the other sections depend on the whole run)"
            );
        }
        if write_known_gaps && !sections.contains(&Section::Guard) {
            bail!("--write-known-gaps needs the guard section");
        }
        let mut command =
            "cargo run --release -p hookgate-integration-tests --bin hookbench".to_owned();
        if !args.is_empty() {
            command.push_str(" -- ");
            command.push_str(&args.join(" "));
        }
        Ok(Some(Options {
            quick,
            build,
            refresh_findings,
            splice,
            write_known_gaps,
            sections,
            out,
            sizes: if quick { Sizes::quick() } else { Sizes::full() },
            command,
        }))
    }

    pub(crate) fn runs(&self, section: Section) -> bool {
        self.sections.contains(&section)
    }
}
