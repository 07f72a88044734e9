//! One scenario run (a real agent, a real gateway, a test subscriber that
//! answers one part on one event) and the markdown rows it becomes.

use std::fmt::Write as _;

use hookgate_adapters::{Capabilities, Detected, Dialect};
use hookgate_integration_tests::agents::AgentRun;
use hookgate_integration_tests::fake_model::{Script, Step};
use hookgate_integration_tests::{
    SubscriberEntry, TestGateway, TestSubscriber, config_toml, decisions,
};
use hookgate_proto::v1::Decision;

use super::meaning::{Baseline, Expect, Expressed, Observed, Part, Phase, expect, expressed};
use crate::support::{dead_socket, touch};

/// What the model is scripted to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setup {
    /// One shell call that creates the action marker, then text.
    Shell,
    /// The same, but the command fails after creating the marker.
    FailingShell,
    /// A Claude Code slash command `/mk` whose inline `` !`cmd` `` creates
    /// the marker; the model only answers text.
    Skill,
    /// [`Setup::Shell`] with Claude Code's Bash left to permission prompts:
    /// the call asks (PermissionRequest) and, unanswered, is refused.
    AskedShell,
}

/// One row of an agent's table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scenario {
    /// The native event as the subscriber sees it (`native_event`).
    pub(crate) event: &'static str,
    /// The hook's name in the agent's config (for the gateway-down runs,
    /// which hook only this one).
    pub(crate) hook: &'static str,
    pub(crate) phase: Phase,
    pub(crate) part: Part,
    pub(crate) setup: Setup,
}

/// A documented limit: this row may fail, for this reason.
pub(crate) type Limit = (&'static str, Part, &'static str);

/// An agent version under test: its table and how to run it.
pub(crate) struct AgentUnderTest {
    /// The section title in docs/conformance.md (`Claude Code 2.1.197`).
    pub(crate) label: String,
    /// The dialect the CLI speaks: which CLI runs, which adapter reads it.
    pub(crate) dialect: Dialect,
    /// Its sample payloads: `adapters/test_data/<fixtures>/<event>.json`.
    pub(crate) fixtures: &'static str,
    pub(crate) scenarios: Vec<Scenario>,
    /// A fresh run of this version with every event it fires hooked, when
    /// that is not a plain run of the dialect's CLI.
    pub(crate) new_run: Option<Box<dyn Fn() -> AgentRun + Send + Sync>>,
    /// A tool input, in the agent's shape, that runs `command`.
    pub(crate) rewrite_input: fn(&str) -> serde_json::Value,
    pub(crate) limits: Vec<Limit>,
}

impl AgentUnderTest {
    /// A fresh run of this version.
    fn new_run(&self) -> AgentRun {
        match &self.new_run {
            Some(new_run) => new_run(),
            None => crate::support::run(self.dialect),
        }
    }

    /// The adapter's capabilities for `event`, parsed as this dialect
    /// from its sample payload `adapters/test_data/<fixtures>/<event>.json`
    /// (with `event` as the shim's argument would name it: Copilot's
    /// camelCase payloads do not).
    pub(crate) fn capabilities(&self, event: &str) -> Capabilities {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
            "../adapters/test_data/{}/{event}.json",
            self.fixtures
        ));
        let payload =
            std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let detected = Detected {
            dialect: self.dialect,
            native_event: Some(event.to_owned()),
        };
        hookgate_adapters::parse_detected(&detected, &payload)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
            .capabilities
    }

    fn limit(&self, scenario: &Scenario) -> Option<&'static str> {
        self.limits
            .iter()
            .find(|(event, part, _)| *event == scenario.event && *part == scenario.part)
            .map(|(_, _, why)| *why)
    }

    /// The scenario for `event` × `part`, if the table has one.
    pub(crate) fn scenario(&self, event: &str, part: Part) -> Option<&Scenario> {
        self.scenarios
            .iter()
            .find(|s| s.event == event && s.part == part)
    }
}

/// What one scenario did.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) scenario: Scenario,
    pub(crate) expressed: Expressed,
    pub(crate) expect: Expect,
    pub(crate) observed: Observed,
    /// The subscriber received the event (always true for gateway-down
    /// runs, where no subscriber is asked).
    pub(crate) fired: bool,
    /// The capabilities the real event arrived with, when they differ from
    /// the fixture's (which the Expressed column is computed from).
    pub(crate) drift: Option<Capabilities>,
}

impl Row {
    fn passes(&self) -> bool {
        self.fired && self.expect.holds(&self.observed)
    }

    /// The Result column.
    fn result(&self, agent: &AgentUnderTest) -> String {
        match (self.passes(), agent.limit(&self.scenario)) {
            (true, _) => "pass".to_owned(),
            (false, Some(why)) => format!("limit: {why}"),
            (false, None) if !self.fired => "FAIL: the event never fired".to_owned(),
            (false, None) => format!("FAIL: expected {}", describe_expect(&self.expect)),
        }
    }

    /// Why this row fails the suite, if it does.
    pub(crate) fn problem(&self, agent: &AgentUnderTest) -> Option<String> {
        let name = format!(
            "{} {} {}",
            agent.label,
            self.scenario.event,
            self.scenario.part.as_str()
        );
        if let Some(real) = self.drift {
            return Some(format!(
                "{name}: the real payload parses with {real:?}, its fixture with other capabilities; update the fixture"
            ));
        }
        match (self.passes(), agent.limit(&self.scenario)) {
            (true, Some(_)) => Some(format!(
                "{name}: listed as a limit but passes; remove the limit"
            )),
            (false, None) => Some(format!("{name}: {}", self.result(agent))),
            _ => None,
        }
    }
}

/// The decision a subscriber answers for `part`, carrying `token`.
fn decision(part: Part, token: &str, rewrite: serde_json::Value) -> Decision {
    match part {
        Part::Deny => decisions::deny(token),
        Part::Ask => Decision {
            permission: hookgate_proto::v1::Permission::Ask as i32,
            ..decisions::deny(token)
        },
        Part::Allow => decisions::allow(),
        Part::Context => decisions::context(token),
        Part::Rewrite => decisions::rewrite(&rewrite),
        Part::Halt => decisions::halt(token),
        Part::Followup | Part::FollowupEveryStop => Decision {
            followup_message: token.to_owned(),
            ..Decision::default()
        },
        Part::FailOpen | Part::FailClosed => decisions::neutral(),
    }
}

/// Runs `scenario` on `agent` and judges it.
pub(crate) async fn run(agent: &AgentUnderTest, scenario: &Scenario) -> Row {
    let token = format!("HG-{}-{:?}", scenario.event, scenario.part).to_uppercase();
    let mut run = agent.new_run();
    let marker = run.work().join("action-marker");
    let rewritten = run.work().join("rewritten-marker");
    let shell = |ran| Baseline { ran, calls: 2 };
    let (script, neutral) = match scenario.setup {
        Setup::Shell => (
            Script::shell_then_text(&touch(&marker), "Done."),
            shell(true),
        ),
        Setup::AskedShell => {
            run = run.ask_permissions();
            (
                Script::shell_then_text(&touch(&marker), "Done."),
                shell(false),
            )
        }
        Setup::FailingShell => (
            Script::shell_then_text(&format!("{} && false", touch(&marker)), "Done."),
            shell(true),
        ),
        Setup::Skill => {
            let command = format!(
                "---\ndescription: make a marker\n---\nContext: !`{}`\n\nSay done.\n",
                touch(&marker)
            );
            run = run
                .work_file(".claude/commands/mk.md", &command)
                .prompt("/mk");
            let text = Step::Text {
                text: "Done.".to_owned(),
            };
            (
                Script {
                    turns: vec![text],
                    side_text: "ok".to_owned(),
                },
                Baseline {
                    ran: true,
                    calls: 1,
                },
            )
        }
    };
    let run = run.script(script);
    let caps = agent.capabilities(scenario.event);
    let how = expressed(scenario.phase, scenario.part, caps);
    let expect = expect(scenario.phase, scenario.part, how, neutral);

    let (outcome, fired, drift) = match scenario.part {
        Part::FailOpen | Part::FailClosed => {
            let socket = dead_socket(&run);
            let mut run = run.socket(&socket).hooks(&[scenario.hook]);
            if scenario.part == Part::FailClosed {
                run = run.env("HOOKGATE_FAIL", "closed");
            }
            (run.run().await, true, None)
        }
        part => {
            let answer = decision(part, &token, (agent.rewrite_input)(&touch(&rewritten)));
            let event = scenario.event;
            let every_stop = part == Part::FollowupEveryStop;
            let policy = TestSubscriber::respond(move |e| {
                // A follow-up answers the first Stop only (it would loop),
                // but in the row that checks the gateway's cap ends it.
                let continuing = e.stop.as_ref().is_some_and(|s| s.continuing);
                if e.native_event == event && (every_stop || !continuing) {
                    answer.clone()
                } else {
                    decisions::neutral()
                }
            })
            .await;
            let gateway = TestGateway::start(&config_toml(&[SubscriberEntry::decide(
                "policy",
                &policy.endpoint(),
            )]))
            .await;
            let outcome = run.socket(gateway.socket()).run().await;
            let received = policy
                .events()
                .into_iter()
                .find(|e| e.native_event == event);
            let fired = received.is_some();
            let drift = received
                .and_then(|e| e.capabilities)
                .map(|c| Capabilities {
                    deny: c.deny,
                    ask: c.ask,
                    context: c.context,
                    input_rewrite: c.input_rewrite,
                    halt: c.halt,
                    followup: c.followup,
                })
                .filter(|real| *real != caps);
            (outcome, fired, drift)
        }
    };
    let calls = outcome.model_calls();
    let observed = Observed {
        ran: marker.exists(),
        rewritten: rewritten.exists(),
        calls: calls.len(),
        told: calls.iter().any(|call| call.mentions(&token)),
    };
    if !expect.holds(&observed) {
        eprintln!(
            "conformance: {} {:?} {:?} observed {observed:?}\n{outcome}",
            agent.label, scenario.event, scenario.part
        );
    }
    Row {
        scenario: *scenario,
        expressed: how,
        expect,
        observed,
        fired,
        drift,
    }
}

fn describe_expect(expect: &Expect) -> String {
    let mut parts = Vec::new();
    if let Some(ran) = expect.ran {
        parts.push(format!("action {}", if ran { "done" } else { "not done" }));
    }
    if expect.rewritten == Some(true) {
        parts.push("rewritten action done".to_owned());
    }
    if let Some(calls) = expect.calls {
        parts.push(format!("{calls} model request(s)"));
    }
    if expect.told == Some(true) {
        parts.push("text read by the model".to_owned());
    }
    parts.join(", ")
}

/// The Observed column: the same facts for every row.
fn describe_observed(row: &Row) -> String {
    if !row.fired {
        return "event never fired".to_owned();
    }
    let seen = &row.observed;
    let mut text = format!(
        "action {}, {} model request(s)",
        if seen.ran { "done" } else { "not done" },
        seen.calls
    );
    if seen.rewritten {
        text.push_str(", rewritten action done");
    }
    text.push_str(if seen.told {
        ", text read by the model"
    } else {
        ", text not read"
    });
    text
}

/// The header docs/conformance.md starts with.
const HEADER: &str = "# Conformance: what each decision part does in the real agents

Written by the conformance suite (`integration-tests/tests/real_agents/conformance/`,
run by `cargo test -p hookgate-integration-tests --test real_agents conformance`):
every row is one run of the real CLI, headless and offline against the fake
model, with `gateway-shim` as its hook command, a real gateway and a test
subscriber that answers one part on one event (every other event neutral).
Do not edit by hand.

* **Expressed**: how hookgate renders the part for that event (`as feedback`:
  a deny after the fact, its reason as context; `as deny`: an ask nobody can
  answer; `no (loss)`: left out and counted), from the adapter's capabilities
  for the event's sample payload; the suite fails if the real payload parses
  with other capabilities.
* **Observed**: whether the scripted action happened (its marker file), the
  number of model requests, and whether a request carried the part's text.
  `follow-up on every stop` answers each stop with a follow-up, the ones
  it caused included: the gateway's cap (`[server] max_followups`, 3)
  must end the run after 3 of them, whatever the agent's own cap.
* **Result**: `pass` when the agent did what the part means (docs/agents.md,
  top) — or, for a loss, exactly what a neutral run does; `limit: …` for the
  agent's documented limits. A capability `render` advertises must pass
  here or be such a limit (checked by `conformance::doc_check`).

**Cursor** is the one supported agent with no rows: no Cursor CLI runs on
this machine, so its adapter follows Cursor's documentation (its section in
docs/agents.md) and is tested through the real shim and gateway only.
";

/// The whole document, from its agents' sections ([`section`]).
pub(crate) fn markdown(sections: &[String]) -> String {
    let mut out = HEADER.to_owned();
    for section in sections {
        out.push_str(section);
    }
    out
}

/// One agent's section of docs/conformance.md (from its blank line on).
pub(crate) fn section(agent: &AgentUnderTest, rows: &[Row]) -> String {
    let mut out = format!(
        "\n## {}\n\n| Event | Part | Expressed | Observed | Result |\n|---|---|---|---|---|\n",
        agent.label
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            row.scenario.event,
            row.scenario.part.as_str(),
            row.expressed.as_str(),
            describe_observed(row),
            row.result(agent)
        );
    }
    out
}

/// `label`'s section of `doc` as [`section`] wrote it, if it has one.
pub(crate) fn old_section<'d>(doc: &'d str, label: &str) -> Option<&'d str> {
    let start = doc.find(&format!("\n## {label}\n"))?;
    let rest = &doc[start + 1..];
    let end = rest.find("\n## ").map_or(doc.len(), |end| start + 1 + end);
    Some(&doc[start..end])
}
