//! Section 1b: what a hook costs inside the real Claude Code, the way its
//! user pays it.
//!
//! One Claude Code run (the integration tests' harness: pinned CLI, fake
//! model on loopback, private namespaces) makes [`CALLS`] Bash tool calls
//! in a row; each call's command appends a bash `$EPOCHREALTIME` stamp to a
//! marks file, so the time between two consecutive stamps is one whole
//! tool-call cycle as the agent lives it: its PreToolUse hook, the tool,
//! the next model round trip. Only PreToolUse is hooked, so the cycle's
//! difference from the run without hooks is one hook call's cost. The
//! variants (no hook, a minimal bash hook, the shim to a gateway, an HTTP
//! hook to a gateway) alternate run by run, round-robin; medians over
//! every cycle of every run. HTTP-hook runs share the host's network (the
//! harness's rule: the endpoint is on the gateway's loopback); the others
//! run in private namespaces.

use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, bail};
use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::{AgentRun, ClaudeCode};
use hookgate_integration_tests::fake_model::{Script, Step};
use hookgate_integration_tests::http_hook::HttpEndpoint;
use tokio::runtime::Runtime;

use crate::artifacts::Artifacts;
use crate::gateway::{Gateway, config_toml};
use crate::stats::Summary;

/// Bash tool calls per Claude Code run.
pub(crate) const CALLS: usize = 12;
/// The pinned Claude Code measured.
pub(crate) const CLAUDE: ClaudeCode = ClaudeCode::Newest;

/// The cheapest hook bash can be: read the payload, allow. It counts its
/// calls (a builtin append), so the run proves it ran.
const BASH_HOOK: &str = "#!/bin/bash\ninput=$(cat)\nprintf 'x\\n' >> \"$HOOKBENCH_HOOK_COUNT\"\n";

/// One variant's results.
#[derive(Debug, Clone)]
pub(crate) struct AgentRow {
    pub(crate) label: &'static str,
    /// Stamp to stamp: one whole tool-call cycle.
    pub(crate) summary: Summary,
    /// From the `tool_use`'s arrival (transcript, ms) to the command
    /// running: the hook plus the tool's start.
    pub(crate) to_command: Summary,
}

/// Section 1b's results.
#[derive(Debug, Clone)]
pub(crate) struct AgentCost {
    pub(crate) rows: Vec<AgentRow>,
    pub(crate) runs: usize,
    pub(crate) claude_version: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hook {
    None,
    Bash,
    Shim,
    Http,
}

impl Hook {
    const ALL: [Hook; 4] = [Hook::None, Hook::Bash, Hook::Shim, Hook::Http];

    fn label(self) -> &'static str {
        match self {
            Hook::None => "no hook",
            Hook::Bash => "bash hook (`input=$(cat)`, allow)",
            Hook::Shim => "gateway-shim → gateway, no subscribers",
            Hook::Http => "HTTP hook → gateway, no subscribers (no process)",
        }
    }
}

pub(crate) fn run(
    runtime: &Runtime,
    artifacts: &Artifacts,
    runs: usize,
) -> anyhow::Result<AgentCost> {
    let gateway = Gateway::start(&artifacts.gateway, &config_toml(&[]))?;
    let http = crate::http_hook::start(artifacts)?;
    let dir = tempfile::tempdir().context("creating the hook directory")?;
    let bash_hook = dir.path().join("hook.sh");
    std::fs::write(&bash_hook, BASH_HOOK).context("writing the bash hook")?;
    std::fs::set_permissions(&bash_hook, std::fs::Permissions::from_mode(0o755))
        .context("making the bash hook executable")?;
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); Hook::ALL.len()];
    let mut to_command: Vec<Vec<Duration>> = vec![Vec::new(); Hook::ALL.len()];
    let (mut shim_calls, mut http_calls) = (0, 0);
    // One discarded round first: the first runs warm the page cache.
    for round in 0..=runs {
        for i in 0..Hook::ALL.len() {
            let index = (round + i) % Hook::ALL.len();
            let hook = Hook::ALL[index];
            let (gaps, starts) = runtime
                .block_on(one_run(artifacts, (&gateway, &http.1), &bash_hook, hook))
                .with_context(|| format!("Claude Code with {}", hook.label()))?;
            match hook {
                Hook::Shim => shim_calls += CALLS,
                Hook::Http => http_calls += CALLS,
                Hook::None | Hook::Bash => {}
            }
            if round > 0 {
                samples[index].extend(gaps);
                to_command[index].extend(starts);
            }
        }
        eprintln!("hookbench: claude code: round {round}/{runs}");
    }
    if let Some(record) = gateway.fallback_record() {
        bail!("some shim calls inside Claude Code fell back:\n{record}");
    }
    let answered = gateway.pre_tool_events()?;
    if answered < shim_calls as u64 {
        bail!("the gateway answered {answered} of {shim_calls} PreToolUse calls");
    }
    let over_http = http.0.pre_tool_events()?;
    if over_http < http_calls as u64 {
        bail!("the HTTP endpoint answered {over_http} of {http_calls} PreToolUse calls");
    }
    let rows = Hook::ALL
        .iter()
        .zip(samples.iter().zip(&to_command))
        .map(|(hook, (samples, starts))| {
            Ok(AgentRow {
                label: hook.label(),
                summary: Summary::of(samples).context("no tool-call cycles")?,
                to_command: Summary::of(starts).context("no tool calls")?,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(AgentCost {
        rows,
        runs,
        claude_version: CLAUDE.version(),
    })
}

/// One Claude Code run with `hook` on PreToolUse: its cycle times, and
/// from each `tool_use`'s arrival to its command running.
async fn one_run(
    artifacts: &Artifacts,
    (gateway, endpoint): (&Gateway, &HttpEndpoint),
    bash_hook: &Path,
    hook: Hook,
) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let program: &Path = match hook {
        Hook::Bash => bash_hook,
        Hook::None | Hook::Shim | Hook::Http => &artifacts.shim,
    };
    let run = AgentRun::with_hook_program(Dialect::ClaudeCode, &artifacts.fake_model, program)
        .claude_code(CLAUDE)
        .socket(gateway.socket())
        .env("HOOKGATE_FAIL", "closed");
    let marks = run.work().join("marks.txt");
    let count = run.dir().join("hook-count.txt");
    let run = run
        .env("HOOKBENCH_HOOK_COUNT", &count.display().to_string())
        .hooks(if hook == Hook::None {
            &[]
        } else {
            &["PreToolUse"]
        })
        .script(script(&marks));
    let run = if hook == Hook::Http {
        run.http_hooks(endpoint)
    } else {
        run
    };
    let outcome = run.run().await;
    if outcome.status().is_none_or(|s| !s.success()) {
        bail!("Claude Code failed:\n{outcome}");
    }
    let stamps = read_stamps(&marks).with_context(|| format!("{outcome}"))?;
    if stamps.len() != CALLS {
        bail!("{} of {CALLS} tool calls ran:\n{outcome}", stamps.len());
    }
    let received = crate::transcript::tool_use_times(&outcome.dir().join("home"))
        .with_context(|| format!("{outcome}"))?;
    if received.len() != CALLS {
        bail!(
            "the transcript has {} of {CALLS} tool calls:\n{outcome}",
            received.len()
        );
    }
    let to_command: Vec<Duration> = received
        .iter()
        .zip(&stamps)
        .map(|(got, ran)| Duration::from_secs_f64((ran - got).max(0.0)))
        .collect();
    if hook == Hook::Bash {
        let ran = std::fs::read_to_string(&count)
            .unwrap_or_default()
            .lines()
            .count();
        if ran != CALLS {
            bail!("the bash hook ran {ran} times for {CALLS} tool calls:\n{outcome}");
        }
    }
    let cycles = stamps
        .windows(2)
        .map(|w| Duration::from_secs_f64((w[1] - w[0]).max(0.0)))
        .collect();
    Ok((cycles, to_command))
}

/// [`CALLS`] Bash calls, each appending its index and a timestamp.
fn script(marks: &Path) -> Script {
    let quoted = format!("'{}'", marks.display().to_string().replace('\'', r"'\''"));
    let mut turns: Vec<Step> = (0..CALLS)
        .map(|i| Step::Shell {
            command: format!("echo \"{i} $EPOCHREALTIME\" >> {quoted}"),
        })
        .collect();
    turns.push(Step::Text {
        text: "Done.".to_owned(),
    });
    Script {
        turns,
        side_text: "ok".to_owned(),
    }
}

/// The stamps in seconds, in call order (each line `INDEX SECONDS`).
fn read_stamps(marks: &Path) -> anyhow::Result<Vec<f64>> {
    let text =
        std::fs::read_to_string(marks).with_context(|| format!("reading {}", marks.display()))?;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let (index, stamp) = line
                .split_once(' ')
                .with_context(|| format!("malformed mark {line:?}"))?;
            if index != i.to_string() {
                bail!("mark {line:?} out of order (expected call {i})");
            }
            stamp
                .trim()
                .parse::<f64>()
                .with_context(|| format!("malformed stamp {line:?}"))
        })
        .collect()
}

/// The report's section 1b.
pub(crate) fn render(out: &mut String, cost: &AgentCost) {
    let Some(first) = cost.rows.first() else {
        return;
    };
    let (none, none_start) = (first.summary.median, first.to_command.median);
    let _ = writeln!(
        out,
        "## 1b. What a hook costs inside the real Claude Code\n"
    );
    let _ = writeln!(
        out,
        "Claude Code {} (`-p`, headless, against the fake model on loopback, in a private network namespace, as the real-agent tests run it) makes {CALLS} Bash tool calls per run; only PreToolUse is hooked. Each call's command appends bash's `$EPOCHREALTIME` to a file. \"tool_use → command\" is from the moment Claude Code received the model's `tool_use` (its session transcript's timestamp, ms) to that command running: the hook plus the Bash tool's start. \"Cycle\" is from one command to the next: the hook, the tool, the next model round trip. The variants alternate run by run, round-robin, {} runs each after one discarded round. The HTTP-hook runs share the host's network (their endpoint is on the gateway's loopback), the others run in private namespaces. The bash hook counted its calls and the gateways counted the shim's and the HTTP hook's; a run where either missed a call, or a shim fell back, aborts the bench.\n",
        cost.claude_version, cost.runs,
    );
    let _ = writeln!(
        out,
        "| PreToolUse hook | tool_use → command median ms | p95 ms | − no hook ms | cycle median ms | cycle p95 ms | − no hook ms |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for row in &cost.rows {
        let (s, t) = (row.summary, row.to_command);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.label,
            crate::stats::ms(t.median),
            crate::stats::ms(t.p95),
            crate::stats::signed_ms(t.median, none_start),
            crate::stats::ms(s.median),
            crate::stats::ms(s.p95),
            crate::stats::signed_ms(s.median, none),
        );
    }
    out.push('\n');
}
