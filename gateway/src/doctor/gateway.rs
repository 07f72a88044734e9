//! The gateway's side: one socket, a gateway answering on it, a config
//! with guard and audit, subscribers up, no fallbacks pending.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_gateway::admin::client;
use hookgate_gateway::config::{Config, SubscriberKind};
use hookgate_gateway::fallbacks;

use super::Report;
use super::agents::Installed;

/// Deadline of the status call.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The socket to check: `--socket`, else the one every installed hook
/// pins, else this environment's default. Hooks pinning different sockets
/// are a problem: some agents talk to a gateway nobody runs.
pub(crate) fn socket(
    asked: Option<PathBuf>,
    installed: &[Installed],
    report: &mut Report,
) -> PathBuf {
    let resolved = hookgate_gateway::transport::default_path();
    let mut pinned: Vec<&Path> = installed
        .iter()
        .filter_map(|i| i.socket.as_deref())
        .collect();
    pinned.sort();
    pinned.dedup();
    if pinned.len() > 1 {
        let list: Vec<String> = pinned.iter().map(|p| p.display().to_string()).collect();
        report.problem(
            &format!(
                "the agents' hooks use different sockets: {}",
                list.join(", ")
            ),
            "run `gateway install --all` once, from one environment",
        );
    }
    let socket = asked
        .or_else(|| pinned.first().map(|p| p.to_path_buf()))
        .unwrap_or(resolved.clone());
    if installed.iter().any(|i| i.socket.is_none()) {
        report.problem(
            "some hooks do not pin the socket: an agent started without XDG_RUNTIME_DIR looks elsewhere",
            "gateway install --all",
        );
    }
    if socket != resolved {
        report.note(&format!(
            "this shell resolves {} but the hooks use {}: the hooks' socket is checked",
            resolved.display(),
            socket.display()
        ));
    }
    socket
}

/// Checks the gateway at `socket`; returns whether it answers.
pub(crate) async fn check(socket: &Path, report: &mut Report) -> bool {
    check_config(report);
    let pending = fallbacks::peek(socket);
    let up = match client::fetch(socket, TIMEOUT).await {
        Ok(doc) => {
            report.ok(&format!("a gateway answers on {}", socket.display()));
            check_subscribers(&doc, report);
            true
        }
        Err(err) => {
            report.problem(
                &format!("no gateway answers on {}: {err}", socket.display()),
                &format!(
                    "start one: `gateway serve --socket {}` (hooks installed by `gateway install` start it on their next call)",
                    socket.display()
                ),
            );
            false
        }
    };
    if !pending.is_empty() {
        let total: u64 = pending.values().sum();
        let reasons: Vec<String> = pending.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let what = format!(
            "shims answered {total} hook calls without the gateway since it last collected them ({})",
            reasons.join(", ")
        );
        if up {
            report.note(&what);
        } else {
            report.problem(&what, "start the gateway; `gateway status` then shows them");
        }
    }
    up
}

/// The config a gateway started here would load: valid, with guard and
/// audit (an empty hand-written config starts with no subscriber at all).
fn check_config(report: &mut Report) {
    let config = match Config::load(None) {
        Ok(config) => config,
        Err(err) => {
            report.problem(
                &format!("the config is invalid: {err}"),
                "fix it, then restart the gateway",
            );
            return;
        }
    };
    let has = |f: fn(&SubscriberKind) -> bool| config.subscribers.iter().any(|s| f(&s.kind));
    if has(|k| matches!(k, SubscriberKind::Guard { .. })) {
        report.ok(&format!("config {}: guard on", config.origin));
    } else {
        report.problem(
            &format!(
                "config {} has no guard subscriber: dangerous commands pass unchecked",
                config.origin
            ),
            "add the `guard` [[subscriber]] of the embedded default (README, \"Configuration\")",
        );
    }
    if has(|k| matches!(k, SubscriberKind::Audit { .. })) {
        report.ok(&format!("config {}: audit on", config.origin));
    } else {
        report.problem(
            &format!(
                "config {} has no audit subscriber: nothing records what the agents did",
                config.origin
            ),
            "add the `audit` [[subscriber]] of the embedded default (README, \"Configuration\")",
        );
    }
}

/// Every subscriber of the running gateway up.
fn check_subscribers(doc: &serde_json::Value, report: &mut Report) {
    for sub in subscribers(doc) {
        let name = sub["name"].as_str().unwrap_or("?");
        match sub["state"].as_str() {
            Some("down") => report.problem(
                &format!("subscriber `{name}` is down: its events get its on_error answer"),
                "start it, or check its endpoint in the config (`gateway status` shows its errors)",
            ),
            Some(state) => report.ok(&format!("subscriber `{name}`: {state}")),
            None => report.note(&format!("subscriber `{name}`: state unknown")),
        }
    }
}

/// The subscribers of a status document.
pub(crate) fn subscribers(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    let list = doc
        .get("subscribers")
        .or_else(|| doc.get("metrics").and_then(|m| m.get("subscribers")));
    list.and_then(serde_json::Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The events the gateway counted for `agent` (its status name): a probe
/// that reached it moves this count, and only its own agent's.
pub(crate) fn activity(doc: &serde_json::Value, agent: &str) -> u64 {
    let metrics = doc.get("metrics").unwrap_or(doc);
    metrics
        .get("events")
        .and_then(serde_json::Value::as_array)
        .map(|events| {
            events
                .iter()
                .filter(|e| e["agent"].as_str() == Some(agent))
                .filter_map(|e| e["count"].as_u64())
                .sum()
        })
        .unwrap_or(0)
}

/// `client::fetch` for the probe.
pub(crate) async fn fetch(socket: &Path) -> Option<serde_json::Value> {
    client::fetch(socket, TIMEOUT).await.ok()
}
