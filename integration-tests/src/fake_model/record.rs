//! The fake model's request log: one JSON line per request received, with
//! the answer it got. Tests read it to see what the model was shown.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One request as the fake model received it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    pub method: String,
    /// The request target, query included (`/v1/messages?beta=true`).
    pub path: String,
    /// Header names lowercased; a repeated header keeps its last value.
    pub headers: BTreeMap<String, String>,
    /// The body as JSON; a string when it is not JSON; null when empty.
    pub body: Value,
    /// What the fake model answered (the script step, or a short note).
    pub reply: Value,
}

/// A `tool_result` block of an Anthropic request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnthropicToolResult {
    pub tool_use_id: String,
    /// The result's text (text blocks joined by newlines).
    pub content: String,
    pub is_error: bool,
}

/// Why the log could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("reading the fake model's request log {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line} of the fake model's request log {path} is not a request: {source}")]
    Line {
        path: String,
        line: usize,
        source: serde_json::Error,
    },
}

/// Every request in the log at `path`, in arrival order.
pub fn read_requests(path: &Path) -> Result<Vec<RecordedRequest>, RecordError> {
    let shown = || path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RecordError::Io {
        path: shown(),
        source,
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|source| RecordError::Line {
                path: shown(),
                line: i + 1,
                source,
            })
        })
        .collect()
}

impl RecordedRequest {
    /// A request as received: the body is kept as JSON when it parses.
    pub fn new(
        method: &str,
        path: &str,
        headers: BTreeMap<String, String>,
        body: &[u8],
    ) -> RecordedRequest {
        let body = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
        };
        RecordedRequest {
            method: method.to_owned(),
            path: path.to_owned(),
            headers,
            body,
            reply: Value::Null,
        }
    }

    /// The path without its query.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or_default()
    }

    /// A conversation turn: a POST to the Messages, chat-completions or Gemini API
    /// (not a probe, token count or model list).
    pub fn is_model_call(&self) -> bool {
        let route = self.route();
        self.method == "POST"
            && (route.ends_with("/messages")
                || route.ends_with("/chat/completions")
                || super::gemini::is_generate(route)
                || super::responses::is_responses(route))
    }

    /// The conversation history the request carries.
    pub fn messages(&self) -> &[Value] {
        self.body
            .get("messages")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// How many assistant messages the history holds: the request's turn.
    pub fn turn(&self) -> usize {
        assistant_turns(&self.body)
    }

    /// Does any string in the body (system prompt, messages, tool results)
    /// contain `needle`?
    pub fn mentions(&self, needle: &str) -> bool {
        any_string(&self.body, &|s| s.contains(needle))
    }

    /// The `tool_result` blocks of an Anthropic request, in order.
    pub fn anthropic_tool_results(&self) -> Vec<AnthropicToolResult> {
        let mut results = Vec::new();
        for message in self.messages() {
            let Some(blocks) = message.get("content").and_then(Value::as_array) else {
                continue;
            };
            for block in blocks {
                if block.get("type").and_then(Value::as_str) != Some("tool_result") {
                    continue;
                }
                results.push(AnthropicToolResult {
                    tool_use_id: text_at(block, "tool_use_id"),
                    content: flatten_text(block.get("content").unwrap_or(&Value::Null)),
                    is_error: block
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                });
            }
        }
        results
    }

    /// The contents of the `role: "tool"` messages of a chat-completions
    /// request, in order.
    pub fn openai_tool_messages(&self) -> Vec<String> {
        self.messages()
            .iter()
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("tool"))
            .map(|m| flatten_text(m.get("content").unwrap_or(&Value::Null)))
            .collect()
    }

    /// The `output`s of the `function_call_output` items of a Responses
    /// request, in order (text content parts joined by newlines).
    pub fn responses_tool_outputs(&self) -> Vec<String> {
        let items = self
            .body
            .get("input")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        items
            .iter()
            .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call_output"))
            .map(|item| flatten_text(item.get("output").unwrap_or(&Value::Null)))
            .collect()
    }

    /// The `functionResponse` parts of a Gemini request, in order, each as
    /// its `response` object's JSON text (`{"output": …}` or
    /// `{"error": …}`).
    pub fn gemini_function_responses(&self) -> Vec<String> {
        let contents = self
            .body
            .get("contents")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        contents
            .iter()
            .filter_map(|c| c.get("parts").and_then(Value::as_array))
            .flatten()
            .filter_map(|part| part.pointer("/functionResponse/response"))
            .map(Value::to_string)
            .collect()
    }
}

/// The number of assistant messages in a request body's history (Gemini:
/// its `contents` of the model).
pub(crate) fn assistant_turns(body: &Value) -> usize {
    if body.get("contents").is_some() {
        return super::gemini::model_turns(body);
    }
    if body.get("input").is_some_and(Value::is_array) {
        return super::responses::model_turns(body);
    }
    body.get("messages")
        .and_then(Value::as_array)
        .map_or(0, |messages| {
            messages
                .iter()
                .filter(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
                .count()
        })
}

fn text_at(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A content value as text: a string as is, an array of blocks as their
/// `text` fields joined by newlines.
fn flatten_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn any_string(value: &Value, pred: &dyn Fn(&str) -> bool) -> bool {
    match value {
        Value::String(s) => pred(s),
        Value::Array(items) => items.iter().any(|v| any_string(v, pred)),
        Value::Object(map) => map.values().any(|v| any_string(v, pred)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(body: Value) -> RecordedRequest {
        RecordedRequest::new(
            "POST",
            "/v1/messages?beta=true",
            BTreeMap::new(),
            body.to_string().as_bytes(),
        )
    }

    #[test]
    fn reads_anthropic_tool_results() {
        let r = request(json!({"messages": [
            {"role": "user", "content": "go"},
            {"role": "system", "content": "skills"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1"}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "no way", "is_error": true},
                {"type": "text", "text": "<system-reminder>x</system-reminder>"},
            ]},
        ]}));
        assert!(r.is_model_call());
        assert_eq!(r.route(), "/v1/messages");
        assert_eq!(r.turn(), 1);
        assert_eq!(
            r.anthropic_tool_results(),
            [AnthropicToolResult {
                tool_use_id: "t1".into(),
                content: "no way".into(),
                is_error: true
            }]
        );
        assert!(r.mentions("system-reminder"));
        assert!(!r.mentions("absent"));
    }

    #[test]
    fn reads_openai_tool_messages() {
        let r = request(json!({"messages": [
            {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "out"}]},
        ]}));
        assert_eq!(r.openai_tool_messages(), ["out"]);
    }

    #[test]
    fn keeps_a_non_json_body_as_text() {
        let r = RecordedRequest::new("POST", "/x", BTreeMap::new(), b"not json");
        assert_eq!(r.body, Value::String("not json".into()));
        assert!(!r.is_model_call());
    }

    #[test]
    fn reads_the_log_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.jsonl");
        let a = request(json!({"messages": []}));
        let line = serde_json::to_string(&a).unwrap();
        std::fs::write(&path, format!("{line}\n{line}\n")).unwrap();
        assert_eq!(read_requests(&path).unwrap(), [a.clone(), a]);
        std::fs::write(&path, "{oops\n").unwrap();
        assert!(matches!(
            read_requests(&path),
            Err(RecordError::Line { line: 1, .. })
        ));
    }
}
