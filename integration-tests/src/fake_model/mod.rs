//! A scripted stand-in for the model APIs the real agent CLIs call, so the
//! real-agent tests run offline and deterministic.
//!
//! It speaks the dialects the agents under test use — the Anthropic
//! Messages API (Claude Code, Droid), the OpenAI-compatible
//! chat-completions API (Cline, Qwen Code), the Gemini API (Gemini CLI)
//! and the OpenAI Responses API (Codex) — streamed as server-sent events,
//! and follows a [`Script`]:
//! which turn calls the shell tool with which command, which turn ends with
//! text. Every request it receives is appended to a JSONL log
//! ([`RecordedRequest`]) *before* it answers, so a test can read exactly
//! what the model was shown: the tool result after a deny, the context a
//! hook injected.
//!
//! It runs as its own process (`src/bin/fake-model.rs`) so it can live
//! inside the agent's private network namespace; the library half here is
//! shared with the tests, which write scripts and read the log.

mod anthropic;
mod gemini;
mod openai;
mod record;
mod responses;
mod script;
mod server;
mod shell;

pub use record::{AnthropicToolResult, RecordError, RecordedRequest, read_requests};
pub use script::{LONE_SURROGATE, Script, ScriptError, Step};
pub use server::{FakeModel, serve};

/// The model name the fake server reports when a request names none.
pub const MODEL: &str = "fake-model";

/// The JSON of a server-sent event's `data:` line: each dialect's unit
/// tests read their streamed events back with it.
#[cfg(test)]
pub(crate) fn sse_data(event: &str) -> serde_json::Value {
    let line = event
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("a data line");
    serde_json::from_str(line).expect("JSON data")
}
