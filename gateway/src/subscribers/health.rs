//! Periodic `grpc.health.v1` checks of remote subscribers, so `gateway
//! status` shows which are up before an event finds out the hard way.
//!
//! A subscriber that serves the health service owns its state through it
//! (SERVING → up, anything else → not serving, unreachable → down). One
//! without it (UNIMPLEMENTED) is marked so, and its state then follows its
//! last call (see `SubscriberStats::call_outcome`).

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::metrics::{State, StateSource, SubscriberStats};

/// Time between two checks of one subscriber.
pub const INTERVAL: Duration = Duration::from_secs(5);
/// Deadline of one check.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Starts checking `channel` every [`INTERVAL`] (the first check at once)
/// until `shutdown`.
pub fn spawn(
    name: &str,
    channel: Channel,
    stats: Arc<SubscriberStats>,
    tracker: &TaskTracker,
    shutdown: CancellationToken,
) {
    let name: Arc<str> = name.into();
    tracker.spawn(async move {
        let mut client = HealthClient::new(channel);
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = ticks.tick() => {}
            }
            let result = tokio::time::timeout(
                CHECK_TIMEOUT,
                client.check(HealthCheckRequest { service: String::new() }),
            )
            .await;
            let before = stats.state();
            match result {
                Ok(Ok(reply)) => {
                    let state = if reply.into_inner().status == ServingStatus::Serving as i32 {
                        State::Up
                    } else {
                        State::NotServing
                    };
                    stats.set_state(state, StateSource::Health);
                }
                Ok(Err(status)) if status.code() == tonic::Code::Unimplemented => {
                    stats.set_source(StateSource::LastCall);
                }
                Ok(Err(status)) if status.code() == tonic::Code::Unavailable => {
                    stats.set_state(State::Down, StateSource::Health);
                }
                Ok(Err(status)) => {
                    tracing::debug!(subscriber = %name, code = ?status.code(), "health check failed");
                    stats.set_state(State::Down, StateSource::Health);
                }
                Err(_elapsed) => stats.set_state(State::Down, StateSource::Health),
            }
            let after = stats.state();
            if before != after && stats.source() == StateSource::Health {
                tracing::info!(subscriber = %name, state = after.as_str(), "subscriber health changed");
            }
        }
    });
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
    }

    async fn checked_state(endpoint: &str) -> (State, StateSource) {
        let channel = tonic::transport::Endpoint::from_shared(endpoint.to_owned())
            .unwrap()
            .connect_lazy();
        let stats = Arc::new(SubscriberStats::default());
        let tracker = TaskTracker::new();
        let stop = CancellationToken::new();
        spawn("s", channel, Arc::clone(&stats), &tracker, stop.clone());
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
