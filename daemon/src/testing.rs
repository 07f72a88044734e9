//! Test support: canonical events built by hand, fake gRPC subscribers,
//! and shim requests carrying adapters' own sample payloads.
//!
//! Pipeline tests feed a Claude Code fixture in (something must be
//! parsed), but assert on the canonical decision and counters and compare
//! the reply with `hookgate_adapters::render`'s: the dialect stays in
//! `adapters`.

pub(crate) use hookgate_adapters::sample::{event, shell_tool};

/// How a fake subscriber answers one event.
pub(crate) type Behaviour = std::sync::Arc<
    dyn Fn(
            hookgate_proto::v1::HookEvent,
        ) -> futures_util::future::BoxFuture<
            'static,
            Result<hookgate_proto::v1::Decision, tonic::Status>,
        > + Send
        + Sync,
>;

struct Fake(Behaviour);

#[tonic::async_trait]
impl hookgate_proto::v1::subscriber_server::Subscriber for Fake {
    async fn on_event(
        &self,
        request: tonic::Request<hookgate_proto::v1::HookEvent>,
    ) -> Result<tonic::Response<hookgate_proto::v1::Decision>, tonic::Status> {
        (self.0)(request.into_inner())
            .await
            .map(tonic::Response::new)
    }
}

/// Starts an in-process gRPC subscriber on a free localhost port and
/// returns its endpoint (`http://127.0.0.1:PORT`). It runs until the test's
/// runtime ends.
pub(crate) async fn fake_subscriber(behaviour: Behaviour) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let service = hookgate_proto::v1::subscriber_server::SubscriberServer::new(Fake(behaviour));
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(service)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    format!("http://{addr}")
}

/// Like [`fake_subscriber`], on a Unix socket at `path`; returns
/// `unix://PATH`.
#[cfg(unix)]
pub(crate) async fn fake_unix_subscriber(behaviour: Behaviour, path: &std::path::Path) -> String {
    let listener = tokio::net::UnixListener::bind(path).unwrap();
    let service = hookgate_proto::v1::subscriber_server::SubscriberServer::new(Fake(behaviour));
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(service)
            .serve_with_incoming(tokio_stream::wrappers::UnixListenerStream::new(listener)),
    );
    format!("unix://{}", path.display())
}

/// A Claude Code payload of `event` (a fixture of adapters' test data),
/// with `edit` applied.
pub(crate) fn claude_payload(event: &str, edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let path = format!(
        "{}/../adapters/test_data/claude-code/{event}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut value);
    value.to_string().into_bytes()
}

/// A shim request for `agent` carrying `payload`.
pub(crate) fn request(agent: &str, payload: Vec<u8>) -> hookgate_wire::Request {
    hookgate_wire::Request {
        args: vec![agent.to_owned()],
        cwd: "/home/dev/acme".into(),
        env: vec![("CLAUDE_PROJECT_DIR".into(), "/home/dev/acme".into())],
        stdin: payload,
    }
}

/// A temporary directory only this user can use, as the gateway requires
/// of its socket directory (`tempdir()` may follow the umask).
pub(crate) fn private_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    dir
}

/// Where a test gateway listens: `name` inside `dir`; on Windows a pipe
/// named after `dir` (pipes share one machine-wide namespace, so the
/// temporary directory's unique name keeps tests apart).
pub(crate) fn socket_path(dir: &tempfile::TempDir, name: &str) -> std::path::PathBuf {
    if cfg!(windows) {
        let unique = dir.path().file_name().unwrap().to_string_lossy();
        let prefix = hookgate_wire::socket::PIPE_PREFIX;
        std::path::PathBuf::from(format!(r"{prefix}hookgate-test{unique}\{name}"))
    } else {
        dir.path().join(name)
    }
}
