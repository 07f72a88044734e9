//! Claude Code (both pinned versions) and Qwen Code with `type: "http"`
//! hooks pointing at the gateway's HTTP endpoint: no shim, no process per
//! hook. The token reaches the hook through its `headers` and
//! `allowedEnvVars`.
//!
//! What is asserted is what the agent did: whether the command ran (its
//! marker file), what the model read next, and that every event came in
//! over HTTP (counted, nothing refused).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::{AgentOutcome, AgentRun, ClaudeCode};
use hookgate_integration_tests::fake_model::{AnthropicToolResult, Script};
use hookgate_integration_tests::http_hook::{HTTP_SECTION, HttpEndpoint};
use hookgate_integration_tests::{
    SubscriberEntry, TestGateway, TestSubscriber, config_toml, decisions,
};
use hookgate_proto::v1::{Decision, EventKind, HookEvent};

use crate::scenario::Marker;
use crate::support::run;

const GUARD_REASON: &str = "HG-HTTP-GUARD: this file is off limits";
/// The file name the guard forbids writing.
const DENIED: &str = "hg-http-denied";
const AT_PROMPT: &str = "HG-HTTP-CONTEXT-PROMPT";
const AFTER_TOOL: &str = "HG-HTTP-CONTEXT-POST-TOOL";
/// The events hooked: no SessionStart (2.1.332 skips HTTP hooks there).
const HOOKS: [&str; 3] = ["UserPromptSubmit", "PreToolUse", "PostToolUse"];

/// A gateway serving HTTP hooks, with the built-in guard (denying writes
/// to [`DENIED`]) and a `policy` subscriber deciding the rest.
struct HttpGated {
    gateway: TestGateway,
    endpoint: HttpEndpoint,
    policy: TestSubscriber,
}

impl HttpGated {
    async fn start(decide: impl Fn(&HookEvent) -> Decision + Send + Sync + 'static) -> HttpGated {
        let policy = TestSubscriber::respond(decide).await;
        let config = format!(
            "{HTTP_SECTION}\n{}\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
             [[subscriber.rules]]\npath = '{DENIED}$'\naccess = \"write\"\nreason = \"{GUARD_REASON}\"\n",
            config_toml(&[SubscriberEntry::decide("policy", &policy.endpoint())])
        );
        let gateway = TestGateway::start(&config).await;
        let endpoint = gateway.http_endpoint().await;
        HttpGated {
            gateway,
            endpoint,
            policy,
        }
    }

    async fn shell_then_text(&self, run: AgentRun, command: &str) -> AgentOutcome {
        run.http_hooks(&self.endpoint)
            .hooks(&HOOKS)
            .script(Script::shell_then_text(command, "Done."))
            .run()
            .await
    }

    /// At least `at_least` events came in, all over HTTP (the run has no
    /// shim at all), and none was refused.
    async fn assert_all_over_http(&self, outcome: &AgentOutcome, agent: &str, at_least: u64) {
        let doc = self.gateway.status_json().await;
        let counted: u64 = doc["events"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["agent"] == agent)
            .map(|e| e["count"].as_u64().unwrap_or(0))
            .sum();
        assert!(
            counted >= at_least,
            "{at_least} events expected: {doc:#}\n{outcome}"
        );
        let refused: u64 = doc["http_refused"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(_, n)| n.as_u64())
            .sum();
        assert_eq!(refused, 0, "{doc:#}\n{outcome}");
        assert_eq!(self.policy.events().len() as u64, counted, "{outcome}");
    }
}

impl HttpGated {
    /// The guard's deny over HTTP: the command did not run, the model read
    /// the reason as the tool's error, and it all came over HTTP.
    async fn assert_guard_denied(
        &self,
        which: ClaudeCode,
        marker: &Marker,
        outcome: &AgentOutcome,
    ) {
        marker.assert_not_ran(outcome, &format!("{which:?}: the denied command ran"));
        let results = final_turn_tool_results(outcome);
        assert!(
            results.len() == 1 && results[0].is_error && results[0].content.contains(GUARD_REASON),
            "{which:?}: the model must read the guard's reason as the tool's error: {results:?}\n{outcome}"
        );
        self.assert_all_over_http(outcome, "claude-code", 2).await;
    }
}

fn claude(which: ClaudeCode) -> AgentRun {
    run(Dialect::ClaudeCode).claude_code(which)
}

fn final_turn_tool_results(outcome: &AgentOutcome) -> Vec<AnthropicToolResult> {
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    calls[1].anthropic_tool_results()
}

fn neutral(_: &HookEvent) -> Decision {
    decisions::neutral()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guard_deny_over_http_stops_the_command_and_the_model_reads_why() {
    for which in ClaudeCode::ALL {
        let gated = HttpGated::start(neutral).await;
        let run = claude(which);
        let marker = Marker::in_work(&run, DENIED);
        let outcome = gated.shell_then_text(run, &marker.touch()).await;

        gated.assert_guard_denied(which, &marker, &outcome).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_over_http() {
    const OUTPUT: &str = "HG-HTTP-OUTPUT-7";
    for which in ClaudeCode::ALL {
        let gated = HttpGated::start(|event: &HookEvent| match event.kind() {
            EventKind::PreToolUse => decisions::allow(),
            _ => decisions::neutral(),
        })
        .await;
        let run = claude(which);
        let marker = Marker::in_work(&run, "hg-http-allowed");
        let command = format!("{} && echo {OUTPUT}", marker.touch());
        let outcome = gated.shell_then_text(run, &command).await;

        marker.assert_ran(
            &outcome,
            &format!("{which:?}: the allowed command did not run"),
        );
        let results = final_turn_tool_results(&outcome);
        assert!(
            results.len() == 1 && !results[0].is_error && results[0].content.contains(OUTPUT),
            "{which:?}: {results:?}\n{outcome}"
        );
        gated.assert_all_over_http(&outcome, "claude-code", 3).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_over_http_reaches_the_model() {
    for which in ClaudeCode::ALL {
        let gated = HttpGated::start(|event: &HookEvent| match event.kind() {
            EventKind::PromptSubmit => decisions::context(AT_PROMPT),
            EventKind::PostToolUse => decisions::context(AFTER_TOOL),
            _ => decisions::neutral(),
        })
        .await;
        let run = claude(which);
        let marker = Marker::in_work(&run, "hg-http-context");
        let outcome = gated.shell_then_text(run, &marker.touch()).await;

        marker.assert_ran(&outcome, &format!("{which:?}: the command did not run"));
        let calls = outcome.model_calls();
        assert_eq!(calls.len(), 2, "{which:?}\n{outcome}");
        assert!(
            calls[0].mentions(AT_PROMPT),
            "{which:?}: the first request lacks the prompt context\n{outcome}"
        );
        assert!(
            !calls[0].mentions(AFTER_TOOL) && calls[1].mentions(AFTER_TOOL),
            "{which:?}: the post-tool context belongs to the request after the tool\n{outcome}"
        );
        gated.assert_all_over_http(&outcome, "claude-code", 3).await;
    }
}

/// The gateway down (nothing listens at the hook's URL): the agent's own
/// `onFailure` decides. Without it the call goes ahead on both versions;
/// with `onFailure: "block"` 2.1.332 blocks it, while 2.1.197, which
/// predates the key, ignores it and runs the command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_only_on_failure_block_blocks() {
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let endpoint = HttpEndpoint {
        addr: dead,
        token: "0".repeat(64),
    };
    let cases = [
        (ClaudeCode::Oldest, false, true),
        (ClaudeCode::Oldest, true, true),
        (ClaudeCode::Newest, false, true),
        (ClaudeCode::Newest, true, false),
    ];
    for (which, block, runs) in cases {
        let mut run = claude(which).http_hooks(&endpoint);
        if block {
            run = run.http_fail_closed();
        }
        let marker = Marker::in_work(&run, "hg-http-down");
        let outcome = run
            .hooks(&["PreToolUse"])
            .script(Script::shell_then_text(&marker.touch(), "Done."))
            .run()
            .await;
        if runs {
            marker.assert_ran(
                &outcome,
                &format!("{which:?} block={block}: the command did not run"),
            );
        } else {
            marker.assert_not_ran(
                &outcome,
                &format!("{which:?} block={block}: the command ran"),
            );
            let results = final_turn_tool_results(&outcome);
            assert!(
                results.len() == 1 && results[0].is_error,
                "{which:?}: the model is told the tool was blocked: {results:?}\n{outcome}"
            );
        }
    }
}

/// Qwen Code 0.24.4's HTTP hooks on loopback: the guard's deny keeps the
/// file from being written and the model reads why (as the tool message);
/// an allowed command runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qwen_code_over_http_gets_a_guard_deny_and_an_allow() {
    let gated = HttpGated::start(neutral).await;
    let qwen = run(Dialect::QwenCode);
    let denied = Marker::in_work(&qwen, DENIED);
    let outcome = gated.shell_then_text(qwen, &denied.touch()).await;
    denied.assert_not_ran(&outcome, "the denied command ran");
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    let results = calls[1].openai_tool_messages();
    assert!(
        results.len() == 1 && results[0].contains(GUARD_REASON),
        "the model must read the guard's reason: {results:?}\n{outcome}"
    );
    gated.assert_all_over_http(&outcome, "qwen-code", 2).await;

    let gated = HttpGated::start(neutral).await;
    let qwen = run(Dialect::QwenCode);
    let allowed = Marker::in_work(&qwen, "hg-http-allowed");
    let outcome = gated.shell_then_text(qwen, &allowed.touch()).await;
    allowed.assert_ran(&outcome, "the allowed command did not run");
    gated.assert_all_over_http(&outcome, "qwen-code", 3).await;
}

/// `gateway install --agent claude-code --transport http`, then the real
/// Claude Code (both versions) on the settings install wrote, with no token
/// in its environment: the guard's deny reaches it over HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_config_install_writes_gets_the_guard_deny() {
    for which in ClaudeCode::ALL {
        let gated = HttpGated::start(neutral).await;
        let run = claude(which)
            .installed_http_hooks(&gated.endpoint)
            .installed_hooks(install_http);
        // What install reads: the user's gateway config (for the address)
        // and, through `--socket`, the gateway's directory (for the token).
        let config_dir = run.home().join(".config/hookgate");
        std::fs::create_dir_all(&config_dir).expect("create the config dir");
        std::fs::write(
            config_dir.join("gateway.toml"),
            format!("[http]\nlisten = \"{}\"\n", gated.endpoint.addr),
        )
        .expect("write the user's gateway config");
        std::fs::write(
            run.home().join(SOCKET_NOTE),
            gated.gateway.socket().as_os_str().as_encoded_bytes(),
        )
        .expect("note the socket");
        let marker = Marker::in_work(&run, DENIED);
        let outcome = run
            .script(Script::shell_then_text(&marker.touch(), "Done."))
            .run()
            .await;

        gated.assert_guard_denied(which, &marker, &outcome).await;
    }
}

/// Where the test leaves the gateway's socket path for [`install_http`]
/// (an installer is a plain `fn` of the run's HOME).
const SOCKET_NOTE: &str = "hg-gateway-socket";

fn install_http(home: &std::path::Path) {
    let socket = std::fs::read_to_string(home.join(SOCKET_NOTE)).expect("the socket note");
    let bins = hookgate_integration_tests::binaries::binaries();
    let output = std::process::Command::new(&bins.gateway)
        .args([
            "install",
            "--agent",
            "claude-code",
            "--transport",
            "http",
            "--socket",
            &socket,
            "--shim",
        ])
        .arg(&bins.shim)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run gateway install");
    assert!(
        output.status.success(),
        "gateway install --transport http failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
