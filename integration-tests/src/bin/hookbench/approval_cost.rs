//! Section "Approval cost": what an `approval` built-in with rules costs a
//! call it does not hold (issue #30: "no call that is not held is
//! slowed"). Two release gateways side by side, both on the embedded
//! default config (the guard and the decision log), one of them with an
//! `approval` subscriber whose rules do not match the call; the same
//! Claude Code `PreToolUse` `Bash` call goes to both through the static
//! release `gateway-shim`, interleaved with `/bin/true` (the floor every
//! spawned hook pays), in the same loop.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;

use crate::artifacts::Artifacts;
use crate::gateway::{Gateway, private_dir};
use crate::machine::Machine;
use crate::side_by_side::{self, Variant, allowed, quantiles};
use crate::spawn::HookIo;
use crate::stats::{ms, signed_ms};

/// The section's heading, which `--splice` finds in an existing report.
pub(crate) const HEADING: &str = "## Approval cost (calls not held)";

/// The approval subscriber measured: rules of the kind people write for a
/// person to look at, none matching the call sent (`npm test`).
const APPROVAL: &str = r#"
[[subscriber]]
name = "approval"
builtin = "approval"
hold_ms = 120000
on_timeout = "deny"

[[subscriber.rules]]
id = "deploy"
shell = "^make deploy"
reason = "deploys need a person"

[[subscriber.rules]]
id = "terraform"
shell = "^terraform (apply|destroy)"
reason = "infrastructure changes need a person"

[[subscriber.rules]]
id = "kubectl"
shell = "^kubectl (apply|delete|scale)"
reason = "cluster changes need a person"

[[subscriber.rules]]
id = "force-push"
shell = "^git push .*(--force|-f)"
reason = "a force push needs a person"
"#;
/// Rules in [`APPROVAL`].
const RULES: usize = 4;

/// The section's run: `/bin/true`, no approval, approval; in that order.
#[derive(Debug)]
pub(crate) struct ApprovalCost {
    pub(crate) runs: usize,
    pub(crate) times: Vec<Vec<Duration>>,
    pub(crate) load_at_start: String,
    pub(crate) load_at_end: String,
}

pub(crate) fn run(
    artifacts: &Artifacts,
    payload: &Path,
    warmup: usize,
    runs: usize,
) -> anyhow::Result<ApprovalCost> {
    let load_at_start = Machine::load_now();
    let logs = private_dir("hookbench-approval-")?;
    let base = |name: &str| hookgate_integration_tests::default_config(&logs.path().join(name));
    let without = Gateway::start(&artifacts.gateway, &base("without.jsonl"))?;
    let with = Gateway::start(
        &artifacts.gateway,
        &format!("{}\n{APPROVAL}", base("with.jsonl")),
    )?;
    let io = || HookIo::open(payload).context("the approval section's payload");
    let mut variants = vec![
        Variant {
            label: "spawn /bin/true".to_owned(),
            hook: side_by_side::bin_true(),
            io: io()?,
            check: str::is_empty,
        },
        Variant {
            label: "no approval".to_owned(),
            hook: side_by_side::shim(&artifacts.shim, without.socket()),
            io: io()?,
            check: allowed,
        },
        Variant {
            label: "approval".to_owned(),
            hook: side_by_side::shim(&artifacts.shim, with.socket()),
            io: io()?,
            check: allowed,
        },
    ];
    let times = side_by_side::measure(&mut variants, warmup, runs)?;
    Ok(ApprovalCost {
        runs,
        times,
        load_at_start,
        load_at_end: Machine::load_now(),
    })
}

pub(crate) fn section(out: &mut String, run: Option<&ApprovalCost>, machine: &Machine) {
    let Some(run) = run else { return };
    let _ = writeln!(out, "{HEADING}\n");
    let _ = writeln!(
        out,
        "What an `approval` built-in with rules costs a call it does not hold (issue #30: no call that is not held is slowed). Two release `gateway`s side by side, both on the embedded default config (the `guard` with its default rules, and the decision log); the second also runs an `approval` subscriber with {RULES} `shell` rules (`make deploy`, `terraform apply`, `kubectl apply`, a force push; `hold_ms = 120000`) that do not match the call. The same Claude Code `PreToolUse` `Bash` call (`npm test -- --runInBand`, `{}`) goes to both through the static release `gateway-shim` (failing closed: a call that missed its gateway would deny, and a deny or a hold is an error here), interleaved in one loop with `/bin/true`, the floor every spawned hook pays; the order rotates each round; {} measured rounds. Times: the process as the agent waits for it, spawn to exit, in ms.\n",
        crate::PAYLOAD,
        run.runs
    );
    crate::side_by_side::provenance(
        out,
        machine,
        (&run.load_at_start, &run.load_at_end),
        "approval",
    );
    let _ = writeln!(
        out,
        "| Hook call | p50 | p90 | p99 | p50 minus no approval's |\n|---|---:|---:|---:|---:|"
    );
    let labels = [
        "spawn `/bin/true` (the floor)",
        "default config, no `approval`",
        "default config and `approval`, rules not matching",
    ];
    let table: Vec<[Duration; 3]> = run.times.iter().map(|t| quantiles(t)).collect();
    let Some(reference) = table.get(1).map(|q| q[0]) else {
        return;
    };
    for (label, q) in labels.iter().zip(&table) {
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {} | {} |",
            ms(q[0]),
            ms(q[1]),
            ms(q[2]),
            signed_ms(q[0], reference)
        );
    }
    out.push('\n');
}
