//! What several test modules share: starting a gateway in front of
//! subscribers, the dialects under test, and the in-process
//! cross-check of a real reply against `hookgate_adapters`.

use std::time::Duration;

use hookgate_adapters as adapters;
use hookgate_integration_tests::{
    ShimOutput, SubscriberEntry, TestGateway, TestSubscriber, config_toml,
};
use hookgate_proto::v1 as pb;
use serde_json::Value;

/// How long a test waits for something that must happen promptly
/// (bounded polling; generous so a loaded machine does not flake).
pub(crate) const EVENTUALLY: Duration = Duration::from_secs(10);

/// The dialects under test are the adapters' own (`Dialect::ALL`).
pub(crate) use hookgate_adapters::Dialect;

/// What the suites need of a dialect beyond the adapters' API: how the
/// shim is told it, its proto names (an independent check of the
/// gateway's conversion), and its sample pre-tool call.
pub(crate) trait UnderTest: Copy {
    /// The shim's arguments (space-separated; camelCase Copilot payloads
    /// name no event, so the shim is told).
    fn arg(self) -> &'static str;
    fn proto_agent(self) -> pb::Agent;
    fn proto(self) -> pb::Dialect;
    /// The pre-tool-use event's native name in this dialect's sample.
    fn pre_tool_use_event(self) -> &'static str;
    /// The pre-tool-use payload of this dialect, running `command` in a
    /// shell tool.
    fn shell_payload(self, command: &str) -> String;
}

impl UnderTest for Dialect {
    fn arg(self) -> &'static str {
        match self {
            Dialect::CopilotCamel => "copilot preToolUse",
            dialect => dialect.agent().as_str(),
        }
    }

    fn proto_agent(self) -> pb::Agent {
        match self {
            Dialect::ClaudeCode => pb::Agent::ClaudeCode,
            Dialect::Cursor => pb::Agent::Cursor,
            Dialect::ClineSdk | Dialect::ClineLegacy => pb::Agent::Cline,
            Dialect::QwenCode => pb::Agent::QwenCode,
            Dialect::Droid => pb::Agent::Droid,
            Dialect::GeminiCli => pb::Agent::GeminiCli,
            Dialect::Codex => pb::Agent::Codex,
            Dialect::CopilotPascal | Dialect::CopilotCamel => pb::Agent::Copilot,
            Dialect::Hermes => pb::Agent::Hermes,
            Dialect::OpenCode => pb::Agent::Opencode,
        }
    }

    fn proto(self) -> pb::Dialect {
        match self {
            Dialect::ClaudeCode => pb::Dialect::ClaudeCode,
            Dialect::Cursor => pb::Dialect::Cursor,
            Dialect::ClineSdk => pb::Dialect::ClineSdk,
            Dialect::ClineLegacy => pb::Dialect::ClineLegacy,
            Dialect::QwenCode => pb::Dialect::QwenCode,
            Dialect::Droid => pb::Dialect::Droid,
            Dialect::GeminiCli => pb::Dialect::GeminiCli,
            Dialect::Codex => pb::Dialect::Codex,
            Dialect::CopilotPascal => pb::Dialect::CopilotPascal,
            Dialect::CopilotCamel => pb::Dialect::CopilotCamel,
            Dialect::Hermes => pb::Dialect::Hermes,
            Dialect::OpenCode => pb::Dialect::Opencode,
        }
    }

    /// The pre-tool-use event's native name in this dialect's sample.
    fn pre_tool_use_event(self) -> &'static str {
        match self {
            Dialect::ClaudeCode
            | Dialect::ClineLegacy
            | Dialect::QwenCode
            | Dialect::Droid
            | Dialect::Codex
            | Dialect::CopilotPascal => "PreToolUse",
            Dialect::CopilotCamel => "preToolUse",
            Dialect::Cursor => "beforeShellExecution",
            Dialect::GeminiCli => "BeforeTool",
            Dialect::ClineSdk => "tool_call",
            Dialect::Hermes => "pre_tool_call",
            Dialect::OpenCode => "tool.execute.before",
        }
    }

    /// The pre-tool-use payload of this dialect, running `command` in a
    /// shell tool.
    fn shell_payload(self, command: &str) -> String {
        use hookgate_integration_tests::payloads;
        match self {
            Dialect::ClaudeCode => payloads::claude_bash(command),
            Dialect::Cursor => payloads::cursor_shell(command),
            Dialect::ClineSdk => payloads::cline_sdk_command(command),
            Dialect::ClineLegacy => payloads::cline_legacy_command(command),
            Dialect::QwenCode => payloads::qwen_shell(command),
            Dialect::Droid => payloads::droid_execute(command),
            Dialect::GeminiCli => payloads::gemini_shell(command),
            Dialect::Codex => payloads::codex_bash(command),
            Dialect::CopilotPascal => payloads::copilot_bash(command),
            Dialect::CopilotCamel => payloads::copilot_camel_bash(command),
            Dialect::Hermes => payloads::hermes_terminal(command),
            Dialect::OpenCode => payloads::opencode_bash(command),
        }
    }
}

/// A gateway whose config lists `entries` (no built-ins).
pub(crate) async fn gateway(entries: &[SubscriberEntry]) -> TestGateway {
    TestGateway::start(&config_toml(entries)).await
}

/// One decide subscriber answering `decision`, a gateway in front of it,
/// one shim run with `payload`; returns the reply and the event the
/// subscriber received.
pub(crate) async fn answer(
    dialect: Dialect,
    payload: &str,
    decision: pb::Decision,
) -> (ShimOutput, pb::HookEvent) {
    let subscriber = TestSubscriber::fixed(decision.clone()).await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &subscriber.endpoint())]).await;
    let out = gateway.shim(Some(dialect.arg())).run(payload).await;
    let events = subscriber.events();
    assert_eq!(
        events.len(),
        1,
        "the subscriber must be asked exactly once before the reply; reply: {out}"
    );
    let event = events.into_iter().next().expect("one event");
    assert_event_matches_adapters(&event, dialect, payload);
    assert_matches_adapters(&out, dialect, payload, &[(0, decision)]);
    (out, event)
}

/// The reply `hookgate_adapters` renders for `payload` after merging
/// `decisions` (priority, decision), in config order.
pub(crate) fn adapters_reply(
    dialect: Dialect,
    payload: &str,
    decisions: &[(i32, pb::Decision)],
) -> adapters::Reply {
    let event = adapters::parse(dialect, payload.as_bytes())
        .unwrap_or_else(|err| panic!("adapters cannot parse the payload: {err}"));
    let ranked: Vec<adapters::RankedDecision> = decisions
        .iter()
        .enumerate()
        .map(|(i, (priority, decision))| adapters::RankedDecision {
            subscriber: format!("s{i}"),
            priority: *priority,
            decision: canonical(decision),
        })
        .collect();
    let merged = adapters::merge(dialect, &ranked);
    adapters::render(&event, &merged.decision).reply
}

/// The real reply is byte for byte what the adapters render in-process for
/// the same decisions: the gateway adds nothing and loses nothing.
pub(crate) fn assert_matches_adapters(
    out: &ShimOutput,
    dialect: Dialect,
    payload: &str,
    decisions: &[(i32, pb::Decision)],
) {
    let expected = adapters_reply(dialect, payload, decisions);
    let expected = ShimOutput {
        stdout: expected.stdout,
        stderr: expected.stderr,
        code: Some(expected.exit_code),
    };
    assert!(
        out.stdout == expected.stdout && out.stderr == expected.stderr && out.code == expected.code,
        "reply differs from adapters::render in-process\n   real: {out}\n   expected: {expected}"
    );
}

/// A subscriber's decision as the adapters see it (the gateway's
/// `convert` module does the same: empty strings are absent).
fn canonical(decision: &pb::Decision) -> adapters::Decision {
    let text = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    adapters::Decision {
        permission: match decision.permission() {
            pb::Permission::Unspecified => adapters::Permission::Unspecified,
            pb::Permission::Allow => adapters::Permission::Allow,
            pb::Permission::Ask => adapters::Permission::Ask,
            pb::Permission::Deny => adapters::Permission::Deny,
        },
        reason: text(&decision.reason),
        agent_message: text(&decision.agent_message),
        additional_context: text(&decision.additional_context),
        updated_input: text(&decision.updated_input_json)
            .map(|json| serde_json::from_str(&json).expect("test decisions carry valid JSON")),
        halt: decision.halt,
        followup_message: text(&decision.followup_message),
    }
}

/// `value[key]` as a string, or "" when absent or not a string.
pub(crate) fn str_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Claude Code's `hookSpecificOutput`, checked to name `event`.
pub(crate) fn claude_specific<'a>(out: &ShimOutput, json: &'a Value, event: &str) -> &'a Value {
    let specific = json
        .get("hookSpecificOutput")
        .unwrap_or_else(|| panic!("no hookSpecificOutput: {out}"));
    assert_eq!(str_at(specific, "hookEventName"), event, "{out}");
    specific
}

/// A Claude Code reply to `event` with exit 0 whose `permissionDecision`
/// and `additionalContext` are `permission` and `context` (`None`: absent).
pub(crate) fn assert_claude_reply(
    out: &ShimOutput,
    event: &str,
    permission: Option<&str>,
    context: Option<&str>,
) {
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(out, &json, event);
    for (key, expected) in [
        ("permissionDecision", permission),
        ("additionalContext", context),
    ] {
        match expected {
            Some(value) => assert_eq!(str_at(specific, key), value, "{key}: {out}"),
            None => assert!(specific.get(key).is_none(), "no {key} expected: {out}"),
        }
    }
}

/// A Claude Code allow carrying exactly `context`.
pub(crate) fn assert_claude_allow(out: &ShimOutput, event: &str, context: &str) {
    assert_claude_reply(out, event, Some("allow"), Some(context));
}

/// A Claude Code deny of a tool call: either form Claude Code obeys —
/// `permissionDecision: "deny"` JSON with exit 0, or exit 2 with the reason
/// on stderr and nothing on stdout.
pub(crate) fn assert_claude_deny(out: &ShimOutput, event: &str, reason: &str) {
    match out.code {
        Some(0) => {
            let json = out.json();
            let specific = claude_specific(out, &json, event);
            assert_eq!(str_at(specific, "permissionDecision"), "deny", "{out}");
            assert!(
                str_at(specific, "permissionDecisionReason").contains(reason),
                "{out}"
            );
        }
        // Claude Code ignores stdout on exit 2; if there is any, it must
        // say the same.
        Some(2) => {
            assert!(out.stderr_str().contains(reason), "{out}");
            if !out.stdout.is_empty() {
                let json = out.json();
                let specific = claude_specific(out, &json, event);
                assert_eq!(str_at(specific, "permissionDecision"), "deny", "{out}");
            }
        }
        _ => panic!("not a Claude Code deny: {out}"),
    }
}

/// Cline's JSON reply (either dialect): the whole stdout is one object,
/// or empty (no control).
pub(crate) fn cline_json(out: &ShimOutput) -> Value {
    if out.stdout.iter().all(u8::is_ascii_whitespace) {
        return Value::Object(Default::default());
    }
    let json = out.json();
    assert!(json.is_object(), "Cline replies are JSON objects: {out}");
    json
}

/// A Cline block: `cancel: true` with the reason (both dialects; exit codes
/// do not matter to the SDK, and valid JSON wins in legacy).
pub(crate) fn assert_cline_cancel(out: &ShimOutput, reason: &str) {
    let json = cline_json(out);
    assert_eq!(json.get("cancel"), Some(&Value::Bool(true)), "{out}");
    assert!(str_at(&json, "errorMessage").contains(reason), "{out}");
}

/// A Cline SDK refusal of one call: an empty `overrideInput` (fails
/// Cline's input validation, so the call does not run) and the reason as
/// context; no `cancel`, so the task goes on.
pub(crate) fn assert_cline_refusal(out: &ShimOutput, reason: &str) {
    let json = cline_json(out);
    assert_eq!(json.get("cancel"), None, "{out}");
    assert_eq!(
        json.get("overrideInput"),
        Some(&serde_json::json!({})),
        "{out}"
    );
    assert!(str_at(&json, "context").contains(reason), "{out}");
}

/// The event the subscriber received carries what `hookgate_adapters`
/// parses from the payload in-process, field by field, and the payload
/// itself as `raw_json`.
pub(crate) fn assert_event_matches_adapters(
    event: &pb::HookEvent,
    dialect: Dialect,
    payload: &str,
) {
    let parsed = adapters::parse(dialect, payload.as_bytes())
        .unwrap_or_else(|err| panic!("adapters cannot parse the payload: {err}"));
    assert_eq!(event.agent(), dialect.proto_agent());
    assert_eq!(event.dialect(), dialect.proto());
    assert_eq!(
        event.raw_json, payload,
        "raw_json must be the payload exactly as sent"
    );
    assert_eq!(event.native_event, parsed.native_event);
    let kind = format!("EVENT_KIND_{}", parsed.kind.as_str().to_uppercase());
    assert_eq!(event.kind().as_str_name(), kind);
    assert_eq!(event.blocking, parsed.blocking);
    let caps = event.capabilities.unwrap_or_default();
    let want = parsed.capabilities;
    assert_eq!(
        (
            caps.deny,
            caps.ask,
            caps.context,
            caps.input_rewrite,
            caps.halt,
            caps.followup
        ),
        (
            want.deny,
            want.ask,
            want.context,
            want.input_rewrite,
            want.halt,
            want.followup
        ),
        "capabilities"
    );
    assert_eq!(event.agent_version, parsed.agent_version);
    assert_eq!(event.session_id, parsed.session_id);
    assert_eq!(event.cwd, parsed.cwd);
    assert_eq!(event.workspace_roots, parsed.workspace_roots);
    assert_eq!(event.transcript_path, parsed.transcript_path);
    assert_eq!(event.model, parsed.model);
    match (&event.tool, &parsed.tool) {
        (None, None) => {}
        (Some(tool), Some(want)) => {
            assert_eq!(tool.name, want.name);
            let class = format!("TOOL_CLASS_{}", want.class.as_str().to_uppercase());
            assert_eq!(tool.class().as_str_name(), class);
            let input: Value = serde_json::from_str(&tool.input_json).expect("input_json is JSON");
            assert_eq!(input, want.input);
            assert_eq!(tool.command, want.command);
            assert_eq!(tool.mcp_server, want.mcp_server);
            assert_eq!(tool.file_path, want.file_path);
            assert_eq!(tool.call_id, want.call_id);
        }
        (got, want) => panic!("tool: got {got:?}, adapters parse {want:?}"),
    }
}

/// Every hook call shims answered on their own, by any reason, in a
/// status document.
pub(crate) fn total_fallbacks(doc: &Value) -> u64 {
    doc["fallbacks"]
        .as_object()
        .expect("fallbacks")
        .values()
        .filter_map(Value::as_u64)
        .sum()
}

/// `setpriv` arguments that run a command as `nobody` (`nobody:nogroup`).
pub(crate) const AS_NOBODY: [&str; 5] = [
    "setpriv",
    "--reuid=nobody",
    "--regid=nogroup",
    "--clear-groups",
    "--",
];

/// Why this machine cannot run another user's process (needs root,
/// `setpriv` and a `nobody` user), if it cannot: the tests that need one
/// print it and skip.
pub(crate) fn cannot_switch_users() -> Option<String> {
    use std::os::unix::fs::MetadataExt as _;
    let uid = std::fs::metadata("/proc/self").map(|m| m.uid());
    if uid.as_ref().ok() != Some(&0) {
        return Some(format!("not running as root (uid {uid:?})"));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if !std::env::split_paths(&path).any(|dir| dir.join("setpriv").is_file()) {
        return Some("setpriv is not installed".into());
    }
    if nobody_ids().is_none() {
        return Some("no `nobody` user in /etc/passwd".into());
    }
    None
}

/// `nobody`'s uid and primary gid.
pub(crate) fn nobody_ids() -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    let line = passwd.lines().find(|line| line.starts_with("nobody:"))?;
    let mut fields = line.split(':').skip(2);
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// The subscriber `name`'s entry in `gateway status --json`.
pub(crate) async fn subscriber_status(gateway: &TestGateway, name: &str) -> Value {
    let doc = gateway.status_json().await;
    doc["subscribers"]
        .as_array()
        .expect("subscribers")
        .iter()
        .find(|s| s["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no subscriber `{name}` in {doc}"))
}
