//! Tests of the reloader: only a valid, changed config replaces the
//! registry.

use std::sync::Arc;

use arc_swap::ArcSwap;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::{Outcome, ReloadStatus, Reloader, channel};
use crate::metrics::Metrics;
use crate::subscribers::Registry;
use hookgate_config::Config;

fn guard(reason: &str) -> String {
    format!(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"{reason}\"\n"
    )
}

#[tokio::test]
async fn only_a_valid_changed_config_replaces_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gateway.toml");
    std::fs::write(&path, guard("one")).unwrap();
    // As a reload reads it: over the embedded default.
    let config = Config::load(Some(&path)).unwrap();
    let metrics = Arc::new(Metrics::default());
    let workers = TaskTracker::new();
    let registry = Registry::build(&config.subscribers, &metrics, &workers).unwrap();
    let live = Arc::new(ArcSwap::from_pointee(registry));
    let status = Arc::new(ReloadStatus::default());
    let stop = CancellationToken::new();
    let reloader = Reloader {
        explicit: Some(path.clone()),
        registry: Arc::clone(&live),
        config,
        metrics,
        workers,
        health: TaskTracker::new(),
        stop_health: CancellationToken::new(),
        stop: stop.clone(),
        status: Arc::clone(&status),
        site: crate::protect::Site {
            socket: dir.path().join("gateway.sock"),
            explicit: Some(path.clone()),
            enabled: true,
        },
        approvals: Arc::default(),
    };
    let (handle, requests) = channel();
    let task = tokio::spawn(reloader.run(requests));

    // (file text, outcome, whether the registry was replaced)
    let steps: [(String, &str, u64, bool); 5] = [
        (guard("one"), "unchanged", 1, false),
        (
            format!("# a comment\n{}", guard("one")),
            "unchanged",
            1,
            false,
        ),
        (guard("two"), "applied", 2, true),
        (
            guard("two").replace("command", "commandz"),
            "invalid",
            2,
            false,
        ),
        (guard("three"), "applied", 3, true),
    ];
    for (text, result, generation, replaced) in steps {
        std::fs::write(&path, &text).unwrap();
        let before = live.load_full();
        let outcome = handle.reload(false).await.expect("the reloader answers");
        assert_eq!(outcome.as_str(), result, "{text}: {outcome:?}");
        assert_eq!(outcome.generation(), generation, "{text}");
        assert_eq!(!Arc::ptr_eq(&before, &live.load_full()), replaced, "{text}");
        assert_eq!(status.generation(), generation);
        if let Outcome::Invalid { error, .. } = &outcome {
            assert!(error.contains("gateway.toml:"), "names the file: {error}");
            let snap = status.snapshot();
            assert_eq!(snap.last_error.as_deref(), Some(error.as_str()));
        }
    }

    // Stopping releases the registry the reloader shares with the pipeline.
    stop.cancel();
    task.await.unwrap();
    assert_eq!(live.load().len(), 0);
}
