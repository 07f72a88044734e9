//! A hook reply as an HTTP hook's answer, for the agents that can POST
//! their hook payload to a URL instead of running a command.
//!
//! The pipeline renders one [`Reply`] per event (stdout, stderr, exit
//! code); over HTTP there is no exit code. What the agents do with a
//! response (measured on Claude Code 2.1.197 and 2.1.332, read in Qwen Code
//! 0.24.4's bundle; docs/agents.md, "HTTP hooks"): a 2xx body is read as the
//! command hook's stdout JSON (empty counts as `{}`; anything not starting
//! with `{` is a non-blocking error), and any other status or a connection
//! error is a non-blocking error, which `onFailure: "block"` turns into a
//! block. So:
//! - exit 0: 200 with the JSON (or `{}`);
//! - exit 2 (block, reason on stderr): 200 with the JSON when the reply has
//!   one (it then holds the block itself), else `{"decision":"block",
//!   "reason": <stderr>}`, which Claude Code's JSON reader treats as exit 2;
//! - any other exit code (a failed hook): 500 with stderr as text, the same
//!   non-blocking error the failed command would be.

use serde_json::{Map, Value};

use crate::{Agent, Dialect, FailMode, Reply, detect_with_event, fallback};

/// The agents whose HTTP hooks hookgate answers (`/hook/<agent>`).
/// Copilot CLI has HTTP hooks too, but only over https for the events a
/// policy needs (`preToolUse`, `permissionRequest`): docs/agents.md.
pub const HTTP_AGENTS: [Agent; 2] = [Agent::ClaudeCode, Agent::QwenCode];

/// What an HTTP hook endpoint answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpReply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

/// Whether `agent` sends HTTP hooks hookgate can answer.
pub fn speaks_http(agent: Agent) -> bool {
    HTTP_AGENTS.contains(&agent)
}

/// `reply` (rendered for an agent in [`HTTP_AGENTS`]) as the HTTP hook's
/// answer. Every one of them reads Claude Code's reply JSON, so one
/// conversion serves them all.
pub fn http_reply(reply: &Reply) -> HttpReply {
    let stdout = trim_ascii(&reply.stdout);
    match reply.exit_code {
        0 if stdout.is_empty() => json(b"{}".to_vec()),
        0 => json(stdout.to_vec()),
        2 if !stdout.is_empty() => json(stdout.to_vec()),
        2 => {
            let reason = String::from_utf8_lossy(trim_ascii(&reply.stderr)).into_owned();
            let mut block = Map::new();
            block.insert("decision".to_owned(), Value::from("block"));
            block.insert("reason".to_owned(), Value::from(reason));
            // Serializing a map of two strings cannot fail.
            json(serde_json::to_vec(&Value::Object(block)).unwrap_or_default())
        }
        _ => HttpReply {
            status: 500,
            content_type: "text/plain; charset=utf-8",
            body: trim_ascii(&reply.stderr).to_vec(),
        },
    }
}

/// The answer when no decision can be had (no evaluation slot, no room in
/// the memory budget): [`fallback`] under `mode` for `agent`'s event,
/// which is read from `payload` when there is one.
pub fn http_fallback(
    agent: Agent,
    payload: Option<&[u8]>,
    event: Option<&str>,
    mode: FailMode,
    message: &str,
) -> HttpReply {
    let detected = payload.and_then(|p| detect_with_event(p, Some(agent), event, &[]).ok());
    let dialect = detected.as_ref().map(|d| d.dialect).or(match agent {
        Agent::ClaudeCode => Some(Dialect::ClaudeCode),
        Agent::QwenCode => Some(Dialect::QwenCode),
        _ => None,
    });
    let native = detected
        .as_ref()
        .and_then(|d| d.native_event.as_deref())
        .or(event);
    http_reply(&fallback(dialect, native, mode, message))
}

fn json(body: Vec<u8>) -> HttpReply {
    HttpReply {
        status: 200,
        content_type: "application/json",
        body,
    }
}

fn trim_ascii(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

#[cfg(test)]
mod tests;
