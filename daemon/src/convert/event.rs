//! Canonical event → proto: what remote subscribers receive, built lazily
//! and shared between them.

use std::sync::{Arc, OnceLock};

use hookgate_adapters::{
    Agent, Capabilities, Dialect, EventKind, HookEvent, StopInfo, Tool, ToolClass,
};
use hookgate_proto::v1;
use prost::Message as _;
use prost::bytes::Bytes;

use crate::budget::Payload;

/// The proto form of one event, for the remote subscribers that get it.
///
/// Built and encoded on first use, so an event no remote subscriber
/// matches (the default guard + audit config) never pays for copying the
/// payload and re-serializing the tool input; encoded once and shared as
/// `Arc<ProtoEvent>`, so every remote subscriber is sent the same bytes
/// (a reference-counted `Bytes`, no per-subscriber copy or encode).
#[derive(Debug)]
pub(crate) struct ProtoEvent {
    event: Arc<HookEvent>,
    id: String,
    raw: Arc<Payload>,
    /// Who the event comes from (`[identity]`), the same for every event
    /// of one registry.
    caller: Arc<v1::Caller>,
    encoded: OnceLock<Bytes>,
}

impl ProtoEvent {
    /// Nothing is converted yet.
    pub(crate) fn new(
        event: Arc<HookEvent>,
        id: String,
        raw: Arc<Payload>,
        caller: Arc<v1::Caller>,
    ) -> Arc<ProtoEvent> {
        Arc::new(ProtoEvent {
            event,
            id,
            raw,
            caller,
            encoded: OnceLock::new(),
        })
    }

    /// The protobuf encoding of the `v1::HookEvent` to send, built on the
    /// first call and shared by every later one.
    pub(crate) fn encoded(&self) -> Bytes {
        self.encoded
            .get_or_init(|| {
                let mut proto = event_to_proto(&self.event, &self.id, &self.raw);
                proto.caller = Some(v1::Caller::clone(&self.caller));
                Bytes::from(proto.encode_to_vec())
            })
            .clone()
    }
}

/// The proto event sent to subscribers. `raw` is the payload as the agent
/// sent it (replaced lossily only if it is not UTF-8; a large text the
/// event carries elsewhere elided, see `elide`).
pub(crate) fn event_to_proto(event: &HookEvent, id: &str, raw: &[u8]) -> v1::HookEvent {
    // A large tool input or output goes once: see `elide`.
    let (raw_json, elided) = super::elide::raw_json(raw, event.tool.as_ref());
    v1::HookEvent {
        id: id.to_owned(),
        agent: agent(event.dialect.agent()) as i32,
        agent_version: event.agent_version.clone(),
        native_event: event.native_event.clone(),
        kind: kind(event.kind) as i32,
        blocking: event.blocking,
        capabilities: Some(capabilities(event.capabilities)),
        session_id: event.session_id.clone(),
        cwd: event.cwd.clone(),
        workspace_roots: event.workspace_roots.clone(),
        transcript_path: event.transcript_path.clone(),
        model: event.model.clone(),
        tool: event.tool.as_ref().map(|t| v1::Tool {
            elided_from_raw_json: elided,
            ..tool(t)
        }),
        prompt: event.prompt.clone(),
        text: event.text.clone(),
        stop: event.stop.as_ref().map(stop),
        raw_json,
        dialect: dialect(event.dialect) as i32,
        reason: event.reason.clone(),
        subagent_id: event.subagent_id.clone(),
        caller: None,
        shell: event
            .tool
            .as_ref()
            .and_then(|t| t.command.as_deref())
            .map(|line| shell(line, event.cwd.as_deref(), home())),
    }
}

/// A shell line's commands as the guard parses them.
fn shell(line: &str, cwd: Option<&str>, home: Option<&str>) -> v1::ShellLine {
    let parsed = hookgate_guard::commands(line, cwd, home);
    v1::ShellLine {
        commands: parsed
            .commands
            .into_iter()
            .map(|c| v1::ShellCommand {
                name: c.name,
                args: c.args,
                flags: c.flags,
                operands: c.operands,
                cwd: c.cwd,
            })
            .collect(),
        resolved: parsed.resolved,
    }
}

/// A shell tool's commands as the guard parses them, as JSON for a
/// policy's `input.tool.commands`, and whether the whole line was read.
pub(crate) fn shell_json(event: &HookEvent) -> Option<(serde_json::Value, bool)> {
    let line = event.tool.as_ref()?.command.as_deref()?;
    let parsed = hookgate_guard::commands(line, event.cwd.as_deref(), home());
    let commands = parsed
        .commands
        .into_iter()
        .map(|c| {
            let mut command = serde_json::json!({
                "name": c.name, "args": c.args, "flags": c.flags, "operands": c.operands,
            });
            if let Some(cwd) = c.cwd {
                command["cwd"] = cwd.into();
            }
            command
        })
        .collect();
    Some((serde_json::Value::Array(commands), parsed.resolved))
}

/// The gateway's home directory (`$HOME`), which `~` in a command stands
/// for; read once, as the config reads it once.
fn home() -> Option<&'static str> {
    static HOME: OnceLock<Option<String>> = OnceLock::new();
    HOME.get_or_init(|| std::env::var("HOME").ok()).as_deref()
}

fn agent(agent: Agent) -> v1::Agent {
    match agent {
        Agent::ClaudeCode => v1::Agent::ClaudeCode,
        Agent::Cursor => v1::Agent::Cursor,
        Agent::Cline => v1::Agent::Cline,
        Agent::GeminiCli => v1::Agent::GeminiCli,
        Agent::Codex => v1::Agent::Codex,
        Agent::QwenCode => v1::Agent::QwenCode,
        Agent::Droid => v1::Agent::Droid,
        Agent::Copilot => v1::Agent::Copilot,
        Agent::Hermes => v1::Agent::Hermes,
        Agent::OpenCode => v1::Agent::Opencode,
    }
}

fn dialect(dialect: Dialect) -> v1::Dialect {
    match dialect {
        Dialect::ClaudeCode => v1::Dialect::ClaudeCode,
        Dialect::Cursor => v1::Dialect::Cursor,
        Dialect::ClineSdk => v1::Dialect::ClineSdk,
        Dialect::ClineLegacy => v1::Dialect::ClineLegacy,
        Dialect::QwenCode => v1::Dialect::QwenCode,
        Dialect::Droid => v1::Dialect::Droid,
        Dialect::GeminiCli => v1::Dialect::GeminiCli,
        Dialect::Codex => v1::Dialect::Codex,
        Dialect::CopilotPascal => v1::Dialect::CopilotPascal,
        Dialect::CopilotCamel => v1::Dialect::CopilotCamel,
        Dialect::Hermes => v1::Dialect::Hermes,
        Dialect::OpenCode => v1::Dialect::Opencode,
    }
}

fn kind(kind: EventKind) -> v1::EventKind {
    match kind {
        EventKind::SessionStart => v1::EventKind::SessionStart,
        EventKind::SessionResume => v1::EventKind::SessionResume,
        EventKind::SessionEnd => v1::EventKind::SessionEnd,
        EventKind::PromptSubmit => v1::EventKind::PromptSubmit,
        EventKind::PreToolUse => v1::EventKind::PreToolUse,
        EventKind::PostToolUse => v1::EventKind::PostToolUse,
        EventKind::ToolFailure => v1::EventKind::ToolFailure,
        EventKind::FileRead => v1::EventKind::FileRead,
        EventKind::FileEdit => v1::EventKind::FileEdit,
        EventKind::AgentResponse => v1::EventKind::AgentResponse,
        EventKind::AgentThought => v1::EventKind::AgentThought,
        EventKind::Stop => v1::EventKind::Stop,
        EventKind::SubagentStart => v1::EventKind::SubagentStart,
        EventKind::SubagentStop => v1::EventKind::SubagentStop,
        EventKind::PreCompact => v1::EventKind::PreCompact,
        EventKind::PostCompact => v1::EventKind::PostCompact,
        EventKind::Notification => v1::EventKind::Notification,
        EventKind::PermissionRequest => v1::EventKind::PermissionRequest,
        EventKind::TaskComplete => v1::EventKind::TaskComplete,
        EventKind::TaskError => v1::EventKind::TaskError,
        EventKind::TaskAbort => v1::EventKind::TaskAbort,
        EventKind::ConfigChange => v1::EventKind::ConfigChange,
        EventKind::Other => v1::EventKind::Other,
    }
}

fn tool_class(class: ToolClass) -> v1::ToolClass {
    match class {
        ToolClass::Shell => v1::ToolClass::Shell,
        ToolClass::Mcp => v1::ToolClass::Mcp,
        ToolClass::FileRead => v1::ToolClass::FileRead,
        ToolClass::FileWrite => v1::ToolClass::FileWrite,
        ToolClass::Search => v1::ToolClass::Search,
        ToolClass::Web => v1::ToolClass::Web,
        ToolClass::Subagent => v1::ToolClass::Subagent,
        ToolClass::Other => v1::ToolClass::Other,
    }
}

fn capabilities(c: Capabilities) -> v1::Capabilities {
    v1::Capabilities {
        deny: c.deny,
        ask: c.ask,
        context: c.context,
        input_rewrite: c.input_rewrite,
        halt: c.halt,
        followup: c.followup,
    }
}

fn tool(t: &Tool) -> v1::Tool {
    v1::Tool {
        name: t.name.clone(),
        class: tool_class(t.class) as i32,
        input_json: t.input.to_string(),
        command: t.command.clone(),
        mcp_server: t.mcp_server.clone(),
        file_path: t.file_path.clone(),
        output: t.output.clone(),
        error: t.error.clone(),
        duration_ms: t.duration_ms,
        call_id: t.call_id.clone(),
        paths: t.paths.clone(),
        paths_overflow: t.paths_overflow,
        elided_from_raw_json: 0,
    }
}

fn stop(s: &StopInfo) -> v1::StopInfo {
    v1::StopInfo {
        status: s.status.clone(),
        loop_count: s.loop_count,
        continuing: s.continuing,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::testing::{event, shell_tool};

    #[test]
    fn enums_map_one_to_one() {
        let kinds: HashSet<i32> = EventKind::ALL.iter().map(|k| kind(*k) as i32).collect();
        assert_eq!(kinds.len(), EventKind::ALL.len());
        let classes: HashSet<i32> = ToolClass::ALL
            .iter()
            .map(|c| tool_class(*c) as i32)
            .collect();
        assert_eq!(classes.len(), ToolClass::ALL.len());
        let agents: HashSet<i32> = Agent::ALL.iter().map(|a| agent(*a) as i32).collect();
        assert_eq!(agents.len(), Agent::ALL.len());
        // Names agree, so the proto and the config vocabulary never drift.
        for k in EventKind::ALL {
            let proto = kind(k).as_str_name().to_ascii_lowercase();
            assert_eq!(proto, format!("event_kind_{}", k.as_str()));
        }
        for c in ToolClass::ALL {
            let proto = tool_class(c).as_str_name().to_ascii_lowercase();
            assert_eq!(proto, format!("tool_class_{}", c.as_str()));
        }
    }

    #[test]
    fn event_carries_everything() {
        let mut e = event(Dialect::ClineSdk, EventKind::PreToolUse);
        e.tool = Some(shell_tool("run_commands", "npm test"));
        e.capabilities.input_rewrite = true;
        e.stop = Some(StopInfo {
            status: Some("completed".into()),
            loop_count: Some(2),
            continuing: true,
        });
        let raw = br#"{"hookName":"tool_call"}"#;
        let p = event_to_proto(&e, "01ID", raw);
        assert_eq!(p.id, "01ID");
        assert_eq!(p.agent, v1::Agent::Cline as i32);
        assert_eq!(p.dialect, v1::Dialect::ClineSdk as i32);
        assert_eq!(p.kind, v1::EventKind::PreToolUse as i32);
        assert_eq!(p.raw_json.as_bytes(), raw);
        assert!(p.capabilities.is_some_and(|c| c.input_rewrite && !c.deny));
        let tool = p.tool.unwrap();
        assert_eq!(tool.class, v1::ToolClass::Shell as i32);
        assert_eq!(tool.command.as_deref(), Some("npm test"));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&tool.input_json).unwrap()["command"],
            "npm test"
        );
        assert_eq!(p.stop.unwrap().loop_count, Some(2));
        let shell = p.shell.expect("a shell tool's line, parsed");
        assert!(shell.resolved);
        let [npm] = <[v1::ShellCommand; 1]>::try_from(shell.commands).unwrap();
        assert_eq!(
            (npm.name.as_str(), npm.operands),
            ("npm", vec!["test".into()])
        );
        assert_eq!(npm.cwd, e.cwd, "where it runs: the event's directory");

        assert!(tool.paths.is_empty() && !tool.paths_overflow);

        let mut write = Tool::new(
            "Write",
            ToolClass::FileWrite,
            serde_json::json!({"file_path": "src/a.rs", "content": "x"}),
        );
        write.paths_overflow = true;
        e.tool = Some(write);
        let tool = event_to_proto(&e, "01ID", raw).tool.unwrap();
        assert_eq!(tool.paths, ["src/a.rs"]);
        assert!(tool.paths_overflow);

        let lossy = event_to_proto(&e, "x", &[b'{', 0xff, b'}']);
        assert_eq!(lossy.raw_json, "{\u{fffd}}");
    }

    #[test]
    fn proto_event_is_encoded_on_demand_once_for_every_holder() {
        let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
        e.tool = Some(shell_tool("Bash", "ls"));
        let e = Arc::new(e);
        let raw = Arc::new(Payload::from(
            br#"{"hook_event_name":"PreToolUse"}"#.to_vec(),
        ));
        let caller = Arc::new(v1::Caller {
            origin: Some("eu-laptops".into()),
            ..v1::Caller::default()
        });
        let shared = ProtoEvent::new(
            Arc::clone(&e),
            "01ID".into(),
            Arc::clone(&raw),
            Arc::clone(&caller),
        );
        assert!(shared.encoded.get().is_none(), "nothing converted up front");
        let second = Arc::clone(&shared);
        let first = shared.encoded();
        assert!(
            second.encoded.get().is_some(),
            "encoded once, for every holder"
        );
        let again = second.encoded();
        assert_eq!(first.as_ptr(), again.as_ptr(), "the same bytes, not a copy");
        // What subscribers decode is exactly the converted event, from
        // this caller.
        let decoded = v1::HookEvent::decode(again).unwrap();
        let mut expected = event_to_proto(&e, "01ID", &raw);
        expected.caller = Some(v1::Caller::clone(&caller));
        assert_eq!(decoded, expected);
    }
}
