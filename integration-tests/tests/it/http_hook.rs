//! The HTTP hook endpoint (`[http]`) through the real gateway, from a
//! plain HTTP client as an agent's HTTP hook speaks to it: the token is
//! required and every refusal counted, the guard's deny and a neutral
//! allow come back as the JSON Claude Code reads, over one keep-alive
//! connection, and fail-closed stays closed. Another local user's part is
//! in `http_foreign`.

use hookgate_integration_tests::http_hook::{HTTP_SECTION, HttpClient, HttpEndpoint};
use hookgate_integration_tests::{TestGateway, payloads, private_dir, run_gateway};
use serde_json::Value;

const GUARD_REASON: &str = "HG-HTTP-GUARD: rm is not allowed here";

pub(crate) fn guard() -> String {
    format!(
        "{HTTP_SECTION}\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"{GUARD_REASON}\"\n"
    )
}

pub(crate) async fn guarded() -> (TestGateway, HttpEndpoint) {
    let gateway = TestGateway::start(&guard()).await;
    let endpoint = gateway.http_endpoint().await;
    (gateway, endpoint)
}

pub(crate) fn http_refused(doc: &Value, reason: &str) -> u64 {
    doc["http_refused"][reason]
        .as_u64()
        .unwrap_or_else(|| panic!("no http_refused.{reason}: {doc:#}"))
}

pub(crate) fn events(doc: &Value) -> u64 {
    doc["events"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["count"].as_u64().unwrap_or(0))
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_the_right_token_are_refused_and_counted() {
    let (gateway, endpoint) = guarded().await;
    let payload = payloads::claude_bash("rm -rf build");
    let mut flipped = endpoint.token.clone().into_bytes();
    flipped[0] = if flipped[0] == b'0' { b'1' } else { b'0' };
    let flipped = format!("Bearer {}", String::from_utf8(flipped).unwrap());
    // (what is wrong, the Authorization header sent)
    let cases: [(&str, Option<&str>); 4] = [
        ("no header", None),
        ("not a bearer token", Some(endpoint.token.as_str())),
        ("another token", Some("Bearer 0123")),
        ("one digit off", Some(flipped.as_str())),
    ];
    let mut client = HttpClient::connect(endpoint.addr).await.unwrap();
    for (name, auth) in cases {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("authorization", a)).into_iter().collect();
        let response = client
            .post("/hook/claude-code", &headers, payload.as_bytes())
            .await
            .unwrap();
        assert_eq!(response.status, 401, "{name}: {}", response.text());
        assert!(
            !response.text().contains("deny"),
            "{name}: {}",
            response.text()
        );
        // Fail-closed, the same refusal blocks: a 401 would be a
        // non-blocking error, and a stale token would open the hook.
        let closed = client
            .post(
                "/hook/claude-code/PreToolUse?fail=closed",
                &headers,
                payload.as_bytes(),
            )
            .await
            .unwrap();
        assert_eq!(closed.status, 200, "{name}: {}", closed.text());
        assert_eq!(
            closed.json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{name}: {}",
            closed.text()
        );
    }
    let doc = gateway.status_json().await;
    assert_eq!(http_refused(&doc, "no_token"), 4, "{doc:#}");
    assert_eq!(http_refused(&doc, "bad_token"), 4, "{doc:#}");
    assert_eq!(
        events(&doc),
        0,
        "a refused request reached the pipeline: {doc:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guard_deny_and_allow_over_one_keep_alive_connection() {
    let (gateway, endpoint) = guarded().await;
    let mut client = HttpClient::connect(endpoint.addr).await.unwrap();

    let denied = payloads::claude_bash("rm -rf build");
    let response = client
        .post_hook(&endpoint, "/hook/claude-code", denied.as_bytes())
        .await
        .unwrap();
    assert_eq!(response.status, 200, "{}", response.text());
    let specific = &response.json()["hookSpecificOutput"];
    assert_eq!(
        specific["permissionDecision"],
        "deny",
        "{}",
        response.text()
    );
    assert!(
        specific["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains(GUARD_REASON)),
        "{}",
        response.text()
    );

    let allowed = payloads::claude_bash("ls");
    let response = client
        .post_hook(&endpoint, "/hook/claude-code", allowed.as_bytes())
        .await
        .unwrap();
    assert_eq!(response.status, 200, "{}", response.text());
    assert_eq!(response.json(), serde_json::json!({}));

    let doc = gateway.status_json().await;
    assert_eq!(events(&doc), 2, "{doc:#}");
    let refused: u64 = doc["http_refused"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(refused, 0, "{doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_payload_is_blocked_only_when_fail_closed() {
    let (gateway, endpoint) = guarded().await;
    let mut client = HttpClient::connect(endpoint.addr).await.unwrap();
    let garbage = br#"{"hook_event_name": "PreToolUse", "tool_name": 7"#;
    let open = client
        .post_hook(&endpoint, "/hook/claude-code", garbage)
        .await
        .unwrap();
    assert_eq!(
        (open.status, open.json()),
        (200, serde_json::json!({})),
        "{}",
        open.text()
    );
    // A mistyped mode is fail-closed too: an error status would let the
    // agent go on.
    for query in ["fail=closed", "fail=closd"] {
        let closed = client
            .post_hook(&endpoint, &format!("/hook/claude-code?{query}"), garbage)
            .await
            .unwrap();
        assert_eq!(closed.status, 200, "{query}: {}", closed.text());
        // The event is still named in the broken payload: its own deny.
        assert_eq!(
            closed.json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{query}: {}",
            closed.text()
        );
    }
    let doc = gateway.status_json().await;
    assert_eq!(doc["unparsed_replies"]["closed"], 2, "{doc:#}");
    assert_eq!(doc["unparsed_replies"]["open"], 1, "{doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_routes_and_oversize_bodies_are_refused_and_counted() {
    let (gateway, endpoint) = guarded().await;
    let mut client = HttpClient::connect(endpoint.addr).await.unwrap();
    let payload = payloads::claude_bash("ls");
    for (path, status) in [
        ("/hook/cursor", 404),
        ("/hook/claude-code/Pre-Tool", 404),
        ("/status", 404),
    ] {
        let response = client
            .post_hook(&endpoint, path, payload.as_bytes())
            .await
            .unwrap();
        assert_eq!(response.status, status, "{path}: {}", response.text());
    }
    let huge = vec![b' '; hookgate_wire::MAX_STDIN + 1];
    let response = client
        .post_hook(&endpoint, "/hook/claude-code", &huge)
        .await;
    // Refused from its Content-Length alone; the unread body may then
    // cut the connection short, either way nothing is evaluated.
    if let Ok(response) = response {
        assert_eq!(response.status, 413, "{}", response.text());
    }
    let doc = gateway.status_json().await;
    assert_eq!(http_refused(&doc, "not_found"), 3, "{doc:#}");
    assert_eq!(http_refused(&doc, "oversize"), 1, "{doc:#}");
    assert_eq!(events(&doc), 0, "{doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_loopback_address_is_refused_at_start() {
    let dir = private_dir();
    let config = dir.path().join("gateway.toml");
    std::fs::write(&config, "[http]\nlisten = \"0.0.0.0:0\"\n").unwrap();
    let socket = TestGateway::socket_in(dir.path());
    let (code, _, stderr) = run_gateway(&[
        "serve",
        "--config",
        config.to_str().unwrap(),
        "--socket",
        socket.to_str().unwrap(),
    ])
    .await;
    assert_ne!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("not a loopback address") && stderr.contains("http.listen"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("http.token").exists(),
        "a token was made for a refused config"
    );
}
