//! The human-readable `gateway status`: a few aligned tables rendered from
//! the JSON status document (the client renders what the gateway sent, so
//! a newer gateway's extra fields are simply not shown).

use std::fmt::Write as _;

use serde_json::Value;

mod problems;

use problems::problems;

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

/// The config generation and the last reload attempt, in one line.
fn reload(r: &Value) -> String {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let ago = |ms: u64| super::activity::uptime(now_ms.saturating_sub(ms) / 1000);
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
    let weaker = u(r, "weaker");
    if weaker > 0 {
        let _ = write!(
            out,
            "; {weaker} refused as weakening hookgate (`gateway reload --allow-weaker`)"
        );
    }
    out
}

/// The whole report: the header, the events and subscribers tables, then
/// one line per kind of trouble.
pub fn render(doc: &Value) -> String {
    let mut out = String::new();
    header(&mut out, doc);
    out.push('\n');
    match events_rows(doc) {
        Some(rows) => table(&mut out, &rows, 2),
        None => out.push_str("no events yet\n"),
    }
    out.push('\n');
    match subscriber_rows(doc) {
        Some(rows) => table(&mut out, &rows, 3),
        None => out.push_str("no subscribers configured\n"),
    }
    out.push('\n');
    if let Some(rows) = super::activity::rule_rows(doc) {
        table(&mut out, &rows, 2);
        out.push('\n');
    }
    for (name, value) in problems(doc) {
        let _ = writeln!(out, "{name:<18}{value}");
    }
    out
}

/// Who is running where, and the latency of every request.
fn header(out: &mut String, doc: &Value) {
    let _ = writeln!(
        out,
        "hookgate gateway {} (pid {}), up {}",
        s(doc, "version"),
        u(doc, "pid"),
        super::activity::uptime(u(doc, "uptime_secs"))
    );
    let metrics = doc
        .get("metrics_addr")
        .and_then(Value::as_str)
        .map_or_else(|| "off".to_owned(), |a| format!("http://{a}/metrics"));
    let reload = reload(&doc["reload"]);
    let config = match doc.get("system_config").and_then(Value::as_str) {
        Some(system) => format!("{} over system {system}", s(doc, "config")),
        None => s(doc, "config").to_owned(),
    };
    for (name, value) in [
        ("socket", s(doc, "socket")),
        ("admin", s(doc, "admin_socket")),
        ("config", &config),
        ("reload", &reload),
        ("metrics", &metrics),
    ] {
        let _ = writeln!(out, "  {name:<8}{value}");
    }
    super::activity::since(doc, out);
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
}

/// A header row of these titles.
fn titles(names: &[&str]) -> Vec<String> {
    names.iter().map(|&n| n.to_owned()).collect()
}

/// One row per agent and event; `None` before the first event.
fn events_rows(doc: &Value) -> Option<Vec<Vec<String>>> {
    let mut rows = vec![titles(&[
        "AGENT", "EVENT", "EVENTS", "ALLOW", "ASK", "DENY", "NEUTRAL", "HALT", "P50", "P95", "P99",
    ])];
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
    (rows.len() > 1).then_some(rows)
}

/// The subscribers' counters, in the order of [`SUBSCRIBER_COUNTERS`].
const SUBSCRIBER_COUNTERS: [&str; 10] = [
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
];

/// One row per subscriber; `None` when none is configured.
fn subscriber_rows(doc: &Value) -> Option<Vec<Vec<String>>> {
    let mut rows = vec![titles(&[
        "SUBSCRIBER",
        "STATE",
        "LAYER",
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
    ])];
    for sub in subscribers(doc) {
        let state = match s(sub, "state_source") {
            "health" | "last_call" => format!(
                "{} ({})",
                s(sub, "state"),
                s(sub, "state_source").replace('_', " ")
            ),
            _ => s(sub, "state").to_owned(),
        };
        let layer = if sub["locked"].as_bool() == Some(true) {
            format!("{} (locked)", s(sub, "layer"))
        } else {
            s(sub, "layer").to_owned()
        };
        let mut row = vec![s(sub, "name").to_owned(), state, layer];
        row.extend(SUBSCRIBER_COUNTERS.map(|k| u(sub, k).to_string()));
        row.extend(percentiles(&sub["latency"]));
        rows.push(row);
    }
    (rows.len() > 1).then_some(rows)
}

fn subscribers(doc: &Value) -> impl Iterator<Item = &Value> {
    doc["subscribers"].as_array().into_iter().flatten()
}

#[cfg(test)]
mod tests;
