//! Periodic `grpc.health.v1` checks of remote subscribers, so `gateway
//! status` shows which are up before an event finds out the hard way.
//!
//! A subscriber that serves the health service owns its state through it
//! (SERVING → up, anything else → not serving, unreachable → down). One
//! without it (UNIMPLEMENTED) is marked so, and its state then follows its
//! last call (see `SubscriberStats::call_outcome`).

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use super::balance::Backends;
use super::token::Token;
use crate::metrics::{State, StateSource, SubscriberStats};

/// Time between two checks of one subscriber.
pub(crate) const INTERVAL: Duration = Duration::from_secs(5);
/// Deadline of one check.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// What one endpoint's check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Serving,
    NotServing,
    /// It has no health service: its calls tell.
    Unimplemented,
    Down,
}

/// Starts checking every endpoint of `backends` every [`INTERVAL`] (the
/// first check at once) until `shutdown`, sending `token` as the calls do.
/// The subscriber is up while any endpoint serves; each endpoint's finding
/// also steers the balancer (one that is down is tried last).
pub(crate) fn spawn(
    name: &str,
    backends: Arc<Backends>,
    token: Option<Token>,
    stats: Arc<SubscriberStats>,
    tracker: &TaskTracker,
    shutdown: CancellationToken,
) {
    let name: Arc<str> = name.into();
    tracker.spawn(async move {
        let clients: Vec<_> = backends
            .iter()
            .map(|b| HealthClient::new(b.channel()))
            .collect();
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = ticks.tick() => {}
            }
            let checks = clients
                .iter()
                .map(|client| check(&name, client.clone(), token.as_ref()));
            let found = join_all(checks).await;
            for (backend, found) in backends.iter().zip(&found) {
                backend.set_serving(matches!(found, Found::Serving | Found::Unimplemented));
            }
            let before = stats.state();
            if found.contains(&Found::Serving) {
                stats.set_state(State::Up, StateSource::Health);
            } else if found.contains(&Found::Unimplemented) {
                stats.set_source(StateSource::LastCall);
            } else if found.contains(&Found::NotServing) {
                stats.set_state(State::NotServing, StateSource::Health);
            } else {
                stats.set_state(State::Down, StateSource::Health);
            }
            let after = stats.state();
            if before != after && stats.source() == StateSource::Health {
                tracing::info!(subscriber = %name, state = after.as_str(), "subscriber health changed");
            }
        }
    });
}

async fn check(name: &str, mut client: HealthClient<Channel>, token: Option<&Token>) -> Found {
    let mut request = tonic::Request::new(HealthCheckRequest {
        service: String::new(),
    });
    if let Some(token) = token
        && let Ok(mut value) =
            tonic::metadata::AsciiMetadataValue::try_from(token.header().as_bytes())
    {
        value.set_sensitive(true);
        request.metadata_mut().insert("authorization", value);
    }
    match tokio::time::timeout(CHECK_TIMEOUT, client.check(request)).await {
        Ok(Ok(reply)) if reply.get_ref().status == ServingStatus::Serving as i32 => Found::Serving,
        Ok(Ok(_)) => Found::NotServing,
        Ok(Err(status)) if status.code() == tonic::Code::Unimplemented => Found::Unimplemented,
        Ok(Err(status)) => {
            if status.code() != tonic::Code::Unavailable {
                tracing::debug!(subscriber = %name, code = ?status.code(), "health check failed");
            }
            Found::Down
        }
        Err(_elapsed) => Found::Down,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gRPC server on a free port, with or without the health service.
    async fn server(with_health: bool) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
        let (_reporter, health) = tonic_health::server::health_reporter();
        let router = if with_health {
            tonic::transport::Server::builder().add_service(health)
        } else {
            // A server that serves *something*, but not grpc.health.v1.
            tonic::transport::Server::builder().add_service(
                hookgate_proto::v1::gateway_server::GatewayServer::new(NoGateway),
            )
        };
        tokio::spawn(router.serve_with_incoming(incoming));
        format!("http://{addr}")
    }

    struct NoGateway;

    #[tonic::async_trait]
    impl hookgate_proto::v1::gateway_server::Gateway for NoGateway {
        async fn status(
            &self,
            _: tonic::Request<hookgate_proto::v1::StatusRequest>,
        ) -> Result<tonic::Response<hookgate_proto::v1::StatusReply>, tonic::Status> {
            Err(tonic::Status::unimplemented("test"))
        }

        async fn reload(
            &self,
            _: tonic::Request<hookgate_proto::v1::ReloadRequest>,
        ) -> Result<tonic::Response<hookgate_proto::v1::ReloadReply>, tonic::Status> {
            Err(tonic::Status::unimplemented("test"))
        }

        async fn eval(
            &self,
            _: tonic::Request<hookgate_proto::v1::EvalRequest>,
        ) -> Result<tonic::Response<hookgate_proto::v1::EvalReply>, tonic::Status> {
            Err(tonic::Status::unimplemented("test"))
        }

        async fn approvals(
            &self,
            _: tonic::Request<hookgate_proto::v1::ApprovalsRequest>,
        ) -> Result<tonic::Response<hookgate_proto::v1::ApprovalsReply>, tonic::Status> {
            Err(tonic::Status::unimplemented("test"))
        }
    }

    async fn checked_state(endpoint: &str) -> (State, StateSource) {
        let dialer = crate::client::dial::Dialer::new(endpoint, None).unwrap();
        let channel = dialer.channel(CHECK_TIMEOUT).unwrap();
        let client =
            crate::client::unary::UnaryClient::over(dialer, None, "/p", CHECK_TIMEOUT, 1).unwrap();
        let backend = crate::client::balance::Backend::new(client, channel);
        let backends = Arc::new(Backends::new(vec![backend], INTERVAL));
        let stats = Arc::new(SubscriberStats::default());
        let tracker = TaskTracker::new();
        let stop = CancellationToken::new();
        spawn(
            "s",
            backends,
            None,
            Arc::clone(&stats),
            &tracker,
            stop.clone(),
        );
        // The first check runs at once; wait for it to land. The outer
        // guard only turns a hang into a failure; it is not a speed check.
        let landed = async {
            while stats.source() == StateSource::None {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), landed)
            .await
            .expect("the first health check never landed");
        stop.cancel();
        tracker.close();
        tracker.wait().await;
        (stats.state(), stats.source())
    }

    #[tokio::test]
    async fn health_service_sets_the_state() {
        let endpoint = server(true).await;
        assert_eq!(
            checked_state(&endpoint).await,
            (State::Up, StateSource::Health)
        );
    }

    #[tokio::test]
    async fn without_health_service_the_last_call_decides() {
        let endpoint = server(false).await;
        assert_eq!(
            checked_state(&endpoint).await,
            (State::Unknown, StateSource::LastCall)
        );
    }

    #[tokio::test]
    async fn an_unreachable_subscriber_is_down() {
        // Bound then dropped: nothing listens there.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        assert_eq!(
            checked_state(&format!("http://{addr}")).await,
            (State::Down, StateSource::Health)
        );
    }
}
