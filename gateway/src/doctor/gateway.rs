//! The gateway's side: one socket, a gateway answering on it (started
//! through an installed hook command, as the agent's first hook call
//! would, when none runs yet), a config whose guard and audit see every
//! installed agent's tool calls, subscribers up, no fallbacks pending.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_adapters::{Agent, HookEvent};
use hookgate_config::{Config, SubscriberKind};
use hookgate_daemon::admin::client;
use hookgate_daemon::shim_records::Pending;

use super::Report;
use super::agents::Installed;
use crate::install::command;

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
    let resolved = hookgate_transport::default_path();
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

/// Finds the gateway at `socket`: one that answers, else one started the
/// way the agents' first hook call would (an installed command with
/// autostart, run with the harmless probe). Returns whether one answers.
pub(crate) async fn reach(socket: &Path, installed: &[Installed], report: &mut Report) -> bool {
    if let Ok(doc) = client::fetch(socket, TIMEOUT).await {
        report.ok(&format!("a gateway answers on {}", socket.display()));
        check_protection(&doc, report);
        check_subscribers(&doc, report);
        return true;
    }
    let autostart = installed.iter().find(|i| {
        i.socket.as_deref() == Some(socket)
            && command::var_of(&i.command, "HOOKGATE_AUTOSTART").as_deref() == Some("1")
    });
    if let Some(entry) = autostart {
        let _ = super::probe::run(&entry.command, super::probe::harmless(entry.agent));
        if let Ok(doc) = client::fetch(socket, TIMEOUT).await {
            report.ok(&format!(
                "gateway started by autostart (pid {}) on {}, through {}'s installed hook",
                doc["pid"],
                socket.display(),
                entry.agent
            ));
            check_protection(&doc, report);
            check_subscribers(&doc, report);
            return true;
        }
        match hookgate_daemon::start_failure::read(socket) {
            Some(failure) => report.problem(
                &format!(
                    "no gateway answers on {}, and autostart could not start one ({}): {}",
                    socket.display(),
                    failure.ago(),
                    failure.reason
                ),
                "fix what it names; the next hook call (or `gateway doctor`) starts the gateway",
            ),
            None => report.problem(
                &format!(
                    "no gateway answers on {}, and {}'s installed hook did not start one",
                    socket.display(),
                    entry.agent
                ),
                &format!(
                    "start one: `gateway serve --socket {}`; its errors say why",
                    socket.display()
                ),
            ),
        }
        return false;
    }
    report.problem(
        &format!("no gateway answers on {}", socket.display()),
        &format!(
            "start one: `gateway serve --socket {}` (hooks installed by `gateway install` start it on their next call)",
            socket.display()
        ),
    );
    false
}

/// The fallbacks shims recorded before this check (`pending`, read before
/// anything started a gateway, which collects them).
pub(crate) fn report_pending(pending: &Pending, up: bool, report: &mut Report) {
    if pending.is_empty() {
        return;
    }
    let what = format!(
        "shims answered {} hook calls without the gateway since it last collected them ({}): {}",
        pending.total(),
        pending.reasons(),
        pending.effect()
    );
    if up {
        report.note(&what);
    } else {
        report.problem(&what, "start the gateway; `gateway status` then shows them");
    }
}

/// The config a gateway started here would load: valid, with guard and
/// audit (an empty hand-written config starts with no subscriber at all)
/// whose filters let every installed agent's tool calls through.
pub(crate) fn check_config(installed: &[Installed], report: &mut Report) {
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
    let guards: Vec<_> = config
        .subscribers
        .iter()
        .filter(|s| matches!(s.kind, SubscriberKind::Guard { .. }))
        .collect();
    let audits: Vec<_> = config
        .subscribers
        .iter()
        .filter(|s| matches!(s.kind, SubscriberKind::Audit { .. }))
        .collect();
    for (name, subs, without) in [
        ("guard", &guards, "dangerous commands pass unchecked"),
        ("audit", &audits, "nothing records what the agents did"),
    ] {
        if subs.is_empty() {
            report.problem(
                &format!(
                    "config {} has no {name} subscriber: {without}",
                    config.origin
                ),
                &format!(
                    "add the `{name}` [[subscriber]] of the embedded default (docs/install.md, \"doctor\")"
                ),
            );
            continue;
        }
        let mut agents: Vec<Agent> = installed.iter().map(|i| i.agent).collect();
        agents.dedup();
        let excluded: Vec<String> = agents
            .into_iter()
            .filter(|agent| {
                probe_event(*agent)
                    .is_some_and(|event| !subs.iter().any(|s| s.filter.matches(&event)))
            })
            .map(|agent| agent.to_string())
            .collect();
        if excluded.is_empty() {
            report.ok(&format!("config {}: {name} on", config.origin));
        } else {
            report.problem(
                &format!(
                    "config {}: the {name}'s filters (agents, events, tools) exclude the shell calls of {}: {without} there",
                    config.origin,
                    excluded.join(", ")
                ),
                &format!("widen the `{name}` [[subscriber]]'s filters, or remove them"),
            );
        }
    }
}

/// `agent`'s doctor probe as the gateway understands it: a pre-tool call
/// of its shell tool.
fn probe_event(agent: Agent) -> Option<HookEvent> {
    let payload = hookgate_adapters::danger_payload(agent)?.as_bytes();
    let event = hookgate_adapters::probe_event(agent);
    let arg = (agent == Agent::Copilot).then_some(event);
    let detected = hookgate_adapters::detect_with_event(payload, Some(agent), arg, &[]).ok()?;
    hookgate_adapters::parse_detected(&detected, payload).ok()
}

/// Self-protection on, and no weakening config waiting (refused by a
/// reload: something changed the config to drop the guard or the log).
fn check_protection(doc: &serde_json::Value, report: &mut Report) {
    let name = hookgate_daemon::protect::NAME;
    if subscribers(doc).iter().any(|s| s["name"] == name) {
        report.ok("self-protection on: hook calls cannot change or stop hookgate");
    } else {
        report.problem(
            "self-protection is off: a tool call can rewrite hookgate's config or hooks, or stop the gateway",
            "remove `self_protection = false` from the system config's [server], then restart the gateway",
        );
    }
    let reload = &doc["reload"];
    if reload["last_result"] == "weaker" {
        report.problem(
            &format!(
                "the config on disk weakens hookgate and was not applied ({}); the gateway runs the config it had",
                reload["last_error"].as_str().unwrap_or("?")
            ),
            "if you made this change, apply it from a terminal: `gateway reload --allow-weaker`; if not, restore the file: something tried to turn hookgate off",
        );
    } else if let Some(n) = reload["weaker"].as_u64().filter(|n| *n > 0) {
        report.note(&format!(
            "{n} config change(s) that weakened hookgate were refused since the gateway started"
        ));
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
