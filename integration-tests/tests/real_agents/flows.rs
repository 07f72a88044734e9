//! The real-agent flows every agent with a shell tool and a blocking
//! pre-tool hook passes the same way ([`Conformance`]): each agent's test
//! file is its parameters plus the checks only that agent needs, made on
//! what a flow returns ([`Ran`], [`GatewayDown`]).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::TestGateway;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::Script;
use hookgate_proto::v1::{Decision, EventKind, HookEvent};

use crate::scenario::{Gated, GatewayDown, Marker, ShimFail, only_on};
use crate::support::{of_kind, run};

/// Where an agent shows the model a tool's result in a request: the texts
/// of its tool results, in order.
pub(crate) type ToolTexts =
    fn(&hookgate_integration_tests::fake_model::RecordedRequest) -> Vec<String>;

/// The texts of Anthropic `tool_result` blocks (Claude Code, Droid).
pub(crate) fn anthropic_tool_texts(
    request: &hookgate_integration_tests::fake_model::RecordedRequest,
) -> Vec<String> {
    let results = request.anthropic_tool_results();
    results.into_iter().map(|result| result.content).collect()
}

/// The tool results of the final request, after checking there were
/// exactly two model calls: the tool turn and the final one.
pub(crate) fn final_turn_tool_texts(outcome: &AgentOutcome, texts: ToolTexts) -> Vec<String> {
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    texts(calls[1])
}

/// What a flow leaves for the agent's own further checks: the run, the
/// events the deciding subscriber received and the shell command the
/// model asked for.
pub(crate) struct Ran {
    pub(crate) outcome: AgentOutcome,
    pub(crate) events: Vec<HookEvent>,
    pub(crate) command: String,
}

/// Where an agent delivers a subscriber's context: the events whose
/// context the first model request carries, and those whose context only
/// the request after the tool carries. A prompt event without a prompt
/// (like Qwen's repeat before the tool-result turn) gets none.
pub(crate) struct ContextPoints {
    pub(crate) first_request: &'static [EventKind],
    pub(crate) after_tool: &'static [EventKind],
}

/// Context from SessionStart and the prompt event in the first request,
/// from PostToolUse in the one after the tool.
pub(crate) const EVERY_CONTEXT: ContextPoints = ContextPoints {
    first_request: &[EventKind::SessionStart, EventKind::PromptSubmit],
    after_tool: &[EventKind::PostToolUse],
};

/// The context a flow's subscriber gives on `kind`: `<tag>-CONTEXT-<where>`.
fn context_marker(tag: &str, kind: EventKind) -> String {
    let point = match kind {
        EventKind::SessionStart => "SESSION-START",
        EventKind::PromptSubmit => "PROMPT",
        EventKind::PreToolUse => "PRE-TOOL",
        EventKind::PostToolUse => "POST-TOOL",
        other => other.as_str_name(),
    };
    format!("{tag}-CONTEXT-{point}")
}

/// The scenarios every agent with a shell tool and a blocking pre-tool
/// hook passes the same way: `agent` is the dialect of the CLI under test
/// (`gateway status` must report every event under its agent's name),
/// `tool_texts` where it shows the model a tool's result.
pub(crate) struct Conformance {
    pub(crate) agent: Dialect,
    pub(crate) tool_texts: ToolTexts,
}

impl Conformance {
    /// A subscriber's deny: the command does not run, the model reads the
    /// reason as the tool's result, status names the agent.
    pub(crate) async fn deny_blocks_and_the_model_reads_why(&self, reason: &str) -> Ran {
        self.blocks_and_the_model_reads_why(decisions::deny(reason), reason)
            .await
    }

    /// A subscriber's ask, in a headless run nobody can answer: rendered
    /// as a deny (an ask Gemini CLI is sent hangs the run; one Codex
    /// rejects voids the reply and the tool runs), so it blocks like one.
    pub(crate) async fn ask_blocks_headless(&self, reason: &str) -> Ran {
        let ask = Decision {
            permission: hookgate_proto::v1::Permission::Ask as i32,
            reason: reason.to_owned(),
            ..decisions::neutral()
        };
        self.blocks_and_the_model_reads_why(ask, reason).await
    }

    async fn blocks_and_the_model_reads_why(&self, decision: Decision, reason: &str) -> Ran {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "denied-marker");
        let command = marker.touch();
        let gated = Gated::deciding(only_on(EventKind::PreToolUse, decision)).await;

        let outcome = gated.shell_then_text(run, &command, "Understood.").await;

        marker.assert_not_ran(&outcome, "the blocked command ran");
        let events = gated.policy.events();
        crate::support::the_shell_call(&events, &command);
        let results = final_turn_tool_texts(&outcome, self.tool_texts);
        assert!(
            results.len() == 1 && results[0].contains(reason),
            "the model must read the reason as the tool's result: {results:?}\n{outcome}"
        );
        gated.assert_status_names(self.agent).await;
        Ran {
            outcome,
            events,
            command,
        }
    }

    /// A subscriber's allow (an observer's deny must not count): the
    /// command runs and prints `output`, the model reads it as the tool's
    /// result, the observer sees it after the tool, status names the agent.
    pub(crate) async fn allow_runs_and_the_model_reads_the_output(&self, output: &str) -> Ran {
        let ran = self.allow_runs_and_is_observed(Some(output), output).await;
        let results = final_turn_tool_texts(&ran.outcome, self.tool_texts);
        assert!(
            results.len() == 1 && results[0].contains(output),
            "{results:?}\n{}",
            ran.outcome
        );
        ran
    }

    /// A subscriber's allow (an observer's deny must not count): the
    /// command runs (and echoes `echo`), the observer sees `observed` in
    /// its output after the tool, status names the agent. What the model
    /// reads of the result is the caller's to check.
    pub(crate) async fn allow_runs_and_is_observed(
        &self,
        echo: Option<&str>,
        observed_output: &str,
    ) -> Ran {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "allowed-marker");
        let command = match echo {
            Some(output) => format!("{} && echo {output}", marker.touch()),
            None => marker.touch(),
        };
        let observed = Gated::deciding_and_observed(
            only_on(EventKind::PreToolUse, decisions::allow()),
            decisions::deny("observers cannot decide"),
        )
        .await;

        let outcome = observed.gated.shell_then_text(run, &command, "Done.").await;

        marker.assert_ran(&outcome, "the allowed command did not run");
        let events = observed.gated.policy.events();
        crate::support::the_shell_call(&events, &command);
        observed.assert_saw_output(&command, observed_output).await;
        observed.gated.assert_status_names(self.agent).await;
        Ran {
            outcome,
            events,
            command,
        }
    }

    /// Context from SessionStart and the prompt event reaches the model in
    /// the first request, context after the tool in the request after it
    /// (and not before); the markers are `<tag>-CONTEXT-…`. For agents that
    /// deliver all three.
    pub(crate) async fn context_reaches_the_model(&self, tag: &str) -> Ran {
        self.context_reaches_the_model_at(tag, &EVERY_CONTEXT).await
    }

    /// Context from each event of `points` reaches the model in the
    /// request `points` says (and not before); each of those events fired
    /// once (a prompt event: at least once with the prompt).
    pub(crate) async fn context_reaches_the_model_at(
        &self,
        tag: &str,
        points: &ContextPoints,
    ) -> Ran {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "context-marker");
        let command = marker.touch();
        let given: Vec<(EventKind, String)> = (points.first_request.iter())
            .chain(points.after_tool)
            .map(|&kind| (kind, context_marker(tag, kind)))
            .collect();
        let contexts = given.clone();
        let gated = Gated::deciding(move |event| {
            let prompted = event.kind() != EventKind::PromptSubmit || event.prompt.is_some();
            match contexts.iter().find(|(kind, _)| *kind == event.kind()) {
                Some((_, context)) if prompted => decisions::context(context),
                _ => decisions::neutral(),
            }
        })
        .await;

        let outcome = gated.shell_then_text(run, &command, "Done.").await;

        marker.assert_ran(&outcome, "the command did not run");
        let events = gated.policy.events();
        for (kind, _) in &given {
            let fired = of_kind(&events, *kind);
            if *kind == EventKind::PromptSubmit {
                assert!(
                    fired.iter().any(|e| e.prompt.is_some()),
                    "the user's prompt reached the subscriber: {fired:#?}"
                );
            } else {
                assert_eq!(fired.len(), 1, "{kind:?} in {events:#?}");
            }
        }
        let calls = outcome.model_calls();
        assert_eq!(calls.len(), 2, "{outcome}");
        for kind in points.first_request {
            let context = context_marker(tag, *kind);
            assert!(
                calls[0].mentions(&context),
                "the first request lacks {context}\n{outcome}"
            );
        }
        for kind in points.after_tool {
            let context = context_marker(tag, *kind);
            assert!(
                !calls[0].mentions(&context) && calls[1].mentions(&context),
                "{context} belongs to the request after the tool\n{outcome}"
            );
        }
        gated.assert_status_names(self.agent).await;
        Ran {
            outcome,
            events,
            command,
        }
    }

    /// A subscriber's rewrite of the shell call's `command` (the rest of
    /// the agent's own input kept): the rewritten command runs, the
    /// original does not, status names the agent.
    pub(crate) async fn rewrite_runs_the_new_command(&self) -> Ran {
        let run = run(self.agent);
        let original = Marker::in_work(&run, "original-marker");
        let rewritten = Marker::in_work(&run, "rewritten-marker");
        let new_command = rewritten.touch();
        let gated = Gated::deciding(move |event| {
            let Some(tool) = event
                .tool
                .as_ref()
                .filter(|_| event.kind() == EventKind::PreToolUse)
            else {
                return decisions::neutral();
            };
            let mut input: serde_json::Value =
                serde_json::from_str(&tool.input_json).unwrap_or_default();
            match input.as_object_mut() {
                Some(fields) => {
                    fields.insert("command".to_owned(), new_command.clone().into());
                    decisions::rewrite(&input)
                }
                None => decisions::neutral(),
            }
        })
        .await;

        let command = original.touch();
        let outcome = gated.shell_then_text(run, &command, "Done.").await;

        rewritten.assert_ran(&outcome, "the rewritten command did not run");
        original.assert_not_ran(&outcome, "the original command ran");
        gated.assert_status_names(self.agent).await;
        Ran {
            outcome,
            events: gated.policy.events(),
            command,
        }
    }

    /// A subscriber's follow-up at the agent's first stop: the agent goes
    /// on with one more model turn, which reads the message; the second
    /// stop says the agent is continuing and gets no follow-up.
    pub(crate) async fn followup_continues_the_loop(&self, message: &str) {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "followup-marker");
        let text = message.to_owned();
        let gated = Gated::deciding(move |event| {
            let continuing = event.stop.as_ref().is_some_and(|stop| stop.continuing);
            if event.kind() == EventKind::Stop && !continuing {
                hookgate_proto::v1::Decision {
                    followup_message: text.clone(),
                    ..decisions::neutral()
                }
            } else {
                decisions::neutral()
            }
        })
        .await;

        let outcome = gated.shell_then_text(run, &marker.touch(), "Done.").await;

        marker.assert_ran(&outcome, "the command did not run");
        let calls = outcome.model_calls();
        assert_eq!(
            calls.len(),
            3,
            "the tool turn, the final turn, the follow-up\n{outcome}"
        );
        assert!(
            !calls[1].mentions(message) && calls[2].mentions(message),
            "the follow-up belongs to the third request\n{outcome}"
        );
        let events = gated.policy.events();
        let stops = of_kind(&events, EventKind::Stop);
        assert_eq!(stops.len(), 2, "{stops:#?}");
        assert!(
            stops[1].stop.as_ref().is_some_and(|stop| stop.continuing),
            "{stops:#?}"
        );
        gated.assert_status_names(self.agent).await;
    }

    /// Gateway down, default fail mode: the command runs.
    pub(crate) async fn gateway_down_fails_open(&self) -> GatewayDown {
        let down = GatewayDown::run(self.agent, "fail-open-marker", ShimFail::Default).await;
        down.marker
            .assert_ran(&down.outcome, "fail-open must let the command run");
        down.assert_fell_back_once();
        down
    }

    /// Gateway down, `HOOKGATE_FAIL=closed`: the command does not run and
    /// the model is told hookgate blocked it.
    pub(crate) async fn gateway_down_fails_closed(&self) -> GatewayDown {
        let down = GatewayDown::run(self.agent, "fail-closed-marker", ShimFail::Closed).await;
        down.marker
            .assert_not_ran(&down.outcome, "fail-closed must block the command");
        down.assert_fell_back_once();
        let results = final_turn_tool_texts(&down.outcome, self.tool_texts);
        assert!(
            results.len() == 1 && results[0].contains("hookgate"),
            "the model is told hookgate blocked the tool: {results:?}\n{}",
            down.outcome
        );
        down
    }

    /// The built-in guard (no subscriber) stops a force push: the command
    /// does not run, the model reads the guard's reason, and `gateway
    /// status` counts every event under the agent's name with no
    /// detection error.
    pub(crate) async fn guard_stops_a_force_push(&self) {
        let gateway = TestGateway::start_embedded().await;
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "pushed-marker");
        let command = format!("git push --force origin main; {}", marker.touch());
        let outcome = run
            .socket(gateway.socket())
            .script(Script::shell_then_text(&command, "Understood."))
            .run()
            .await;
        marker.assert_not_ran(&outcome, "the force push ran");
        let texts = final_turn_tool_texts(&outcome, self.tool_texts);
        assert!(
            texts.len() == 1 && texts[0].contains("force push"),
            "the model must read the guard's reason: {texts:?}\n{outcome}"
        );
        let status = gateway.status_json().await;
        let events = status["events"].as_array().cloned().unwrap_or_default();
        assert!(!events.is_empty(), "no event counted: {status:#}");
        for event in &events {
            assert_eq!(event["agent"], self.agent.agent().as_str(), "{status:#}");
        }
        assert_eq!(status["detect_errors"], 0, "{status:#}");
    }
}
