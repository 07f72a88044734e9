//! The Anthropic Messages API as Claude Code calls it: `POST /v1/messages`
//! with `stream: true`, answered with server-sent events.
//!
//! The event sequence is the minimal one Claude Code 2.1 accepted in the
//! recorded runs (docs/agents.md, "Running the real CLIs headless and
//! offline"): `message_start`, per content block `content_block_start` /
//! `content_block_delta` / `content_block_stop`, then `message_delta`
//! (stop reason) and `message_stop`. A tool call's input arrives as one `input_json_delta`.

use serde_json::{Value, json};

use super::script::{LONE_SURROGATE, Step};
use super::shell::{self, BASH, EXECUTE, ShellTool};

/// The shell tools offered over this API: Claude Code's and Droid's.
const SHELLS: [ShellTool; 2] = [BASH, EXECUTE];

/// The shell tool the request offers, if any (side requests offer none).
pub(crate) fn shell_tool(body: &Value) -> Option<ShellTool> {
    shell::offered(body, &SHELLS, "/name")
}

fn tool_use_id(seq: u64) -> String {
    format!("toolu_hg{seq:016}")
}

fn stop_reason(step: &Step) -> &'static str {
    match step {
        Step::Shell { .. } => "tool_use",
        Step::Text { .. } => "end_turn",
    }
}

/// The streamed reply, one SSE event per element.
/// The tool input as the JSON text of an `input_json_delta`, with every
/// [`LONE_SURROGATE`] token written as the escape `\ud800`.
fn partial_json(shell: &ShellTool, command: &str) -> String {
    shell
        .input(command)
        .to_string()
        .replace(LONE_SURROGATE, "\\ud800")
}

pub(crate) fn events(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Vec<String> {
    let stop_reason = stop_reason(step);
    // The block starts empty; its content arrives as one delta.
    let (start, delta) = match step {
        Step::Shell { command } => (
            json!({"type": "tool_use", "id": tool_use_id(seq), "name": shell.name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": partial_json(&shell, command)}),
        ),
        Step::Text { text } => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": text}),
        ),
    };
    let event = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
    vec![
        event(
            "message_start",
            json!({"type": "message_start", "message": {
                "id": format!("msg_hg{seq:016}"), "type": "message", "role": "assistant",
                "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 10, "output_tokens": 1,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
            }}),
        ),
        event(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": start}),
        ),
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        event(
            "message_delta",
            json!({"type": "message_delta",
                   "delta": {"stop_reason": stop_reason, "stop_sequence": null},
                   "usage": {"output_tokens": 20}}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ]
}

/// The same reply for a non-streaming request.
pub(crate) fn message(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Value {
    let block = match step {
        Step::Shell { command } => {
            json!({"type": "tool_use", "id": tool_use_id(seq), "name": shell.name,
                   "input": shell.input(command)})
        }
        Step::Text { text } => json!({"type": "text", "text": text}),
    };
    json!({
        "id": format!("msg_hg{seq:016}"), "type": "message", "role": "assistant",
        "model": model, "content": [block], "stop_reason": stop_reason(step), "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 20},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_model::sse_data as data;

    #[test]
    fn a_tool_call_streams_its_input_as_one_json_delta() {
        let step = Step::Shell {
            command: "touch 'a b'".into(),
        };
        let events = events(&step, BASH, 7, "m");
        let names: Vec<&str> = events
            .iter()
            .map(|e| e.lines().next().unwrap().trim_start_matches("event: "))
            .collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        let start = data(&events[1]);
        assert_eq!(start["content_block"]["name"], "Bash");
        assert_eq!(start["content_block"]["input"], json!({}));
        let partial = data(&events[2])["delta"]["partial_json"]
            .as_str()
            .unwrap()
            .to_owned();
        let input: Value = serde_json::from_str(&partial).unwrap();
        assert_eq!(input["command"], "touch 'a b'");
        assert_eq!(data(&events[4])["delta"]["stop_reason"], "tool_use");
    }

    #[test]
    fn text_ends_the_turn() {
        let events = events(&Step::Text { text: "bye".into() }, BASH, 1, "m");
        assert_eq!(data(&events[2])["delta"]["text"], "bye");
        assert_eq!(data(&events[4])["delta"]["stop_reason"], "end_turn");
    }

    #[test]
    fn only_requests_offering_bash_or_execute_offer_the_shell() {
        assert_eq!(
            shell_tool(&json!({"tools": [{"name": "Read"}, {"name": "Bash"}]})),
            Some(BASH)
        );
        assert_eq!(
            shell_tool(&json!({"tools": [{"name": "Execute"}]})),
            Some(EXECUTE)
        );
        assert_eq!(shell_tool(&json!({"tools": [{"name": "Read"}]})), None);
        assert_eq!(shell_tool(&json!({})), None);
    }
}
