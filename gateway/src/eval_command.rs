//! `gateway eval`: one payload through a config's deciders, in-process,
//! shown step by step (canonical event, verdicts, merge, losses, the
//! exact reply the agent gets). Exit 0 allow, 2 block, 1 error.

use std::io::Read as _;
use std::path::Path;
use std::process::ExitCode;

use hookgate_adapters::{Agent, Permission};
use hookgate_config::Config;
use hookgate_daemon::builtin::audit::decision_json;
use hookgate_daemon::offline::{Offline, Outcome, permission_name};
use hookgate_wire::Request;
use serde_json::json;

use crate::cli::EvalArgs;

/// Payloads are read up to the shim's own limit.
const MAX_PAYLOAD: u64 = 32 << 20;

pub(crate) fn run(args: &EvalArgs) -> ExitCode {
    match eval(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gateway eval: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn eval(args: &EvalArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let agent =
        match &args.agent {
            Some(name) => Some(name.parse::<Agent>().map_err(|_| {
                anyhow::anyhow!("unknown agent `{name}` (one of: {})", agent_names())
            })?),
            None => None,
        };
    let (payload, event_arg) = match (&args.command, &args.payload) {
        (Some(command), _) => {
            let agent = agent.ok_or_else(|| anyhow::anyhow!("--command needs --agent"))?;
            (
                shell_payload(agent, command)?,
                Some(hookgate_adapters::probe_event(agent).to_owned()),
            )
        }
        (None, Some(path)) => (read_payload(path)?, args.event.clone()),
        (None, None) => anyhow::bail!("give a payload file, `-` for stdin, or --command"),
    };
    let mut request_args: Vec<String> = agent.map(|a| a.as_str().to_owned()).into_iter().collect();
    request_args.extend(event_arg);
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let request = Request {
        args: request_args,
        cwd,
        env: Vec::new(),
        stdin: payload,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(hookgate_adapters::STACK_SIZE)
        .build()?;
    let outcome = runtime.block_on(async {
        let offline = Offline::new(&config, args.config.as_deref()).await?;
        anyhow::Ok(offline.run(request).await)
    })?;
    print(&outcome, args.json);
    Ok(match (&outcome.event, outcome.decision.permission) {
        (None, _) => ExitCode::FAILURE,
        (_, Permission::Deny) => ExitCode::from(2),
        _ if outcome.reply.exit_code == 2 => ExitCode::from(2),
        _ => ExitCode::SUCCESS,
    })
}

fn agent_names() -> String {
    Agent::ALL.map(Agent::as_str).join(", ")
}

#[expect(clippy::disallowed_methods, reason = "a CLI command, not on a runtime")]
fn read_payload(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)
            .map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?
            .take(MAX_PAYLOAD)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// The agent's pre-tool call of its shell tool running `command`: its
/// doctor probe (which runs `true`) with the command put in its place.
fn shell_payload(agent: Agent, command: &str) -> anyhow::Result<Vec<u8>> {
    let probe = hookgate_adapters::probe_payload(agent)
        .ok_or_else(|| anyhow::anyhow!("no sample payload for {}", agent.as_str()))?;
    let literal = serde_json::to_string(command)?;
    Ok(probe
        .replacen("\"true\"", &literal, 1)
        .replace("hookgate-doctor", "hookgate-eval")
        .into_bytes())
}

fn print(outcome: &Outcome, as_json: bool) {
    let reply = &outcome.reply;
    let stdout = String::from_utf8_lossy(&reply.stdout);
    let stderr = String::from_utf8_lossy(&reply.stderr);
    let d = &outcome.decision;
    if as_json {
        let doc = json!({
            "event": outcome.event,
            "subscribers": outcome.subscribers.iter().map(|s| json!({
                "name": s.name,
                "permission": s.permission,
                "latency_us": u64::try_from(s.latency.as_micros()).unwrap_or(u64::MAX),
                "revision": s.revision,
            })).collect::<Vec<_>>(),
            "decision": decision_json(d),
            "losses": outcome.losses,
            "reply": {"exit_code": reply.exit_code, "stdout": stdout, "stderr": stderr},
        });
        outln!("{doc:#}");
        return;
    }
    let mut text = String::new();
    match &outcome.event {
        Some(event) => text.push_str(&format!("event:\n{event:#}\n")),
        None => text.push_str("event: not understood (the fail mode's reply follows)\n"),
    }
    text.push_str("subscribers:\n");
    if outcome.subscribers.is_empty() {
        text.push_str("  (none matched)\n");
    }
    for s in &outcome.subscribers {
        let revision = s
            .revision
            .as_deref()
            .map(|r| format!("  revision {r}"))
            .unwrap_or_default();
        text.push_str(&format!(
            "  {:<20} {:<5} {:>9.3} ms{revision}\n",
            s.name,
            s.permission,
            s.latency.as_secs_f64() * 1000.0
        ));
    }
    text.push_str(&format!("merged: {}", permission_name(d.permission)));
    if let Some(reason) = &d.reason {
        text.push_str(&format!(" ({reason})"));
    }
    text.push('\n');
    let losses = if outcome.losses.is_empty() {
        "none".to_owned()
    } else {
        outcome.losses.join(", ")
    };
    text.push_str(&format!("losses: {losses}\n"));
    text.push_str(&format!("reply: exit {}\n", reply.exit_code));
    if !stdout.is_empty() {
        text.push_str(&format!("stdout: {stdout}\n"));
    }
    if !stderr.is_empty() {
        text.push_str(&format!("stderr: {stderr}\n"));
    }
    outln!("{}", text.trim_end());
}
