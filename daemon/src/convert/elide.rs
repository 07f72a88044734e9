//! A large text sent to subscribers once, not twice.
//!
//! `raw_json` is the payload as the agent sent it, and the tool's input
//! and output are also sent on their own (`tool.input_json`, `tool.output`),
//! so a 3 MB tool output or file write reached every subscriber twice: past
//! a default gRPC server's 4 MiB limit, and the call failed (issue #25). So
//! in a payload over [`ELIDE_OVER`] bytes, each string over [`ELIDE_OVER`]
//! that the event already carries in `tool.input_json` or `tool.output` is
//! replaced in `raw_json` by a short marker naming where it is (a
//! [`marker`]), and `tool.elided_from_raw_json` counts them. The marker is a
//! JSON string, so `raw_json` stays the agent's document in the agent's
//! shape; it is serialized again (object keys sorted). Smaller payloads,
//! the common case, are sent exactly as received.

use hookgate_adapters::Tool;
use serde_json::Value;

/// Payloads and strings up to this size are never touched.
pub(crate) const ELIDE_OVER: usize = 64 * 1024;

/// What stands in `raw_json` for a string of `len` bytes carried in `field`.
pub(crate) fn marker(len: usize, field: &str) -> String {
    format!("[hookgate: {len} bytes elided here; the same text is in {field}]")
}

/// `raw` as `raw_json`, and how many strings were elided.
pub(crate) fn raw_json(raw: &[u8], tool: Option<&Tool>) -> (String, u32) {
    let verbatim = || match std::str::from_utf8(raw) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(raw).into_owned(),
    };
    let Some(tool) = tool.filter(|_| raw.len() > ELIDE_OVER) else {
        return (verbatim(), 0);
    };
    let mut inputs: Vec<&str> = Vec::new();
    large_strings(&tool.input, &mut inputs);
    let output = tool.output.as_deref().filter(|o| o.len() > ELIDE_OVER);
    if inputs.is_empty() && output.is_none() {
        return (verbatim(), 0);
    }
    let Ok(mut payload) = serde_json::from_slice::<Value>(raw) else {
        return (verbatim(), 0);
    };
    let mut elided = 0;
    elide(&mut payload, &inputs, output, &mut elided);
    if elided == 0 {
        return (verbatim(), 0);
    }
    (payload.to_string(), elided)
}

/// The strings over [`ELIDE_OVER`] in `value`.
fn large_strings<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(text) if text.len() > ELIDE_OVER => out.push(text),
        Value::Array(items) => items.iter().for_each(|v| large_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| large_strings(v, out)),
        _ => {}
    }
}

/// Replaces in `value` each large string the event carries elsewhere.
fn elide(value: &mut Value, inputs: &[&str], output: Option<&str>, elided: &mut u32) {
    match value {
        Value::String(text) if text.len() > ELIDE_OVER => {
            let field = if inputs.contains(&text.as_str()) {
                Some("tool.input_json")
            } else if output.is_some_and(|output| carries(output, text)) {
                Some("tool.output")
            } else {
                None
            };
            if let Some(field) = field {
                *text = marker(text.len(), field);
                *elided += 1;
            }
        }
        Value::Array(items) => {
            for item in items {
                elide(item, inputs, output, elided);
            }
        }
        Value::Object(map) => {
            for item in map.values_mut() {
                elide(item, inputs, output, elided);
            }
        }
        _ => {}
    }
}

/// Whether `output` holds `text`: as itself or a part of itself (Gemini
/// CLI's `returnDisplay` inside its `llmContent`), or (an output that is
/// JSON serialized as text, like Claude Code's `tool_response` object) as
/// a JSON string.
fn carries(output: &str, text: &str) -> bool {
    output.contains(text)
        || serde_json::to_string(text).is_ok_and(|quoted| output.contains(quoted.as_str()))
}

#[cfg(test)]
mod tests {
    use hookgate_adapters::ToolClass;
    use serde_json::json;

    use super::*;

    fn big(c: char) -> String {
        std::iter::repeat_n(c, ELIDE_OVER + 10).collect()
    }

    #[test]
    fn small_payloads_go_as_they_came() {
        let raw = br#"{"b":1,"a":{"x":"y"}}"#;
        let tool = Tool::new("Bash", ToolClass::Shell, json!({"x": "y"}));
        assert_eq!(
            raw_json(raw, Some(&tool)),
            (String::from_utf8(raw.to_vec()).unwrap(), 0)
        );
    }

    #[test]
    fn a_large_output_is_sent_once() {
        // Claude Code's PostToolUse: `tool_response` is an object, its text
        // the tool's output once serialized.
        let out = format!("line 1\n{}\n\"quoted\"", big('o'));
        let payload = json!({
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "cat big.log"},
            "tool_response": {"stdout": out, "stderr": "", "interrupted": false},
        });
        let mut tool = Tool::new("Bash", ToolClass::Shell, json!({"command": "cat big.log"}));
        tool.output = Some(payload["tool_response"].to_string());
        let raw = payload.to_string();
        let (sent, elided) = raw_json(raw.as_bytes(), Some(&tool));
        assert_eq!(elided, 1);
        assert!(sent.len() < 1024, "{} bytes", sent.len());
        let sent: Value = serde_json::from_str(&sent).unwrap();
        assert_eq!(
            sent["tool_response"]["stdout"],
            marker(out.len(), "tool.output")
        );
        assert_eq!(
            sent["tool_input"], payload["tool_input"],
            "the rest as sent"
        );
    }

    #[test]
    fn gemini_sends_its_output_twice_and_subscribers_get_it_once() {
        let out = big('g');
        let llm = format!("<untrusted_context>\nOutput: {out}\n</untrusted_context>");
        let payload = json!({
            "hook_event_name": "AfterTool",
            "tool_response": {"llmContent": llm, "returnDisplay": out},
        });
        let mut tool = Tool::new("run_shell_command", ToolClass::Shell, json!({}));
        tool.output = Some(llm.clone());
        let (sent, elided) = raw_json(payload.to_string().as_bytes(), Some(&tool));
        assert_eq!(elided, 2);
        assert!(sent.len() < 1024, "{} bytes", sent.len());
    }

    #[test]
    fn a_large_input_is_sent_once_and_other_large_text_stays() {
        let content = big('c');
        let prompt = big('p');
        let input = json!({"file_path": "a.txt", "content": content});
        let payload = json!({"tool_input": input, "prompt": prompt});
        let tool = Tool::new("Write", ToolClass::FileWrite, input);
        let (sent, elided) = raw_json(payload.to_string().as_bytes(), Some(&tool));
        assert_eq!(elided, 1);
        let sent: Value = serde_json::from_str(&sent).unwrap();
        assert_eq!(
            sent["tool_input"]["content"],
            marker(content.len(), "tool.input_json")
        );
        assert_eq!(sent["prompt"], prompt, "carried nowhere else: kept");
        // No tool, or an unparsable payload: verbatim.
        let raw = payload.to_string();
        assert_eq!(raw_json(raw.as_bytes(), None).1, 0);
        let mut broken = raw.into_bytes();
        broken.push(b'}');
        assert_eq!(raw_json(&broken, Some(&tool)).1, 0);
    }
}
