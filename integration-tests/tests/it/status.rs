//! `gateway status` and the Prometheus endpoint report exactly the traffic
//! that went through real shims: an allow, a deny, a timing-out subscriber,
//! an unparseable payload, a refused connection (as root) and a fail-open
//! while no gateway ran. And against a stopped gateway, `gateway status`
//! says so in one line and fails.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{
    Shim, SubscriberEntry, TestGateway, TestSubscriber, config_toml, decisions, payloads,
    private_dir,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{assert_claude_deny, claude_specific, str_at};

/// Runs the real `gateway status` binary; returns (exit code, stdout, stderr).
async fn gateway_status(socket: &Path, json: bool) -> (Option<i32>, String, String) {
    let mut command = tokio::process::Command::new(&binaries().gateway);
    command.arg("status").arg("--socket").arg(socket);
    if json {
        command.arg("--json");
    }
    let out = command.output().await.expect("run gateway status");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn status_json(gateway: &TestGateway) -> Value {
    gateway.status_json().await
}

/// `GET /metrics` over plain HTTP/1.1; returns the body.
pub(crate) async fn scrape(addr: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connect to the metrics endpoint");
    let request = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send the request");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("read the response");
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_lowercase().contains("text/plain"), "{head}");
    body.to_owned()
}

/// The value of the sample named exactly `series` (name and labels).
pub(crate) fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {series} in:\n{text}"))
        .parse()
        .unwrap_or_else(|err| panic!("sample {series}: {err}"))
}

/// One shim run as `nobody` against a socket `nobody` may open, so only
/// the gateway's peer-uid check stops it (as in `peer_uid.rs`).
async fn refused_connection(gateway: &TestGateway) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("read /etc/passwd");
    let line = passwd
        .lines()
        .find(|l| l.starts_with("nobody:"))
        .expect("a nobody user");
    let mut ids = line
        .split(':')
        .skip(2)
        .map(|f| f.parse::<u32>().expect("numeric ids"));
    let (uid, gid) = (ids.next().expect("uid"), ids.next().expect("gid"));
    let shim = gateway.dir().join("gateway-shim");
    std::fs::copy(&binaries().shim, &shim).expect("copy the shim");
    for (path, mode) in [(&shim, 0o755), (&gateway.dir().to_path_buf(), 0o755)] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    std::fs::set_permissions(gateway.socket(), std::fs::Permissions::from_mode(0o777))
        .expect("chmod the socket");
    std::os::unix::fs::chown(gateway.socket(), Some(uid), Some(gid)).expect("chown the socket");
    let out = gateway
        .shim(Some("claude-code"))
        .program(&shim)
        .wrapped(&[
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "--",
        ])
        .run(payloads::claude_bash("id"))
        .await;
    assert!(
        !out.stdout_str().contains("allow"),
        "nobody was served: {out}"
    );
    // The shim hangs up at once (it, too, refuses a server of another
    // uid), so the gateway may accept and count the connection only after
    // the shim has exited: wait for that, bounded.
    let counted = tokio::time::timeout(crate::support::EVENTUALLY, async {
        while gateway.status_json().await["refused"]["foreign_uid"] != 1 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(counted.is_ok(), "the gateway never counted the refusal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_and_prometheus_report_exactly_the_traffic() {
    let policy = TestSubscriber::respond(|event| {
        let command = event.tool.as_ref().and_then(|t| t.command.as_deref());
        if command.is_some_and(|c| c.contains("rm -rf")) {
            decisions::deny("no rm -rf")
        } else {
            decisions::allow()
        }
    })
    .await;
    let slow = TestSubscriber::hanging().await;
    let config = config_toml(&[
        SubscriberEntry::decide("policy", &policy.endpoint()),
        SubscriberEntry::decide("slow", &slow.endpoint())
            .timeout_ms(300)
            .agents(&["cursor"]),
    ]);
    let dir = private_dir();
    let socket = TestGateway::socket_in(dir.path());

    // 1. No gateway yet: the shim fails open and leaves a record.
    let out = Shim::new(&socket, Some("claude-code"))
        .run(payloads::claude_bash("ls"))
        .await;
    assert_eq!(out.code, Some(0), "fail-open: {out}");
    assert!(out.stdout.is_empty(), "fail-open is neutral: {out}");

    let gateway = TestGateway::start_in(dir, &config, &["--metrics-addr", "127.0.0.1:0"]).await;

    // 2. Allow.
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("ls"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(&out, &json, "PreToolUse");
    assert_eq!(str_at(specific, "permissionDecision"), "allow", "{out}");
    // 3. Deny.
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf /"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "no rm -rf");
    // 4. A subscriber that times out (fails open; policy still allows).
    let out = gateway
        .shim(Some("cursor"))
        .run(payloads::cursor_shell("ls"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    // 5. An unparseable payload.
    let out = gateway
        .shim(Some("claude-code"))
        .run("this is not json")
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    // 6. A refused connection.
    let refused = match crate::support::cannot_switch_users() {
        Some(reason) => {
            eprintln!("SKIPPED the refused-connection part: {reason}");
            0
        }
        None => {
            refused_connection(&gateway).await;
            1
        }
    };

    let doc = status_json(&gateway).await;
    assert_eq!(doc["schema"], 1);
    assert_eq!(doc["pid"], gateway.pid());
    assert_eq!(doc["socket"], gateway.socket().display().to_string());
    let outcomes = |allow: u64, deny: u64| json!({"allow": allow, "ask": 0, "deny": deny, "neutral": 0, "halt": 0});
    let events: Vec<Value> = doc["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            json!([
                e["agent"],
                e["event"],
                e["count"],
                e["outcomes"],
                e["latency"]["count"]
            ])
        })
        .collect();
    assert_eq!(
        events,
        [
            json!(["claude-code", "pre_tool_use", 2, outcomes(1, 1), 2]),
            json!(["cursor", "pre_tool_use", 1, outcomes(1, 0), 1]),
        ],
        "{doc:#}"
    );
    assert_eq!(doc["latency"]["count"], 4, "every request, parsed or not");
    assert_eq!(doc["detect_errors"], 0);
    assert_eq!(doc["parse_errors"], 1);
    assert_eq!(doc["parse_errors_by_agent"]["claude-code"], 1);
    assert_eq!(
        doc["refused"],
        json!({"foreign_uid": refused, "no_peer_cred": 0, "busy": 0, "read_timeout": 0,
               "oversize": 0, "bad_frame": 0, "write_failed": 0, "shim_gone": 0,
               "over_budget": 0}),
    );
    assert_eq!(
        doc["fallbacks"],
        json!({"unreachable": 1, "untrusted": 0, "busy": 0, "timeout": 0, "bad_reply": 0,
               "oversize": 0, "usage": 0, "autostart_failed": 0, "other": 0}),
    );
    assert_eq!(doc["merge"], json!([]));
    let subscriber = |name: &str| {
        let s = doc["subscribers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no subscriber {name}: {doc:#}"));
        json!([
            s["state"],
            s["state_source"],
            s["calls"],
            s["ok"],
            s["allow"],
            s["ask"],
            s["deny"],
            s["errors"],
            s["timeouts"],
            s["fail_open"],
            s["fail_closed"],
            s["drops"],
            s["latency"]["count"]
        ])
    };
    assert_eq!(
        subscriber("policy"),
        json!(["up", "last_call", 3, 3, 2, 0, 1, 0, 0, 0, 0, 0, 3])
    );
    assert_eq!(
        subscriber("slow"),
        json!(["down", "last_call", 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1])
    );
    // Self-protection is a built-in like the others, not of unknown state.
    let protection = subscriber("self-protection");
    assert_eq!(
        [&protection[0], &protection[1]],
        [&json!("builtin"), &json!("builtin")],
        "{doc:#}"
    );

    // The same numbers on the Prometheus endpoint.
    let addr = doc["metrics_addr"].as_str().expect("metrics_addr is set");
    let text = scrape(addr).await;
    let claude = "agent=\"claude-code\",event=\"pre_tool_use\"";
    for (series, expected) in [
        (format!("hookgate_events_total{{{claude}}}"), 2),
        (
            format!("hookgate_replies_total{{{claude},outcome=\"allow\"}}"),
            1,
        ),
        (
            format!("hookgate_replies_total{{{claude},outcome=\"deny\"}}"),
            1,
        ),
        (
            format!("hookgate_event_duration_seconds_count{{{claude}}}"),
            2,
        ),
        (
            "hookgate_events_total{agent=\"cursor\",event=\"pre_tool_use\"}".into(),
            1,
        ),
        ("hookgate_request_duration_seconds_count".into(), 4),
        (
            "hookgate_parse_errors_total{agent=\"claude-code\"}".into(),
            1,
        ),
        ("hookgate_detect_errors_total".into(), 0),
        (
            "hookgate_refused_connections_total{reason=\"foreign_uid\"}".into(),
            refused,
        ),
        (
            "hookgate_shim_fallbacks_total{reason=\"unreachable\"}".into(),
            1,
        ),
        (
            "hookgate_subscriber_calls_total{subscriber=\"policy\"}".into(),
            3,
        ),
        (
            "hookgate_subscriber_decisions_total{subscriber=\"policy\",outcome=\"allow\"}".into(),
            2,
        ),
        (
            "hookgate_subscriber_decisions_total{subscriber=\"policy\",outcome=\"deny\"}".into(),
            1,
        ),
        ("hookgate_subscriber_up{subscriber=\"policy\"}".into(), 1),
        (
            "hookgate_subscriber_calls_total{subscriber=\"slow\"}".into(),
            1,
        ),
        (
            "hookgate_subscriber_timeouts_total{subscriber=\"slow\"}".into(),
            1,
        ),
        (
            "hookgate_subscriber_fail_open_total{subscriber=\"slow\"}".into(),
            1,
        ),
        ("hookgate_subscriber_up{subscriber=\"slow\"}".into(), 0),
        (
            "hookgate_subscriber_duration_seconds_count{subscriber=\"slow\"}".into(),
            1,
        ),
    ] {
        assert_eq!(sample(&text, &series), expected as f64, "{series}");
    }
    assert!(
        !text.contains("session"),
        "no session ids in labels:\n{text}"
    );

    // The table names the same counts.
    let (code, table, stderr) = gateway_status(gateway.socket(), false).await;
    assert_eq!(code, Some(0), "{stderr}");
    let row = table
        .lines()
        .find(|l| l.starts_with("claude-code"))
        .unwrap_or_else(|| panic!("no claude-code row:\n{table}"));
    assert_eq!(
        row.split_whitespace().take(8).collect::<Vec<_>>(),
        ["claude-code", "pre_tool_use", "2", "1", "0", "1", "0", "0"],
        "{table}"
    );
    assert!(table.contains("shim fallbacks    unreachable 1"), "{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_of_a_stopped_gateway_says_what_to_do_and_fails() {
    let mut gateway = TestGateway::start(&config_toml(&[])).await;
    let socket = gateway.socket().to_path_buf();
    let (code, _, _) = gateway_status(&socket, false).await;
    assert_eq!(code, Some(0), "the running gateway answers");
    // SIGKILL, and reaped: no cleanup, its socket files stay behind, and
    // nothing listens any more (a merely signalled process may still
    // accept a connection it then drops).
    gateway.kill();
    // A hook call meanwhile: the shim fails open and records it.
    let out = Shim::new(&socket, Some("claude-code"))
        .run(payloads::claude_bash("ls"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    let dir = gateway.dir().to_path_buf();
    for (socket, fallbacks) in [(socket, true), (dir.join("never-started.sock"), false)] {
        let (code, stdout, stderr) = gateway_status(&socket, false).await;
        assert_ne!(code, Some(0), "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.starts_with("gateway: not running"), "{stderr:?}");
        let start = format!("start it with: gateway serve --socket {}", socket.display());
        assert!(stderr.contains(&start), "{stderr:?}");
        assert_eq!(
            stderr.contains("shims answered 1 hook calls on their own meanwhile (unreachable 1)"),
            fallbacks,
            "{stderr:?}"
        );
    }
}

/// `gateway status | head -1`: the reader closing the pipe early is not a
/// failure (it used to panic with "failed printing to stdout", exit 101).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_into_a_closed_pipe_exits_cleanly() {
    let gateway = TestGateway::start(&config_toml(&[])).await;
    let mut child = tokio::process::Command::new(&binaries().gateway)
        .arg("status")
        .arg("--socket")
        .arg(gateway.socket())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run gateway status");
    // Close the reading end before it has asked the gateway anything: its
    // whole table meets a closed pipe.
    drop(child.stdout.take());
    let status = child.wait().await.expect("wait for gateway status");
    assert_eq!(status.code(), Some(0), "gateway status into a closed pipe");
}
