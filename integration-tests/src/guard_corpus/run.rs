//! Sends corpus rows as Claude Code `PreToolUse` `Bash` calls through a real
//! `gateway-shim` to a real gateway, one after the other, and reads what
//! the agent would do from the shim's reply and the guard's own time from
//! the gateway's decision log.
//!
//! Every call must reach the guard: a row whose event is missing from the
//! decision log, or whose reply is not one Claude Code understands, is an
//! error, never a silent "allow" (the shim fails open, so a dead gateway
//! would otherwise look like a perfect bypass rate).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use super::corpus::{Kind, Row};
use crate::{Shim, ShimOutput, TestGateway, payloads};

/// How long the decision log may take to hold every event (its writer runs
/// off the hook path).
const AUDIT_DEADLINE: Duration = Duration::from_secs(20);
const AUDIT_POLL: Duration = Duration::from_millis(50);

/// What the agent does with the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Allow,
    Ask,
    Deny,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }
}

/// One row's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub row: Row,
    pub verdict: Verdict,
    /// The reason the agent is given (empty on allow).
    pub reason: String,
    /// The guard's time for the event, from the decision log.
    pub guard_time: Duration,
}

impl Outcome {
    /// A dangerous command that went ahead, or an ordinary one stopped.
    pub fn wrong(&self) -> bool {
        match self.row.kind {
            Kind::Dangerous => self.verdict == Verdict::Allow,
            Kind::Ordinary => self.verdict != Verdict::Allow,
        }
    }
}

/// A run that measured nothing trustworthy.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{command:?}: not a Claude Code reply: {output}")]
    Reply { command: String, output: String },
    #[error(
        "{missing} of {sent} events are not in the decision log {path} after {AUDIT_DEADLINE:?} \
         (first: {first:?}); gateway stderr:\n{stderr}"
    )]
    Unlogged {
        missing: usize,
        sent: usize,
        first: String,
        path: String,
        stderr: String,
    },
    #[error("{session}: the decision log has no time for the guard: {line}")]
    NoGuard { session: String, line: String },
}

/// The session id that finds a row's event in the decision log.
fn session_id(row: &Row) -> String {
    let kind = match row.kind {
        Kind::Dangerous => "d",
        Kind::Ordinary => "o",
    };
    format!("guard-corpus-{kind}-{}", row.line)
}

/// The Claude Code `Bash` call running `row`'s command.
fn payload(row: &Row) -> String {
    let mut value: Value = serde_json::from_str(&payloads::claude_bash(&row.command()))
        .expect("the Claude Code sample payload is JSON");
    value["session_id"] = json!(session_id(row));
    value.to_string()
}

/// Runs every row through `shim` (aimed at `gateway`, an embedded-default
/// gateway whose decision log is [`TestGateway::audit_log`]), in order.
pub async fn run(
    gateway: &TestGateway,
    shim: &Shim,
    rows: &[Row],
) -> Result<Vec<Outcome>, RunError> {
    let mut replies = Vec::with_capacity(rows.len());
    for row in rows {
        let out = shim.run(payload(row)).await;
        let (verdict, reason) = read_reply(&out).ok_or_else(|| RunError::Reply {
            command: row.written.clone(),
            output: out.to_string(),
        })?;
        replies.push((verdict, reason));
    }
    let times = guard_times(gateway, rows).await?;
    Ok(rows
        .iter()
        .zip(replies)
        .zip(times)
        .map(|((row, (verdict, reason)), guard_time)| Outcome {
            row: row.clone(),
            verdict,
            reason,
            guard_time,
        })
        .collect())
}

/// The agent's verdict from a Claude Code `PreToolUse` reply: exit 2 is a
/// block, exit 0 with no output goes ahead, exit 0 with JSON says it in
/// `hookSpecificOutput.permissionDecision`.
fn read_reply(out: &ShimOutput) -> Option<(Verdict, String)> {
    match out.code {
        Some(2) => Some((Verdict::Deny, out.stderr_str().trim().to_owned())),
        Some(0) if out.stdout.iter().all(u8::is_ascii_whitespace) => {
            Some((Verdict::Allow, String::new()))
        }
        Some(0) => {
            let json: Value = serde_json::from_slice(&out.stdout).ok()?;
            let specific = &json["hookSpecificOutput"];
            let reason = specific["permissionDecisionReason"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            match specific["permissionDecision"].as_str() {
                Some("deny") => Some((Verdict::Deny, reason)),
                Some("ask") => Some((Verdict::Ask, reason)),
                Some("allow") | None => Some((Verdict::Allow, String::new())),
                Some(_) => None,
            }
        }
        _ => None,
    }
}

/// The guard's `latency_us` for each row's event, in row order, once the
/// decision log holds all of them.
async fn guard_times(gateway: &TestGateway, rows: &[Row]) -> Result<Vec<Duration>, RunError> {
    let until = tokio::time::Instant::now() + AUDIT_DEADLINE;
    let path = gateway.audit_log();
    loop {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: HashMap<String, Value> = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter_map(|line| Some((line["session_id"].as_str()?.to_owned(), line)))
            .collect();
        let missing: Vec<&Row> = rows
            .iter()
            .filter(|row| !lines.contains_key(&session_id(row)))
            .collect();
        if let Some(first) = missing.first() {
            if tokio::time::Instant::now() >= until {
                return Err(RunError::Unlogged {
                    missing: missing.len(),
                    sent: rows.len(),
                    first: first.written.clone(),
                    path: path.display().to_string(),
                    stderr: gateway.stderr(),
                });
            }
            tokio::time::sleep(AUDIT_POLL).await;
            continue;
        }
        return rows
            .iter()
            .map(|row| {
                let session = session_id(row);
                let line = lines.get(&session);
                line.and_then(guard_latency)
                    .ok_or_else(|| RunError::NoGuard {
                        line: line.map(Value::to_string).unwrap_or_default(),
                        session,
                    })
            })
            .collect();
    }
}

fn guard_latency(line: &Value) -> Option<Duration> {
    line["subscribers"]
        .as_array()?
        .iter()
        .find(|s| s["name"] == "guard")?["latency_us"]
        .as_u64()
        .map(Duration::from_micros)
}
