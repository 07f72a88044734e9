//! The parts of `gateway status` about what happened rather than how the
//! gateway runs: which guard rules decided, the probes (doctor, eval), what the
//! decision logs' writers had to do, and since when the counts run (they
//! survive restarts).

use std::fmt::Write as _;

use serde_json::Value;

/// One row per guard rule that decided, `None` when none did.
pub(super) fn rule_rows(doc: &Value) -> Option<Vec<Vec<String>>> {
    let mut rows = vec![vec![
        "RULE".to_owned(),
        "ACTION".to_owned(),
        "HITS".to_owned(),
    ]];
    for sub in doc["subscribers"].as_array().into_iter().flatten() {
        let name = sub["name"].as_str().unwrap_or("-");
        for rule in sub["rules"].as_array().into_iter().flatten() {
            rows.push(vec![
                format!("{name}/{}", rule["id"].as_str().unwrap_or("-")),
                rule["action"].as_str().unwrap_or("-").to_owned(),
                rule["hits"].as_u64().unwrap_or(0).to_string(),
            ]);
        }
    }
    (rows.len() > 1).then_some(rows)
}

/// `gateway doctor`'s probes and `gateway eval --socket`'s calls by agent,
/// if any.
pub(super) fn probes(doc: &Value) -> Option<String> {
    let by_agent: Vec<(String, u64)> = doc["probes"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(agent, n)| n.as_u64().filter(|n| *n > 0).map(|n| (agent.clone(), n)))
        .collect();
    let total: u64 = by_agent.iter().map(|(_, n)| n).sum();
    (total > 0).then(|| {
        let parts: Vec<String> = by_agent.iter().map(|(a, n)| format!("{a} {n}")).collect();
        format!("{total} (not counted above: {})", parts.join(", "))
    })
}

/// Each decision log's reopens (moved or deleted while open) and anchor
/// failures, shown even at zero: "reopened 0" says the check runs.
pub(super) fn audit_logs(doc: &Value) -> Option<String> {
    let logs: Vec<String> = doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|sub| sub["audit"].is_object())
        .map(|sub| {
            let audit = &sub["audit"];
            format!(
                "{}: reopened {}, anchor errors {}",
                sub["name"].as_str().unwrap_or("-"),
                audit["reopened"].as_u64().unwrap_or(0),
                audit["anchor_errors"].as_u64().unwrap_or(0)
            )
        })
        .collect();
    (!logs.is_empty()).then(|| logs.join("; "))
}

/// Each memory's captures stored and lost, injections made and given up.
pub(super) fn memories(doc: &Value) -> Option<String> {
    let lines: Vec<String> = doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|sub| sub["memory"].is_object())
        .map(|sub| {
            let m = &sub["memory"];
            let n = |key: &str| m[key].as_u64().unwrap_or(0);
            let mut line = format!(
                "{}: stored {}, store errors {}, compressed {}, injected {}, read errors {}",
                sub["name"].as_str().unwrap_or("-"),
                n("stored"),
                n("store_errors"),
                n("compressed"),
                n("injected"),
                n("read_errors")
            );
            if n("model_compressed") + n("model_errors") + n("model_waiting") > 0 {
                line.push_str(&format!(
                    ", by the model {}, model errors {}, waiting for it {}",
                    n("model_compressed"),
                    n("model_errors"),
                    n("model_waiting")
                ));
            }
            line
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}

/// Since when the counts run, if they span more than this process.
pub(super) fn since(doc: &Value, out: &mut String) {
    let Some(counts) = doc.get("counts") else {
        return;
    };
    let starts = counts["starts"].as_u64().unwrap_or(1);
    let Some(since) = counts["since_ms"].as_u64() else {
        return;
    };
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let secs = now_ms.saturating_sub(since) / 1000;
    let _ = writeln!(
        out,
        "  {:<8}since {} ago, across {starts} start(s) ({})",
        "counts",
        uptime(secs),
        counts["path"].as_str().unwrap_or("not kept"),
    );
}

/// `secs` as `42s`, `3m 5s`, `2h 10m`, `4d 1h`.
pub(super) fn uptime(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs / 3_600 % 24, secs / 60 % 60, secs % 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) => format!("{m}m {s}s"),
        (0, _, _) => format!("{h}h {m}m"),
        _ => format!("{d}d {h}h"),
    }
}
