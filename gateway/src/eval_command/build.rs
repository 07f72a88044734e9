//! The payloads `gateway eval` builds for the question a user has
//! (`--command`, `--tool`/`--input`, `--prompt`): each agent's doctor
//! probe (`hookgate_adapters::probe_payload`, a pre-tool call of its shell
//! tool, in its own dialect) edited as JSON into the call asked about, then
//! parsed by the agent's adapter to check it is that call.
//!
//! Tool names are the agent's own (what the agent shows and its hooks
//! send: Claude Code's `Write`, Gemini CLI's `write_file`), so a rule or
//! policy written against the names in the decision log is tested as is.
//! Every built payload names the session [`EVAL_SESSION`], which a live
//! gateway counts and logs as a probe.

use anyhow::{Context as _, anyhow, bail};
use hookgate_adapters::{Agent, EVAL_SESSION, EventKind, HookEvent, PROBE_SESSION, ToolClass};
use serde_json::{Map, Value, json};

/// A payload and the native event the hook call names on its command
/// line (`gateway-shim AGENT EVENT`).
#[derive(Debug)]
pub(crate) struct Built {
    pub(crate) payload: Vec<u8>,
    pub(crate) event: &'static str,
}

/// Where an agent's pre-tool payload holds the tool.
#[derive(Clone, Copy)]
enum Shape {
    /// `tool_name`, `tool_input` (Claude Code and the agents speaking its
    /// protocol, Gemini CLI, Codex).
    Claude,
    /// `toolName`, `toolArgs` (Copilot CLI's camelCase hooks).
    Camel,
    /// `tool_call.name`, `tool_call.input` (Cline's SDK hooks).
    Cline,
    /// `beforeShellExecution` for the shell, `preToolUse`'s `tool_name`,
    /// `tool_input` for any tool (Cursor).
    Cursor,
}

fn shape(agent: Agent) -> Shape {
    match agent {
        Agent::Copilot => Shape::Camel,
        Agent::Cline => Shape::Cline,
        Agent::Cursor => Shape::Cursor,
        Agent::ClaudeCode
        | Agent::Codex
        | Agent::QwenCode
        | Agent::Droid
        | Agent::GeminiCli
        | Agent::Hermes => Shape::Claude,
        Agent::OpenCode => Shape::Claude,
    }
}

/// A few of the agent's tool names, for the unknown-tool error.
fn example_tools(agent: Agent) -> &'static str {
    match agent {
        Agent::ClaudeCode => "Bash, Read, Write, Edit",
        Agent::Codex => "Bash, apply_patch",
        Agent::Cursor => "Shell, Read, Write, Delete",
        Agent::Cline => "run_commands, read_files, editor",
        Agent::GeminiCli | Agent::QwenCode => "run_shell_command, read_file, write_file",
        Agent::Droid => "Execute, Read, Create, Edit",
        Agent::Copilot => "bash, view, create, edit",
        Agent::Hermes => "terminal, read_file, write_file, patch",
        Agent::OpenCode => "bash, read, write, edit",
    }
}

/// The agent's native prompt-submit event (the hook entry's name).
fn prompt_event(agent: Agent) -> &'static str {
    match agent {
        Agent::Cursor => "beforeSubmitPrompt",
        Agent::GeminiCli => "BeforeAgent",
        Agent::Copilot => "userPromptSubmitted",
        Agent::Hermes => "pre_llm_call",
        Agent::OpenCode => "chat.message",
        Agent::ClaudeCode | Agent::Cline | Agent::Codex | Agent::QwenCode | Agent::Droid => {
            "UserPromptSubmit"
        }
    }
}

/// The agent's pre-tool call of its shell tool running `command`.
pub(crate) fn command(agent: Agent, command: &str) -> anyhow::Result<Built> {
    let mut probe = probe(agent)?;
    let root = object(&mut probe)?;
    match shape(agent) {
        Shape::Claude => set(root, "tool_input", json!({ "command": command })),
        Shape::Camel => set(root, "toolArgs", json!({ "command": command })),
        Shape::Cline => set(
            object_at(root, "tool_call")?,
            "input",
            json!({ "commands": [command] }),
        ),
        Shape::Cursor => set(root, "command", json!(command)),
    }
    let built = finish(probe, hookgate_adapters::probe_event(agent))?;
    let event = parsed(agent, &built)?;
    match event.tool.as_ref().map(|t| t.class) {
        Some(ToolClass::Shell) => Ok(built),
        _ => bail!("{agent}'s adapter did not read the built payload as a shell call"),
    }
}

/// The agent's pre-tool call of its tool `name` with `input` (a JSON
/// object, as the agent sends the tool's input).
pub(crate) fn tool(agent: Agent, name: &str, input: &str) -> anyhow::Result<Built> {
    let input: Value =
        serde_json::from_str(input).map_err(|err| anyhow!("--input is not valid JSON: {err}"))?;
    if !input.is_object() {
        bail!("--input must be a JSON object (the tool's input, as {agent} sends it)");
    }
    let mut probe = probe(agent)?;
    let root = object(&mut probe)?;
    let event = match shape(agent) {
        Shape::Claude => {
            set(root, "tool_name", json!(name));
            set(root, "tool_input", input);
            hookgate_adapters::probe_event(agent)
        }
        Shape::Camel => {
            set(root, "toolName", json!(name));
            set(root, "toolArgs", input);
            hookgate_adapters::probe_event(agent)
        }
        Shape::Cline => {
            let call = object_at(root, "tool_call")?;
            set(call, "name", json!(name));
            set(call, "input", input);
            hookgate_adapters::probe_event(agent)
        }
        Shape::Cursor => {
            // Its probe is the shell-only `beforeShellExecution`; any tool
            // goes through `preToolUse`.
            root.remove("command");
            set(root, "hook_event_name", json!("preToolUse"));
            set(root, "tool_name", json!(name));
            set(root, "tool_input", input);
            set(root, "tool_use_id", json!(EVAL_SESSION));
            "preToolUse"
        }
    };
    let built = finish(probe, event)?;
    let parsed = parsed(agent, &built)?;
    match parsed.tool.as_ref().map(|t| t.class) {
        Some(ToolClass::Other) => bail!(
            "hookgate does not know `{name}` as a {agent} tool (give the name as {agent} calls it, e.g. {}, or mcp__<server>__<tool>)",
            example_tools(agent)
        ),
        Some(_) => Ok(built),
        None => bail!("{agent}'s adapter did not read the built payload as a tool call"),
    }
}

/// The agent's prompt-submit event for `prompt`.
pub(crate) fn prompt(agent: Agent, prompt: &str) -> anyhow::Result<Built> {
    let mut probe = probe(agent)?;
    let root = object(&mut probe)?;
    let event = prompt_event(agent);
    match shape(agent) {
        Shape::Claude | Shape::Cursor => {
            for key in ["tool_name", "tool_input", "tool_use_id", "command"] {
                root.remove(key);
            }
            set(root, "hook_event_name", json!(event));
            set(root, "prompt", json!(prompt));
        }
        Shape::Camel => {
            root.remove("toolName");
            root.remove("toolArgs");
            set(root, "prompt", json!(prompt));
        }
        Shape::Cline => {
            root.remove("tool_call");
            set(root, "hookName", json!("prompt_submit"));
            set(
                root,
                "userPromptSubmit",
                json!({ "prompt": prompt, "attachments": [] }),
            );
        }
    }
    let built = finish(probe, event)?;
    match parsed(agent, &built) {
        Ok(event) if event.kind == EventKind::PromptSubmit => Ok(built),
        _ => bail!("{agent} has no prompt-submit event hookgate can build (--prompt)"),
    }
}

/// `payload` (a file given with `--socket`) with its session set to
/// [`EVAL_SESSION`], so the live gateway counts and logs it as a probe:
/// every top-level session field an agent sends is set; a payload with
/// none gets the field of `agent`'s dialect, or is refused without one.
pub(crate) fn mark(payload: &[u8], agent: Option<Agent>) -> anyhow::Result<Vec<u8>> {
    let mut value: Value = serde_json::from_slice(payload).context(
        "--socket marks the payload's session as an eval, so the payload must be a JSON object",
    )?;
    let Some(root) = value.as_object_mut() else {
        bail!("the payload is not a JSON object");
    };
    let keys = ["session_id", "conversation_id", "taskId", "sessionId"];
    let mut marked = false;
    for key in keys {
        if let Some(slot) = root.get_mut(key) {
            *slot = json!(EVAL_SESSION);
            marked = true;
        }
    }
    if !marked {
        let key = match agent.map(shape) {
            Some(Shape::Claude) => "session_id",
            Some(Shape::Camel) => "sessionId",
            Some(Shape::Cline) => "taskId",
            Some(Shape::Cursor) => "conversation_id",
            None => bail!(
                "the payload names no session to mark as an eval (session_id, conversation_id, taskId or sessionId): add one, or give --agent"
            ),
        };
        root.insert(key.to_owned(), json!(EVAL_SESSION));
    }
    Ok(serde_json::to_vec(&value)?)
}

/// The agent's probe payload, its probe session renamed [`EVAL_SESSION`].
fn probe(agent: Agent) -> anyhow::Result<Value> {
    let text = hookgate_adapters::probe_payload(agent)
        .ok_or_else(|| anyhow!("no sample payload for {agent}"))?;
    let mut value: Value = serde_json::from_str(text).context("the probe payload")?;
    rename_session(&mut value);
    Ok(value)
}

/// Every string that names the probe session names the eval's instead.
fn rename_session(value: &mut Value) {
    match value {
        Value::String(s) if s == PROBE_SESSION => *s = EVAL_SESSION.to_owned(),
        Value::Array(items) => items.iter_mut().for_each(rename_session),
        Value::Object(map) => map.values_mut().for_each(rename_session),
        _ => {}
    }
}

fn object(value: &mut Value) -> anyhow::Result<&mut Map<String, Value>> {
    value
        .as_object_mut()
        .ok_or_else(|| anyhow!("the probe payload is not a JSON object"))
}

fn object_at<'a>(
    root: &'a mut Map<String, Value>,
    key: &str,
) -> anyhow::Result<&'a mut Map<String, Value>> {
    root.get_mut(key)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| anyhow!("the probe payload has no `{key}` object"))
}

fn set(map: &mut Map<String, Value>, key: &str, value: Value) {
    map.insert(key.to_owned(), value);
}

fn finish(value: Value, event: &'static str) -> anyhow::Result<Built> {
    Ok(Built {
        payload: serde_json::to_vec(&value)?,
        event,
    })
}

/// The built payload as the agent's adapter reads it (and the gateway
/// will).
fn parsed(agent: Agent, built: &Built) -> anyhow::Result<HookEvent> {
    let detected =
        hookgate_adapters::detect_with_event(&built.payload, Some(agent), Some(built.event), &[])
            .map_err(|err| anyhow!("{agent}: the built payload is not recognised: {err:?}"))?;
    let event = hookgate_adapters::parse_detected(&detected, &built.payload)
        .map_err(|err| anyhow!("{agent}: the built payload does not parse: {err}"))?;
    Ok(event)
}

#[cfg(test)]
mod tests;
