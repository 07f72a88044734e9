//! One HTTP hook request: the token, the route, the body under the memory
//! budget and a deadline, an evaluation slot, the pipeline, the answer.
//!
//! The route names the agent as the shim's arguments do:
//! `POST /hook/<agent>[/<event>][?fail=closed]`, where `<event>` is for
//! payloads that name none and `fail` is the hook call's fail mode (the
//! shim's `--fail-closed`); the route becomes a typed `HookCall`.

use hookgate_adapters::{self as adapters, Agent, FailMode, HttpReply};
use hookgate_wire::MAX_STDIN;
use http::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderValue, Method, Response, StatusCode};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Bytes;
use hyper::body::Incoming;

use super::Token;
use crate::admission::Admission;
use crate::hook_call::HookCall;
use crate::metrics::HttpRefusal;
use crate::warnings::{self, Warning};

/// Told to the user and model when a fail-closed hook call is blocked
/// because no decision could be had in time.
const BUSY_MESSAGE: &str = "hookgate blocked this: the gateway is too busy to decide now (fail-closed); \
     `gateway status` counts it under `http refused`";

/// Told when a fail-closed hook call is blocked because its payload was
/// over the limit, unreadable or late.
const UNREAD_MESSAGE: &str = "hookgate blocked this: the hook payload was over the size limit or did not arrive in full in time (fail-closed); `gateway status` counts it under `http refused`";

/// Told when a fail-closed hook call is blocked because it carried no
/// valid token.
const TOKEN_MESSAGE: &str = "hookgate blocked this: the HTTP hook's token is missing or not the gateway's (fail-closed); run `gateway install --transport http` again or check with `gateway doctor`";

/// Where a request goes.
#[derive(Debug, PartialEq, Eq)]
struct Route {
    agent: Agent,
    event: Option<String>,
    fail: FailMode,
}

pub(super) async fn answer(
    shared: &Admission,
    token: &Token,
    req: hyper::Request<Incoming>,
) -> Response<Full<Bytes>> {
    let routed = route(req.method(), req.uri().path(), req.uri().query());
    if let Err(reason) = authorize(token, &req) {
        shared.metrics.http_refused(reason);
        // A stale or missing token must not turn a fail-closed hook open.
        let mut response = refused(
            routed.as_ref().ok(),
            StatusCode::UNAUTHORIZED,
            "hookgate: this endpoint needs `Authorization: Bearer <token>`, the token in the gateway's http.token file",
            TOKEN_MESSAGE,
        );
        if response.status() == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        return response;
    }
    match routed {
        Ok(route) => evaluate(shared, &route, req).await,
        Err(status) => {
            shared.metrics.http_refused(HttpRefusal::NotFound);
            plain(
                status,
                "hookgate: POST /hook/<agent>[/<event>][?fail=open|closed], for an agent with HTTP hooks",
            )
        }
    }
}

/// An authorized, routed hook call: its body under the budget and the
/// read deadline, a slot, the pipeline. When no decision can be had the
/// call's fail mode answers, as the shim's would.
async fn evaluate(
    shared: &Admission,
    route: &Route,
    req: hyper::Request<Incoming>,
) -> Response<Full<Bytes>> {
    let Some(length) = content_length(&req).filter(|len| *len <= MAX_STDIN) else {
        shared.metrics.http_refused(HttpRefusal::Oversize);
        return refused(
            Some(route),
            StatusCode::PAYLOAD_TOO_LARGE,
            "hookgate: the body needs a Content-Length of at most the hook payload limit",
            UNREAD_MESSAGE,
        );
    };
    let Some(reservation) = shared.budget.try_reserve_request(length) else {
        shared.metrics.http_refused(HttpRefusal::OverBudget);
        warnings::warn(
            Warning::Budget,
            format_args!(
                "an HTTP hook body of {length} bytes does not fit in the memory budget now; answered with its fail mode"
            ),
        );
        return busy(route, None);
    };
    let body = match read_body(shared, route, req, length).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let Some(_slot) = shared.slot().await else {
        shared.metrics.http_refused(HttpRefusal::Busy);
        warnings::warn(
            Warning::Connection,
            format_args!(
                "no evaluation slot within {:?} for an HTTP hook; answered with its fail mode",
                shared.queue_wait
            ),
        );
        return busy(route, Some(&body));
    };
    let call = HookCall::http(route.agent, route.event.clone(), route.fail, body.to_vec());
    let answered = shared.pipeline.handle(call, Some(reservation)).await;
    reply(adapters::http_reply(&answered))
}

/// The body, at most `length` bytes, within the read deadline.
async fn read_body(
    shared: &Admission,
    route: &Route,
    req: hyper::Request<Incoming>,
    length: usize,
) -> Result<Bytes, Response<Full<Bytes>>> {
    let body = Limited::new(req.into_body(), length).collect();
    match tokio::time::timeout(shared.read_timeout, body).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(err)) => {
            shared.metrics.http_refused(HttpRefusal::Oversize);
            tracing::debug!(error = %err, "HTTP hook body unreadable");
            Err(refused(
                Some(route),
                StatusCode::BAD_REQUEST,
                "hookgate: the body could not be read in full",
                UNREAD_MESSAGE,
            ))
        }
        Err(_elapsed) => {
            shared.metrics.http_refused(HttpRefusal::ReadTimeout);
            Err(refused(
                Some(route),
                StatusCode::REQUEST_TIMEOUT,
                "hookgate: the body did not arrive in time",
                UNREAD_MESSAGE,
            ))
        }
    }
}

/// A hook call refused before evaluation (no valid token; a payload over
/// the limit, unreadable or late). Fail-open, or no route to read the
/// mode from: `status`, which agents read as a non-blocking hook error.
/// Fail-closed: the blocking fallback, since an error status would let the
/// call through (a payload padded past the limit, or a stale token, must
/// not be a way past the guard).
fn refused(
    route: Option<&Route>,
    status: StatusCode,
    text: &'static str,
    message: &str,
) -> Response<Full<Bytes>> {
    match route {
        Some(route) if route.fail == FailMode::Closed => reply(adapters::http_fallback(
            route.agent,
            None,
            route.event.as_deref(),
            FailMode::Closed,
            message,
        )),
        _ => plain(status, text),
    }
}

/// The hook call's fail-mode answer when the gateway is too busy to
/// decide (the payload, when read, lets it name the event).
fn busy(route: &Route, body: Option<&[u8]>) -> Response<Full<Bytes>> {
    reply(adapters::http_fallback(
        route.agent,
        body,
        route.event.as_deref(),
        route.fail,
        BUSY_MESSAGE,
    ))
}

/// The bearer token must be this gateway's, compared in constant time.
fn authorize(expected: &Token, req: &hyper::Request<Incoming>) -> Result<(), HttpRefusal> {
    let header = req
        .headers()
        .get(AUTHORIZATION)
        .ok_or(HttpRefusal::NoToken)?;
    let token = header
        .as_bytes()
        .strip_prefix(b"Bearer ")
        .map(<[u8]>::trim_ascii)
        .filter(|t| !t.is_empty())
        .ok_or(HttpRefusal::NoToken)?;
    if expected.matches(token) {
        Ok(())
    } else {
        Err(HttpRefusal::BadToken)
    }
}

/// `POST /hook/<agent>[/<event>]` with an optional `fail=open|closed`; a
/// bad path or method is an error status. Any query but `fail=open` is
/// fail-closed: an error status would be a non-blocking error to the
/// agent, so a mistyped `fail=closd` would quietly let calls through.
fn route(method: &Method, path: &str, query: Option<&str>) -> Result<Route, StatusCode> {
    let mut parts = path
        .strip_prefix("/hook/")
        .ok_or(StatusCode::NOT_FOUND)?
        .split('/');
    let agent: Agent = parts
        .next()
        .and_then(|a| a.parse().ok())
        .filter(|a| adapters::speaks_http(*a))
        .ok_or(StatusCode::NOT_FOUND)?;
    let event = match parts.next() {
        None => None,
        Some(e) if (1..=64).contains(&e.len()) && e.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Some(e.to_owned())
        }
        Some(_) => return Err(StatusCode::NOT_FOUND),
    };
    if parts.next().is_some() {
        return Err(StatusCode::NOT_FOUND);
    }
    let fail = match query {
        None | Some("" | "fail=open") => FailMode::Open,
        Some(_) => FailMode::Closed,
    };
    if method != Method::POST {
        return Err(StatusCode::METHOD_NOT_ALLOWED);
    }
    Ok(Route { agent, event, fail })
}

fn content_length(req: &hyper::Request<Incoming>) -> Option<usize> {
    req.headers()
        .get(CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn reply(answer: HttpReply) -> Response<Full<Bytes>> {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = Response::new(Full::new(Bytes::from(answer.body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(answer.content_type));
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    reply(HttpReply {
        status: status.as_u16(),
        content_type: "text/plain; charset=utf-8",
        body: text.as_bytes().to_vec(),
    })
}

#[cfg(test)]
mod tests;
