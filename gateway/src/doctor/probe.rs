//! The round trip: each installed agent's own hook command, run through a
//! shell with a minimal environment (as an agent launched from cron or an
//! IDE would), fed a harmless event of that agent's dialect. The gateway's
//! counters must move: the shim reached the gateway and did not fall back.
//! Then the same call reading a secrets file (`cat .env`), which must come
//! back denied: the guard sees this agent's tool calls, not just the
//! gateway its shim.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::Report;
use super::agents::Installed;

/// The shim's own deadline is 5 s; this bounds a shim that hangs anyway.
const PROBE_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a status read before and after a probe may take.
const STATUS_TIMEOUT: Duration = Duration::from_secs(5);

/// `agent`'s harmless probe payload (`""` for an agent without one).
pub(crate) fn harmless(agent: hookgate_adapters::Agent) -> &'static str {
    hookgate_adapters::probe_payload(agent).unwrap_or_default()
}

pub(crate) async fn check(socket: &Path, installed: &[Installed], report: &mut Report) {
    for entry in installed {
        let Some(payload) = hookgate_adapters::probe_payload(entry.agent) else {
            continue;
        };
        let agent = entry.agent;
        let name = agent.as_str();
        let before = fetch(socket).await.map(|d| activity(&d, name));
        let ran = run(&entry.command, payload);
        let after = fetch(socket).await.map(|d| activity(&d, name));
        match (ran, before, after) {
            (Err(err), _, _) => report.problem(
                &format!("{agent}: the hook command did not run: {err:#}"),
                &format!("gateway install --agent {agent}"),
            ),
            (Ok(()), Some(before), Some(after)) if after > before => {
                report.ok(&format!(
                    "{agent}: a test event went through the shim to the gateway"
                ));
            }
            (Ok(()), _, _) => {
                report.problem(
                    &format!("{agent}: a test event sent through the installed hook never reached the gateway (the shim answered on its own)"),
                    &format!("gateway install --agent {agent}, and check HOOKGATE_SOCKET in its command"),
                );
                continue;
            }
        }
        dangerous(socket, entry, report).await;
    }
}

/// The dangerous probe: denied, or the guard does not see the agent.
async fn dangerous(socket: &Path, entry: &Installed, report: &mut Report) {
    let Some(payload) = hookgate_adapters::danger_payload(entry.agent) else {
        return;
    };
    let (agent, name) = (entry.agent, entry.agent.as_str());
    let before = fetch(socket).await.map(|d| denials(&d, name));
    let ran = run(&entry.command, payload);
    let after = fetch(socket).await.map(|d| denials(&d, name));
    match (ran, before, after) {
        (Ok(()), Some(before), Some(after)) if after > before => report.ok(&format!(
            "{agent}: a dangerous test call (`cat .env`) through the installed hook was denied"
        )),
        _ => report.problem(
            &format!(
                "{agent}: a dangerous test call (`cat .env`) through the installed hook was not denied: the guard does not decide this agent's tool calls"
            ),
            "check the guard's filters in the config, and `gateway status` for its decisions",
        ),
    }
}

/// Runs `command` with `sh -c` and a minimal environment, `payload` on
/// stdin; bounded by [`PROBE_TIMEOUT`].
pub(crate) fn run(command: &str, payload: &str) -> anyhow::Result<()> {
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .envs(std::env::var_os("HOME").map(|home| ("HOME", home)))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // A shim that stopped reading is judged by the counters.
        let _ = stdin.write_all(payload.as_bytes());
    }
    crate::child::wait_bounded(&mut child, PROBE_TIMEOUT).map(|_| ())
}

/// The doctor probes the gateway answered for `agent` (its status name;
/// counted apart from traffic): a probe that reached it moves this count,
/// and only its own agent's.
fn activity(doc: &serde_json::Value, agent: &str) -> u64 {
    count(doc, "probes", agent)
}

/// Of those, the ones denied: the dangerous probe must move this one.
fn denials(doc: &serde_json::Value, agent: &str) -> u64 {
    count(doc, "probe_denials", agent)
}

fn count(doc: &serde_json::Value, which: &str, agent: &str) -> u64 {
    let metrics = doc.get("metrics").unwrap_or(doc);
    metrics[which][agent].as_u64().unwrap_or(0)
}

/// The gateway's status document, `None` if it does not answer.
async fn fetch(socket: &Path) -> Option<serde_json::Value> {
    hookgate_daemon::admin::client::fetch(socket, STATUS_TIMEOUT)
        .await
        .ok()
}
