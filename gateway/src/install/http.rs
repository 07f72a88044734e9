//! `gateway install --transport http`: the agent's hook is a `type:
//! "http"` handler POSTing to the gateway's `[http]` endpoint, not the
//! shim, for the agents with HTTP hooks (Claude Code, Qwen Code).
//!
//! The handler carries the token itself (`Authorization: Bearer …`), so
//! nothing has to be exported for the agent: the alternative, the
//! agent's settings `env` and `allowedEnvVars`, would also put it in every
//! tool's environment. The file holding it is made 0600. The agent's own
//! `onFailure: "block"` (with `--fail-closed`) covers a gateway that is
//! down, as the shim's fail mode does for command hooks; the endpoint
//! also gets `?fail=closed` so the gateway blocks what it cannot read.

use std::path::Path;

use anyhow::{Context as _, bail};
use hookgate_adapters::Agent;
use hookgate_config::Config;
use hookgate_daemon::http::token;

use super::json::Json;

/// Where the endpoint is and what it wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpTarget {
    /// `[http] listen`: the port the service manager holds (`service`).
    pub(crate) listen: std::net::SocketAddr,
    /// `http://127.0.0.1:8787`.
    pub(crate) base: String,
    pub(crate) token: String,
}

/// The gateway's `[http]` address (from the config `gateway serve` would
/// load) and its token (created if absent where `gateway serve` keeps it:
/// [`token::token_path`]).
pub(crate) fn target(socket: &Path) -> anyhow::Result<HttpTarget> {
    let config = Config::load(None).context("reading the gateway config for its [http] section")?;
    let Some(http) = config.http else {
        bail!(
            "--transport http needs the HTTP endpoint on: add `[http]` with `listen = \"127.0.0.1:8787\"` to {} (then restart the gateway)",
            config.origin
        );
    };
    if http.listen.port() == 0 {
        bail!(
            "[http] listen in {} has port 0; agents need a fixed port",
            config.origin
        );
    }
    let path = token::token_path(socket)?;
    let token = token::load_or_create(&path)
        .with_context(|| format!("the HTTP token {}", path.display()))?;
    Ok(HttpTarget {
        listen: http.listen,
        base: format!("http://{}", http.listen),
        token: token.expose().to_owned(),
    })
}

/// The `[http]` port the gateway serves whatever the transport, for the
/// service manager to hold: `None` when the config has no `[http]`, has
/// port 0, or cannot be read (a command install does not need it).
pub(crate) fn served_port() -> Option<std::net::SocketAddr> {
    let http = Config::load(None).ok()?.http?;
    (http.listen.port() != 0).then_some(http.listen)
}

/// The handler for `agent`; `fail_closed` asks the gateway to block what
/// it cannot read, and `switch` is the agent's own fail-closed key.
pub(crate) fn handler(
    target: &HttpTarget,
    agent: Agent,
    timeout: u64,
    fail_closed: bool,
    switch: Option<(&str, Json)>,
) -> Json {
    let mut url = format!("{}/hook/{}", target.base, agent.as_str());
    if fail_closed {
        url.push_str("?fail=closed");
    }
    let headers = Json::Object(vec![(
        "Authorization".to_owned(),
        Json::str(&format!("Bearer {}", target.token)),
    )]);
    let mut members = vec![
        ("type".to_owned(), Json::str("http")),
        ("url".to_owned(), Json::str(&url)),
        ("headers".to_owned(), headers),
        ("timeout".to_owned(), Json::uint(timeout)),
    ];
    if let Some((key, value)) = switch {
        members.push((key.to_owned(), value));
    }
    Json::Object(members)
}

/// `text` (a `--dry-run` diff) with every bearer token replaced by a
/// placeholder: the diff is for a terminal, a log or a pasted issue, and
/// the token is what keeps other local users' requests out.
pub(crate) fn mask_tokens(text: &str) -> String {
    const BEARER: &str = "Bearer ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(BEARER) {
        let (before, after) = rest.split_at(at + BEARER.len());
        out.push_str(before);
        let end = after.find(['"', '\'', '\n']).unwrap_or(after.len());
        if end > 0 {
            out.push_str("<the HTTP token>");
        }
        rest = after.get(end..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// Makes `path` (an agent config now holding the token) 0600.
#[cfg(unix)]
pub(crate) fn make_private(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).with_context(|| {
        format!(
            "making {} private (it holds the HTTP token)",
            path.display()
        )
    })
}

#[cfg(not(unix))]
pub(crate) fn make_private(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// Whether `handler` is an HTTP handler install wrote: `type: "http"` to
/// a loopback `/hook/<agent>` URL.
pub(crate) fn is_ours(handler: &Json) -> bool {
    let url = handler.get("url").and_then(Json::as_str).unwrap_or("");
    let loopback = ["http://127.0.0.1:", "http://[::1]:", "http://localhost:"]
        .iter()
        .any(|p| url.starts_with(p));
    handler.get("type").and_then(Json::as_str) == Some("http") && loopback && url.contains("/hook/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dry_run_diffs_show_no_token() {
        let diff = "+        \"Authorization\": \"Bearer s3cr3t-t0k\"\n+ x\n Bearer \n";
        assert_eq!(
            mask_tokens(diff),
            "+        \"Authorization\": \"Bearer <the HTTP token>\"\n+ x\n Bearer \n"
        );
        assert_eq!(mask_tokens("no token"), "no token");
    }

    #[test]
    fn the_handler_is_recognized_as_ours_and_carries_the_token() {
        let target = HttpTarget {
            listen: "127.0.0.1:8787".parse().unwrap(),
            base: "http://127.0.0.1:8787".to_owned(),
            token: "t0k".to_owned(),
        };
        let open = handler(&target, Agent::ClaudeCode, 30, false, None);
        let closed = handler(
            &target,
            Agent::QwenCode,
            30,
            true,
            Some(("onFailure", Json::str("block"))),
        );
        let expected = r#"{"type":"http","url":"http://127.0.0.1:8787/hook/claude-code","headers":{"Authorization":"Bearer t0k"},"timeout":30}"#;
        assert_eq!(open, Json::parse(expected).unwrap());
        assert_eq!(
            closed.get("url").and_then(Json::as_str),
            Some("http://127.0.0.1:8787/hook/qwen-code?fail=closed")
        );
        assert_eq!(closed.get("onFailure"), Some(&Json::str("block")));
        for ours in [&open, &closed] {
            assert!(is_ours(ours));
        }
        let theirs =
            Json::parse(r#"{"type":"http","url":"https://hooks.example.com/hook/x"}"#).unwrap();
        assert!(!is_ours(&theirs));
    }
}
