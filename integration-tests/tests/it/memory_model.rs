//! Memory compressed by a model endpoint, through the real gateway and
//! shim, with a stand-in model server on loopback speaking the OpenAI chat
//! completions or the Anthropic messages API: the memories stored are the
//! model's; it is sent the session's log and no secret of it (and, on
//! plain `http://`, no key), and nothing for a log with nothing in it
//! (a session's end alone); and a model that hangs leaves every hook
//! answered, is counted in `gateway status`, keeps the raw observations
//! waiting, and is used once it answers again.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use hookgate_integration_tests::{TestGateway, private_dir};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::memory_support::{
    claude, codex, codex_tool_output, compressed, config, memory_cli, project, status_until, stored,
};

/// What the stand-in model says: one memory line with a marker only it
/// writes, and a line that is none.
const MODEL_SAYS: &str = "fact: MODEL-MEMORY-quokka the cache warms in 40 s\nnot a memory line";
/// A secret the session's output holds (masked before anything is kept).
const SECRET: &str = "AKIAIOSFODNN7QUOKKA1";

/// A stand-in model: records each request, answers [`MODEL_SAYS`] in the
/// API of `anthropic` (else OpenAI), or holds the request unanswered
/// while `hang` is set.
struct StandIn {
    url: String,
    hang: Arc<AtomicBool>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl StandIn {
    async fn start(anthropic: bool) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("local addr").port();
        let path = if anthropic {
            "/v1/messages"
        } else {
            "/v1/chat/completions"
        };
        let (hang, requests) = (Arc::new(AtomicBool::new(false)), Arc::default());
        let (h, r) = (Arc::clone(&hang), Arc::clone(&requests));
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, anthropic, Arc::clone(&h), Arc::clone(&r)));
            }
        });
        StandIn {
            url: format!("http://127.0.0.1:{port}{path}"),
            hang,
            requests,
        }
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().expect("requests").clone()
    }
}

async fn serve(
    mut stream: TcpStream,
    anthropic: bool,
    hang: Arc<AtomicBool>,
    requests: Arc<Mutex<Vec<String>>>,
) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    // Headers, then the body by its length (bounded: a test's requests).
    let body_at = loop {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if buf.len() > 1 << 20 {
            return;
        }
    };
    let head = String::from_utf8_lossy(&buf[..body_at]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0)
        .min(1 << 20);
    while buf.len() < body_at + length {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    requests
        .lock()
        .expect("requests")
        .push(String::from_utf8_lossy(&buf).into_owned());
    if hang.load(Ordering::SeqCst) {
        // Held open, unanswered, until the test ends.
        tokio::time::sleep(std::time::Duration::from_secs(600)).await;
        return;
    }
    let reply = if anthropic {
        json!({ "type": "message", "role": "assistant", "content": [{ "type": "text", "text": MODEL_SAYS }] })
    } else {
        json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": MODEL_SAYS } }] })
    }
    .to_string();
    let response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
        reply.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
}

/// The memory config with `[subscriber.model]` pointing at `model`.
fn model_config(db: &std::path::Path, model: &StandIn, kind: &str) -> String {
    format!(
        "{}\n[subscriber.model]\nkind = \"{kind}\"\nurl = \"{}\"\nmodel = \"tiny\"\ntimeout_ms = 500\n",
        config(db),
        model.url
    )
}

/// One Codex session in `cwd`: a prompt, a command printing a fact and a
/// secret, then its Stop once both are stored; every hook answered.
async fn session(gateway: &TestGateway, cwd: &std::path::Path, id: &str, before: u64) {
    let output = format!("cache warm-up took 40 s; key {SECRET}");
    let event = codex_tool_output(cwd, id, "make warm", &output);
    let reply = gateway.shim(Some("codex")).run(event).await;
    assert_eq!(reply.code, Some(0), "{reply}");
    status_until(gateway, |row| stored(row) > before).await;
    let reply = gateway
        .shim(Some("codex"))
        .run(codex("Stop.json", cwd, id))
        .await;
    assert_eq!(reply.code, Some(0), "{reply}");
}

async fn memories_are_the_models(kind: &str) {
    let model = StandIn::start(kind == "anthropic").await;
    let dir = private_dir();
    let cwd = project(dir.path(), "shop");
    let db = dir.path().join("memory.db");
    let gateway = TestGateway::start(&model_config(&db, &model, kind)).await;
    session(&gateway, &cwd, "codex-1", 0).await;
    compressed(&db, 1).await;

    let (code, stdout, stderr) = memory_cli(&db, &["search", "cache", "--json"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    let texts: Vec<String> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|m| m["text"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        texts,
        ["MODEL-MEMORY-quokka the cache warms in 40 s"],
        "{stdout}"
    );
    let told = claude(
        &gateway,
        "SessionStart.json",
        json!({ "cwd": cwd, "session_id": "c" }),
    )
    .await;
    assert!(told.contains("MODEL-MEMORY-quokka"), "{told:?}");

    let requests = model.requests();
    assert_eq!(requests.len(), 1, "{requests:#?}");
    let request = &requests[0];
    assert!(request.contains("cache warm-up took 40 s"), "{request}");
    assert!(!request.contains(SECRET), "a secret was sent: {request}");
    // A local model on loopback `http://` is sent no key (a key needs
    // `https://`).
    let lower = request.to_ascii_lowercase();
    assert!(
        !lower.contains("authorization:") && !lower.contains("x-api-key:"),
        "{request}"
    );
    let row = status_until(&gateway, |row| row["memory"]["model_compressed"] == 1).await;
    assert_eq!(row["memory"]["model_errors"], 0, "{row}");

    // The session's end alone (a second Stop): no log, so the model is
    // asked nothing and makes up no memory of it.
    let before = stored(&row);
    let reply = gateway
        .shim(Some("codex"))
        .run(codex("Stop.json", &cwd, "codex-1"))
        .await;
    assert_eq!(reply.code, Some(0), "{reply}");
    status_until(&gateway, |row| {
        stored(row) > before && row["memory"]["compressed"].as_u64() >= Some(2)
    })
    .await;
    let (_, stdout, _) = memory_cli(&db, &["stats", "--json"]).await;
    let stats: Value = serde_json::from_str(&stdout).expect("stats JSON");
    assert_eq!(stats["memories"], 1, "{stats}");
    assert_eq!(model.requests().len(), 1, "{:#?}", model.requests());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_openai_endpoint_makes_the_memories() {
    memories_are_the_models("openai").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_endpoint_makes_the_memories() {
    memories_are_the_models("anthropic").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_model_delays_no_hook_and_is_used_when_it_answers_again() {
    let model = StandIn::start(false).await;
    model.hang.store(true, Ordering::SeqCst);
    let dir = private_dir();
    let cwd = project(dir.path(), "shop");
    let db = dir.path().join("memory.db");
    let gateway = TestGateway::start(&model_config(&db, &model, "openai")).await;
    session(&gateway, &cwd, "codex-1", 0).await;
    let row = status_until(&gateway, |row| {
        row["memory"]["model_errors"].as_u64() >= Some(1)
    })
    .await;
    assert!(row["errors"].as_u64() >= Some(1), "{row}");
    // While the model hangs: hooks are answered, the raw observations wait.
    let start = json!({ "cwd": cwd, "session_id": "claude-1" });
    assert_eq!(
        claude(&gateway, "SessionStart.json", start.clone()).await,
        ""
    );
    session(&gateway, &cwd, "codex-2", 1).await;
    let (_, stdout, _) = memory_cli(&db, &["stats", "--json"]).await;
    let stats: Value = serde_json::from_str(&stdout).expect("stats JSON");
    assert!(stats["observations"].as_u64() >= Some(1), "{stats}");
    assert_eq!(stats["memories"], 0, "{stats}");

    // Back: a new session is compressed by it at once, and so then are
    // the two waiting ones, however long their back-off had grown (the
    // test waits on no back-off's length). Claude's session, not ended,
    // keeps its raw observation.
    model.hang.store(false, Ordering::SeqCst);
    let before = stored(&status_until(&gateway, |_| true).await);
    session(&gateway, &cwd, "codex-3", before).await;
    let row = status_until(&gateway, |row| {
        row["memory"]["model_compressed"].as_u64() >= Some(3)
    })
    .await;
    assert!(row["memory"]["model_errors"].as_u64() >= Some(1), "{row}");
    let (_, stdout, _) = memory_cli(&db, &["stats", "--json"]).await;
    let stats: Value = serde_json::from_str(&stdout).expect("stats JSON");
    assert_eq!(stats["memories"], 3, "{stats}\n{row}");
    assert_eq!(stats["pending_sessions"], 1, "{stats}");
    let told = claude(&gateway, "SessionStart.json", start).await;
    assert!(told.contains("MODEL-MEMORY-quokka"), "{told:?}");
}
