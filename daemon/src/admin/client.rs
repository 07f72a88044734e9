//! The client side of the admin API: what `gateway status`, `gateway
//! reload`, `gateway eval --socket` and `gateway approvals` run.
//!
//! gRPC over the transport's own [`connect`](hookgate_transport::connect) (a
//! Unix socket, or on Windows a named pipe whose server must run as this
//! user), so one code path serves both platforms.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_proto::v1;
use hookgate_proto::v1::gateway_client::GatewayClient;
use hyper_util::rt::TokioIo;
use tonic::transport::Endpoint;

use super::admin_path;

/// What `approvals` asks (the binary needs no proto crate of its own).
pub use hookgate_proto::v1::ApprovalsRequest;

/// Why no status could be had.
#[derive(Debug, thiserror::Error)]
pub enum StatusError {
    #[error("not running: nothing answers on {path} ({reason})")]
    NotRunning { path: PathBuf, reason: String },
    #[error("the gateway on {path} did not answer within {timeout:?}")]
    Timeout { path: PathBuf, timeout: Duration },
    #[error("the gateway on {path} failed the call: {status}", status = .status.message())]
    Rpc {
        path: PathBuf,
        status: tonic::Status,
    },
    #[error("the gateway on {path} sent an unreadable document: {reason}")]
    BadDocument { path: PathBuf, reason: String },
}

/// Asks the gateway whose hook socket is `socket` for its status document
/// (as JSON), within `timeout`.
pub async fn fetch(socket: &Path, timeout: Duration) -> Result<serde_json::Value, StatusError> {
    let (path, mut client) = connect(socket, timeout).await?;
    let reply = answered(&path, client.status(v1::StatusRequest {}).await)?;
    document(path, &reply.status_json)
}

/// Asks the gateway whose hook socket is `socket` to reload its config,
/// within `timeout`; the reply says how the attempt ended.
pub async fn reload(
    socket: &Path,
    timeout: Duration,
    allow_weaker: bool,
) -> Result<v1::ReloadReply, StatusError> {
    let (path, mut client) = connect(socket, timeout).await?;
    answered(
        &path,
        client.reload(v1::ReloadRequest { allow_weaker }).await,
    )
}

/// The largest `Eval` answer taken: the event and the reply each hold at
/// most a payload's worth of tool input, and the JSON escapes some of it.
const MAX_EVAL_ANSWER: usize = 4 * super::eval::MAX_EVAL_PAYLOAD;

/// Asks the gateway whose hook socket is `socket` to run `request` (what a
/// shim would send; its env is not sent) through its live pipeline, within
/// `timeout`: the outcome document (the schema `gateway eval --json`
/// prints).
pub async fn eval(
    socket: &Path,
    timeout: Duration,
    request: hookgate_wire::Request,
) -> Result<serde_json::Value, StatusError> {
    let request = v1::EvalRequest {
        payload: request.stdin,
        args: request.args,
        cwd: request.cwd,
    };
    let (path, client) = connect(socket, timeout).await?;
    let answer = client
        .max_decoding_message_size(MAX_EVAL_ANSWER)
        .eval(request)
        .await;
    let reply = answered(&path, answer)?;
    document(path, &reply.outcome_json)
}

/// Asks the gateway whose hook socket is `socket` to list or answer held
/// calls (`request.action`), within `timeout`; the reply's JSON.
pub async fn approvals(
    socket: &Path,
    timeout: Duration,
    request: v1::ApprovalsRequest,
) -> Result<serde_json::Value, StatusError> {
    let (path, mut client) = connect(socket, timeout).await?;
    let reply = answered(&path, client.approvals(request).await)?;
    document(path, &reply.held_json)
}

/// The message the gateway on `path` answered a call with, or the call's
/// failure as a [`StatusError::Rpc`]: one mapping for every admin call.
fn answered<T>(
    path: &Path,
    reply: Result<tonic::Response<T>, tonic::Status>,
) -> Result<T, StatusError> {
    reply
        .map(tonic::Response::into_inner)
        .map_err(|status| StatusError::Rpc {
            path: path.to_path_buf(),
            status,
        })
}

/// The JSON document the gateway on `path` answered.
fn document(path: PathBuf, json: &str) -> Result<serde_json::Value, StatusError> {
    serde_json::from_str(json).map_err(|err| StatusError::BadDocument {
        path,
        reason: err.to_string(),
    })
}

/// A client on the admin socket of the gateway whose hook socket is
/// `socket`, and that admin socket's path.
async fn connect(
    socket: &Path,
    timeout: Duration,
) -> Result<(PathBuf, GatewayClient<tonic::transport::Channel>), StatusError> {
    let path = admin_path(socket);
    let not_running = |reason: String| StatusError::NotRunning {
        path: path.clone(),
        reason,
    };
    // The URI only fills in HTTP/2's `:authority`: the connector below
    // decides where the connection goes.
    let endpoint = Endpoint::from_static("http://localhost")
        .connect_timeout(timeout)
        .timeout(timeout);
    let connector = tower::service_fn({
        let path = path.clone();
        move |_| {
            let path = path.clone();
            async move { hookgate_transport::connect(&path).await.map(TokioIo::new) }
        }
    });
    let connect = endpoint.connect_with_connector(connector);
    match tokio::time::timeout(timeout, connect).await {
        Ok(Ok(channel)) => Ok((path, GatewayClient::new(channel))),
        Ok(Err(err)) => {
            let reason = std::error::Error::source(&err)
                .map_or_else(|| err.to_string(), ToString::to_string);
            Err(not_running(reason))
        }
        Err(_elapsed) => Err(StatusError::Timeout {
            path: path.clone(),
            timeout,
        }),
    }
}
