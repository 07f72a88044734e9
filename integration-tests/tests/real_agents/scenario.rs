//! The skeleton every real-agent scenario shares: a marker file the
//! scripted shell command touches, a gateway with a deciding `policy`
//! subscriber (and maybe an observing `audit` one), one shell turn then a
//! text turn from the model — and the same scenario with no gateway at all.
//!
//! The flows built on it that every agent passes the same way are in
//! [`crate::flows`]; what differs per agent (how a block looks, where tool
//! results land in the model's requests) stays in the agent's own test
//! file.

use std::path::{Path, PathBuf};

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::{AgentOutcome, AgentRun, pre_tool_event};
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{
    SubscriberEntry, TestGateway, TestSubscriber, config_toml, decisions,
};
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
        Gated::deciding_with(decide, "").await
    }

    /// [`Gated::deciding`] with `extra_toml` appended to the config (more
    /// subscribers, built-ins).
    pub(crate) async fn deciding_with(
        decide: impl Fn(&HookEvent) -> Decision + Send + Sync + 'static,
        extra_toml: &str,
    ) -> Gated {
        let policy = TestSubscriber::respond(decide).await;
        let mut toml = config_toml(&[SubscriberEntry::decide("policy", &policy.endpoint())]);
        toml.push_str(extra_toml);
        let gateway = TestGateway::start(&toml).await;
        Gated { gateway, policy }
    }

    /// The gateway's socket, for a run scripted otherwise than
    /// [`Gated::shell_then_text`].
    pub(crate) fn socket(&self) -> &Path {
        self.gateway.socket()
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
    /// labelled with the name of the agent speaking `dialect`, there was
    /// at least one, and nothing failed detection or parsing.
    pub(crate) async fn assert_status_names(&self, dialect: Dialect) {
        let agent = dialect.agent().as_str();
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
    pub(crate) async fn run(agent: Dialect, marker: &str, fail: ShimFail) -> GatewayDown {
        let run = run(agent);
        let marker = Marker::in_work(&run, marker);
        let command = marker.touch();
        let socket = dead_socket(&run);
        let mut run = run.socket(&socket);
        if let ShimFail::Closed = fail {
            run = run.env("HOOKGATE_FAIL", "closed");
        }
        let outcome = run
            .hooks(&[pre_tool_event(agent)])
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
