//! An `approval`'s notifications through the real gateway and shim: one
//! POST per held call to each webhook (generic JSON, Slack, ntfy bodies)
//! received by a local stand-in server, with the input masked and the
//! console link; a webhook nobody serves is counted as failed in `gateway
//! status` and delays nothing; the desktop notification runs a stand-in
//! `notify-send` from PATH with the summary as its arguments, no shell;
//! an `https://` webhook is posted over TLS to a stand-in whose CA the
//! gateway trusts as a system root.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hookgate_integration_tests::TestGateway;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};

use crate::approvals::{approvals, call, gateway, listed};

const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const CONSOLE: &str = "http://127.0.0.1:7777/approvals";
/// How long a test waits for what the gateway sends.
const WITHIN: Duration = Duration::from_secs(15);

/// One request the stand-in received: path, headers (lowercase), body.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A loopback HTTP server answering 200 to every request, keeping them.
async fn stand_in() -> (String, Arc<Mutex<Vec<Received>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the stand-in");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    let got = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&got);
    tokio::spawn(async move {
        while let Ok((mut conn, _)) = listener.accept().await {
            let kept = Arc::clone(&kept);
            tokio::spawn(async move { serve(&mut conn, &kept).await });
        }
    });
    (base, got)
}

/// Answers 200 to each request on `conn`, keeping it.
async fn serve<S: AsyncRead + AsyncWrite + Unpin>(conn: &mut S, kept: &Mutex<Vec<Received>>) {
    while let Some(received) = read_request(conn).await {
        kept.lock().expect("the stand-in's list").push(received);
        let answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        if conn.write_all(answer.as_bytes()).await.is_err() || conn.flush().await.is_err() {
            return;
        }
    }
}

/// One HTTP/1.1 request with a content-length body, or `None` at the end.
async fn read_request<S: AsyncRead + Unpin>(conn: &mut S) -> Option<Received> {
    let mut buf = Vec::new();
    let end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let mut chunk = [0u8; 4096];
        let n = conn.read(&mut chunk).await.ok().filter(|n| *n > 0)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[end + 4..].to_vec();
    while body.len() < len {
        let mut chunk = [0u8; 4096];
        let n = conn.read(&mut chunk).await.ok().filter(|n| *n > 0)?;
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Received {
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// The `notifications` counters of subscriber `hold`, once they reach
/// `total` (sent + failed).
async fn notifications(gateway: &TestGateway, total: u64) -> Value {
    let start = Instant::now();
    loop {
        let status = gateway.status_json().await;
        let counts = status["subscribers"]
            .as_array()
            .and_then(|subs| subs.iter().find(|s| s["name"] == "hold"))
            .map(|s| s["notifications"].clone())
            .unwrap_or(Value::Null);
        let sum = counts["sent"].as_u64().unwrap_or(0) + counts["failed"].as_u64().unwrap_or(0);
        if sum >= total {
            return counts;
        }
        assert!(start.elapsed() < WITHIN, "notifications: {counts}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Holds `command`, waits until `total` notifications were sent or
/// failed, then denies the call and waits for its shim; returns the held
/// call's id and the `notifications` counters.
async fn held_then_denied(gateway: &TestGateway, command: &str, total: u64) -> (u64, Value) {
    let shim = call(gateway, command, Some(60_000));
    let held = listed(gateway.socket(), 1).await;
    let id = held[0]["id"].as_u64().expect("an id");
    let counts = notifications(gateway, total).await;
    let (code, _, stderr) = approvals(gateway.socket(), &["deny", &id.to_string()]).await;
    assert_eq!(code, Some(0), "{stderr}");
    shim.await.expect("the shim task");
    (id, counts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_webhook_gets_one_masked_notice_per_held_call() {
    let (base, got) = stand_in().await;
    // A port nobody serves: bound, then let go.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let dead_url = format!("http://{}/gone", dead.local_addr().expect("its address"));
    drop(dead);
    let keys = format!(
        "hold_ms = 30000\nconsole_url = {CONSOLE:?}\nwebhooks = [\n\
         {{ url = \"{base}/json\" }},\n\
         {{ url = \"{base}/slack\", format = \"slack\" }},\n\
         {{ url = \"{base}/ntfy\", format = \"ntfy\", timeout_ms = 2000 }},\n\
         {{ url = {dead_url:?}, timeout_ms = 1000 }},\n]"
    );
    let gateway = gateway(&keys).await;
    // Not held: no notice.
    let ls = call(&gateway, "ls -la", Some(60_000))
        .await
        .expect("the shim");
    assert_eq!(ls.code, Some(0), "{ls}");

    let (id, counts) = held_then_denied(&gateway, &format!("make deploy TOKEN={SECRET}"), 4).await;
    assert_eq!(counts["sent"], 3, "{counts}");
    assert_eq!(counts["failed"], 1, "{counts}");

    let got = got.lock().expect("the stand-in's list").clone();
    let paths: Vec<&str> = got.iter().map(|r| r.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["/json", "/ntfy", "/slack"], "{got:?}");
    for received in &got {
        assert!(!received.body.contains(SECRET), "{received:?}");
        assert!(received.body.contains("make deploy"), "{received:?}");
        assert!(received.body.contains(CONSOLE), "{received:?}");
    }
    let by = |path: &str| got.iter().find(|r| r.path == path).expect("received");

    let json: Value = serde_json::from_str(&by("/json").body).expect("a JSON body");
    assert_eq!(json["type"], "approval.held", "{json}");
    assert_eq!(json["id"], id, "{json}");
    assert_eq!(json["agent"], "claude-code", "{json}");
    assert_eq!(json["tool"], "Bash", "{json}");
    assert_eq!(json["rule"], "deploy", "{json}");
    assert!(json["session"].is_string(), "{json}");
    assert!(
        json["time_left_ms"].as_u64().is_some_and(|ms| ms > 0),
        "{json}"
    );
    assert_eq!(json["console_url"], CONSOLE, "{json}");

    let slack: Value = serde_json::from_str(&by("/slack").body).expect("a JSON body");
    let text = slack["text"].as_str().expect("Slack's text");
    assert!(
        text.contains(&format!("gateway approvals approve {id}")),
        "{text}"
    );

    let ntfy = by("/ntfy");
    assert_eq!(
        ntfy.header("title"),
        Some("hookgate: hold holds Bash of claude-code")
    );
    assert_eq!(ntfy.header("click"), Some(CONSOLE));
    assert!(
        ntfy.body.starts_with("claude-code wants to run Bash: "),
        "{ntfy:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desktop_notifier_gets_the_masked_summary_as_arguments() {
    let dir = hookgate_integration_tests::private_dir();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("the stand-in's directory");
    let record = dir.path().join("notify-send.args");
    let script = format!(
        "#!/bin/sh\nfor arg in \"$@\"; do printf '%s\\n--\\n' \"$arg\"; done >> '{}'\n",
        record.display()
    );
    let program = bin.join("notify-send");
    std::fs::write(&program, script).expect("write the stand-in");
    let mut perms = std::fs::metadata(&program)
        .expect("its metadata")
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&program, perms).expect("make it executable");
    let pwned = dir.path().join("pwned");
    let config = "[[subscriber]]\nname = \"hold\"\nbuiltin = \"approval\"\nhold_ms = 30000\n\
                  desktop = true\n\n[[subscriber.rules]]\nid = \"deploy\"\n\
                  shell = \"^make deploy\"\nreason = \"deploys need a person\"\n";
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let gateway = TestGateway::start_with_env(config, &[("PATH", &path)]).await;

    let command = format!(
        "make deploy TOKEN={SECRET} \"$(touch {})\"",
        pwned.display()
    );
    let (id, counts) = held_then_denied(&gateway, &command, 1).await;
    assert_eq!(counts["sent"], 1, "{counts}");

    let args = std::fs::read_to_string(&record).expect("the stand-in ran");
    let args: Vec<&str> = args.split("\n--\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(args.len(), 4, "{args:?}");
    assert_eq!(args[0], "--app-name=hookgate");
    assert_eq!(args[1], "--");
    assert_eq!(args[2], "hookgate: hold holds Bash of claude-code");
    assert!(
        args[3].starts_with("claude-code wants to run Bash: "),
        "{}",
        args[3]
    );
    assert!(args[3].contains("$(touch "), "{}", args[3]);
    assert!(
        args[3].contains(&format!("gateway approvals approve {id}")),
        "{}",
        args[3]
    );
    assert!(!args[3].contains(SECRET), "{}", args[3]);
    assert!(!pwned.exists(), "the summary went through a shell");
}

/// A TLS stand-in: `stand_in`'s server behind rustls, with a certificate
/// for 127.0.0.1 from a throw-away CA written to `dir/ca.pem`.
async fn tls_stand_in(dir: &std::path::Path) -> (String, Arc<Mutex<Vec<Received>>>, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca =
        CertifiedIssuer::self_signed(params, KeyPair::generate().expect("CA key")).expect("a CA");
    let key = KeyPair::generate().expect("a key");
    let cert = CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .expect("leaf params")
        .signed_by(&key, &ca)
        .expect("a certificate");
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).expect("write the CA");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .expect("the server's certificate");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the stand-in");
    let base = format!("https://{}", listener.local_addr().expect("its address"));
    let got = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&got);
    tokio::spawn(async move {
        while let Ok((conn, _)) = listener.accept().await {
            let (kept, acceptor) = (Arc::clone(&kept), acceptor.clone());
            tokio::spawn(async move {
                let Ok(mut conn) = acceptor.accept(conn).await else {
                    return;
                };
                serve(&mut conn, &kept).await;
            });
        }
    });
    (base, got, ca_file)
}

/// https works: the webhook's server is trusted through the system's
/// roots (here `SSL_CERT_FILE`, as rustls-native-certs reads it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_webhook_is_posted_over_tls() {
    let dir = hookgate_integration_tests::private_dir();
    let (base, got, ca_file) = tls_stand_in(dir.path()).await;
    let config = format!(
        "[[subscriber]]\nname = \"hold\"\nbuiltin = \"approval\"\nhold_ms = 30000\n\
         webhooks = [{{ url = \"{base}/tls\" }}]\n\n[[subscriber.rules]]\nid = \"deploy\"\n\
         shell = \"^make deploy\"\nreason = \"deploys need a person\"\n"
    );
    let ca = ca_file.display().to_string();
    let gateway = TestGateway::start_with_env(&config, &[("SSL_CERT_FILE", &ca)]).await;
    let (id, counts) = held_then_denied(&gateway, &format!("make deploy TOKEN={SECRET}"), 1).await;
    assert_eq!(counts["sent"], 1, "{counts}");
    let got = got.lock().expect("the stand-in's list").clone();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].path, "/tls");
    assert!(!got[0].body.contains(SECRET), "{:?}", got[0]);
    let json: Value = serde_json::from_str(&got[0].body).expect("a JSON body");
    assert_eq!(json["id"], id, "{json}");
}
