//! The pipeline end to end in-process, with real tonic subscribers on
//! localhost: parallel fan-out, deadlines and failure policy, observe,
//! filters, the built-ins, and payloads that cannot be understood.
//!
//! The input is a Claude Code fixture, but assertions are on the merged
//! canonical decision and the counters; the reply is checked to be exactly
//! what `hookgate_adapters::render` makes of that decision, so no agent's
//! reply format is spelled out here.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::FutureExt as _;
use hookgate_adapters::{self as adapters, Decision, Dialect, Permission};
use hookgate_proto::v1;
use serde_json::Value;
use tokio::sync::{Barrier, mpsc, oneshot};
use tokio_util::task::TaskTracker;

use super::Pipeline;
use crate::metrics::{Metrics, Snapshot};
use crate::subscribers::Registry;
#[cfg(unix)]
use crate::testing::fake_unix_subscriber;
use crate::testing::{Behaviour, claude_payload, fake_subscriber, request};
use hookgate_config::{Config, Env};

mod understanding;

impl Pipeline {
    async fn evaluate_unbudgeted(
        &self,
        request: hookgate_wire::Request,
    ) -> (hookgate_wire::Reply, Option<Decision>) {
        self.evaluate(request, None).await
    }

    async fn handle_unbudgeted(&self, request: hookgate_wire::Request) -> hookgate_wire::Reply {
        self.handle(request, None).await
    }
}

struct Harness {
    pipeline: Pipeline,
    metrics: Arc<Metrics>,
    _workers: TaskTracker,
}

impl Harness {
    fn new(toml: &str) -> Harness {
        let config = Config::parse("test.toml", toml, &Env::default()).unwrap();
        let metrics = Arc::new(Metrics::default());
        let workers = TaskTracker::new();
        let registry = Registry::build(&config.subscribers, &metrics, &workers).unwrap();
        Harness {
            pipeline: Pipeline::new(registry, Arc::clone(&metrics), config.server.on_unparsed),
            metrics,
            _workers: workers,
        }
    }

    /// Runs a Claude Code `PreToolUse` for `command`; returns the merged
    /// decision, once sure the agent got what adapters render for it.
    async fn bash(&self, command: &str) -> Decision {
        let payload = claude_payload("PreToolUse", |v| {
            v["tool_input"]["command"] = command.into()
        });
        let (reply, decision) = self
            .pipeline
            .evaluate_unbudgeted(request("claude-code", payload.clone()))
            .await;
        let decision = decision.expect("the fixture is understood");
        let event = adapters::parse(Dialect::ClaudeCode, &payload).unwrap();
        let expected = adapters::render(&event, &decision).reply;
        assert_eq!(
            (reply.exit_code, &reply.stdout, &reply.stderr),
            (expected.exit_code, &expected.stdout, &expected.stderr),
            "the reply is the rendered merged decision"
        );
        decision
    }

    fn snapshot(&self) -> Snapshot {
        self.metrics.snapshot()
    }
}

fn answer(decision: v1::Decision) -> Behaviour {
    Arc::new(move |_event| {
        let decision = decision.clone();
        async move { Ok(decision) }.boxed()
    })
}

fn hang() -> Behaviour {
    Arc::new(|_event| futures_util::future::pending().boxed())
}

fn deny(reason: &str) -> v1::Decision {
    v1::Decision {
        permission: v1::Permission::Deny as i32,
        reason: reason.into(),
        ..v1::Decision::default()
    }
}

fn context(text: &str) -> v1::Decision {
    v1::Decision {
        additional_context: text.into(),
        ..v1::Decision::default()
    }
}

fn decide_sub(name: &str, endpoint: &str, extra: &str) -> String {
    format!(
        "[[subscriber]]\nname = \"{name}\"\nendpoint = \"{endpoint}\"\ntimeout_ms = 10000\n{extra}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_deny_reaches_the_agent_in_its_format() {
    let endpoint = fake_subscriber(answer(deny("no deploys on friday"))).await;
    let h = Harness::new(&decide_sub("policy", &endpoint, ""));
    let out = h.bash("./deploy.sh").await;
    assert_eq!(out.permission, Permission::Deny);
    let reason = out.reason.unwrap_or_default();
    assert!(reason.contains("no deploys on friday"), "{reason}");
    let snap = h.snapshot();
    assert_eq!(snap.total_events(), 1);
    let stats = snap.subscriber("policy").unwrap();
    assert_eq!((stats.calls, stats.ok, stats.errors), (1, 1, 0));
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unix_socket_endpoints_work() {
    let dir = tempfile::tempdir().unwrap();
    let endpoint =
        fake_unix_subscriber(answer(deny("over unix")), &dir.path().join("sub.sock")).await;
    assert!(endpoint.starts_with("unix:///"));
    let h = Harness::new(&decide_sub("local", &endpoint, ""));
    let out = h.bash("ls").await;
    assert_eq!(out.permission, Permission::Deny);
    assert_eq!(h.snapshot().subscriber("local").map(|s| s.ok), Some(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fan_out_is_parallel() {
    // Each subscriber answers only once both have received the event: with
    // sequential calls the first would wait for the second forever (well,
    // until its deadline, and the test would see a timeout).
    let barrier = Arc::new(Barrier::new(2));
    let waiting = |text: &'static str| -> Behaviour {
        let barrier = Arc::clone(&barrier);
        Arc::new(move |_event| {
            let barrier = Arc::clone(&barrier);
            async move {
                barrier.wait().await;
                Ok(context(text))
            }
            .boxed()
        })
    };
    let a = fake_subscriber(waiting("from A")).await;
    let b = fake_subscriber(waiting("from B")).await;
    let h = Harness::new(&format!(
        "{}{}",
        decide_sub("a", &a, "priority = 2"),
        decide_sub("b", &b, "priority = 1")
    ));
    let out = h.bash("ls").await;
    let joined = out.additional_context.unwrap_or_default();
    assert!(
        joined.contains("from A") && joined.contains("from B"),
        "{joined}"
    );
    assert!(
        joined.find("from A") < joined.find("from B"),
        "priority order: {joined}"
    );
    let snap = h.snapshot();
    for name in ["a", "b"] {
        let stats = snap.subscriber(name).unwrap();
        assert_eq!((stats.ok, stats.timeouts), (1, 0), "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_subscriber_gets_its_on_error_policy() {
    let hung = fake_subscriber(hang()).await;
    let short = "timeout_ms = 100";

    // Fail closed: a deny naming the subscriber.
    let h = Harness::new(&format!(
        "[[subscriber]]\nname = \"strict\"\nendpoint = \"{hung}\"\n{short}\non_error = \"deny\"\n"
    ));
    let out = h.bash("ls").await;
    assert_eq!(out.permission, Permission::Deny);
    let reason = out.reason.unwrap_or_default();
    assert!(reason.contains("`strict`"), "{reason}");
    let stats = h.snapshot().subscriber("strict").cloned().unwrap();
    assert_eq!(
        (stats.timeouts, stats.fail_closed, stats.fail_open),
        (1, 1, 0)
    );

    // Fail open: no opinion, and the other subscriber's answer still lands.
    let ctx = fake_subscriber(answer(context("still here"))).await;
    let h = Harness::new(&format!(
        "[[subscriber]]\nname = \"lax\"\nendpoint = \"{hung}\"\n{short}\non_error = \"allow\"\n{}",
        decide_sub("ctx", &ctx, "")
    ));
    let out = h.bash("ls").await;
    assert_eq!(out.additional_context.as_deref(), Some("still here"));
    assert_eq!(out.permission, Permission::Unspecified, "{out:?}");
    let stats = h.snapshot().subscriber("lax").cloned().unwrap();
    assert_eq!(
        (stats.timeouts, stats.fail_closed, stats.fail_open),
        (1, 0, 1)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_down_subscriber_and_a_bad_reply_are_errors() {
    // Nothing listens on this port once the listener is dropped.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let bad = fake_subscriber(answer(v1::Decision {
        updated_input_json: "[1, 2]".into(),
        ..v1::Decision::default()
    }))
    .await;
    let h = Harness::new(&format!(
        "{}on_error = \"deny\"\n{}on_error = \"deny\"\n",
        decide_sub("down", &format!("http://{free}"), ""),
        decide_sub("bad", &bad, "")
    ));
    let out = h.bash("ls").await;
    assert_eq!(out.permission, Permission::Deny);
    let snap = h.snapshot();
    // A bad part is dropped alone (an error), not a failed call: only the
    // unreachable subscriber fails closed.
    for (name, fail_closed) in [("down", 1), ("bad", 0)] {
        let stats = snap.subscriber(name).unwrap();
        assert_eq!(
            (stats.errors, stats.fail_closed),
            (1, fail_closed),
            "{name}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rewrites_reach_the_agent() {
    let rewrite = fake_subscriber(Arc::new(|event: v1::HookEvent| {
        async move {
            let mut input: Value = serde_json::from_str(&event.tool.unwrap().input_json).unwrap();
            input["command"] = "npm test -- --ci".into();
            Ok(v1::Decision {
                updated_input_json: input.to_string(),
                ..v1::Decision::default()
            })
        }
        .boxed()
    }))
    .await;
    let h = Harness::new(&decide_sub("ci", &rewrite, ""));
    let input = h.bash("npm test").await.updated_input.unwrap();
    assert_eq!(input["command"], "npm test -- --ci");
    assert_eq!(input["description"], "Run test suite");
}

/// A reply larger than an agent's reply may be (a 9 MiB rewrite) is an
/// unusable reply: its `on_error` applies, the agent never gets a frame the
/// shim must refuse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_too_large_for_the_agent_is_a_bad_reply() {
    let huge = format!(r#"{{"command":"{}"}}"#, "x".repeat(9 << 20));
    let endpoint = fake_subscriber(answer(v1::Decision {
        updated_input_json: huge,
        ..v1::Decision::default()
    }))
    .await;
    for (on_error, expected) in [
        ("allow", Permission::Unspecified),
        ("deny", Permission::Deny),
    ] {
        let h = Harness::new(&decide_sub(
            "big",
            &endpoint,
            &format!("on_error = \"{on_error}\""),
        ));
        let out = h.bash("ls").await;
        assert_eq!(out.permission, expected, "on_error = {on_error}");
        assert!(out.updated_input.is_none());
        let stats = h.snapshot().subscriber("big").cloned().unwrap();
        assert_eq!(stats.errors_by_kind["bad_reply"], 1, "{stats:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_decide_who_is_asked() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counting: Behaviour = {
        let calls = Arc::clone(&calls);
        Arc::new(move |_event| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Ok(v1::Decision::default()) }.boxed()
        })
    };
    let endpoint = fake_subscriber(counting).await;
    let h = Harness::new(&format!(
        "{}{}{}",
        decide_sub("prompts", &endpoint, "events = [\"prompt_submit\"]"),
        decide_sub("cursor-only", &endpoint, "agents = [\"cursor\"]"),
        decide_sub("bash", &endpoint, "tools = [\"Bash\"]"),
    ));
    h.bash("ls").await;
    let snap = h.snapshot();
    assert_eq!(snap.subscriber("prompts").unwrap().calls, 0);
    assert_eq!(snap.subscriber("cursor-only").unwrap().calls, 0);
    assert_eq!(snap.subscriber("bash").unwrap().calls, 1);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_subscribers_are_not_awaited() {
    // The observer holds the event until the test releases it, which it
    // does only after the reply is back: awaiting it would deadlock until
    // the observer's 60 s deadline, far past the outer 20 s guard.
    let (release_tx, release_rx) = oneshot::channel::<()>();
    let release_rx = Arc::new(tokio::sync::Mutex::new(Some(release_rx)));
    let (seen_tx, mut seen_rx) = mpsc::unbounded_channel::<String>();
    let observer: Behaviour = Arc::new(move |event: v1::HookEvent| {
        let release_rx = Arc::clone(&release_rx);
        let seen_tx = seen_tx.clone();
        async move {
            if let Some(rx) = release_rx.lock().await.take() {
                let _ = rx.await;
            }
            let _ = seen_tx.send(event.native_event);
            Ok(v1::Decision::default())
        }
        .boxed()
    });
    let endpoint = fake_subscriber(observer).await;
    let h = Harness::new(&format!(
        "[[subscriber]]\nname = \"watcher\"\nendpoint = \"{endpoint}\"\nmode = \"observe\"\ntimeout_ms = 60000\n"
    ));
    let out = tokio::time::timeout(Duration::from_secs(20), h.bash("ls"))
        .await
        .expect("reply without waiting for observers");
    assert!(out.is_neutral(), "observers have no say: {out:?}");
    release_tx.send(()).unwrap();
    assert_eq!(seen_rx.recv().await.as_deref(), Some("PreToolUse"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_calls_count_every_event_offered_drops_included() {
    // 16 calls in flight, one held by the worker, one queued: at most 18
    // of 20 events get through; the rest are drops, and calls are all 20.
    let endpoint = fake_subscriber(hang()).await;
    let h = Harness::new(&format!(
        "[[subscriber]]\nname = \"slow\"\nendpoint = \"{endpoint}\"\nmode = \"observe\"\ntimeout_ms = 60000\nqueue_size = 1\n"
    ));
    for _ in 0..20 {
        h.bash("ls").await;
    }
    let stats = h.snapshot().subscriber("slow").cloned().unwrap();
    assert_eq!(stats.calls, 20, "{stats:?}");
    assert!(stats.drops >= 2, "{stats:?}");
}

/// The embedded default config, its audit log in `dir`.
fn default_config(dir: &tempfile::TempDir) -> String {
    let audit = dir.path().join("audit.jsonl");
    // A TOML string of the path: Windows' backslashes need quoting.
    let path = toml::Value::String(audit.to_str().unwrap().to_owned());
    hookgate_config::DEFAULT_TOML.replace(
        "# path = \"~/.local/state/hookgate/audit.jsonl\"",
        &format!("path = {path}"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_default_guards_and_audits() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let h = Harness::new(&default_config(&dir));
    let out = h.bash("rm -rf ~").await;
    assert_eq!(out.permission, Permission::Deny);
    let out = h
        .bash("GITHUB_TOKEN=ghp_0123456789abcdefghij0123 cargo test")
        .await;
    assert!(out.is_neutral(), "{out:?}");

    assert_eq!(h.snapshot().subscriber("guard").map(|s| s.calls), Some(2));

    // Close the queues and let the writer drain.
    let Harness {
        pipeline,
        _workers: workers,
        ..
    } = h;
    drop(pipeline);
    workers.close();
    workers.wait().await;
    let text = std::fs::read_to_string(&audit).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["decision"]["permission"], "deny");
    assert_eq!(lines[0]["kind"], "pre_tool_use");
    assert_eq!(lines[1]["decision"]["permission"], "none");
    assert!(
        !text.contains("ghp_0123456789"),
        "secrets are masked: {text}"
    );
}
