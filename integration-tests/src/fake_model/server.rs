//! The fake model's HTTP side: one axum fallback handler that records each
//! request, then answers it by route.
//!
//! Routes (query strings ignored): `POST …/messages` (Anthropic),
//! `POST …/chat/completions` (OpenAI), `POST …:streamGenerateContent` and
//! `…:generateContent` (Gemini), `POST …/responses` (OpenAI Responses),
//! `POST …/messages/count_tokens`, `…:countTokens`,
//! `GET …/models`, and any `HEAD` / `GET` as a connectivity probe (Claude
//! Code sends `HEAD /`). Anything else is recorded and answered 404.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fs::File;
use std::future::Future;
use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use super::record::{RecordedRequest, assistant_turns};
use super::script::Script;
use super::shell::BASH;
use super::{MODEL, anthropic, gemini, openai, responses};

/// Largest request body accepted (Claude Code's requests, with ~24 tool
/// schemas and the system prompt, are a few hundred KiB).
const MAX_BODY: usize = 32 * 1024 * 1024;

/// The server's state: the script and the request log.
#[derive(Debug)]
pub struct FakeModel {
    script: Script,
    log: Mutex<File>,
    /// Numbers the ids of replies (message, tool call), so each is unique.
    seq: AtomicU64,
}

impl FakeModel {
    /// A server following `script` and appending to the log at `log`
    /// (created now, so an empty log means "no request", not "no server").
    pub fn new(script: Script, log: &Path) -> std::io::Result<FakeModel> {
        let log = File::options().create(true).append(true).open(log)?;
        Ok(FakeModel {
            script,
            log: Mutex::new(log),
            seq: AtomicU64::new(0),
        })
    }

    /// Appends one line; the log is read by another process, so each line
    /// is written (and flushed) whole before the reply goes out.
    fn record(&self, request: &RecordedRequest) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(request).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut log = self
            .log
            .lock()
            .map_err(|_| std::io::Error::other("request log lock poisoned"))?;
        log.write_all(&line)?;
        log.flush()
    }

    /// The answer to `request`, and the note the log keeps of it.
    fn answer(&self, request: &RecordedRequest) -> (Value, Response) {
        let route = request.route();
        match request.method.as_str() {
            "HEAD" => (json!("probe"), StatusCode::OK.into_response()),
            "GET" if route.ends_with("/models") => {
                let list = json!({"object": "list", "data": [
                    {"id": MODEL, "object": "model", "created": 0, "owned_by": "hookgate-tests"},
                ]});
                (json!("models"), json_response(StatusCode::OK, &list))
            }
            "GET" => (
                json!("probe"),
                json_response(StatusCode::OK, &json!({"ok": true})),
            ),
            "POST" if route.ends_with("/messages/count_tokens") => (
                json!("count_tokens"),
                json_response(StatusCode::OK, &json!({"input_tokens": 42})),
            ),
            "POST" if route.ends_with("/messages") => self.converse(request, Api::Anthropic),
            "POST" if route.ends_with("/chat/completions") => self.converse(request, Api::OpenAi),
            "POST" if gemini::is_generate(route) => self.converse(request, Api::Gemini),
            "POST" if responses::is_responses(route) => self.converse(request, Api::Responses),
            "POST" if route.ends_with(":countTokens") => (
                json!("count_tokens"),
                json_response(StatusCode::OK, &json!({"totalTokens": 42})),
            ),
            _ => {
                let error =
                    json!({"error": {"type": "not_found", "message": format!("no route {route}")}});
                (json!("404"), json_response(StatusCode::NOT_FOUND, &error))
            }
        }
    }

    /// One scripted conversation turn.
    fn converse(&self, request: &RecordedRequest, api: Api) -> (Value, Response) {
        let body = &request.body;
        if !body.is_object() {
            let error = json!({"error": {"type": "invalid_request_error", "message": "body is not a JSON object"}});
            return (json!("400"), json_response(StatusCode::BAD_REQUEST, &error));
        }
        let shell = match api {
            Api::Anthropic => anthropic::shell_tool(body),
            Api::OpenAi => openai::shell_tool(body),
            Api::Gemini => gemini::shell_tool(body),
            Api::Responses => responses::shell_tool(body),
        };
        let step = self.script.answer(assistant_turns(body), shell.is_some());
        // Without a shell the step is text, which names no tool.
        let shell = shell.unwrap_or(BASH);
        let seq = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let model = match api {
            Api::Gemini => gemini::model_in(request.route()),
            _ => body.get("model").and_then(Value::as_str),
        }
        .unwrap_or(MODEL);
        let stream = match api {
            Api::Gemini => request.route().ends_with(":streamGenerateContent"),
            _ => body.get("stream").and_then(Value::as_bool) == Some(true),
        };
        let note = serde_json::to_value(&step).unwrap_or(Value::Null);
        let response = match (api, stream) {
            (Api::Anthropic, true) => sse(anthropic::events(&step, shell, seq, model)),
            (Api::OpenAi, true) => sse(openai::events(&step, shell, seq, model)),
            (Api::Anthropic, false) => json_response(
                StatusCode::OK,
                &anthropic::message(&step, shell, seq, model),
            ),
            (Api::OpenAi, false) => json_response(
                StatusCode::OK,
                &openai::completion(&step, shell, seq, model),
            ),
            (Api::Gemini, true) => sse(gemini::events(&step, shell, seq, model)),
            (Api::Responses, true) => sse(responses::events(&step, shell, seq, model)),
            (Api::Responses, false) => json_response(
                StatusCode::OK,
                &responses::response(&step, shell, seq, model),
            ),
            (Api::Gemini, false) => {
                json_response(StatusCode::OK, &gemini::response(&step, shell, seq, model))
            }
        };
        (note, response)
    }
}

#[derive(Debug, Clone, Copy)]
enum Api {
    Anthropic,
    OpenAi,
    Gemini,
    Responses,
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

/// A streamed body (chunked transfer encoding), one chunk per event.
fn sse(events: Vec<String>) -> Response {
    let chunks = events
        .into_iter()
        .map(|event| Ok::<_, Infallible>(Bytes::from(event)));
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(futures_util::stream::iter(chunks)),
    )
        .into_response()
}

async fn handle(
    State(model): State<Arc<FakeModel>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let headers: BTreeMap<String, String> = headers
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    let mut request = RecordedRequest::new(method.as_str(), path, headers, &body);
    let (note, response) = model.answer(&request);
    request.reply = note;
    if let Err(err) = model.record(&request) {
        // A request the test cannot see must not look answered.
        eprintln!("fake-model: cannot record {method} {path}: {err}");
        return (StatusCode::INTERNAL_SERVER_ERROR, "request log unwritable").into_response();
    }
    response
}

/// Serves `model` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    model: Arc<FakeModel>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = Router::new()
        .fallback(handle)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(model);
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;
    use crate::fake_model::{Step, read_requests};

    /// One raw HTTP/1.1 exchange (`Connection: close`), as text.
    async fn exchange(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.unwrap();
        String::from_utf8(response).unwrap()
    }

    #[tokio::test]
    async fn records_each_request_and_streams_the_scripted_turn() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("requests.jsonl");
        let script = Script::shell_then_text("touch m", "done");
        let model = Arc::new(FakeModel::new(script, &log).unwrap());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, model, async move {
            let _ = stopped.await;
        }));

        let probe = exchange(addr, "HEAD", "/", "").await;
        assert!(probe.starts_with("HTTP/1.1 200"), "{probe}");
        let body = r#"{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}"#;
        let turn = exchange(addr, "POST", "/v1/messages?beta=true", body).await;
        assert!(turn.starts_with("HTTP/1.1 200"), "{turn}");
        let lower = turn.to_ascii_lowercase();
        assert!(lower.contains("content-type: text/event-stream"), "{turn}");
        assert!(lower.contains("transfer-encoding: chunked"), "{turn}");
        assert!(turn.contains("event: message_stop"), "{turn}");
        let missing = exchange(addr, "POST", "/v2/elsewhere", "{}").await;
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");

        let _ = stop.send(());
        server.await.unwrap().unwrap();
        let requests = read_requests(&log).unwrap();
        let routes: Vec<(&str, &str)> = requests
            .iter()
            .map(|r| (r.method.as_str(), r.route()))
            .collect();
        assert_eq!(
            routes,
            [
                ("HEAD", "/"),
                ("POST", "/v1/messages"),
                ("POST", "/v2/elsewhere")
            ]
        );
        assert!(requests[1].is_model_call());
        assert_eq!(requests[1].messages().len(), 1);
        let step: Step = serde_json::from_value(requests[1].reply.clone()).unwrap();
        assert_eq!(
            step,
            Step::Shell {
                command: "touch m".into()
            }
        );
    }
}
