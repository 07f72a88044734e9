//! The skeleton every real-agent scenario shares: a marker file the
//! scripted shell command touches, a gateway with a deciding `policy`
//! subscriber (and maybe an observing `audit` one), one shell turn then a
//! text turn from the model — and the same scenario with no gateway at all.
//!
//! What differs per agent (how a block looks, where tool results land in
//! the model's requests) stays in the agent's own test file.

use std::path::PathBuf;

use hookgate_integration_tests::agents::{Agent, AgentOutcome, AgentRun};
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{SubscriberEntry, TestGateway, TestSubscriber, decisions};
use hookgate_proto::v1::{Decision, EventKind, HookEvent};

use crate::support::{dead_socket, eventually, fallback_reasons, gateway, of_kind, run, touch};

/// A decider answering `decision` to events of `kind` and staying neutral
/// on every other event.
pub(crate) fn only_on(
    kind: EventKind,
    decision: Decision,
) -> impl Fn(&HookEvent) -> Decision + Send + Sync + 'static {
    move |event| {
        if event.kind() == kind {
            decision.clone()
        } else {
            decisions::neutral()
        }
    }
}

/// A file in the run's work directory that only the scripted shell command
/// creates: whether it exists says whether the command really ran.
pub(crate) struct Marker(PathBuf);

impl Marker {
    /// `name` in `run`'s work directory (not created).
    pub(crate) fn in_work(run: &AgentRun, name: &str) -> Marker {
        Marker(run.work().join(name))
    }

    /// The shell command that creates the marker.
    pub(crate) fn touch(&self) -> String {
        touch(&self.0)
    }

    /// The command ran: the marker exists; `why` otherwise.
    pub(crate) fn assert_ran(&self, outcome: &AgentOutcome, why: &str) {
        assert!(self.0.exists(), "{why}\n{outcome}");
    }

    /// The command did not run: no marker; `why` otherwise.
    pub(crate) fn assert_not_ran(&self, outcome: &AgentOutcome, why: &str) {
        assert!(!self.0.exists(), "{why}\n{outcome}");
    }
}

/// A running gateway whose config lists one deciding subscriber, `policy`.
/// Fields drop in order: the gateway stops before its subscribers.
pub(crate) struct Gated {
    gateway: TestGateway,
    /// The deciding subscriber (its received events are asserted on).
    pub(crate) policy: TestSubscriber,
}

impl Gated {
    /// A gateway with `decide` as its `policy` subscriber.
    pub(crate) async fn deciding(
        decide: impl Fn(&HookEvent) -> Decision + Send + Sync + 'static,
    ) -> Gated {
        let policy = TestSubscriber::respond(decide).await;
        let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;
        Gated { gateway, policy }
    }

    /// A gateway with `decide` as its `policy` subscriber and an `audit`
    /// observer answering `observer_says` (which must not count).
    pub(crate) async fn deciding_and_observed(
        decide: impl Fn(&HookEvent) -> Decision + Send + Sync + 'static,
        observer_says: Decision,
    ) -> Observed {
        let policy = TestSubscriber::respond(decide).await;
        let observer = TestSubscriber::fixed(observer_says).await;
        let gateway = gateway(&[
            SubscriberEntry::decide("policy", &policy.endpoint()),
            SubscriberEntry::observe("audit", &observer.endpoint()),
        ])
        .await;
        Observed {
            gated: Gated { gateway, policy },
            observer,
        }
    }

    /// Checks `gateway status --json` after a run: every event counted is
    /// labelled `agent`, there was at least one, and nothing failed
    /// detection or parsing.
    pub(crate) async fn assert_status_names(&self, agent: &str) {
        let doc = self.gateway.status_json().await;
        let events = doc["events"].as_array().cloned().unwrap_or_default();
        assert!(!events.is_empty(), "no event counted: {doc:#}");
        for event in &events {
            assert_eq!(
                event["agent"], agent,
                "an event under another name: {doc:#}"
            );
        }
        assert_eq!(doc["detect_errors"], 0, "{doc:#}");
        assert_eq!(doc["parse_errors"], 0, "{doc:#}");
    }

    /// Runs `run` through this gateway with a model that asks once for
    /// `command` in the shell, then answers `text`.
    pub(crate) async fn shell_then_text(
        &self,
        run: AgentRun,
        command: &str,
        text: &str,
    ) -> AgentOutcome {
        run.socket(self.gateway.socket())
            .script(Script::shell_then_text(command, text))
            .run()
            .await
    }
}

/// [`Gated`] plus an observing `audit` subscriber.
pub(crate) struct Observed {
    pub(crate) gated: Gated,
    pub(crate) observer: TestSubscriber,
}

impl Observed {
    /// Waits for the observer to receive the post-tool-use event of
    /// `command` carrying `output`, and checks its command.
    pub(crate) async fn assert_saw_output(&self, command: &str, output: &str) {
        let post = eventually(&self.observer, "post-tool-use with the output", |e| {
            e.kind() == EventKind::PostToolUse
                && e.tool
                    .as_ref()
                    .and_then(|t| t.output.as_deref())
                    .is_some_and(|o| o.contains(output))
        })
        .await;
        let tool = post.tool.expect("post-tool-use has a tool");
        assert_eq!(tool.command.as_deref(), Some(command), "{tool:?}");
    }
}

/// What the shim is told to do when it cannot reach the gateway.
#[derive(Clone, Copy)]
pub(crate) enum ShimFail {
    /// No `HOOKGATE_FAIL`: the default, fail-open.
    Default,
    /// `HOOKGATE_FAIL=closed`.
    Closed,
}

/// A shell-then-text run whose pre-tool hook points at a socket where
/// no gateway listens.
pub(crate) struct GatewayDown {
    /// Created by the command if it ran.
    pub(crate) marker: Marker,
    socket: PathBuf,
    pub(crate) outcome: AgentOutcome,
}

impl GatewayDown {
    /// Runs `agent` with its pre-tool hook on a dead socket, the shim
    /// configured by `fail`, the command touching `marker`.
    pub(crate) async fn run(agent: Agent, marker: &str, fail: ShimFail) -> GatewayDown {
        let run = run(agent);
        let marker = Marker::in_work(&run, marker);
        let command = marker.touch();
        let socket = dead_socket(&run);
        let mut run = run.socket(&socket);
        if let ShimFail::Closed = fail {
            run = run.env("HOOKGATE_FAIL", "closed");
        }
        let outcome = run
            .hooks(&[agent.pre_tool_event()])
            .script(Script::shell_then_text(&command, "Done."))
            .run()
            .await;
        GatewayDown {
            marker,
            socket,
            outcome,
        }
    }

    /// The shim ran once, found no gateway, and recorded exactly that.
    pub(crate) fn assert_fell_back_once(&self) {
        let outcome = &self.outcome;
        assert_eq!(
            fallback_reasons(&self.socket),
            ["unreachable"],
            "the shim ran once and found no gateway\n{outcome}"
        );
    }
}

/// Where an agent shows the model a tool's result in a request: the texts
/// of its tool results, in order.
pub(crate) type ToolTexts =
    fn(&hookgate_integration_tests::fake_model::RecordedRequest) -> Vec<String>;

/// The tool results of the final request, after checking there were
/// exactly two model calls: the tool turn and the final one.
pub(crate) fn final_turn_tool_texts(outcome: &AgentOutcome, texts: ToolTexts) -> Vec<String> {
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    texts(calls[1])
}

/// The scenarios every agent with a shell tool and a blocking pre-tool
/// hook passes the same way; `agent_name` is the name `gateway status`
/// must report every event under.
pub(crate) struct Conformance {
    pub(crate) agent: Agent,
    pub(crate) agent_name: &'static str,
    pub(crate) tool_texts: ToolTexts,
}

impl Conformance {
    /// A subscriber's deny: the command does not run, the model reads the
    /// reason as the tool's result, status names the agent.
    pub(crate) async fn deny_blocks_and_the_model_reads_why(&self, reason: &str) {
        self.blocks_and_the_model_reads_why(decisions::deny(reason), reason)
            .await;
    }

    /// A subscriber's ask, in a headless run nobody can answer: rendered
    /// as a deny (an ask Gemini CLI is sent hangs the run; one Codex
    /// rejects voids the reply and the tool runs), so it blocks like one.
    pub(crate) async fn ask_blocks_headless(&self, reason: &str) {
        let ask = Decision {
            permission: hookgate_proto::v1::Permission::Ask as i32,
            reason: reason.to_owned(),
            ..decisions::neutral()
        };
        self.blocks_and_the_model_reads_why(ask, reason).await;
    }

    async fn blocks_and_the_model_reads_why(&self, decision: Decision, reason: &str) {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "denied-marker");
        let command = marker.touch();
        let gated = Gated::deciding(only_on(EventKind::PreToolUse, decision)).await;

        let outcome = gated.shell_then_text(run, &command, "Understood.").await;

        marker.assert_not_ran(&outcome, "the blocked command ran");
        crate::support::the_shell_call(&gated.policy.events(), &command);
        let results = final_turn_tool_texts(&outcome, self.tool_texts);
        assert!(
            results.len() == 1 && results[0].contains(reason),
            "the model must read the reason as the tool's result: {results:?}\n{outcome}"
        );
        gated.assert_status_names(self.agent_name).await;
    }

    /// A subscriber's allow (an observer's deny must not count): the
    /// command runs and prints `output`, the model reads it as the tool's
    /// result, the observer sees it after the tool, status names the agent.
    pub(crate) async fn allow_runs_and_the_model_reads_the_output(&self, output: &str) {
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "allowed-marker");
        let command = format!("{} && echo {output}", marker.touch());
        let observed = Gated::deciding_and_observed(
            only_on(EventKind::PreToolUse, decisions::allow()),
            decisions::deny("observers cannot decide"),
        )
        .await;

        let outcome = observed.gated.shell_then_text(run, &command, "Done.").await;

        marker.assert_ran(&outcome, "the allowed command did not run");
        crate::support::the_shell_call(&observed.gated.policy.events(), &command);
        let results = final_turn_tool_texts(&outcome, self.tool_texts);
        assert!(
            results.len() == 1 && results[0].contains(output),
            "{results:?}\n{outcome}"
        );
        observed.assert_saw_output(&command, output).await;
        observed.gated.assert_status_names(self.agent_name).await;
    }

    /// Context from SessionStart and the prompt event reaches the model in
    /// the first request, context after the tool in the request after it
    /// (and not before); the markers are `<tag>-CONTEXT-…`. For agents that
    /// deliver all three (a prompt event without a prompt, like Qwen's
    /// repeat before the tool-result turn, gets none).
    pub(crate) async fn context_reaches_the_model(&self, tag: &str) {
        let at_start = format!("{tag}-CONTEXT-SESSION-START");
        let at_prompt = format!("{tag}-CONTEXT-PROMPT");
        let after_tool = format!("{tag}-CONTEXT-POST-TOOL");
        let run = run(self.agent);
        let marker = Marker::in_work(&run, "context-marker");
        let command = marker.touch();
        let (start, prompt, post) = (at_start.clone(), at_prompt.clone(), after_tool.clone());
        let gated = Gated::deciding(move |event| match event.kind() {
            EventKind::SessionStart => decisions::context(&start),
            EventKind::PromptSubmit if event.prompt.is_some() => decisions::context(&prompt),
            EventKind::PostToolUse => decisions::context(&post),
            _ => decisions::neutral(),
        })
        .await;

        let outcome = gated.shell_then_text(run, &command, "Done.").await;

        marker.assert_ran(&outcome, "the command did not run");
        let events = gated.policy.events();
        for kind in [EventKind::SessionStart, EventKind::PostToolUse] {
            assert_eq!(of_kind(&events, kind).len(), 1, "{kind:?} in {events:#?}");
        }
        let prompts = of_kind(&events, EventKind::PromptSubmit);
        assert!(
            prompts.iter().any(|e| e.prompt.is_some()),
            "the user's prompt reached the subscriber: {prompts:#?}"
        );
        let calls = outcome.model_calls();
        assert_eq!(calls.len(), 2, "{outcome}");
        for context in [&at_start, &at_prompt] {
            assert!(
                calls[0].mentions(context),
                "the first request lacks {context}\n{outcome}"
            );
        }
        assert!(
            !calls[0].mentions(&after_tool) && calls[1].mentions(&after_tool),
            "the post-tool context belongs to the request after the tool\n{outcome}"
        );
        gated.assert_status_names(self.agent_name).await;
    }

    /// A subscriber's rewrite of the shell call's `command` (the rest of
    /// the agent's own input kept): the rewritten command runs, the
    /// original does not, status names the agent.
    pub(crate) async fn rewrite_runs_the_new_command(&self) {
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

        let outcome = gated.shell_then_text(run, &original.touch(), "Done.").await;

        rewritten.assert_ran(&outcome, "the rewritten command did not run");
        original.assert_not_ran(&outcome, "the original command ran");
        gated.assert_status_names(self.agent_name).await;
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
        gated.assert_status_names(self.agent_name).await;
    }

    /// Gateway down, default fail mode: the command runs.
    pub(crate) async fn gateway_down_fails_open(&self) {
        let down = GatewayDown::run(self.agent, "fail-open-marker", ShimFail::Default).await;
        down.marker
            .assert_ran(&down.outcome, "fail-open must let the command run");
        down.assert_fell_back_once();
    }

    /// Gateway down, `HOOKGATE_FAIL=closed`: the command does not run and
    /// the model is told hookgate blocked it.
    pub(crate) async fn gateway_down_fails_closed(&self) {
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
    }
}
