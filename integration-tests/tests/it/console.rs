//! The local web console (`[ui]`) through the real gateway and shim, in a
//! real headless Chromium (`hookgate_integration_tests::browser`): the
//! login URL `gateway ui` prints swaps its token for an `HttpOnly`,
//! `SameSite=Strict` cookie and leaves the address bar clean; a shim call
//! shows in the live stream, masked; a held call shows in the inbox and a
//! click on Approve lets it run, on Deny (with a reason) gives the agent
//! that reason. Without a browser: no cookie is a 401, a POST without the
//! CSRF header or from a foreign `Host` is refused and changes nothing,
//! and no GET changes anything; open connections are bounded. Screenshots
//! go under the target directory.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::browser::{Browser, raw_request};
use hookgate_integration_tests::{Shim, ShimOutput, TestGateway, payloads};
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::support::{assert_claude_deny, claude_specific, str_at};

/// A secret in a tool input, which the page must never show.
const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
/// How long a test waits for something to show (a busy machine).
const SHOWN_WITHIN: Duration = Duration::from_secs(10);

/// A gateway with the console, an `approval` holding `make deploy` and a
/// decision log.
async fn gateway() -> TestGateway {
    gateway_with("").await
}

/// [`gateway`] with more `[ui]` keys.
async fn gateway_with(ui_keys: &str) -> TestGateway {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        r#"
[ui]
listen = "127.0.0.1:0"
{ui_keys}

[[subscriber]]
name = "hold"
builtin = "approval"
hold_ms = 60000

[[subscriber.rules]]
id = "deploy"
shell = "^make deploy"
reason = "deploys need a person"

[[subscriber]]
name = "log"
builtin = "audit"
path = {audit:?}
"#
    );
    TestGateway::start_in(dir, &config, &[]).await
}

/// `gateway ui --socket S`: the login URL.
async fn login_url(gateway: &TestGateway) -> String {
    let out = tokio::process::Command::new(&binaries().gateway)
        .arg("ui")
        .arg("--socket")
        .arg(gateway.socket())
        .output()
        .await
        .expect("run gateway ui");
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("/login?token="), "{stdout}");
    stdout
}

/// A Claude Code shell call of `command` by a shim that takes holds.
fn call(gateway: &TestGateway, command: &str) -> JoinHandle<ShimOutput> {
    let shim = Shim::new(gateway.socket(), Some("claude-code"))
        .env("HOOKGATE_TIMEOUT_MS", "3000")
        .env("HOOKGATE_HOLD_MAX_MS", "60000")
        .fail_closed();
    let payload = payloads::claude_bash(command);
    tokio::spawn(async move { shim.run(payload).await })
}

fn permission_decision(out: &ShimOutput) -> String {
    let json = out.json();
    str_at(
        claude_specific(out, &json, "PreToolUse"),
        "permissionDecision",
    )
    .to_owned()
}

fn screenshot_path(name: &str) -> PathBuf {
    let dir = binaries()
        .gateway
        .parent()
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    dir.join("console-screenshots").join(format!("{name}.png"))
}

/// Waits until the page's `css` text contains `needle`; how long it took.
async fn shown(browser: &Browser, css: &str, needle: &str) -> Duration {
    let started = Instant::now();
    loop {
        let text = browser.text_of(css).await;
        if text.contains(needle) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < SHOWN_WITHIN,
            "`{needle}` never shown in {css}: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The decision log's record of the call whose command starts with
/// `command`.
async fn logged(gateway: &TestGateway, command: &str) -> Value {
    let audit = gateway.dir().join("audit.jsonl");
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&audit).unwrap_or_default();
        let found = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|r| {
                r["tool"]["command"]
                    .as_str()
                    .is_some_and(|c| c.starts_with(command))
            });
        if let Some(record) = found {
            return record;
        }
        assert!(started.elapsed() < SHOWN_WITHIN, "no record of {command}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn approval_of(record: &Value) -> Value {
    record["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "hold"))
        .map(|s| s["approval"].clone())
        .unwrap_or_else(|| panic!("no hold entry: {record}"))
}

#[tokio::test]
async fn the_console_streams_masked_events_and_answers_held_calls_by_click() {
    let gateway = gateway().await;
    let url = login_url(&gateway).await;
    let browser = Browser::start().await;

    // Login: the cookie is set, the token leaves the address bar.
    browser.goto(&url).await;
    let here = browser.current_url().await;
    assert!(!here.contains("token"), "{here}");
    assert!(here.ends_with('/'), "{here}");
    let cookies = browser.cookies().await;
    let cookie = cookies
        .iter()
        .find(|c| c["name"] == "hookgate_console")
        .unwrap_or_else(|| panic!("no session cookie: {cookies:?}"));
    assert_eq!(cookie["httpOnly"], true, "{cookie}");
    assert_eq!(cookie["sameSite"], "Strict", "{cookie}");
    shown(&browser, "#live", "live").await;

    // A call that is not held shows in the stream, its secret masked.
    let command = format!("git push https://x:{SECRET}@example.com/r.git");
    let out = call(&gateway, &command).await.expect("the shim task");
    assert_eq!(out.code, Some(0), "{out}");
    let took = shown(&browser, "#events", "git push").await;
    eprintln!("the call showed in the stream {took:?} after the shim's reply");
    let stream = browser.text_of("#events").await;
    assert!(!stream.contains(SECRET), "unmasked in the stream: {stream}");
    browser.screenshot(&screenshot_path("stream")).await;

    // Its detail page: each subscriber's verdict, the merge, the payload
    // (masked).
    let row = browser.wait_for("#events tr", SHOWN_WITHIN).await;
    browser.click(&row).await;
    shown(&browser, "#detail-subs", "hold").await;
    shown(&browser, "#detail-decision", "permission").await;
    shown(&browser, "#detail-reply", "exit 0").await;
    let payload = browser.text_of("#detail-payload").await;
    assert!(payload.contains("git push"), "{payload}");
    assert!(
        !payload.contains(SECRET),
        "unmasked in the detail: {payload}"
    );
    browser.screenshot(&screenshot_path("detail")).await;

    // A held call shows in the inbox, masked; Approve lets it run.
    let nav = browser
        .wait_for("nav button[data-tab=inbox]", SHOWN_WITHIN)
        .await;
    browser.click(&nav).await;
    let held = call(&gateway, &format!("make deploy TOKEN={SECRET}"));
    shown(&browser, "#held", "make deploy").await;
    let inbox = browser.text_of("#held").await;
    assert!(!inbox.contains(SECRET), "unmasked in the inbox: {inbox}");
    assert!(inbox.contains("claude-code"), "{inbox}");
    browser.screenshot(&screenshot_path("inbox")).await;
    let approve = browser
        .wait_for("#held .card button.approve", SHOWN_WITHIN)
        .await;
    browser.click(&approve).await;
    let out = held.await.expect("the held shim");
    assert_eq!(permission_decision(&out), "allow", "{out}");
    let approval = approval_of(&logged(&gateway, "make deploy TOKEN").await);
    assert_eq!(approval["outcome"], "approved", "{approval}");
    assert_eq!(approval["channel"], "console", "{approval}");
    shown(&browser, "#held-count", "0").await;

    // Deny with a reason: the agent gets the deny and reads the reason.
    let held = call(&gateway, "make deploy prod");
    shown(&browser, "#held", "make deploy prod").await;
    let reason = browser
        .wait_for("#held .card input.deny-reason", SHOWN_WITHIN)
        .await;
    browser.type_into(&reason, "not on a Friday").await;
    let deny = browser
        .wait_for("#held .card button.deny", SHOWN_WITHIN)
        .await;
    browser.click(&deny).await;
    let out = held.await.expect("the held shim");
    assert_claude_deny(&out, "PreToolUse", "not on a Friday");
    let approval = approval_of(&logged(&gateway, "make deploy prod").await);
    assert_eq!(approval["outcome"], "denied", "{approval}");
    assert_eq!(approval["channel"], "console", "{approval}");
    browser.screenshot(&screenshot_path("after-deny")).await;

    // The session timelines and the subscribers' charts draw what was kept.
    let tab = browser
        .wait_for("nav button[data-tab=sessions]", SHOWN_WITHIN)
        .await;
    browser.click(&tab).await;
    shown(&browser, "#timelines", "claude-code").await;
    browser
        .wait_for("#timelines svg circle", SHOWN_WITHIN)
        .await;
    browser.screenshot(&screenshot_path("sessions")).await;
    let tab = browser
        .wait_for("nav button[data-tab=charts]", SHOWN_WITHIN)
        .await;
    browser.click(&tab).await;
    shown(&browser, "#chart-area", "hold").await;
    browser.wait_for("#chart-area svg rect", SHOWN_WITHIN).await;
    browser.screenshot(&screenshot_path("charts")).await;
}

/// `gateway approvals list --json`.
async fn held_ids(gateway: &TestGateway) -> Vec<u64> {
    let out = tokio::process::Command::new(&binaries().gateway)
        .args(["approvals", "list", "--json", "--socket"])
        .arg(gateway.socket())
        .output()
        .await
        .expect("run gateway approvals");
    let held: Vec<Value> = serde_json::from_slice(&out.stdout).expect("a JSON array");
    held.iter().filter_map(|h| h["id"].as_u64()).collect()
}

#[tokio::test]
async fn no_cookie_no_csrf_no_foreign_host_and_no_get_changes_anything() {
    let gateway = gateway().await;
    let url = login_url(&gateway).await;
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (addr, login_path) = rest.split_at(rest.find('/').expect("a path"));
    let addr = addr.parse().expect("a socket address");

    // Without the cookie: 401, page and API alike.
    for path in ["/", "/api/events", "/api/approvals", "/app.js"] {
        let (status, _, _) = raw_request(addr, "GET", path, &[], b"").await.unwrap();
        assert_eq!(status, 401, "{path}");
    }
    // A wrong token logs nobody in.
    let (status, headers, _) = raw_request(addr, "GET", "/login?token=00", &[], b"")
        .await
        .unwrap();
    assert_eq!(status, 401);
    assert!(!headers.iter().any(|(n, _)| n == "set-cookie"));
    // The right one sets the cookie and redirects to a URL without it.
    let (status, headers, _) = raw_request(addr, "GET", login_path, &[], b"")
        .await
        .unwrap();
    assert_eq!(status, 303);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(header("location"), "/");
    let set_cookie = header("set-cookie");
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(set_cookie.contains("SameSite=Strict"), "{set_cookie}");
    let cookie = set_cookie.split(';').next().unwrap_or_default().to_owned();
    let with_cookie = [("cookie", cookie.as_str())];

    // The page carries the CSRF value.
    let (status, _, page) = raw_request(addr, "GET", "/", &with_cookie, b"")
        .await
        .unwrap();
    assert_eq!(status, 200);
    let page = String::from_utf8_lossy(&page).into_owned();
    let csrf = page
        .split("name=\"hookgate-csrf\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the CSRF meta tag")
        .to_owned();
    assert_eq!(csrf.len(), 64, "{csrf}");

    let held = call(&gateway, "make deploy now");
    let started = Instant::now();
    let id = loop {
        if let Some(id) = held_ids(&gateway).await.first() {
            break *id;
        }
        assert!(started.elapsed() < SHOWN_WITHIN, "never held");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let approve = format!("/api/approvals/{id}/approve");
    let body = br#"{"scope":"once"}"#;

    // POST without the CSRF header, with a wrong one, from a foreign Host
    // or Origin; GET on the answer's path: refused, still held.
    let wrong = [("cookie", cookie.as_str()), ("x-hookgate-csrf", "00")];
    let foreign_host = [
        ("cookie", cookie.as_str()),
        ("x-hookgate-csrf", csrf.as_str()),
        ("host", "attacker.example:80"),
    ];
    let foreign_origin = [
        ("cookie", cookie.as_str()),
        ("x-hookgate-csrf", csrf.as_str()),
        ("origin", "http://attacker.example"),
    ];
    for (method, headers) in [
        ("POST", &with_cookie[..]),
        ("POST", &wrong[..]),
        ("POST", &foreign_host[..]),
        ("POST", &foreign_origin[..]),
        ("GET", &with_cookie[..]),
    ] {
        let (status, _, _) = raw_request(addr, method, &approve, headers, body)
            .await
            .unwrap();
        assert!(
            [403, 405].contains(&status),
            "{method} {headers:?}: {status}"
        );
        assert_eq!(held_ids(&gateway).await, vec![id], "{method} {headers:?}");
    }
    // Every GET the page makes leaves the call held.
    for path in ["/", "/api/events", "/api/approvals", "/api/metrics"] {
        let (status, _, _) = raw_request(addr, "GET", path, &with_cookie, b"")
            .await
            .unwrap();
        assert_eq!(status, 200, "{path}");
    }
    assert_eq!(held_ids(&gateway).await, vec![id]);

    // With cookie and CSRF header: denied, as asked.
    let good = [
        ("cookie", cookie.as_str()),
        ("x-hookgate-csrf", csrf.as_str()),
    ];
    let deny = format!("/api/approvals/{id}/deny");
    let (status, _, answered) = raw_request(addr, "POST", &deny, &good, br#"{"reason":"no"}"#)
        .await
        .unwrap();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answered));
    let out = held.await.expect("the held shim");
    assert_claude_deny(&out, "PreToolUse", "no");
    assert!(held_ids(&gateway).await.is_empty());
}

/// Opens a live stream with `cookie` and reads its status line; the
/// connection (and the stream's place) stays open while it is kept.
async fn open_stream(addr: std::net::SocketAddr, cookie: &str) -> (u16, tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET /api/stream HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n") {
        let n = tokio::time::timeout(SHOWN_WITHIN, stream.read(&mut byte))
            .await
            .expect("a status line in time")
            .expect("read");
        assert_eq!(n, 1, "closed before a status line");
        head.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&head).into_owned();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {line}"));
    (status, stream)
}

#[tokio::test]
async fn streams_and_bodies_are_bounded() {
    let gateway = gateway_with("max_clients = 2").await;
    let url = login_url(&gateway).await;
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (addr, login_path) = rest.split_at(rest.find('/').expect("a path"));
    let addr = addr.parse().expect("a socket address");
    let (_, headers, _) = raw_request(addr, "GET", login_path, &[], b"")
        .await
        .unwrap();
    let cookie = headers
        .iter()
        .find(|(n, _)| n == "set-cookie")
        .and_then(|(_, v)| v.split(';').next())
        .expect("the session cookie")
        .to_owned();

    // Two streams open; a third is refused while they are; one closed
    // makes room again.
    let (first, first_stream) = open_stream(addr, &cookie).await;
    let (second, _second_stream) = open_stream(addr, &cookie).await;
    assert_eq!((first, second), (200, 200));
    let (third, _) = open_stream(addr, &cookie).await;
    assert_eq!(third, 503, "past max_clients");
    drop(first_stream);
    until("the closed stream's place never came back", || async {
        open_stream(addr, &cookie).await.0 == 200
    })
    .await;

    // A body past 16 KiB is refused before it is read as an answer.
    let (_, _, page) = raw_request(addr, "GET", "/", &[("cookie", cookie.as_str())], b"")
        .await
        .unwrap();
    let page = String::from_utf8_lossy(&page).into_owned();
    let csrf = page
        .split("name=\"hookgate-csrf\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the CSRF meta tag")
        .to_owned();
    let big = format!("{{\"reason\":\"{}\"}}", "x".repeat(32 * 1024));
    let headers = [
        ("cookie", cookie.as_str()),
        ("x-hookgate-csrf", csrf.as_str()),
    ];
    let (status, _, _) = raw_request(
        addr,
        "POST",
        "/api/approvals/1/deny",
        &headers,
        big.as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(status, 413);
}

/// Past 128 open connections (idle ones too: a request's head may take
/// 30 s) a new one is closed unanswered; one closed makes room again.
#[tokio::test]
async fn open_connections_are_bounded() {
    const MAX_CONNECTIONS: usize = 128;
    let gateway = gateway().await;
    let url = login_url(&gateway).await;
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (addr, login_path) = rest.split_at(rest.find('/').expect("a path"));
    let addr: std::net::SocketAddr = addr.parse().expect("a socket address");
    let mut idle = Vec::new();
    for _ in 0..MAX_CONNECTIONS {
        idle.push(tokio::net::TcpStream::connect(addr).await.expect("connect"));
    }
    // Accepted in order: this one comes after every idle one.
    let status = raw_request(addr, "GET", login_path, &[], b"")
        .await
        .map_or(0, |(status, _, _)| status);
    assert_eq!(
        status, 0,
        "answered past {MAX_CONNECTIONS} open connections"
    );
    drop(idle.pop());
    until("the closed connection's place never came back", || async {
        raw_request(addr, "GET", login_path, &[], b"")
            .await
            .is_ok_and(|(status, _, _)| status == 303)
    })
    .await;
}

/// Tries `attempt` every 50 ms until it holds; fails with `what` once
/// [`SHOWN_WITHIN`] has passed.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut attempt: impl FnMut() -> F) {
    let started = Instant::now();
    while !attempt().await {
        assert!(started.elapsed() < SHOWN_WITHIN, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Another local user's connection is closed before it is served, even
/// with the login token (Linux: the client socket's owner, as the HTTP
/// hook door checks it). Run as root, to connect as `nobody` with curl.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_users_connection_is_closed_even_with_the_token() {
    use crate::support::{AS_NOBODY, cannot_switch_users};
    if let Some(reason) = cannot_switch_users() {
        panic!("this test connects as `nobody` and needs root with setpriv: {reason}");
    }
    let gateway = gateway().await;
    let url = login_url(&gateway).await;
    let curl = |wrapper: &[&str]| {
        let out = std::process::Command::new(wrapper.first().copied().unwrap_or("curl"))
            .args(wrapper.iter().skip(1))
            .args(if wrapper.is_empty() {
                &[][..]
            } else {
                &["curl"][..]
            })
            .args(["-sS", "-o", "/dev/null", "-w", "%{http_code}", &url])
            .output()
            .expect("run curl");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(curl(&AS_NOBODY), "000", "nobody was answered");
    assert_eq!(curl(&[]), "303", "this user was not answered");
}
