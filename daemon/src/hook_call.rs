//! One hook call as the pipeline takes it, whichever door it came through:
//! a shim's `Request` frame (its arguments and forwarded variables, read
//! once, here) or an HTTP hook's route. Typed, so neither door dresses up
//! as the other: the HTTP door says its fail mode, it does not forge the
//! shim's `HOOKGATE_FAIL`.

use hookgate_adapters::{self as adapters, Agent, FailMode};
use hookgate_wire::Request;

use crate::call_terms::CallTerms;

/// A hook call: who and what it names, its terms, and the payload.
#[derive(Debug)]
pub(crate) struct HookCall {
    /// The agent the caller named (`gateway-shim cursor`, `/hook/cursor`):
    /// a hint for detection, not a fact.
    pub(crate) hint: Option<Agent>,
    /// The event the caller named, for payloads that name none
    /// (`gateway-shim copilot preToolUse`).
    pub(crate) event: Option<String>,
    /// The caller's working directory, when it is an absolute path: the
    /// event's when its payload names none.
    pub(crate) cwd: Option<String>,
    /// The names of the agent variables the caller saw (values never
    /// reach detection).
    pub(crate) env_names: Vec<String>,
    /// Its fail mode and deadline.
    pub(crate) terms: CallTerms,
    /// The latest the shim would wait for a held call (Unix ms,
    /// `HOOKGATE_HOLD_UNTIL_UNIX_MS`), when it takes holds.
    pub(crate) hold_until_ms: Option<u64>,
    /// What the agent wrote.
    pub(crate) payload: Vec<u8>,
}

impl HookCall {
    /// An HTTP hook's call: the route's agent, event and fail mode; no
    /// deadline (the agent's HTTP timeout is not announced).
    pub(crate) fn http(
        agent: Agent,
        event: Option<String>,
        fail_mode: FailMode,
        payload: Vec<u8>,
    ) -> HookCall {
        HookCall {
            hint: Some(agent),
            event,
            cwd: None,
            env_names: Vec::new(),
            terms: CallTerms::without_deadline(fail_mode),
            hold_until_ms: None,
            payload,
        }
    }
}

impl From<Request> for HookCall {
    /// A shim's call: the agent hint and event from its arguments (shim
    /// flags may precede them), the terms from its forwarded variables.
    fn from(request: Request) -> HookCall {
        let terms = CallTerms::of(&request);
        let hold_until_ms = request
            .env
            .iter()
            .find(|(name, _)| name == hookgate_wire::HOLD_UNTIL_VAR)
            .and_then(|(_, ms)| ms.parse::<u64>().ok());
        let (hint, event) = adapters::args_hint(&request.args);
        let event = event.map(str::to_owned);
        let cwd = std::path::Path::new(&request.cwd)
            .is_absolute()
            .then_some(request.cwd);
        HookCall {
            hint,
            event,
            cwd,
            env_names: request.env.into_iter().map(|(name, _)| name).collect(),
            terms,
            hold_until_ms,
            payload: request.stdin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shim_request_is_read_once() {
        let call = HookCall::from(Request {
            args: vec![
                "--fail-closed".into(),
                "copilot".into(),
                "preToolUse".into(),
            ],
            cwd: "relative/dir".into(),
            env: vec![
                ("COPILOT_AGENT".into(), String::new()),
                ("HOOKGATE_FAIL".into(), "closed".into()),
            ],
            stdin: b"{}".to_vec(),
        });
        assert_eq!(call.hint, Some(Agent::Copilot));
        assert_eq!(call.event.as_deref(), Some("preToolUse"));
        assert_eq!(call.cwd, None, "a relative directory is not the event's");
        assert_eq!(call.env_names, ["COPILOT_AGENT", "HOOKGATE_FAIL"]);
        assert_eq!(call.terms.fail_mode, FailMode::Closed);
        assert_eq!(call.payload, b"{}");
    }

    #[test]
    fn an_http_call_says_its_fail_mode() {
        let call = HookCall::http(Agent::ClaudeCode, None, FailMode::Closed, b"{}".to_vec());
        assert_eq!(call.terms.fail_mode, FailMode::Closed);
        assert!(call.terms.deadline.is_none() && call.env_names.is_empty());
    }
}
