//! The human-readable `gateway status`: a few aligned tables rendered from
//! the JSON status document (the client renders what the gateway sent, so
//! a newer gateway's extra fields are simply not shown).

use std::fmt::Write as _;

use serde_json::Value;

fn u(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("-")
}

/// `1234` µs as `1.23ms`, `950µs`, `2.50s`.
pub fn duration(us: u64) -> String {
    match us {
        0..1_000 => format!("{us}µs"),
        1_000..1_000_000 => format!("{:.2}ms", us as f64 / 1e3),
        _ => format!("{:.2}s", us as f64 / 1e6),
    }
}

fn uptime(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs / 3_600 % 24, secs / 60 % 60, secs % 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) => format!("{m}m {s}s"),
        (0, _, _) => format!("{h}h {m}m"),
        _ => format!("{d}d {h}h"),
    }
}

/// Columns aligned; the first `text_cols` are left-aligned, the rest right.
fn table(out: &mut String, rows: &[Vec<String>], text_cols: usize) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c > 0 {
                line.push_str("  ");
            }
            if c < text_cols {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn percentiles(latency: &Value) -> [String; 3] {
    ["p50_us", "p95_us", "p99_us"].map(|k| {
        if u(latency, "count") == 0 {
            "-".to_owned()
        } else {
            duration(u(latency, k))
        }
    })
}

/// Non-zero entries of a `{name: count}` object, as `name 3, other 1`
/// (or `none`).
/// Payloads not understood by reason, and how they were answered.
fn unparsed(doc: &Value) -> String {
    match nonzero(doc.get("unparsed")).as_str() {
        "none" => "none".to_owned(),
        reasons => format!(
            "{reasons} (replied {})",
            nonzero(doc.get("unparsed_replies"))
        ),
    }
}

fn nonzero(v: Option<&Value>) -> String {
    let parts: Vec<String> = v
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, n)| n.as_u64().filter(|n| *n > 0).map(|n| format!("{k} {n}")))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The config generation and the last reload attempt, in one line.
fn reload(r: &Value) -> String {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let ago = |ms: u64| uptime(now_ms.saturating_sub(ms) / 1000);
    let mut out = format!(
        "generation {}, loaded {} ago",
        u(r, "generation"),
        ago(u(r, "loaded_at_ms"))
    );
    if let Some(at) = r.get("last_attempt_at_ms").and_then(Value::as_u64) {
        let _ = write!(
            out,
            "; last reload {} ({}, {} ago)",
            s(r, "last_result"),
            s(r, "last_trigger"),
            ago(at)
        );
    }
    if let Some(error) = r.get("last_error").and_then(Value::as_str) {
        let _ = write!(out, ": {error}");
    }
    out
}

/// The whole report.
pub fn render(doc: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hookgate gateway {} (pid {}), up {}",
        s(doc, "version"),
        u(doc, "pid"),
        uptime(u(doc, "uptime_secs"))
    );
    let metrics = doc
        .get("metrics_addr")
        .and_then(Value::as_str)
        .map_or_else(|| "off".to_owned(), |a| format!("http://{a}/metrics"));
    let reload = reload(&doc["reload"]);
    for (name, value) in [
        ("socket", s(doc, "socket")),
        ("admin", s(doc, "admin_socket")),
        ("config", s(doc, "config")),
        ("reload", &reload),
        ("metrics", &metrics),
    ] {
        let _ = writeln!(out, "  {name:<8}{value}");
    }
    let latency = &doc["latency"];
    let [p50, p95, p99] = percentiles(latency);
    let _ = writeln!(
        out,
        "\nrequests {}   p50 {p50}   p95 {p95}   p99 {p99}   max {}",
        u(latency, "count"),
        if u(latency, "count") == 0 {
            "-".to_owned()
        } else {
            duration(u(latency, "max_us"))
        }
    );

    let mut rows = vec![
        [
            "AGENT", "EVENT", "EVENTS", "ALLOW", "ASK", "DENY", "NEUTRAL", "HALT", "P50", "P95",
            "P99",
        ]
        .map(str::to_owned)
        .to_vec(),
    ];
    for e in doc["events"].as_array().into_iter().flatten() {
        let o = &e["outcomes"];
        let mut row = vec![
            s(e, "agent").to_owned(),
            s(e, "event").to_owned(),
            u(e, "count").to_string(),
        ];
        row.extend(["allow", "ask", "deny", "neutral", "halt"].map(|k| u(o, k).to_string()));
        row.extend(percentiles(&e["latency"]));
        rows.push(row);
    }
    out.push('\n');
    if rows.len() == 1 {
        out.push_str("no events yet\n");
    } else {
        table(&mut out, &rows, 2);
    }

    let mut rows = vec![
        [
            "SUBSCRIBER",
            "STATE",
            "CALLS",
            "OK",
            "ALLOW",
            "ASK",
            "DENY",
            "ERR",
            "TIMEOUT",
            "FAIL-OPEN",
            "FAIL-CLOSED",
            "DROPS",
            "P50",
            "P95",
            "P99",
        ]
        .map(str::to_owned)
        .to_vec(),
    ];
    for sub in doc["subscribers"].as_array().into_iter().flatten() {
        let state = match s(sub, "state_source") {
            "health" | "last_call" => format!(
                "{} ({})",
                s(sub, "state"),
                s(sub, "state_source").replace('_', " ")
            ),
            _ => s(sub, "state").to_owned(),
        };
        let mut row = vec![s(sub, "name").to_owned(), state];
        row.extend(
            [
                "calls",
                "ok",
                "allow",
                "ask",
                "deny",
                "errors",
                "timeouts",
                "fail_open",
                "fail_closed",
                "drops",
            ]
            .map(|k| u(sub, k).to_string()),
        );
        row.extend(percentiles(&sub["latency"]));
        rows.push(row);
    }
    out.push('\n');
    if rows.len() == 1 {
        out.push_str("no subscribers configured\n");
    } else {
        table(&mut out, &rows, 2);
    }
    let sub_errors: Vec<String> = doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|sub| u(sub, "errors") > 0)
        .map(|sub| format!("{}: {}", s(sub, "name"), nonzero(sub.get("errors_by_kind"))))
        .collect();

    out.push('\n');
    let mut problems = vec![
        (
            "parse errors",
            format!(
                "{} ({})",
                u(doc, "parse_errors"),
                nonzero(doc.get("parse_errors_by_agent"))
            ),
        ),
        ("detect errors", u(doc, "detect_errors").to_string()),
        ("unparsed", unparsed(doc)),
        ("refused", nonzero(doc.get("refused"))),
        ("http refused", nonzero(doc.get("http_refused"))),
        ("shim fallbacks", nonzero(doc.get("fallbacks"))),
        ("rewrite conflicts", u(doc, "rewrite_conflicts").to_string()),
        ("context cut", u(doc, "context_truncations").to_string()),
    ];
    let losses: Vec<String> = doc["merge"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| format!("{}: {}", s(m, "agent"), nonzero(m.get("losses"))))
        .collect();
    problems.push((
        "losses",
        if losses.is_empty() {
            "none".into()
        } else {
            losses.join("; ")
        },
    ));
    if !sub_errors.is_empty() {
        problems.push(("errors", sub_errors.join("; ")));
    }
    let breakers: Vec<String> = doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|sub| {
            !matches!(s(sub, "breaker"), "off" | "closed" | "") || u(sub, "breaker_opened") > 0
        })
        .map(|sub| {
            format!(
                "{}: {} (skipped {}, opened {}, closed {})",
                s(sub, "name"),
                s(sub, "breaker"),
                u(sub, "breaker_open"),
                u(sub, "breaker_opened"),
                u(sub, "breaker_closed")
            )
        })
        .collect();
    if !breakers.is_empty() {
        problems.push(("breakers", breakers.join("; ")));
    }
    let shadows: Vec<String> = doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|sub| {
            ["allow", "ask", "deny"]
                .iter()
                .any(|k| u(&sub["would"], k) > 0)
        })
        .map(|sub| {
            let w = &sub["would"];
            format!(
                "{}: would allow {}, ask {}, deny {}",
                s(sub, "name"),
                u(w, "allow"),
                u(w, "ask"),
                u(w, "deny")
            )
        })
        .collect();
    if !shadows.is_empty() {
        problems.push(("shadow", shadows.join("; ")));
    }
    for (name, value) in problems {
        let _ = writeln!(out, "{name:<18}{value}");
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use hookgate_adapters::{Agent, EventKind};

    use super::*;
    use crate::admin::status::StatusSource;
    use crate::metrics::{ErrorKind, Metrics, Outcome, Refusal};

    #[tokio::test]
    async fn renders_a_real_document() {
        let metrics = Arc::new(Metrics::default());
        metrics.event(Agent::ClaudeCode, EventKind::PreToolUse);
        let took = Duration::from_micros(1_500);
        metrics.replied(
            Agent::ClaudeCode,
            EventKind::PreToolUse,
            Outcome::Deny,
            took,
        );
        metrics.refused(Refusal::Busy);
        metrics.subscriber("policy").error(ErrorKind::Connect);
        let policy = metrics.subscriber("policy");
        policy.set_breaker(crate::metrics::BreakerState::Open);
        policy
            .breaker_opened
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        policy
            .breaker_open
            .fetch_add(4, std::sync::atomic::Ordering::Relaxed);
        metrics
            .subscriber("strict")
            .would(hookgate_adapters::Permission::Deny);
        let dir = tempfile::tempdir().unwrap();
        let source = StatusSource::new(metrics, dir.path().join("gw.sock"), "cfg.toml".into());
        source.reload.record(
            "signal",
            &crate::reload::Outcome::Invalid {
                generation: 1,
                error: "cfg.toml:3:1: bad".into(),
            },
        );
        let doc = serde_json::to_value(source.document().await).unwrap();
        let text = render(&doc);
        assert!(text.contains("metrics off"), "{text}");
        let reload = text.lines().find(|l| l.contains("reload  ")).expect(&text);
        assert!(reload.contains("generation 1, loaded "), "{text}");
        assert!(reload.contains("; last reload invalid (signal, "), "{text}");
        assert!(reload.ends_with(" ago): cfg.toml:3:1: bad"), "{text}");
        assert!(text.contains("config  cfg.toml"), "{text}");
        let event = text
            .lines()
            .find(|l| l.starts_with("claude-code"))
            .expect(&text);
        let cells: Vec<&str> = event.split_whitespace().collect();
        assert_eq!(
            &cells[..8],
            ["claude-code", "pre_tool_use", "1", "0", "0", "1", "0", "0"],
            "{text}"
        );
        assert_eq!(cells[8], "1.50ms", "{text}");
        assert!(text.contains("refused           busy 1"), "{text}");
        assert!(
            text.contains("shadow            strict: would allow 0, ask 0, deny 1"),
            "{text}"
        );
        assert!(
            text.contains("breakers          policy: open (skipped 4, opened 1, closed 0)"),
            "{text}"
        );
        assert!(
            text.contains("errors            policy: connect 1"),
            "{text}"
        );
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(duration(950), "950µs");
        assert_eq!(duration(1_234), "1.23ms");
        assert_eq!(duration(2_500_000), "2.50s");
        assert_eq!(uptime(3_725), "1h 2m");
    }
}
