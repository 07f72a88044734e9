//! The OpenAI Responses API as Codex calls it (`wire_api = "responses"`):
//! `POST /v1/responses` with `stream: true`, answered with server-sent
//! events: `response.created`, one `response.output_item.done` carrying
//! the whole output item (a `function_call` or an assistant `message`),
//! then `response.completed` with the usage.
//!
//! The history is the request's `input` items; the model's turns are its
//! `function_call` items and assistant messages, the tool results its
//! `function_call_output` items.

use serde_json::{Value, json};

use super::script::Step;
use super::shell::{self, EXEC_COMMAND, ShellTool};

/// The shell tools offered over this API: Codex's.
const SHELLS: [ShellTool; 1] = [EXEC_COMMAND];

/// Is `route` a Responses API call?
pub(crate) fn is_responses(route: &str) -> bool {
    route.ends_with("/responses")
}

/// The shell tool the request offers, if any.
pub(crate) fn shell_tool(body: &Value) -> Option<ShellTool> {
    shell::offered(body, &SHELLS, "/name")
}

/// The output item for `step`.
fn item(step: &Step, shell: ShellTool, seq: u64) -> Value {
    match step {
        Step::Shell { command } => json!({
            "type": "function_call", "id": format!("fc_hg{seq:016}"),
            "call_id": format!("call_hg{seq:016}"), "name": shell.name,
            "arguments": shell.input(command).to_string(), "status": "completed",
        }),
        Step::Text { text } => json!({
            "type": "message", "id": format!("msg_hg{seq:016}"), "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }),
    }
}

fn usage() -> Value {
    json!({"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
           "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
           "total_tokens": 15})
}

/// The streamed reply, one SSE event per element.
pub(crate) fn events(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Vec<String> {
    let id = format!("resp_hg{seq:016}");
    let event = |data: Value| {
        let name = data["type"].as_str().unwrap_or_default().to_owned();
        format!("event: {name}\ndata: {data}\n\n")
    };
    vec![
        event(json!({"type": "response.created", "response": {
            "id": id, "object": "response", "model": model, "status": "in_progress", "output": []}})),
        event(
            json!({"type": "response.output_item.done", "output_index": 0,
                     "item": item(step, shell, seq)}),
        ),
        event(json!({"type": "response.completed", "response": {
            "id": id, "object": "response", "model": model, "status": "completed",
            "output": [item(step, shell, seq)], "usage": usage()}})),
    ]
}

/// The same reply for a non-streaming request.
pub(crate) fn response(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Value {
    json!({"id": format!("resp_hg{seq:016}"), "object": "response", "model": model,
           "status": "completed", "output": [item(step, shell, seq)], "usage": usage()})
}

/// The number of model turns in a request body's `input`.
pub(crate) fn model_turns(body: &Value) -> usize {
    body.get("input")
        .and_then(Value::as_array)
        .map_or(0, |items| {
            items
                .iter()
                .filter(|item| {
                    let kind = item.get("type").and_then(Value::as_str);
                    let role = item.get("role").and_then(Value::as_str);
                    kind == Some("function_call")
                        || (kind == Some("message") && role == Some("assistant"))
                })
                .count()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_model::sse_data as data;

    #[test]
    fn a_tool_call_is_one_function_call_item() {
        let step = Step::Shell {
            command: "touch m".into(),
        };
        let events = events(&step, EXEC_COMMAND, 4, "m");
        assert!(events[1].starts_with("event: response.output_item.done\n"));
        let item = &data(&events[1])["item"];
        assert_eq!(item["name"], "exec_command");
        let arguments: Value = serde_json::from_str(item["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(arguments["cmd"], "touch m");
        assert_eq!(data(&events[2])["type"], "response.completed");
    }

    #[test]
    fn counts_turns_and_finds_the_shell() {
        let body = json!({"tools": [{"type": "function", "name": "exec_command"}], "input": [
            {"type": "message", "role": "user", "content": []},
            {"type": "function_call", "name": "exec_command", "call_id": "c"},
            {"type": "function_call_output", "call_id": "c", "output": "ok"},
        ]});
        assert_eq!(model_turns(&body), 1);
        assert_eq!(shell_tool(&body), Some(EXEC_COMMAND));
        assert!(is_responses("/v1/responses"));
    }
}
