//! Section "Guard corpus": the held-out corpus of `test-data/guard-corpus/`
//! through the static release `gateway-shim` and the release `gateway` on
//! its embedded default config; bypass and false-positive rates per
//! category, the guard's slowest time, and every wrong result listed.
//! `--write-known-gaps` rewrites `known-gaps.tsv` from the same run.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::Context as _;
use hookgate_integration_tests::guard_corpus::{
    self, Kind, Outcome, Summary, Tally, Verdict, gaps,
};
use hookgate_integration_tests::{Shim, TestGateway};

use crate::artifacts::Artifacts;

/// The section's heading, which `--splice` finds in an existing report.
pub(crate) const HEADING: &str = "## Guard corpus";

/// One run of the corpus.
#[derive(Debug)]
pub(crate) struct GuardCorpus {
    pub(crate) outcomes: Vec<Outcome>,
    /// `git describe`-like: the short commit, marked when the tree was dirty.
    pub(crate) commit: String,
}

pub(crate) fn run(
    runtime: &tokio::runtime::Runtime,
    artifacts: &Artifacts,
) -> anyhow::Result<GuardCorpus> {
    let rows = guard_corpus::load(&guard_corpus::dir())?;
    let outcomes = runtime.block_on(async {
        let gateway =
            TestGateway::start_embedded_as(&artifacts.gateway, Path::new(guard_corpus::HOME)).await;
        let shim = Shim::of(&artifacts.shim, gateway.socket(), Some(guard_corpus::AGENT));
        guard_corpus::run(&gateway, &shim, &rows).await
    })?;
    Ok(GuardCorpus {
        outcomes,
        commit: commit(),
    })
}

/// Rewrites `test-data/guard-corpus/known-gaps.tsv` from `run`.
pub(crate) fn write_known_gaps(run: &GuardCorpus) -> anyhow::Result<()> {
    let path = guard_corpus::dir().join(gaps::FILE_NAME);
    let text = gaps::render(&gaps::of(&run.outcomes));
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    eprintln!("hookbench: wrote {}", path.display());
    Ok(())
}

/// The checked-out commit, `+dirty` when files differ from it.
pub(crate) fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(crate::artifacts::workspace_root())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let head = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    match git(&["status", "--porcelain", "--untracked-files=no"]) {
        Some(status) if status.is_empty() => head,
        _ => format!("{head}+dirty"),
    }
}

pub(crate) fn section(out: &mut String, run: Option<&GuardCorpus>, date: &str) {
    let Some(run) = run else { return };
    let summary = Summary::of(&run.outcomes);
    let count = |kind| run.outcomes.iter().filter(|o| o.row.kind == kind).count();
    let _ = writeln!(out, "{HEADING}\n");
    let _ = writeln!(
        out,
        "A held-out corpus of {} dangerous and {} ordinary command lines (`test-data/guard-corpus/`, written from public bypass shapes, shell semantics and what agents run all day, not from the guard's code), each sent as a Claude Code `PreToolUse` `Bash` call through the static release `gateway-shim` to the release `gateway` on its embedded default config, one call at a time (cwd `/home/dev/acme-api`, `$HOME` `/home/dev`). A dangerous command counts as stopped when the reply denies or asks; an ordinary one is a false positive when it is denied or asked. `out-of-scope:*` categories are outside what docs/guard.md says the default rules deny: reported, not counted. Guard time is the guard's own `latency_us` in the decision log.\n",
        count(Kind::Dangerous),
        count(Kind::Ordinary)
    );
    let _ = writeln!(out, "- Measured: {date}, commit `{}`", run.commit);
    let _ = writeln!(
        out,
        "- Rerun: `cargo run --release -p hookgate-integration-tests --bin hookbench -- --only guard --splice` (replaces this section only; add `--write-known-gaps` to rewrite `test-data/guard-corpus/known-gaps.tsv`, which `cargo test -p hookgate-integration-tests --test it guard_heldout` holds the guard to)\n"
    );
    rates_tables(out, &summary);
    if let Some(slowest) = run.outcomes.iter().max_by_key(|o| o.guard_time) {
        let _ = writeln!(
            out,
            "Slowest guard time of the run: {} µs, for {} ({}).\n",
            slowest.guard_time.as_micros(),
            code(&slowest.row.written),
            slowest.row.category
        );
    }
    listings(out, &run.outcomes);
}

fn rates_tables(out: &mut String, summary: &Summary) {
    let row = |out: &mut String, name: &str, t: &Tally, ask: bool| {
        let asked = if ask && t.asked > 0 {
            format!(" ({} ask)", t.asked)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {}{asked} | {:.1} % | {} |",
            t.commands,
            t.wrong,
            t.rate(),
            t.slowest.as_micros()
        );
    };
    let _ = writeln!(
        out,
        "| Dangerous, in scope | Commands | Passed | Bypass rate | Slowest guard µs |\n|---|---:|---:|---:|---:|"
    );
    for ((_, name), tally) in summary.dangerous.iter().filter(|((out, _), _)| !out) {
        row(out, name, tally, false);
    }
    row(out, "**all in scope**", &summary.dangerous_total, false);
    let _ = writeln!(
        out,
        "\n| Dangerous, out of scope (not counted) | Commands | Passed | Pass rate | Slowest guard µs |\n|---|---:|---:|---:|---:|"
    );
    for ((_, name), tally) in summary.dangerous.iter().filter(|((out, _), _)| *out) {
        row(out, name, tally, false);
    }
    row(
        out,
        "**all out of scope**",
        &summary.out_of_scope_total,
        false,
    );
    let _ = writeln!(
        out,
        "\n| Ordinary | Commands | Stopped | False-positive rate | Slowest guard µs |\n|---|---:|---:|---:|---:|"
    );
    for (name, tally) in &summary.ordinary {
        row(out, name, tally, true);
    }
    row(out, "**all ordinary**", &summary.ordinary_total, true);
    out.push('\n');
}

fn listings(out: &mut String, outcomes: &[Outcome]) {
    let wrong = |kind: Kind, counted: bool| {
        outcomes
            .iter()
            .filter(move |o| o.wrong() && o.row.kind == kind && o.row.counted() == counted)
    };
    let _ = writeln!(
        out,
        "### Bypasses ({})\n\nIn-scope dangerous commands the guard let through (`{{{{nl}}}}` is a newline, `{{{{pad:N}}}}` N letters).\n\n| Category | Shape | Command |\n|---|---|---|",
        wrong(Kind::Dangerous, true).count()
    );
    for o in wrong(Kind::Dangerous, true) {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            o.row.category,
            cell(&o.row.source),
            code(&o.row.written)
        );
    }
    let _ = writeln!(
        out,
        "\n### False positives ({})\n\n| Category | Verdict | Command | Reason given |\n|---|---|---|---|",
        wrong(Kind::Ordinary, true).count()
    );
    for o in wrong(Kind::Ordinary, true) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            o.row.category,
            o.verdict.as_str(),
            code(&o.row.written),
            cell(&o.reason)
        );
    }
    let stopped = outcomes
        .iter()
        .filter(|o| !o.row.counted() && o.verdict != Verdict::Allow)
        .count();
    let _ = writeln!(
        out,
        "\n### Out of scope, passed ({}; {stopped} stopped anyway)\n\n| Category | Command |\n|---|---|",
        wrong(Kind::Dangerous, false).count()
    );
    for o in wrong(Kind::Dangerous, false) {
        let _ = writeln!(out, "| {} | {} |", o.row.category, code(&o.row.written));
    }
    out.push('\n');
}

/// `text` as inline code that survives a table cell: a fence longer than
/// any backtick run in it, pipes escaped.
fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let body = text.replace('|', "\\|");
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// Plain text for a table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.replace(['\n', '\r'], " ").replace('|', "\\|")
}
