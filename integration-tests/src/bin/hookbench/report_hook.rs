//! BENCHMARKS.md section 1 (a hook call's whole-process cost, checked
//! against the independent C loop) and section 1b (what a hook costs as
//! the real Claude Code sees it).

use std::fmt::Write as _;

use crate::Results;
use crate::breaker_open::{BREAKER_COOLDOWN, BREAKER_FAILURES};
use crate::hook_cost::HookCost;
use crate::stats::{ms, ratio, signed_ms};

/// The two measurements agree when each row's ratio to /bin/true differs
/// by at most this fraction between them (ratios, not times: the two ran
/// a few minutes apart on a machine that drifts).
pub(crate) const AGREEMENT: f64 = 0.10;

/// Whether `row`'s ratio to (c) agrees between the bench and the C loop;
/// `None` when either has no figure.
pub(crate) fn agrees(hook: &HookCost, key: char) -> Option<(f64, f64, bool)> {
    let row = hook.rows.iter().find(|r| r.key == key)?;
    let c = hook.rows.iter().find(|r| r.key == 'c')?;
    let bench = ratio(row.summary.median, c.summary.median);
    let independent = ratio(row.independent?, c.independent?);
    let ok = (bench - independent).abs() <= AGREEMENT * independent;
    Some((bench, independent, ok))
}

pub(crate) fn hook_section(out: &mut String, results: &Results) {
    let Some(hook) = &results.hook else { return };
    let (Some(a), Some(c)) = (hook.median('a'), hook.median('c')) else {
        return;
    };
    let n = hook.rows.first().map_or(0, |r| r.summary.n);
    let _ = writeln!(out, "## 1. Hook call cost, whole process\n");
    let _ = writeln!(
        out,
        "Each hook is spawned as an agent spawns it: `posix_spawn` (std's `Command`, which takes glibc's posix_spawn path here), the Claude Code `PreToolUse` sample payload (adapters/test_data/claude-code/PreToolUse.json) as a FILE on stdin, stdout a pipe read to EOF, stderr /dev/null; timed from spawn to exit, nothing else in the timer. All rows run in one loop, each round in a new shuffled order (a fixed order gives each row a fixed predecessor), {n} measured rounds after warm-up. The shims run with `HOOKGATE_FAIL=closed`, so a call that missed the gateway would deny and abort the run; script replies must be the stub's `{{}}`. (i) is a static C no-op compiled in the run (`{}`, {}); (g) is the shim's own start-up without a call; (h) is (a)'s request sent by the bench over the socket of a gateway of its own (so it never warms (a)'s), no process: the gateway's round trip as the shim sees it. (k) is the HTTP hook: the same payload POSTed with the token to a no-subscriber gateway's `[http]` endpoint by the bench's keep-alive client, no process (what an agent's `type: \"http\"` hook costs on the wire; section \"HTTP hook endpoint\" below has its throughput). (j) is issue 17's figure: the gateway's only remote subscriber was killed and its breaker is open ({BREAKER_FAILURES} failures open it, {} s cool-down, then one probe).\n",
        hook.noop_build,
        hook.cc_version,
        BREAKER_COOLDOWN.as_secs()
    );
    let _ = writeln!(
        out,
        "\"C loop\" is the same command timed by an independent C program compiled in the run (its own posix_spawn, stdin from the same file, stdout a drained pipe, a new shuffled order each round; {} rounds in all, run in chunks between chunks of this loop). They agree when the two ratios to (c) differ by at most {:.0} %.\n",
        hook.independent_runs,
        AGREEMENT * 100.0
    );
    let _ = writeln!(
        out,
        "| Variant | median ms | p95 ms | min ms | × (c) | × (a) | C loop median ms | C loop × (c) | agree |\n|---|---:|---:|---:|---:|---:|---:|---:|:---:|"
    );
    for row in &hook.rows {
        let s = row.summary;
        let (independent, independent_ratio, agree) = match (row.independent, agrees(hook, row.key))
        {
            (Some(median), Some((_, r, ok))) => (
                ms(median),
                format!("{r:.2}"),
                if ok { "yes" } else { "**no**" },
            ),
            _ => ("—".to_owned(), "—".to_owned(), "—"),
        };
        let _ = writeln!(
            out,
            "| ({}) {} | {} | {} | {} | {:.2} | {:.2} | {independent} | {independent_ratio} | {agree} |",
            row.key,
            row.label,
            ms(s.median),
            ms(s.p95),
            ms(s.min),
            ratio(s.median, c),
            ratio(s.median, a)
        );
    }
    let b = &hook.breaker;
    let _ = writeln!(
        out,
        "\n(j)'s subscriber after the loop: breaker `{}`, {} calls answered without calling it (`breaker_open`), {} failed connect attempts (the opening ones and the probes).",
        b.state, b.skipped, b.attempts
    );
    let _ = writeln!(
        out,
        "(k)'s keep-alive connection was found closed (idle past the gateway's read deadline, while the C loop ran) and reopened untimed {} times.",
        hook.http_reconnects
    );
    if let (Some(j), Some(g), Some(h)) = (hook.median('j'), hook.median('g'), hook.median('h')) {
        let _ = writeln!(
            out,
            "(j) − (a): {} ms; (a) − (g), what the call adds to the shim's start-up: {} ms, vs (h) {} ms in-process.",
            signed_ms(j, a),
            signed_ms(a, g),
            ms(h)
        );
    }
    let _ = writeln!(
        out,
        "\nIdle RSS of the no-subscriber gateway before its first event: {:.1} MiB.\n\nBaseline tools: {}.\n",
        hook.idle_memory.rss_kib as f64 / 1024.0,
        hook.tool_versions.join("; ")
    );
}

pub(crate) fn agent_section(out: &mut String, results: &Results) {
    if let Some(agent) = &results.agent {
        crate::agent_cost::render(out, agent);
    }
}
