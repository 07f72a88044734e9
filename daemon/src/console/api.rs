//! The console's pages and JSON: the login (the token for a cookie), the
//! page and its script and style, the kept events, the held calls and
//! the answers to them (POST only, through the admin API's own
//! `approvals::answer`, channel `console`), and the subscribers' numbers.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use hookgate_proto::v1;
use serde_json::{Value, json};

use super::{Console, typed};
use crate::admin::approvals as admin_approvals;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");

/// The channel the decision log records for an answer given here.
const CHANNEL: &str = "console";

/// `/login?token=T`: a matching token sets the session cookie and sends the
/// browser on to `/`, so the token leaves the address bar.
pub(super) async fn login(State(console): State<Arc<Console>>, uri: Uri) -> Response {
    let token = uri
        .query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default();
    if !console.secrets.login_matches(token) {
        return (
            StatusCode::UNAUTHORIZED,
            "this login link is not valid (a new one each gateway start): run `gateway ui`",
        )
            .into_response();
    }
    let mut response = Redirect::to("/").into_response();
    if let Ok(cookie) = HeaderValue::from_str(&console.secrets.cookie()) {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// The page, with this start's CSRF value in its meta tag.
pub(super) async fn page(State(console): State<Arc<Console>>) -> Response {
    typed(
        "text/html; charset=utf-8",
        PAGE.replace("{{CSRF}}", console.secrets.csrf()),
    )
}

pub(super) async fn script() -> Response {
    typed("text/javascript; charset=utf-8", SCRIPT)
}

pub(super) async fn style() -> Response {
    typed("text/css; charset=utf-8", STYLE)
}

fn json_response(value: &Value) -> Response {
    typed("application/json", value.to_string())
}

/// The kept events' summaries, oldest first.
pub(super) async fn events(State(console): State<Arc<Console>>) -> Response {
    let summaries: Vec<Value> = console
        .feed
        .recent()
        .iter()
        .map(|e| e.summary.clone())
        .collect();
    json_response(&Value::Array(summaries))
}

/// One kept event's masked decision-log line.
pub(super) async fn event(State(console): State<Arc<Console>>, Path(id): Path<String>) -> Response {
    match console.feed.find(&id) {
        Some(entry) => json_response(&entry.detail),
        None => (StatusCode::NOT_FOUND, "no such event kept").into_response(),
    }
}

/// The held calls (masked by the registry).
pub(super) async fn approvals(State(console): State<Arc<Console>>) -> Response {
    json_response(&json!(console.approvals.list()))
}

/// `POST /api/approvals/ID/(approve|deny)` with `{"scope"}` or
/// `{"reason"}`: the same answer as `gateway approvals`.
pub(super) async fn answer(
    State(console): State<Arc<Console>>,
    Path((id, action)): Path<(u64, String)>,
    body: Bytes,
) -> Response {
    let body: Value = if body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_slice(&body) {
            Ok(value) => value,
            Err(_) => return (StatusCode::BAD_REQUEST, "the body is not JSON").into_response(),
        }
    };
    if action != "approve" && action != "deny" {
        return (StatusCode::NOT_FOUND, "approve or deny").into_response();
    }
    let text = |key: &str| body[key].as_str().unwrap_or_default().to_owned();
    let scope = match text("scope").as_str() {
        "" => "once".to_owned(),
        scope => scope.to_owned(),
    };
    let request = v1::ApprovalsRequest {
        action,
        id,
        scope,
        reason: text("reason"),
        approver: approver(),
        channel: CHANNEL.to_owned(),
    };
    match admin_approvals::answer(&console.approvals, &request) {
        Ok(held) => typed("application/json", held),
        Err(status) => {
            let code = match status.code() {
                tonic::Code::NotFound => StatusCode::NOT_FOUND,
                _ => StatusCode::BAD_REQUEST,
            };
            (code, status.message().to_owned()).into_response()
        }
    }
}

/// Who answers from the console: the gateway's user (only they can log
/// in), as `gateway approvals` names them by default.
fn approver() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "console".to_owned())
}

/// The subscribers' counts and latencies, and the console's own drops.
pub(super) async fn metrics(State(console): State<Arc<Console>>) -> Response {
    let doc = console.source.document().await;
    let mut value = serde_json::to_value(&doc).unwrap_or(Value::Null);
    let ours = json!({
        "dropped": console.feed.dropped.load(std::sync::atomic::Ordering::Relaxed),
        "lagged": console.feed.lagged.load(std::sync::atomic::Ordering::Relaxed),
    });
    value["console"] = ours;
    json_response(&json!({
        "subscribers": value["subscribers"],
        "console": value["console"],
        "uptime_secs": value["uptime_secs"],
    }))
}
