//! `gateway config show --effective`: the merged config as TOML, each
//! entry followed by the layer it came from. The output is itself a valid
//! config (a system one when it shows `locked` keys): with `[defaults]
//! embedded = false` it builds the same subscribers (every rule carries its
//! id, derived ones included).

use std::fmt::Write as _;

use super::rule_id::rule_id;
use super::{Config, Layer, SubscriberConfig};

/// Keys shown first, in this order; the rest follow alphabetically.
const SUBSCRIBER_ORDER: [&str; 4] = ["name", "builtin", "endpoint", "priority"];
const RULE_ORDER: [&str; 16] = [
    "id",
    "command",
    "subcommand",
    "flags",
    "operand",
    "path",
    "unless",
    "access",
    "fetch",
    "into",
    "shell",
    "file_path",
    "mcp_tool",
    "action",
    "reason",
    "locked",
];

/// The merged `config` as annotated TOML.
pub fn effective(config: &Config) -> String {
    let mut out = String::from("# The effective configuration, layer by layer (bottom first):\n");
    for (layer, origin) in &config.layers {
        let _ = writeln!(out, "#   {:<8} {origin}", layer.as_str());
    }
    out.push_str("# Each value is followed by the layer it comes from.\n\n");
    server(&mut out, config);
    sections(&mut out, config);
    for sub in &config.subscribers {
        subscriber(&mut out, sub);
    }
    out
}

/// Where `key` (`server.KEY`, `http`, ...) comes from.
fn from(config: &Config, key: &str) -> &'static str {
    config
        .key_layers
        .get(key)
        .map_or("built-in value", |l| l.as_str())
}

fn server(out: &mut String, config: &Config) {
    let s = &config.server;
    out.push_str("[server]\n");
    let mut key = |name: &str, value: String| {
        let from = from(config, &format!("server.{name}"));
        let _ = writeln!(out, "{:<40} # {from}", format!("{name} = {value}"));
    };
    if let Some(socket) = &s.socket {
        key("socket", quoted(&socket.display().to_string()));
    }
    key("max_connections", s.max_connections.to_string());
    key("queue_wait_ms", s.queue_wait.as_millis().to_string());
    key("read_timeout_ms", s.read_timeout.as_millis().to_string());
    key(
        "shutdown_grace_ms",
        s.shutdown_grace.as_millis().to_string(),
    );
    key(
        "on_unparsed",
        quoted(match s.on_unparsed {
            hookgate_adapters::FailMode::Open => "open",
            hookgate_adapters::FailMode::Closed => "closed",
        }),
    );
    key("memory_budget_mib", (s.memory_budget >> 20).to_string());
    key("max_followups", s.max_followups.to_string());
    if let Some(addr) = s.metrics_addr {
        key("metrics_addr", quoted(&addr.to_string()));
    }
    out.push('\n');
}

/// `[http]`, `[ui]`, `[otel]` (when on) and `[identity]`, each with its layer.
fn sections(out: &mut String, config: &Config) {
    if let Some(http) = &config.http {
        let _ = writeln!(
            out,
            "[http]                                   # {}",
            from(config, "http")
        );
        let _ = writeln!(out, "listen = {}", quoted(&http.listen.to_string()));
        let _ = writeln!(out, "max_open_connections = {}\n", http.max_open);
    }
    if let Some(ui) = &config.ui {
        let _ = writeln!(
            out,
            "[ui]                                     # {}",
            from(config, "ui")
        );
        let _ = writeln!(out, "listen = {}", quoted(&ui.listen.to_string()));
        let _ = writeln!(out, "max_clients = {}\n", ui.max_clients);
    }
    if let Some(otel) = &config.otel {
        let _ = writeln!(
            out,
            "[otel]                                   # {}",
            from(config, "otel")
        );
        let _ = writeln!(out, "endpoint = {}", quoted(&otel.endpoint));
        let _ = writeln!(out, "service_name = {}", quoted(&otel.service_name));
        let _ = writeln!(out, "sample_ratio = {:?}", otel.sample_ratio);
        if !otel.headers_env.is_empty() {
            let pairs: Vec<String> = otel
                .headers_env
                .iter()
                .map(|(header, var)| format!("{} = {}", bare_or_quoted(header), quoted(var)))
                .collect();
            let _ = writeln!(out, "headers_env = {{ {} }}", pairs.join(", "));
        }
        if let Some(file) = &otel.headers_file {
            let _ = writeln!(
                out,
                "headers_file = {}",
                quoted(&file.display().to_string())
            );
        }
        let _ = writeln!(out, "queue_size = {}", otel.queue_size);
        let _ = writeln!(
            out,
            "export_timeout_ms = {}",
            otel.export_timeout.as_millis()
        );
        let _ = writeln!(
            out,
            "metrics_interval_ms = {}",
            otel.metrics_interval.as_millis()
        );
        let _ = writeln!(out, "payloads = {}", otel.payloads);
        if otel.locked {
            out.push_str("locked = true\n");
        }
        out.push('\n');
    }
    let identity = &config.identity;
    let _ = writeln!(
        out,
        "[identity]                               # {}",
        from(config, "identity")
    );
    let _ = writeln!(out, "hostname = {}", identity.hostname);
    let _ = writeln!(out, "user = {}", identity.user);
    if let Some(origin) = &identity.origin {
        let _ = writeln!(out, "origin = {}", quoted(origin));
    }
    if !identity.labels.is_empty() {
        let pairs: Vec<String> = identity
            .labels
            .iter()
            .map(|(name, value)| format!("{} = {}", bare_or_quoted(name), quoted(value)))
            .collect();
        let _ = writeln!(out, "labels = {{ {} }}", pairs.join(", "));
    }
    out.push('\n');
}

fn subscriber(out: &mut String, sub: &SubscriberConfig) {
    let Some(table) = sub.settings.as_table() else {
        return;
    };
    let _ = writeln!(
        out,
        "[[subscriber]]                           # defined by the {} layer",
        sub.layer.as_str()
    );
    let from = |key: &str| sub.provenance.keys.get(key).copied();
    for (key, value) in ordered(table, &SUBSCRIBER_ORDER) {
        if key == "rules" {
            continue;
        }
        line(out, key, value, from(key));
    }
    let rules = table
        .get("rules")
        .and_then(toml::Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (i, rule) in rules.iter().enumerate() {
        let Some(rule) = rule.as_table() else {
            continue;
        };
        let layer = sub.provenance.rules.get(i).copied();
        let _ = writeln!(
            out,
            "\n[[subscriber.rules]]                     # {}",
            layer.map_or("?", Layer::as_str)
        );
        let id = rule_id(rule);
        line(out, "id", &toml::Value::String(id), None);
        for (key, value) in ordered(rule, &RULE_ORDER) {
            if key != "id" {
                line(out, key, value, None);
            }
        }
    }
    out.push('\n');
}

/// `table`'s entries, `first` keys first in that order.
fn ordered<'t>(table: &'t toml::Table, first: &[&str]) -> Vec<(&'t str, &'t toml::Value)> {
    let mut entries: Vec<(&str, &toml::Value)> =
        table.iter().map(|(k, v)| (k.as_str(), v)).collect();
    entries.sort_by_key(|(k, _)| (first.iter().position(|f| f == k).unwrap_or(first.len()), *k));
    entries
}

fn line(out: &mut String, key: &str, value: &toml::Value, from: Option<Layer>) {
    let text = format!("{} = {value}", bare_or_quoted(key));
    match from {
        Some(layer) => {
            let _ = writeln!(out, "{text:<40} # {}", layer.as_str());
        }
        None => {
            let _ = writeln!(out, "{text}");
        }
    }
}

fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn bare_or_quoted(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { key.to_owned() } else { quoted(key) }
}
