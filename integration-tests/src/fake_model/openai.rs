//! The OpenAI-compatible chat-completions API as Cline calls it:
//! `POST /v1/chat/completions` with `stream: true`, answered with
//! `data:`-only server-sent events ending in `data: [DONE]`.
//!
//! A tool call streams as a first chunk naming the function (empty
//! arguments) and a second one carrying all arguments, then
//! `finish_reason: "tool_calls"`; a usage chunk precedes `[DONE]`
//! (Cline asks for it with `stream_options.include_usage`). This is the
//! sequence Cline 3.0 accepted in the recorded runs
//! (docs/agents.md, "Running the real CLIs headless and offline").

use serde_json::{Value, json};

use super::script::Step;
use super::shell::{self, COPILOT_BASH, RUN_COMMANDS, RUN_SHELL_COMMAND, ShellTool, TERMINAL};

/// The shell tools offered over this API: Cline's, Qwen Code's,
/// Copilot CLI's (and OpenCode's) and Hermes Agent's.
const SHELLS: [ShellTool; 4] = [RUN_COMMANDS, RUN_SHELL_COMMAND, COPILOT_BASH, TERMINAL];

/// The shell tool the request offers, if any.
pub(crate) fn shell_tool(body: &Value) -> Option<ShellTool> {
    shell::offered(body, &SHELLS, "/function/name")
}

fn call_id(seq: u64) -> String {
    format!("call_hg{seq:016}")
}

fn arguments(shell: ShellTool, command: &str) -> String {
    shell.input(command).to_string()
}

/// The streamed reply, one SSE event per element.
pub(crate) fn events(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Vec<String> {
    let id = format!("chatcmpl-hg{seq:016}");
    let chunk = |delta: Value, finish: Value| {
        let chunk = json!({
            "id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        });
        format!("data: {chunk}\n\n")
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    match step {
        Step::Shell { command } => {
            events.push(chunk(
                json!({"tool_calls": [{"index": 0, "id": call_id(seq), "type": "function",
                                       "function": {"name": shell.name, "arguments": ""}}]}),
                Value::Null,
            ));
            events.push(chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": arguments(shell, command)}}]}),
                Value::Null,
            ));
            events.push(chunk(json!({}), json!("tool_calls")));
        }
        Step::Text { text } => {
            events.push(chunk(json!({"content": text}), Value::Null));
            events.push(chunk(json!({}), json!("stop")));
        }
    }
    let usage = json!({
        "id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
        "choices": [],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    });
    events.push(format!("data: {usage}\n\n"));
    events.push("data: [DONE]\n\n".to_owned());
    events
}

/// The same reply for a non-streaming request.
pub(crate) fn completion(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Value {
    let (message, finish) = match step {
        Step::Shell { command } => (
            json!({"role": "assistant", "content": null, "tool_calls": [{
                "id": call_id(seq), "type": "function",
                "function": {"name": shell.name, "arguments": arguments(shell, command)},
            }]}),
            "tool_calls",
        ),
        Step::Text { text } => (json!({"role": "assistant", "content": text}), "stop"),
    };
    json!({
        "id": format!("chatcmpl-hg{seq:016}"), "object": "chat.completion", "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_model::sse_data as data;

    #[test]
    fn a_tool_call_streams_name_then_arguments() {
        let events = events(
            &Step::Shell {
                command: "touch m".into(),
            },
            RUN_COMMANDS,
            3,
            "m",
        );
        assert_eq!(events.last().map(String::as_str), Some("data: [DONE]\n\n"));
        let first = data(&events[1]);
        let call = &first["choices"][0]["delta"]["tool_calls"][0];
        assert_eq!(call["function"]["name"], "run_commands");
        assert_eq!(call["id"], "call_hg0000000000000003");
        let second = data(&events[2]);
        let arguments = second["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap()
            .to_owned();
        let arguments: Value = serde_json::from_str(&arguments).unwrap();
        assert_eq!(arguments, json!({"commands": ["touch m"]}));
        assert_eq!(
            data(&events[3])["choices"][0]["finish_reason"],
            "tool_calls"
        );
        assert_eq!(data(&events[4])["usage"]["total_tokens"], 15);
    }

    #[test]
    fn text_stops() {
        let events = events(&Step::Text { text: "bye".into() }, RUN_COMMANDS, 1, "m");
        assert_eq!(data(&events[1])["choices"][0]["delta"]["content"], "bye");
        assert_eq!(data(&events[2])["choices"][0]["finish_reason"], "stop");
    }

    #[test]
    fn only_requests_offering_a_known_shell_offer_the_shell() {
        let tool = |name: &str| json!({"type": "function", "function": {"name": name}});
        assert_eq!(
            shell_tool(&json!({"tools": [tool("read_files"), tool("run_commands")]})),
            Some(RUN_COMMANDS)
        );
        assert_eq!(
            shell_tool(&json!({"tools": [tool("run_shell_command")]})),
            Some(RUN_SHELL_COMMAND)
        );
        assert_eq!(shell_tool(&json!({"tools": [tool("read_files")]})), None);
        assert_eq!(shell_tool(&json!({"messages": []})), None);
    }
}
