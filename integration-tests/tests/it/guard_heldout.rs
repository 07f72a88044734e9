//! The held-out guard corpus (`test-data/guard-corpus/`) through the real
//! `gateway-shim` and a real gateway on its embedded default config, held
//! against `known-gaps.tsv`: a dangerous command that passes or an ordinary
//! one that is stopped, not listed there, is a regression; a listed one
//! handled right now means the list is stale. Either fails, naming the
//! rows and the command that regenerates the list.

use std::path::Path;

use hookgate_integration_tests::guard_corpus::{self, Kind, gaps};
use hookgate_integration_tests::{Shim, TestGateway, binaries::binaries};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heldout_corpus_has_exactly_the_known_gaps() {
    let dir = guard_corpus::dir();
    let rows = guard_corpus::load(&dir).unwrap_or_else(|err| panic!("{err}"));
    let count = |kind| rows.iter().filter(|r| r.kind == kind).count();
    assert!(
        count(Kind::Dangerous) >= 300,
        "{} dangerous rows",
        count(Kind::Dangerous)
    );
    assert!(
        count(Kind::Ordinary) >= 150,
        "{} ordinary rows",
        count(Kind::Ordinary)
    );
    let listed = std::fs::read_to_string(dir.join(gaps::FILE_NAME))
        .unwrap_or_else(|err| panic!("{}: {err}", gaps::FILE_NAME));
    let listed = gaps::parse(&listed).unwrap_or_else(|err| panic!("{err}"));

    let gateway =
        TestGateway::start_embedded_as(&binaries().gateway, Path::new(guard_corpus::HOME)).await;
    let shim = Shim::new(gateway.socket(), Some(guard_corpus::AGENT));
    let outcomes = guard_corpus::run(&gateway, &shim, &rows)
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(outcomes.len(), rows.len());
    // Every verdict is one the guard gave: a denied row carries the
    // guard's reason (or self-protection's, for hookgate's own parts), so
    // a crash or fallback cannot pass for a deny.
    for outcome in outcomes
        .iter()
        .filter(|o| o.verdict != guard_corpus::Verdict::Allow)
    {
        assert!(
            outcome.reason.contains("hookgate guard")
                || outcome.reason.contains("hookgate self-protection"),
            "{:?}: {:?} without the guard's reason: {:?}",
            outcome.row.written,
            outcome.verdict,
            outcome.reason
        );
    }
    let drift = gaps::compare(&gaps::of(&outcomes), &listed);
    assert!(drift.is_empty(), "{drift}");
}
