//! Tests of the endpoint balancer: turns over the endpoints, dead ones
//! skipped and tried last, which failures fail over.

use std::sync::Arc;
use std::time::Duration;

use hookgate_proto::v1;
use prost::Message as _;

use super::*;
use crate::client::dial::Dialer;
use crate::testing::fake_subscriber;

const TIMEOUT: Duration = Duration::from_secs(10);

/// Answers with its own name as the reason.
fn named(name: &'static str) -> crate::testing::Behaviour {
    Arc::new(move |_| {
        Box::pin(async move {
            Ok(v1::Decision {
                reason: name.to_owned(),
                ..v1::Decision::default()
            })
        })
    })
}

fn backends(endpoints: &[&str]) -> Backends {
    let list = endpoints
        .iter()
        .map(|endpoint| {
            let dialer = Dialer::new(endpoint, None).unwrap();
            let channel = dialer.channel(TIMEOUT).unwrap();
            let client = UnaryClient::over(
                dialer,
                None,
                "/hookgate.v1.Subscriber/OnEvent",
                TIMEOUT,
                1 << 20,
            )
            .unwrap();
            Backend::new(client, channel)
        })
        .collect();
    Backends::new(list, Duration::from_secs(60))
}

async fn answer(backends: &Backends) -> Result<String, CallError> {
    let event = v1::HookEvent::default().encode_to_vec();
    let reply = backends.call(event.into(), None).await?;
    Ok(v1::Decision::decode(reply).unwrap().reason)
}

/// A port nothing listens on.
fn dead_endpoint() -> String {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    format!("http://{addr}")
}

#[tokio::test]
async fn calls_take_turns_over_the_endpoints() {
    let (a, b) = (
        fake_subscriber(named("a")).await,
        fake_subscriber(named("b")).await,
    );
    let backends = backends(&[&a, &b]);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(answer(&backends).await.unwrap());
    }
    assert_eq!(seen, ["a", "b", "a", "b"]);
}

#[tokio::test]
async fn a_dead_endpoint_costs_no_call_and_is_tried_last_afterwards() {
    let dead = dead_endpoint();
    let live = fake_subscriber(named("live")).await;
    let backends = backends(&[&dead, &live]);
    for _ in 0..6 {
        assert_eq!(answer(&backends).await.unwrap(), "live");
    }
    let order = backends.order();
    assert_eq!(
        order.last(),
        Some(&0),
        "the dead endpoint goes last: {order:?}"
    );
    let failed: Vec<u64> = backends
        .iter()
        .map(|b| b.stats().failed.load(Ordering::Relaxed))
        .collect();
    assert_eq!(failed, [1, 0], "tried once, then last (and never needed)");
}

#[tokio::test]
async fn every_endpoint_dead_is_the_last_error() {
    let backends = backends(&[&dead_endpoint(), &dead_endpoint()]);
    assert!(matches!(
        answer(&backends).await,
        Err(CallError::Connect(_))
    ));
}

#[tokio::test]
async fn an_answer_other_than_unavailable_does_not_fail_over() {
    let refuse: crate::testing::Behaviour =
        Arc::new(|_| Box::pin(async { Err(tonic::Status::permission_denied("no")) }));
    let unavailable: crate::testing::Behaviour =
        Arc::new(|_| Box::pin(async { Err(tonic::Status::unavailable("no upstream")) }));
    let cases = [
        (refuse, Err(tonic::Code::PermissionDenied)),
        (unavailable, Ok("other")),
    ];
    for (first, want) in cases {
        let first = fake_subscriber(first).await;
        let other = fake_subscriber(named("other")).await;
        let got = answer(&backends(&[&first, &other])).await;
        match (got, want) {
            (Ok(reason), Ok(want)) => assert_eq!(reason, want),
            (Err(CallError::Status { code, .. }), Err(want)) => assert_eq!(code, want),
            (got, want) => panic!("{got:?}, wanted {want:?}"),
        }
    }
}
