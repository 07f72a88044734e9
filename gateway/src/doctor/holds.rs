//! Holds against the installed hooks: with an `approval` in the config,
//! each event it can hold must run a shim that waits at least `hold_ms`
//! (`--hold-max-ms`) under an agent timeout longer than that shim's wait.
//! Otherwise a held call ends early: the gateway answers `on_timeout`
//! within what the shim grants, or the agent kills the hook and goes on
//! as its failure rule says. One line per file and cause, counted as a
//! problem: the approval the user configured does not do what it says.

use std::path::Path;

use super::Report;
use crate::install::agents::{AgentSpec, Format};
use crate::install::hold::{self, Hold};
use crate::install::json::Json;
use crate::install::{change, json_config};

/// Checks hookgate's held events at `path` (`commands`: its (event,
/// command) pairs) against `hold`.
pub(crate) fn check(
    spec: &AgentSpec,
    path: &Path,
    commands: &[(String, String)],
    hold: &Hold,
    report: &mut Report,
) {
    let agent = spec.agent;
    let held = hold::held_events(agent);
    if held.is_empty() {
        // Nothing was checked: no "ok" for waits install never writes.
        report.note(&format!(
            "{agent}: takes no hold yet; approval `{}` holds its calls only within the shim's normal deadline (docs/approvals.md)",
            hold.subscriber
        ));
        return;
    }
    let fix = format!("gateway install --agent {agent} (it writes both for the config's holds)");
    let short_shim: Vec<String> = commands
        .iter()
        .filter(|(event, line)| {
            held.contains(&event.as_str()) && Hold::shim_max_of(line) < hold.hold_ms
        })
        .map(|(event, line)| format!("{event} ({} ms)", Hold::shim_max_of(line)))
        .collect();
    if !short_shim.is_empty() {
        report.problem(
            &format!(
                "{agent}: approval `{}` holds calls up to {} ms, but hookgate's {} hook in {} takes holds of less (--hold-max-ms): a held call gets on_timeout when the shim stops waiting",
                hold.subscriber,
                hold.hold_ms,
                short_shim.join(", "),
                path.display()
            ),
            &fix,
        );
    }
    let short_agent = short_timeouts(spec, path, commands, hold);
    if !short_agent.is_empty() {
        report.problem(
            &format!(
                "{agent}: approval `{}` holds calls up to {} ms, but {agent} kills hookgate's {} hook in {} sooner (its own timeout): a held call is cut off and the agent goes on as its failure rule says",
                hold.subscriber,
                hold.hold_ms,
                short_agent.join(", "),
                path.display()
            ),
            &fix,
        );
    }
    if short_shim.is_empty() && short_agent.is_empty() {
        report.ok(&format!(
            "{agent}: the held events in {} wait longer than approval `{}`'s {} ms",
            path.display(),
            hold.subscriber,
            hold.hold_ms
        ));
    }
}

/// The held events whose agent timeout ends before the hold or the shim's
/// wait, with that timeout (`event (N ms)`). Cline's hook files carry no
/// timeout.
fn short_timeouts(
    spec: &AgentSpec,
    path: &Path,
    commands: &[(String, String)],
    hold: &Hold,
) -> Vec<String> {
    let Format::Json(format) = &spec.format else {
        return Vec::new();
    };
    let Ok(Some(text)) = change::read(&change::resolve(path)) else {
        return Vec::new();
    };
    let Ok(entries) = json_config::entries(format, &text) else {
        return Vec::new();
    };
    let held = hold::held_events(spec.agent);
    entries
        .iter()
        .filter(|entry| held.contains(&entry.event.as_str()))
        .filter_map(|entry| {
            let timeout = match entry.handler.get(format.timeout_key) {
                Some(Json::Number(n)) => n.as_u64()?,
                // No timeout: the agent's own default, unknown here.
                _ => return None,
            };
            let agent_ms = format.timeout_unit.to_millis(timeout);
            let shim_ms = commands
                .iter()
                .find(|(event, _)| *event == entry.event)
                .map_or(0, |(_, line)| Hold::shim_max_of(line));
            (agent_ms <= hold.hold_ms.max(shim_ms))
                .then(|| format!("{} ({agent_ms} ms)", entry.event))
        })
        .collect()
}
