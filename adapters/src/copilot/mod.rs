//! GitHub Copilot CLI's hooks (1.0.102), in the two dialects its config
//! chooses by the case of the event names:
//!
//! * PascalCase (`PreToolUse`, ...): Claude Code's payloads (plus an ISO
//!   `timestamp`, `tool_result` instead of `tool_response`) with Claude
//!   Code's tool names, read by Claude Code's parser driven by [`PASCAL`];
//!   replies as Claude Code's for the permission, but context at the top
//!   level (`camel::render_as`);
//! * camelCase (`preToolUse`, ...): Copilot's own payloads, which name no
//!   event, and flat replies (`camel`).
//!
//! docs/agents.md, "GitHub Copilot CLI".

mod camel;
mod tools;

use crate::adapter::Adapter;
use crate::claude_code::Protocol;
use crate::json::{self, Fields};
use camel::Form;

use hookgate_dialect::sniff;

use crate::{Decision, Dialect, HookEvent, ParseError, ParseErrorKind, Rendered, TraceContext};

/// The PascalCase dialect, read and answered as Claude Code's.
pub(crate) const PASCAL: Protocol = Protocol::new(Dialect::CopilotPascal, tools::pascal_class);

/// The camelCase dialect's events and tools (parsed and rendered by `camel`).
pub(crate) const CAMEL: Protocol = Protocol::new(Dialect::CopilotCamel, tools::camel_class);

/// The PascalCase dialect's parse and render.
pub(crate) const PASCAL_ADAPTER: Adapter = Adapter {
    parse: |payload, _| parse_pascal(payload),
    render: render_pascal,
};

/// The camelCase dialect's parse and render: the event is the shim's
/// argument, or the payload's `hookName` (only `permissionRequest` names
/// itself).
pub(crate) const CAMEL_ADAPTER: Adapter = Adapter {
    parse: |payload, event_arg| match event_arg {
        Some(event) => parse_camel(payload, event),
        None => match sniff::scan(payload).and_then(|top| top.string_value("hookName")) {
            Some(event) => parse_camel(payload, &event),
            None => Err(no_event_name()),
        },
    },
    render: render_camel,
};

/// A camelCase payload without the event on the shim's command line.
fn no_event_name() -> ParseError {
    ParseError::new(
        Dialect::CopilotCamel,
        ParseErrorKind::MissingField("event name (register `gateway-shim copilot <event>`)".into()),
    )
}

/// Parses a PascalCase payload: Claude Code's parser, then the tool's
/// output from `tool_result.text_result_for_llm`.
pub(crate) fn parse_pascal(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let mut event = PASCAL.parse(payload)?;
    let map = json::object(PASCAL.dialect, payload)?;
    if let Some(tool) = event.tool.as_mut() {
        let root = Fields::root(PASCAL.dialect, &map);
        if let Some(result) = root.opt_object("tool_result")? {
            tool.output = result.opt_string("text_result_for_llm")?;
        }
    }
    event.trace = trace_context(&map);
    Ok(event)
}

/// Since 1.0.81 both dialects' inputs carry the W3C `traceparent` and
/// `tracestate` at the top level. Read leniently: a malformed trace
/// context is no context, never an unparsable event.
pub(crate) fn trace_context(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Option<TraceContext> {
    let text = |key: &str| map.get(key).and_then(serde_json::Value::as_str);
    TraceContext::from_values(text("traceparent"), text("tracestate"))
}

/// Renders a PascalCase reply.
pub(crate) fn render_pascal(event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = PASCAL.spec(&event.native_event);
    camel::render_as(decision, spec, Form::Pascal)
}

/// Renders a camelCase reply.
pub(crate) fn render_camel(event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = CAMEL.spec(&event.native_event);
    camel::render_as(decision, spec, Form::Camel)
}

/// Parses a camelCase payload of `native_event` (the shim's argument).
pub(crate) fn parse_camel(payload: &[u8], native_event: &str) -> Result<HookEvent, ParseError> {
    camel::parse(payload, native_event)
}

#[cfg(test)]
mod tests;
