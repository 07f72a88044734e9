//! What the agents whose config runs `gateway-shim` with no argument in
//! Claude Code-style hook groups share: one table, a row per agent.

use std::path::Path;

use serde_json::{Value, json};

use super::{codex, droid, gemini, qwen};

#[test]
fn every_hooked_event_runs_the_shim_without_an_agent_argument() {
    let shim = Path::new("/opt/gateway-shim");
    let hooks = |event: &str| [event.to_owned()];
    // (agent, its events' hook groups, the event, the timeout in its unit)
    let rows: [(&str, Value, &str, u64); 4] = [
        (
            "codex",
            codex::hooks_json(&hooks("PreToolUse"), shim)["hooks"].clone(),
            "PreToolUse",
            30,
        ),
        (
            "droid",
            droid::hooks_json(&hooks("PreToolUse"), shim),
            "PreToolUse",
            30,
        ),
        (
            "gemini",
            gemini::settings_json(&hooks("BeforeTool"), shim)["hooks"].clone(),
            "BeforeTool",
            30_000,
        ),
        (
            "qwen",
            qwen::settings_json(&hooks("PreToolUse"), shim)["hooks"].clone(),
            "PreToolUse",
            30_000,
        ),
    ];
    for (agent, groups, event, timeout) in rows {
        assert_eq!(
            groups[event][0]["hooks"][0],
            json!({"type": "command", "command": "'/opt/gateway-shim'", "timeout": timeout}),
            "{agent}: {groups}"
        );
    }
}
