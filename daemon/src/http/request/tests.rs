//! Tests of one HTTP hook request: the routes, and a refused call's answer
//! when fail-closed.

use super::*;

/// Method, path, query, and where it goes.
type Case<'a> = (
    &'a Method,
    &'a str,
    Option<&'a str>,
    Result<Route, StatusCode>,
);

/// A call refused before evaluation: fail-open keeps the error status
/// (a non-blocking error); fail-closed blocks, with or without the
/// event in the route.
#[test]
fn a_refused_call_blocks_when_fail_closed() {
    let route = |agent, event: Option<&str>, fail| Route {
        agent,
        event: event.map(str::to_owned),
        fail,
    };
    let open = refused(
        Some(&route(Agent::ClaudeCode, None, FailMode::Open)),
        StatusCode::PAYLOAD_TOO_LARGE,
        "too large",
        UNREAD_MESSAGE,
    );
    assert_eq!(open.status(), StatusCode::PAYLOAD_TOO_LARGE);
    for (agent, event, field, value) in [
        (
            Agent::ClaudeCode,
            Some("PreToolUse"),
            "/hookSpecificOutput/permissionDecision",
            "deny",
        ),
        (
            Agent::QwenCode,
            Some("PreToolUse"),
            "/hookSpecificOutput/permissionDecision",
            "deny",
        ),
        (Agent::ClaudeCode, None, "/decision", "block"),
    ] {
        let closed = refused(
            Some(&route(agent, event, FailMode::Closed)),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too large",
            UNREAD_MESSAGE,
        );
        assert_eq!(closed.status(), StatusCode::OK, "{agent:?} {event:?}");
        let body: &[u8] = &futures_body(closed);
        let json: serde_json::Value = serde_json::from_slice(body).unwrap();
        assert_eq!(
            json.pointer(field),
            Some(&value.into()),
            "{agent:?} {event:?}: {json}"
        );
    }
}

/// The whole body of a `Full` response.
fn futures_body(response: Response<Full<Bytes>>) -> Bytes {
    use http_body_util::BodyExt as _;
    let collected = response.into_body().collect();
    let waker = std::task::Waker::noop();
    let mut cx = std::task::Context::from_waker(waker);
    let mut collected = std::pin::pin!(collected);
    match collected.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(Ok(body)) => body.to_bytes(),
        other => panic!("a Full body is ready at once: {other:?}"),
    }
}

#[test]
fn routes() {
    let post = Method::POST;
    let ok = |agent, event: Option<&str>, fail| {
        Ok(Route {
            agent,
            event: event.map(str::to_owned),
            fail,
        })
    };
    let cases: [Case<'_>; 10] = [
        (
            &post,
            "/hook/claude-code",
            None,
            ok(Agent::ClaudeCode, None, FailMode::Open),
        ),
        (
            &post,
            "/hook/claude-code",
            Some("fail=closed"),
            ok(Agent::ClaudeCode, None, FailMode::Closed),
        ),
        (
            &post,
            "/hook/qwen-code/PreToolUse",
            Some("fail=open"),
            ok(Agent::QwenCode, Some("PreToolUse"), FailMode::Open),
        ),
        (
            &post,
            "/hook/claude-code",
            Some("fail=close"),
            ok(Agent::ClaudeCode, None, FailMode::Closed),
        ),
        (&post, "/hook/cursor", None, Err(StatusCode::NOT_FOUND)),
        (&post, "/hook/nobody", None, Err(StatusCode::NOT_FOUND)),
        (
            &post,
            "/hook/claude-code/Pre-Tool",
            None,
            Err(StatusCode::NOT_FOUND),
        ),
        (
            &post,
            "/hook/claude-code/a/b",
            None,
            Err(StatusCode::NOT_FOUND),
        ),
        (&post, "/metrics", None, Err(StatusCode::NOT_FOUND)),
        (
            &Method::GET,
            "/hook/claude-code",
            None,
            Err(StatusCode::METHOD_NOT_ALLOWED),
        ),
    ];
    for (method, path, query, expected) in cases {
        assert_eq!(
            route(method, path, query),
            expected,
            "{method} {path} {query:?}"
        );
    }
}
