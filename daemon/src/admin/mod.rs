//! The admin API: `hookgate.v1.Gateway/Status`, `/Reload`, `/Eval`
//! (`eval.rs`) and `/Approvals` (`approvals.rs`), `grpc.health.v1` and gRPC
//! server reflection, on a sibling socket so `gateway status` and
//! `grpcurl -unix` can ask a running gateway how it is doing.
//!
//! Why a second socket rather than protocol detection on the hook socket:
//! the hook path stays one tiny frame format with nothing to sniff, and an
//! admin client can never take a hook connection slot. The admin socket is
//! the hook socket's path with `.admin` appended (`gateway.sock.admin`; on
//! Windows the sibling pipe `\\.\pipe\...\gateway.admin`), bound by the
//! same [`hookgate_transport`] with the same guarantees (private to
//! this user, a live one refused) and the same peer check on accept.

mod activity;
pub(crate) mod approvals;
pub mod client;
pub mod document;
pub(crate) mod eval;
pub mod table;

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::Stream;
use hookgate_proto::v1;
use hookgate_proto::v1::gateway_server::{Gateway, GatewayServer};
use hookgate_transport::{AcceptError, Connection, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_util::sync::CancellationToken;

use crate::approvals::Approvals;
use crate::reload;
use document::StatusSource;

/// Suffix that turns the hook socket's path into the admin socket's.
pub const ADMIN_SUFFIX: &str = ".admin";

/// `<socket>.admin`.
pub fn admin_path(socket: &Path) -> PathBuf {
    hookgate_transport::sibling(socket, ADMIN_SUFFIX)
}

/// The `hookgate.v1.Gateway` service.
#[derive(Debug)]
struct Service {
    source: Arc<StatusSource>,
    reload: reload::Handle,
    evals: eval::Door,
    approvals: Arc<Approvals>,
}

#[tonic::async_trait]
impl Gateway for Service {
    async fn status(
        &self,
        _request: tonic::Request<v1::StatusRequest>,
    ) -> Result<tonic::Response<v1::StatusReply>, tonic::Status> {
        let doc = self.source.document().await;
        let status_json = serde_json::to_string(&doc)
            .map_err(|err| tonic::Status::internal(format!("status document: {err}")))?;
        Ok(tonic::Response::new(v1::StatusReply {
            version: doc.version.to_owned(),
            uptime_secs: doc.uptime_secs,
            pid: doc.pid,
            socket: doc.socket,
            config: doc.config,
            status_json,
        }))
    }

    async fn reload(
        &self,
        request: tonic::Request<v1::ReloadRequest>,
    ) -> Result<tonic::Response<v1::ReloadReply>, tonic::Status> {
        let allow_weaker = request.get_ref().allow_weaker;
        let outcome = self
            .reload
            .reload(allow_weaker)
            .await
            .ok_or_else(|| tonic::Status::unavailable("the gateway is shutting down"))?;
        let error = outcome.error().unwrap_or_default().to_owned();
        Ok(tonic::Response::new(v1::ReloadReply {
            result: outcome.as_str().to_owned(),
            generation: outcome.generation(),
            error,
        }))
    }

    async fn eval(
        &self,
        request: tonic::Request<v1::EvalRequest>,
    ) -> Result<tonic::Response<v1::EvalReply>, tonic::Status> {
        let outcome_json = eval::eval(&self.evals, request.into_inner()).await?;
        Ok(tonic::Response::new(v1::EvalReply { outcome_json }))
    }

    async fn approvals(
        &self,
        request: tonic::Request<v1::ApprovalsRequest>,
    ) -> Result<tonic::Response<v1::ApprovalsReply>, tonic::Status> {
        let held_json = approvals::answer(&self.approvals, request.get_ref())?;
        Ok(tonic::Response::new(v1::ApprovalsReply { held_json }))
    }
}

/// Serves the admin API on `listener` until `shutdown`; only peers of our
/// own user are served (the listener checks them). `Eval` calls reach the
/// pipeline through `evals` once it is open.
pub(crate) async fn serve(
    listener: Listener,
    source: Arc<StatusSource>,
    reload: reload::Handle,
    evals: eval::Door,
    approvals: Arc<Approvals>,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_serving::<GatewayServer<Service>>().await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(v1::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    tonic::transport::Server::builder()
        .add_service(health)
        .add_service(reflection)
        .add_service(
            GatewayServer::new(Service {
                source,
                reload,
                evals,
                approvals,
            })
            // An `Eval` payload may be as large as a shim's.
            .max_decoding_message_size(eval::MAX_EVAL_PAYLOAD + (64 << 10)),
        )
        .serve_with_incoming_shutdown(incoming(listener), shutdown.cancelled_owned())
        .await?;
    Ok(())
}

/// Accepted connections of our own user; others are closed and logged.
fn incoming(listener: Listener) -> impl Stream<Item = std::io::Result<Admitted>> {
    futures_util::stream::unfold(listener, move |listener| async move {
        loop {
            match listener.accept().await {
                Ok(stream) => return Some((Ok(Admitted(stream)), listener)),
                Err(AcceptError::Refused(refused)) => {
                    tracing::warn!(%refused, "admin socket: refused a connection");
                }
                Err(AcceptError::Io(err)) => {
                    tracing::warn!(error = %err, "admin socket: accept failed");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
    })
}

/// An accepted admin connection, as tonic serves it: tonic serves any
/// stream that says where it came from, and the admin service needs
/// nothing of it (the peer was checked on accept). A type of this crate,
/// since the transport's knows nothing of tonic.
struct Admitted(Connection);

impl tonic::transport::server::Connected for Admitted {
    type ConnectInfo = ();

    fn connect_info(&self) -> Self::ConnectInfo {}
}

impl AsyncRead for Admitted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Admitted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
