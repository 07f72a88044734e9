//! Tests of registry rebuilds: exactly the unchanged subscribers are
//! kept across a reload.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::Builder;
use crate::metrics::Metrics;
use hookgate_config::{Config, Env};

fn config(policy_timeout: u32, guard_reason: &str) -> Config {
    let text = format!(
        r#"
[[subscriber]]
name = "policy"
endpoint = "http://127.0.0.1:1"
timeout_ms = {policy_timeout}

[[subscriber]]
name = "watcher"
endpoint = "http://127.0.0.1:1"
mode = "observe"

[[subscriber]]
name = "guard"
builtin = "guard"
[[subscriber.rules]]
command = ["rm"]
reason = "{guard_reason}"
"#
    );
    Config::parse("test.toml", &text, &Env::default()).unwrap()
}

#[tokio::test]
async fn a_rebuild_keeps_exactly_the_unchanged_subscribers() {
    let metrics = Metrics::default();
    let (workers, health, stop) = (
        TaskTracker::new(),
        TaskTracker::new(),
        CancellationToken::new(),
    );
    let builder = Builder {
        metrics: &metrics,
        workers: &workers,
        health: Some((&health, &stop)),
        approvals: &Arc::default(),
    };
    let first = builder
        .build(&config(200, "one").subscribers, None)
        .unwrap();
    assert_eq!((first.len(), first.kept()), (3, 0));
    assert_eq!(health.len(), 2, "one health check per remote");

    // Table-driven: what changes, and which subscribers must be new.
    let cases = [
        (config(200, "one"), [true, true, true]),
        (config(200, "two"), [true, true, false]),
        (config(300, "one"), [false, true, true]),
    ];
    for (next, same) in cases {
        let second = builder.build(&next.subscribers, Some(&first)).unwrap();
        let policy = Arc::ptr_eq(&first.deciders[0], &second.deciders[0]);
        let watcher = Arc::ptr_eq(&first.observers[0].1, &second.observers[0].1);
        let guard = Arc::ptr_eq(&first.deciders[1], &second.deciders[1]);
        assert_eq!([policy, watcher, guard], same);
        let kept = same.iter().filter(|s| **s).count();
        assert_eq!(second.kept(), kept);
    }
    // Dropping the last registry holding a remote stops its health check
    // (the shared token is never cancelled here).
    let third = builder.build(&config(300, "x").subscribers, None).unwrap();
    drop(first);
    drop(third);
    health.close();
    tokio::time::timeout(std::time::Duration::from_secs(5), health.wait())
        .await
        .expect("every health check stops with its last registry");
}
