//! `gateway doctor`'s probe payloads are what they claim: each agent's own
//! pre-tool call of its shell tool running `true`, through the event
//! `probe_event` names.

use hookgate_adapters::{
    Agent, EventKind, ToolClass, detect_with_event, parse_detected, probe_event, probe_payload,
};

#[test]
fn every_probe_is_a_shell_pre_tool_call_of_its_agent() {
    for agent in Agent::ALL {
        let Some(payload) = probe_payload(agent) else {
            continue;
        };
        let arg = (agent == Agent::Copilot).then(|| probe_event(agent));
        let detected = detect_with_event(payload.as_bytes(), Some(agent), arg, &[]).unwrap();
        assert_eq!(detected.dialect.agent(), agent, "{agent}");
        let event = parse_detected(&detected, payload.as_bytes()).unwrap();
        assert_eq!(event.kind, EventKind::PreToolUse, "{agent}");
        let tool = event.tool.unwrap();
        assert_eq!(tool.class, ToolClass::Shell, "{agent}");
        assert_eq!(tool.command.as_deref(), Some("true"), "{agent}");
    }
}
