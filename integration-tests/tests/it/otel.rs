//! OpenTelemetry export through the real gateway to an OTLP collector
//! stand-in (the real OTLP/gRPC services on loopback): one span per hook
//! event with a child span per subscriber call, the agent's `traceparent`
//! as the parent, metrics too; and a collector that is down or stalled
//! delays no hook, its dropped spans counted.

use std::time::Duration;

use hookgate_integration_tests::collector::{Collector, attributes, hex};
use hookgate_integration_tests::{TestGateway, TestSubscriber, decisions, payloads};
use serde_json::Value;

use crate::support::{EVENTUALLY, assert_claude_deny, total_fallbacks};

/// Copilot 1.0.81+ sends this with its hook inputs.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN: &str = "00f067aa0ba902b7";

/// A guard denying `rm -rf`, and the remote subscriber at `policy`, with
/// export to `collector` under `[otel]` settings `extra`.
fn config(collector: &str, policy: &str, extra: &str) -> String {
    format!(
        r#"
[otel]
endpoint = "{collector}"
service_name = "hookgate-test"
metrics_interval_ms = 300
{extra}

[[subscriber]]
name = "guard"
builtin = "guard"

[[subscriber.rules]]
command = ["rm"]
flags = ["-r"]
reason = "no recursive delete"

[[subscriber]]
name = "policy"
endpoint = "{policy}"
timeout_ms = 5000
"#
    )
}

fn copilot_with_traceparent(command: &str) -> String {
    let mut v: Value =
        serde_json::from_str(&payloads::copilot_bash(command)).expect("fixture is JSON");
    v["traceparent"] = format!("00-{TRACE_ID}-{PARENT_SPAN}-01").into();
    v.to_string()
}

#[tokio::test]
async fn each_event_is_a_span_with_its_subscriber_calls_under_it() {
    let collector = Collector::start().await;
    let policy = TestSubscriber::fixed(decisions::allow()).await;
    // A subscriber that is down, for Copilot's events only.
    let with_down = format!(
        "{}\n[[subscriber]]\nname = \"down\"\nendpoint = \"http://{}\"\nagents = [\"copilot\"]\n",
        config(&collector.endpoint(), &policy.endpoint(), ""),
        closed_port()
    );
    let gateway = TestGateway::start(&with_down).await;

    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf build"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "no recursive delete");
    let out = gateway
        .shim(Some("copilot"))
        .run(copilot_with_traceparent("ls"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");

    let events = |c: &Collector| {
        c.spans()
            .into_iter()
            .filter(|s| s.name == "hook pre_tool_use")
            .collect::<Vec<_>>()
    };
    assert!(
        collector
            .wait_until(EVENTUALLY, |c| events(c).len() >= 2 && c.spans().len() >= 9)
            .await,
        "spans: {:#?}\nstderr:\n{}",
        collector.spans(),
        gateway.stderr()
    );
    let spans = collector.spans();
    let events = events(&collector);
    assert_eq!(events.len(), 2, "one span per event: {spans:#?}");
    for event in &events {
        let attrs = attributes(event);
        let children: Vec<_> = spans
            .iter()
            .filter(|s| s.parent_span_id == event.span_id)
            .collect();
        let mut names: Vec<_> = children.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        // Self-protection is a decider of every event too.
        let expected: &[&str] = if attrs["hookgate.agent"] == "copilot" {
            &[
                "subscriber down",
                "subscriber guard",
                "subscriber policy",
                "subscriber self-protection",
            ]
        } else {
            &[
                "subscriber guard",
                "subscriber policy",
                "subscriber self-protection",
            ]
        };
        assert_eq!(names, expected, "{spans:#?}");
        for child in &children {
            let child_attrs = attributes(child);
            assert_eq!(child.trace_id, event.trace_id);
            let outcome = if child.name == "subscriber down" {
                "error"
            } else {
                "answered"
            };
            assert_eq!(child_attrs["hookgate.subscriber.outcome"], outcome);
            for key in [
                "hookgate.agent",
                "hookgate.event.kind",
                "hookgate.tool.class",
            ] {
                assert_eq!(child_attrs[key], attrs[key], "{key}");
            }
        }
        assert_eq!(attrs["hookgate.event.kind"], "pre_tool_use");
        assert_eq!(attrs["hookgate.tool.class"], "shell");
        assert!(
            !attrs.contains_key("hookgate.payload"),
            "no payloads unless asked"
        );
        match attrs["hookgate.agent"].as_str() {
            "claude-code" => {
                assert_eq!(attrs["hookgate.outcome"], "deny");
                let guard = children
                    .iter()
                    .find(|c| c.name == "subscriber guard")
                    .unwrap();
                assert_eq!(attributes(guard)["hookgate.subscriber.decision"], "deny");
                assert_ne!(hex(&event.trace_id), TRACE_ID);
                assert!(event.parent_span_id.is_empty(), "a root span");
            }
            "copilot" => {
                // The agent's trace context is the event's parent.
                assert_eq!(attrs["hookgate.outcome"], "allow");
                assert_eq!(hex(&event.trace_id), TRACE_ID);
                assert_eq!(hex(&event.parent_span_id), PARENT_SPAN);
            }
            other => panic!("unexpected agent {other}"),
        }
    }
    // The counters go over OTLP too.
    assert!(
        collector
            .wait_until(EVENTUALLY, |c| c
                .metric_names()
                .iter()
                .any(|m| m == "hookgate.events"))
            .await,
        "metrics: {:?}",
        collector.metric_names()
    );
}

/// `n` hook calls in a row, each answered by the gateway (the guard's
/// deny), none by the shim's fallback.
async fn deny_many(gateway: &TestGateway, n: usize) {
    for _ in 0..n {
        let out = gateway
            .shim(Some("claude-code"))
            .run(payloads::claude_bash("rm -r /tmp/x"))
            .await;
        assert_claude_deny(&out, "PreToolUse", "no recursive delete");
    }
    let doc = gateway.status_json().await;
    assert_eq!(total_fallbacks(&doc), 0, "{doc:#}");
}

async fn eventually_dropped(gateway: &TestGateway, field: &str) -> Value {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        if doc["otel"][field].as_u64().unwrap_or(0) > 0 || tokio::time::Instant::now() >= until {
            return doc;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_stalled_collector_delays_no_hook_and_drops_are_counted() {
    let collector = Collector::stalled().await;
    let policy = TestSubscriber::fixed(decisions::neutral()).await;
    let extra = "queue_size = 4\nexport_timeout_ms = 500";
    let gateway =
        TestGateway::start(&config(&collector.endpoint(), &policy.endpoint(), extra)).await;

    // One event, then a pause past the exporter's batch delay (200 ms), so
    // its export has begun and sits on the stalled collector; then far more
    // events than the queue holds while it waits: every hook is still
    // answered by the gateway. (Without the pause, a fast machine answers
    // all of them within the first batch's delay, which drains the queue.)
    deny_many(&gateway, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    deny_many(&gateway, 40).await;
    let doc = eventually_dropped(&gateway, "spans_dropped_queue").await;
    assert!(
        doc["otel"]["spans_dropped_queue"].as_u64() > Some(0),
        "{doc:#}"
    );
    let doc = eventually_dropped(&gateway, "spans_dropped_export").await;
    assert!(
        doc["otel"]["spans_dropped_export"].as_u64() > Some(0),
        "{doc:#}"
    );
    assert!(
        collector.trace_calls() > 0,
        "the export did reach the collector"
    );
    assert_eq!(doc["otel"]["spans_exported"], 0, "{doc:#}");
    let socket = gateway.socket().display().to_string();
    let (_, table, _) =
        hookgate_integration_tests::run_gateway(&["status", "--socket", &socket]).await;
    assert!(table.contains("otel spans"), "{table}");
}

/// A loopback address nothing listens on (bound, then closed).
fn closed_port() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("local address")
}

#[tokio::test]
async fn a_down_collector_delays_no_hook_and_drops_are_counted() {
    let addr = closed_port();
    let policy = TestSubscriber::fixed(decisions::neutral()).await;
    let gateway =
        TestGateway::start(&config(&format!("http://{addr}"), &policy.endpoint(), "")).await;
    deny_many(&gateway, 10).await;
    let doc = eventually_dropped(&gateway, "spans_dropped_export").await;
    assert!(
        doc["otel"]["spans_dropped_export"].as_u64() > Some(0),
        "{doc:#}"
    );
    assert_eq!(doc["otel"]["spans_exported"], 0, "{doc:#}");
}

/// `[otel]` headers carry credentials: a config that would send them in
/// plaintext to a collector off this machine is refused at start, naming
/// the key and the way out (issue #25, item 6).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plaintext_headers_to_a_remote_collector_are_refused() {
    let dir = hookgate_integration_tests::private_dir();
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        "[otel]\nendpoint = \"http://collector.example:4317\"\n\
         headers_env = { authorization = \"OTEL_TOKEN\" }\n",
    )
    .expect("write the config");
    let socket = dir.path().join("gateway.sock");
    let (code, stdout, stderr) = hookgate_integration_tests::run_gateway(&[
        "serve",
        "--config",
        &config.display().to_string(),
        "--socket",
        &socket.display().to_string(),
    ])
    .await;
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("otel.headers_env")
            && stderr.contains("plaintext")
            && stderr.contains("headers_over_plaintext"),
        "{stderr}"
    );
    assert!(!socket.exists(), "nothing served");
}
