//! The Gemini API as Gemini CLI calls it (`GOOGLE_GEMINI_BASE_URL`):
//! `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered
//! with `data:`-only server-sent events, each a whole
//! `GenerateContentResponse`; `:generateContent` gets the same response as
//! one JSON body and `:countTokens` a count.
//!
//! A tool call is one `functionCall` part (its `args` the tool's input);
//! the history counts the model's turns as `contents` of `role: "model"`.

use serde_json::{Value, json};

use super::script::Step;
use super::shell::{RUN_SHELL_COMMAND, ShellTool};

/// The shell tools offered over this API: Gemini CLI's.
const SHELLS: [ShellTool; 1] = [RUN_SHELL_COMMAND];

/// Is `route` a Gemini conversation call (streamed or not)?
pub(crate) fn is_generate(route: &str) -> bool {
    route.ends_with(":streamGenerateContent") || route.ends_with(":generateContent")
}

/// The shell tool the request offers, if any: Gemini nests the tools in
/// `tools[].functionDeclarations[]`.
pub(crate) fn shell_tool(body: &Value) -> Option<ShellTool> {
    let tools = body.get("tools").and_then(Value::as_array)?;
    tools
        .iter()
        .filter_map(|tool| tool.get("functionDeclarations").and_then(Value::as_array))
        .flatten()
        .filter_map(|declaration| declaration.get("name").and_then(Value::as_str))
        .find_map(|name| SHELLS.iter().copied().find(|tool| tool.name == name))
}

/// The model name in the route (`…/models/<model>:streamGenerateContent`).
pub(crate) fn model_in(route: &str) -> Option<&str> {
    let (_, rest) = route.rsplit_once("/models/")?;
    rest.split(':').next().filter(|model| !model.is_empty())
}

/// One whole `GenerateContentResponse` for `step`.
pub(crate) fn response(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Value {
    let part = match step {
        Step::Shell { command } => {
            json!({"functionCall": {"name": shell.name, "args": shell.input(command)}})
        }
        Step::Text { text } => json!({"text": text}),
    };
    json!({
        "candidates": [{
            "content": {"role": "model", "parts": [part]},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
        "responseId": format!("hg{seq:016}"),
    })
}

/// The streamed reply: the whole response as one SSE event.
pub(crate) fn events(step: &Step, shell: ShellTool, seq: u64, model: &str) -> Vec<String> {
    vec![format!(
        "data: {}\r\n\r\n",
        response(step, shell, seq, model)
    )]
}

/// The number of model turns in a request body's history.
pub(crate) fn model_turns(body: &Value) -> usize {
    body.get("contents")
        .and_then(Value::as_array)
        .map_or(0, |contents| {
            contents
                .iter()
                .filter(|c| c.get("role").and_then(Value::as_str) == Some("model"))
                .count()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_is_one_function_call_part() {
        let step = Step::Shell {
            command: "touch m".into(),
        };
        let event = &events(&step, RUN_SHELL_COMMAND, 2, "gemini-2.5-flash")[0];
        let data: Value =
            serde_json::from_str(event.trim().trim_start_matches("data: ")).expect("JSON data");
        let call = &data["candidates"][0]["content"]["parts"][0]["functionCall"];
        assert_eq!(call["name"], "run_shell_command");
        assert_eq!(call["args"]["command"], "touch m");
    }

    #[test]
    fn finds_the_shell_among_function_declarations() {
        let body = json!({"tools": [{"functionDeclarations": [
            {"name": "read_file"}, {"name": "run_shell_command"}]}]});
        assert_eq!(shell_tool(&body), Some(RUN_SHELL_COMMAND));
        assert_eq!(
            shell_tool(&json!({"tools": [{"functionDeclarations": []}]})),
            None
        );
        assert_eq!(
            model_in("/v1beta/models/gemini-2.5-flash:streamGenerateContent"),
            Some("gemini-2.5-flash")
        );
        assert!(is_generate("/v1beta/models/x:generateContent"));
        assert!(!is_generate("/v1beta/models/x:countTokens"));
    }

    #[test]
    fn counts_model_turns() {
        let body = json!({"contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "x"}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "x"}}]},
        ]});
        assert_eq!(model_turns(&body), 1);
    }
}
