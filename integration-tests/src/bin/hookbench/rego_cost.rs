//! Section "Policy cost": what a Rego policy costs per event next to the
//! built-in guard, on the same events, in the same run. Two release
//! gateways run side by side: one on the embedded default config (the
//! guard and the decision log), one with only a `rego` subscriber running
//! docs/policies/guard.rego (the guard's rules written in Rego) and the
//! decision log. Every line of the held-out guard corpus goes to both, as
//! a Claude Code `PreToolUse` `Bash` call through the static release
//! `gateway-shim`, one call at a time, the two gateways interleaved (which
//! one goes first alternates), for a number of rounds.
//!
//! Three times per call: the whole hook call as the agent waits for it
//! (the shim process, spawn to exit), the gateway's time for the event and
//! the subscriber's own time (both from the decision log, `latency_us`).
//! The verdicts of the two are compared too: a cost is only worth quoting
//! with how much of the guard the policy does.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use hookgate_integration_tests::guard_corpus::{self, Kind, Row};
use hookgate_integration_tests::{Shim, TestGateway, payloads};
use serde_json::{Value, json};

use crate::artifacts::Artifacts;
use crate::machine::Machine;
use crate::stats::{ms, percentile, ratio};

/// The policy measured, relative to the workspace root.
pub(crate) const POLICY: &str = "docs/policies/guard.rego";
/// The policy's time limit: the guard's own default bound per call, so a
/// long line is measured, not cut short at the `rego` default of 100 ms.
pub(crate) const TIMEOUT_MS: u64 = 2000;
/// How long the decision logs may take to hold every event.
const LOG_DEADLINE: Duration = Duration::from_secs(60);

/// The two deciders, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decider {
    Guard,
    Rego,
}

impl Decider {
    pub(crate) const BOTH: [Decider; 2] = [Decider::Guard, Decider::Rego];

    /// The subscriber's name in its gateway's config.
    fn subscriber(self) -> &'static str {
        match self {
            Decider::Guard => "guard",
            Decider::Rego => "policy",
        }
    }
}

/// One decider's times over every call.
#[derive(Debug, Clone, Default)]
pub(crate) struct Series {
    /// The shim process, spawn to exit.
    pub(crate) hook: Vec<Duration>,
    /// The gateway's time for the event (decision log, top-level).
    pub(crate) event: Vec<Duration>,
    /// The subscriber's own time (decision log, its entry).
    pub(crate) own: Vec<Duration>,
    /// Calls the subscriber failed (its `on_error` decided).
    pub(crate) failed: usize,
}

/// One corpus line the two judged differently (first round).
#[derive(Debug, Clone)]
pub(crate) struct Difference {
    pub(crate) row: Row,
    /// Whether the guard stopped it (deny or ask); the policy did the
    /// opposite.
    pub(crate) guard_stopped: bool,
}

/// The whole section's run.
#[derive(Debug)]
pub(crate) struct RegoCost {
    pub(crate) rows: usize,
    pub(crate) rounds: usize,
    /// Guard, then Rego.
    pub(crate) series: [Series; 2],
    pub(crate) differences: Vec<Difference>,
    pub(crate) load_at_start: String,
    pub(crate) load_at_end: String,
}

/// One call's record in a decision log.
struct Logged {
    event: Duration,
    own: Duration,
    stopped: bool,
    failed: bool,
}

pub(crate) fn run(
    runtime: &tokio::runtime::Runtime,
    artifacts: &Artifacts,
    rounds: usize,
) -> anyhow::Result<RegoCost> {
    let rows = guard_corpus::load(&guard_corpus::dir())?;
    let policy = crate::artifacts::workspace_root().join(POLICY);
    if !policy.is_file() {
        bail!("{} is missing", policy.display());
    }
    let load_at_start = Machine::load_now();
    let (series, differences) = runtime.block_on(measure(artifacts, &rows, &policy, rounds))?;
    Ok(RegoCost {
        rows: rows.len(),
        rounds,
        series,
        differences,
        load_at_start,
        load_at_end: Machine::load_now(),
    })
}

/// The rego gateway's config: the policy on the events the guard takes,
/// and the decision log.
fn rego_config(policy: &Path) -> String {
    format!(
        "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [{:?}]\n\
         events = [\"pre_tool_use\", \"file_read\", \"permission_request\"]\n\
         timeout_ms = {TIMEOUT_MS}\non_error = \"deny\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\n",
        policy.display().to_string()
    )
}

fn session_id(decider: Decider, round: usize, row: &Row) -> String {
    let kind = match row.kind {
        Kind::Dangerous => "d",
        Kind::Ordinary => "o",
    };
    format!(
        "rego-cost-{}-{round}-{kind}-{}",
        decider.subscriber(),
        row.line
    )
}

fn payload(row: &Row, session: &str) -> anyhow::Result<String> {
    let mut value: Value = serde_json::from_str(&payloads::claude_bash(&row.command()))
        .context("the Claude Code sample payload")?;
    value["session_id"] = json!(session);
    Ok(value.to_string())
}

async fn measure(
    artifacts: &Artifacts,
    rows: &[Row],
    policy: &Path,
    rounds: usize,
) -> anyhow::Result<([Series; 2], Vec<Difference>)> {
    let home = Path::new(guard_corpus::HOME);
    let guard = TestGateway::start_embedded_as(&artifacts.gateway, home).await;
    let rego =
        TestGateway::start_configured_as(&artifacts.gateway, home, &rego_config(policy)).await;
    let gateways = [&guard, &rego];
    let shims = gateways
        .map(|g| Shim::of(&artifacts.shim, g.socket(), Some(guard_corpus::AGENT)).fail_closed());
    let mut hook: [HashMap<String, Duration>; 2] = Default::default();
    for round in 0..rounds {
        for (i, row) in rows.iter().enumerate() {
            let first = (i + round) % 2;
            for k in [first, 1 - first] {
                let session = session_id(Decider::BOTH[k], round, row);
                let payload = payload(row, &session)?;
                let started = Instant::now();
                let out = shims[k].run(payload).await;
                let took = started.elapsed();
                if !matches!(out.code, Some(0 | 2)) {
                    bail!("{:?}: not a Claude Code reply: {out}", row.written);
                }
                hook[k].insert(session, took);
            }
        }
    }
    let mut series: [Series; 2] = Default::default();
    let mut stopped: [HashMap<String, bool>; 2] = Default::default();
    for (k, decider) in Decider::BOTH.into_iter().enumerate() {
        let logged = logged(gateways[k], decider, &hook[k]).await?;
        for (session, took) in &hook[k] {
            let entry = &logged[session];
            series[k].hook.push(*took);
            series[k].event.push(entry.event);
            series[k].own.push(entry.own);
            series[k].failed += usize::from(entry.failed);
            stopped[k].insert(session.clone(), entry.stopped);
        }
    }
    let differences = rows
        .iter()
        .filter_map(|row| {
            let guard_stopped = stopped[0][&session_id(Decider::Guard, 0, row)];
            let rego_stopped = stopped[1][&session_id(Decider::Rego, 0, row)];
            (guard_stopped != rego_stopped).then(|| Difference {
                row: row.clone(),
                guard_stopped,
            })
        })
        .collect();
    Ok((series, differences))
}

/// Each sent session's record in `gateway`'s decision log, once it holds
/// all of them; a session missing after [`LOG_DEADLINE`], or without the
/// decider's entry, is an error (never a zero time).
async fn logged(
    gateway: &TestGateway,
    decider: Decider,
    sent: &HashMap<String, Duration>,
) -> anyhow::Result<HashMap<String, Logged>> {
    let until = tokio::time::Instant::now() + LOG_DEADLINE;
    let path = gateway.audit_log();
    loop {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: HashMap<&str, Value> = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter_map(|line| {
                let session = line["session_id"].as_str()?;
                let session = sent.get_key_value(session)?.0.as_str();
                Some((session, line))
            })
            .collect();
        if lines.len() < sent.len() {
            if tokio::time::Instant::now() >= until {
                bail!(
                    "{} of {} events are not in {} after {LOG_DEADLINE:?}; gateway stderr:\n{}",
                    sent.len() - lines.len(),
                    sent.len(),
                    path.display(),
                    gateway.stderr()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        return lines
            .into_iter()
            .map(|(session, line)| {
                let entry = read_entry(&line, decider.subscriber()).with_context(|| {
                    format!("{session}: no {} entry in {line}", decider.subscriber())
                })?;
                Ok((session.to_owned(), entry))
            })
            .collect();
    }
}

fn read_entry(line: &Value, subscriber: &str) -> Option<Logged> {
    let entry = line["subscribers"]
        .as_array()?
        .iter()
        .find(|s| s["name"] == subscriber)?;
    let permission = entry["permission"].as_str()?;
    Some(Logged {
        event: Duration::from_micros(line["latency_us"].as_u64()?),
        own: Duration::from_micros(entry["latency_us"].as_u64()?),
        stopped: matches!(permission, "deny" | "ask"),
        failed: entry.get("failed").is_some(),
    })
}

/// The section's heading, which `--splice` finds in an existing report.
pub(crate) const HEADING: &str = "## Policy cost (Rego)";

/// Which of a [`Series`]' times a table row shows.
type Times = fn(&Series) -> &Vec<Duration>;

/// The percentiles reported.
const PERCENTILES: [f64; 3] = [50.0, 90.0, 99.0];

pub(crate) fn section(out: &mut String, run: Option<&RegoCost>, machine: &Machine) {
    let Some(run) = run else { return };
    let _ = writeln!(out, "{HEADING}\n");
    let _ = writeln!(
        out,
        "What a policy in Rego costs per event next to the built-in guard, on the same events in the same run. Two release `gateway`s run side by side: (a) on its embedded default config (the `guard` with its default rules, and the decision log); (b) with only a `rego` subscriber running [`{POLICY}`](docs/policies/guard.rego) (the guard's rules written in Rego; `timeout_ms = {TIMEOUT_MS}`, the guard's own default bound, on the guard's events), and the decision log. Each of the {} lines of the held-out guard corpus (`test-data/guard-corpus/`) goes to both as a Claude Code `PreToolUse` `Bash` call through the static release `gateway-shim`, one call at a time, the two gateways interleaved (which goes first alternates per line and round); rounds: {}, so {} calls per decider. Self-protection decides first in both, as in every gateway. Rows: the whole hook call as the agent waits for it (the shim process, spawn to exit, timed by the bench); the gateway's time for the event and the decider's own time (the decision log's `latency_us`: for the guard, parsing the line and its rules on the blocking pool; for the policy, the guard's parse of the line into `input.tool.commands`, the input document and the evaluation, on the blocking pool). Times in ms.\n",
        run.rows,
        run.rounds,
        run.series[0].hook.len()
    );
    crate::side_by_side::provenance(out, machine, (&run.load_at_start, &run.load_at_end), "rego");
    let _ = writeln!(
        out,
        "| Per event | guard p50 | p90 | p99 | rego p50 | p90 | p99 | rego/guard p50 | p90 | p99 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let rows: [(&str, Times); 3] = [
        ("Hook call (shim process, spawn to exit)", |s| &s.hook),
        ("Gateway, whole event (decision log)", |s| &s.event),
        ("The decider's own time (decision log)", |s| &s.own),
    ];
    for (name, times) in rows {
        let [guard, rego] = [&run.series[0], &run.series[1]].map(|s| quantiles(times(s)));
        let cells = |q: &[Duration; 3]| q.map(ms).join(" | ");
        let ratios = (guard.iter().zip(&rego))
            .map(|(g, r)| format!("{:.2}", ratio(*r, *g)))
            .collect::<Vec<_>>()
            .join(" | ");
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {ratios} |",
            cells(&guard),
            cells(&rego)
        );
    }
    verdicts(out, run);
}

/// p50, p90, p99 of `samples`.
fn quantiles(samples: &[Duration]) -> [Duration; 3] {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    PERCENTILES.map(|p| percentile(&sorted, p).unwrap_or_default())
}

fn verdicts(out: &mut String, run: &RegoCost) {
    let count = |guard_stopped: bool, kind: Kind| {
        (run.differences.iter())
            .filter(|d| d.guard_stopped == guard_stopped && d.row.kind == kind)
            .count()
    };
    let _ = writeln!(
        out,
        "\nThe two do not decide alike (first round; stopped = deny or ask): the policy agrees with the guard on {} of {} lines. The guard stops and the policy lets through {} dangerous and {} ordinary lines; the policy stops and the guard lets through {} dangerous and {} ordinary lines. Calls a decider could not finish (its `on_error` decided): guard {}, policy {}. A policy's cost is only comparable with how much of the guard it does: docs/policies.md says what this one covers.\n",
        run.rows - run.differences.len(),
        run.rows,
        count(true, Kind::Dangerous),
        count(true, Kind::Ordinary),
        count(false, Kind::Dangerous),
        count(false, Kind::Ordinary),
        run.series[0].failed,
        run.series[1].failed,
    );
}
