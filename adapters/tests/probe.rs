//! `gateway doctor`'s probe payloads are what they claim: each agent's own
//! pre-tool call of its shell tool running `true`.

use hookgate_adapters::{Agent, EventKind, ToolClass, detect, parse, probe_payload};

#[test]
fn every_probe_is_a_shell_pre_tool_call_of_its_agent() {
    for agent in Agent::ALL {
        let Some(payload) = probe_payload(agent) else {
            continue;
        };
        let detected = detect(payload.as_bytes(), Some(agent), &[]).unwrap();
        assert_eq!(detected.dialect.agent(), agent);
        let event = parse(detected.dialect, payload.as_bytes()).unwrap();
        assert_eq!(event.kind, EventKind::PreToolUse, "{agent}");
        let tool = event.tool.unwrap();
        assert_eq!(tool.class, ToolClass::Shell, "{agent}");
        assert_eq!(tool.command.as_deref(), Some("true"), "{agent}");
    }
}
