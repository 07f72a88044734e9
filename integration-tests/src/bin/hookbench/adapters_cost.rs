//! The gateway's own in-process work for one event, without any I/O: the
//! adapters' detect, parse, merge (one subscriber's allow) and render of
//! the Claude Code `PreToolUse` payload. A floor under the gateway's CPU
//! per event in the throughput section.
//!
//! A plain timing loop (batches, median batch), not criterion: the whole
//! suite stays one binary with no extra dependencies.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use hookgate_adapters::{Agent, Decision, Permission, RankedDecision};

use crate::stats::Summary;

/// One timed step.
type Step<'a> = Box<dyn Fn() + 'a>;

/// Per-call cost of each step and of all of them.
#[derive(Debug, Clone)]
pub(crate) struct AdaptersCost {
    /// (step, median per call over batches).
    pub(crate) steps: Vec<(&'static str, Duration)>,
}

pub(crate) fn run(
    payload: &[u8],
    batches: usize,
    per_batch: usize,
) -> anyhow::Result<AdaptersCost> {
    let env = ["CLAUDE_PROJECT_DIR"];
    let detected = hookgate_adapters::detect(payload, Some(Agent::ClaudeCode), &env)
        .map_err(|e| anyhow::anyhow!("detect: {e}"))?;
    let dialect = detected.dialect;
    let event = hookgate_adapters::parse(dialect, payload).context("parsing the sample payload")?;
    let ranked = vec![RankedDecision {
        subscriber: "bench".to_owned(),
        priority: 0,
        decision: Decision {
            permission: Permission::Allow,
            ..Decision::default()
        },
    }];
    let merged = hookgate_adapters::merge(dialect, &ranked);

    let steps: [(&'static str, Step<'_>); 5] = [
        (
            "detect",
            Box::new(|| {
                let _ = black_box(hookgate_adapters::detect(
                    black_box(payload),
                    Some(Agent::ClaudeCode),
                    &env,
                ));
            }),
        ),
        (
            "parse",
            Box::new(|| {
                let _ = black_box(hookgate_adapters::parse(dialect, black_box(payload)));
            }),
        ),
        (
            "merge",
            Box::new(|| {
                black_box(hookgate_adapters::merge(dialect, black_box(&ranked)));
            }),
        ),
        (
            "render",
            Box::new(|| {
                black_box(hookgate_adapters::render(
                    black_box(&event),
                    &merged.decision,
                ));
            }),
        ),
        (
            "all four",
            Box::new(|| {
                let detected =
                    hookgate_adapters::detect(black_box(payload), Some(Agent::ClaudeCode), &env);
                if let Ok(Ok(e)) = detected.map(|d| hookgate_adapters::parse(d.dialect, payload)) {
                    let m = hookgate_adapters::merge(e.dialect, &ranked);
                    black_box(hookgate_adapters::render(&e, &m.decision));
                }
            }),
        ),
    ];
    let steps = steps
        .iter()
        .map(|(name, step)| {
            let samples: Vec<Duration> = (0..batches)
                .map(|_| {
                    let start = Instant::now();
                    for _ in 0..per_batch {
                        step();
                    }
                    start.elapsed() / per_batch.max(1) as u32
                })
                .collect();
            let median = Summary::of(&samples).context("no samples")?.median;
            Ok((*name, median))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(AdaptersCost { steps })
}
