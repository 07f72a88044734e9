//! `gateway eval`'s report, from the outcome document (the same whether
//! the config ran in-process or in a live gateway): the document itself
//! with `--json`, else a few readable lines.

use serde_json::Value;

pub(super) fn print(doc: &Value, as_json: bool) {
    if as_json {
        outln!("{doc:#}");
        return;
    }
    let mut text = String::new();
    match &doc["event"] {
        Value::Null => text.push_str("event: not understood (the fail mode's reply follows)\n"),
        event => text.push_str(&format!("event:\n{event:#}\n")),
    }
    text.push_str("subscribers:\n");
    let subscribers = doc["subscribers"].as_array().map_or(&[][..], Vec::as_slice);
    if subscribers.is_empty() {
        text.push_str("  (none matched)\n");
    }
    for s in subscribers {
        let revision = s["revision"]
            .as_str()
            .map(|r| format!("  revision {r}"))
            .unwrap_or_default();
        let latency_ms = s["latency_us"].as_u64().unwrap_or_default() as f64 / 1000.0;
        text.push_str(&format!(
            "  {:<20} {:<5} {latency_ms:>9.3} ms{revision}\n",
            s["name"].as_str().unwrap_or_default(),
            s["permission"].as_str().unwrap_or_default(),
        ));
    }
    let decision = &doc["decision"];
    text.push_str(&format!(
        "merged: {}",
        decision["permission"].as_str().unwrap_or_default()
    ));
    if let Some(reason) = decision["reason"].as_str() {
        text.push_str(&format!(" ({reason})"));
    }
    text.push('\n');
    let losses: Vec<&str> = doc["losses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let losses = if losses.is_empty() {
        "none".to_owned()
    } else {
        losses.join(", ")
    };
    text.push_str(&format!("losses: {losses}\n"));
    let reply = &doc["reply"];
    text.push_str(&format!("reply: exit {}\n", reply["exit_code"]));
    for stream in ["stdout", "stderr"] {
        match reply[stream].as_str() {
            Some(out) if !out.is_empty() => text.push_str(&format!("{stream}: {out}\n")),
            _ => {}
        }
    }
    outln!("{}", text.trim_end());
}
