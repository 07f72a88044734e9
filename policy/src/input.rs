//! The `input` document a policy sees: the canonical event as JSON.
//!
//! One documented shape for every agent (docs/policies.md, "The input
//! document"), so a policy never spells an agent's own field names. Keys
//! are only ever added: a policy written against this shape keeps working.
//! Absent facts are absent keys, never `null`, so `input.tool.command`
//! is simply undefined for a file tool.

use hookgate_adapters::HookEvent;
use serde_json::{Map, Value, json};

/// What the gateway knows besides the event itself.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Who the event comes from (`[identity]`: hostname, user, origin,
    /// labels), as the gateway sends it to remote subscribers.
    pub caller: Option<Value>,
    /// The simple commands of a shell tool's line, as the guard parses
    /// them (`hookgate_guard::commands`): `[{"name", "args", "flags",
    /// "operands", "cwd"}]`, so a policy never parses shell itself.
    pub commands: Option<Value>,
    /// The guard read the whole line: `commands` is all it runs.
    pub commands_resolved: bool,
}

/// The input document for `event`.
pub fn document(event: &HookEvent, context: &Context) -> Value {
    let mut doc = Map::new();
    let agent = event.dialect.agent().as_str();
    doc.insert("agent".into(), json!(agent));
    doc.insert("event".into(), json!(event.kind.as_str()));
    doc.insert("native_event".into(), json!(event.native_event));
    doc.insert("blocking".into(), json!(event.blocking));
    let caps = event.capabilities;
    doc.insert(
        "can".into(),
        json!({
            "deny": caps.deny, "ask": caps.ask, "context": caps.context,
            "rewrite": caps.input_rewrite, "halt": caps.halt, "followup": caps.followup,
        }),
    );
    let mut put = |key: &str, value: &Option<String>| put_some(&mut doc, key, value);
    put("agent_version", &event.agent_version);
    put("session_id", &event.session_id);
    put("cwd", &event.cwd);
    put("model", &event.model);
    put("prompt", &event.prompt);
    put("text", &event.text);
    put("reason", &event.reason);
    put("subagent_id", &event.subagent_id);
    if !event.workspace_roots.is_empty() {
        doc.insert("workspace_roots".into(), json!(event.workspace_roots));
    }
    if let Some(tool) = &event.tool {
        let mut t = Map::new();
        t.insert("name".into(), json!(tool.name));
        t.insert("class".into(), json!(tool.class.as_str()));
        t.insert("input".into(), tool.input.clone());
        t.insert("paths".into(), json!(tool.paths));
        if tool.paths_overflow {
            t.insert("paths_overflow".into(), json!(true));
        }
        let mut put = |key: &str, value: &Option<String>| put_some(&mut t, key, value);
        put("command", &tool.command);
        put("mcp_server", &tool.mcp_server);
        put("file_path", &tool.file_path);
        put("output", &tool.output);
        put("error", &tool.error);
        put("call_id", &tool.call_id);
        if let Some(commands) = &context.commands {
            t.insert("commands".into(), commands.clone());
            t.insert("commands_resolved".into(), json!(context.commands_resolved));
        }
        doc.insert("tool".into(), Value::Object(t));
    }
    if let Some(stop) = &event.stop {
        let mut s = Map::new();
        if let Some(status) = &stop.status {
            s.insert("status".into(), json!(status));
        }
        if let Some(count) = stop.loop_count {
            s.insert("loop_count".into(), json!(count));
        }
        s.insert("continuing".into(), json!(stop.continuing));
        doc.insert("stop".into(), Value::Object(s));
    }
    if let Some(caller) = &context.caller {
        doc.insert("caller".into(), caller.clone());
    }
    Value::Object(doc)
}

/// Sets `key` to `value` when there is one: an absent field stays out of
/// the document, as `input.x` undefined in Rego.
fn put_some(map: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        map.insert(key.into(), json!(value));
    }
}
