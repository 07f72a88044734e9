//! The status report's last lines: everything that went wrong, one line
//! a kind (parse errors, refusals, shim fallbacks, subscriber errors,
//! open breakers, shadows' verdicts, policy fetches, ...), the
//! always-shown ones first.

use serde_json::Value;

use super::{s, subscribers, u};

/// Each subscriber `keep` picks, as `show` words it, joined; `None` if
/// none is picked.
fn each_subscriber(
    doc: &Value,
    keep: impl Fn(&Value) -> bool,
    show: impl Fn(&Value) -> String,
) -> Option<String> {
    let shown: Vec<String> = subscribers(doc).filter(|sub| keep(sub)).map(show).collect();
    (!shown.is_empty()).then(|| shown.join("; "))
}

/// Everything that went wrong, one line a kind; the always-shown lines
/// first, then those that only appear when there is something to say.
pub(super) fn problems(doc: &Value) -> Vec<(&'static str, String)> {
    let losses: Vec<String> = doc["merge"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| format!("{}: {}", s(m, "agent"), nonzero(m.get("losses"))))
        .collect();
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
        ("undelivered", nonzero(doc.get("undelivered"))),
        ("rewrite conflicts", u(doc, "rewrite_conflicts").to_string()),
        ("context cut", u(doc, "context_truncations").to_string()),
        (
            "losses",
            if losses.is_empty() {
                "none".into()
            } else {
                losses.join("; ")
            },
        ),
    ];
    let errors = each_subscriber(
        doc,
        |sub| u(sub, "errors") > 0,
        |sub| format!("{}: {}", s(sub, "name"), nonzero(sub.get("errors_by_kind"))),
    );
    problems.extend(errors.map(|e| ("errors", e)));
    problems.extend(super::super::activity::probes(doc).map(|p| ("probes", p)));
    problems.extend(super::super::activity::audit_logs(doc).map(|a| ("decision log", a)));
    problems.extend(super::super::activity::memories(doc).map(|m| ("memory", m)));
    let refused = u(doc, "config_refused");
    if refused > 0 {
        problems.push((
            "locked",
            format!("{refused} user config setting(s) refused (see the log)"),
        ));
    }
    let otel = &doc["otel"];
    if otel["enabled"].as_bool() == Some(true) {
        problems.push((
            "otel spans",
            format!(
                "exported {}, dropped {} (queue full {}, export failed {})",
                u(otel, "spans_exported"),
                u(otel, "spans_dropped"),
                u(otel, "spans_dropped_queue"),
                u(otel, "spans_dropped_export")
            ),
        ));
    }
    let breakers = each_subscriber(
        doc,
        |sub| !matches!(s(sub, "breaker"), "off" | "closed" | "") || u(sub, "breaker_opened") > 0,
        |sub| {
            format!(
                "{}: {} (skipped {}, opened {}, closed {})",
                s(sub, "name"),
                s(sub, "breaker"),
                u(sub, "breaker_open"),
                u(sub, "breaker_opened"),
                u(sub, "breaker_closed")
            )
        },
    );
    problems.extend(breakers.map(|b| ("breakers", b)));
    let shadows = each_subscriber(
        doc,
        |sub| {
            ["allow", "ask", "deny"]
                .iter()
                .any(|k| u(&sub["would"], k) > 0)
        },
        |sub| {
            let w = &sub["would"];
            format!(
                "{}: would allow {}, ask {}, deny {}",
                s(sub, "name"),
                u(w, "allow"),
                u(w, "ask"),
                u(w, "deny")
            )
        },
    );
    problems.extend(shadows.map(|w| ("shadow", w)));
    // `rego` subscribers: the revision deciding and the last fetch.
    let policies = each_subscriber(
        doc,
        |sub| sub["policy"].is_object(),
        |sub| {
            let p = &sub["policy"];
            let mut line = format!(
                "{}: revision {}",
                s(sub, "name"),
                p["revision"].as_str().unwrap_or("none loaded")
            );
            if let Some(fetch) = p["last_fetch"].as_str() {
                line.push_str(&format!(
                    ", last fetch {fetch} (updates {}, refused {}, fetch errors {})",
                    u(p, "updates"),
                    u(p, "refused"),
                    u(p, "fetch_errors")
                ));
            }
            line
        },
    );
    problems.extend(policies.map(|p| ("policy", p)));
    problems
}

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

/// Non-zero entries of a `{name: count}` object, as `name 3, other 1`
/// (or `none`).
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
