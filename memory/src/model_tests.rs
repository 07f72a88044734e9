//! Compression by a model, the store's side: a batch read, its memories
//! stored in its place, a batch forgotten meanwhile not resurrected, and
//! a reply read as memory lines or refused as garbage.

#![allow(
    clippy::disallowed_methods,
    reason = "tests use files in a temporary directory, on no runtime"
)]

use super::*;

const NOW: i64 = 1_800_000_000_000;

fn obs(session: &str, kind: ObservationKind, text: &str) -> Observation {
    Observation {
        project: "/src/shop".into(),
        agent: "codex".into(),
        session: session.into(),
        kind,
        text: text.into(),
        at_ms: NOW,
    }
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("memory.db")).unwrap();
    (dir, store)
}

#[test]
fn a_batch_is_replaced_by_the_models_memories() {
    let (_dir, mut store) = store();
    store
        .record(&obs("s1", ObservationKind::Prompt, "fix the cache"))
        .unwrap();
    store
        .record(&obs("s1", ObservationKind::Command, "make warm: 40 s"))
        .unwrap();
    store
        .record(&obs("s2", ObservationKind::Command, "other session"))
        .unwrap();
    let batch = store.pending_batch("s1").unwrap().unwrap();
    assert_eq!(batch.observations.len(), 2);
    let log = model_prompt(&batch.observations, 4096);
    assert_eq!(log, "user asked: fix the cache\nran: make warm: 40 s");
    let memories = parse_reply("fact: the cache warms in 40 s").unwrap();
    let done = store.store_batch(&batch, &memories, NOW).unwrap();
    assert_eq!((done.observations, done.memories), (2, 1));
    assert_eq!(store.pending("s1").unwrap(), 0);
    assert_eq!(store.pending("s2").unwrap(), 1);
    assert!(store.pending_batch("s1").unwrap().is_none());
    let stats = store.stats().unwrap();
    assert_eq!(stats.memories, 1);
}

#[test]
fn a_batch_forgotten_meanwhile_is_not_stored() {
    let (_dir, mut store) = store();
    store
        .record(&obs("s1", ObservationKind::Command, "make warm"))
        .unwrap();
    let batch = store.pending_batch("s1").unwrap().unwrap();
    store.forget(Forget::Session("s1")).unwrap();
    let memories = parse_reply("fact: should not be kept").unwrap();
    let done = store.store_batch(&batch, &memories, NOW).unwrap();
    assert_eq!(done, Compressed::default());
    assert_eq!(store.stats().unwrap().memories, 0);
}

#[test]
fn the_newest_log_lines_are_kept_within_the_cap() {
    let observations: Vec<Observation> = (0..10)
        .map(|i| {
            obs(
                "s",
                ObservationKind::Command,
                &format!("command number {i}"),
            )
        })
        .collect();
    let log = model_prompt(&observations, 60);
    assert_eq!(log, "ran: command number 8\nran: command number 9");
    // The newest alone longer than the cap: its start, not an empty log.
    let long = [obs("s", ObservationKind::Command, &"y".repeat(100))];
    assert_eq!(model_prompt(&long, 10), "ran: yyyyy");
}

#[test]
fn a_session_that_only_started_and_ended_has_no_log() {
    let observations = [
        obs("s", ObservationKind::SessionStart, "SessionStart"),
        obs("s", ObservationKind::SessionEnd, "SessionEnd"),
    ];
    assert_eq!(model_prompt(&observations, 4096), "");
}

#[test]
fn replies_are_memory_lines_or_garbage() {
    let got = parse_reply("Here you go:\n- fact: port 6543\n* Decision: use WAL\nfile: a.rs\nproblem: flaky test\nnoise").unwrap();
    let kinds: Vec<MemoryKind> = got.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        kinds,
        [
            MemoryKind::Fact,
            MemoryKind::Decision,
            MemoryKind::File,
            MemoryKind::Problem
        ]
    );
    assert_eq!(got[0].1, "port 6543");
    for garbage in [
        "",
        "I cannot help with that.",
        "<html>502</html>",
        "fact:   ",
    ] {
        assert_eq!(parse_reply(garbage), None, "{garbage:?}");
    }
    let long = format!("fact: {}", "x".repeat(5000));
    assert_eq!(parse_reply(&long).unwrap()[0].1.len(), MAX_MEMORY_BYTES);
}
