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

use crate::support::{dead_socket, eventually, fallback_reasons, gateway, run, touch};

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

/// A shell-then-text run whose `PreToolUse` hook points at a socket where
/// no gateway listens.
pub(crate) struct GatewayDown {
    /// Created by the command if it ran.
    pub(crate) marker: Marker,
    socket: PathBuf,
    pub(crate) outcome: AgentOutcome,
}

impl GatewayDown {
    /// Runs `agent` with its `PreToolUse` hook on a dead socket, the shim
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
            .hooks(&["PreToolUse"])
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
